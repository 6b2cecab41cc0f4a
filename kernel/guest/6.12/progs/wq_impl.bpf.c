// SPDX-License-Identifier: GPL-2.0
/* The pre-migration API: bpf_wq_set_callback_impl() with an explicit aux
 * argument. After the series it is a BTF-only FUNC without a kernel
 * symbol, so the verifier must reject the program.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (*callback_fn)(void *, int *, void *),
				    unsigned int flags,
				    struct bpf_prog_aux *aux) __weak __ksym;

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

static int wq_cb(void *map, int *key, void *value)
{
	return 0;
}

SEC("syscall")
int test_wq_set_callback_impl(void *ctx)
{
	struct elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&wq_map, &key);
	if (!val)
		return 1;
	if (bpf_wq_init(&val->w, &wq_map, 0))
		return 2;
	return bpf_wq_set_callback_impl(&val->w, wq_cb, 0, NULL);
}
