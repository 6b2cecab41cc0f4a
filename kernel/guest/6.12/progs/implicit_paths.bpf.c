// SPDX-License-Identifier: GPL-2.0
/* The verifier paths an implicit argument goes through: the aux a kfunc
 * gets must be the calling program's own from the main program, static
 * and global subprograms and callbacks, and calls visited many times
 * (bounded loops, pruned branches) must all get it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

extern int bpf_kfunc_implicit_arg(int a) __weak __ksym;
extern int bpf_kfunc_implicit_arg_legacy(int a, int b) __weak __ksym;
extern int bpf_kfunc_implicit_arg_prog_id(int a) __weak __ksym;

char _license[] SEC("license") = "GPL";

SEC("syscall")
int prog_id_main(void *ctx)
{
	return bpf_kfunc_implicit_arg_prog_id(0);
}

static __noinline int static_sub(int a)
{
	return bpf_kfunc_implicit_arg_prog_id(a);
}

SEC("syscall")
int prog_id_static_subprog(void *ctx)
{
	/* a = 0 at run time, but not a constant the compiler can fold */
	return static_sub(bpf_get_prandom_u32() & 0);
}

__noinline int global_sub(int a)
{
	return bpf_kfunc_implicit_arg_prog_id(a);
}

SEC("syscall")
int prog_id_global_subprog(void *ctx)
{
	return global_sub(0);
}

struct cb_ctx {
	int id;
};

static int loop_cb(__u32 idx, struct cb_ctx *c)
{
	c->id = bpf_kfunc_implicit_arg_prog_id(0);
	return 0;
}

SEC("syscall")
int prog_id_callback(void *ctx)
{
	struct cb_ctx c = { .id = -1 };

	bpf_loop(3, loop_cb, &c, 0);
	return c.id;
}

/* 1 + 2 + ... + 64 = 2080: the verifier walks every iteration */
SEC("syscall")
int implicit_arg_loop(void *ctx)
{
	int i, sum = 0;

#pragma clang loop unroll(disable)
	for (i = 1; i <= 64; i++)
		sum += bpf_kfunc_implicit_arg(i);
	return sum;
}

/* Both branches end in the same call with equivalent states: the second
 * visit of the last call is pruned. 7 + 7 either way.
 */
SEC("syscall")
int implicit_arg_pruning(void *ctx)
{
	int v;

	if (bpf_get_prandom_u32() & 1)
		v = bpf_kfunc_implicit_arg(7);
	else
		v = bpf_kfunc_implicit_arg_legacy(3, 4);
	return v + bpf_kfunc_implicit_arg(v > 0 ? 7 : 1);
}

/* outside the hooks bpf_testmod registers its kfuncs for */
SEC("socket")
int implicit_arg_socket_filter(void *ctx)
{
	return bpf_kfunc_implicit_arg(5);
}
