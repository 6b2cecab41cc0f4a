// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Weak externs a kernel may lack or declare otherwise (libbpf leaves them
 * at 0), a strong one no kernel has, a function in no kfunc set, and a
 * flavoured name ("___v2": libbpf looks up bpf_kfunc_noflags). */
#include "common.h"

extern int bpf_kfunc_not_anywhere(int a) __weak __ksym;
extern long bpf_kfunc_noflags___v2(long a) __weak __ksym;
extern int bpf_kfunc_gone(void) __ksym;
extern int helper_with_aux(struct bpf_prog_aux *aux) __ksym;
extern int bpf_kfunc_plain_aux(int a, struct bpf_prog_aux *aux, int extra) __weak __ksym;

SEC("syscall") int prog(void *ctx)
{
	int r = 0;

	if (bpf_kfunc_not_anywhere)
		r += bpf_kfunc_not_anywhere(1);
	if (bpf_kfunc_plain_aux)
		r += bpf_kfunc_plain_aux(1, 0, 2);
	return r + bpf_kfunc_noflags___v2(3) + bpf_kfunc_gone() + helper_with_aux(0);
}

char _license[] SEC("license") = "GPL";
