// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fixtures/random.c's modes: the differential's random objects keep FUNCs
 * with unnamed parameters and kind_flag decl tags (inputs the tools must
 * carry through although the kernel refuses them); the kernel-valid ones the
 * guests' BPF_BTF_LOAD judges have neither (kind_flag tags only with
 * FX_RANDOM_TAG_KFLAG, for 7.3).
 */
#include <bpf/btf.h>
#include <stdio.h>

#include "helpers.h"
#include "random.h"

#define SEEDS 120

struct drawn {
	unsigned int funcs, unnamed, kflag_tags;
};

/* what the BTF an object of SEED written with OPTS holds */
static void count(uint64_t seed, unsigned int opts, struct drawn *d, enum fx_random_kind *kind)
{
	struct btf *base = NULL, *btf;
	char name[32];
	__u32 first;

	snprintf(name, sizeof(name), "r%llx", (unsigned long long)seed);
	assert_int_equal(fx_write_random(th_tmpdir(), name, seed, opts, kind), 0);
	if (*kind != FX_RANDOM_VMLINUX) {
		snprintf(name, sizeof(name), "r%llx.base", (unsigned long long)seed);
		base = btf__parse_raw(th_path(name));
		assert_non_null(base);
	}
	snprintf(name, sizeof(name), "r%llx.BTF.1", (unsigned long long)seed);
	btf = btf__parse_raw_split(th_path(name), base);
	assert_non_null(btf);
	first = base ? btf__type_cnt(base) : 1;
	for (__u32 id = first; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *proto;
		const struct btf_param *p;

		if (btf_is_decl_tag(t) && btf_kflag(t))
			d->kflag_tags++;
		if (!btf_is_func(t))
			continue;
		d->funcs++;
		proto = btf__type_by_id(btf, t->type);
		p = btf_params(proto);
		for (__u16 i = 0; i < btf_vlen(proto); i++)
			d->unnamed += !p[i].name_off;
	}
	btf__free(btf);
	btf__free(base);
}

static void test_modes(void **state)
{
	struct drawn plain = { 0 }, valid = { 0 }, valid_kflag = { 0 };

	(void)state;
	for (uint64_t i = 0; i < SEEDS; i++) {
		uint64_t seed = fx_random_object_seed(20261203, i);
		enum fx_random_kind k1, k2, k3;

		count(seed, 0, &plain, &k1);
		count(seed, FX_RANDOM_KERNEL_VALID, &valid, &k2);
		count(seed, FX_RANDOM_KERNEL_VALID | FX_RANDOM_TAG_KFLAG, &valid_kflag, &k3);
		/* the same seed draws the same object */
		assert_int_equal(k1, k2);
		assert_int_equal(k1, k3);
	}
	print_message("random: %u FUNCs; %u unnamed parameters and %u kind_flag decl tags by "
		      "default, %u and %u kernel-valid, %u and %u kernel-valid with kind_flag tags\n",
		      plain.funcs, plain.unnamed, plain.kflag_tags, valid.unnamed, valid.kflag_tags,
		      valid_kflag.unnamed, valid_kflag.kflag_tags);
	assert_int_equal(plain.funcs, valid.funcs);
	assert_int_equal(plain.funcs, valid_kflag.funcs);
	/* the robustness inputs are still drawn */
	assert_true(plain.unnamed > 0);
	assert_true(plain.kflag_tags > 0);
	assert_int_equal(valid.unnamed, 0);
	assert_int_equal(valid.kflag_tags, 0);
	assert_int_equal(valid_kflag.unnamed, 0);
	assert_int_equal(valid_kflag.kflag_tags, plain.kflag_tags);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
