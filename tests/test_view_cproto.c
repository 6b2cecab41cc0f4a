// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The C prototype printer (src/cli/cproto.c): its shapes, and every FUNC of
 * the compiled fixtures printed as libbpf's btf_dump prints it.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cproto.h"
#include "helpers.h"
#include "plan/plan.h"
#include "recipes.h"
#include "views.h"

static void test_cproto_shapes(void **state)
{
	struct btf *btf = btf__new_empty();
	int i_int, i_char, p_int, c_int, p_c_int, c_p_int, v_p_int, arr, p_arr, anon, p_anon,
	    un, fwdu, en, p_en, td, fp_proto, p_fp, fp2_proto, p_p_int, f_ret_ptr, p_f_ret_ptr,
	    vararg, noarg, big, func, p_un, p_fwdu, p_cchar;
	char *s;

	(void)state;
	assert_non_null(btf);
	i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	i_char = btf__add_int(btf, "char", 1, BTF_INT_CHAR);
	p_int = btf__add_ptr(btf, i_int);
	c_int = btf__add_const(btf, i_int);
	p_c_int = btf__add_ptr(btf, c_int);			/* const int * */
	c_p_int = btf__add_const(btf, p_int);			/* int *const */
	v_p_int = btf__add_volatile(btf, c_p_int);		/* int *const volatile */
	arr = btf__add_array(btf, i_int, i_char, 4);		/* char[4] */
	p_arr = btf__add_ptr(btf, arr);				/* char (*)[4] */
	anon = btf__add_struct(btf, NULL, 4);
	btf__add_field(btf, "x", i_int, 0, 0);
	p_anon = btf__add_ptr(btf, anon);
	un = btf__add_union(btf, "u", 4);
	fwdu = btf__add_fwd(btf, "fu", BTF_FWD_UNION);
	en = btf__add_enum(btf, "e", 4);
	btf__add_enum_value(btf, "E0", 0);
	p_en = btf__add_ptr(btf, en);
	td = btf__add_typedef(btf, "u32_t", i_int);
	fp_proto = btf__add_func_proto(btf, i_int);		/* int (*)(char, int *) */
	btf__add_func_param(btf, NULL, i_char);
	btf__add_func_param(btf, NULL, p_int);
	p_fp = btf__add_ptr(btf, fp_proto);
	p_p_int = btf__add_ptr(btf, p_int);
	fp2_proto = btf__add_func_proto(btf, p_p_int);		/* int **(*)(void) */
	f_ret_ptr = fp2_proto;
	p_f_ret_ptr = btf__add_ptr(btf, f_ret_ptr);
	p_cchar = btf__add_ptr(btf, btf__add_const(btf, i_char));
	vararg = btf__add_func_proto(btf, 0);
	btf__add_func_param(btf, "fmt", p_cchar);
	btf__add_func_param(btf, NULL, 0);
	noarg = btf__add_func_proto(btf, p_anon);
	p_un = btf__add_ptr(btf, un);
	p_fwdu = btf__add_ptr(btf, fwdu);
	big = btf__add_func_proto(btf, p_fp);			/* returns a function pointer */
	btf__add_func_param(btf, "a", p_c_int);
	btf__add_func_param(btf, "b", c_p_int);
	btf__add_func_param(btf, "c", v_p_int);
	btf__add_func_param(btf, "d", p_arr);
	btf__add_func_param(btf, "e", p_un);
	btf__add_func_param(btf, "f", p_fwdu);
	btf__add_func_param(btf, "g", p_en);
	btf__add_func_param(btf, "h", td);
	btf__add_func_param(btf, "i", p_f_ret_ptr);
	func = btf__add_func(btf, "big", BTF_FUNC_GLOBAL, big);
	assert_true(func > 0);

	s = cproto_func(btf, big, "big", -1);
	assert_string_equal(s, "int (*big(const int *a, int *const b, int *const volatile c, "
			       "char (*d)[4], union u *e, union fu *f, enum e *g, u32_t h, "
			       "int **(*i)(void)))(char, int *)");
	free(s);
	s = cproto_func(btf, big, "big", 2);
	assert_string_equal(s, "int (*big(const int *a, int *const b))(char, int *)");
	free(s);
	s = cproto_func(btf, big, "big", 0);
	assert_string_equal(s, "int (*big(void))(char, int *)");
	free(s);
	s = cproto_func(btf, vararg, "pr", -1);
	assert_string_equal(s, "void pr(const char *fmt, ...)");
	free(s);
	s = cproto_func(btf, noarg, "get", -1);
	assert_string_equal(s, "struct {...} *get(void)");
	free(s);
	s = cproto_type(btf, p_fp);
	assert_string_equal(s, "int (*)(char, int *)");
	free(s);
	s = cproto_type(btf, arr);
	assert_string_equal(s, "char [4]");
	free(s);
	/* a FUNC prints as its prototype; a bad id as "?" */
	s = cproto_func(btf, func, "big2", 1);
	assert_string_equal(s, "int (*big2(const int *a))(char, int *)");
	free(s);
	s = cproto_type(btf, 9999);
	assert_string_equal(s, "?");
	free(s);
	{
		/* a type tag, and one with kind_flag (7.3's arena pointers: the
		 * tag is the attribute itself), printed as bpftool 7.5 prints them */
		int tag = btf__add_type_tag(btf, "user", i_int);
		int attr = btf__add_type_tag(btf, "address_space(1)", i_int);
		int p_tag = btf__add_ptr(btf, tag), p_attr = btf__add_ptr(btf, attr);
		struct btf_type *t;

		assert_true(p_tag > 0 && p_attr > 0);
		t = (struct btf_type *)btf__type_by_id(btf, attr);
		t->info |= 1U << 31;	/* kind_flag: libbpf 1.1 has no btf__add_type_attr() */
		s = cproto_type(btf, p_tag);
		assert_string_equal(s, "int __attribute__((btf_type_tag(\"user\"))) *");
		free(s);
		s = cproto_type(btf, p_attr);
		assert_string_equal(s, "int __attribute__((address_space(1))) *");
		free(s);
	}
	btf__free(btf);
}

static void collect_dump(void *ctx, const char *fmt, va_list ap)
{
	char **acc = ctx, *more, *joined;

	assert_true(vasprintf(&more, fmt, ap) >= 0);
	assert_true(asprintf(&joined, "%s%s", *acc ? *acc : "", more) >= 0);
	free(*acc);
	free(more);
	*acc = joined;
}

/* Every FUNC of btf (read from path) printed by cproto_func() as libbpf's
 * btf_dump__emit_type_decl() prints it; the FUNCs compared. */
static size_t cproto_compare_btf_dump(struct btf *btf, const char *path)
{
	struct btf_dump *d;
	char *acc = NULL;
	size_t checked = 0;

	d = btf_dump__new(btf, collect_dump, &acc, NULL);
	assert_non_null(d);
	for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);
		LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = name);
		char *mine;

		if (!btf_is_func(t))
			continue;
		mine = cproto_func(btf, t->type, name, -1);
		assert_int_equal(btf_dump__emit_type_decl(d, t->type, &o), 0);
		/* btf_dump prints anonymous types in full: skip those;
		 * it prints no parameters as "()" (libbpf 1.1) or "(void)"
		 * (1.5, 1.7), we as "(void)": compared as "()" */
		for (char *v; (v = strstr(mine, "(void)"));)
			memmove(v + 1, v + 5, strlen(v + 5) + 1);
		for (char *v; (v = strstr(acc, "(void)"));)
			memmove(v + 1, v + 5, strlen(v + 5) + 1);
		/* and "* const", "* (*f)", we "*const", "*(*f)" */
		for (char *v; (v = strstr(acc, "* const")) || (v = strstr(acc, "* volatile")) ||
			      (v = strstr(acc, "* restrict")) || (v = strstr(acc, "* (")) ||
			      (v = strstr(acc, "* *"));)
			memmove(v + 1, v + 2, strlen(v + 2) + 1);
		/* and renames same-named types "x___2" (to compile); we do not */
		for (char *v = acc; (v = strstr(v, "___"));) {
			size_t nd = strspn(v + 3, "0123456789");

			if (nd)
				memmove(v, v + 3 + nd, strlen(v + 3 + nd) + 1);
			else
				v += 3;
		}
		/* libbpf before 1.6 prints a kind_flag type tag (7.3's
		 * address_space(1)) as a btf_type_tag, as it prints any
		 * other; we, as bpftool 7.5+ and newer libbpf, as the
		 * attribute it is */
		for (char *v = acc; (v = strstr(v, "__attribute__((btf_type_tag(\""));) {
			char *q = v + 28, *end = strstr(q + 1, "\")))");
			char *want;

			assert_non_null(end);
			assert_true(asprintf(&want, "__attribute__((%.*s))", (int)(end - q - 1),
					     q + 1) > 0);
			if (strstr(mine, want)) {
				memmove(v + 15, q + 1, end - q - 1);
				memmove(v + 15 + (end - q - 1), end + 2, strlen(end + 2) + 1);
			}
			free(want);
			v += 15;
		}
		/* and stacked qualifiers innermost first */
		for (char *v; (v = strstr(acc, "volatile const "));)
			memcpy(v, "const volatile ", 15);
		if (!strstr(mine, "{...}")) {
			if (strcmp(mine, acc))
				fail_msg("%s [%u]: mine '%s', btf_dump '%s'", path, id, mine, acc);
			checked++;
		}
		free(mine);
		free(acc);
		acc = NULL;
	}
	btf_dump__free(d);
	return checked;
}

/* Every FUNC of the compiled fixtures prints as libbpf prints it. */
static void test_cproto_matches_btf_dump(void **state)
{
	const char *paths[] = { th_fixture("kfuncs.gcc.o"), th_fixture("kfuncs.clang.o") };
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct btf *btf = th_parse(paths[i], NULL);

		checked += cproto_compare_btf_dump(btf, paths[i]);
		btf__free(btf);
	}
	assert_true(checked >= 20);
}

/* And every FUNC of the running kernel's BTF (skipped where there is none). */
static void test_cproto_matches_btf_dump_sys_vmlinux(void **state)
{
	struct btf *btf = th_sys_vmlinux();

	(void)state;
	assert_true(cproto_compare_btf_dump(btf, TH_SYS_VMLINUX) >= 1000);
	btf__free(btf);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cproto_shapes),
		cmocka_unit_test(test_cproto_matches_btf_dump),
		cmocka_unit_test(test_cproto_matches_btf_dump_sys_vmlinux),
	};

	return cmocka_run_group_tests_name("test_view_cproto", tests, NULL, NULL);
}
