// SPDX-License-Identifier: GPL-2.0
/*
 * Kfuncs called through the declarations of `btf2btf --kfuncs --format=c
 * vmlinux` (kfuncs.h), included after the 7.3 tree bpftool's vmlinux.h,
 * which declares the same kfuncs itself (from the bpf_kfunc decl tags of the
 * BTF phase): both sets of declarations must agree for this to compile,
 * and with the hand-written externs of the selftests' bpf_experimental.h and
 * bpf_arena_common.h included after them (those headers also wrap some kfuncs
 * in function-like macros, so they come last, as after vmlinux.h).
 *
 *   bpf_wq_set_callback   KF_IMPLICIT_ARGS: kfuncs.h has the reduced
 *                         prototype (3 parameters), the callback must run
 *   bpf_arena_alloc_pages KF_ARENA_RET|KF_ARENA_ARG2: kfuncs.h returns an
 *                         address_space(1) pointer, assigned here to one
 *                         without a cast (clang refuses to drop or add an
 *                         address space silently)
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"
#include "kfuncs.h"
#include "bpf_experimental.h"
#include "bpf_arena_common.h"

char _license[] SEC("license") = "GPL";

struct elem {
	int key;
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wq_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARENA);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2);
} arena SEC(".maps");

__u32 wq_ran;

static int wq_callback(void *map, int *key, void *value)
{
	wq_ran = 1;
	return 0;
}

SEC("syscall")
__success __retval(0)
int kdecl_wq_set_callback(void *ctx)
{
	struct elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&wq_array, &key);
	if (!val)
		return 1;
	if (bpf_wq_init(&val->w, &wq_array, 0))
		return 2;
	if (bpf_wq_set_callback(&val->w, wq_callback, 0))
		return 3;
	if (bpf_wq_start(&val->w, 0))
		return 4;
	return 0;
}

SEC("syscall")
__success __retval(0)
int kdecl_arena_alloc_pages(void *ctx)
{
#if defined(__BPF_FEATURE_ADDR_SPACE_CAST)
	u64 __attribute__((address_space(1))) *page;

	page = bpf_arena_alloc_pages(&arena, NULL, 1, -1 /* NUMA_NO_NODE */, 0);
	if (!page)
		return 1;
	*page = 42;
	if (*page != 42)
		return 2;
	bpf_arena_free_pages(&arena, page, 1);
	return 0;
#else
	return 99;	/* clang without address spaces for BPF */
#endif
}
