/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The real loader's verdict on a corpus of BPF objects (issue 46, item 3):
 * every object under a directory opened and loaded whole by the guest's
 * libbpf, what libbpf said about each kfunc and __ksym extern printed for
 * the host, which compares it with btf2btf --check-prog on the same kernel
 * (kernel/scripts/check-prog-guest.sh).
 */
#ifndef PROGLOAD_H
#define PROGLOAD_H

#include <stdbool.h>

typedef void (*progload_report_fn)(bool ok, const char *name, const char *why);

/*
 * progload_run(DIR, report): each *.o under DIR and its subdirectories (one
 * level), in name order, in a child process (a crash of libbpf on one
 * object is reported, not the end of the guest). Prints, per object:
 *
 *   PROGLOAD OBJ extern NAME resolved WHERE     (libbpf: "resolved to WHERE")
 *   PROGLOAD OBJ extern NAME zero               (a weak one left at 0)
 *   PROGLOAD OBJ extern NAME failed MESSAGE     (libbpf's warning)
 *   PROGLOAD OBJ result loaded
 *   PROGLOAD OBJ result extern NAME             (the extern the load stopped at)
 *   PROGLOAD OBJ result verifier PROG kfunc NAME LINE  (a kfunc call refused)
 *   PROGLOAD OBJ result verifier PROG weak NAME LINE   (libbpf 1.3+: a call of a
 *                                                weak kfunc left at 0)
 *   PROGLOAD OBJ result verifier PROG other LINE       (refused for another reason)
 *   PROGLOAD OBJ result error ERRNO LINE        (failed after the externs, not in
 *                                                the verifier: maps, relocations)
 *   PROGLOAD OBJ result open ERRNO LINE         (libbpf cannot open it)
 *
 * OBJ is the path under DIR. One report, "progload": how many objects and
 * how long they took, and fails when there were none or the child did not
 * finish.
 */
void progload_run(const char *dir, progload_report_fn report);

#endif
