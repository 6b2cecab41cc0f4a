// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Split BTF on a distilled base (.BTF.base; a raw pair FILE + FILE.base):
 * read on it without a base; relocated onto a base as the kernel does at
 * module load, and refused naming the type when the kernel would refuse it;
 * a transform keeps the module relocatable. Fixture "reloc" (relocation.c).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "util/internal.h"

#define KF_IMPLICIT_ARGS (1U << 16)

/* The bytes of section name of ELF file path (malloc'd), NULL when absent. */
static void *section_bytes(const char *path, const char *name, size_t *size)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	void *out = NULL;
	size_t shstrndx;
	Elf *elf;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		gelf_getshdr(scn, &sh);
		if (strcmp(elf_strptr(elf, shstrndx, sh.sh_name), name))
			continue;
		d = elf_getdata(scn, NULL);
		out = malloc(d->d_size ? d->d_size : 1);
		assert_non_null(out);
		memcpy(out, d->d_buf, d->d_size);
		*size = d->d_size;
	}
	elf_end(elf);
	close(fd);
	return out;
}

/* struct reloc_mod's members p, s, e: a pointer to base's struct reloc_ptr,
 * base's enum reloc_state and struct reloc_embed. */
static void assert_members_on(const struct btf *btf, const struct btf *base)
{
	int mod = th_find(btf, "reloc_mod", BTF_KIND_STRUCT);
	const struct btf_member *m = btf_members(btf__type_by_id(btf, mod));
	const struct btf_type *ptr;

	ptr = btf__type_by_id(btf, m[0].type);
	assert_true(btf_is_ptr(ptr));
	assert_int_equal(ptr->type, th_find(base, "reloc_ptr", BTF_KIND_STRUCT));
	assert_int_equal(m[1].type, th_find(base, "reloc_state", BTF_KIND_ENUM));
	assert_int_equal(m[2].type, th_find(base, "reloc_embed", BTF_KIND_STRUCT));
	assert_string_equal(btf__name_by_offset(btf, btf__type_by_id(btf, m[2].type)->name_off),
			    "reloc_embed");
}

/* No base given: read on the distilled base the module carries. */
static void test_read_without_base(void **state)
{
	struct btf2btf *b;
	const struct btf2btf_kfunc *k;
	const void *raw;
	size_t size;

	(void)state;
	b = th_open(th_fixture("reloc.o.ko"), NULL);
	assert_int_equal(btf2btf__object_info(b)->distilled_base_types, 5);
	assert_false(btf2btf__object_info(b)->relocated);
	assert_int_equal(btf__type_cnt(btf__base_btf(btf2btf__btf(b))), 6);
	assert_int_equal(btf2btf__kfunc_cnt(b), 2);
	k = th_kfunc(b, "bpf_reloc_implicit");
	assert_int_equal(k->flags, KF_IMPLICIT_ARGS);
	assert_int_equal(k->state, BTF2BTF_KFUNC_PENDING);
	assert_int_equal(k->implicit_arg, 1);
	assert_members_on(btf2btf__btf(b), btf__base_btf(btf2btf__btf(b)));
	/* the distilled base is the one to write back with the BTF */
	assert_int_equal(btf2btf__raw_base_btf(b, &raw, &size), 0);
	btf2btf__close(b);
}

/* Onto a base whose ids differ, and whose pointer-only struct has another size. */
static void test_relocate(void **state)
{
	BTF2BTF_OPTS(opts, .base_path = th_fixture("reloc-other.o"));
	struct btf *other = th_parse(th_fixture("reloc-other.o"), NULL);
	struct btf2btf *b;
	__u32 id;

	(void)state;
	b = th_open(th_fixture("reloc.o.ko"), NULL);
	id = th_kfunc(b, "bpf_reloc_implicit")->btf_id - btf__type_cnt(btf__base_btf(btf2btf__btf(b)));
	btf2btf__close(b);
	b = th_open(th_fixture("reloc.o.ko"), &opts);
	assert_true(btf2btf__object_info(b)->relocated);
	assert_int_equal(btf__type_cnt(btf__base_btf(btf2btf__btf(b))), btf__type_cnt(other));
	/* split ids start after the base's: moved by the difference */
	assert_true(btf__type_cnt(other) > 6);
	assert_int_equal(th_kfunc(b, "bpf_reloc_implicit")->btf_id, btf__type_cnt(other) + id);
	assert_members_on(btf2btf__btf(b), other);
	assert_int_equal(th_kfunc(b, "bpf_reloc_implicit")->implicit_arg, 1);
	btf2btf__close(b);
	btf__free(other);
}

/* What the kernel refuses, refused naming the first base type that does not match. */
static void test_relocate_refused(void **state)
{
	static const struct { const char *base, *says; } cases[] = {
		{ "reloc-size.o", "distilled base type STRUCT 'reloc_embed' [3] (size 8, embedded in a type of the module: sizes must match) does not match" },
		{ "reloc-size.o", "its STRUCT 'reloc_embed' [5] has size 12" },
		{ "reloc-missing.o", "distilled base type STRUCT 'reloc_ptr' [4] (size 16) does not match" },
		{ "reloc-missing.o", "no type of that name there" },
		{ "reloc-dup.o", "distilled base type STRUCT 'reloc_ptr' [4] (size 16) matches two types of" },
		{ "split.o", "STRUCT 'reloc_embed' [3]" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		BTF2BTF_OPTS(opts, .base_path = th_fixture(cases[i].base), .log = th_log_cb);
		struct btf2btf *b = NULL;

		th_log_reset();
		assert_int_equal(btf2btf__open(th_fixture("reloc.o.ko"), &opts, &b), -EINVAL);
		assert_null(b);
		assert_int_equal(th_log_error_count, 1);
		if (!strstr(th_log_errors, cases[i].says))
			fail_msg("%s: expected \"%s\" in: %s", cases[i].base, cases[i].says, th_log_errors);
		assert_non_null(strstr(th_log_errors, "failed to validate module [NAME] BTF: -22"));
	}
}

/* Without a base, the transform keeps the distilled base as it is; the
 * result reads again and relocates. */
static void test_transform_keeps_base(void **state)
{
	const char *mod = th_copy_fixture("reloc.o.ko", "m.ko");
	BTF2BTF_OPTS(opts, .base_path = th_fixture("reloc.o"));
	size_t in_size = 0, out_size = 0;
	void *in_base, *out_base;
	struct btf2btf *b;

	(void)state;
	in_base = section_bytes(mod, ".BTF.base", &in_size);
	b = th_open(mod, NULL);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_true(btf2btf__changed(b));
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	out_base = section_bytes(mod, ".BTF.base", &out_size);
	assert_non_null(out_base);
	assert_int_equal(out_size, in_size);
	assert_memory_equal(out_base, in_base, in_size);
	free(in_base);
	free(out_base);

	b = th_open(mod, NULL);
	assert_int_equal(th_kfunc(b, "bpf_reloc_implicit")->state, BTF2BTF_KFUNC_ALREADY);
	btf2btf__close(b);
	b = th_open(mod, &opts);
	assert_true(btf2btf__object_info(b)->relocated);
	assert_int_equal(th_kfunc(b, "bpf_reloc_implicit")->state, BTF2BTF_KFUNC_ALREADY);
	assert_members_on(btf2btf__btf(b), btf__base_btf(btf2btf__btf(b)));
	btf2btf__close(b);
	th_cleanup();
}

/* With a base, relocated, transformed (all of 7.3's passes) and distilled
 * again from that base: still a module with .BTF.base, which relocates. */
static void test_transform_on_base_distills(void **state)
{
	const char *mod = th_copy_fixture("reloc.o.ko", "m.ko");
	BTF2BTF_OPTS(opts, .base_path = th_fixture("reloc-other.o"), .features = BTF2BTF_FEATS_ALL);
	BTF2BTF_OPTS(again, .base_path = th_fixture("reloc.o"));
	struct btf2btf *b;
	void *base;
	size_t size = 0;

	(void)state;
	b = th_open(mod, &opts);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	base = section_bytes(mod, ".BTF.base", &size);
	assert_non_null(base);
	free(base);

	b = th_open(mod, NULL);
	assert_int_equal(btf2btf__object_info(b)->distilled_base_types, 5);
	assert_int_equal(th_kfunc(b, "bpf_reloc_implicit")->state, BTF2BTF_KFUNC_ALREADY);
	btf2btf__close(b);
	b = th_open(mod, &again);
	assert_true(btf2btf__object_info(b)->relocated);
	assert_members_on(btf2btf__btf(b), btf__base_btf(btf2btf__btf(b)));
	btf2btf__close(b);
	th_cleanup();
}

/* X.BTF + X.BTF.base as 7.3's resolve_btfids writes them. */
static void test_raw_pair(void **state)
{
	const char *raw = th_copy_fixture("reloc.o.ko.BTF", "x.BTF");
	BTF2BTF_OPTS(opts, .base_path = th_fixture("reloc-other.o"));
	struct btf2btf *b;

	(void)state;
	th_copy_fixture("reloc.o.ko.BTF.base", "x.BTF.base");
	b = th_open(raw, NULL);
	assert_int_equal(btf2btf__object_info(b)->distilled_base_types, 5);
	assert_members_on(btf2btf__btf(b), btf__base_btf(btf2btf__btf(b)));
	btf2btf__close(b);
	b = th_open(raw, &opts);
	assert_true(btf2btf__object_info(b)->relocated);
	assert_members_on(btf2btf__btf(b), btf__base_btf(btf2btf__btf(b)));
	btf2btf__close(b);
	/* without its .base beside it, split BTF does not parse alone */
	unlink(th_path("x.BTF.base"));
	{
		BTF2BTF_OPTS(quiet, .log = th_log_cb);

		th_log_reset();
		assert_int_not_equal(btf2btf__open(raw, &quiet, &b), 0);
	}
	th_cleanup();
}

/* btf2btf's own --distill-base output is read by every open: alone, and
 * relocated onto the base it came from. */
static void test_own_distilled_output(void **state)
{
	const char *mod = th_copy_fixture("split.o.ko", "s.ko");
	BTF2BTF_OPTS(opts, .base_path = th_fixture("split.o"), .distill_base = true);
	BTF2BTF_OPTS(plain, .base_path = th_fixture("split.o"));
	struct btf2btf *b;

	(void)state;
	b = th_open(mod, &opts);
	assert_int_equal(btf2btf__transform(b), 0);
	assert_int_equal(btf2btf__write_elf(b), 0);
	btf2btf__close(b);
	b = th_open(mod, NULL);
	assert_true(btf2btf__object_info(b)->distilled_base_types > 0);
	assert_int_equal(btf2btf__kfunc_cnt(b), 4);
	assert_int_equal(th_kfunc(b, "bpf_kfunc_implicit_arg")->state, BTF2BTF_KFUNC_ALREADY);
	btf2btf__close(b);
	b = th_open(mod, &plain);
	assert_true(btf2btf__object_info(b)->relocated);
	assert_int_equal(th_kfunc(b, "bpf_kfunc_implicit_arg")->state, BTF2BTF_KFUNC_ALREADY);
	btf2btf__close(b);
	th_cleanup();
}

/* Every allocation of the relocation failed in turn: -ENOMEM, nothing
 * opened, nothing leaked (ASan); then a transform on the distilled base
 * (7.3's passes), all or nothing as every transform. */
static void test_alloc_failures(void **state)
{
	BTF2BTF_OPTS(opts, .base_path = th_fixture("reloc-other.o"), .log = th_log_cb);
	BTF2BTF_OPTS(all, .features = BTF2BTF_FEATS_ALL);
	const char *mod = th_fixture("reloc.o.ko");
	unsigned long n, failed = 0;
	const void *want, *got;
	size_t want_size, got_size;
	struct btf2btf *clean;

	(void)state;
	for (n = 1; n < 1000; n++) {
		struct btf2btf *b = NULL;
		int err;

		b2b_fault_nomem_calls = 0;
		b2b_fault_nomem_at = n;
		err = btf2btf__open(mod, &opts, &b);
		b2b_fault_nomem_at = 0;
		if (b2b_fault_nomem_calls < n) {
			assert_int_equal(err, 0);
			assert_true(btf2btf__object_info(b)->relocated);
			btf2btf__close(b);
			break;
		}
		assert_int_equal(err, -ENOMEM);
		assert_null(b);
		failed++;
	}
	assert_true(failed >= 5);	/* the relocation's own allocations among them */

	clean = th_open(mod, &all);
	assert_int_equal(btf2btf__transform(clean), 0);
	assert_int_equal(btf2btf__raw_btf(clean, &want, &want_size), 0);
	for (n = 1; n < 10000; n++) {
		struct btf2btf *b = th_open(mod, &all);
		int err;

		b2b_fault_nomem_calls = 0;
		b2b_fault_nomem_at = n;
		err = btf2btf__transform(b);
		b2b_fault_nomem_at = 0;
		if (b2b_fault_nomem_calls < n) {
			assert_int_equal(err, 0);
			btf2btf__close(b);
			break;
		}
		assert_int_equal(err, -ENOMEM);
		assert_false(btf2btf__changed(b));
		assert_int_equal(btf2btf__transform(b), 0);
		assert_int_equal(btf2btf__raw_btf(b, &got, &got_size), 0);
		assert_int_equal(got_size, want_size);
		assert_memory_equal(got, want, want_size);
		btf2btf__close(b);
	}
	btf2btf__close(clean);
}

static int argc_of(const char *const *argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

static void run_status(struct run *r, int status, const char *const *argv)
{
	th_run(r, argv);
	if (r->status != status)
		fail_msg("%s %s exited %d, not %d: %s%s", argv[1], argv[argc_of(argv) - 1], r->status, status, r->out, r->err);
}

/* --check -B: will a kernel with that base accept the module's BTF? */
static void test_cli_check_acceptance(void **state)
{
	char *mod = strdup(th_fixture("reloc.o.ko"));	/* th_fixture()'s buffers rotate */
	struct run r;

	(void)state;
	/* distilled: relocates (exit 0, said), or does not (exit 1, the type named) */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("reloc-other.o"),
					    mod, NULL });
	assert_non_null(strstr(r.out, "reloc.o.ko: note: its distilled base (5 types) relocates onto"));
	assert_non_null(strstr(r.out, "its BTF is accepted there"));
	th_run_free(&r);
	run_status(&r, 1, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("reloc-size.o"),
					    mod, NULL });
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "btf2btf: error: "));
	assert_non_null(strstr(r.err, "STRUCT 'reloc_embed' [3] (size 8, embedded in a type of the module: sizes must match) does not match"));
	assert_non_null(strstr(r.err, "failed to validate module [NAME] BTF: -22"));
	th_run_free(&r);
	/* without -B: read on its own distilled base, and said how to check it */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--check", mod, NULL });
	assert_non_null(strstr(r.out, "read on its own distilled base (5 types)"));
	th_run_free(&r);
	/* plain split BTF: accepted on its base, refused on one it does not fit */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("reloc.o"),
					    th_fixture("reloc-split.ko"), NULL });
	assert_string_equal(r.out, "");
	th_run_free(&r);
	run_status(&r, 1, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("split.o"),
					    th_fixture("reloc-split.ko"), NULL });
	assert_non_null(strstr(r.err, "reloc-split.ko"));
	th_run_free(&r);
	/* ids in range and of the right kinds, but an embedded struct grew */
	run_status(&r, 1, (const char *[]){ "btf2btf", "--check", "-B", th_fixture("reloc-size.o"),
					    th_fixture("reloc-split.ko"), NULL });
	assert_non_null(strstr(r.err, "STRUCT 'reloc_mod' [11]: member 'e' (STRUCT 'reloc_embed' [5], 12 bytes) at byte 16 runs past its 24 bytes"));
	assert_non_null(strstr(r.err, "failed to validate module [NAME] BTF: -22"));
	th_run_free(&r);
	/* JSON: the same in a key of its own */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--check", "-j", "-B",
					    th_fixture("reloc-other.o"), mod, NULL });
	assert_non_null(strstr(r.out, "\"distilled_base\":\"its distilled base (5 types) relocates"));
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--check", "-j", "-B", th_fixture("reloc.o"),
					    th_fixture("reloc-split.ko"), NULL });
	assert_non_null(strstr(r.out, "\"distilled_base\":null"));
	th_run_free(&r);
	free(mod);
}

/* Every view reads a distilled module without -B; -o FILE writes FILE.base
 * with FILE, -o - is refused (one stream cannot hold both). */
static void test_cli_views_and_outputs(void **state)
{
	const char *mod = th_copy_fixture("reloc.o.ko", "m.ko");
	const char *out = th_path("m.btf");
	char *base_out;
	struct run r;

	(void)state;
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", mod, NULL });
	assert_non_null(strstr(r.out, "bpf_reloc_implicit  set8   reloc_kfunc_ids  KF_IMPLICIT_ARGS  pending"));
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--kfuncs", "--format=c", mod, NULL });
	assert_non_null(strstr(r.out, "extern int bpf_reloc_implicit(struct reloc_mod *m) __weak __ksym;"));
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--dump", mod, NULL });
	assert_non_null(strstr(r.out, "STRUCT 'reloc_mod' size=24 vlen=3"));
	th_run_free(&r);
	run_status(&r, 1, (const char *[]){ "btf2btf", "-o", "-", mod, NULL });
	assert_non_null(strstr(r.err, "the BTF is split on a distilled base"));
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "-q", "-o", out, mod, NULL });
	th_run_free(&r);
	assert_true(asprintf(&base_out, "%s.base", out) > 0);
	assert_int_equal(access(base_out, F_OK), 0);
	free(base_out);
	/* the raw pair written reads back, and relocates */
	run_status(&r, 0, (const char *[]){ "btf2btf", "--dump", "-B", th_fixture("reloc-other.o"),
					    out, NULL });
	assert_non_null(strstr(r.out, "FUNC 'bpf_reloc_implicit_impl'"));
	th_run_free(&r);
	/* the module before and the raw pair after: the transform's changes */
	run_status(&r, 1, (const char *[]){ "btf2btf", "--diff", "-B", th_fixture("reloc.o"),
					    th_fixture("reloc.o.ko"), out, NULL });
	assert_non_null(strstr(r.out, "+[18] int bpf_reloc_implicit_impl(struct reloc_mod *m, struct bpf_prog_aux *aux)"));
	th_run_free(&r);
	run_status(&r, 1, (const char *[]){ "btf2btf", "--diff", th_fixture("reloc.o.ko"), out, NULL });
	assert_non_null(strstr(r.out, "+[11] int bpf_reloc_implicit(struct reloc_mod *m)"));
	th_run_free(&r);
	run_status(&r, 0, (const char *[]){ "btf2btf", "--diff", th_fixture("reloc.o.ko"), mod, NULL });
	th_run_free(&r);
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_without_base),
		cmocka_unit_test(test_relocate),
		cmocka_unit_test(test_relocate_refused),
		cmocka_unit_test(test_transform_keeps_base),
		cmocka_unit_test(test_transform_on_base_distills),
		cmocka_unit_test(test_raw_pair),
		cmocka_unit_test(test_own_distilled_output),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_cli_check_acceptance),
		cmocka_unit_test(test_cli_views_and_outputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
