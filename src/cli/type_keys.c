// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Keys of BTF types for --diff: what a type is, whatever its id (type_keys.h). */
#include <bpf/btf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf2btf.h"

#include "cli.h"

#include "type_keys.h"


static const char *str_at(const struct btf *btf, uint32_t off)
{
	const char *s = btf__name_by_offset(btf, off);

	return s ? s : "";
}

static const char *kind_str(const struct btf_type *t)
{
	return btf2btf__kind_name(btf_kind(t));
}

/* Calls fn for every type id t references, with its position. */
static void for_each_ref(const struct btf_type *t, void (*fn)(void *, uint32_t, int), void *ctx)
{
	uint16_t n = btf_vlen(t);

	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_CONST: case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG: case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC: case BTF_KIND_VAR:
		fn(ctx, t->type, 0);
		break;
	case BTF_KIND_ARRAY:
		fn(ctx, btf_array(t)->type, 0);
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		for (uint16_t i = 0; i < n; i++)
			fn(ctx, btf_members(t)[i].type, i);
		break;
	case BTF_KIND_FUNC_PROTO:
		fn(ctx, t->type, -1);
		for (uint16_t i = 0; i < n; i++)
			fn(ctx, btf_params(t)[i].type, i);
		break;
	default:	/* DATASEC points at VARs, DECL_TAG is not a use */
		break;
	}
}

struct ref_fill { struct type_keys *k; uint32_t from; bool count; };

static void ref_add(void *ctx, uint32_t to, int idx)
{
	struct ref_fill *f = ctx;

	if (!to || to >= f->k->cnt)
		return;
	if (f->count)
		f->k->ref_first[to + 1]++;
	else
		f->k->refs[f->k->ref_first[to]++] = (struct type_ref){ f->from, idx };
}

int type_keys_init(struct type_keys *k, const struct btf *btf)
{
	struct ref_fill f = { k, 0, true };
	uint32_t total;

	k->btf = btf;
	k->cnt = btf__type_cnt(btf);
	k->key = calloc(k->cnt, sizeof(*k->key));
	k->use = calloc(k->cnt, sizeof(*k->use));
	k->busy = calloc(k->cnt, 1);
	k->ref_first = calloc(k->cnt + 1, sizeof(*k->ref_first));
	if (!k->key || !k->use || !k->busy || !k->ref_first)
		return -ENOMEM;
	for (f.from = 1; f.from < k->cnt; f.from++)
		for_each_ref(btf__type_by_id(btf, f.from), ref_add, &f);
	for (uint32_t id = 1; id <= k->cnt; id++)
		k->ref_first[id] += k->ref_first[id - 1];
	total = k->ref_first[k->cnt];
	k->refs = malloc((total ? total : 1) * sizeof(*k->refs));
	if (!k->refs)
		return -ENOMEM;
	f.count = false;
	for (f.from = 1; f.from < k->cnt; f.from++)
		for_each_ref(btf__type_by_id(btf, f.from), ref_add, &f);
	/* filling advanced each start to the next one's: shift back */
	memmove(k->ref_first + 1, k->ref_first, k->cnt * sizeof(*k->ref_first));
	k->ref_first[0] = 0;
	return 0;
}

void type_keys_free(struct type_keys *k)
{
	for (uint32_t id = 0; k->key && id < k->cnt; id++) {
		free(k->key[id]);
		free(k->use[id]);
	}
	free(k->key);
	free(k->use);
	free(k->busy);
	free(k->ref_first);
	free(k->refs);
}


/* Where anonymous type id is used: the shortest path to it from a named type. */
static const char *use_of(struct type_keys *k, uint32_t id)
{
	char *best = NULL;

	if (k->use[id] || (k->busy[id] & 2))
		return k->use[id];
	k->busy[id] |= 2;
	for (uint32_t r = k->ref_first[id]; r < k->ref_first[id + 1]; r++) {
		const struct type_ref *ref = &k->refs[r];
		const struct btf_type *t = btf__type_by_id(k->btf, ref->from);
		const char *up;
		char *path = NULL;

		switch (btf_kind(t)) {
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
			const struct btf_member *m = btf_members(t) + ref->idx;

			up = type_key(k, ref->from);
			if (!up)
				continue;
			path = m->name_off ? cli_strfmt("%s.%s", up, str_at(k->btf, m->name_off))
					   : cli_strfmt("%s.#%d", up, ref->idx);
			break;
		}
		case BTF_KIND_FUNC_PROTO:
			up = use_of(k, ref->from);
			if (!up)
				continue;
			if (ref->idx < 0)
				path = cli_strfmt("%s ret", up);
			else if (btf_params(t)[ref->idx].name_off)
				path = cli_strfmt("%s param %s", up,
					    str_at(k->btf, btf_params(t)[ref->idx].name_off));
			else
				path = cli_strfmt("%s param #%d", up, ref->idx);
			break;
		case BTF_KIND_TYPEDEF: case BTF_KIND_FUNC: case BTF_KIND_VAR:
			up = type_key(k, ref->from);
			if (!up)
				continue;
			path = strdup(up);
			break;
		default:	/* PTR, CONST, VOLATILE, RESTRICT, TYPE_TAG, ARRAY */
			up = use_of(k, ref->from);
			if (!up)
				continue;
			path = cli_strfmt("%s %s", up, kind_str(t));
			break;
		}
		if (!path)
			break;
		if (!best || strlen(path) < strlen(best) ||
		    (strlen(path) == strlen(best) && strcmp(path, best) < 0)) {
			free(best);
			best = path;
		} else {
			free(path);
		}
	}
	k->busy[id] &= ~2;
	k->use[id] = best ? best : strdup("nowhere");
	return k->use[id];
}

static char *make_key(struct type_keys *k, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(k->btf, id);
	const char *name = str_at(k->btf, t->name_off), *sub;
	char *s = NULL;
	size_t size = 0;
	FILE *f;

	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_CONST: case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
		sub = type_key(k, t->type);
		return sub ? cli_strfmt("%s%s%s(%s)", kind_str(t), *name ? " " : "", name, sub) : NULL;
	case BTF_KIND_ARRAY:
		sub = type_key(k, btf_array(t)->type);
		return sub ? cli_strfmt("ARRAY[%u](%s)", btf_array(t)->nelems, sub) : NULL;
	case BTF_KIND_DECL_TAG:
		sub = type_key(k, t->type);
		return sub ? cli_strfmt("DECL_TAG %s(%s #%d)", name, sub, btf_decl_tag(t)->component_idx)
			   : NULL;
	case BTF_KIND_FUNC_PROTO:
		f = open_memstream(&s, &size);
		if (!f)
			return NULL;
		sub = type_key(k, t->type);
		fprintf(f, "FUNC_PROTO(%s;", sub ? sub : "?");
		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_param *p = btf_params(t) + i;

			sub = type_key(k, p->type);
			fprintf(f, "%s%s:%s", i ? "," : "", str_at(k->btf, p->name_off),
				sub ? sub : "?");
		}
		fputc(')', f);
		if (fclose(f)) {
			free(s);
			return NULL;
		}
		return s;
	default:
		if (*name)
			return cli_strfmt("%s %s", kind_str(t), name);
		sub = use_of(k, id);
		return sub ? cli_strfmt("%s (anon) in %s", kind_str(t), sub) : NULL;
	}
}

/* The key of id: what it is matched by. NULL on a reference loop or no memory. */
const char *type_key(struct type_keys *k, uint32_t id)
{
	if (!id)
		return "void";
	if (id >= k->cnt)
		return "?";
	if (k->key[id] || (k->busy[id] & 1))
		return k->key[id];
	k->busy[id] |= 1;
	k->key[id] = make_key(k, id);
	k->busy[id] &= ~1;
	return k->key[id];
}

char *type_contents(struct type_keys *k, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(k->btf, id);
	uint16_t n = btf_vlen(t);
	char *s = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&s, &size);
	const char *sub;

	if (!f)
		return NULL;
	fprintf(f, "%u", t->info);
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: case BTF_KIND_FLOAT: case BTF_KIND_DATASEC:
		fprintf(f, " size %u", t->size);
		break;
	default:
		break;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		fprintf(f, " %u", *(const uint32_t *)(t + 1));
		break;
	case BTF_KIND_ARRAY:
		sub = type_key(k, btf_array(t)->index_type);
		fprintf(f, " %s", sub ? sub : "?");
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		for (uint16_t i = 0; i < n; i++) {
			const struct btf_member *m = btf_members(t) + i;

			sub = type_key(k, m->type);
			fprintf(f, " %s:%s@%u", str_at(k->btf, m->name_off), sub ? sub : "?",
				m->offset);
		}
		break;
	case BTF_KIND_ENUM:
		for (uint16_t i = 0; i < n; i++)
			fprintf(f, " %s=%d", str_at(k->btf, btf_enum(t)[i].name_off),
				btf_enum(t)[i].val);
		break;
	case BTF_KIND_ENUM64:
		for (uint16_t i = 0; i < n; i++)
			fprintf(f, " %s=%u:%u", str_at(k->btf, btf_enum64(t)[i].name_off),
				btf_enum64(t)[i].val_hi32, btf_enum64(t)[i].val_lo32);
		break;
	case BTF_KIND_TYPEDEF: case BTF_KIND_FUNC:
		sub = type_key(k, t->type);
		fprintf(f, " %s", sub ? sub : "?");
		break;
	case BTF_KIND_VAR:
		sub = type_key(k, t->type);
		fprintf(f, " %s %u", sub ? sub : "?", btf_var(t)->linkage);
		break;
	case BTF_KIND_DATASEC:
		for (uint16_t i = 0; i < n; i++) {
			const struct btf_var_secinfo *v = btf_var_secinfos(t) + i;

			sub = type_key(k, v->type);
			fprintf(f, " %s@%u+%u", sub ? sub : "?", v->offset, v->size);
		}
		break;
	default:	/* the key says the rest */
		break;
	}
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

