// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The options ABI: callers built against shorter and longer btf2btf_opts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "helpers.h"

/*
 * Two pages, the second inaccessible: n bytes placed at the very end of the
 * first. A library that reads past the caller's sz faults here, under ASan
 * or not.
 */
struct guarded {
	void *map;
	size_t page;
	void *at;
};

static void *guard_place(struct guarded *g, const void *bytes, size_t n)
{
	g->page = (size_t)sysconf(_SC_PAGESIZE);
	g->map = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(g->map != MAP_FAILED);
	assert_int_equal(mprotect((char *)g->map + g->page, g->page, PROT_NONE), 0);
	g->at = (char *)g->map + g->page - n;
	memcpy(g->at, bytes, n);
	return g->at;
}

static void guard_free(struct guarded *g)
{
	munmap(g->map, 2 * g->page);
}

/* A caller of an older release: only sz, at the end of a page. */
static void test_short_opts(void **state)
{
	size_t sz = sizeof(size_t);
	struct guarded g;
	struct btf2btf *b = NULL;
	const struct btf2btf_opts *o = guard_place(&g, &sz, sizeof(sz));

	(void)state;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), o, &b), 0);
	assert_non_null(b);
	assert_int_equal(btf2btf__kfunc_cnt(b), 7);
	assert_int_equal(btf2btf__transform(b), 0);	/* the default features */
	assert_int_equal(btf2btf__stats(b)->transformed, 4);
	assert_int_equal(btf2btf__stats(b)->tags_added, 0);
	btf2btf__close(b);
	guard_free(&g);
}

/* A caller that knows fields up to btf_path only: base_path and the rest unread. */
static void test_opts_up_to_a_field(void **state)
{
	struct btf2btf_opts full = { 0 };
	size_t n = offsetof(struct btf2btf_opts, base_path);
	struct guarded g;
	struct btf2btf *b = NULL;
	const struct btf2btf_opts *o;

	(void)state;
	full.sz = n;
	full.btf_path = NULL;
	o = guard_place(&g, &full, n);
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), o, &b), 0);
	btf2btf__close(b);
	guard_free(&g);
}

/* sz smaller than sz itself, or 0: not an options struct. */
static void test_bad_sz(void **state)
{
	struct btf2btf_opts o = { 0 };
	struct btf2btf *b = (struct btf2btf *)&o;

	(void)state;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &o, &b), -EINVAL);
	assert_null(b);
	o.sz = sizeof(size_t) - 1;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &o, &b), -EINVAL);
	assert_int_equal(btf2btf__open_mem("x", 1, "x", &o, &b), -EINVAL);
}

/* A caller of a newer release: zero tail works, non-zero tail is refused. */
static void test_long_opts(void **state)
{
	struct {
		struct btf2btf_opts o;
		uint64_t future[4];
	} big;
	struct btf2btf *b = NULL;

	(void)state;
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.log = th_log_cb;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &big.o, &b), 0);
	btf2btf__close(b);
	big.future[3] = 1;
	b = NULL;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &big.o, &b), -EINVAL);
	assert_null(b);
	/* garbage in the tail padding of the struct we know is padding, not a
	 * field: compilers leave it (clang does, through BTF2BTF_OPTS too) */
	big.future[3] = 0;
	memset((char *)&big.o + offsetof(struct btf2btf_opts, base_btf) +
	       sizeof(big.o.base_btf), 0x5a,
	       sizeof(big.o) - offsetof(struct btf2btf_opts, base_btf) -
	       sizeof(big.o.base_btf));
	b = NULL;
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &big.o, &b), 0);
	btf2btf__close(b);
}

/* BTF2BTF_OPTS sets sz and the fields given, the others zero. */
static void test_opts_macro(void **state)
{
	BTF2BTF_OPTS(o, .features = BTF2BTF_FEAT_IMPLICIT_ARGS, .log = th_log_cb);
	struct btf2btf *b = NULL;

	(void)state;
	assert_int_equal(o.sz, sizeof(struct btf2btf_opts));
	assert_null(o.btf_path);
	assert_int_equal(btf2btf__open(th_fixture("basic.o"), &o, &b), 0);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__stats(b)->transformed, 4);
	btf2btf__close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_opts),
		cmocka_unit_test(test_opts_up_to_a_field),
		cmocka_unit_test(test_bad_sz),
		cmocka_unit_test(test_long_opts),
		cmocka_unit_test(test_opts_macro),
	};

	return cmocka_run_group_tests_name("abi", tests, NULL, NULL);
}
