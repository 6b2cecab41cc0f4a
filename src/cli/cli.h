/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shared state and entry points of the command-line front end. */
#ifndef BTF2BTF_CLI_H
#define BTF2BTF_CLI_H

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdbool.h>

#include "btf2btf.h"

struct cli_opts {
	const char *btf_path;
	const char *base_path;
	const char *new_base_path;	/* --diff: a second -B, NEW's base (OLD's is base_path) */
	const char *output;
	bool output_elf;	/* -O elf: -o gets a copy of the object, not raw BTF */
	bool dry_run;
	bool transform;
	unsigned int features;	/* BTF2BTF_FEAT_*, 0: the library's default */
	bool distill_base;
	bool json;
	bool pretty;
	bool werror;		/* --check: warnings fail too */
	bool diff_kfuncs;	/* --diff --kfuncs */
	bool c_format;		/* --kfuncs --format=c */
	const char *vmlinux_h;	/* --vmlinux-h: the header --format=c includes */
	const char *kfunc_names;	/* --kfunc-names: --format=c declares these only */
	const char *used_by;	/* --used-by: ... and the kfuncs of this BPF object */
	int verbose;		/* -1 quiet, 0 default, 1.. verbose */
	unsigned int errors;	/* error messages printed so far */
	char first_error[512];	/* for -j: the error a failed run reports on stdout */
	bool split_without_base; /* BTF that did not parse, no --btf-base given */
	bool base_nonsense;	/* -B given to complete BTF: bad usage (exit 2) */
	const struct btf *base_btf;	/* -B read once for many objects, or NULL */
	uint64_t max_decompressed;	/* --max-decompressed, 0: the library's default */
	int fail_status;	/* exit status of a failure: 1, but 2 for --diff (as diff(1)) */
};

/* What a run over several objects adds up, for its final line (text) or
 * "tally" (JSON). Each view adds its object's counts. */
struct cli_tally {
	unsigned int objects, failed;
	unsigned int changed, written;		/* the transform */
	unsigned int kfuncs;			/* --kfuncs */
	unsigned int clean, with_errors, errors, warnings;	/* --check */
};
struct cli_tally *cli_tally(void);

struct cli_opts *cli_opts(void);
void cli_log_cb(enum btf2btf_log_level level, const char *msg, void *ctx);
int cli_libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap);

__attribute__((format(printf, 1, 2)))
void cli_error(const char *fmt, ...);
/* 1 after saying why path failed (unless the library did), 2 for a base
 * that is no base of it (bad usage). */
int cli_fail(const char *path, int err);
/* 0, or 2 after saying so: path is base_path itself (-B X X), which leaves
 * it no types of its own. */
int cli_check_not_own_base(const char *path, const char *base_path);
/* cli_fail() of a file that could not be read, with a hint when it was a
 * compressed one past the limit of --max-decompressed. */
int cli_fail_open(const char *path, int err);
/* -j and a failed run that printed no JSON: {"error": "..."} on stdout. */
void cli_json_error(void);
/*
 * -j: the writer a view writes its one JSON object with. For one input it
 * is the whole document; for several (cli_run_each()) the object is the
 * next record of the document's "objects". cli_json_done() after the
 * object ends the document of one input.
 */
struct json *cli_json_record(void);
void cli_json_done(struct json *j);
/*
 * Run one(path) on each of the nr objects (the transform, --kfuncs,
 * --check): -B's base read once, each object on its own (a failed one does
 * not stop the others), with -j one document for them all; the worst exit
 * status is the run's. mode names the mode in JSON ("transform", ...).
 * Without -j, table_done (may be NULL) prints what one() collected of the
 * several objects, as one table with a FILE column (--kfuncs).
 */
int cli_run_each(const char *mode, int nr, char **paths, int (*one)(const char *path),
		 void (*table_done)(bool with_file));
/* Whether cli_run_each() is running several objects. */
bool cli_batch(void);
/* How cli_open() opens. */
enum {
	CLI_OPEN_LENIENT = 1 << 0,	/* set8 conflicts do not fail the open
					 * (btf2btf_opts.lenient) */
	CLI_OPEN_QUIET = 1 << 1,	/* library warnings only with -v (--dump,
					 * --kfuncs, --check and --diff report
					 * problems their own way) */
};
/* Open path with the command-line options (--btf, --btf-base, -B's base
 * read once, --features, --distill-base) and CLI_OPEN_* how; 0, or 1 after
 * printing the error. */
int cli_open(const char *path, unsigned int how, struct btf2btf **b);
/* "plain", "pending", "transformed", "legacy", "already_transformed" */
/* vasprintf into a new string; NULL when out of memory */
char *cli_strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *cli_state_str(enum btf2btf_kfunc_state s);
/* Name of BTF2BTF_ACT_* bit number bit in JSON ("add_impl") or in text
 * ("add _impl"); NULL past the last action. */
const char *cli_action_name(unsigned int bit, bool json);
/* -vv: the plan of every kfunc of b, one debug line each. */
void cli_log_plan(const struct btf2btf *b, const char *path);

void cli_print_summary(const struct btf2btf *b);
/* --dump of b: 0, or the negative errno of an error already printed. */
int cli_dump(const struct btf2btf *b);
int cli_kfuncs(const char *path);
/* --kfuncs --format=c: extern declarations of the kfuncs, a C header. */
int cli_kfunc_decls(const char *path);
int cli_diff(const char *old_path, const char *new_path);
/* --diff, after OLD is open: NEW's base from now on (a second -B); 0. */
int cli_new_side(void);
/* --diff --kfuncs: the kfuncs of OLD and NEW paired by name. */
int cli_diff_kfuncs(const char *old_path, const char *new_path);
int cli_check(const char *path);
/* --kfunc-history K1 ... Kn: the kfuncs of n kernels, oldest first (each
 * [LABEL=]FILE), per kfunc across them. */
int cli_kfunc_history(int n, char **kernels);
/* --check-prog: the kfunc and ksym externs of the BPF objects among args
 * against the kernels among them ([LABEL=]FILE[,MODULE...]). 0 every strong
 * extern resolves on every kernel, 1 one does not, 2 bad input. */
int cli_check_prog(int n, char **args);

#endif /* BTF2BTF_CLI_H */
