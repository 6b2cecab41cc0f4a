// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Opening split BTF that carries its own distilled base: a module's
 * .BTF.base section (pahole --btf_features=distilled_base, 7.3's
 * resolve_btfids --distill_base, btf2btf --distill-base), or FILE.base beside
 * a raw FILE (as 7.3's resolve_btfids and gen-btf.sh write X.BTF and
 * X.BTF.base). Without a base given, the BTF is read on that distilled base
 * (as libbpf >= 1.5 reads it) and a transform keeps it: the writers write
 * .BTF and the distilled base together. With a base given, the BTF is
 * relocated onto it as the kernel relocates it at module load, and a
 * transform distills again from that base (Kbuild's --distill_base for
 * external modules), so that what is written stays relocatable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/btf_check.h"
#include "input/btf_input.h"
#include "input/btf_relocate.h"
#include "api/distilled.h"

int b2b_distilled_base_section(struct btf2btf *b, struct b2b_btf *dist)
{
	struct b2b_section sec;
	int err;

	memset(dist, 0, sizeof(*dist));
	err = b2b_elf_section(b->obj.elf, ".BTF.base", &sec, &b->log);
	if (err == -ENOENT)
		return 0;
	if (!err)
		err = b2b_parse_btf(sec.data, sec.size, NULL, ".BTF.base", dist, NULL, &b->log);
	if (!err)
		err = b2b_check_distilled_base(dist, ".BTF.base", &b->log);
	if (err)
		b2b_btf_free(dist);
	return err;
}

int b2b_distilled_base_file(struct btf2btf *b, const char *path, uint64_t max_decompressed,
			    struct b2b_btf *dist)
{
	char *base_path = b2b_base_path_of(path);
	int err = 0;

	memset(dist, 0, sizeof(*dist));
	if (!base_path)
		return b2b_errno(&b->log, -ENOMEM, "out of memory");
	if (!access(base_path, F_OK)) {
		err = b2b_load_btf_file(base_path, NULL, "distilled base BTF",
					max_decompressed, dist, NULL, &b->log);
		if (!err)
			err = b2b_check_distilled_base(dist, base_path, &b->log);
		if (err)
			b2b_btf_free(dist);
	}
	free(base_path);
	return err;
}

int b2b_distilled_settle(struct btf2btf *b, struct b2b_btf *dist, int err, const char *base_path)
{
	struct b2b_pass_out rel;
	struct b2b_btf relocated;
	char what[4096];

	if (b2b_btf_empty(dist) || err) {
		b2b_btf_free(dist);
		return err;
	}
	b->obj.info.distilled_base_types = b2b_btf_type_cnt(dist) - 1;
	if (b2b_btf_empty(&b->res.base)) {
		/* the distilled base is the base: kept, and written with the BTF */
		b->res.base = *dist;
		b->res.btf.base = &b->res.base;
		memset(dist, 0, sizeof(*dist));
		b->res.distilled = true;
		return 0;
	}
	err = b2b_relocate(&b->res.btf, &b->res.base, base_path, &rel, &b->log);
	if (err) {
		b2b_btf_free(dist);
		return err;
	}
	snprintf(what, sizeof(what), ".BTF relocated onto %s", base_path);
	err = b2b_btf_open_owned(&relocated, rel.data, rel.size, &b->res.base);
	rel.data = NULL;
	if (err)
		err = b2b_errno(&b->log, err, "%s: cannot parse: %s", what, strerror(-err));
	else
		err = b2b_check_btf_types(&relocated, what, &b->log);
	if (!err) {
		b2b_handle_remap(b, rel.map, rel.nr_map);
		b2b_btf_free(&b->res.btf);
		b->res.btf = relocated;
		b->obj.info.relocated = true;
		/* what a transform writes is distilled again, from this base */
		b->res.distill = true;
	} else {
		b2b_btf_free(&relocated);
	}
	b2b_pass_out_free(&rel);
	b2b_btf_free(dist);
	return err;
}
