// SPDX-License-Identifier: GPL-2.0
/* bpf_wq_set_callback() after its migration to KF_IMPLICIT_ARGS
 * (kernel/patches/0007): the program passes three arguments, the verifier
 * supplies prog->aux, and the callback must run.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __weak __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback(struct bpf_wq *wq,
			       int (*callback_fn)(void *, int *, void *),
			       unsigned int flags) __weak __ksym;

char _license[] SEC("license") = "GPL";

struct elem {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} wq_map SEC(".maps");

int wq_ran;

static int wq_cb(void *map, int *key, void *value)
{
	wq_ran = 42 + *key;
	return 0;
}

SEC("syscall")
int test_wq_set_callback(void *ctx)
{
	struct elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&wq_map, &key);
	if (!val)
		return 1;
	if (bpf_wq_init(&val->w, &wq_map, 0))
		return 2;
	if (bpf_wq_set_callback(&val->w, wq_cb, 0))
		return 3;
	if (bpf_wq_start(&val->w, 0))
		return 4;
	return 0;
}
