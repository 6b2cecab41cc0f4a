// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A kfunc declared with a pointer to a struct the program only forward
 * declares: BTF FWD against the kernel's STRUCT, which libbpf's
 * bpf_core_types_are_compat() does not take for the same kind. */
#define __ksym __attribute__((section(".ksyms")))
#define SEC(name) __attribute__((section(name), used))

struct bpf_prog_aux;

extern int bpf_kfunc_plain_aux(int a, struct bpf_prog_aux *aux) __ksym;

SEC("syscall") int prog(void *ctx)
{
	return bpf_kfunc_plain_aux(1, 0);
}

char _license[] SEC("license") = "GPL";
