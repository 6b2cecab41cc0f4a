// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --diff OLD NEW: what NEW's BTF adds to OLD's, for a build log or a
 * review of what the transform did.
 *
 *   types: by name and kind, or by where they are used (type_keys.h),
 *   printed in the bpftool raw format: added, changed, removed;
 *   FUNCs: by name (same-named FUNCs paired in id order), their prototypes
 *   compared as C text: added, removed, prototype changed.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cproto.h"
#include "dump.h"
#include "inspect.h"
#include "json.h"
#include "names.h"
#include "type_keys.h"

struct side {
	const char *path;
	struct btf2btf *b;
	const struct btf *btf;
	uint32_t start, cnt;	/* first id of the split part, type count */
	struct names funcs;
};

static const char *type_name(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *n = t && t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;

	return n && *n ? n : "(anon)";
}

/* A type in the bpftool raw format, every line prefixed with mark. */
static void print_type(char mark, const struct btf *btf, uint32_t id)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return;
	dump_type(f, btf, id);
	fclose(f);
	for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		printf("%c%.*s\n", mark, (int)(nl ? nl - line : (long)strlen(line)), line);
	}
	free(buf);
}

static void json_type(struct json *j, const struct btf *btf, uint32_t id)
{
	json_start_object(j);
	json_uint_field(j, "id", id);
	json_string_field(j, "kind", btf2btf__kind_name(btf_kind(btf__type_by_id(btf, id))));
	json_string_field(j, "name", type_name(btf, id));
	json_end_object(j);
}

enum fchange { F_ADDED, F_REMOVED, F_CHANGED };

struct fdiff {
	enum fchange what;
	const char *name;
	uint32_t old_id, new_id;
	char *old_proto, *new_proto;
};

struct diff {
	struct side *old, *new;
	uint32_t *added, *removed, *changed;	/* changed: (old id, new id) pairs */
	size_t nr_added, nr_removed, nr_changed;
	struct fdiff *f;
	size_t nr_f, cap_f;
	unsigned int nr_fadded, nr_fremoved, nr_fchanged;
};

struct entry {
	const char *key;
	char *body;
	uint32_t id;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (!c)
		c = strcmp(x->body, y->body);
	return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

/* The split part's types as (key, contents), sorted, each pair once. */
static int entries_build(const struct side *s, struct type_keys *k, struct entry **out, size_t *nr)
{
	struct entry *e = calloc(s->cnt > s->start ? s->cnt - s->start : 1, sizeof(*e));
	size_t n = 0, u = 0;

	*out = e;
	*nr = 0;
	if (!e || type_keys_init(k, s->btf))
		return -ENOMEM;
	for (uint32_t id = s->start; id < s->cnt; id++) {
		const char *key = type_key(k, id);

		e[n] = (struct entry){ key ? key : "?", type_contents(k, id), id };
		if (!e[n++].body) {
			*nr = n - 1;
			return -ENOMEM;
		}
	}
	qsort(e, n, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < n; i++) {
		if (u && !strcmp(e[u - 1].key, e[i].key) && !strcmp(e[u - 1].body, e[i].body)) {
			free(e[i].body);
			continue;
		}
		e[u++] = e[i];
	}
	*nr = u;
	return 0;
}

static int id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* changed: pairs (old id, new id), ordered by the new id */
static int pair_cmp(const void *a, const void *b)
{
	return id_cmp((const uint32_t *)a + 1, (const uint32_t *)b + 1);
}

/*
 * Walk both sorted lists a key at a time: contents found on both sides are
 * the same type; of the rest, the i-th old and the i-th new of a key are
 * one type changed, the others added or removed.
 */
static void match_types(struct diff *d, const struct entry *a, size_t na, const struct entry *b,
			size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].key, b[j].key);
		const char *key = c <= 0 ? a[i].key : b[j].key;
		size_t ei = i, ej = j, oi = 0, oj = 0;

		if (c <= 0)
			while (ei < na && !strcmp(a[ei].key, key))
				ei++;
		if (c >= 0)
			while (ej < nb && !strcmp(b[ej].key, key))
				ej++;
		/* the unmatched of this key, compacted in place in d's lists */
		while (i < ei || j < ej) {
			int s = i == ei ? 1 : j == ej ? -1 : strcmp(a[i].body, b[j].body);

			if (s == 0) {
				i++;
				j++;
			} else if (s < 0) {
				d->removed[d->nr_removed + oi++] = a[i++].id;
			} else {
				d->added[d->nr_added + oj++] = b[j++].id;
			}
		}
		for (size_t q = 0; q < oi && q < oj; q++) {
			d->changed[2 * d->nr_changed] = d->removed[d->nr_removed + q];
			d->changed[2 * d->nr_changed++ + 1] = d->added[d->nr_added + q];
		}
		if (oi > oj)
			memmove(d->removed + d->nr_removed, d->removed + d->nr_removed + oj,
				(oi - oj) * sizeof(*d->removed));
		if (oj > oi)
			memmove(d->added + d->nr_added, d->added + d->nr_added + oi,
				(oj - oi) * sizeof(*d->added));
		d->nr_removed += oi > oj ? oi - oj : 0;
		d->nr_added += oj > oi ? oj - oi : 0;
	}
	qsort(d->added, d->nr_added, sizeof(*d->added), id_cmp);
	qsort(d->removed, d->nr_removed, sizeof(*d->removed), id_cmp);
	qsort(d->changed, d->nr_changed, 2 * sizeof(*d->changed), pair_cmp);
}

static char *func_proto(const struct side *s, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(s->btf, id);

	return cproto_func(s->btf, t->type, type_name(s->btf, id), -1);
}

static int add_f(struct diff *d, enum fchange what, const char *name, uint32_t old_id,
		 uint32_t new_id, char *old_proto, char *new_proto)
{
	struct fdiff *f;

	if ((old_id && !old_proto) || (new_id && !new_proto))
		goto nomem;
	if (d->nr_f == d->cap_f) {
		size_t cap = d->cap_f ? d->cap_f * 2 : 64;
		struct fdiff *n = realloc(d->f, cap * sizeof(*n));

		if (!n)
			goto nomem;
		d->f = n;
		d->cap_f = cap;
	}
	f = &d->f[d->nr_f++];
	*f = (struct fdiff){ what, name, old_id, new_id, old_proto, new_proto };
	d->nr_fadded += what == F_ADDED;
	d->nr_fremoved += what == F_REMOVED;
	d->nr_fchanged += what == F_CHANGED;
	return 0;
nomem:
	free(old_proto);
	free(new_proto);
	return -ENOMEM;
}

/* Walk both name-sorted FUNC lists at once. */
static int diff_funcs(struct diff *d)
{
	const struct names *a = &d->old->funcs, *b = &d->new->funcs;
	size_t i = 0, j = 0;
	int err = 0;

	while (!err && (i < a->nr || j < b->nr)) {
		int c = i == a->nr ? 1 : j == b->nr ? -1 : strcmp(a->ents[i].name, b->ents[j].name);
		size_t ni = 0, nj = 0;
		const char *name = c <= 0 ? a->ents[i].name : b->ents[j].name;

		if (c <= 0)
			while (i + ni < a->nr && !strcmp(a->ents[i + ni].name, name))
				ni++;
		if (c >= 0)
			while (j + nj < b->nr && !strcmp(b->ents[j + nj].name, name))
				nj++;
		for (size_t k = 0; !err && k < (ni > nj ? ni : nj); k++) {
			uint32_t oid = k < ni ? a->ents[i + k].id : 0;
			uint32_t nid = k < nj ? b->ents[j + k].id : 0;
			char *op = oid ? func_proto(d->old, oid) : NULL;
			char *np = nid ? func_proto(d->new, nid) : NULL;

			if (oid && nid && op && np && !strcmp(op, np)) {
				free(op);
				free(np);
				continue;
			}
			err = add_f(d, !oid ? F_ADDED : !nid ? F_REMOVED : F_CHANGED,
				    nid ? b->ents[j + k].name : a->ents[i + k].name, oid, nid, op, np);
		}
		i += ni;
		j += nj;
	}
	return err;
}

static void print_head(const char *mark, const struct side *s)
{
	if (s->start > 1)
		printf("%s %s (%u types, %u of them in the base)\n", mark, s->path, s->cnt - 1,
		       s->start - 1);
	else
		printf("%s %s (%u types)\n", mark, s->path, s->cnt - 1);
}

static void print_text(const struct diff *d)
{
	const struct side *o = d->old, *n = d->new;

	print_head("---", o);
	print_head("+++", n);
	printf("types added: %zu\n", d->nr_added);
	for (size_t i = 0; i < d->nr_added; i++)
		print_type('+', n->btf, d->added[i]);
	printf("types changed: %zu\n", d->nr_changed);
	for (size_t i = 0; i < d->nr_changed; i++) {
		print_type('-', o->btf, d->changed[2 * i]);
		print_type('+', n->btf, d->changed[2 * i + 1]);
	}
	printf("types removed: %zu\n", d->nr_removed);
	for (size_t i = 0; i < d->nr_removed; i++)
		print_type('-', o->btf, d->removed[i]);

	printf("FUNCs added: %u\n", d->nr_fadded);
	for (size_t i = 0; i < d->nr_f; i++)
		if (d->f[i].what == F_ADDED)
			printf("+[%u] %s\n", d->f[i].new_id, d->f[i].new_proto);
	printf("FUNCs removed: %u\n", d->nr_fremoved);
	for (size_t i = 0; i < d->nr_f; i++)
		if (d->f[i].what == F_REMOVED)
			printf("-[%u] %s\n", d->f[i].old_id, d->f[i].old_proto);
	printf("FUNC prototypes changed: %u\n", d->nr_fchanged);
	for (size_t i = 0; i < d->nr_f; i++)
		if (d->f[i].what == F_CHANGED)
			printf("-[%u] %s\n+[%u] %s\n", d->f[i].old_id, d->f[i].old_proto,
			       d->f[i].new_id, d->f[i].new_proto);
}

static void json_side(struct json *j, const char *key, const struct side *s)
{
	json_key(j, key);
	json_start_object(j);
	json_string_field(j, "file", s->path);
	json_uint_field(j, "types", s->cnt - 1);
	json_uint_field(j, "base_types", s->start - 1);
	json_end_object(j);
}

static void json_funcs(struct json *j, const struct diff *d, enum fchange what, const char *key)
{
	json_key(j, key);
	json_start_array(j);
	for (size_t i = 0; i < d->nr_f; i++) {
		const struct fdiff *f = &d->f[i];

		if (f->what != what)
			continue;
		json_start_object(j);
		json_string_field(j, "name", f->name);
		if (what == F_CHANGED) {
			json_uint_field(j, "old_id", f->old_id);
			json_uint_field(j, "new_id", f->new_id);
			json_string_field(j, "old_proto", f->old_proto);
			json_string_field(j, "new_proto", f->new_proto);
		} else {
			json_uint_field(j, "id", what == F_ADDED ? f->new_id : f->old_id);
			json_string_field(j, "proto", what == F_ADDED ? f->new_proto : f->old_proto);
		}
		json_end_object(j);
	}
	json_end_array(j);
}

static void print_json(const struct diff *d)
{
	const struct side *o = d->old, *n = d->new;
	struct json j;

	json_init(&j, stdout, cli_opts()->pretty);
	json_start_object(&j);
	json_side(&j, "old", o);
	json_side(&j, "new", n);
	json_key(&j, "types_added");
	json_start_array(&j);
	for (size_t i = 0; i < d->nr_added; i++)
		json_type(&j, n->btf, d->added[i]);
	json_end_array(&j);
	json_key(&j, "types_changed");
	json_start_array(&j);
	for (size_t i = 0; i < d->nr_changed; i++) {
		uint32_t oid = d->changed[2 * i], nid = d->changed[2 * i + 1];

		json_start_object(&j);
		json_uint_field(&j, "id", nid);
		json_string_field(&j, "kind",
				  btf2btf__kind_name(btf_kind(btf__type_by_id(n->btf, nid))));
		json_string_field(&j, "name", type_name(n->btf, nid));
		json_uint_field(&j, "old_id", oid);
		json_string_field(&j, "old_kind",
				  btf2btf__kind_name(btf_kind(btf__type_by_id(o->btf, oid))));
		json_string_field(&j, "old_name", type_name(o->btf, oid));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "types_removed");
	json_start_array(&j);
	for (size_t i = 0; i < d->nr_removed; i++)
		json_type(&j, o->btf, d->removed[i]);
	json_end_array(&j);
	json_funcs(&j, d, F_ADDED, "funcs_added");
	json_funcs(&j, d, F_REMOVED, "funcs_removed");
	json_funcs(&j, d, F_CHANGED, "protos_changed");
	json_end_object(&j);
	json_finish(&j);
}

static int open_side(struct side *s, const char *path)
{
	const struct btf *base;

	s->path = path;
	if (cli_open(path, CLI_OPEN_LENIENT | CLI_OPEN_QUIET, &s->b))
		return 1;
	/* NULL: libbpf cannot hold it (a vlen past 65535), errno says */
	s->btf = btf2btf__btf(s->b);
	if (!s->btf) {
		cli_fail(path, errno ? -errno : -ENOMEM);
		return 1;
	}
	base = btf__base_btf(s->btf);
	s->start = base ? btf__type_cnt(base) : 1;
	s->cnt = btf__type_cnt(s->btf);
	if (names_build(&s->funcs, s->btf, BTF_KIND_FUNC)) {
		cli_error("%s: out of memory", path);
		return 1;
	}
	return 0;
}

static void entries_free(struct entry *e, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(e[i].body);
	free(e);
}

int cli_diff(const char *old_path, const char *new_path)
{
	struct side o = { 0 }, n = { 0 };
	struct diff d = { &o, &n };
	struct type_keys ok = { 0 }, nk = { 0 };
	struct entry *oe = NULL, *ne = NULL;
	size_t noe = 0, nne = 0;
	int ret = cli_opts()->fail_status;

	if (open_side(&o, old_path) || cli_new_side() || open_side(&n, new_path))
		goto out;
	/* only the split part is compared: the base is the same for both */
	if (entries_build(&o, &ok, &oe, &noe) || entries_build(&n, &nk, &ne, &nne) ||
	    !(d.added = malloc((nne + 1) * sizeof(*d.added))) ||
	    !(d.removed = malloc((noe + 1) * sizeof(*d.removed))) ||
	    !(d.changed = malloc(2 * (noe + 1) * sizeof(*d.changed))) || diff_funcs(&d)) {
		cli_error("out of memory");
		goto out;
	}
	match_types(&d, oe, noe, ne, nne);
	if (cli_opts()->json)
		print_json(&d);
	else
		print_text(&d);
	/* as diff(1): 1 when they differ */
	ret = d.nr_added || d.nr_removed || d.nr_changed || d.nr_f;
out:
	for (size_t i = 0; i < d.nr_f; i++) {
		free(d.f[i].old_proto);
		free(d.f[i].new_proto);
	}
	free(d.f);
	free(d.added);
	free(d.removed);
	free(d.changed);
	entries_free(oe, noe);
	entries_free(ne, nne);
	type_keys_free(&ok);
	type_keys_free(&nk);
	names_free(&o.funcs);
	names_free(&n.funcs);
	btf2btf__close(o.b);
	btf2btf__close(n.b);
	return ret;
}
