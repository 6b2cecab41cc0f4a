// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --diff OLD NEW: what NEW's BTF adds to OLD's, for a build log or a
 * review of what the transform did.
 *
 *   types: by id (ids below both counts compared field by field, names as
 *   strings), printed in the bpftool raw format: added, changed, removed;
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

struct side {
	const char *path;
	struct btf2btf *b;
	const struct btf *btf;
	uint32_t start, cnt;	/* first id of the split part, type count */
	struct names funcs;
};

static bool same_str(const struct btf *a, uint32_t ao, const struct btf *b, uint32_t bo)
{
	const char *x = btf__name_by_offset(a, ao), *y = btf__name_by_offset(b, bo);

	return x && y ? !strcmp(x, y) : x == y;
}

/* Same type, field by field; names compared as strings. */
static bool same_type(const struct btf *a, const struct btf *b, uint32_t id)
{
	const struct btf_type *x = btf__type_by_id(a, id), *y = btf__type_by_id(b, id);
	uint16_t n;

	if (!x || !y)
		return x == y;
	if (x->info != y->info || x->size != y->size || !same_str(a, x->name_off, b, y->name_off))
		return false;
	n = btf_vlen(x);
	switch (btf_kind(x)) {
	case BTF_KIND_INT:
		return *(const uint32_t *)(x + 1) == *(const uint32_t *)(y + 1);
	case BTF_KIND_ARRAY:
		return !memcmp(btf_array(x), btf_array(y), sizeof(struct btf_array));
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (uint16_t i = 0; i < n; i++) {
			const struct btf_member *m = btf_members(x) + i, *o = btf_members(y) + i;

			if (m->type != o->type || m->offset != o->offset ||
			    !same_str(a, m->name_off, b, o->name_off))
				return false;
		}
		return true;
	case BTF_KIND_ENUM:
		for (uint16_t i = 0; i < n; i++) {
			const struct btf_enum *m = btf_enum(x) + i, *o = btf_enum(y) + i;

			if (m->val != o->val || !same_str(a, m->name_off, b, o->name_off))
				return false;
		}
		return true;
	case BTF_KIND_ENUM64:
		for (uint16_t i = 0; i < n; i++) {
			const struct btf_enum64 *m = btf_enum64(x) + i, *o = btf_enum64(y) + i;

			if (m->val_lo32 != o->val_lo32 || m->val_hi32 != o->val_hi32 ||
			    !same_str(a, m->name_off, b, o->name_off))
				return false;
		}
		return true;
	case BTF_KIND_FUNC_PROTO:
		for (uint16_t i = 0; i < n; i++) {
			const struct btf_param *m = btf_params(x) + i, *o = btf_params(y) + i;

			if (m->type != o->type || !same_str(a, m->name_off, b, o->name_off))
				return false;
		}
		return true;
	case BTF_KIND_VAR:
		return btf_var(x)->linkage == btf_var(y)->linkage;
	case BTF_KIND_DATASEC:
		return !memcmp(btf_var_secinfos(x), btf_var_secinfos(y),
			       n * sizeof(struct btf_var_secinfo));
	case BTF_KIND_DECL_TAG:
		return btf_decl_tag(x)->component_idx == btf_decl_tag(y)->component_idx;
	default:
		return true;
	}
}

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
	uint32_t *changed, nr_changed;
	struct fdiff *f;
	size_t nr_f, cap_f;
	unsigned int nr_fadded, nr_fremoved, nr_fchanged;
};

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
	uint32_t common = o->cnt < n->cnt ? o->cnt : n->cnt;

	print_head("---", o);
	print_head("+++", n);
	printf("types added: %u\n", n->cnt > common ? n->cnt - common : 0);
	for (uint32_t id = common; id < n->cnt; id++)
		print_type('+', n->btf, id);
	printf("types changed: %u\n", d->nr_changed);
	for (uint32_t i = 0; i < d->nr_changed; i++) {
		print_type('-', o->btf, d->changed[i]);
		print_type('+', n->btf, d->changed[i]);
	}
	printf("types removed: %u\n", o->cnt > common ? o->cnt - common : 0);
	for (uint32_t id = common; id < o->cnt; id++)
		print_type('-', o->btf, id);

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
	uint32_t common = o->cnt < n->cnt ? o->cnt : n->cnt;
	struct json j;

	json_init(&j, stdout, cli_opts()->pretty);
	json_start_object(&j);
	json_side(&j, "old", o);
	json_side(&j, "new", n);
	json_key(&j, "types_added");
	json_start_array(&j);
	for (uint32_t id = common; id < n->cnt; id++)
		json_type(&j, n->btf, id);
	json_end_array(&j);
	json_key(&j, "types_changed");
	json_start_array(&j);
	for (uint32_t i = 0; i < d->nr_changed; i++) {
		uint32_t id = d->changed[i];

		json_start_object(&j);
		json_uint_field(&j, "id", id);
		json_string_field(&j, "kind",
				  btf2btf__kind_name(btf_kind(btf__type_by_id(n->btf, id))));
		json_string_field(&j, "name", type_name(n->btf, id));
		json_string_field(&j, "old_kind",
				  btf2btf__kind_name(btf_kind(btf__type_by_id(o->btf, id))));
		json_string_field(&j, "old_name", type_name(o->btf, id));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "types_removed");
	json_start_array(&j);
	for (uint32_t id = common; id < o->cnt; id++)
		json_type(&j, o->btf, id);
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
	if (inspect_open(path, true, true, &s->b))
		return 1;
	s->btf = btf2btf__btf(s->b);
	base = btf__base_btf(s->btf);
	s->start = base ? btf__type_cnt(base) : 1;
	s->cnt = btf__type_cnt(s->btf);
	if (names_build(&s->funcs, s->btf, BTF_KIND_FUNC)) {
		cli_error("%s: out of memory", path);
		return 1;
	}
	return 0;
}

int cli_diff(const char *old_path, const char *new_path)
{
	struct side o = { 0 }, n = { 0 };
	struct diff d = { &o, &n };
	uint32_t common;
	int ret = 1;

	if (open_side(&o, old_path) || open_side(&n, new_path))
		goto out;
	common = o.cnt < n.cnt ? o.cnt : n.cnt;
	d.changed = malloc((common ? common : 1) * sizeof(*d.changed));
	if (!d.changed || diff_funcs(&d)) {
		cli_error("out of memory");
		goto out;
	}
	/* only the split part is compared: the base is the same for both */
	for (uint32_t id = o.start; id < common; id++)
		if (!same_type(o.btf, n.btf, id))
			d.changed[d.nr_changed++] = id;
	if (cli_opts()->json)
		print_json(&d);
	else
		print_text(&d);
	ret = 0;
out:
	for (size_t i = 0; i < d.nr_f; i++) {
		free(d.f[i].old_proto);
		free(d.f[i].new_proto);
	}
	free(d.f);
	free(d.changed);
	names_free(&o.funcs);
	names_free(&n.funcs);
	btf2btf__close(o.b);
	btf2btf__close(n.b);
	return ret;
}
