/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the test programs take from bpf_helpers.h and vmlinux.h (the
 * fixtures' kernels have no vmlinux.h). The structs are defined, not only
 * declared: libbpf's bpf_core_types_are_compat() takes a forward
 * declaration for another kind than the kernel's struct (see fwd.bpf.c).
 */
#define __ksym __attribute__((section(".ksyms")))
#define __weak __attribute__((weak))
#define SEC(name) __attribute__((section(name), used))

struct bpf_prog_aux {
	int id;
};

struct bpf_wq {
	unsigned long __opaque[2];
};
