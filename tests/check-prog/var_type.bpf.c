// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A __ksym variable of another type than the kernel's (a struct for its
 * int): libbpf refuses it, weak or not. */
#include "common.h"

struct rq {
	int cpu;
	long nr_running;
};

extern struct rq cpu_number __weak __ksym;

SEC("syscall") int prog(void *ctx)
{
	return (long)&cpu_number;
}

char _license[] SEC("license") = "GPL";
