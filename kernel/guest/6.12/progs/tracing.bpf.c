// SPDX-License-Identifier: GPL-2.0
/* fentry and fexit on a KF_IMPLICIT_ARGS kfunc (patch "bpf: Use the _impl
 * prototype to attach to KF_IMPLICIT_ARGS kfuncs"): the trampoline must
 * see, save and restore both arguments of bpf_kfunc_implicit_arg(int a,
 * struct bpf_prog_aux *aux), not only the one BPF programs pass.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

extern int bpf_kfunc_implicit_arg(int a) __weak __ksym;
extern __u64 bpf_kfunc_implicit_arg_last_aux(void) __weak __ksym;

char _license[] SEC("license") = "GPL";

/* the only global: .bss is this struct, read by init.c (struct trace_result) */
struct trace_result {
	__u64 fentry_arg_cnt, fentry_a, fentry_aux, fentry_aux_id;
	__u64 fexit_arg_cnt, fexit_a, fexit_aux, fexit_ret;
	__u64 kfunc_aux;
} res;

SEC("fentry/bpf_kfunc_implicit_arg")
int BPF_PROG(trace_implicit_arg_fentry, int a, struct bpf_prog_aux *aux)
{
	__u64 v = 0;

	res.fentry_arg_cnt = bpf_get_func_arg_cnt(ctx);
	if (!bpf_get_func_arg(ctx, 0, &v))
		res.fentry_a = v;
	if (!bpf_get_func_arg(ctx, 1, &v))
		res.fentry_aux = v;
	/* typed access: the verifier knows arg 1 is struct bpf_prog_aux * */
	res.fentry_aux_id = aux->id;
	return 0;
}

SEC("fexit/bpf_kfunc_implicit_arg")
int BPF_PROG(trace_implicit_arg_fexit, int a, struct bpf_prog_aux *aux, int ret)
{
	__u64 v = 0;

	res.fexit_arg_cnt = bpf_get_func_arg_cnt(ctx);
	if (!bpf_get_func_arg(ctx, 0, &v))
		res.fexit_a = v;
	if (!bpf_get_func_arg(ctx, 1, &v))
		res.fexit_aux = v;
	if (!bpf_get_func_ret(ctx, &v))
		res.fexit_ret = v;
	return 0;
}

SEC("syscall")
int trigger_implicit_arg(void *ctx)
{
	int ret = bpf_kfunc_implicit_arg(5);

	res.kfunc_aux = bpf_kfunc_implicit_arg_last_aux();
	return ret;
}
