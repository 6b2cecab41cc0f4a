// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The raw text format of `bpftool btf dump file X` (bpftool 7.1), line for
 * line, so `diff <(btf2btf --dump X) <(bpftool btf dump file X)` is empty.
 */
#include <bpf/btf.h>
#include <linux/btf.h>
#include <stdbool.h>

#include "btf2btf.h"
#include "dump.h"
#include "json.h"

static const char *kind_str(const struct btf_type *t)
{
	return btf2btf__kind_name(btf_kind(t));
}

static const char *str(const struct btf *btf, __u32 off)
{
	const char *s;

	if (!off)
		return "(anon)";
	s = btf__name_by_offset(btf, off);
	return s ? s : "(invalid)";
}

static const char *int_enc(__u8 enc)
{
	switch (enc) {
	case 0: return "(none)";
	case BTF_INT_SIGNED: return "SIGNED";
	case BTF_INT_CHAR: return "CHAR";
	case BTF_INT_BOOL: return "BOOL";
	default: return "UNKN";
	}
}

static const char *func_linkage(const struct btf_type *t)
{
	switch (btf_vlen(t)) {
	case BTF_FUNC_STATIC: return "static";
	case BTF_FUNC_GLOBAL: return "global";
	case BTF_FUNC_EXTERN: return "extern";
	default: return "(unknown)";
	}
}

static const char *var_linkage(__u32 l)
{
	switch (l) {
	case BTF_VAR_STATIC: return "static";
	case BTF_VAR_GLOBAL_ALLOCATED: return "global";
	case BTF_VAR_GLOBAL_EXTERN: return "extern";
	default: return "(unknown)";
	}
}

/*
 * One walk over a type serves both outputs: bpftool's text keys are its
 * JSON keys ("type_id=5" / "type_id": 5), so fields go through an emitter.
 */
struct emit {
	FILE *f;
	struct json *j;		/* NULL: text */
	bool tight;		/* text: no space before the next field */
};

static void e_uint(struct emit *e, const char *key, unsigned long long v)
{
	if (e->j) {
		json_uint_field(e->j, key, v);
		return;
	}
	fprintf(e->f, "%s%s=%llu", e->tight ? "" : " ", key, v);
	e->tight = false;
}

static void e_int(struct emit *e, const char *key, long long v)
{
	if (e->j) {
		json_int_field(e->j, key, v);
		return;
	}
	fprintf(e->f, "%s%s=%lld", e->tight ? "" : " ", key, v);
	e->tight = false;
}

static void e_str(struct emit *e, const char *key, const char *v)
{
	if (e->j) {
		json_string_field(e->j, key, v);
		return;
	}
	fprintf(e->f, "%s%s=%s", e->tight ? "" : " ", key, v);
	e->tight = false;
}

static void e_list(struct emit *e, const char *key)
{
	if (e->j) {
		json_key(e->j, key);
		json_start_array(e->j);
	}
}

static void e_list_end(struct emit *e)
{
	if (e->j)
		json_end_array(e->j);
}

/* A member/param/value line; name NULL for datasec entries. */
static void e_item(struct emit *e, const char *name)
{
	if (e->j) {
		json_start_object(e->j);
		if (name)
			json_string_field(e->j, "name", name);
		return;
	}
	fputs("\n\t", e->f);
	if (name)
		fprintf(e->f, "'%s'", name);
	e->tight = !name;
}

static void e_item_end(struct emit *e)
{
	if (e->j)
		json_end_object(e->j);
}

static void emit_enum_vals(struct emit *e, const struct btf *btf, const struct btf_type *t)
{
	bool is64 = btf_is_enum64(t), sign = btf_kflag(t);

	e_list(e, "values");
	for (__u16 i = 0; i < btf_vlen(t); i++) {
		__u32 name_off = is64 ? btf_enum64(t)[i].name_off : btf_enum(t)[i].name_off;
		unsigned long long v = is64 ? ((__u64)btf_enum64(t)[i].val_hi32 << 32) |
					      btf_enum64(t)[i].val_lo32
					    : (__u32)btf_enum(t)[i].val;

		e_item(e, str(btf, name_off));
		if (e->j && sign)
			json_int_field(e->j, "val", is64 ? (long long)v : (__s32)v);
		else if (e->j)
			json_uint_field(e->j, "val", v);
		else if (is64)
			fprintf(e->f, sign ? " val=%lldLL" : " val=%lluULL", v);
		else
			fprintf(e->f, sign ? " val=%d" : " val=%u", (int)v);
		e_item_end(e);
	}
	e_list_end(e);
}

static void emit_type(struct emit *e, const struct btf *btf, unsigned int id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	__u16 vlen = btf_vlen(t);

	if (e->j) {
		json_start_object(e->j);
		json_uint_field(e->j, "id", id);
		json_string_field(e->j, "kind", kind_str(t));
		json_string_field(e->j, "name", str(btf, t->name_off));
	} else {
		fprintf(e->f, "[%u] %s '%s'", id, kind_str(t), str(btf, t->name_off));
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		__u32 v = *(const __u32 *)(t + 1);

		e_uint(e, "size", t->size);
		e_uint(e, "bits_offset", BTF_INT_OFFSET(v));
		e_uint(e, "nr_bits", BTF_INT_BITS(v));
		e_str(e, "encoding", int_enc(BTF_INT_ENCODING(v)));
		break;
	}
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_TYPE_TAG:
		e_uint(e, "type_id", t->type);
		break;
	case BTF_KIND_ARRAY:
		e_uint(e, "type_id", btf_array(t)->type);
		e_uint(e, "index_type_id", btf_array(t)->index_type);
		e_uint(e, "nr_elems", btf_array(t)->nelems);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		e_uint(e, "size", t->size);
		e_uint(e, "vlen", vlen);
		e_list(e, "members");
		for (__u16 i = 0; i < vlen; i++) {
			const struct btf_member *m = btf_members(t) + i;
			__u32 sz = btf_kflag(t) ? BTF_MEMBER_BITFIELD_SIZE(m->offset) : 0;

			e_item(e, str(btf, m->name_off));
			e_uint(e, "type_id", m->type);
			e_uint(e, "bits_offset",
			       btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset);
			if (sz)
				e_uint(e, "bitfield_size", sz);
			e_item_end(e);
		}
		e_list_end(e);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		e_str(e, "encoding", btf_kflag(t) ? "SIGNED" : "UNSIGNED");
		e_uint(e, "size", t->size);
		e_uint(e, "vlen", vlen);
		emit_enum_vals(e, btf, t);
		break;
	case BTF_KIND_FWD:
		e_str(e, "fwd_kind", btf_kflag(t) ? "union" : "struct");
		break;
	case BTF_KIND_FUNC:
		e_uint(e, "type_id", t->type);
		e_str(e, "linkage", func_linkage(t));
		break;
	case BTF_KIND_FUNC_PROTO:
		e_uint(e, "ret_type_id", t->type);
		e_uint(e, "vlen", vlen);
		e_list(e, "params");
		for (__u16 i = 0; i < vlen; i++) {
			e_item(e, str(btf, btf_params(t)[i].name_off));
			e_uint(e, "type_id", btf_params(t)[i].type);
			e_item_end(e);
		}
		e_list_end(e);
		break;
	case BTF_KIND_VAR:
		if (e->j) {
			e_uint(e, "type_id", t->type);
		} else {
			fprintf(e->f, " type_id=%u,", t->type);	/* sic: bpftool's comma */
		}
		e_str(e, "linkage", var_linkage(btf_var(t)->linkage));
		break;
	case BTF_KIND_DATASEC:
		e_uint(e, "size", t->size);
		e_uint(e, "vlen", vlen);
		e_list(e, "vars");
		for (__u16 i = 0; i < vlen; i++) {
			const struct btf_var_secinfo *v = btf_var_secinfos(t) + i;

			e_item(e, NULL);
			e_uint(e, "type_id", v->type);
			e_uint(e, "offset", v->offset);
			e_uint(e, "size", v->size);
			if (!e->j && v->type < btf__type_cnt(btf)) {
				const struct btf_type *vt = btf__type_by_id(btf, v->type);

				fprintf(e->f, " (%s '%s')", kind_str(vt), str(btf, vt->name_off));
			}
			e_item_end(e);
		}
		e_list_end(e);
		break;
	case BTF_KIND_FLOAT:
		e_uint(e, "size", t->size);
		break;
	case BTF_KIND_DECL_TAG:
		e_uint(e, "type_id", t->type);
		e_int(e, "component_idx", btf_decl_tag(t)->component_idx);
		/* bpftool 7.1 predates attribute tags; newer ones print the flag */
		if (btf_kflag(t))
			e_uint(e, "kind_flag", 1);
		break;
	default:
		break;
	}
	if (e->j)
		json_end_object(e->j);
	else
		fputc('\n', e->f);
}

void dump_type(FILE *f, const struct btf *btf, unsigned int id)
{
	struct emit e = { .f = f };

	emit_type(&e, btf, id);
}

void dump_btf(FILE *f, const struct btf *btf, struct json *j)
{
	const struct btf *base = btf__base_btf(btf);
	unsigned int cnt = btf__type_cnt(btf);
	struct emit e = { .f = f, .j = j };

	if (j) {
		json_start_object(j);
		json_key(j, "types");
		json_start_array(j);
	}
	for (unsigned int id = base ? btf__type_cnt(base) : 1; id < cnt; id++)
		emit_type(&e, btf, id);
	if (j) {
		json_end_array(j);
		json_end_object(j);
	}
}
