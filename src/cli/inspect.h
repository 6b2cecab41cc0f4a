/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shared pieces of --kfuncs, --diff and --check. */
#ifndef BTF2BTF_INSPECT_H
#define BTF2BTF_INSPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "btf2btf.h"

struct json;

/*
 * For the views (--dump, --kfuncs), opened with quiet_warnings: one line
 * saying how many problems the plan has (INSPECT_NOTE_PROBLEMS: --check
 * lists them; -v printed them), and what cannot be seen of the kfuncs
 * without set8s (INSPECT_NOTE_OBJECT: not for --dump, which shows none).
 */
enum { INSPECT_NOTE_PROBLEMS = 1, INSPECT_NOTE_OBJECT = 2 };
/* What a view prints (null in JSON) for what the input cannot tell. */
#define INSPECT_UNKNOWN "unknown"
/* Print --kfuncs' text table of the objects so far (with_file: a FILE
 * column, for several) and empty it. */
void inspect_kfuncs_flush(bool with_file);
void inspect_note_problems(const struct btf2btf *b, const char *path, unsigned int how);
/*
 * Whether a problem is reported: without set8s (set8s false) every kfunc
 * with a decl tag would be "tag-not-in-set", which says nothing there.
 */
bool inspect_problem_shown(const struct btf2btf_problem *p, bool set8s);
/* Whether b's set8s could be looked for (an ELF object whose .BTF_ids, if
 * any, comes with a symbol table): what "set8s" above means. */
bool inspect_sets_readable(const struct btf2btf *b);
/* The one note the views print about b, into buf: what they cannot see
 * (raw BTF, a stripped vmlinux), or that a 6.0-6.8 kernel's kfunc sets were
 * read by the struct btf_kfunc_id_set rule; NULL when there is nothing to say. */
const char *inspect_object_note(const struct btf2btf *b, char *buf, size_t size);

struct btf;
/* The prototype BPF programs see of kfunc k of btf: its own, or before the
 * transform (transformed false) what the plan reduces it to. malloc'd. */
char *inspect_bpf_proto(const struct btf *btf, const struct btf2btf_kfunc *k, bool transformed);

/* btf2btf__kf_flags_str() malloc'd ("-" for none), NULL on ENOMEM. */
char *inspect_flags_str(uint32_t flags);
/* That text as a JSON array of the names, [] for "-". */
void inspect_flags_json(struct json *j, const char *flags_str);
/* "tag", "set8", "both" or "-" (a 6.0-6.8 kfunc set counts as set8). */
const char *inspect_found_str(unsigned int found_by);
void inspect_found_json(struct json *j, unsigned int found_by);
/* "a,b" (sep ',') -> JSON ["a", "b"]. */
void inspect_list_json(struct json *j, const char *list, char sep);

#endif /* BTF2BTF_INSPECT_H */
