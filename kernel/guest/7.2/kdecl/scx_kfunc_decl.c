// SPDX-License-Identifier: GPL-2.0
/*
 * A sched_ext scheduler whose kfuncs come from `btf2btf --kfuncs --format=c
 * vmlinux` (kfuncs.h) of the 7.2 kernel built with the pahole adapter,
 * included after the vmlinux.h the 7.2 proof makes (bpftool of the 7.2 tree
 * on the BTF with bpf_kfunc tags, so with its own kfunc externs): both must
 * agree. No scx/common.bpf.h, which declares the kfuncs by hand.
 *
 *   scx_bpf_create_dsq   KF_IMPLICIT_ARGS in 7.2: kfuncs.h has the reduced
 *                        prototype (dsq_id, node)
 *   scx_bpf_dsq_insert   every runnable task goes to the DSQ made in init,
 *   scx_bpf_dsq_move_to_local  and from there to the CPU that dispatches
 *
 * The loader attaches it, lets tasks run through it, reads the counters,
 * and detaches it. Its select_cpu only picks the CPU: without one, the
 * kernel's default puts a task that wakes up on an idle CPU straight on
 * that CPU's local DSQ, without ops.enqueue, which on an idle guest is
 * every task (0 enqueued, seen once in CI). With it, every wakeup goes
 * through enqueue: the loader's own, at the end of its sleep, at least.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "kfuncs.h"

#define KDECL_DSQ	42

char _license[] SEC("license") = "GPL";

__u64 nr_enqueued, nr_dispatched;
__s32 create_dsq_ret = 1;

SEC("struct_ops.s/kdecl_init")
s32 BPF_PROG(kdecl_init)
{
	create_dsq_ret = scx_bpf_create_dsq(KDECL_DSQ, -1);
	return create_dsq_ret;
}

SEC("struct_ops/kdecl_select_cpu")
s32 BPF_PROG(kdecl_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	return prev_cpu;
}

SEC("struct_ops/kdecl_enqueue")
void BPF_PROG(kdecl_enqueue, struct task_struct *p, u64 enq_flags)
{
	__sync_fetch_and_add(&nr_enqueued, 1);
	scx_bpf_dsq_insert(p, KDECL_DSQ, SCX_SLICE_DFL, enq_flags);
}

SEC("struct_ops/kdecl_dispatch")
void BPF_PROG(kdecl_dispatch, s32 cpu, struct task_struct *prev)
{
	if (scx_bpf_dsq_move_to_local(KDECL_DSQ))
		__sync_fetch_and_add(&nr_dispatched, 1);
}

SEC(".struct_ops.link")
struct sched_ext_ops kdecl_ops = {
	.select_cpu		= (void *)kdecl_select_cpu,
	.enqueue		= (void *)kdecl_enqueue,
	.dispatch		= (void *)kdecl_dispatch,
	.init			= (void *)kdecl_init,
	.name			= "kfunc_decl",
};
