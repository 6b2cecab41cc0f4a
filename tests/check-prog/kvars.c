// SPDX-License-Identifier: GPL-2.0
/*
 * A vmlinux-like object for --check-prog's typed __ksym variables: per-CPU
 * variables, which pahole encodes as BTF VARs (section .data..percpu, as
 * the kernel's DEFINE_PER_CPU), and a global it does not encode (a BPF
 * program reaches it untyped, through kallsyms). Built with gcc + pahole -J
 * by tests/test-check-prog.sh; the fixtures' kfuncs.c is a module on it.
 */
struct rq {
	int cpu;
	long nr_running;
};

__attribute__((section(".data..percpu"))) struct rq runqueues;
__attribute__((section(".data..percpu"))) int cpu_number;
int not_percpu_global = 3;

int use_them(void)
{
	return runqueues.cpu + cpu_number + not_percpu_global;
}
