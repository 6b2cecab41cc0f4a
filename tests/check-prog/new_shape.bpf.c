// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Built for a kernel whose BTF phase ran the KF_IMPLICIT_ARGS transform
 * (7.0+): the reduced prototypes, no struct bpf_prog_aux *. */
#include "common.h"

extern int bpf_kfunc_implicit_arg(int a) __ksym;
extern int bpf_wq_set_callback(struct bpf_wq *wq,
			       int (callback_fn)(void *map, int *key, void *value),
			       unsigned int flags) __ksym;
extern int bpf_kfunc_noflags(int a) __ksym;

SEC("syscall") int prog(void *ctx)
{
	return bpf_kfunc_implicit_arg(1) + bpf_wq_set_callback(0, 0, 0) + bpf_kfunc_noflags(2);
}

char _license[] SEC("license") = "GPL";
