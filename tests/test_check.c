// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The checks of every type's references (input/btf_check.c): a type id or
 * name offset out of range in any member, parameter or enum value is
 * refused with the message that names it, wherever it lies among fine ones
 * (a struct's members and a prototype's parameters are first checked all at
 * once, then searched for the bad one), when the bytes are read into the
 * library's model (b2b_parse_btf(): libbpf 1.1.2 checks none of it, newer
 * libbpf refuses such BTF with a bare EINVAL).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/btf_check.h"
#include "input/btf_input.h"
#include "helpers.h"

static char msgs[4096];

static void log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)ctx;
	snprintf(msgs + strlen(msgs), sizeof(msgs) - strlen(msgs), "%s\n", msg);
}

static const struct b2b_log test_log = { .fn = log_cb, .path = "test" };

/* members and parameters: the bad one is put at each of these places */
#define NR_ELEMS 40

/* [1] int, [2] struct s (NR_ELEMS int members), [3] int (*)(int x0, ...
 * NR_ELEMS parameters), [4] FUNC f, [5] enum e (NR_ELEMS values) */
static struct btf *make_btf(void)
{
	struct btf *btf = btf__new_empty();
	char name[16];

	assert_non_null(btf);
	assert_int_equal(btf__add_int(btf, "int", 4, BTF_INT_SIGNED), 1);
	assert_int_equal(btf__add_struct(btf, "s", 4 * NR_ELEMS), 2);
	for (int i = 0; i < NR_ELEMS; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		assert_int_equal(btf__add_field(btf, name, 1, 32 * i, 0), 0);
	}
	assert_int_equal(btf__add_func_proto(btf, 1), 3);
	for (int i = 0; i < NR_ELEMS; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		assert_int_equal(btf__add_func_param(btf, name, 1), 0);
	}
	assert_int_equal(btf__add_func(btf, "f", BTF_FUNC_GLOBAL, 3), 4);
	assert_int_equal(btf__add_enum(btf, "e", 4), 5);
	for (int i = 0; i < NR_ELEMS; i++) {
		snprintf(name, sizeof(name), "E%d", i);
		assert_int_equal(btf__add_enum_value(btf, name, i), 0);
	}
	return btf;
}

/* The raw bytes of btf (malloc'd), the words of type id's elements made
 * reachable: *elems points at element 0 of type id in the copy. */
static void *raw_with(struct btf *btf, __u32 id, __u32 **elems, size_t *size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *types = (const char *)btf__type_by_id(btf, 1);
	__u32 sz = 0;
	const char *raw = btf__raw_data(btf, &sz);
	char *copy = malloc(sz);

	assert_non_null(raw);
	assert_non_null(copy);
	memcpy(copy, raw, sz);
	/* the 24-byte header, then the types (type_off 0), in id order */
	*elems = (__u32 *)(copy + 24 + ((const char *)(t + 1) - types));
	*size = sz;
	return copy;
}

/* BTF with one word changed is refused, saying want, and nothing is kept. */
static void expect_refused(const void *data, size_t size, const char *want)
{
	struct b2b_btf out;

	msgs[0] = 0;
	assert_int_equal(b2b_parse_btf(data, size, NULL, "t", &out, NULL, &test_log), -EINVAL);
	assert_true(b2b_btf_empty(&out));
	if (!strstr(msgs, want))
		fail_msg("expected '%s' in '%s'", want, msgs);
}

struct bad_word {
	__u32 id;		/* the type whose elements */
	__u32 words;		/* words an element */
	__u32 field;		/* 0: name offset, 1: type id */
	__u32 value;
	const char *msg;	/* %u: the element's index, when it names it */
};

static void test_bad_element_anywhere(void **state)
{
	static const struct bad_word cases[] = {
		{ 2, 3, 1, 9999, "type [2] member type references type 9999, out of range" },
		{ 2, 3, 0, 1U << 30, "type [2] member %u has an invalid name offset" },
		{ 3, 2, 1, 9999, "type [3] parameter type references type 9999, out of range" },
		{ 3, 2, 0, 1U << 30, "type [3] parameter %u has an invalid name offset" },
		{ 5, 2, 0, 1U << 30, "type [5] value %u has an invalid name offset" },
	};
	struct btf *btf = make_btf();

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (__u32 at = 0; at < NR_ELEMS; at += 13) {
			size_t size;
			__u32 *elems;
			void *raw = raw_with(btf, cases[c].id, &elems, &size);
			char want[128];

			elems[at * cases[c].words + cases[c].field] = cases[c].value;
			snprintf(want, sizeof(want), cases[c].msg, at);
			expect_refused(raw, size, want);
			free(raw);
		}
	}
	btf__free(btf);
}

/* The same BTF unchanged is accepted, read in place. */
static void test_fine(void **state)
{
	struct btf *btf = make_btf();
	struct b2b_btf out;
	size_t size;
	__u32 *elems;
	void *raw = raw_with(btf, 2, &elems, &size);

	(void)state;
	msgs[0] = 0;
	assert_int_equal(b2b_parse_btf(raw, size, NULL, "t", &out, NULL, &test_log), 0);
	assert_int_equal(b2b_btf_type_cnt(&out), 6);
	assert_ptr_equal(out.data, raw);
	assert_string_equal(b2b_btf_name(&out, b2b_btf_type_by_id(&out, 4)), "f");
	assert_string_equal(msgs, "");
	b2b_btf_free(&out);
	free(raw);
	btf__free(btf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fine),
		cmocka_unit_test(test_bad_element_anywhere),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	th_cleanup();
	return ret;
}
