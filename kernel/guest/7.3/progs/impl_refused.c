// SPDX-License-Identifier: GPL-2.0
/*
 * Seed 010 / KF_IMPLICIT_ARGS on 7.3: the <kfunc>_impl FUNCs that the BTF
 * phase adds for bpf_wq_set_callback, bpf_stream_vprintk and
 * bpf_task_work_schedule_{signal,resume} carry the kernel prototype (with
 * struct bpf_prog_aux *) but have no kernel symbol: a program calling one
 * must be refused. (Upstream's own selftests check this only for
 * bpf_kfunc_implicit_arg_impl, in kfunc_implicit_args.c.) The message
 * proves libbpf found the _impl FUNC in the kernel BTF and the verifier
 * refused it; without the _impl FUNC libbpf would fail earlier.
 */
#define BPF_NO_KFUNC_PROTOTYPES
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, struct bpf_prog_aux *aux) __weak __ksym;
extern int bpf_stream_vprintk_impl(int stream_id, const char *fmt__str, const void *args,
				   __u32 len__sz, struct bpf_prog_aux *aux) __weak __ksym;
extern int bpf_task_work_schedule_signal_impl(struct task_struct *task,
					      struct bpf_task_work *tw, void *map__map,
					      bpf_task_work_callback_t callback,
					      struct bpf_prog_aux *aux) __weak __ksym;
extern int bpf_task_work_schedule_resume_impl(struct task_struct *task,
					      struct bpf_task_work *tw, void *map__map,
					      bpf_task_work_callback_t callback,
					      struct bpf_prog_aux *aux) __weak __ksym;

char _license[] SEC("license") = "GPL";

SEC("syscall")
__failure __msg("cannot find address for kernel function bpf_wq_set_callback_impl")
int wq_set_callback_impl(void *ctx)
{
	return bpf_wq_set_callback_impl(NULL, NULL, 0, NULL);
}

SEC("syscall")
__failure __msg("cannot find address for kernel function bpf_stream_vprintk_impl")
int stream_vprintk_impl(void *ctx)
{
	return bpf_stream_vprintk_impl(1, "x", NULL, 0, NULL);
}

SEC("syscall")
__failure __msg("cannot find address for kernel function bpf_task_work_schedule_signal_impl")
int task_work_schedule_signal_impl(void *ctx)
{
	return bpf_task_work_schedule_signal_impl(NULL, NULL, NULL, NULL, NULL);
}

SEC("syscall")
__failure __msg("cannot find address for kernel function bpf_task_work_schedule_resume_impl")
int task_work_schedule_resume_impl(void *ctx)
{
	return bpf_task_work_schedule_resume_impl(NULL, NULL, NULL, NULL, NULL);
}
