// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stage 2 of the pipeline (open -> plan -> edit -> post-passes -> write).
 *
 * The plan. One pass over the .BTF_ids entries, then one over the kfuncs,
 * applies every rule once: what the transform will do to each kfunc
 * (struct btf2btf_kfunc: planned state and BTF2BTF_ACT_* actions) and every
 * problem, with a stable rule name and a severity. The transform, --kfuncs
 * and --check only read it.
 *
 * Rules follow upstream resolve_btfids (Linux 7.3, tools/bpf/resolve_btfids
 * /main.c): kfuncs are the entries of BTF_SET8_KFUNCS set8s; one kfunc in two
 * set8s with different flags is refused; an implicit argument is a pointer
 * (through modifiers, not typedefs) to struct bpf_prog_aux or btf_struct_meta;
 * an existing FUNC <kfunc>_impl is a legacy one whatever its prototype, and a
 * KF_IMPLICIT_ARGS kfunc without an implicit argument still gets its _impl;
 * both are warnings here, as are parameters after the implicit one unless
 * the verifier supplies them (verifier_supplies_rest()). One difference, on
 * purpose: a decl tag of a dropped parameter moves to _impl (upstream also
 * leaves it on the reduced kfunc, past its last parameter, which the kernel
 * refuses).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_format.h"
#include "plan/plan.h"

/* ---- names ---- */

int b2b_impl_name(const char *name, char buf[BTF2BTF_KSYM_NAME_LEN])
{
	size_t len = strlen(name), sl = strlen(BTF2BTF_IMPL_SUFFIX);

	/* memcpy, not snprintf: this runs for every KF_IMPLICIT_ARGS entry */
	if (len + sl >= BTF2BTF_KSYM_NAME_LEN)
		return -ENAMETOOLONG;
	memcpy(buf, name, len);
	memcpy(buf + len, BTF2BTF_IMPL_SUFFIX, sl + 1);
	return 0;
}

bool b2b_impl_owner_name(const char *name, char buf[BTF2BTF_KSYM_NAME_LEN])
{
	size_t sl = strlen(BTF2BTF_IMPL_SUFFIX), len = strlen(name);

	if (len <= sl || len - sl >= BTF2BTF_KSYM_NAME_LEN ||
	    strcmp(name + len - sl, BTF2BTF_IMPL_SUFFIX))
		return false;
	memcpy(buf, name, len - sl);
	buf[len - sl] = 0;
	return true;
}

/* ---- implicit arguments: the one table ---- */

/*
 * As upstream's is_kf_implicit_arg(): a pointer, through modifiers (not
 * typedefs), to a STRUCT (not a FWD) named in implicit_structs.
 */
static const struct btf_type *skip_mods(const struct b2b_btf *btf, __u32 id)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, id);

	/* bounded: a modifier loop in malformed BTF must not hang us */
	for (int depth = 0; t && depth < 32 && b2b_is_mod(t); depth++)
		t = b2b_btf_type_by_id(btf, t->type);
	return t;
}

/* The struct an implicit argument points to, NULL for any other type. */
static const char *implicit_struct(const struct b2b_btf *btf, __u32 type_id)
{
	static const char *const implicit_structs[] = { "bpf_prog_aux", "btf_struct_meta" };
	const struct btf_type *t = skip_mods(btf, type_id);
	const char *name;

	if (!t || !b2b_is_ptr(t))
		return NULL;
	t = skip_mods(btf, t->type);
	if (!t || !b2b_is_struct(t))
		return NULL;
	name = b2b_btf_str(btf, t->name_off);
	for (size_t i = 0; name && i < ARRAY_SIZE(implicit_structs); i++)
		if (!strcmp(name, implicit_structs[i]))
			return implicit_structs[i];
	return NULL;
}

static bool is_implicit_arg(const struct b2b_btf *btf, __u32 type_id)
{
	return implicit_struct(btf, type_id) != NULL;
}

/*
 * Whether the verifier supplies the parameters of proto after its implicit
 * one at arg, so that dropping them is the design, not a loss. Linux 7.3's
 * verifier takes every parameter past the reduced prototype as implicit
 * (is_kfunc_arg_implicit()) but writes values into only what its fixups
 * know: the struct btf_struct_meta * of the collection inserts
 * (bpf_list_push_front/back, bpf_list_add, bpf_rbtree_add) and, in the
 * register after it, the node's offset (bpf_fixup_kfunc_call(): "The
 * verifier rewrites @meta and @off"). So: the implicit argument is a
 * struct btf_struct_meta * (or the legacy _impl's void *meta__ign) and one
 * integer parameter follows it. A struct bpf_prog_aux * gets no company.
 */
static bool verifier_supplies_rest(const struct b2b_btf *btf, __u32 proto, int arg)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, proto), *off;
	const struct btf_param *p = b2b_params(t);
	const char *s = implicit_struct(btf, p[arg].type), *name;

	if ((int)b2b_vlen(t) != arg + 2)
		return false;
	if (!s) {
		t = skip_mods(btf, p[arg].type);
		name = b2b_btf_str(btf, p[arg].name_off);
		if (!t || !b2b_is_ptr(t) || !name || strcmp(name, "meta__ign"))
			return false;
	} else if (strcmp(s, "btf_struct_meta")) {
		return false;
	}
	off = skip_mods(btf, p[arg + 1].type);
	for (int depth = 0; off && b2b_kind(off) == BTF_KIND_TYPEDEF && depth < 32; depth++)
		off = skip_mods(btf, off->type);
	return off && b2b_kind(off) == BTF_KIND_INT;
}

int b2b_first_implicit_arg(const struct b2b_btf *btf, __u32 proto_id)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, proto_id);
	const struct btf_param *p = b2b_params(t);

	for (__u32 i = 0; i < b2b_vlen(t); i++)
		if (is_implicit_arg(btf, p[i].type))
			return i;
	return -1;
}

/* ---- problems ---- */

/* Every rule, once. quiet: a lint finding the transform is not affected by
 * (logged at info level, so a kernel build stays quiet). */
enum rule {
	R_SET8_NO_FUNC, R_SET8_BASE_FUNC, R_SET8_ID_RANGE, R_SET8_IMPL_MISSING,
	R_SET8_FLAGS_IGNORED, R_SET8_CONFLICT, R_TAG_NOT_IN_SET, R_IMPL_NAME_TOO_LONG,
	R_IMPL_NOT_FUNC, R_IMPL_FLAGGED, R_IMPL_PROTO_MISMATCH, R_IMPLICIT_NO_ARG,
	R_IMPLICIT_NOT_LAST, R_ARENA_NOT_POINTER,
};

static const struct {
	const char *name;
	enum btf2btf_severity severity;
	bool quiet;
} rules[] = {
	[R_SET8_NO_FUNC]	= { "set8-no-func", BTF2BTF_SEV_WARNING, false },
	[R_SET8_BASE_FUNC]	= { "set8-base-func", BTF2BTF_SEV_WARNING, false },
	[R_SET8_ID_RANGE]	= { "set8-id-range", BTF2BTF_SEV_ERROR, false },
	[R_SET8_IMPL_MISSING]	= { "set8-impl-missing", BTF2BTF_SEV_ERROR, false },
	[R_SET8_FLAGS_IGNORED]	= { "set8-flags-ignored", BTF2BTF_SEV_WARNING, true },
	[R_SET8_CONFLICT]	= { "set8-conflict", BTF2BTF_SEV_ERROR, false },
	[R_TAG_NOT_IN_SET]	= { "tag-not-in-set", BTF2BTF_SEV_WARNING, true },
	[R_IMPL_NAME_TOO_LONG]	= { "impl-name-too-long", BTF2BTF_SEV_ERROR, false },
	[R_IMPL_NOT_FUNC]	= { "impl-not-func", BTF2BTF_SEV_WARNING, false },
	[R_IMPL_FLAGGED]	= { "impl-flagged", BTF2BTF_SEV_ERROR, false },
	[R_IMPL_PROTO_MISMATCH]	= { "impl-proto-mismatch", BTF2BTF_SEV_WARNING, false },
	[R_IMPLICIT_NO_ARG]	= { "implicit-no-arg", BTF2BTF_SEV_WARNING, false },
	[R_IMPLICIT_NOT_LAST]	= { "implicit-not-last", BTF2BTF_SEV_WARNING, false },
	[R_ARENA_NOT_POINTER]	= { "arena-not-pointer", BTF2BTF_SEV_ERROR, false },
};

const char *b2b_plan_rule_name(size_t i)
{
	return i < ARRAY_SIZE(rules) ? rules[i].name : NULL;
}

struct planner {
	const struct b2b_plan_input *in;
	struct b2b_kfuncs *k;
	struct b2b_plan *plan;
	__u32 start;			/* first id of the split part */
	int err;
};

__attribute__((format(printf, 5, 6)))
static void problem(struct planner *p, enum rule rule, const char *name, __u32 id,
		    const char *fmt, ...)
{
	struct b2b_plan *plan = p->plan;
	struct btf2btf_problem *pr;
	struct btf2btf_kfunc *kf;
	char *msg = NULL, *n;
	va_list ap;

	if (p->err)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	n = b2b_strdup(name ? name : "");
	if (!msg || !n || b2b_grow((void **)&plan->problems, &plan->cap, plan->nr + 1,
				   sizeof(*plan->problems))) {
		free(msg);
		free(n);
		p->err = -ENOMEM;
		return;
	}
	pr = &plan->problems[plan->nr++];
	pr->rule = rules[rule].name;
	pr->severity = rules[rule].severity;
	pr->name = n;
	pr->id = id;
	pr->message = msg;
	if (pr->severity == BTF2BTF_SEV_ERROR)
		plan->nr_errors++;
	else if (rules[rule].quiet)
		b2b_info(p->in->log, "%s", msg);
	else
		b2b_warn(p->in->log, "%s", msg);
	kf = b2b_kfunc_by_id(p->k, id);
	if (kf)
		kf->problems++;
}

const char *b2b_kf_flag_name(unsigned int bit)
{
	static const char *const names[] = {
		[0] = "KF_ACQUIRE", [1] = "KF_RELEASE", [2] = "KF_RET_NULL",
		[4] = "KF_TRUSTED_ARGS", [5] = "KF_SLEEPABLE", [6] = "KF_DESTRUCTIVE",
		[7] = "KF_RCU", [8] = "KF_ITER_NEW", [9] = "KF_ITER_NEXT",
		[10] = "KF_ITER_DESTROY", [11] = "KF_RCU_PROTECTED", [12] = "KF_FASTCALL",
		[13] = "KF_ARENA_RET", [14] = "KF_ARENA_ARG1", [15] = "KF_ARENA_ARG2",
		[16] = "KF_IMPLICIT_ARGS", [17] = "KF_SPINLOCK_SAFE", [18] = "KF_PERFMON",
	};

	return bit < ARRAY_SIZE(names) ? names[bit] : NULL;
}

/* snprintf() at buf + *len, *len grown by what it would write: past size
 * the text is only counted. */
__attribute__((format(printf, 4, 5)))
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*len < size ? buf + *len : NULL, *len < size ? size - *len : 0, fmt, ap);
	va_end(ap);
	*len += n > 0 ? (size_t)n : 0;
}

int btf2btf__kf_flags_str(uint32_t flags, char *buf, size_t size)
{
	size_t len = 0;
	uint32_t unknown = 0;

	if (size)
		buf[0] = 0;
	for (unsigned int bit = 0; bit < 32; bit++) {
		const char *name = b2b_kf_flag_name(bit);

		if (!(flags & (1U << bit)))
			continue;
		if (name)
			append(buf, size, &len, "%s%s", len ? "|" : "", name);
		else
			unknown |= 1U << bit;
	}
	if (unknown)
		append(buf, size, &len, "%s0x%x", len ? "|" : "", unknown);
	if (!len)
		append(buf, size, &len, "-");
	return (int)len;
}

static const char *kind_str(const struct btf_type *t)
{
	return btf2btf__kind_name(t ? b2b_kind(t) : BTF_KIND_UNKN);
}

/* FUNC (kind BTF_KIND_FUNC) or any type (kind < 0) named name, in the BTF or its base. */
static __u32 find_name(const struct planner *p, const char *name, int kind)
{
	__u32 id = b2b_name_index_find(p->in->names, name, kind);

	if (!id && p->in->base_names)
		id = b2b_name_index_find(p->in->base_names, name, kind);
	return id;
}

/* The KF_IMPLICIT_ARGS kfunc X of impl_name "X_impl", or NULL. */
static const struct btf2btf_kfunc *implicit_owner(const struct planner *p, const char *impl_name)
{
	char name[BTF2BTF_KSYM_NAME_LEN];
	const struct btf2btf_kfunc *x;

	if (!(p->plan->features & BTF2BTF_FEAT_IMPLICIT_ARGS) ||
	    !b2b_impl_owner_name(impl_name, name))
		return NULL;
	x = b2b_kfunc_by_id(p->k, b2b_name_index_find(p->in->names, name, BTF_KIND_FUNC));
	return x && (x->flags & BTF2BTF_KF_IMPLICIT_ARGS) ? x : NULL;
}

/* ---- set8 entries ---- */

struct seen {			/* per kfunc: the first BTF_SET8_KFUNCS entry */
	const char *set;
	__u32 flags;
	bool reported;
};

static void entry_no_func(struct planner *p, const struct b2b_set8_entry *ent, const char *set)
{
	const struct b2b_btf *btf = p->in->btf;
	const struct btf2btf_kfunc *x;
	__u32 other;

	if (!ent->name) {
		const struct btf_type *t = ent->id < b2b_btf_type_cnt(btf) ? b2b_btf_type_by_id(btf, ent->id)
									 : NULL;

		if (!t && ent->id)
			/* a type we add would take that id */
			problem(p, R_SET8_ID_RANGE, "", 0,
				"set8 %s holds id %u, past the last type (%u): .BTF_ids was resolved against another BTF",
				set, ent->id, b2b_btf_type_cnt(btf) - 1);
		else if (t && b2b_is_func(t))
			problem(p, R_SET8_BASE_FUNC, "", 0,
				"set8 %s holds id %u, a FUNC of the base BTF: left alone", set, ent->id);
		else
			problem(p, R_SET8_NO_FUNC, "", 0,
				"set8 %s holds id %u, which is %s", set, ent->id,
				!t ? "no type of the BTF" : "not a FUNC");
		return;
	}
	if (p->in->base_names && b2b_name_index_find(p->in->base_names, ent->name, BTF_KIND_FUNC)) {
		problem(p, R_SET8_BASE_FUNC, ent->name, 0,
			"set8 %s lists %s, a FUNC of the base BTF: left alone", set, ent->name);
		return;
	}
	/* the X_impl we would add would become that entry's kfunc on the next
	 * run: the output would not be a fixed point */
	x = implicit_owner(p, ent->name);
	if (x) {
		problem(p, R_SET8_IMPL_MISSING, ent->name, 0,
			"set8 %s lists %s, which the BTF lacks: cannot add it as the _impl of kfunc %s",
			set, ent->name, x->name);
		return;
	}
	other = find_name(p, ent->name, -1);
	if (other)
		problem(p, R_SET8_NO_FUNC, ent->name, 0,
			"set8 %s lists %s, which the BTF has as %s [%u], not as a FUNC", set,
			ent->name, kind_str(b2b_btf_type_by_id(btf, other)), other);
	else
		problem(p, R_SET8_NO_FUNC, ent->name, 0,
			"set8 %s lists %s, but the BTF has no FUNC of that name (pahole drops a function whose prototypes disagree)",
			set, ent->name);
}

/* More BTF_SET8_KFUNCS entries name a kfunc than there are kfuncs found
 * by them: some kfunc has two, whose flags must agree. */
static bool kfunc_listed_twice(const struct planner *p)
{
	const struct b2b_btf_ids *ids = p->in->ids;
	size_t entries = 0, kfuncs = 0;

	for (size_t i = 0; i < ids->nr_entries; i++)
		entries += p->k->entry_func[i] &&
			   (ids->sets[ids->entries[i].set].flags & BTF2BTF_SET8_KFUNCS);
	for (size_t i = 0; i < p->k->nr; i++)
		kfuncs += !!(p->k->items[i].found_by & BTF2BTF_FOUND_SET8);
	return entries > kfuncs;
}

static void plan_entries(struct planner *p)
{
	const struct b2b_btf_ids *ids = p->in->ids;
	struct seen *seen = NULL;
	char fa[256], fb[256];
	size_t hint = 0;

	/* a kfunc per entry (the rule): no first entry to remember */
	if (kfunc_listed_twice(p)) {
		seen = b2b_calloc(p->k->nr, sizeof(*seen));
		if (!seen) {
			p->err = -ENOMEM;
			return;
		}
	}
	for (size_t i = 0; i < ids->nr_entries && !p->err; i++) {
		const struct b2b_set8_entry *ent = &ids->entries[i];
		const struct b2b_set8 *set = &ids->sets[ent->set];
		__u32 fid = p->k->entry_func[i];
		struct btf2btf_kfunc *kf = fid ? b2b_kfunc_by_id_near(p->k, fid, &hint) : NULL;
		struct seen *s;

		if (!fid) {
			entry_no_func(p, ent, set->name);
			continue;
		}
		/* a 6.0-6.8 kernel's set8 registered as kfunc set or fmod_ret
		 * list: its flags mean what they say there, per set */
		if (set->registered)
			continue;
		if (!(set->flags & BTF2BTF_SET8_KFUNCS)) {
			if (ent->flags) {
				const char *fn = b2b_btf_str(p->in->btf,
						b2b_btf_type_by_id(p->in->btf, fid)->name_off);

				btf2btf__kf_flags_str(ent->flags, fa, sizeof(fa));
				problem(p, R_SET8_FLAGS_IGNORED, fn, fid,
					"set8 %s gives %s flags %s, but it is not a BTF_SET8_KFUNCS set8 (BTF_KFUNCS_START): they make no kfunc",
					set->name, fn, fa);
			}
			continue;
		}
		if (!seen)
			continue;
		s = &seen[kf - p->k->items];
		if (!s->set) {
			s->set = set->name;
			s->flags = ent->flags;
			continue;
		}
		if (s->flags == ent->flags || s->reported)
			continue;
		s->reported = true;
		p->plan->refuse_open = true;
		if ((s->flags ^ ent->flags) & BTF2BTF_KF_IMPLICIT_ARGS) {
			bool first = s->flags & BTF2BTF_KF_IMPLICIT_ARGS;

			problem(p, R_SET8_CONFLICT, kf->name, fid,
				"kfunc %s is KF_IMPLICIT_ARGS in set8 %s but not in set8 %s: one BTF cannot serve both",
				kf->name, first ? s->set : set->name, first ? set->name : s->set);
		} else {
			btf2btf__kf_flags_str(s->flags, fa, sizeof(fa));
			btf2btf__kf_flags_str(ent->flags, fb, sizeof(fb));
			problem(p, R_SET8_CONFLICT, kf->name, fid,
				"kfunc %s has flags %s in set8 %s but %s in set8 %s: one BTF cannot serve both",
				kf->name, fa, s->set, fb, set->name);
		}
	}
	free(seen);
}

/* ---- kfuncs ---- */

static const struct btf_type *type_of(const struct planner *p, __u32 id)
{
	return b2b_btf_type_by_id(p->in->btf, id);
}

static bool has_func_tag(const struct planner *p, __u32 id, const char *value)
{
	size_t first, n = b2b_tag_index_find(p->in->tags, id, &first);

	for (size_t i = first; i < first + n; i++)
		if (b2b_is_func_tag(p->in->btf, p->in->tags->ids[i], value))
			return true;
	return false;
}

/* A decl tag of a parameter at index from or later on FUNC id. */
static bool has_param_tag_from(const struct planner *p, __u32 id, int from)
{
	size_t first, n = b2b_tag_index_find(p->in->tags, id, &first);

	for (size_t i = first; i < first + n; i++)
		if (b2b_decl_tag(type_of(p, p->in->tags->ids[i]))->component_idx >= from)
			return true;
	return false;
}

/* Same return type and first n parameter types; names may differ. */
static bool is_proto_prefix(const struct b2b_btf *btf, __u32 a, __u32 b, int n)
{
	const struct btf_type *ta = b2b_btf_type_by_id(btf, a), *tb = b2b_btf_type_by_id(btf, b);

	if (ta->type != tb->type || (int)b2b_vlen(ta) < n || (int)b2b_vlen(tb) < n)
		return false;
	for (int i = 0; i < n; i++)
		if (b2b_params(ta)[i].type != b2b_params(tb)[i].type)
			return false;
	return true;
}

/* Parameters after the implicit one at keep of proto: the reduced proto drops them. */
static void not_last(struct planner *p, const struct btf2btf_kfunc *kf, __u32 proto, int keep)
{
	const struct b2b_btf *btf = p->in->btf;
	int vlen = b2b_vlen(type_of(p, proto));
	char dropped[256];
	size_t len = 0;

	if (keep >= vlen - 1 || verifier_supplies_rest(btf, proto, keep))
		return;
	dropped[0] = 0;
	for (int i = keep + 1; i < vlen && len < sizeof(dropped) - 1; i++) {
		const struct btf_param *prm = &b2b_params(type_of(p, proto))[i];
		const char *pn = prm->name_off ? b2b_btf_str(btf, prm->name_off) : NULL;

		len += snprintf(dropped + len, sizeof(dropped) - len, "%s%s", len ? ", " : "",
				pn && *pn ? pn : "(anon)");
	}
	problem(p, R_IMPLICIT_NOT_LAST, kf->name, kf->btf_id,
		"kfunc %s: the implicit argument is parameter %d of %d; the transform drops the parameters after it (%s)",
		kf->name, keep + 1, vlen, dropped);
}

static void no_arg(struct planner *p, const struct btf2btf_kfunc *kf, bool has_impl)
{
	problem(p, R_IMPLICIT_NO_ARG, kf->name, kf->btf_id,
		"kfunc %s is flagged KF_IMPLICIT_ARGS (set8 %s) but takes no implicit argument (struct bpf_prog_aux * or struct btf_struct_meta *): %s",
		kf->name, *kf->sets ? kf->sets : "-",
		has_impl ? "its prototype is kept" : "an _impl with the same prototype is added");
}

static void plan_implicit(struct planner *p, struct btf2btf_kfunc *kf)
{
	const struct b2b_btf *btf = p->in->btf;
	char impl_name[BTF2BTF_KSYM_NAME_LEN];
	const struct btf2btf_kfunc *impl_kf;
	__u32 proto = type_of(p, kf->btf_id)->type, impl, other, iproto;
	int vlen = b2b_vlen(type_of(p, proto)), keep, ikeep = -1, want;
	bool matches;

	kf->state = kf->planned = BTF2BTF_KFUNC_PENDING;
	if (b2b_impl_name(kf->name, impl_name)) {
		problem(p, R_IMPL_NAME_TOO_LONG, kf->name, kf->btf_id,
			"kfunc %.40s... (%zu chars): its %s name would exceed KSYM_NAME_LEN (%d)",
			kf->name, strlen(kf->name), BTF2BTF_IMPL_SUFFIX, BTF2BTF_KSYM_NAME_LEN);
		return;
	}
	kf->impl_name = b2b_arena_strdup(&p->k->strs, impl_name);
	if (!kf->impl_name) {
		p->err = -ENOMEM;
		return;
	}
	keep = b2b_first_implicit_arg(btf, proto);
	kf->implicit_arg = keep;
	impl = find_name(p, impl_name, BTF_KIND_FUNC);
	other = impl ? 0 : find_name(p, impl_name, -1);
	if (other)
		problem(p, R_IMPL_NOT_FUNC, kf->name, kf->btf_id,
			"kfunc %s is KF_IMPLICIT_ARGS, but %s is %s [%u], not a FUNC: a FUNC %s is added beside it",
			kf->name, impl_name, kind_str(type_of(p, other)), other, impl_name);

	impl_kf = b2b_kfunc_by_id(p->k, impl);
	if (impl_kf && (impl_kf->flags & BTF2BTF_KF_IMPLICIT_ARGS)) {
		/* X_impl would get an X_impl_impl and the output could not be read again */
		problem(p, R_IMPL_FLAGGED, kf->name, kf->btf_id,
			"kfunc %s and its counterpart %s are both flagged KF_IMPLICIT_ARGS: only %s may be",
			kf->name, impl_name, kf->name);
		return;
	}

	/* the parameters the kfunc should keep: those before the implicit one */
	want = keep >= 0 ? keep : vlen;
	if (impl) {
		iproto = type_of(p, impl)->type;
		ikeep = b2b_first_implicit_arg(btf, iproto);
		/* like upstream, a real _impl may declare the implicit argument
		 * with another pointer type (6.12's bpf_wq_set_callback_impl:
		 * void *aux__ign) */
		if (ikeep < 0 && (int)b2b_vlen(type_of(p, iproto)) > want &&
		    b2b_is_ptr(type_of(p, b2b_params(type_of(p, iproto))[want].type)))
			ikeep = want;
		/* an _impl without implicit argument matches one as long */
		matches = (ikeep < 0 ? (int)b2b_vlen(type_of(p, iproto)) == want : ikeep == want) &&
			  is_proto_prefix(btf, proto, iproto, want);
		kf->impl_id = impl;
		if (keep < 0 && matches) {
			/* an earlier run's output: the kernel prototype is _impl's */
			kf->state = kf->planned = BTF2BTF_KFUNC_ALREADY;
			kf->orig_proto_id = iproto;
			kf->implicit_arg = ikeep;
			if (ikeep >= 0)
				not_last(p, kf, iproto, ikeep);
			else	/* the run before added an _impl as it found it */
				no_arg(p, kf, true);
			return;
		}
		kf->planned = BTF2BTF_KFUNC_LEGACY;
		kf->actions |= BTF2BTF_ACT_USE_LEGACY;
		if (!matches)
			problem(p, R_IMPL_PROTO_MISMATCH, kf->name, kf->btf_id,
				"kfunc %s and its legacy %s differ before the implicit argument (return or parameter types): %s is used as it is",
				kf->name, impl_name, impl_name);
	} else {
		kf->planned = BTF2BTF_KFUNC_TRANSFORMED;
		kf->actions |= BTF2BTF_ACT_ADD_IMPL;
	}
	/* a kfunc reduced by hand (or by an earlier run) before a mismatching
	 * legacy _impl: the mismatch says it all */
	if (keep < 0) {
		if (!(impl && ikeep == vlen))
			no_arg(p, kf, impl);
		return;
	}
	kf->actions |= BTF2BTF_ACT_REDUCE_PROTO;
	kf->reduced_params = keep;
	/* a legacy _impl of the base BTF cannot take them: they stay */
	if ((impl >= p->start || !impl) && has_param_tag_from(p, kf->btf_id, keep))
		kf->actions |= BTF2BTF_ACT_MOVE_TAGS;
	not_last(p, kf, proto, keep);
}

static bool is_arena_name(const struct b2b_btf *btf, const struct btf_param *prm)
{
	static const char *const suffixes[] = { "__arena", "__arena__nullable" };
	const char *name = b2b_btf_str(btf, prm->name_off);
	size_t len = name ? strlen(name) : 0;

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len >= sl && !strcmp(name + len - sl, suffixes[i]))
			return true;
	}
	return false;
}

/* 1: a pointer to tag, 0: tagged already (an earlier run), -1: not a pointer. */
static int arena_ptr(const struct b2b_btf *btf, __u32 id)
{
	const struct btf_type *t = b2b_btf_type_by_id(btf, id), *to;
	const char *n;

	if (!t || !b2b_is_ptr(t))
		return -1;
	to = b2b_btf_type_by_id(btf, t->type);
	n = to && b2b_is_type_tag(to) && b2b_kflag(to) ? b2b_btf_str(btf, to->name_off)
						       : NULL;
	return n && !strcmp(n, B2B_ARENA_ATTR) ? 0 : 1;
}

static void plan_arena(struct planner *p, struct btf2btf_kfunc *kf)
{
	const struct b2b_btf *btf = p->in->btf;
	const struct btf_type *proto = type_of(p, type_of(p, kf->btf_id)->type);
	int n = kf->actions & BTF2BTF_ACT_REDUCE_PROTO ? (int)kf->reduced_params : (int)b2b_vlen(proto);
	int r;

	if (kf->flags & BTF2BTF_KF_ARENA_RET) {
		r = arena_ptr(btf, proto->type);
		if (r < 0)
			problem(p, R_ARENA_NOT_POINTER, kf->name, kf->btf_id,
				"kfunc %s is KF_ARENA_RET but returns no pointer", kf->name);
		else if (r)
			kf->actions |= BTF2BTF_ACT_ARENA_RET;
	}
	for (int i = 0; i < n && i < 64; i++) {
		const struct btf_param *prm = &b2b_params(proto)[i];

		if (!is_arena_name(btf, prm) &&
		    !(i == 0 && (kf->flags & BTF2BTF_KF_ARENA_ARG1)) &&
		    !(i == 1 && (kf->flags & BTF2BTF_KF_ARENA_ARG2)))
			continue;
		r = arena_ptr(btf, prm->type);
		if (r < 0)
			problem(p, R_ARENA_NOT_POINTER, kf->name, kf->btf_id,
				"kfunc %s: parameter %d is an arena argument but no pointer", kf->name,
				i + 1);
		else if (r)
			kf->arena_args |= 1ULL << i;
	}
	if (kf->arena_args)
		kf->actions |= BTF2BTF_ACT_ARENA_ARGS;
}

/*
 * A kfunc whose flags cannot be read (no set8 to find it in: raw BTF, a
 * stripped vmlinux) is KF_IMPLICIT_ARGS and transformed when the BTF says
 * so by itself: a FUNC <name>_impl (impl) whose prototype is the kfunc's
 * followed by an implicit argument (or a legacy _impl's void * there), as
 * the transform leaves it. Then it is what it is (already transformed, its
 * kernel prototype _impl's); otherwise nothing is planned, and the views
 * say the flags are unknown.
 */
static void plan_unflagged(struct planner *p, struct btf2btf_kfunc *kf, __u32 impl)
{
	const struct b2b_btf *btf = p->in->btf;
	__u32 proto = type_of(p, kf->btf_id)->type, iproto = type_of(p, impl)->type;
	int vlen = b2b_vlen(type_of(p, proto)), ikeep;

	if (kf->state != BTF2BTF_KFUNC_PLAIN || b2b_first_implicit_arg(btf, proto) >= 0)
		return;
	ikeep = b2b_first_implicit_arg(btf, iproto);
	if (ikeep < 0 && (int)b2b_vlen(type_of(p, iproto)) > vlen &&
	    b2b_is_ptr(type_of(p, b2b_params(type_of(p, iproto))[vlen].type)))
		ikeep = vlen;
	if (ikeep != vlen || !is_proto_prefix(btf, proto, iproto, vlen))
		return;
	kf->impl_name = b2b_arena_strdup(&p->k->strs, b2b_btf_name(btf, type_of(p, impl)));
	if (!kf->impl_name) {
		p->err = -ENOMEM;
		return;
	}
	kf->state = kf->planned = BTF2BTF_KFUNC_ALREADY;
	kf->impl_id = impl;
	kf->orig_proto_id = iproto;
	kf->implicit_arg = ikeep;
}

static int by_kfunc_name(const void *a, const void *b)
{
	return strcmp((*(const struct btf2btf_kfunc *const *)a)->name,
		      (*(const struct btf2btf_kfunc *const *)b)->name);
}

/* Without set8s: each FUNC X_impl of a kfunc X, in one walk of the types
 * (the name index holds only what set8 entries ask for). */
static void plan_unflagged_all(struct planner *p)
{
	const struct b2b_btf *btf = p->in->btf;
	struct btf2btf_kfunc **by_name, key, *keyp = &key;
	char name[BTF2BTF_KSYM_NAME_LEN];
	size_t nr = 0, sl = strlen(BTF2BTF_IMPL_SUFFIX);

	if (!(p->plan->features & BTF2BTF_FEAT_IMPLICIT_ARGS) || !p->k->nr)
		return;
	by_name = b2b_calloc(p->k->nr, sizeof(*by_name));
	if (!by_name) {
		p->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < p->k->nr; i++)
		if (!(p->k->items[i].found_by & (BTF2BTF_FOUND_SET8 | BTF2BTF_FOUND_KFUNC_ID_SET)))
			by_name[nr++] = &p->k->items[i];
	qsort(by_name, nr, sizeof(*by_name), by_kfunc_name);
	key.name = name;
	for (__u32 id = p->start; nr && id < b2b_btf_type_cnt(btf) && !p->err; id++) {
		const struct btf_type *t = b2b_btf_own_type(btf, id);
		const char *n = b2b_is_func(t) ? b2b_btf_name(btf, t) : "";
		size_t len = strlen(n);
		struct btf2btf_kfunc **kf;

		if (len <= sl || len - sl >= sizeof(name) || strcmp(n + len - sl, BTF2BTF_IMPL_SUFFIX))
			continue;
		memcpy(name, n, len - sl);
		name[len - sl] = 0;
		kf = bsearch(&keyp, by_name, nr, sizeof(*by_name), by_kfunc_name);
		if (kf)
			plan_unflagged(p, *kf, id);
	}
	free(by_name);
}

static void plan_kfunc(struct planner *p, struct btf2btf_kfunc *kf)
{
	unsigned int feat = p->plan->features;

	if (kf->found_by & BTF2BTF_FOUND_KFUNC_ID_SET && !(kf->found_by & BTF2BTF_FOUND_SET8))
		return;		/* a 6.0-6.8 kfunc: the transform keeps upstream's rule */
	if (!(kf->found_by & BTF2BTF_FOUND_SET8)) {
		/* no .BTF_ids at all (raw BTF, a stripped object): there is no
		 * set8 to be in, and nothing true to say */
		if (!p->in->ids || !p->in->ids->nr_entries)
			return;		/* what the BTF shows: plan_unflagged_all() */
		if (!*kf->sets)
			problem(p, R_TAG_NOT_IN_SET, kf->name, kf->btf_id,
				"%s has a bpf_kfunc decl tag but is in no set8: no program can call it",
				kf->name);
		else
			problem(p, R_TAG_NOT_IN_SET, kf->name, kf->btf_id,
				"%s has a bpf_kfunc decl tag but is only in set8 %s, which is not BTF_SET8_KFUNCS",
				kf->name, kf->sets);
		return;
	}
	if ((feat & BTF2BTF_FEAT_KFUNC_TAGS) && !(kf->found_by & BTF2BTF_FOUND_TAG))
		kf->actions |= BTF2BTF_ACT_KFUNC_TAG;
	if ((feat & BTF2BTF_FEAT_FASTCALL_TAGS) && (kf->flags & BTF2BTF_KF_FASTCALL) &&
	    !has_func_tag(p, kf->btf_id, "bpf_fastcall"))
		kf->actions |= BTF2BTF_ACT_FASTCALL_TAG;
	if ((feat & BTF2BTF_FEAT_IMPLICIT_ARGS) && (kf->flags & BTF2BTF_KF_IMPLICIT_ARGS))
		plan_implicit(p, kf);
	if (feat & BTF2BTF_FEAT_ARENA_ATTRS)
		plan_arena(p, kf);
}

/*
 * Whether each kfunc's _impl is a kfunc of the source (legacy: programs
 * may call it) or the kernel prototype the transform adds (they may not):
 * in a set8; where no set8 was read (a stripped vmlinux, raw BTF), with a
 * bpf_kfunc tag of its own, which the transform never gives an _impl
 * (Debian's 7.3: bpf_obj_new_impl is tagged, bpf_wq_set_callback_impl is
 * not). The state cannot say it: after the transform both are "already
 * transformed".
 */
static void mark_impl_kfuncs(struct planner *p)
{
	bool no_set8 = !p->in->ids || !p->in->ids->nr_entries;

	for (size_t i = 0; i < p->k->nr; i++) {
		struct btf2btf_kfunc *kf = &p->k->items[i];
		const struct btf2btf_kfunc *impl = kf->impl_id ? b2b_kfunc_by_id(p->k, kf->impl_id)
							      : NULL;

		kf->impl_is_kfunc = impl && ((impl->found_by & (BTF2BTF_FOUND_SET8 |
								BTF2BTF_FOUND_KFUNC_ID_SET)) ||
					     (no_set8 && (impl->found_by & BTF2BTF_FOUND_TAG)));
	}
}

int b2b_plan_build(const struct b2b_plan_input *in, struct b2b_kfuncs *k, struct b2b_plan *plan)
{
	const struct b2b_btf *base = b2b_btf_base(in->btf);
	struct planner p = { .in = in, .k = k, .plan = plan,
			     .start = base ? b2b_btf_type_cnt(base) : 1 };

	memset(plan, 0, sizeof(*plan));
	plan->features = in->features ? in->features : BTF2BTF_FEATS_DEFAULT;
	if (in->add_kfunc_tags)
		plan->features |= BTF2BTF_FEAT_KFUNC_TAGS;
	plan_entries(&p);
	for (size_t i = 0; i < k->nr && !p.err; i++)
		plan_kfunc(&p, &k->items[i]);
	if (!p.err && (!in->ids || !in->ids->nr_entries))
		plan_unflagged_all(&p);
	mark_impl_kfuncs(&p);
	if (p.err) {
		b2b_plan_free(plan);
		return b2b_errno(in->log, p.err, "out of memory");
	}
	return 0;
}

size_t b2b_plan_log_errors(const struct b2b_plan *plan, const struct b2b_log *log)
{
	for (size_t i = 0; i < plan->nr; i++)
		if (plan->problems[i].severity == BTF2BTF_SEV_ERROR)
			b2b_err(log, "%s", plan->problems[i].message);
	return plan->nr_errors;
}

void b2b_plan_free(struct b2b_plan *plan)
{
	for (size_t i = 0; i < plan->nr; i++) {
		free((char *)plan->problems[i].name);
		free((char *)plan->problems[i].message);
	}
	free(plan->problems);
	memset(plan, 0, sizeof(*plan));
}
