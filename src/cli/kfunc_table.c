// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The kfuncs of one object, sorted by name: the unit --diff --kfuncs and
 * --kfunc-history pair up across objects (ids differ between builds). */
#include <bpf/btf.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The module files under a directory, for nftw(). */
static struct {
	char **paths;
	size_t nr, cap;
} found;

static bool is_module_name(const char *path)
{
	static const char *const ends[] = { ".ko", ".ko.xz", ".ko.gz", ".ko.zst" };
	size_t len = strlen(path);

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (len > strlen(ends[i]) && !strcmp(path + len - strlen(ends[i]), ends[i]))
			return true;
	return false;
}

static int add_found(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type != FTW_F || !is_module_name(path))
		return 0;
	if (found.nr == found.cap) {
		char **grown = realloc(found.paths, (found.cap = found.cap ? 2 * found.cap : 256) *
						    sizeof(*grown));

		if (!grown)
			return -1;
		found.paths = grown;
	}
	found.paths[found.nr] = strdup(path);
	return found.paths[found.nr++] ? 0 : -1;
}

static int by_name_order(const void *a, const void *b)
{
	const struct kf *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append module m's kfuncs to s, taking their strings. */
static int take_kfuncs(struct kside *s, struct kside *m)
{
	struct kf *grown = realloc(s->k, (s->nr + m->nr + 1) * sizeof(*s->k));

	if (!grown)
		return -1;
	s->k = grown;
	for (size_t i = 0; i < m->nr; i++) {
		struct kf *k = &s->k[s->nr++];

		*k = m->k[i];
		k->order = s->nr;	/* after the base's (0) and earlier modules' */
		k->owned_name = m->k[i].owned_name ? m->k[i].owned_name : strdup(m->k[i].name);
		k->name = k->owned_name;
		m->k[i].owned_name = m->k[i].bpf_proto = m->k[i].flag_str = NULL;
		if (!k->name)
			return -1;
	}
	return 0;
}

int kside_add_modules(struct kside *s, const char *list)
{
	struct cli_opts *o = cli_opts();
	const char *saved_path = o->base_path;
	const struct btf *saved_base = o->base_btf;
	struct btf *base = NULL;
	int rc = 1;

	BTF2BTF_OPTS(opts, .log = cli_log_cb);
	if (btf2btf__load_base(s->path, &opts, &base)) {
		cli_error("%s: cannot read it as the base of its modules", s->path);
		return 1;
	}
	for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		char *item = strndup(p, strcspn(p, ","));
		struct stat st;

		if (!item || stat(item, &st)) {
			cli_error("%s: %s", item ? item : list, strerror(item ? errno : ENOMEM));
			free(item);
			goto out;
		}
		if (S_ISDIR(st.st_mode) ? nftw(item, add_found, 16, FTW_PHYS) : add_found(item, &st, FTW_F, NULL)) {
			cli_error("%s: cannot list its modules: %s", item, strerror(errno ? errno : ENOMEM));
			free(item);
			goto out;
		}
		free(item);
	}
	/* a directory's order is the file system's: sorted, the output is not */
	qsort(found.paths, found.nr, sizeof(*found.paths), by_path);
	o->base_path = s->path;
	o->base_btf = base;
	for (size_t i = 0; i < found.nr; i++) {
		struct kside m = { 0 };

		if (kside_load(&m, found.paths[i], true)) {
			kside_free(&m);
			goto out;
		}
		if (take_kfuncs(s, &m)) {
			kside_free(&m);
			cli_error("out of memory");
			goto out;
		}
		kside_free(&m);
	}
	qsort(s->k, s->nr, sizeof(*s->k), by_name_order);
	/* a name twice: the first (the base's, or the first module's by path) */
	for (size_t i = 1, w = 1; i <= s->nr; i++) {
		if (i == s->nr) {
			s->nr = w;
			break;
		}
		if (!strcmp(s->k[i].name, s->k[w - 1].name)) {
			free(s->k[i].owned_name);
			free(s->k[i].bpf_proto);
			free(s->k[i].flag_str);
			continue;
		}
		s->k[w++] = s->k[i];
	}
	rc = 0;
out:
	o->base_path = saved_path;
	o->base_btf = saved_base;
	btf__free(base);
	for (size_t i = 0; i < found.nr; i++)
		free(found.paths[i]);
	free(found.paths);
	memset(&found, 0, sizeof(found));
	return rc;
}

void kside_free(struct kside *s)
{
	for (size_t i = 0; s->k && i < s->nr; i++) {
		free(s->k[i].owned_name);
		free(s->k[i].bpf_proto);
		free(s->k[i].flag_str);
	}
	free(s->k);
	btf2btf__close(s->b);
}
