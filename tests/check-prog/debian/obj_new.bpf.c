// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The btf_struct_meta kfuncs both ways, built against a Debian kernel's
 * vmlinux.h (tests/check-prog-debian.sh): bpf_obj_new(u64), which only
 * kernels since the 2026-03 change have (KF_IMPLICIT_ARGS), strong, and the
 * legacy bpf_obj_new_impl(u64, void *meta__ign) that older kernels have and
 * newer ones keep, weak. bpf_obj_drop_impl is called strong: every kernel
 * since 6.2 has it, 6.1 none.
 */
#include "vmlinux.h"

#define __ksym __attribute__((section(".ksyms")))
#define __weak __attribute__((weak))
#define SEC(name) __attribute__((section(name), used))

extern void *bpf_obj_new(__u64 local_type_id) __ksym;
extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta__ign) __weak __ksym;
extern void bpf_obj_drop_impl(void *kptr, void *meta__ign) __ksym;

SEC("syscall") int prog(void *ctx)
{
	void *p = bpf_obj_new(1);
	void *q = bpf_obj_new_impl(1, 0);

	bpf_obj_drop_impl(p, 0);
	bpf_obj_drop_impl(q, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
