/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the view tests share (tests/test_view_*.c, test_api_accessors.c):
 * running the CLI, jq over its JSON, objects made from a small description
 * (struct tobj), and the lint cases: a case that triggers each rule and a
 * near miss that does not, also the views' inputs.
 */
#ifndef BTF2BTF_TESTS_VIEWS_H
#define BTF2BTF_TESTS_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "builder.h"
#include "helpers.h"

#define KF_ACQUIRE	(1U << 0)
#define KF_RET_NULL	(1U << 2)
#define KF_SLEEPABLE	(1U << 5)
#define IMP		BTF2BTF_KF_IMPLICIT_ARGS
#define KFS		BTF2BTF_SET8_KFUNCS

enum { T_VOID = 0, T_INT = 1, T_LONG, T_VOIDP, T_AUX, T_AUX_TD, T_CONST_AUX,
       T_META };	/* struct btf_struct_meta *: added to an object that uses it */

struct tfn {
	const char *name;
	int ret;
	int p[4];
	int nr;
	bool tag;		/* "bpf_kfunc" decl tag */
	int named;		/* 1 + the index of the parameter called pname */
	const char *pname;	/* (the others are a<index>) */
};

struct tset {
	const char *name;
	uint32_t flags;
	struct fx_entry e[4];
	size_t nr;
};

struct tobj {
	struct tfn f[6];
	struct tset s[3];
	const char *struct_name;	/* a STRUCT of that name */
	bool resolved;
};

#define FIXED 2

struct lcase {
	const char *test;	/* cmocka test name */
	const char *rule;	/* NULL: must lint clean */
	const char *name;	/* function the problem names */
	int transform_fails;	/* true: the transform refuses the object; FIXED: it
				 * does it and the object then lints clean */
	struct tobj o;
};

#define F(n, r, ...) { n, r, { __VA_ARGS__ }, sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), false }
#define FT(n, r, ...) { n, r, { __VA_ARGS__ }, sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), true }
#define E(n, fl) { n, fl }
#define S(n, fl, ...) { n, fl, { __VA_ARGS__ }, sizeof((struct fx_entry[]){ __VA_ARGS__ }) / sizeof(struct fx_entry) }

/* the lint cases (lint_cases[0]: set8-no-func, [6]: set8-conflict) */
extern const struct lcase lint_cases[];
extern const size_t nr_lint_cases;

char *vt_strdup(const char *s);
char *vt_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
/* the test CLI on argv; fails the test unless it exits want_status */
void vt_run_cli(struct run *r, int want_status, const char *const *argv);
/* jq -r FILTER over json; returns jq's stdout (malloc'd) */
char *vt_jq(const char *json, const char *filter);
/* exactly one JSON document, an object */
void vt_assert_one_object(const char *json);
/* s split into lines, a line into its tab-separated fields (in place) */
size_t vt_split_lines(char *s, char **lines, size_t max);
size_t vt_split_tabs(char *s, char **f, size_t max);
/* a row of the --kfuncs table */
struct krow {
	char *col[8];		/* ID NAME FOUND SETS FLAGS STATE IMPL PROTOTYPE */
	char *bpf;		/* from "  [BPF: ...]", or the prototype */
};

/* the --kfuncs table (out, changed in place) parsed into rows[max]; returns
 * their number; vt_free_rows() frees what they hold */
size_t vt_parse_kfuncs(char *out, struct krow *rows, size_t max);
void vt_free_rows(struct krow *rows, size_t n);
/* o written as an object in the temp dir; returns its path (malloc'd) */
char *vt_make_obj(const char *file, const struct tobj *o);
#endif /* BTF2BTF_TESTS_VIEWS_H */
