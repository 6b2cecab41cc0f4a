// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Built for a kernel before the KF_IMPLICIT_ARGS transform: the kernel
 * prototypes, the implicit argument passed as NULL. */
#include "common.h"

extern int bpf_kfunc_implicit_arg(int a, struct bpf_prog_aux *aux) __ksym;
extern int bpf_kfunc_noflags(int a) __ksym;

SEC("syscall") int prog(void *ctx)
{
	return bpf_kfunc_implicit_arg(1, 0) + bpf_kfunc_noflags(2);
}

char _license[] SEC("license") = "GPL";
