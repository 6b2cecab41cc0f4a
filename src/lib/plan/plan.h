/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The plan: every rule about set8 entries and kfuncs, applied once. It gives
 * each kfunc its state and actions (struct btf2btf_kfunc) and lists every
 * problem; the transform carries the actions out, the views print them.
 */
#ifndef BTF2BTF_PLAN_H
#define BTF2BTF_PLAN_H

#include "input/kfuncs.h"

struct b2b_plan {
	struct btf2btf_problem *problems;	/* name and message owned */
	size_t nr, cap;
	size_t nr_errors;
	bool refuse_open;	/* an error a non-lenient open reports (set8s disagree) */
	unsigned int features;	/* BTF2BTF_FEAT_*, never 0 */
};

struct b2b_plan_input {
	const struct b2b_btf *btf;		/* as read */
	const struct b2b_name_index *names;	/* of btf */
	const struct b2b_name_index *base_names;	/* NULL unless split */
	const struct b2b_tag_index *tags;
	const struct b2b_btf_ids *ids;
	unsigned int features;			/* 0: BTF2BTF_FEATS_DEFAULT */
	bool add_kfunc_tags;			/* and BTF2BTF_FEAT_KFUNC_TAGS */
	const struct b2b_log *log;		/* warnings logged, debug: the plan */
};

/* Classify every kfunc of k (state, planned, actions, ...) and collect the
 * problems into plan. 0 or -ENOMEM (logged). */
int b2b_plan_build(const struct b2b_plan_input *in, struct b2b_kfuncs *k, struct b2b_plan *plan);
void b2b_plan_free(struct b2b_plan *plan);
/* Log every problem of severity error; returns how many. */
size_t b2b_plan_log_errors(const struct b2b_plan *plan, const struct b2b_log *log);

/* Name of the i-th rule of the plan's table, NULL past its end (the tests
 * derive the rules they must reach from it). */
const char *b2b_plan_rule_name(size_t i);

/* "<name>_impl" into buf: 0, or -ENAMETOOLONG past KSYM_NAME_LEN. */
int b2b_impl_name(const char *name, char buf[BTF2BTF_KSYM_NAME_LEN]);
/* For "X_impl", X into buf: true; false when name has no _impl suffix. */
bool b2b_impl_owner_name(const char *name, char buf[BTF2BTF_KSYM_NAME_LEN]);

/* The type attribute 7.3's resolve_btfids puts on an arena pointer (a
 * TYPE_TAG with kind_flag set): the plan looks for it, the transform adds it. */
#define B2B_ARENA_ATTR	"address_space(1)"

/* Name of a KF_* flag bit, NULL for an unknown bit. */
const char *b2b_kf_flag_name(unsigned int bit);

/* Index of the first implicit parameter of a FUNC_PROTO, or -1. */
int b2b_first_implicit_arg(const struct b2b_btf *btf, __u32 proto_id);

#endif /* BTF2BTF_PLAN_H */
