// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The <kfunc>_impl forms: a legacy one the kernel registers itself (a
 * kfunc), and one the transform adds (the kernel prototype, no symbol:
 * refused by the verifier), both weak as vmlinux.h declares them. */
#include "common.h"

extern int bpf_kfunc_implicit_arg_legacy_impl(int a, int b, struct bpf_prog_aux *aux) __weak __ksym;
extern int bpf_kfunc_implicit_arg_impl(int a, struct bpf_prog_aux *aux) __weak __ksym;

SEC("syscall") int prog(void *ctx)
{
	return bpf_kfunc_implicit_arg_legacy_impl(1, 2, 0) + bpf_kfunc_implicit_arg_impl(1, 0);
}

char _license[] SEC("license") = "GPL";
