/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel as the judge of BTF: every guest loads the BTF that btf2btf
 * (and upstream's resolve_btfids) wrote for the differential's objects with
 * BPF_BTF_LOAD, i.e. through the checks the kernel runs on module BTF.
 */
#ifndef BTF_ACCEPT_H
#define BTF_ACCEPT_H

#include "guest.h"

/*
 * Runs one test per set directory under ROOT (btf_accept_<set>), in name
 * order. A set directory holds
 *   label        one line: whose output the set is
 *   refuse       names of the objects the kernel must refuse (may be empty)
 *   NAME.btf     raw BTF, one file per object
 *   NAME.in.btf  (optional) the object's input: when this kernel refuses
 *                it, NAME.btf may be refused too (a kernel older than the
 *                BTF the inputs use), and is counted apart
 * The test passes when the kernel refuses the objects named in refuse and
 * no other (but those whose input it refuses). The PASS/FAIL line counts
 * the refusals by the last line of the kernel's log; an unexpected refusal
 * also prints that log and the object (BTFOBJ lines, base64), so that the
 * CI log keeps it. Returns the number of sets.
 */
int btf_accept_run(const char *root, guest_report_fn report);

#endif
