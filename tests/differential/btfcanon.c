// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * btfcanon: print a BTF as a sorted multiset of lines that name types
 * instead of numbering them, so that two BTFs holding the same types in
 * another order, with other ids or another string layout print the same.
 *
 *   btfcanon [-b BASE] FILE      (raw BTF or ELF with .BTF; with -b, FILE
 *                                 is split BTF and only its own types print)
 *   btfcanon -r OUT [-b BASE] FILE   write FILE's BTF as raw bytes to OUT
 *                                 (the .BTF of a fixture object, any byte order)
 *
 * One line per type. A named STRUCT/UNION/ENUM/ENUM64/FWD/TYPEDEF/INT/FLOAT
 * is referred to by kind and name; anything anonymous (pointers, modifiers,
 * prototypes, anonymous structs) is spelled out where it is used, so
 * duplicated anonymous types print as duplicated lines. A FUNC target of a
 * decl tag prints with its prototype. A decl tag whose component_idx is past
 * its FUNC's parameters ends in " DANGLING" (the kernel refuses such BTF).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sbuf {
	char *s;
	size_t len, cap;
};

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if ((size_t)n < room) {
			b->len += n;
			return;
		}
		b->cap = (b->cap + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
}

static const struct btf *g_btf;

static const char *name_of(const struct btf_type *t)
{
	const char *n = btf__name_by_offset(g_btf, t->name_off);

	return n ? n : "?";
}

static const char *kind_word(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT: return "int";
	case BTF_KIND_PTR: return "ptr";
	case BTF_KIND_ARRAY: return "array";
	case BTF_KIND_STRUCT: return "struct";
	case BTF_KIND_UNION: return "union";
	case BTF_KIND_ENUM: return "enum";
	case BTF_KIND_FWD: return btf_kflag(t) ? "fwd-union" : "fwd-struct";
	case BTF_KIND_TYPEDEF: return "typedef";
	case BTF_KIND_VOLATILE: return "volatile";
	case BTF_KIND_CONST: return "const";
	case BTF_KIND_RESTRICT: return "restrict";
	case BTF_KIND_FUNC: return "func";
	case BTF_KIND_FUNC_PROTO: return "proto";
	case BTF_KIND_VAR: return "var";
	case BTF_KIND_DATASEC: return "datasec";
	case BTF_KIND_FLOAT: return "float";
	case BTF_KIND_DECL_TAG: return "decl_tag";
	case BTF_KIND_TYPE_TAG: return "type_tag";
	case BTF_KIND_ENUM64: return "enum64";
	default: return "unknown";
	}
}

static void full(struct sbuf *b, __u32 id, int depth);

/* a reference: named types by kind and name, the rest spelled out */
static void ref(struct sbuf *b, __u32 id, int depth)
{
	const struct btf_type *t;

	if (id == 0) {
		put(b, "void");
		return;
	}
	t = btf__type_by_id(g_btf, id);
	if (!t) {
		put(b, "<bad id>");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_FLOAT:
	case BTF_KIND_VAR:
		if (t->name_off) {
			put(b, "%s '%s'", kind_word(t), name_of(t));
			return;
		}
		break;
	default:
		break;
	}
	full(b, id, depth + 1);
}

static void proto(struct sbuf *b, const struct btf_type *t, int depth)
{
	const struct btf_param *p = btf_params(t);

	put(b, "proto(");
	for (__u16 i = 0; i < btf_vlen(t); i++) {
		put(b, "%s", i ? ", " : "");
		ref(b, p[i].type, depth);
		put(b, " '%s'", btf__name_by_offset(g_btf, p[i].name_off) ?: "?");
	}
	put(b, ") -> ");
	ref(b, t->type, depth);
}

static void full(struct sbuf *b, __u32 id, int depth)
{
	const struct btf_type *t = btf__type_by_id(g_btf, id);

	if (depth > 24) {
		put(b, "...");
		return;
	}
	if (id == 0 || !t) {
		ref(b, id, depth);
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		put(b, "int '%s' size=%u enc=%u off=%u bits=%u", name_of(t), t->size,
		    BTF_INT_ENCODING(*(__u32 *)(t + 1)), BTF_INT_OFFSET(*(__u32 *)(t + 1)),
		    BTF_INT_BITS(*(__u32 *)(t + 1)));
		break;
	case BTF_KIND_FLOAT:
		put(b, "float '%s' size=%u", name_of(t), t->size);
		break;
	case BTF_KIND_PTR: case BTF_KIND_CONST: case BTF_KIND_VOLATILE: case BTF_KIND_RESTRICT:
		put(b, "%s -> ", kind_word(t));
		ref(b, t->type, depth);
		break;
	case BTF_KIND_TYPEDEF:
		put(b, "typedef '%s' -> ", name_of(t));
		ref(b, t->type, depth);
		break;
	case BTF_KIND_TYPE_TAG:
		put(b, "type_tag%s '%s' -> ", btf_kflag(t) ? "[attr]" : "", name_of(t));
		ref(b, t->type, depth);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);

		put(b, "array[%u] of ", a->nelems);
		ref(b, a->type, depth);
		put(b, " index ");
		ref(b, a->index_type, depth);
		break;
	}
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);

		put(b, "%s '%s' size=%u {", kind_word(t), name_of(t), t->size);
		for (__u16 i = 0; i < btf_vlen(t); i++) {
			put(b, "%s'%s': ", i ? "; " : "",
			    btf__name_by_offset(g_btf, m[i].name_off) ?: "?");
			ref(b, m[i].type, depth);
			put(b, " @%u", btf_member_bit_offset(t, i));
			if (btf_member_bitfield_size(t, i))
				put(b, ":%u", btf_member_bitfield_size(t, i));
		}
		put(b, "}");
		break;
	}
	case BTF_KIND_ENUM: {
		const struct btf_enum *e = btf_enum(t);

		put(b, "enum '%s' size=%u %s {", name_of(t), t->size, btf_kflag(t) ? "s" : "u");
		for (__u16 i = 0; i < btf_vlen(t); i++)
			put(b, "%s'%s'=%d", i ? ", " : "", btf__name_by_offset(g_btf, e[i].name_off),
			    e[i].val);
		put(b, "}");
		break;
	}
	case BTF_KIND_ENUM64: {
		const struct btf_enum64 *e = btf_enum64(t);

		put(b, "enum64 '%s' size=%u %s {", name_of(t), t->size, btf_kflag(t) ? "s" : "u");
		for (__u16 i = 0; i < btf_vlen(t); i++)
			put(b, "%s'%s'=%llu", i ? ", " : "",
			    btf__name_by_offset(g_btf, e[i].name_off),
			    (unsigned long long)btf_enum64_value(&e[i]));
		put(b, "}");
		break;
	}
	case BTF_KIND_FWD:
		put(b, "%s '%s'", kind_word(t), name_of(t));
		break;
	case BTF_KIND_FUNC:
		put(b, "func '%s' linkage=%u ", name_of(t), btf_vlen(t));
		full(b, t->type, depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		proto(b, t, depth);
		break;
	case BTF_KIND_VAR:
		put(b, "var '%s' linkage=%u -> ", name_of(t), btf_var(t)->linkage);
		ref(b, t->type, depth);
		break;
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);

		put(b, "datasec '%s' size=%u {", name_of(t), t->size);
		for (__u16 i = 0; i < btf_vlen(t); i++) {
			put(b, "%s", i ? "; " : "");
			ref(b, v[i].type, depth);
			put(b, " @%u+%u", v[i].offset, v[i].size);
		}
		put(b, "}");
		break;
	}
	case BTF_KIND_DECL_TAG: {
		const struct btf_type *target = btf__type_by_id(g_btf, t->type);
		int comp = btf_decl_tag(t)->component_idx;

		put(b, "decl_tag%s '%s' comp=%d on ", btf_kflag(t) ? "[attr]" : "", name_of(t), comp);
		if (target && btf_is_func(target)) {
			const struct btf_type *fp = btf__type_by_id(g_btf, target->type);

			full(b, t->type, depth + 1);
			if (comp >= 0 && fp && btf_is_func_proto(fp) && comp >= btf_vlen(fp))
				put(b, " DANGLING");
		} else {
			ref(b, t->type, depth);
		}
		break;
	}
	default:
		put(b, "kind%u", btf_kind(t));
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	struct btf *base = NULL, *btf;
	const char *base_path = NULL, *raw_out = NULL;
	__u32 start, cnt;
	char **lines;
	int opt;

	while ((opt = getopt(argc, argv, "b:r:")) != -1) {
		if (opt == 'b') {
			base_path = optarg;
		} else if (opt == 'r') {
			raw_out = optarg;
		} else {
			fprintf(stderr, "usage: btfcanon [-r OUT] [-b BASE] FILE\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: btfcanon [-r OUT] [-b BASE] FILE\n");
		return 2;
	}
	if (base_path) {
		base = btf__parse(base_path, NULL);
		if (!base) {
			fprintf(stderr, "btfcanon: %s: %s\n", base_path, strerror(errno));
			return 1;
		}
	}
	btf = btf__parse_split(argv[optind], base);
	if (!btf) {
		fprintf(stderr, "btfcanon: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	if (raw_out) {
		__u32 size;
		const void *raw = btf__raw_data(btf, &size);
		FILE *f = fopen(raw_out, "wb");

		int rc = !raw || !f || fwrite(raw, 1, size, f) != size;

		if (f && fclose(f))
			rc = 1;
		if (rc)
			fprintf(stderr, "btfcanon: %s: %s\n", raw_out, strerror(errno));
		/* freed: the sanitizer build runs this too, and reports leaks */
		btf__free(btf);
		btf__free(base);
		return rc;
	}
	g_btf = btf;
	start = base ? btf__type_cnt(base) : 1;
	cnt = btf__type_cnt(btf);
	lines = calloc(cnt - start + 1, sizeof(*lines));
	if (!lines)
		return 1;
	for (__u32 id = start; id < cnt; id++) {
		struct sbuf b = { 0 };

		full(&b, id, 0);
		lines[id - start] = b.s;
	}
	qsort(lines, cnt - start, sizeof(*lines), cmp_str);
	for (__u32 i = 0; i < cnt - start; i++) {
		puts(lines[i]);
		free(lines[i]);
	}
	free(lines);
	btf__free(btf);
	btf__free(base);
	return 0;
}
