// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The passes under failure: every allocation of the transform failed in
 * turn (the handle left as it was), malformed raw BTF refused.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builder.h"
#include "helpers.h"
#include "passes.h"

/* ---- allocation failures and malformed input ---- */

static void snapshot(struct btf2btf *b, void **raw, size_t *size, __u32 *ids)
{
	const void *r;

	assert_int_equal(btf2btf__raw_btf(b, &r, size), 0);
	*raw = malloc(*size);
	memcpy(*raw, r, *size);
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++)
		ids[i] = btf2btf__kfunc(b, i)->btf_id;
}

/* Fail each allocation of the passes in turn: -ENOMEM, and the handle's
 * BTF bytes, kfunc ids and base exactly as before; the same handle
 * transformed again gives what a clean run gives; then one run succeeds. */
static unsigned long fail_each_alloc(const char *obj, const struct btf2btf_opts *o)
{
	struct btf2btf *clean = th_open(obj, o);
	const void *want;
	unsigned long n;
	size_t want_size;
	bool done = false;

	assert_int_equal(btf2btf__transform(clean), 0);
	assert_int_equal(btf2btf__raw_btf(clean, &want, &want_size), 0);
	for (n = 1; !done && n < 10000; n++) {
		struct btf2btf *b = th_open(obj, o);
		__u32 ids[64], ids_after[64];
		void *before, *after;
		size_t sb, sa;
		int err;

		assert_true(btf2btf__kfunc_cnt(b) <= 64);
		snapshot(b, &before, &sb, ids);
		b2b_fault_nomem_calls = 0;
		b2b_fault_nomem_at = n;
		err = btf2btf__transform(b);
		b2b_fault_nomem_at = 0;
		if (b2b_fault_nomem_calls < n) {
			assert_int_equal(err, 0);	/* every allocation already failed once */
			assert_true(btf2btf__changed(b));
			done = true;
		} else {
			assert_int_equal(err, -ENOMEM);
			assert_false(btf2btf__changed(b));
			assert_int_equal(btf2btf__raw_base_btf(b, (const void **)&after, &sa), -ENOENT);
			snapshot(b, &after, &sa, ids_after);
			assert_int_equal(sa, sb);
			assert_memory_equal(after, before, sb);
			assert_memory_equal(ids_after, ids, btf2btf__kfunc_cnt(b) * sizeof(*ids));
			free(after);
			assert_int_equal(btf2btf__transform(b), 0);
			assert_int_equal(btf2btf__raw_btf(b, (const void **)&after, &sa), 0);
			assert_int_equal(sa, want_size);
			assert_memory_equal(after, want, sa);
		}
		free(before);
		btf2btf__close(b);
	}
	btf2btf__close(clean);
	assert_true(done);
	return n - 2;
}

static void test_alloc_failures(void **state)
{
	const char *base = th_copy_fixture("split.o", "base.o");
	const char *mod = th_copy_fixture("split.o.ko", "mod.ko");
	const char *obj = th_copy_fixture("kfuncs.gcc.o", "obj.o");
	const char *tagged = th_copy_fixture("basic.o", "tagged.o");
	BTF2BTF_OPTS(split, .base_path = base, .distill_base = true, .features = ALL_POST);
	BTF2BTF_OPTS(plain, .features = ALL_POST);
	unsigned long full, hash, tags;

	(void)state;
	/* the split fixture repeats base types: btf__dedup() path, distill, sort */
	full = fail_each_alloc(mod, &split);
	/* a pahole-made object: the hash path of dedup, sort */
	hash = fail_each_alloc(obj, &plain);
	/* decl tags the transform moves to _impl: the tag index is needed again */
	tags = fail_each_alloc(tagged, &plain);
	print_message("post-passes: %lu + %lu + %lu allocations failed one at a time\n", full,
		      hash, tags);
	assert_true(full > 10 && hash > 5 && tags > 5);
	th_cleanup();
}

static void test_malformed_raw(void **state)
{
	struct btf *btf = unsorted_btf();
	struct b2b_pass_out o;
	size_t size;
	const char *raw = pt_raw_of(btf, &size);
	char *bad = malloc(size);
	struct b2b_btf_hdr *h = (struct b2b_btf_hdr *)bad;
	void *bo;
	size_t bs;

	(void)state;
	/* cut inside the type section, unknown kind, strings not terminated, bad magic */
	for (int c = 0; c < 4; c++) {
		memcpy(bad, raw, size);
		switch (c) {
		case 0: h->type_len -= 2; h->str_off -= 2; break;
		case 1: ((struct btf_type *)(bad + h->hdr_len))->info = 31U << 24; break;
		case 2: bad[size - 1] = 'x'; break;
		case 3: h->magic = 0; break;
		}
		assert_int_equal(b2b_sort_by_name(bad, size, NULL, &o), -EINVAL);
		assert_int_equal(dedup_fast(bad, size, NULL, 2, &o, NULL), -EINVAL);
		assert_int_equal(ON_MODEL(btf, b2b_distill_base(bad, size, m, &bo, &bs, &o)), -EINVAL);
	}
	assert_int_equal(b2b_sort_by_name(raw, 10, NULL, &o), -EINVAL);
	free(bad);
	btf__free(btf);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_malformed_raw),
	};

	return cmocka_run_group_tests_name("test_passes_faults", tests, NULL, NULL);
}
