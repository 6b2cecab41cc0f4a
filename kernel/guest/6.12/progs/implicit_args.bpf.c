// SPDX-License-Identifier: GPL-2.0
/* KF_IMPLICIT_ARGS kfuncs of bpf_testmod (kernel/patches/0006), as in the
 * selftest progs/kfunc_implicit_args.c of the series.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

extern int bpf_kfunc_implicit_arg(int a) __weak __ksym;
extern int bpf_kfunc_implicit_arg_impl(int a, struct bpf_prog_aux *aux) __weak __ksym; /* illegal */
extern int bpf_kfunc_implicit_arg_legacy(int a, int b) __weak __ksym;
extern int bpf_kfunc_implicit_arg_legacy_impl(int a, int b, struct bpf_prog_aux *aux) __weak __ksym;

char _license[] SEC("license") = "GPL";

SEC("syscall")
int test_kfunc_implicit_arg(void *ctx)
{
	return bpf_kfunc_implicit_arg(5);
}

SEC("syscall")
int test_kfunc_implicit_arg_impl_illegal(void *ctx)
{
	return bpf_kfunc_implicit_arg_impl(5, NULL);
}

SEC("syscall")
int test_kfunc_implicit_arg_legacy(void *ctx)
{
	return bpf_kfunc_implicit_arg_legacy(3, 4);
}

SEC("syscall")
int test_kfunc_implicit_arg_legacy_impl(void *ctx)
{
	return bpf_kfunc_implicit_arg_legacy_impl(5, 6, NULL);
}
