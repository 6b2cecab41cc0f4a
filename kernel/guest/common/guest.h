/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the 7.3 guests (x86 kernel/guest/7.3/loader.c, s390x
 * kernel/guest/7.3-s390/init.c) check alike, and how every guest's shared
 * code reports a test: one PASS/FAIL line, counted in the guest's summary.
 */
#ifndef GUEST_H
#define GUEST_H

#include <stdbool.h>

typedef void (*guest_report_fn)(bool ok, const char *name, const char *why);

/* bpf_testmod_load: finit_module of /bpf_testmod.ko, its BTF in sysfs */
void guest_load_testmod(guest_report_fn report);

/* dmesg_no_btf_errors: no BTF error line in the kernel log (BTFERR lines) */
void guest_check_dmesg(guest_report_fn report);

#endif
