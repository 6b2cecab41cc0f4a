// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The kfuncs of one object, sorted by name: the unit --diff --kfuncs and
 * --kfunc-history pair up across objects (ids differ between builds). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect.h"
#include "kfunc_table.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kf *)a)->name, ((const struct kf *)b)->name);
}

bool kside_kfuncs_known(const struct kside *s)
{
	return s->set8s || s->nr > 0;
}

const struct kf *kside_find(const struct kside *s, const char *name)
{
	struct kf key = { .name = name };

	return s->nr ? bsearch(&key, s->k, s->nr, sizeof(*s->k), by_name) : NULL;
}

const struct kf *kside_find_impl(const struct kside *s, const char *name)
{
	size_t len = strlen(name);
	char *impl = malloc(len + sizeof("_impl"));
	const struct kf *k;

	if (!impl)
		return NULL;
	memcpy(impl, name, len);
	memcpy(impl + len, "_impl", sizeof("_impl"));
	k = kside_find(s, impl);
	free(impl);
	return k;
}

int kside_load(struct kside *s, const char *path, bool as_is)
{
	const struct btf *btf;

	s->path = path;
	if (cli_open(path, CLI_OPEN_LENIENT | CLI_OPEN_QUIET, &s->b))
		return 1;
	/* without set8s the flags are unseen: said, as --kfuncs says it */
	inspect_note_problems(s->b, path, INSPECT_NOTE_OBJECT);
	s->set8s = btf2btf__set8_entry_cnt(s->b) > 0;
	btf = btf2btf__btf(s->b);
	if (!btf)	/* libbpf cannot hold it (a vlen past 65535): logged */
		return cli_fail(path, errno ? -errno : -ENOMEM);
	s->nr = btf2btf__kfunc_cnt(s->b);
	s->k = calloc(s->nr ? s->nr : 1, sizeof(*s->k));
	if (!btf || !s->k)
		goto nomem;
	for (size_t i = 0; i < s->nr; i++) {
		const struct btf2btf_kfunc *k = btf2btf__kfunc(s->b, i);

		if (!k)
			goto nomem;
		s->k[i].name = k->name;
		s->k[i].flags = k->flags;
		s->k[i].implicit = k->impl_name != NULL;
		s->k[i].bpf_proto = inspect_bpf_proto(btf, k, as_is);
		s->k[i].flag_str = inspect_flags_str(k->flags);
		if (!s->k[i].bpf_proto || !s->k[i].flag_str)
			goto nomem;
	}
	qsort(s->k, s->nr, sizeof(*s->k), by_name);
	return 0;
nomem:
	cli_error("%s: out of memory", path);
	return 1;
}

void kside_free(struct kside *s)
{
	for (size_t i = 0; s->k && i < s->nr; i++) {
		free(s->k[i].bpf_proto);
		free(s->k[i].flag_str);
	}
	free(s->k);
	btf2btf__close(s->b);
}
