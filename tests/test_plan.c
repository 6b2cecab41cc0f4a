// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The plan: one answer from every view; a transform that commits or leaves
 * the handle as it was (every fault-injection point); the --features rules.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builder.h"
#include "input/btf_check.h"
#include "format/btf_raw.h"
#include "api/handle.h"
#include "helpers.h"
#include "util/internal.h"
#include "recipes.h"

#define IMP (1U << 16)

/* bpf_x(int a) flagged KF_IMPLICIT_ARGS next to bpf_x_impl(long a, struct bpf_prog_aux *) */
static const char *make_mismatch(void)
{
	static const struct fx_entry kf[] = { { "bpf_x", IMP } };
	struct fx_set8 sets[] = { { "x_ids", 1, kf, 1 } };
	struct fx_obj o = { .sets = sets, .nr_sets = 1 };
	const char *path = th_path("mismatch.o");
	struct fx_btf b;

	assert_int_equal(fx_btf_init(&b, NULL), 0);
	assert_true(fx_add_func(&b, "bpf_x", b.t_int, (int[]){ b.t_int }, 1) > 0);
	assert_true(fx_add_func(&b, "bpf_x_impl", b.t_int, (int[]){ b.t_long, b.t_aux_ptr }, 2) > 0);
	assert_int_equal(fx_write_elf_btf(path, &o, b.btf), 0);
	btf__free(b.btf);
	return path;
}

static char *jq1(const char *json, const char *filter)
{
	struct run r;
	char *out;

	th_sh(&r, "printf '%%s' '%s' | jq -r '%s'", json, filter);
	assert_int_equal(r.status, 0);
	out = strdup(r.out);
	th_run_free(&r);
	return out;
}

/* --kfuncs -j, --kfuncs -T, --check and -n: one verdict (legacy, one warning). */
static void test_one_answer(void **state)
{
	const char *obj = make_mismatch();
	struct btf2btf *b;
	struct run r;
	char *s;

	(void)state;
	th_require_tool("jq");
	b = th_open(obj, NULL);
	assert_int_equal(btf2btf__problem_cnt(b), 1);
	assert_string_equal(btf2btf__problem(b, 0)->rule, "impl-proto-mismatch");
	assert_int_equal(btf2btf__problem(b, 0)->severity, BTF2BTF_SEV_WARNING);
	assert_string_equal(btf2btf__problem(b, 0)->name, "bpf_x");
	assert_int_equal(btf2btf__kfunc(b, 0)->planned, BTF2BTF_KFUNC_LEGACY);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__kfunc(b, 0)->state, BTF2BTF_KFUNC_LEGACY);
	assert_int_equal(btf2btf__problem_cnt(b), 1);
	btf2btf__close(b);

	th_run(&r, (const char *[]){ "btf2btf", "--kfuncs", "-j", obj, NULL });
	assert_int_equal(r.status, 0);
	s = jq1(r.out, ".kfuncs[0] | \"\\(.name) \\(.state) \\(.planned) \\(.problems) \\(.impl_legacy)\"");
	assert_string_equal(s, "bpf_x pending legacy 1 true\n");
	free(s);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--kfuncs", "-T", "-j", obj, NULL });
	assert_int_equal(r.status, 0);
	s = jq1(r.out, ".kfuncs[0] | \"\\(.name) \\(.state) \\(.planned)\"");
	assert_string_equal(s, "bpf_x legacy legacy\n");
	free(s);
	th_run_free(&r);
	/* a warning: --check fails on it only with --werror */
	th_run(&r, (const char *[]){ "btf2btf", "--check", "--werror", obj, NULL });
	assert_int_equal(r.status, 1);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--check", obj, NULL });
	assert_int_equal(r.status, 0);
	assert_int_equal(th_count_lines(r.out), 1);
	assert_non_null(strstr(r.out, ": warning: impl-proto-mismatch: kfunc bpf_x and its legacy bpf_x_impl"));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-n", obj, NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "1 transformed (1 legacy), 0 _impl added"));
	assert_non_null(strstr(r.err, "warning: "));
	assert_non_null(strstr(r.err, "bpf_x and its legacy bpf_x_impl differ"));
	th_run_free(&r);
	th_cleanup();
}

struct snap {
	struct btf2btf_stats stats;
	struct btf2btf_kfunc k[16];
	size_t nk, np;
	void *raw;
	size_t size;
	bool changed;
};

static void take(struct btf2btf *b, struct snap *s)
{
	const void *raw;

	s->stats = *btf2btf__stats(b);
	s->nk = btf2btf__kfunc_cnt(b);
	assert_true(s->nk <= 16);
	for (size_t i = 0; i < s->nk; i++)
		s->k[i] = *btf2btf__kfunc(b, i);
	s->np = btf2btf__problem_cnt(b);
	s->changed = btf2btf__changed(b);
	assert_int_equal(btf2btf__raw_btf(b, &raw, &s->size), 0);
	s->raw = malloc(s->size);
	assert_non_null(s->raw);
	memcpy(s->raw, raw, s->size);
}

/* a and b taken from one handle (names compared), or two (want: not) */
static void same(const struct snap *a, const struct snap *b, bool names)
{
	assert_memory_equal(&a->stats, &b->stats, sizeof(a->stats));
	assert_int_equal(a->nk, b->nk);
	for (size_t i = 0; i < a->nk; i++) {
		const struct btf2btf_kfunc *x = &a->k[i], *y = &b->k[i];

		if (names)
			assert_string_equal(x->name, y->name);
		assert_int_equal(x->btf_id, y->btf_id);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->impl_id, y->impl_id);
		assert_int_equal(x->orig_proto_id, y->orig_proto_id);
		assert_int_equal(x->planned, y->planned);
		assert_int_equal(x->actions, y->actions);
		assert_int_equal(x->problems, y->problems);
	}
	assert_int_equal(a->np, b->np);
	assert_int_equal(a->changed, b->changed);
	assert_int_equal(a->size, b->size);
	assert_memory_equal(a->raw, b->raw, a->size);
}

/* ENOMEM at every allocation of the transform: the handle is as before, a retry gives the result. */
static void fault_loop(const char *obj, unsigned int features)
{
	BTF2BTF_OPTS(o, .log = th_log_cb, .features = features);
	struct snap want, before, after;
	struct btf2btf *b = th_open(obj, &o);
	unsigned long n, points = 0;

	assert_int_equal(btf2btf__transform(b), 0);
	take(b, &want);
	btf2btf__close(b);
	for (n = 1;; n++) {
		int err;

		b = th_open(obj, &o);
		take(b, &before);
		b2b_fault_nomem_calls = 0;
		b2b_fault_nomem_at = n;
		err = btf2btf__transform(b);
		b2b_fault_nomem_at = 0;
		if (!err) {
			assert_true(b2b_fault_nomem_calls < n);	/* past the last point */
			btf2btf__close(b);
			free(before.raw);
			break;
		}
		points++;
		assert_int_equal(err, -ENOMEM);
		take(b, &after);
		same(&before, &after, true);
		assert_int_equal(btf2btf__transform(b), 0);
		free(after.raw);
		take(b, &after);
		same(&want, &after, false);
		free(after.raw);
		free(before.raw);
		btf2btf__close(b);
	}
	printf("fault_loop: %s: %lu allocation points, each left the handle unchanged\n", obj,
	       points);
	assert_true(points >= 5);
	free(want.raw);
}

/* p lies in btf's own strings */
static bool in_strings(const struct b2b_btf *btf, const char *p)
{
	return p >= btf->strs && p < btf->strs + btf->hdr.str_len;
}

/*
 * The transform leaves one BTF in the handle, whatever passes made it
 * (default features: the edit's layout; all: dedup and sort over it): the
 * bytes they gave, the BTF read freed, no libbpf view made; a raw write
 * gives the bytes raw_btf() returns and makes none either; the accessor
 * then makes libbpf's view of them, once. The kfuncs' and set8 entries' names
 * are the handle's own, not the BTF's strings, so they stay where they
 * were when the result replaces the BTF read.
 */
static void one_result(const char *obj, unsigned int features)
{
	BTF2BTF_OPTS(o, .features = features);
	const char *out = th_path(features ? "w-features.btf" : "w.btf");
	struct btf2btf *b = th_open(obj, &o);
	const struct btf2btf_kfunc *k = btf2btf__kfunc(b, 0);
	const struct btf2btf_set8_entry *e = btf2btf__set8_entry(b, 0);
	const struct b2b_btf *read = &b->res.btf;
	size_t file_size;
	__u32 view_size;
	const void *view;
	const char *kptr, *eptr;
	void *file;
	char *kname, *ename;

	assert_non_null(k);
	assert_non_null(e);
	kname = strdup(k->name);
	ename = strdup(e->name);
	kptr = k->name;
	eptr = e->name;
	for (size_t i = 0; i < b->kfuncs.nr; i++)
		assert_false(in_strings(read, b->kfuncs.items[i].name));
	assert_false(in_strings(read, e->name));
	assert_null(b->res.btf.lib);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_true(btf2btf__changed(b));
	assert_null(b->res.btf.lib);
	assert_non_null(b->res.btf.owned);
	assert_ptr_equal(b->res.btf.data, b->res.btf.owned);
	assert_int_equal(btf2btf__write_raw(b, out), 0);
	th_assert_raw_written(b, out, NULL);
	assert_null(b->res.btf.lib);
	assert_non_null(btf2btf__btf(b));
	assert_ptr_equal(btf2btf__btf(b), b->res.btf.lib);
	for (size_t i = 0; i < b->kfuncs.nr; i++)
		assert_false(in_strings(&b->res.btf, b->kfuncs.items[i].name));
	/* the same kfunc and entry, their names unmoved */
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++)
		if (btf2btf__kfunc(b, i)->name == kptr)
			k = btf2btf__kfunc(b, i);
	assert_ptr_equal(k->name, kptr);
	assert_string_equal(k->name, kname);
	assert_ptr_equal(e->name, eptr);
	assert_string_equal(e->name, ename);
	/* the view is of the bytes written (native 24-byte form: a fixture) */
	view = btf__raw_data(btf2btf__btf(b), &view_size);
	file = th_read(out, &file_size);
	assert_int_equal(file_size, view_size);
	assert_memory_equal(file, view, view_size);
	free(file);
	free(kname);
	free(ename);
	btf2btf__close(b);
}

static void test_one_result_held(void **state)
{
	const char *synth = th_path("synth.o");

	(void)state;
	/* basic.o goes through btf__dedup(); the synthetic object takes the
	 * hash path, and the sort over it */
	assert_int_equal(fx_write_synthetic(synth, 40, 2, 3, 20), 0);
	one_result(th_fixture("basic.o"), 0);
	one_result(synth, BTF2BTF_FEATS_ALL);
	th_cleanup();
}

static void test_transactional(void **state)
{
	const char *zoo = th_path("fz.o");

	(void)state;
	fault_loop(th_fixture("basic.o"), 0);
	fault_loop(th_fixture("basic.o"), BTF2BTF_FEATS_ALL);
	assert_int_equal(fx_make_named("features-zoo", zoo), 0);
	fault_loop(zoo, BTF2BTF_FEATS_ALL);
	th_cleanup();
}

static int tags_named(const struct btf *btf, __u32 target, const char *value)
{
	int n = 0;

	for (__u32 id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_decl_tag(t) && t->type == target &&
		    !strcmp(btf__name_by_offset(btf, t->name_off), value))
			n++;
	}
	return n;
}

/* address_space(1) TYPE_TAG with kind_flag between a PTR and its target? */
static bool is_arena_ptr(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id), *tag;

	if (!btf_is_ptr(t))
		return false;
	tag = btf__type_by_id(btf, t->type);
	return btf_is_type_tag(tag) && btf_kflag(tag) &&
	       !strcmp(btf__name_by_offset(btf, tag->name_off), "address_space(1)");
}

/* The kfunc table is the library's own: asking for it allocates nothing.
 * The set8 entries' view is made on first use: without memory for it, NULL
 * and ENOMEM, and the next call makes it. */
static void test_views_without_memory(void **state)
{
	struct btf2btf *b = th_open(th_fixture("kfuncs.gcc.o"), NULL);
	const struct btf2btf_set8_entry *e;
	const struct btf2btf_kfunc *k;

	(void)state;
	assert_true(btf2btf__kfunc_cnt(b) > 0);
	assert_true(btf2btf__set8_entry_cnt(b) > 0);
	b2b_fault_nomem_calls = 0;
	b2b_fault_nomem_at = 1;
	k = btf2btf__kfunc(b, 0);
	b2b_fault_nomem_at = 0;
	assert_non_null(k);
	assert_int_equal(b2b_fault_nomem_calls, 0);
	b2b_fault_nomem_calls = 0;
	b2b_fault_nomem_at = 1;
	errno = 0;
	e = btf2btf__set8_entry(b, 0);
	b2b_fault_nomem_at = 0;
	assert_null(e);
	assert_int_equal(errno, ENOMEM);
	k = btf2btf__kfunc(b, 0);
	e = btf2btf__set8_entry(b, 0);
	assert_non_null(k);
	assert_non_null(e);
	assert_ptr_equal(btf2btf__kfunc(b, 0), k);
	assert_ptr_equal(btf2btf__set8_entry(b, 0), e);
	errno = 0;
	assert_null(btf2btf__kfunc(NULL, 0));
	assert_int_equal(errno, EINVAL);
	btf2btf__close(b);
}

static void test_features(void **state)
{
	const char *zoo = th_path("fz.o");
	const struct btf_type *f, *p;
	BTF2BTF_OPTS(o, .log = th_log_cb);
	const struct btf *btf;
	struct btf2btf *b;

	(void)state;
	assert_int_equal(fx_make_named("features-zoo", zoo), 0);
	/* the default: none of the 7.3 additions (6.12 refuses kind_flag tags) */
	b = th_open(zoo, &o);
	assert_int_equal(btf2btf__features(b), BTF2BTF_FEATS_DEFAULT);
	assert_int_equal(btf2btf__transform(b), 0);
	btf = btf2btf__btf(b);
	assert_int_equal(tags_named(btf, th_find(btf, "bpf_fc", BTF_KIND_FUNC), "bpf_fastcall"), 0);
	assert_int_equal(btf2btf__stats(b)->arena_protos, 0);
	btf2btf__close(b);

	o.features = BTF2BTF_FEATS_ALL;
	b = th_open(zoo, &o);
	assert_int_equal(btf2btf__problem_cnt(b), 0);
	assert_int_equal(btf2btf__transform(b), 0);
	btf = btf2btf__btf(b);
	/* fastcall_tags: the kfunc and its new _impl; not the kfunc without KF_FASTCALL */
	assert_int_equal(tags_named(btf, th_find(btf, "bpf_fc", BTF_KIND_FUNC), "bpf_fastcall"), 1);
	assert_int_equal(tags_named(btf, th_find(btf, "bpf_fc_impl", BTF_KIND_FUNC), "bpf_fastcall"), 1);
	assert_int_equal(tags_named(btf, th_find(btf, "bpf_fc_miss", BTF_KIND_FUNC), "bpf_fastcall"), 0);
	/* kfunc_tags: every kfunc, the _impl not */
	assert_int_equal(tags_named(btf, th_find(btf, "bpf_fc_miss", BTF_KIND_FUNC), "bpf_kfunc"), 1);
	assert_int_equal(tags_named(btf, th_find(btf, "bpf_fc_impl", BTF_KIND_FUNC), "bpf_kfunc"), 0);
	/* arena_attrs: KF_ARENA_RET + KF_ARENA_ARG1; a0 yes, a1 (int) no */
	f = btf__type_by_id(btf, th_find(btf, "bpf_ar", BTF_KIND_FUNC));
	p = btf__type_by_id(btf, f->type);
	assert_true(is_arena_ptr(btf, p->type));
	assert_true(is_arena_ptr(btf, btf_params(p)[0].type));
	assert_false(is_arena_ptr(btf, btf_params(p)[1].type));
	/* by name: p__arena yes, q_arena no */
	f = btf__type_by_id(btf, th_find(btf, "bpf_ar_name", BTF_KIND_FUNC));
	p = btf__type_by_id(btf, f->type);
	assert_true(is_arena_ptr(btf, btf_params(p)[0].type));
	assert_false(is_arena_ptr(btf, btf_params(p)[1].type));
	f = btf__type_by_id(btf, th_find(btf, "bpf_ar_miss", BTF_KIND_FUNC));
	p = btf__type_by_id(btf, f->type);
	assert_false(is_arena_ptr(btf, p->type));
	assert_int_equal(btf2btf__stats(b)->arena_protos, 2);
	assert_int_equal(btf2btf__stats(b)->fastcall_added, 2);
	btf2btf__close(b);
	th_cleanup();
}

/* KF_ARENA_ARG2 on an int: an error of the plan, only with arena_attrs. */
static void test_arena_not_pointer(void **state)
{
	static const struct fx_entry kf[] = { { "bpf_bad", 1U << 15 } };
	struct fx_set8 sets[] = { { "a_ids", 1, kf, 1 } };
	struct fx_obj obj = { .sets = sets, .nr_sets = 1 };
	BTF2BTF_OPTS(o, .log = th_log_cb);
	const char *path = th_path("bad.o");
	struct btf2btf *b;
	struct fx_btf fb;
	struct run r;

	(void)state;
	assert_int_equal(fx_btf_init(&fb, NULL), 0);
	assert_true(fx_add_func(&fb, "bpf_bad", fb.t_int, (int[]){ fb.t_voidp, fb.t_int }, 2) > 0);
	assert_int_equal(fx_write_elf_btf(path, &obj, fb.btf), 0);
	btf__free(fb.btf);
	b = th_open(path, &o);
	assert_int_equal(btf2btf__problem_cnt(b), 0);
	btf2btf__close(b);
	o.features = BTF2BTF_FEATS_ALL;
	b = th_open(path, &o);
	assert_int_equal(btf2btf__problem_cnt(b), 1);
	assert_string_equal(btf2btf__problem(b, 0)->rule, "arena-not-pointer");
	assert_int_equal(btf2btf__problem(b, 0)->severity, BTF2BTF_SEV_ERROR);
	th_log_reset();
	assert_int_equal(btf2btf__transform(b), -EINVAL);
	btf2btf__close(b);
	/* the CLI's views follow --features too */
	th_run(&r, (const char *[]){ "btf2btf", "--check", path, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--check", "--features=arena_attrs", path, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, ": arena-not-pointer: kfunc bpf_bad: parameter 2"));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-n", "--features=all", path, NULL });
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "error: "));
	th_run_free(&r);
	th_cleanup();
}

/* --features: names, default, all, help; unknown: exit 2 listing the names. */
static void test_features_cli(void **state)
{
	const char *obj = th_copy_fixture("basic.o", "b.o");
	struct run r;

	(void)state;
	th_run(&r, (const char *[]){ "btf2btf", "--features=nosuch", obj, NULL });
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "unknown feature 'nosuch'"));
	assert_non_null(strstr(r.err, "arena_attrs"));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "--features=help", NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "fastcall_tags"));
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-n", "--features=default,kfunc_tags", obj, NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "bpf_kfunc tags added"));
	th_run_free(&r);
	th_cleanup();
}

/* -vv: the plan, one debug line per kfunc. */
static void test_vv_plan(void **state)
{
	struct run r;

	(void)state;
	th_run(&r, (const char *[]){ "btf2btf", "-n", "-vv", th_fixture("basic.o"), NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "debug: "));
	assert_non_null(strstr(r.err, "plan: kfunc bpf_kfunc_implicit_arg ["));
	assert_non_null(strstr(r.err, "pending -> transformed: add _impl, reduce proto to 1 params"));
	th_run_free(&r);
}

/*
 * Every action has its name in --kfuncs -j and in -vv's plan lines: the
 * every-feature fixture with all features plans each action at least once
 * (a legacy _impl taking the moved tags among them).
 */
static void test_actions_named(void **state)
{
	const char *obj = th_path("ev.o");
	struct run r;
	char *s;

	(void)state;
	assert_int_equal(fx_make_every_feature(obj, NULL, NULL), 0);
	th_run(&r, (const char *[]){ "btf2btf", "--kfuncs", "-j", "--features=all", obj, NULL });
	assert_int_equal(r.status, 0);
	s = jq1(r.out, ".kfuncs[] | \"\\(.name) \\(.actions | join(\",\"))\"");
	assert_string_equal(s,
		"bpf_ev_implicit add_impl,reduce_proto,move_param_tags,add_kfunc_tag\n"
		"bpf_ev_legacy use_legacy_impl,reduce_proto,move_param_tags,add_kfunc_tag\n"
		"bpf_ev_legacy_impl add_kfunc_tag\n"
		"bpf_ev_fastcall add_kfunc_tag,add_fastcall_tag\n"
		"bpf_ev_arena add_kfunc_tag,arena_ret,arena_args\n"
		"bpf_ev_plain add_kfunc_tag\n");
	free(s);
	th_run_free(&r);
	th_run(&r, (const char *[]){ "btf2btf", "-n", "-vv", "--features=all", obj, NULL });
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "]: pending -> transformed: add _impl, reduce proto to 1 "
				      "params, move dropped params' tags, add bpf_kfunc tag\n"));
	assert_non_null(strstr(r.err, "]: pending -> legacy: use legacy _impl, reduce proto to 1 "
				      "params, move dropped params' tags, add bpf_kfunc tag\n"));
	assert_non_null(strstr(r.err, "]: plain -> plain: add bpf_kfunc tag, add bpf_fastcall tag\n"));
	assert_non_null(strstr(r.err, "]: plain -> plain: add bpf_kfunc tag, arena return, "
				      "arena args 0x1\n"));
	th_run_free(&r);
	th_cleanup();
}

/* Rules the plan reports on the object at path (every feature, lenient) into
 * reached[], indexed as the plan's table; --check -j reports the same. */
static void collect_rules(const char *path, const char *base, bool *reached, size_t nr)
{
	BTF2BTF_OPTS(o, .log = th_log_cb, .features = BTF2BTF_FEATS_ALL, .lenient = true,
		     .base_path = base);
	struct btf2btf *b = th_open(path, &o);
	char lib[4096];
	size_t len = 0;
	struct run r;

	lib[0] = 0;
	for (size_t i = 0; i < btf2btf__problem_cnt(b); i++) {
		const char *rule = btf2btf__problem(b, i)->rule;

		len += snprintf(lib + len, sizeof(lib) - len, "%s\n", rule);
		assert_true(len < sizeof(lib));
		for (size_t k = 0; k < nr; k++)
			if (!strcmp(rule, b2b_plan_rule_name(k)))
				reached[k] = true;
	}
	btf2btf__close(b);
	th_sh(&r, "%s --check -j --features=all %s %s %s | jq -r '.problems[].rule'", th_cli(),
	      base ? "--btf-base" : "", base ? base : "", path);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, lib);
	th_run_free(&r);
}

/*
 * Every rule of the plan's table (the list comes from the table itself) is
 * reached, in the library and in --check, by an input here: the lint zoo,
 * the malformed recipes, a module naming a FUNC of its base in its set8,
 * an arena flag on an int.
 */
static void test_every_rule_reached(void **state)
{
	static const char *const recipes[] = { "bad-resolved-id-range", "bad-name-too-long" };
	static const struct fx_entry arena_kf[] = { { "bpf_bad", 1U << 15 } };
	static const struct fx_entry mod_kf[] = { { "bpf_base_plain", 0 } };
	struct fx_set8 arena_set = { "a_ids", 1, arena_kf, 1 };
	struct fx_set8 mod_set = { "m_ids", 1, mod_kf, 1 };
	struct fx_obj arena_obj = { .sets = &arena_set, .nr_sets = 1 };
	struct fx_obj mod_obj = { .sets = &mod_set, .nr_sets = 1 };
	const char *base = th_path("base.o"), *mod = th_path("mod.ko"), *path = th_path("x.o");
	struct fx_btf fb, fm;
	bool reached[64] = { 0 };
	size_t nr = 0;

	(void)state;
	while (b2b_plan_rule_name(nr))
		nr++;
	assert_true(nr > 0 && nr <= 64);
	assert_int_equal(fx_make_lint_zoo(path), 0);
	collect_rules(path, NULL, reached, nr);
	for (size_t i = 0; i < sizeof(recipes) / sizeof(recipes[0]); i++) {
		assert_int_equal(fx_make_malformed(recipes[i], path), 0);
		collect_rules(path, NULL, reached, nr);
	}
	assert_int_equal(fx_btf_init(&fb, NULL), 0);
	assert_true(fx_add_func(&fb, "bpf_bad", fb.t_int, (int[]){ fb.t_voidp, fb.t_int }, 2) > 0);
	assert_int_equal(fx_write_elf_btf(path, &arena_obj, fb.btf), 0);
	btf__free(fb.btf);
	collect_rules(path, NULL, reached, nr);
	/* a module whose set8 names bpf_base_plain, a FUNC of its vmlinux */
	assert_int_equal(fx_btf_init(&fb, NULL), 0);
	assert_true(fx_add_func(&fb, "bpf_base_plain", fb.t_int, (int[]){ fb.t_int }, 1) > 0);
	assert_int_equal(fx_write_elf_btf(base, &(struct fx_obj){ 0 }, fb.btf), 0);
	assert_int_equal(fx_btf_init(&fm, fb.btf), 0);
	assert_true(fx_add_func(&fm, "bpf_mod_plain", fm.t_int, (int[]){ fm.t_int }, 1) > 0);
	assert_int_equal(fx_write_elf_btf(mod, &mod_obj, fm.btf), 0);
	btf__free(fm.btf);
	btf__free(fb.btf);
	collect_rules(mod, base, reached, nr);
	for (size_t r = 0; r < nr; r++)
		if (!reached[r])
			fail_msg("rule %s of the plan's table is reached by no input of this test",
				 b2b_plan_rule_name(r));
	th_cleanup();
}

/*
 * Whether a kfunc's _impl is a kfunc itself (legacy: programs may call it)
 * or the prototype the transform adds: the plan says, from a set8 where
 * there is one, else from a bpf_kfunc tag of the _impl's own, and no state
 * can (after the transform both are already transformed).
 */
static void test_impl_is_kfunc(void **state)
{
	static const struct fx_entry kf[] = { { "bpf_x", IMP }, { "bpf_x_impl", 0 },
					      { "bpf_y", IMP } };
	struct fx_set8 sets[] = { { "x_ids", 1, kf, 3 } };
	struct fx_obj o = { .sets = sets, .nr_sets = 1 };
	const char *elf = th_path("set8.o"), *raw = th_path("raw.btf");
	struct btf2btf *b;
	struct fx_btf fb;
	void *data;
	size_t size;
	int x, xi, y, yi;

	(void)state;
	assert_int_equal(fx_btf_init(&fb, NULL), 0);
	assert_true(fx_add_func(&fb, "bpf_x", fb.t_int, (int[]){ fb.t_int, fb.t_aux_ptr }, 2) > 0);
	assert_true(fx_add_func(&fb, "bpf_x_impl", fb.t_int, (int[]){ fb.t_int, fb.t_aux_ptr }, 2) > 0);
	assert_true(fx_add_func(&fb, "bpf_y", fb.t_int, (int[]){ fb.t_int, fb.t_aux_ptr }, 2) > 0);
	assert_int_equal(fx_write_elf_btf(elf, &o, fb.btf), 0);
	btf__free(fb.btf);

	b = th_open(elf, NULL);
	assert_true(th_kfunc(b, "bpf_x")->impl_is_kfunc);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(th_kfunc(b, "bpf_x")->state, BTF2BTF_KFUNC_LEGACY);
	assert_true(th_kfunc(b, "bpf_x")->impl_is_kfunc);
	assert_int_equal(th_kfunc(b, "bpf_y")->state, BTF2BTF_KFUNC_TRANSFORMED);
	assert_false(th_kfunc(b, "bpf_y")->impl_is_kfunc);
	btf2btf__close(b);

	/* no set8 (raw BTF of a transformed kernel): bpf_x_impl has a
	 * bpf_kfunc tag of its own, bpf_y_impl, as the transform adds it, not */
	assert_int_equal(fx_btf_init(&fb, NULL), 0);
	x = fx_add_func(&fb, "bpf_x", fb.t_int, (int[]){ fb.t_int }, 1);
	xi = fx_add_func(&fb, "bpf_x_impl", fb.t_int, (int[]){ fb.t_int, fb.t_aux_ptr }, 2);
	y = fx_add_func(&fb, "bpf_y", fb.t_int, (int[]){ fb.t_int }, 1);
	yi = fx_add_func(&fb, "bpf_y_impl", fb.t_int, (int[]){ fb.t_int, fb.t_aux_ptr }, 2);
	assert_true(x > 0 && xi > 0 && y > 0 && yi > 0);
	assert_true(btf__add_decl_tag(fb.btf, "bpf_kfunc", x, -1) > 0);
	assert_true(btf__add_decl_tag(fb.btf, "bpf_kfunc", xi, -1) > 0);
	assert_true(btf__add_decl_tag(fb.btf, "bpf_kfunc", y, -1) > 0);
	data = fx_btf_raw(fb.btf, &size);
	assert_non_null(data);
	assert_int_equal(fx_write_file(raw, data, size), 0);
	free(data);
	btf__free(fb.btf);

	b = th_open(raw, NULL);
	assert_int_equal(th_kfunc(b, "bpf_x")->state, BTF2BTF_KFUNC_ALREADY);
	assert_int_equal(th_kfunc(b, "bpf_y")->state, BTF2BTF_KFUNC_ALREADY);
	assert_true(th_kfunc(b, "bpf_x")->impl_is_kfunc);
	assert_false(th_kfunc(b, "bpf_y")->impl_is_kfunc);
	/* _impl itself: a kfunc, but of none an _impl */
	assert_false(th_kfunc(b, "bpf_x_impl")->impl_is_kfunc);
	btf2btf__close(b);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_answer),
		cmocka_unit_test(test_impl_is_kfunc),
		cmocka_unit_test(test_transactional),
		cmocka_unit_test(test_one_result_held),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_views_without_memory),
		cmocka_unit_test(test_arena_not_pointer),
		cmocka_unit_test(test_features_cli),
		cmocka_unit_test(test_vv_plan),
		cmocka_unit_test(test_actions_named),
		cmocka_unit_test(test_every_rule_reached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
