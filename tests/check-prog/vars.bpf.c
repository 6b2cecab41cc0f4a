// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Typed __ksym variables (resolved through the kernel's BTF, their types
 * compared), an untyped one (kallsyms: not BTF's to say), a weak one no
 * kernel has, and a kfunc that lives in a module. */
#include "common.h"

struct rq {
	int cpu;
	long nr_running;
};

extern struct rq runqueues __ksym;
extern const int cpu_number __ksym;
extern const void not_percpu_global __ksym;
extern const int no_such_var __weak __ksym;
extern int bpf_kfunc_noflags(int a) __ksym;

SEC("syscall") int prog(void *ctx)
{
	return (long)&runqueues + (long)&cpu_number + (long)&not_percpu_global +
	       (long)&no_such_var + bpf_kfunc_noflags(1);
}

char _license[] SEC("license") = "GPL";
