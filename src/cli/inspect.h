/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shared pieces of --kfuncs, --diff and --check. */
#ifndef BTF2BTF_INSPECT_H
#define BTF2BTF_INSPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "btf2btf.h"

struct json;

/*
 * Open path with the command-line options (--btf, --btf-base). lenient:
 * set8 conflicts do not fail the open (see btf2btf_opts.lenient). With
 * quiet_warnings, library warnings only show with -v (--check and --diff
 * report problems their own way). 0, or 1 after printing the error.
 */
int inspect_open(const char *path, bool lenient, bool quiet_warnings, struct btf2btf **b);

/*
 * For the views (--dump, --kfuncs), opened with quiet_warnings: one line
 * saying how many problems the plan has (with problems: --check lists
 * them; -v printed them), and what cannot be seen without set8s.
 */
void inspect_note_problems(const struct btf2btf *b, const char *path, bool problems);
/*
 * Whether a problem is reported: without set8s (set8s false) every kfunc
 * with a decl tag would be "tag-not-in-set", which says nothing there.
 */
bool inspect_problem_shown(const struct btf2btf_problem *p, bool set8s);

struct btf;
/* The prototype BPF programs see of kfunc k of btf: its own, or before the
 * transform (transformed false) what the plan reduces it to. malloc'd. */
char *inspect_bpf_proto(const struct btf *btf, const struct btf2btf_kfunc *k, bool transformed);

/* "KF_ACQUIRE|KF_RET_NULL|0x8" (unknown bits as one hex number), "" for 0.
 * malloc'd, NULL on ENOMEM. */
char *inspect_flags_str(uint32_t flags);
/* The same as a JSON array of strings. */
void inspect_flags_json(struct json *j, uint32_t flags);
/* "tag", "set8", "both" or "-". */
const char *inspect_found_str(unsigned int found_by);
void inspect_found_json(struct json *j, unsigned int found_by);
/* "a,b" -> JSON ["a", "b"]. */
void inspect_list_json(struct json *j, const char *comma_list);

#endif /* BTF2BTF_INSPECT_H */
