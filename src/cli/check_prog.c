// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --check-prog: which kernels run a BPF object. Every kfunc extern and
 * typed __ksym variable of each object is looked up in each kernel's BTF the
 * way libbpf's bpf_object__load() resolves it (the tools/lib/bpf of Linux
 * 7.3), and the kfunc rules of the verifier are applied on top:
 *
 *  - the name: a kfunc's up to a "___flavour" suffix (libbpf since 2023), a
 *    FUNC of that name in vmlinux, else in the modules in the order given
 *    (libbpf: in the order the kernel lists them); a variable's VAR likewise;
 *  - not found: weak, it resolves to 0 (the program must guard the call
 *    with bpf_ksym_exists()); strong, "not found in kernel or module BTFs";
 *  - found: the object's FUNC_PROTO against the kernel's by
 *    bpf_core_types_are_compat() (below, as relo_core.c has it); a weak
 *    kfunc that does not match resolves to 0 (libbpf since 2023; 1.1.2 fails
 *    the load), a strong one fails; a variable's type likewise, weak or not;
 *  - then the verifier: a FUNC that no kfunc set registers (no set8 entry,
 *    no "bpf_kfunc" decl tag), and the <kfunc>_impl a KF_IMPLICIT_ARGS
 *    kfunc's BTF gains (the kernel prototype, no kernel symbol), are refused
 *    ("calling kernel function X is not allowed", "cannot find address for
 *    kernel function X_impl"). Raw BTF without set8s or tags cannot tell:
 *    "unknown", never a guess.
 *
 * A kernel is [LABEL=]FILE[,MODULE...]: a vmlinux or raw BTF
 * (/sys/kernel/btf/vmlinux), and the modules (ELF or raw, split on it) whose
 * kfuncs the objects call. An argument that is an ELF file of machine BPF is
 * an object, any other a kernel.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cproto.h"
#include "inspect.h"
#include "json.h"
#include "prog_externs.h"

/* One BTF of a kernel: its vmlinux, or a module split on it. */
struct kpart {
	const char *path;
	struct btf2btf *b;
	const struct btf *btf;
	bool kfuncs_known;	/* set8s or bpf_kfunc tags say which FUNCs are kfuncs */
};

struct kernel {
	const char *label;
	char *spec;		/* the FILE[,MODULE...] part, split in place */
	struct kpart *part;	/* [0] vmlinux, then the modules */
	size_t nr_parts;
};

enum verdict {
	V_OK,			/* resolves to the kfunc or variable */
	V_OK_LEGACY,		/* resolves to a legacy <kfunc>_impl the kernel keeps */
	V_UNKNOWN,		/* resolves to a FUNC; whether a kfunc, the BTF cannot tell */
	V_UNTYPED,		/* an untyped ksym: kallsyms, not BTF */
	V_MISSING,
	V_INCOMPATIBLE,
	V_NOT_KFUNC,		/* libbpf resolves it, the verifier refuses the call */
};

static const struct {
	const char *text, *json;
} verdict_names[] = {
	[V_OK] = { "ok", "ok" },
	[V_OK_LEGACY] = { "ok (legacy)", "ok_legacy" },
	[V_UNKNOWN] = { "found (kfunc?)", "unknown" },
	[V_UNTYPED] = { "untyped", "untyped" },
	[V_MISSING] = { "missing", "missing" },
	[V_INCOMPATIBLE] = { "incompatible", "incompatible" },
	[V_NOT_KFUNC] = { "not a kfunc", "not_kfunc" },
};

struct cell {
	enum verdict v;
	bool fails;		/* bpf_object__load() fails on it */
	const struct kpart *where;	/* where it resolved (NULL: nowhere) */
	char *kernel_decl;	/* the kernel's prototype or type, when found */
	char *error;		/* the message the load fails with */
	char *hint;		/* another shape the kernel has it in */
};

/* ---- libbpf's bpf_core_types_are_compat() (relo_core.c) ---- */

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	*res = id;
	return t;
}

static bool kind_core_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) || (btf_is_any_enum(a) && btf_is_any_enum(b));
}

/* 1 compatible, 0 not, < 0 too deep or malformed: what libbpf treats as "not". */
static int types_are_compat(const struct btf *lbtf, uint32_t lid, const struct btf *tbtf,
			    uint32_t tid, int level)
{
	const struct btf_type *lt = btf__type_by_id(lbtf, lid), *tt = btf__type_by_id(tbtf, tid);
	int depth = 32;

	if (!lt || !tt)
		return -EINVAL;
	if (!kind_core_compat(lt, tt))
		return 0;
recur:
	if (--depth < 0)
		return -EINVAL;
	lt = skip_mods(lbtf, lid, &lid);
	tt = skip_mods(tbtf, tid, &tid);
	if (!lt || !tt)
		return -EINVAL;
	if (!kind_core_compat(lt, tt))
		return 0;
	switch (btf_kind(lt)) {
	case BTF_KIND_UNKN:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM64:
		return 1;
	case BTF_KIND_INT:
		/* bitfield-like integers only are refused */
		return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
	case BTF_KIND_PTR:
		lid = lt->type;
		tid = tt->type;
		goto recur;
	case BTF_KIND_ARRAY:
		lid = btf_array(lt)->type;
		tid = btf_array(tt)->type;
		goto recur;
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);

		if (btf_vlen(lt) != btf_vlen(tt))
			return 0;
		for (int i = 0; i < btf_vlen(lt); i++, lp++, tp++) {
			int err;

			if (level <= 0)
				return -EINVAL;
			skip_mods(lbtf, lp->type, &lid);
			skip_mods(tbtf, tp->type, &tid);
			err = types_are_compat(lbtf, lid, tbtf, tid, level - 1);
			if (err <= 0)
				return err;
		}
		skip_mods(lbtf, lt->type, &lid);
		skip_mods(tbtf, tt->type, &tid);
		goto recur;
	}
	default:
		/* FLOAT, ...: libbpf says "unexpected kind" and refuses */
		return 0;
	}
}

/* ---- the kernels ---- */

static const struct btf2btf_kfunc *kfunc_of(const struct kpart *k, uint32_t id)
{
	for (size_t i = 0; i < btf2btf__kfunc_cnt(k->b); i++) {
		const struct btf2btf_kfunc *f = btf2btf__kfunc(k->b, i);

		if (f && f->btf_id == id)
			return f;
	}
	return NULL;
}

/* The <kfunc>_impl a KF_IMPLICIT_ARGS kfunc's BTF gained: the kernel's
 * prototype, no kernel symbol (a legacy one is a kfunc: the plan says). */
static const struct btf2btf_kfunc *added_impl_of(const struct kpart *k, uint32_t id)
{
	for (size_t i = 0; i < btf2btf__kfunc_cnt(k->b); i++) {
		const struct btf2btf_kfunc *f = btf2btf__kfunc(k->b, i);

		if (f && f->impl_id == id && id && !f->impl_is_kfunc)
			return f;
	}
	return NULL;
}

static bool ends_with_impl(const char *name, size_t *stem);
static const struct kpart *find_ksym(const struct kernel *k, const char *name, bool func,
				     uint32_t *id);

/*
 * Whether FUNC id, name, of part p of kernel k is an _impl the transform
 * added: the kfunc table links it to its kfunc (an ELF kernel), or, in raw
 * BTF where it cannot, a kfunc <stem> of the kernel says what it is.
 */
static bool added_impl(const struct kernel *k, const struct kpart *p, const char *name,
		       uint32_t id)
{
	const struct kpart *stem_part;
	uint32_t stem_id;
	size_t stem;
	char *s;
	bool ret;

	if (added_impl_of(p, id))
		return true;
	if (!ends_with_impl(name, &stem) || !(s = strndup(name, stem)))
		return false;
	stem_part = find_ksym(k, s, true, &stem_id);
	ret = stem_part && kfunc_of(stem_part, stem_id);
	free(s);
	return ret;
}

/* Whether FUNC id is a kfunc BPF programs may call: 1, 0, -1 unknown. */
static int callable(const struct kpart *k, uint32_t id)
{
	const struct btf2btf_kfunc *f = kfunc_of(k, id);

	if (f && (f->found_by & (BTF2BTF_FOUND_SET8 | BTF2BTF_FOUND_KFUNC_ID_SET)))
		return 1;
	if (added_impl_of(k, id))
		return 0;
	if (f)
		return 1;
	return k->kfuncs_known ? 0 : -1;
}

/* The first type of that name and kind, of btf's own types only (a
 * module's, not its base's): libbpf's btf__find_by_name_kind_own(), which
 * 1.1.2 does not export. */
static uint32_t find_own(const struct btf *btf, const char *name, unsigned int kind)
{
	const struct btf *base = btf__base_btf(btf);
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t id = base ? btf__type_cnt(base) : 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_kind(t) == kind && !strcmp(btf__name_by_offset(btf, t->name_off), name))
			return id;
	}
	return 0;
}

/* libbpf's find_ksym_btf_id(): vmlinux first, then the modules' own types. */
static const struct kpart *find_ksym(const struct kernel *k, const char *name, bool func,
				     uint32_t *id)
{
	for (size_t i = 0; i < k->nr_parts; i++) {
		uint32_t r = find_own(k->part[i].btf, name, func ? BTF_KIND_FUNC : BTF_KIND_VAR);

		if (r) {
			*id = r;
			return &k->part[i];
		}
	}
	return NULL;
}

/* kernel k's callable kfunc named name and its prototype, or NULL */
static char *kfunc_decl(const struct kernel *k, const char *name, const struct kpart **where,
			uint32_t *id)
{
	const struct kpart *p = find_ksym(k, name, true, id);

	if (!p || callable(p, *id) == 0)
		return NULL;
	*where = p;
	return cproto_func(p->btf, btf__type_by_id(p->btf, *id)->type, name, -1);
}


static bool ends_with_impl(const char *name, size_t *stem)
{
	size_t n = strlen(name), s = strlen(BTF2BTF_IMPL_SUFFIX);

	*stem = n > s ? n - s : 0;
	return n > s && !strcmp(name + n - s, BTF2BTF_IMPL_SUFFIX);
}

/*
 * Another shape kernel k has extern e in, for the hint: its legacy
 * <name>_impl, or the kfunc <stem> of a <stem>_impl the object calls; with
 * whether the object's prototype would match it.
 */
static char *other_shape(const struct prog *p, const struct prog_extern *e,
			 const struct kernel *k)
{
	const struct kpart *where = NULL;
	char *name, *decl, *hint = NULL;
	uint32_t id = 0;
	size_t stem;
	bool is_impl = ends_with_impl(e->essent, &stem);

	name = is_impl ? strndup(e->essent, stem) : cli_strfmt("%s%s", e->essent, BTF2BTF_IMPL_SUFFIX);
	if (!name)
		return NULL;
	decl = kfunc_decl(k, name, &where, &id);
	if (decl) {
		bool fits = types_are_compat(p->btf, e->type_id, where->btf,
					     btf__type_by_id(where->btf, id)->type, 32) > 0;

		hint = cli_strfmt("the kernel has %s %s: %s (%s)", is_impl ? "the kfunc" : "its legacy form",
			      name, decl, fits ? "your declaration fits it" : "declare it so to call it");
	}
	free(decl);
	free(name);
	return hint;
}

static void judge(const struct prog *p, const struct prog_extern *e, const struct kernel *k,
		  struct cell *c)
{
	const char *what = e->func ? "func ksym" : "var ksym";
	uint32_t id = 0;
	const struct kpart *where;
	const struct btf_type *t;
	int compat;

	memset(c, 0, sizeof(*c));
	if (!e->typed) {
		c->v = V_UNTYPED;
		return;
	}
	where = find_ksym(k, e->essent, e->func, &id);
	if (!where) {
		c->v = V_MISSING;
		c->fails = !e->weak;
		if (c->fails)
			c->error = cli_strfmt("extern (%s) '%s': not found in kernel %s", what, e->name,
					  e->func ? "or module BTFs" : "BTF");
		if (e->func)
			c->hint = other_shape(p, e, k);
		return;
	}
	c->where = where;
	t = btf__type_by_id(where->btf, id);
	if (e->func) {
		c->kernel_decl = cproto_func(where->btf, t->type, e->essent, -1);
		compat = types_are_compat(p->btf, e->type_id, where->btf, t->type, 32);
	} else {
		uint32_t tid;

		skip_mods(where->btf, t->type, &tid);
		c->kernel_decl = cproto_type(where->btf, t->type);
		compat = types_are_compat(p->btf, e->type_id, where->btf, tid, 32);
	}
	if (compat <= 0) {
		c->v = V_INCOMPATIBLE;
		/* libbpf since its kfunc flavours (2023): a weak kfunc that
		 * does not match is left at 0 */
		c->fails = !(e->func && e->weak);
		if (c->fails)
			c->error = e->func ?
				cli_strfmt("extern (func ksym) '%s': func_proto incompatible with %s's: %s",
				       e->name, where->path, c->kernel_decl ? c->kernel_decl : "?") :
				cli_strfmt("extern (var ksym) '%s': incompatible types, kernel has %s",
				       e->name, c->kernel_decl ? c->kernel_decl : "?");
		if (e->func)
			c->hint = other_shape(p, e, k);
		return;
	}
	if (!e->func) {
		c->v = V_OK;
		return;
	}
	switch (callable(where, id)) {
	case 1: {
		size_t stem;

		c->v = V_OK;
		/* a legacy <kfunc>_impl: the kernel has the new form beside it */
		if (ends_with_impl(e->essent, &stem)) {
			c->hint = other_shape(p, e, k);
			if (c->hint)
				c->v = V_OK_LEGACY;
		}
		return;
	}
	case 0:
		c->v = V_NOT_KFUNC;
		c->fails = true;
		c->error = added_impl(k, where, e->essent, id) ?
			cli_strfmt("verifier: cannot find address for kernel function %s", e->essent) :
			cli_strfmt("verifier: calling kernel function %s is not allowed", e->essent);
		c->hint = other_shape(p, e, k);
		return;
	default:
		c->v = V_UNKNOWN;
		return;
	}
}

static void cell_free(struct cell *c)
{
	free(c->kernel_decl);
	free(c->error);
	free(c->hint);
}

/* "[LABEL=]FILE[,MODULE...]": LABEL without '/' (a path may hold '='). */
static int parse_kernel(const char *arg, struct kernel *k)
{
	const char *eq = strchr(arg, '=');
	char *s;

	k->label = arg;
	if (eq && eq > arg && eq[1] && !memchr(arg, '/', eq - arg)) {
		k->label = strndup(arg, eq - arg);
		arg = eq + 1;
	}
	k->spec = strdup(arg);
	if (!k->label || !k->spec)
		return -ENOMEM;
	k->nr_parts = 1;
	for (s = k->spec; (s = strchr(s, ',')); s++)
		k->nr_parts++;
	k->part = calloc(k->nr_parts, sizeof(*k->part));
	if (!k->part)
		return -ENOMEM;
	s = k->spec;
	for (size_t i = 0; i < k->nr_parts; i++) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = 0;
		k->part[i].path = s;
		s = comma ? comma + 1 : s;
	}
	return 0;
}

/* Whether the BTF says which FUNCs are kfuncs: set8s (an ELF object), or
 * the "bpf_kfunc" decl tags pahole >= 1.27 and 7.3's build add. */
static bool says_kfuncs(const struct btf2btf *b)
{
	return btf2btf__set8_entry_cnt(b) > 0 || btf2btf__kfunc_cnt(b) > 0;
}

/* 0, or 2 after printing the error: a kernel without BTF is bad input. */
static int open_kernel(struct kernel *k)
{
	struct cli_opts *o = cli_opts();
	const char *saved_base = o->base_path;
	const struct btf *saved_btf = o->base_btf;
	int ret = 0;

	for (size_t i = 0; i < k->nr_parts && !ret; i++) {
		struct kpart *p = &k->part[i];

		if (!*p->path) {
			cli_error("kernel %s: an empty file name in '%s'", k->label, k->spec);
			ret = 2;
			break;
		}
		if (prog_is_bpf_object(p->path)) {
			cli_error("%s: a BPF object given as a module of kernel %s", p->path, k->label);
			ret = 2;
			break;
		}
		/* a module is split BTF on the kernel's vmlinux */
		o->base_path = i ? k->part[0].path : NULL;
		o->base_btf = i ? k->part[0].btf : NULL;
		if (cli_open(p->path, CLI_OPEN_LENIENT | CLI_OPEN_QUIET, &p->b)) {
			cli_error("%s: not a kernel's BTF (vmlinux, raw BTF, or a module after its "
				  "vmlinux) nor a BPF object", p->path);
			ret = 2;
			break;
		}
		p->btf = btf2btf__btf(p->b);
		if (!p->btf) {
			cli_error("%s: libbpf cannot read its BTF: %s", p->path, strerror(errno));
			ret = 2;
			break;
		}
		p->kfuncs_known = says_kfuncs(p->b);
	}
	o->base_path = saved_base;
	o->base_btf = saved_btf;
	return ret;
}

static void kernel_free(struct kernel *k, const char *arg)
{
	for (size_t i = 0; k->part && i < k->nr_parts; i++)
		btf2btf__close(k->part[i].b);
	free(k->part);
	free(k->spec);
	if (k->label != arg)
		free((char *)k->label);
}

/* ---- output ---- */

/* The failure bpf_object__load() reports for kernel k: libbpf resolves the
 * externs by name and stops at the first it cannot; the verifier sees the
 * programs after that. NULL when it loads. */
static const struct cell *first_failure(const struct cell *cells, size_t nr, int nk, int k,
					unsigned int *count)
{
	const struct cell *first = NULL;

	*count = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct cell *c = &cells[i * nk + k];

		if (!c->fails)
			continue;
		++*count;
		if (!first || (first->v == V_NOT_KFUNC && c->v != V_NOT_KFUNC))
			first = c;
	}
	return first;
}

struct run {
	struct kernel *ks;
	int nk;
	struct prog *progs;
	int np;
};

static const char *cell_text(const struct prog_extern *e, const struct cell *c, char *buf,
			     size_t size)
{
	const char *v = verdict_names[c->v].text;

	if (!c->fails && (c->v == V_MISSING || c->v == V_INCOMPATIBLE))
		snprintf(buf, size, "%s (weak: 0)", v);
	else
		snprintf(buf, size, "%s", v);
	return buf;
}

static void print_text(const struct run *r, const struct prog *p, struct cell *cells)
{
	size_t w[3] = { strlen("EXTERN"), strlen("kfunc"), strlen("strong") }, *kw;
	char buf[64];
	unsigned int nf = 0, nv = 0;

	kw = calloc(r->nk, sizeof(*kw));
	if (!kw) {
		cli_error("out of memory");
		return;
	}
	for (size_t i = 0; i < p->nr; i++) {
		nf += p->ext[i].func;
		nv += !p->ext[i].func;
		if (strlen(p->ext[i].name) > w[0])
			w[0] = strlen(p->ext[i].name);
		if (!p->ext[i].func && strlen("ksym var") > w[1])
			w[1] = strlen("ksym var");
	}
	for (int j = 0; j < r->nk; j++) {
		kw[j] = strlen(r->ks[j].label);
		for (size_t i = 0; i < p->nr; i++) {
			size_t l = strlen(cell_text(&p->ext[i], &cells[i * r->nk + j], buf, sizeof(buf)));

			if (l > kw[j])
				kw[j] = l;
		}
	}
	printf("%s: %u kfunc%s, %u ksym variable%s\n", p->path, nf, nf == 1 ? "" : "s", nv,
	       nv == 1 ? "" : "s");
	if (p->nr) {
		printf("%-*s  %-*s  %-*s", (int)w[0], "EXTERN", (int)w[1], "KIND", (int)w[2], "BIND");
		for (int j = 0; j < r->nk; j++)
			printf("  %-*s", j + 1 < r->nk ? (int)kw[j] : 0, r->ks[j].label);
		putchar('\n');
	}
	for (size_t i = 0; i < p->nr; i++) {
		const struct prog_extern *e = &p->ext[i];

		printf("%-*s  %-*s  %-*s", (int)w[0], e->name, (int)w[1], e->func ? "kfunc" : "ksym var",
		       (int)w[2], e->weak ? "weak" : "strong");
		for (int j = 0; j < r->nk; j++)
			printf("  %-*s", j + 1 < r->nk ? (int)kw[j] : 0,
			       cell_text(e, &cells[i * r->nk + j], buf, sizeof(buf)));
		putchar('\n');
	}
	/* a verdict per kernel: what bpf_object__load() would say first */
	for (int j = 0; j < r->nk; j++) {
		unsigned int fails, zero = 0, unknown = 0;
		const struct cell *first = first_failure(cells, p->nr, r->nk, j, &fails);

		for (size_t i = 0; i < p->nr; i++) {
			const struct cell *c = &cells[i * r->nk + j];

			zero += !c->fails && (c->v == V_MISSING || c->v == V_INCOMPATIBLE);
			unknown += c->v == V_UNKNOWN;
		}
		if (first)
			printf("%s: fails: %s%s\n", r->ks[j].label, first->error,
			       fails > 1 ? " (and more)" : "");
		else
			printf("%s: loads", r->ks[j].label);
		if (!first && zero)
			printf(" (%u weak extern%s at 0: guard %s with bpf_ksym_exists()", zero,
			       zero == 1 ? "" : "s", zero == 1 ? "it" : "them");
		if (!first && unknown)
			printf("%s%u kfunc%s not known to be kfuncs (no set8s or bpf_kfunc tags)",
			       zero ? "; " : " (", unknown, unknown == 1 ? "" : "s");
		if (!first)
			printf("%s\n", zero || unknown ? ")" : "");
	}
	for (size_t i = 0; i < p->nr; i++)
		for (int j = 0; j < r->nk; j++) {
			const struct cell *c = &cells[i * r->nk + j];

			if (c->hint)
				printf("  hint: %s on %s: %s\n", p->ext[i].name, r->ks[j].label, c->hint);
		}
	free(kw);
}

static void print_json(struct json *j, const struct run *r, const struct prog *p,
		       struct cell *cells)
{
	json_start_object(j);
	json_string_field(j, "file", p->path);
	json_key(j, "externs");
	json_start_array(j);
	for (size_t i = 0; i < p->nr; i++) {
		const struct prog_extern *e = &p->ext[i];

		json_start_object(j);
		json_string_field(j, "name", e->name);
		json_string_field(j, "kind", e->func ? "kfunc" : "ksym_var");
		json_bool_field(j, "weak", e->weak);
		json_bool_field(j, "typed", e->typed);
		json_string_field(j, "declared", e->decl);
		json_key(j, "on");
		json_start_array(j);
		for (int k = 0; k < r->nk; k++) {
			const struct cell *c = &cells[i * r->nk + k];

			json_start_object(j);
			json_string_field(j, "kernel", r->ks[k].label);
			json_string_field(j, "verdict", verdict_names[c->v].json);
			json_bool_field(j, "fails_load", c->fails);
			json_key(j, "in");
			c->where ? json_string(j, c->where->path) : json_null(j);
			json_key(j, "kernel_declaration");
			c->kernel_decl ? json_string(j, c->kernel_decl) : json_null(j);
			json_key(j, "error");
			c->error ? json_string(j, c->error) : json_null(j);
			json_key(j, "hint");
			c->hint ? json_string(j, c->hint) : json_null(j);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "kernels");
	json_start_array(j);
	for (int k = 0; k < r->nk; k++) {
		unsigned int fails;
		const struct cell *first = first_failure(cells, p->nr, r->nk, k, &fails);

		json_start_object(j);
		json_string_field(j, "kernel", r->ks[k].label);
		json_bool_field(j, "loads", !first);
		json_key(j, "error");
		first ? json_string(j, first->error) : json_null(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* Judge object p on every kernel and print it: 0, or 1 when a load fails. */
static int check_one(const struct run *r, const struct prog *p, struct json *j)
{
	struct cell *cells = calloc(p->nr * r->nk + 1, sizeof(*cells));
	int ret = 0;

	if (!cells) {
		cli_error("out of memory");
		return 1;
	}
	for (size_t i = 0; i < p->nr; i++)
		for (int k = 0; k < r->nk; k++) {
			struct cell *c = &cells[i * r->nk + k];

			judge(p, &p->ext[i], &r->ks[k], c);
			ret |= c->fails;
		}
	if (j)
		print_json(j, r, p, cells);
	else
		print_text(r, p, cells);
	for (size_t i = 0; i < p->nr * r->nk; i++)
		cell_free(&cells[i]);
	free(cells);
	return ret;
}

int cli_check_prog(int n, char **args)
{
	struct run r = { 0 };
	struct json *j = NULL;
	int ret = 2, fails = 0;
	char **kargs = calloc(n, sizeof(*kargs));

	r.ks = calloc(n, sizeof(*r.ks));
	r.progs = calloc(n, sizeof(*r.progs));
	if (!r.ks || !r.progs || !kargs) {
		cli_error("out of memory");
		goto out;
	}
	/* an ELF file of machine BPF is an object, anything else a kernel */
	for (int i = 0; i < n; i++) {
		int rc = prog_load(&r.progs[r.np], args[i]);

		if (rc == 2)
			goto out;
		if (rc == 0) {
			r.np++;
			continue;
		}
		kargs[r.nk] = args[i];
		if (parse_kernel(args[i], &r.ks[r.nk++])) {
			cli_error("out of memory");
			goto out;
		}
	}
	if (!r.np || !r.nk) {
		cli_error("--check-prog needs a BPF object (clang -target bpf) and a kernel's BTF "
			  "(vmlinux, raw BTF) to check it against; %s", r.np ? "no kernel given" :
			  "no BPF object given (an ELF file of machine BPF)");
		goto out;
	}
	for (int k = 0; k < r.nk; k++)
		if (open_kernel(&r.ks[k]))
			goto out;
	if (cli_opts()->json) {
		j = cli_json_record();
		json_start_object(j);
		json_key(j, "kernels");
		json_start_array(j);
		for (int k = 0; k < r.nk; k++) {
			json_start_object(j);
			json_string_field(j, "label", r.ks[k].label);
			json_string_field(j, "file", r.ks[k].part[0].path);
			json_key(j, "modules");
			json_start_array(j);
			for (size_t m = 1; m < r.ks[k].nr_parts; m++)
				json_string(j, r.ks[k].part[m].path);
			json_end_array(j);
			json_bool_field(j, "kfuncs_known", r.ks[k].part[0].kfuncs_known);
			json_end_object(j);
		}
		json_end_array(j);
		json_key(j, "objects");
		json_start_array(j);
	}
	for (int i = 0; i < r.np; i++) {
		if (i && !j)
			putchar('\n');
		fails |= check_one(&r, &r.progs[i], j);
	}
	if (j) {
		json_end_array(j);
		json_bool_field(j, "ok", !fails);
		json_end_object(j);
		cli_json_done(j);
	}
	ret = fails ? 1 : 0;
out:
	for (int i = 0; r.progs && i < r.np; i++)
		prog_free(&r.progs[i]);
	for (int k = 0; r.ks && k < r.nk; k++)
		kernel_free(&r.ks[k], kargs[k]);
	free(r.progs);
	free(r.ks);
	free(kargs);
	return ret;
}
