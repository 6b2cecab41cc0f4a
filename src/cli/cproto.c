// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A small C declaration printer over BTF, for one-line prototypes in
 * --kfuncs, --diff and --check. The declarator is built inside out: the
 * name first, then each PTR prepends "*", each ARRAY appends "[n]", each
 * FUNC_PROTO appends its parameter list (with parentheses around a
 * declarator that starts with "*"), until a named base type is reached.
 *
 * libbpf's btf_dump__emit_type_decl() prints the same for named types (a
 * test checks that on the fixtures) but prints anonymous structs in full,
 * over several lines, and cannot print a prototype cut after n parameters
 * (the BPF-visible prototype of a kfunc before the transform).
 */
#include <bpf/btf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cproto.h"

#define MAX_DEPTH 32


/* "base inner", consuming inner. */
static char *with_base(const char *base, char *inner)
{
	char *s;

	if (!inner)
		return NULL;
	s = *inner ? cli_strfmt("%s %s", base, inner) : strdup(base);
	free(inner);
	return s;
}

/* A declarator that an array or a parameter list follows: "(*p)". */
static char *grouped(char *inner)
{
	char *s;

	if (!inner || *inner != '*')
		return inner;
	s = cli_strfmt("(%s)", inner);
	free(inner);
	return s;
}

static const char *name_of(const struct btf *btf, const struct btf_type *t)
{
	const char *n = t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;

	return n && *n ? n : NULL;
}

/* Skip modifiers: is the first other type a pointer? */
static bool mods_on_ptr(const struct btf *btf, const struct btf_type *t)
{
	for (int depth = 0; t && depth < MAX_DEPTH; depth++) {
		if (btf_is_ptr(t))
			return true;
		if (!btf_is_mod(t))
			return false;
		t = btf__type_by_id(btf, t->type);
	}
	return false;
}

static char *decl(const struct btf *btf, uint32_t id, char *inner, int depth, int max_params);

static char *params(const struct btf *btf, const struct btf_type *t, int depth, int max_params)
{
	const struct btf_param *p = btf_params(t);
	int n = btf_vlen(t);
	size_t len = 0;
	char *out = NULL;

	if (max_params >= 0 && max_params < n)
		n = max_params;
	if (!n)
		return strdup("void");
	for (int i = 0; i < n; i++) {
		char *one, *grown;
		size_t l;

		if (i == btf_vlen(t) - 1 && !p[i].type && !p[i].name_off) {
			one = strdup("...");
		} else {
			const char *pn = p[i].name_off ? btf__name_by_offset(btf, p[i].name_off) : "";

			one = decl(btf, p[i].type, strdup(pn ? pn : ""), depth + 1, -1);
		}
		if (!one)
			goto fail;
		l = strlen(one);
		grown = realloc(out, len + l + 3);
		if (!grown) {
			free(one);
			goto fail;
		}
		out = grown;
		if (len) {
			memcpy(out + len, ", ", 2);
			len += 2;
		}
		memcpy(out + len, one, l + 1);
		len += l;
		free(one);
	}
	return out;
fail:
	free(out);
	return NULL;
}

static char *decl(const struct btf *btf, uint32_t id, char *inner, int depth, int max_params)
{
	const struct btf_type *t;
	const char *n, *q;
	char *s, *ps;

	if (!inner)
		return NULL;
	if (!id)
		return with_base("void", inner);
	t = btf__type_by_id(btf, id);
	if (!t || depth > MAX_DEPTH)
		return with_base("?", inner);
	n = name_of(btf, t);

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPEDEF:
		return with_base(n ? n : "?", inner);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		q = btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t)) ? "union"
		    : btf_is_enum(t) || btf_is_enum64(t) ? "enum" : "struct";
		s = n ? cli_strfmt("%s %s", q, n) : cli_strfmt("%s {...}", q);
		if (!s) {
			free(inner);
			return NULL;
		}
		ps = with_base(s, inner);
		free(s);
		return ps;
	case BTF_KIND_PTR:
		s = cli_strfmt("*%s", inner);
		free(inner);
		return decl(btf, t->type, s, depth + 1, -1);
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		q = btf_is_const(t) ? "const" : btf_is_volatile(t) ? "volatile" : "restrict";
		if (mods_on_ptr(btf, t)) {
			/* int *const p: the qualifier goes after the pointer's '*' */
			s = *inner ? cli_strfmt("%s %s", q, inner) : strdup(q);
			free(inner);
			return decl(btf, t->type, s, depth + 1, -1);
		}
		s = decl(btf, t->type, inner, depth + 1, -1);
		ps = s ? cli_strfmt("%s %s", q, s) : NULL;
		free(s);
		return ps;
	case BTF_KIND_TYPE_TAG:
		/* as btf_dump prints it: void __attribute__((btf_type_tag("x"))) *p;
		 * with kind_flag the tag is the attribute itself (7.3's arena
		 * pointers: void __attribute__((address_space(1))) *p) */
		s = btf_kflag(t) ? cli_strfmt("__attribute__((%s))%s%s", n ? n : "", *inner ? " " : "", inner)
				 : cli_strfmt("__attribute__((btf_type_tag(\"%s\")))%s%s", n ? n : "",
				       *inner ? " " : "", inner);
		free(inner);
		return decl(btf, t->type, s, depth + 1, -1);
	case BTF_KIND_ARRAY:
		inner = grouped(inner);
		s = inner ? cli_strfmt("%s[%u]", inner, btf_array(t)->nelems) : NULL;
		free(inner);
		return decl(btf, btf_array(t)->type, s, depth + 1, -1);
	case BTF_KIND_FUNC_PROTO:
		inner = grouped(inner);
		ps = inner ? params(btf, t, depth, max_params) : NULL;
		s = ps ? cli_strfmt("%s(%s)", inner, ps) : NULL;
		free(inner);
		free(ps);
		return decl(btf, t->type, s, depth + 1, -1);
	case BTF_KIND_FUNC:
		return decl(btf, t->type, inner, depth + 1, max_params);
	default:
		return with_base("?", inner);
	}
}

char *cproto_func(const struct btf *btf, uint32_t proto_id, const char *name, int max_params)
{
	return decl(btf, proto_id, strdup(name ? name : ""), 0, max_params);
}

char *cproto_type(const struct btf *btf, uint32_t type_id)
{
	return decl(btf, type_id, strdup(""), 0, -1);
}
