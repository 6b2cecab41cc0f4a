// SPDX-License-Identifier: GPL-2.0
/* A BPF object as it was built for stock 6.12: compiled against that
 * release's unpatched tools/testing/selftests/bpf/bpf_experimental.h
 * (ktest.sh extracts it from the tarball into stock/), whose
 * bpf_wq_set_callback() macro calls bpf_wq_set_callback_impl(wq, cb,
 * flags, NULL). The backport keeps that kfunc: the object must load and
 * its callback must run.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "stock/bpf_experimental.h"

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
int test_wq_set_callback_legacy(void *ctx)
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
