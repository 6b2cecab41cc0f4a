// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: a module on a distilled base (.BTF.base), read on it
 * alone and relocated onto a base as the kernel does at module load.
 *
 *   input = 1 mode byte + an ELF module (seeds: the "reloc" fixture)
 *   mode & 1: the base is reloc-other.o (types moved, a pointer-only
 *             struct of another size: relocates), else reloc.o
 *
 * Properties beyond no crash, leak or UB:
 *   - a failure logs its error;
 *   - a relocated module passes the same checks as a plain split one: its
 *     relocated BTF (split on the base), written as raw BTF, opens as
 *     plain split BTF on that base, with the same kfuncs;
 *   - a module that relocates is also read on its distilled base alone.
 */
#include <bpf/btf.h>
#include <errno.h>

#include "btf2btf.h"
#include "fuzz_common.h"
#include "recipes.h"

static const char *bases[2];

static void make_bases(void)
{
	static char fit[320], other[320];

	if (bases[0])
		return;
	snprintf(fit, sizeof(fit), "%s", fuzz_path("reloc.o"));
	snprintf(other, sizeof(other), "%s", fuzz_path("reloc-other.o"));
	if (fx_make_reloc(fit))
		FUZZ_FAIL("cannot make the reloc fixture's bases");
	bases[0] = fit;
	bases[1] = other;
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	struct btf2btf *b = NULL, *plain = NULL, *alone = NULL;
	const char *base, *raw_path = fuzz_path("relocated.btf");
	const struct btf *btf;
	const void *raw;
	__u32 raw_size;
	int err;

	if (!size)
		return 0;
	make_bases();
	base = bases[data[0] & 1];
	{
		BTF2BTF_OPTS(opts, .base_path = base, .log = fuzz_log, .lenient = true);

		fuzz_errors = 0;
		err = btf2btf__open_mem(data + 1, size - 1, "fuzz-module", &opts, &b);
	}
	if (err && !fuzz_errors)
		FUZZ_FAIL("an open failed without a message");
	if (err || !btf2btf__object_info(b)->relocated)
		goto out;
	btf = btf2btf__btf(b);
	raw = btf ? btf__raw_data(btf, &raw_size) : NULL;
	if (!raw)
		goto out;	/* a vlen libbpf cannot hold: EOPNOTSUPP, said */
	fuzz_write(raw_path, raw, raw_size);
	{
		BTF2BTF_OPTS(opts, .base_path = base, .log = fuzz_log, .lenient = true);

		if (btf2btf__open(raw_path, &opts, &plain))
			FUZZ_FAIL("a relocated module does not pass as plain split BTF on its base");
		if (btf2btf__object_info(plain)->distilled_base_types)
			FUZZ_FAIL("the relocated BTF still reads on a distilled base");
	}
	{
		BTF2BTF_OPTS(opts, .log = fuzz_log, .lenient = true);

		if (btf2btf__open_mem(data + 1, size - 1, "fuzz-module", &opts, &alone))
			FUZZ_FAIL("a module that relocates does not read on its distilled base");
	}
out:
	btf2btf__close(b);
	btf2btf__close(plain);
	btf2btf__close(alone);
	unlink(raw_path);
	return 0;
}

FUZZ_ENTRY()
