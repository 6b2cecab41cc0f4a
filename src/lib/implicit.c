// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * KF_IMPLICIT_ARGS: for kfunc bpf_foo(int a, struct bpf_prog_aux *aux)
 *
 *   bpf_foo_impl(int a, struct bpf_prog_aux *aux)   new FUNC, original proto,
 *                                                   every decl tag but bpf_kfunc
 *   __bpf_kfunc bpf_foo(int a)                      new, reduced FUNC_PROTO
 *
 * Everything from the first implicit argument on is dropped, as the
 * verifier supplies it. Prototypes are shared (GCC + pahole give f and
 * f_impl one proto), so a proto is never edited: a new one is added and
 * only the kfunc's FUNC is repointed. A kfunc whose <name>_impl already
 * exists is either the legacy case (the source declares <name>_impl; only
 * the proto changes) or the output of an earlier run (left alone).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf_edit.h"
#include "implicit.h"

static const struct btf_type *skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	/* bounded: a modifier loop in malformed BTF must not hang us */
	for (int depth = 0; t && depth < 32 && (btf_is_mod(t) || btf_is_typedef(t)); depth++)
		t = btf__type_by_id(btf, t->type);
	return t;
}

bool b2b_is_implicit_arg(const struct btf *btf, __u32 type_id)
{
	static const char *const implicit_structs[] = { "bpf_prog_aux" };
	const struct btf_type *t = skip_mods(btf, type_id);
	const char *name;

	if (!t || !btf_is_ptr(t))
		return false;
	t = skip_mods(btf, t->type);
	if (!t || !(btf_is_struct(t) || (btf_is_fwd(t) && !btf_kflag(t))))
		return false;
	name = btf__name_by_offset(btf, t->name_off);
	for (size_t i = 0; name && i < ARRAY_SIZE(implicit_structs); i++)
		if (!strcmp(name, implicit_structs[i]))
			return true;
	return false;
}

int b2b_first_implicit_arg(const struct btf *btf, __u32 proto_id)
{
	const struct btf_type *t = btf__type_by_id(btf, proto_id);
	const struct btf_param *p = btf_params(t);

	for (__u16 i = 0; i < btf_vlen(t); i++)
		if (b2b_is_implicit_arg(btf, p[i].type))
			return i;
	return -1;
}

/*
 * proto a == the first n params of proto b (types), same return type. Names
 * are not compared: a legacy <name>_impl may name its parameters otherwise.
 */
static bool is_proto_prefix(const struct btf *btf, __u32 a, __u32 b, __u16 n)
{
	const struct btf_type *ta = btf__type_by_id(btf, a), *tb = btf__type_by_id(btf, b);

	if (ta->type != tb->type || btf_vlen(ta) < n || btf_vlen(tb) < n)
		return false;
	for (__u16 i = 0; i < n; i++)
		if (btf_params(ta)[i].type != btf_params(tb)[i].type)
			return false;
	return true;
}

/* Copy the kfunc's decl tags to _impl, bpf_kfunc excepted. A tag on a
 * parameter the reduced proto drops moves to _impl instead: left on the
 * kfunc it would point past the end of its prototype. */
static int move_tags(struct b2b_transform *tr, const struct btf2btf_kfunc *k, __u32 impl_id,
		     bool copy, int keep)
{
	size_t first, n;

	n = b2b_tag_index_find(tr->tags, tr->btf, k->btf_id, &first);
	for (size_t i = first; i < first + n; i++) {
		__u32 tag_id = tr->tags->ids[i];
		const struct btf_type *t = btf__type_by_id(tr->btf, tag_id);
		int idx = btf_decl_tag(t)->component_idx;
		bool kflag = btf_kflag(t);
		int err;

		if (b2b_is_kfunc_tag(tr->btf, tag_id))
			continue;
		if (idx >= keep) {
			err = b2b_ext_retype(tr->ext, tag_id, impl_id);
			if (err)
				return b2b_errno(tr->log, err, "cannot move a decl tag of %s", k->name);
			continue;
		}
		if (!copy)
			continue;
		/* tr->btf is never modified: its strings stay put */
		err = b2b_ext_add_decl_tag(tr->ext, btf__name_by_offset(tr->btf, t->name_off),
					   impl_id, idx, kflag);
		if (err < 0)
			return b2b_errno(tr->log, err, "cannot add decl tag to %s%s: %s", k->name,
					 BTF2BTF_IMPL_SUFFIX, strerror(-err));
	}
	return 0;
}

/* One reduced proto per original proto: kfuncs sharing a proto share it. */
static int reduced_proto(struct b2b_transform *tr, __u32 proto_id, __u16 keep)
{
	int id;

	if (proto_id < tr->nr_orig && tr->reduced_of[proto_id])
		return tr->reduced_of[proto_id];
	id = b2b_ext_add_proto_prefix(tr->ext, proto_id, keep);
	if (id > 0 && proto_id < tr->nr_orig)
		tr->reduced_of[proto_id] = id;
	return id;
}

int b2b_transform_init(struct b2b_transform *tr)
{
	tr->nr_orig = btf__type_cnt(tr->btf);
	tr->reduced_of = calloc(tr->nr_orig, sizeof(*tr->reduced_of));
	return tr->reduced_of ? 0 : -ENOMEM;
}

static __u32 find_func(const struct b2b_transform *tr, const char *name, __u32 *any_kind)
{
	__u32 id = b2b_name_index_find(tr->names, name, BTF_KIND_FUNC);

	if (!id && tr->base_names)
		id = b2b_name_index_find(tr->base_names, name, BTF_KIND_FUNC);
	if (!id && any_kind) {
		*any_kind = b2b_name_index_find(tr->names, name, -1);
		if (!*any_kind && tr->base_names)
			*any_kind = b2b_name_index_find(tr->base_names, name, -1);
	}
	return id;
}

static const char *kind_name(const struct btf_type *t)
{
	static const char *const names[] = {
		"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD", "TYPEDEF",
		"VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO", "VAR", "DATASEC",
		"FLOAT", "DECL_TAG", "TYPE_TAG", "ENUM64",
	};

	return btf_kind(t) < ARRAY_SIZE(names) ? names[btf_kind(t)] : "UNKNOWN";
}

/*
 * Where the implicit arguments of a legacy X_impl start. Like upstream,
 * any prototype is accepted for a real X_impl: its argument at the
 * position of X's first implicit one may have another pointer type, as
 * 6.12's bpf_wq_set_callback_impl(..., void *aux__ign) has. X's own
 * prototype (full or already reduced) says where that position is.
 */
static int legacy_first_implicit_arg(const struct btf *btf, __u32 func_proto, __u32 impl_proto)
{
	int first = b2b_first_implicit_arg(btf, impl_proto);
	int keep = b2b_first_implicit_arg(btf, func_proto);
	const struct btf_type *ip = btf__type_by_id(btf, impl_proto);

	if (first >= 0)
		return first;
	if (keep < 0)	/* X already reduced: its arguments are the explicit ones */
		keep = btf_vlen(btf__type_by_id(btf, func_proto));
	if (keep < btf_vlen(ip) && btf_is_ptr(btf__type_by_id(btf, btf_params(ip)[keep].type)))
		return keep;
	return -1;
}

int b2b_transform_kfunc(struct b2b_transform *tr, struct btf2btf_kfunc *k)
{
	char impl_name[BTF2BTF_KSYM_NAME_LEN];
	const struct btf_type *func;
	__u32 impl_id, other = 0;
	int keep, proto, n, err;

	if (k->state != BTF2BTF_KFUNC_PENDING)
		return 0;
	func = btf__type_by_id(tr->btf, k->btf_id);
	k->orig_proto_id = func->type;
	n = snprintf(impl_name, sizeof(impl_name), "%s%s", k->name, BTF2BTF_IMPL_SUFFIX);
	if (n < 0 || (size_t)n >= sizeof(impl_name))
		return b2b_errno(tr->log, -ENAMETOOLONG,
				 "kfunc %.40s... (%zu chars): its %s name would exceed KSYM_NAME_LEN (%d)",
				 k->name, strlen(k->name), BTF2BTF_IMPL_SUFFIX, BTF2BTF_KSYM_NAME_LEN);
	keep = b2b_first_implicit_arg(tr->btf, func->type);
	impl_id = find_func(tr, impl_name, &other);
	if (!impl_id && other)
		return b2b_errno(tr->log, -EINVAL, "kfunc %s: %s exists in BTF as %s [%u], not as a FUNC",
				 k->name, impl_name, kind_name(btf__type_by_id(tr->btf, other)), other);

	if (keep < 0) {
		/* no implicit argument left: an earlier run's output, or a mistake */
		int impl_keep = impl_id ? legacy_first_implicit_arg(tr->btf, func->type,
						btf__type_by_id(tr->btf, impl_id)->type) : -1;

		if (impl_keep >= 0 && btf_vlen(btf__type_by_id(tr->btf, func->type)) == impl_keep &&
		    is_proto_prefix(tr->btf, func->type, btf__type_by_id(tr->btf, impl_id)->type,
				    impl_keep)) {
			k->state = BTF2BTF_KFUNC_ALREADY;
			k->impl_id = impl_id;
			k->orig_proto_id = btf__type_by_id(tr->btf, impl_id)->type;
			tr->stats->already++;
			return 0;
		}
		return b2b_errno(tr->log, -EINVAL,
				 "kfunc %s is flagged KF_IMPLICIT_ARGS but takes no struct bpf_prog_aux * argument",
				 k->name);
	}

	if (impl_id) {
		__u32 impl_proto = btf__type_by_id(tr->btf, impl_id)->type;

		/* else the next run could not recognise the pair as transformed */
		if (legacy_first_implicit_arg(tr->btf, k->orig_proto_id, impl_proto) != keep ||
		    !is_proto_prefix(tr->btf, func->type, impl_proto, keep))
			return b2b_errno(tr->log, -EINVAL,
					 "kfunc %s and its legacy %s differ before the implicit argument (return or parameter types)",
					 k->name, impl_name);
		k->state = BTF2BTF_KFUNC_LEGACY;
		tr->stats->legacy++;
		if (impl_id >= tr->start) {
			err = move_tags(tr, k, impl_id, false, keep);
			if (err)
				return err;
		}
	} else {
		__u32 linkage = btf_vlen(func);
		int id = b2b_ext_add_func(tr->ext, impl_name, linkage, k->orig_proto_id);

		if (id < 0)
			return b2b_errno(tr->log, id, "cannot add FUNC %s: %s", impl_name, strerror(-id));
		impl_id = id;
		err = move_tags(tr, k, impl_id, true, keep);
		if (err)
			return err;
		k->state = BTF2BTF_KFUNC_TRANSFORMED;
		tr->stats->impl_added++;
	}
	proto = reduced_proto(tr, k->orig_proto_id, keep);
	if (proto < 0)
		return b2b_errno(tr->log, proto, "cannot add the reduced prototype of %s: %s",
				 k->name, strerror(-proto));
	err = b2b_ext_retype(tr->ext, k->btf_id, proto);
	if (err)
		return b2b_errno(tr->log, err, "cannot repoint kfunc %s", k->name);
	k->impl_id = impl_id;
	tr->stats->transformed++;
	return 0;
}

int b2b_add_kfunc_tag(struct b2b_transform *tr, struct btf2btf_kfunc *k)
{
	size_t first, n;
	int id;

	n = b2b_tag_index_find(tr->tags, tr->btf, k->btf_id, &first);
	for (size_t i = first; i < first + n; i++)
		if (b2b_is_kfunc_tag(tr->btf, tr->tags->ids[i]))
			return 0;
	if (k->found_by & BTF2BTF_FOUND_TAG)
		return 0;
	id = b2b_ext_add_decl_tag(tr->ext, "bpf_kfunc", k->btf_id, -1, false);
	if (id < 0)
		return b2b_errno(tr->log, id, "cannot add bpf_kfunc tag to %s: %s", k->name,
				 strerror(-id));
	tr->stats->tags_added++;
	return 0;
}

void b2b_transform_free(struct b2b_transform *tr)
{
	free(tr->reduced_of);
	tr->reduced_of = NULL;
}
