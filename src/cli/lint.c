// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --check: lint the kfunc declarations of an object, one line per problem
 * ("FILE: RULE: detail"), exit 1 if there is any. The object is opened
 * leniently and never transformed, so every problem is reported, including
 * those that make the transform refuse the object. An object the transform
 * already went through lints as its source did: a reduced kfunc with its
 * _impl is recognised and is not "no implicit argument".
 *
 * Rules, in the order they are checked:
 *   set8-no-func        a set8 entry names no FUNC of the BTF (or its base)
 *   set8-flags-ignored  flags on an entry of a set8 without BTF_SET8_KFUNCS
 *   set8-conflict       KF_IMPLICIT_ARGS in one set8, not in another
 *   tag-not-in-set      a "bpf_kfunc" decl tag on a FUNC in no BTF_SET8_KFUNCS set8
 *   implicit-no-arg     KF_IMPLICIT_ARGS but no struct bpf_prog_aux * parameter
 *   implicit-not-last   the implicit parameter is not the last one
 *   impl-not-func       <kfunc>_impl exists, but not as a FUNC
 *   impl-flagged        <kfunc>_impl is itself flagged KF_IMPLICIT_ARGS
 *   impl-proto-mismatch a legacy <kfunc>_impl differs before the implicit parameter
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cproto.h"
#include "dump.h"
#include "inspect.h"
#include "json.h"
#include "names.h"

struct problem {
	const char *rule;
	char *name;		/* the function concerned */
	uint32_t id;		/* its FUNC, 0 if none */
	char *detail;
};

struct lint {
	const char *path;
	struct btf2btf *b;
	const struct btf *btf;
	struct names all;	/* every named type, base included */
	struct problem *p;
	size_t nr, cap;
	int err;
};

__attribute__((format(printf, 5, 6)))
static void report(struct lint *l, const char *rule, const char *name, uint32_t id,
		   const char *fmt, ...)
{
	struct problem *p;
	va_list ap;
	char *detail;
	int n;

	if (l->err)
		return;
	va_start(ap, fmt);
	n = vasprintf(&detail, fmt, ap);
	va_end(ap);
	if (n < 0)
		goto nomem;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct problem *np = realloc(l->p, cap * sizeof(*np));

		if (!np) {
			free(detail);
			goto nomem;
		}
		l->p = np;
		l->cap = cap;
	}
	p = &l->p[l->nr];
	p->rule = rule;
	p->id = id;
	p->detail = detail;
	p->name = strdup(name ? name : "");
	if (!p->name) {
		free(detail);
		goto nomem;
	}
	l->nr++;
	return;
nomem:
	l->err = -ENOMEM;
}

static const char *name_of(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *n = t && t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;

	return n && *n ? n : "(anon)";
}

static uint32_t proto_of(const struct btf *btf, uint32_t func_id)
{
	const struct btf_type *t = btf__type_by_id(btf, func_id);

	return t && btf_is_func(t) ? t->type : 0;
}

static int vlen_of(const struct btf *btf, uint32_t proto)
{
	const struct btf_type *t = btf__type_by_id(btf, proto);

	return t && btf_is_func_proto(t) ? btf_vlen(t) : -1;
}

/* Same return type and first n parameter types. */
static bool is_prefix(const struct btf *btf, uint32_t a, uint32_t b, int n)
{
	const struct btf_type *x = btf__type_by_id(btf, a), *y = btf__type_by_id(btf, b);

	if (!x || !y || !btf_is_func_proto(x) || !btf_is_func_proto(y) || x->type != y->type ||
	    btf_vlen(x) < n || btf_vlen(y) < n)
		return false;
	for (int i = 0; i < n; i++)
		if (btf_params(x)[i].type != btf_params(y)[i].type)
			return false;
	return true;
}

/* "int f(int a)", or the id when it cannot be printed (ENOMEM). */
static char *proto_str(const struct btf *btf, uint32_t proto, const char *name)
{
	char *s = cproto_func(btf, proto, name, -1);

	return s ? s : strdup("?");
}

/* ---- set8 entries ---- */

struct fstate {
	const char *imp_set, *plain_set;
	bool reported;
};

static void lint_entries(struct lint *l)
{
	const struct btf *btf = l->btf;
	uint32_t cnt = btf__type_cnt(btf);
	struct fstate *fs = calloc(cnt, sizeof(*fs));
	size_t nr = btf2btf__set8_entry_cnt(l->b);

	if (!fs) {
		l->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct btf2btf_set8_entry *ep = btf2btf__set8_entry(l->b, i);
		struct btf2btf_set8_entry e;
		const struct btf_type *t;
		const char *fname;
		struct fstate *f;

		if (!ep) {
			l->err = -errno;
			break;
		}
		e = *ep;
		t = e.id ? btf__type_by_id(btf, e.id) : NULL;
		if (!t || !btf_is_func(t)) {
			uint32_t other = e.name ? names_lookup(&l->all, e.name, -1) : 0;

			if (!e.name)
				report(l, "set8-no-func", "", e.id,
				       "set8 %s holds id %u, which is %s", e.set, e.id,
				       !t ? "no type of the BTF" : "not a FUNC");
			else if (other)
				report(l, "set8-no-func", e.name, 0,
				       "set8 %s lists %s, which the BTF has as %s [%u], not as a FUNC",
				       e.set, e.name, b2b_kind_str(btf__type_by_id(btf, other)), other);
			else
				report(l, "set8-no-func", e.name, 0,
				       "set8 %s lists %s, but the BTF has no FUNC of that name (pahole drops a function whose prototypes disagree)",
				       e.set, e.name);
			continue;
		}
		fname = name_of(btf, e.id);
		if (e.flags && !(e.set_flags & BTF2BTF_SET8_KFUNCS)) {
			char *fl = inspect_flags_str(e.flags);

			report(l, "set8-flags-ignored", fname, e.id,
			       "set8 %s gives %s flags %s, but it is not a BTF_SET8_KFUNCS set8 (BTF_KFUNCS_START): they make no kfunc",
			       e.set, fname, fl ? fl : "?");
			free(fl);
		}
		f = &fs[e.id];
		if (e.flags & BTF2BTF_KF_IMPLICIT_ARGS)
			f->imp_set = f->imp_set ? f->imp_set : e.set;
		else
			f->plain_set = f->plain_set ? f->plain_set : e.set;
		if (f->imp_set && f->plain_set && !f->reported) {
			f->reported = true;
			report(l, "set8-conflict", fname, e.id,
			       "%s is KF_IMPLICIT_ARGS in set8 %s but not in set8 %s: one BTF cannot serve both",
			       fname, f->imp_set, f->plain_set);
		}
	}
	free(fs);
}

/* ---- kfuncs ---- */

static void lint_kfunc(struct lint *l, const struct btf2btf_kfunc *k)
{
	const struct btf *btf = l->btf;
	char impl_name[BTF2BTF_KSYM_NAME_LEN + 8];
	uint32_t proto = proto_of(btf, k->btf_id), impl, impl_proto = 0, other;
	int keep, vlen = vlen_of(btf, proto);
	const char *proto_name = k->name;
	char *ps;

	if (!(k->found_by & BTF2BTF_FOUND_SET8)) {
		if (!*k->sets)
			report(l, "tag-not-in-set", k->name, k->btf_id,
			       "%s has a bpf_kfunc decl tag but is in no set8: no program can call it",
			       k->name);
		else
			report(l, "tag-not-in-set", k->name, k->btf_id,
			       "%s has a bpf_kfunc decl tag but is only in set8 %s, which is not BTF_SET8_KFUNCS",
			       k->name, k->sets);
	}
	if (!(k->flags & BTF2BTF_KF_IMPLICIT_ARGS))
		return;

	snprintf(impl_name, sizeof(impl_name), "%s%s", k->name, BTF2BTF_IMPL_SUFFIX);
	impl = names_lookup(&l->all, impl_name, BTF_KIND_FUNC);
	other = impl ? 0 : names_lookup(&l->all, impl_name, -1);
	if (impl)
		impl_proto = proto_of(btf, impl);
	keep = btf2btf__implicit_arg(btf, proto);

	if (other)
		report(l, "impl-not-func", k->name, k->btf_id,
		       "kfunc %s is KF_IMPLICIT_ARGS, but %s is %s [%u], not a FUNC: the transform cannot add it",
		       k->name, impl_name, b2b_kind_str(btf__type_by_id(btf, other)), other);

	if (keep < 0) {
		int impl_keep = impl ? btf2btf__implicit_arg(btf, impl_proto) : -1;

		if (impl_keep >= 0 && impl_keep == vlen && is_prefix(btf, proto, impl_proto, vlen)) {
			/* already transformed: the source's prototype is _impl's */
			proto = impl_proto;
			proto_name = impl_name;
			keep = impl_keep;
			vlen = vlen_of(btf, proto);
		} else {
			ps = proto_str(btf, proto, k->name);
			report(l, "implicit-no-arg", k->name, k->btf_id,
			       "kfunc %s is flagged KF_IMPLICIT_ARGS (set8 %s) but takes no struct bpf_prog_aux * argument: %s",
			       k->name, *k->sets ? k->sets : "-", ps ? ps : "?");
			free(ps);
			return;
		}
	} else if (impl && (btf2btf__implicit_arg(btf, impl_proto) != keep ||
			    !is_prefix(btf, proto, impl_proto, keep))) {
		char *ip = proto_str(btf, impl_proto, impl_name);

		ps = proto_str(btf, proto, k->name);
		report(l, "impl-proto-mismatch", k->name, k->btf_id,
		       "kfunc %s and its legacy %s differ before the implicit argument: %s vs %s",
		       k->name, impl_name, ps ? ps : "?", ip ? ip : "?");
		free(ps);
		free(ip);
	}

	if (keep < vlen - 1) {
		const struct btf_param *p = btf_params(btf__type_by_id(btf, proto));
		char dropped[256] = "";
		size_t len = 0;

		for (int i = keep + 1; i < vlen && len < sizeof(dropped) - 1; i++) {
			const char *pn = p[i].name_off ? btf__name_by_offset(btf, p[i].name_off) : NULL;

			len += snprintf(dropped + len, sizeof(dropped) - len, "%s%s", len ? ", " : "",
					pn && *pn ? pn : "(anon)");
		}
		ps = proto_str(btf, proto, proto_name);
		report(l, "implicit-not-last", k->name, k->btf_id,
		       "kfunc %s: the implicit argument is parameter %d of %d; the transform drops the parameters after it (%s): %s",
		       k->name, keep + 1, vlen, dropped, ps ? ps : "?");
		free(ps);
	}

	if (impl) {
		for (size_t i = 0; i < btf2btf__kfunc_cnt(l->b); i++) {
			const struct btf2btf_kfunc *x = btf2btf__kfunc(l->b, i);

			if (x->btf_id == impl && (x->flags & BTF2BTF_KF_IMPLICIT_ARGS))
				report(l, "impl-flagged", k->name, k->btf_id,
				       "kfunc %s and its counterpart %s are both flagged KF_IMPLICIT_ARGS: only %s may be",
				       k->name, impl_name, k->name);
		}
	}
}

static void print_json(const struct lint *l)
{
	struct json j;

	json_init(&j, stdout, cli_opts()->pretty);
	json_start_object(&j);
	json_string_field(&j, "file", l->path);
	json_bool_field(&j, "clean", l->nr == 0);
	json_key(&j, "problems");
	json_start_array(&j);
	for (size_t i = 0; i < l->nr; i++) {
		json_start_object(&j);
		json_string_field(&j, "rule", l->p[i].rule);
		json_string_field(&j, "name", l->p[i].name);
		json_key(&j, "id");
		if (l->p[i].id)
			json_uint(&j, l->p[i].id);
		else
			json_null(&j);
		json_string_field(&j, "detail", l->p[i].detail);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

int cli_check(const char *path)
{
	struct lint l = { .path = path };
	int ret;

	if (inspect_open(path, true, true, &l.b))
		return 1;
	l.btf = btf2btf__btf(l.b);
	l.err = names_build(&l.all, l.btf, -1);
	if (!l.err)
		lint_entries(&l);
	for (size_t i = 0; !l.err && i < btf2btf__kfunc_cnt(l.b); i++)
		lint_kfunc(&l, btf2btf__kfunc(l.b, i));
	if (l.err) {
		cli_error("%s: %s", path, strerror(-l.err));
		ret = 1;
	} else {
		if (cli_opts()->json)
			print_json(&l);
		else
			for (size_t i = 0; i < l.nr; i++)
				printf("%s: %s: %s\n", path, l.p[i].rule, l.p[i].detail);
		ret = l.nr ? 1 : 0;
	}
	for (size_t i = 0; i < l.nr; i++) {
		free(l.p[i].name);
		free(l.p[i].detail);
	}
	free(l.p);
	names_free(&l.all);
	btf2btf__close(l.b);
	return ret;
}
