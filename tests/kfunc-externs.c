// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kfunc block bpftool >= 7.5 writes at the end of vmlinux.h
 * (dump_btf_kfuncs() in bpftool's btf.c, the same steps with the same
 * libbpf calls): an extern per FUNC with a "bpf_kfunc" decl tag, sorted by
 * name, __bpf_fastcall for a "bpf_fastcall" tag, inside
 * #ifndef BPF_NO_KFUNC_PROTOTYPES; before it the __ksym, __weak and
 * __bpf_fastcall macros bpftool defines at the top of vmlinux.h. Debian 12's bpftool (7.1) writes none;
 * tests/test-kfunc-decl.sh puts this block into its vmlinux.h to check that
 * btf2btf's declarations sit beside vmlinux.h's own.
 *
 *   kfunc-externs FILE [BASE]   FILE: raw BTF or an ELF object with .BTF;
 *                               BASE: its base when FILE is split BTF
 */
#include <bpf/btf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out(void *ctx, const char *fmt, va_list ap)
{
	(void)ctx;
	vprintf(fmt, ap);
}

static const struct btf *sort_btf;

static int by_name(const void *a, const void *b)
{
	const struct btf_type *x = btf__type_by_id(sort_btf, *(const __u32 *)a);
	const struct btf_type *y = btf__type_by_id(sort_btf, *(const __u32 *)b);

	return strcmp(btf__name_by_offset(sort_btf, x->name_off),
		      btf__name_by_offset(sort_btf, y->name_off));
}

/* FUNCs with decl tag name on themselves (component -1), into ids. */
static size_t tagged(const struct btf *btf, const char *name, __u32 *ids)
{
	size_t nr = 0;

	for (__u32 i = 1; i < btf__type_cnt(btf); i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (btf_is_decl_tag(t) && btf_decl_tag(t)->component_idx == -1 &&
		    btf_is_func(btf__type_by_id(btf, t->type)) &&
		    !strcmp(btf__name_by_offset(btf, t->name_off), name))
			ids[nr++] = t->type;
	}
	return nr;
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts);
	struct btf_dump *d;
	struct btf *btf;
	__u32 *kfuncs, *fastcalls;
	size_t nk, nf;

	struct btf *base = NULL;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: kfunc-externs FILE [BASE]\n");
		return 2;
	}
	if (argc == 3) {
		base = btf__parse(argv[2], NULL);
		if (!base) {
			fprintf(stderr, "kfunc-externs: %s: cannot parse BTF\n", argv[2]);
			return 1;
		}
	}
	btf = base ? btf__parse_split(argv[1], base) : btf__parse(argv[1], NULL);
	if (!btf) {
		fprintf(stderr, "kfunc-externs: %s: cannot parse BTF\n", argv[1]);
		return 1;
	}
	kfuncs = calloc(btf__type_cnt(btf), sizeof(*kfuncs));
	fastcalls = calloc(btf__type_cnt(btf), sizeof(*fastcalls));
	d = btf_dump__new(btf, out, NULL, NULL);
	if (!kfuncs || !fastcalls || !d) {
		fprintf(stderr, "kfunc-externs: out of memory\n");
		return 1;
	}
	nk = tagged(btf, "bpf_kfunc", kfuncs);
	nf = tagged(btf, "bpf_fastcall", fastcalls);
	sort_btf = btf;
	qsort(kfuncs, nk, sizeof(*kfuncs), by_name);
	/* bpftool writes these at the top of vmlinux.h, 7.1 does not */
	printf("#ifndef __ksym\n#define __ksym __attribute__((section(\".ksyms\")))\n#endif\n\n");
	printf("#ifndef __weak\n#define __weak __attribute__((weak))\n#endif\n\n");
	printf("#ifndef __bpf_fastcall\n#if __has_attribute(bpf_fastcall)\n");
	printf("#define __bpf_fastcall __attribute__((bpf_fastcall))\n#else\n");
	printf("#define __bpf_fastcall\n#endif\n#endif\n");
	printf("\n/* BPF kfuncs */\n");
	printf("#ifndef BPF_NO_KFUNC_PROTOTYPES\n");
	for (size_t i = 0; i < nk; i++) {
		const struct btf_type *t = btf__type_by_id(btf, kfuncs[i]);

		printf("extern ");
		for (size_t j = 0; j < nf; j++) {
			if (fastcalls[j] == kfuncs[i]) {
				printf("__bpf_fastcall ");
				break;
			}
		}
		opts.field_name = btf__name_by_offset(btf, t->name_off);
		if (btf_dump__emit_type_decl(d, t->type, &opts)) {
			fprintf(stderr, "kfunc-externs: %s: cannot print [%u]\n", argv[1], kfuncs[i]);
			return 1;
		}
		printf(" __weak __ksym;\n");
	}
	printf("#endif\n\n");
	btf_dump__free(d);
	btf__free(btf);
	btf__free(base);
	free(kfuncs);
	free(fastcalls);
	return 0;
}
