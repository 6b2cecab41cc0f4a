// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* btf2btf: the command line. Options, messages and exit codes live here only. */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf2btf.h"
#include "cli.h"
#include "dump.h"
#include "heap.h"
#include "inspect.h"
#include "json.h"

enum {
	OPT_BTF = 0x100,
	OPT_ADD_TAGS,
	OPT_DISTILL,
	OPT_DUMP,
	OPT_KFUNCS,
	OPT_DIFF,
	OPT_CHECK,
	OPT_FEATURES,
	OPT_WERROR,
	OPT_HISTORY,
	OPT_FORMAT,
	OPT_VMLINUX_H,
	OPT_MAX_DECOMPRESSED,
	OPT_CHECK_PROG,
	OPT_KFUNC_NAMES,
	OPT_USED_BY,
	MODE_KFUNC_DECLS,	/* --kfuncs --format=c, for the usage table */
};

static const struct option long_opts[] = {
	{ "btf",		required_argument,	NULL, OPT_BTF },
	{ "btf-base",		required_argument,	NULL, 'B' },
	{ "btf_base",		required_argument,	NULL, 'B' },	/* resolve_btfids */
	{ "output",		required_argument,	NULL, 'o' },
	{ "output-format",	required_argument,	NULL, 'O' },
	{ "dry-run",		no_argument,		NULL, 'n' },
	{ "transform",		no_argument,		NULL, 'T' },
	{ "add-kfunc-tags",	no_argument,		NULL, OPT_ADD_TAGS },
	{ "distill-base",	no_argument,		NULL, OPT_DISTILL },
	{ "distill_base",	no_argument,		NULL, OPT_DISTILL },	/* resolve_btfids */
	{ "features",		required_argument,	NULL, OPT_FEATURES },
	{ "dump",		no_argument,		NULL, OPT_DUMP },
	{ "kfuncs",		no_argument,		NULL, OPT_KFUNCS },
	{ "diff",		no_argument,		NULL, OPT_DIFF },
	{ "check",		no_argument,		NULL, OPT_CHECK },
	{ "kfunc-history",	no_argument,		NULL, OPT_HISTORY },
	{ "check-prog",		no_argument,		NULL, OPT_CHECK_PROG },
	{ "werror",		no_argument,		NULL, OPT_WERROR },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "vmlinux-h",		required_argument,	NULL, OPT_VMLINUX_H },
	{ "max-decompressed",	required_argument,	NULL, OPT_MAX_DECOMPRESSED },
	{ "kfunc-names",	required_argument,	NULL, OPT_KFUNC_NAMES },
	{ "used-by",		required_argument,	NULL, OPT_USED_BY },
	{ "json",		no_argument,		NULL, 'j' },
	{ "pretty",		no_argument,		NULL, 'p' },
	{ "verbose",		no_argument,		NULL, 'v' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ 0 }
};

static void usage_modes(FILE *f);

static void usage(FILE *f)
{
	fprintf(f,
"Usage: btf2btf [OPTIONS] OBJ...\n"
"       btf2btf --kfuncs|--check [OPTIONS] OBJ...\n"
"       btf2btf --dump [OPTIONS] OBJ\n"

"       btf2btf --diff [--kfuncs] [OPTIONS] OLD NEW\n"
"       btf2btf --kfunc-history [-j] [LABEL=]KERNEL[,MODULES]...\n"
"       btf2btf --check-prog [-j] PROG.bpf.o... [LABEL=]KERNEL[,MODULE...]...\n"
"\n"
"Rewrite the BTF of each OBJ (vmlinux.o, .tmp_vmlinux*, vmlinux, modules .ko:\n"
"their -B base is read once) for kfuncs flagged KF_IMPLICIT_ARGS: add\n"
"<kfunc>_impl FUNCs with the kernel prototype and give each kfunc a prototype\n"
"without struct bpf_prog_aux *.\n"
"\n"
"Input:\n"
"      --btf FILE          use raw BTF FILE instead of OBJ's .BTF section\n"
"                          (FILE is then what gets rewritten, unless -o)\n"
"  -B, --btf-base FILE     base BTF (e.g. vmlinux) of a split BTF (a module)\n"
"                          (also spelt --btf_base, as resolve_btfids does); a\n"
"                          module with .BTF.base (or a raw X with X.base)\n"
"                          is read on that alone, and relocated onto FILE when\n"
"                          given, as the kernel does (--check: will it load?)\n"
"      --max-decompressed SIZE  refuse a compressed input (.ko.xz, .ko.zst,\n"
"                          .ko.gz) past SIZE bytes decompressed (K, M, G: KiB,\n"
"                          MiB, GiB; default 1G, or $BTF2BTF_MAX_DECOMPRESSED);\n"
"                          every mode takes it\n"
"Transform and output:\n"
"  -o, --output FILE       write raw BTF to FILE (- : standard output) instead\n"
"                          of rewriting OBJ\n"
"  -O, --output-format raw|elf  what -o writes: raw BTF (the default) or elf\n"
"                          (a copy of OBJ with its BTF transformed, as objcopy)\n"
"  -n, --dry-run           transform in memory, print the summary, write nothing\n"
"      --features LIST     what the transform does, a comma list as pahole's\n"
"                          btf_features: implicit_args, kfunc_tags,\n"
"                          fastcall_tags, arena_attrs, dedup, sort; default\n"
"                          (implicit_args: what 6.12 takes) or all (what Linux\n"
"                          7.3's resolve_btfids does); help lists them\n"
"      --add-kfunc-tags    add the \"bpf_kfunc\" decl tags (feature kfunc_tags)\n"
"      --distill-base      with -B: rewrite the split BTF on a distilled base, put\n"
"                          in section .BTF.base (with -o FILE: into FILE.base;\n"
"                          also spelt --distill_base)\n"
"Inspect:\n"
"      --dump              print the BTF like `bpftool btf dump file`\n"
"      --kfuncs            print one row per kfunc: set8s, flags, prototypes\n"
"      --format c          with --kfuncs: a C header for BPF programs, one\n"
"                          extern declaration per kfunc with the prototype BPF\n"
"                          sees (--kfuncs --format=c OBJ > kfuncs.h)\n"
"      --vmlinux-h FILE    with --format=c: #include FILE (a vmlinux.h) for the\n"
"                          types instead of declaring them\n"
"      --kfunc-names NAMES  with --format=c: only these kfuncs (names\n"
"                          or patterns as bpf_obj_*, comma separated)\n"
"      --used-by FILE      with --format=c: only the kfuncs the BPF object FILE\n"
"                          calls (FILE.bpf.o)\n"
"      --diff OLD NEW      print the types NEW adds and the FUNCs whose proto changed;\n"
"                          with --kfuncs, the kfuncs added, removed, moved to\n"
"                          KF_IMPLICIT_ARGS, with other flags or prototypes\n"
"      --kfunc-history     the kfuncs of the KERNELs (vmlinux or raw BTF, oldest\n"
"                          first, LABEL=FILE to name one, FILE,MODULES with its\n"
"                          modules): per kfunc its first kernel, prototype\n"
"                          changes, KF_IMPLICIT_ARGS, flags\n"
"      --check-prog        which KERNELs run the BPF objects: each kfunc and\n"
"                          __ksym extern resolved as libbpf and the verifier\n"
"                          do at load (ok, missing, incompatible, not a kfunc);\n"
"                          exit 1 when a strong one fails on a kernel\n"
"      --check             lint the kfunc declarations; exit 1 on an error\n"
"      --werror            with --check: exit 1 on a warning too\n"
"  -T, --transform         with --dump/--kfuncs: show the result of the transform\n"
"                          (implied by -n and --add-kfunc-tags)\n"
"  -j, --json              JSON output;  -p, --pretty  indented JSON\n"
"General:\n"
"  -v, --verbose           more messages (twice: the plan per kfunc, libbpf's too)\n"
"  -q, --quiet             errors only\n"
"  -h, --help              this help;    -V, --version  print the version\n"
"\n");
	usage_modes(f);
	fprintf(f, "\n"
"Exit status: 0 on success, 1 on error (or --check errors), 2 on bad usage;\n"
"--diff as diff(1): 0 same, 1 different, 2 trouble; --check-prog: 0 every\n"
"strong extern resolves on every kernel, 1 not, 2 bad input.\n");
}

static const struct {
	const char *name;
	unsigned int bits;
	const char *help;
} features[] = {
	{ "implicit_args", BTF2BTF_FEAT_IMPLICIT_ARGS,
	  "KF_IMPLICIT_ARGS: add <kfunc>_impl, reduce the kfunc's prototype" },
	{ "kfunc_tags", BTF2BTF_FEAT_KFUNC_TAGS, "a \"bpf_kfunc\" decl tag on every kfunc" },
	{ "fastcall_tags", BTF2BTF_FEAT_FASTCALL_TAGS,
	  "a \"bpf_fastcall\" decl tag for KF_FASTCALL (and on its _impl)" },
	{ "arena_attrs", BTF2BTF_FEAT_ARENA_ATTRS,
	  "address_space(1) type attributes for KF_ARENA_* and __arena params (kind_flag: 7.3+)" },
	{ "dedup", BTF2BTF_FEAT_DEDUP, "deduplicate the result" },
	{ "sort", BTF2BTF_FEAT_SORT, "sort the types by name, as 7.3 expects of vmlinux" },
	{ "default", BTF2BTF_FEATS_DEFAULT, "the default set: implicit_args" },
	{ "all", BTF2BTF_FEATS_ALL, "everything above: Linux 7.3's resolve_btfids" },
};

static void list_features(FILE *f)
{
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		fprintf(f, "  %-14s %s\n", features[i].name, features[i].help);
}

/* --features=a,b,c: 0, 1 (help printed: exit 0) or 2 (bad usage). */
/* A size in bytes, with K, M or G for KiB, MiB, GiB: 0 and *out, or 2
 * (bad usage) with the message naming what gave it. */
static int parse_size(const char *s, const char *what, uint64_t *out)
{
	static const char units[] = "KMG";
	const char *unit;
	char *end;
	unsigned long long v;

	errno = 0;
	v = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
	if (*s < '0' || *s > '9' || errno)
		goto bad;
	if (*end && (unit = strchr(units, *end)) && !end[1]) {
		unsigned int shift = 10 * (unsigned int)(unit - units + 1);

		if (v > UINT64_MAX >> shift)
			goto bad;
		v <<= shift;
	} else if (*end) {
		goto bad;
	}
	if (!v)
		goto bad;
	*out = v;
	return 0;
bad:
	cli_error("%s: '%s' is not a size: a number of bytes from 1, with K, M or G for "
		  "KiB, MiB or GiB", what, s);
	return 2;
}

static int parse_features(const char *list, unsigned int *bits)
{
	const char *p = list;

	if (!*list) {
		cli_error("--features: empty list; give default, all or names (--features=help)");
		return 2;
	}
	if (!strcmp(list, "help") || !strcmp(list, "list")) {
		printf("Features (--features=LIST, comma separated):\n");
		list_features(stdout);
		return 1;
	}
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
			if (strlen(features[i].name) == len && !strncmp(p, features[i].name, len))
				break;
		if (i == sizeof(features) / sizeof(features[0])) {
			cli_error("--features: unknown feature '%.*s'; known:", (int)len, p);
			list_features(stderr);
			return 2;
		}
		*bits |= features[i].bits;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* -o -: the raw BTF (-O elf: the object) to standard output, as objcopy's
 * and cat's "-". */
static int write_stdout(struct btf2btf *b)
{
	const void *raw = NULL;
	void *image = NULL;
	size_t size = 0;
	int err;

	if (cli_opts()->output_elf) {
		err = btf2btf__elf_image(b, &image, &size);
		raw = image;
	} else {
		err = btf2btf__raw_btf(b, &raw, &size);
	}
	if (!err && fwrite(raw, 1, size, stdout) != size)
		err = -errno;	/* finish_stdout() says it */
	free(image);
	return err;
}

/* -o FILE: the BTF, and with --distill-base the distilled base in FILE.base
 * (the name the library gives it, as to an in-place raw input), both
 * committed or neither. */
static int write_raw_outputs(struct btf2btf *b, const char *output)
{
	if (cli_opts()->output_elf)
		return strcmp(output, "-") ? btf2btf__write_elf_copy(b, output) : write_stdout(b);
	const void *base;
	size_t base_size;
	/* a distilled base: asked for, or the one the input carries */
	bool distilled = !btf2btf__raw_base_btf(b, &base, &base_size);

	if (!strcmp(output, "-") && distilled) {
		cli_error("%s: -o -: the BTF is split on a distilled base, which needs a file of its own (-o FILE writes FILE and FILE.base)",
			  btf2btf__path(b));
		return -EINVAL;
	}
	if (!strcmp(output, "-"))
		return write_stdout(b);
	if (!distilled)
		return btf2btf__write_raw(b, output);
	return btf2btf__write_raw_pair(b, output, NULL);
}

static int run_transform(const char *path)
{
	const struct cli_opts *o = cli_opts();
	struct btf2btf *b;
	int err;
	int open_rc;

	open_rc = cli_open(path, 0, &b);
	if (open_rc)
		return open_rc;
	err = btf2btf__transform(b);
	if (!err && !o->dry_run) {
		if (o->output)
			err = write_raw_outputs(b, o->output);
		else
			err = btf2btf__write_elf(b);
	}
	if (err) {
		btf2btf__close(b);
		return cli_fail(path, err);
	}
	/* with -o - standard output holds the BTF: the summary is left out;
	 * with -j it is the run's JSON document, which -q does not drop */
	if ((o->verbose >= 0 || o->json) && !(o->output && !strcmp(o->output, "-")))
		cli_print_summary(b);
	btf2btf__close(b);
	return 0;
}

static int run_dump(const char *path)
{
	const struct cli_opts *o = cli_opts();
	struct btf2btf *b;
	int err = 0;
	int open_rc;

	/* as it is: a plan the transform would refuse is still printed */
	open_rc = cli_open(path, (o->transform ? 0 : CLI_OPEN_LENIENT) | CLI_OPEN_QUIET, &b);
	if (open_rc)
		return open_rc;
	/* the BTF as bpftool prints it: no word on kfunc sets it does not show */
	inspect_note_problems(b, path, INSPECT_NOTE_PROBLEMS);
	if (o->transform)
		err = btf2btf__transform(b);
	if (err) {
		btf2btf__close(b);
		return cli_fail(path, err);
	}
	err = cli_dump(b);
	btf2btf__close(b);
	return err ? cli_fail(path, err) : 0;
}

/* Options given on the command line, for the usage check. */
enum {
	GIVEN_BTF	= 1 << 0,
	GIVEN_BASE	= 1 << 1,
	GIVEN_OUTPUT	= 1 << 2,
	GIVEN_DRY_RUN	= 1 << 3,
	GIVEN_T		= 1 << 4,
	GIVEN_ADD_TAGS	= 1 << 5,
	GIVEN_JSON	= 1 << 6,
	GIVEN_DISTILL	= 1 << 7,
	GIVEN_FEATURES	= 1 << 8,
	GIVEN_WERROR	= 1 << 9,
	GIVEN_FORMAT	= 1 << 10,
	GIVEN_C_FORMAT	= 1 << 11,
	GIVEN_VMLINUX_H	= 1 << 12,
	GIVEN_KFUNC_NAMES = 1 << 13,
	GIVEN_USED_BY	= 1 << 14,
};

/*
 * Which options mean something in which mode, in one table: anything else
 * is refused (exit 2) with the reason, rather than silently ignored.
 */
static const struct mode_usage {
	int mode;
	const char *name;
	unsigned int takes;		/* GIVEN_* that mean something here */
	const char *why;		/* what the mode does, for the message */
} mode_usage[] = {
	{ 0, "the transform", GIVEN_BTF | GIVEN_BASE | GIVEN_OUTPUT | GIVEN_FORMAT | GIVEN_DRY_RUN |
	  GIVEN_ADD_TAGS | GIVEN_JSON | GIVEN_DISTILL | GIVEN_FEATURES, "it always transforms" },
	{ OPT_DUMP, "--dump", GIVEN_BTF | GIVEN_BASE | GIVEN_DRY_RUN | GIVEN_T |
	  GIVEN_ADD_TAGS | GIVEN_JSON | GIVEN_DISTILL | GIVEN_FEATURES,
	  "it prints and never writes a file" },
	{ OPT_KFUNCS, "--kfuncs", GIVEN_BTF | GIVEN_BASE | GIVEN_DRY_RUN | GIVEN_T |
	  GIVEN_ADD_TAGS | GIVEN_JSON | GIVEN_FEATURES, "it prints and never writes a file" },
	{ MODE_KFUNC_DECLS, "--kfuncs --format=c", GIVEN_BTF | GIVEN_BASE | GIVEN_C_FORMAT |
	  GIVEN_VMLINUX_H | GIVEN_KFUNC_NAMES | GIVEN_USED_BY, "it declares what BPF programs see of the kernel's kfuncs, "
	  "transformed as the kernel's build does, as C" },
	/* the plan --check prints depends on the features */
	{ OPT_CHECK, "--check", GIVEN_BTF | GIVEN_BASE | GIVEN_JSON | GIVEN_FEATURES | GIVEN_WERROR,
	  "it lints the object as it is (transformed or not) and writes nothing" },
	{ OPT_HISTORY, "--kfunc-history", GIVEN_JSON,
	  "it reads each kernel's BTF as it is (a vmlinux or raw BTF, no base) and writes nothing" },
	{ OPT_CHECK_PROG, "--check-prog", GIVEN_JSON,
	  "it reads the objects and each kernel's BTF as they are (LABEL=VMLINUX,MODULE... "
	  "for modules) and writes nothing" },
	{ OPT_DIFF, "--diff", GIVEN_BASE | GIVEN_JSON,
	  "it compares OLD and NEW as they are (each may be raw BTF) and writes nothing" },
};

static const struct { unsigned int bit; const char *opt; } given_names[] = {
	{ GIVEN_BTF, "--btf" }, { GIVEN_BASE, "--btf-base" }, { GIVEN_OUTPUT, "-o" },
	{ GIVEN_DRY_RUN, "-n" }, { GIVEN_T, "-T" }, { GIVEN_ADD_TAGS, "--add-kfunc-tags" },
	{ GIVEN_JSON, "-j/-p" }, { GIVEN_DISTILL, "--distill-base" },
	{ GIVEN_FEATURES, "--features" }, { GIVEN_WERROR, "--werror" }, { GIVEN_FORMAT, "-O" },
	{ GIVEN_C_FORMAT, "--format" }, { GIVEN_VMLINUX_H, "--vmlinux-h" },
	{ GIVEN_KFUNC_NAMES, "--kfunc-names" }, { GIVEN_USED_BY, "--used-by" },
};

/* --help's table of what each mode takes, made from the two tables above
 * (the bash completion reads it: it offers a mode's options only). */
static void usage_modes(FILE *f)
{
	fprintf(f, "Options each mode takes (others are refused; -v, -q, -h, -V always):\n");
	for (size_t i = 0; i < sizeof(mode_usage) / sizeof(mode_usage[0]); i++) {
		const struct mode_usage *u = &mode_usage[i];
		int col = fprintf(f, "  %s:", u->mode ? u->name : "(transform)");

		fprintf(f, "%*s", col < 24 ? 24 - col : 1, "");
		for (size_t g = 0; g < sizeof(given_names) / sizeof(given_names[0]); g++) {
			const char *name = given_names[g].opt;

			if (!(u->takes & given_names[g].bit))
				continue;
			/* "-j/-p": two options */
			fprintf(f, " %.*s", (int)strcspn(name, "/"), name);
			if (strchr(name, '/'))
				fprintf(f, " %s", strchr(name, '/') + 1);
		}
		/* the pair of modes that makes one: --diff --kfuncs */
		if (u->mode == OPT_DIFF)
			fprintf(f, " --kfuncs");
		if (u->mode == OPT_KFUNCS)
			fprintf(f, " --diff");
		fputc('\n', f);
	}
}

/* 0, or 2 after saying which option means nothing in this mode and why. */
static int check_usage(int mode, unsigned int given)
{
	const struct mode_usage *u = NULL;
	size_t i;

	for (i = 0; i < sizeof(mode_usage) / sizeof(mode_usage[0]); i++)
		if (mode_usage[i].mode == mode)
			u = &mode_usage[i];
	for (i = 0; u && i < sizeof(given_names) / sizeof(given_names[0]); i++) {
		if ((given & given_names[i].bit) && !(u->takes & given_names[i].bit)) {
			cli_error("%s means nothing with %s: %s", given_names[i].opt, u->name, u->why);
			return 2;
		}
	}
	if ((given & GIVEN_VMLINUX_H) && !(given & GIVEN_C_FORMAT)) {
		cli_error("--vmlinux-h names the header --kfuncs --format=c includes: give --format=c");
		return 2;
	}
	if ((given & GIVEN_DISTILL) && !(given & GIVEN_BASE)) {
		cli_error("--distill-base needs --btf-base: the distilled base is made from it");
		return 2;
	}
	if ((given & GIVEN_FORMAT) && !(given & GIVEN_OUTPUT)) {
		cli_error("-O says what -o writes: give -o FILE too");
		return 2;
	}
	if ((given & GIVEN_DISTILL) && (given & GIVEN_OUTPUT) && !strcmp(cli_opts()->output, "-") &&
	    !cli_opts()->output_elf) {
		cli_error("-o - with --distill-base: the distilled base needs a file, FILE.base");
		return 2;
	}
	if ((given & GIVEN_DRY_RUN) && (given & GIVEN_OUTPUT)) {
		cli_error("-n writes nothing and -o names where to write: give one of them");
		return 2;
	}
	return 0;
}

/* Whether standard output is a pipe or socket whose reader went away:
 * errno is long gone when a buffered write failed in the middle of a
 * printf(), the descriptor still says it. */
static bool stdout_reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/* Output that did not reach stdout (a full disk) is a failure like any
 * other: say so and exit 1 (2 with --diff). A reader that went away (`|
 * head`) ends the run as it ends cat: by SIGPIPE, quietly, in every mode;
 * the work was done (every object of a batch; the reader only misses the
 * report), and a failure of it keeps its own status. */
static int finish_stdout(int rc)
{
	const struct cli_opts *o = cli_opts();

	if (rc && o->json && !json_documents)
		cli_json_error();
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		if (errno == EPIPE || stdout_reader_gone()) {
			if (rc)
				return rc;
			signal(SIGPIPE, SIG_DFL);
			raise(SIGPIPE);
		}
		/* a JSON error object could not reach stdout either */
		if (o->json)
			fprintf(stderr, "btf2btf: error: cannot write to standard output: %s\n",
				errno ? strerror(errno) : "I/O error");
		else
			cli_error("cannot write to standard output: %s",
				  errno ? strerror(errno) : "I/O error");
		return rc > o->fail_status ? rc : o->fail_status;
	}
	return rc;
}

/* getopt_long() said nothing (opterr = 0): name the option, briefly. */
static int bad_option(int opt, char **argv)
{
	const char *word = argv[optind - 1];
	size_t len = strcspn(word, "=");

	if (optopt && optopt < 0x100 && word[0] == '-' && word[1] != '-')
		cli_error("%s option '-%c' (try --help)",
			  opt == ':' ? "missing the argument of" : "unknown", optopt);
	else
		cli_error("%s option '%.*s' (try --help)",
			  opt == ':' ? "missing the argument of" :
			  optopt ? "wrong use of" : "unknown", (int)len, word);
	return 2;
}

static int run(int mode, int argc, char **argv)
{
	const struct cli_opts *o = cli_opts();
	int nr;

	/* "-": standard input, read once, and never rewritten in place */
	for (int i = optind, seen = 0; i < argc; i++) {
		if (strcmp(argv[i], "-"))
			continue;
		if (seen++) {
			cli_error("-: standard input is given twice: it can be read once");
			return 2;
		}
		if (mode == 0 && !o->output && !o->dry_run) {
			cli_error("-: standard input cannot be rewritten in place: give -o FILE (or -n)");
			return 2;
		}
	}
	if (o->new_base_path && mode != OPT_DIFF) {
		cli_error("-B given twice: a base per side is for --diff (OLD's, then NEW's)");
		return 2;
	}
	/* -B X X (easy to type as -B vmlinux vmlinux *.ko): nonsense, said */
	for (int i = optind; i < argc; i++)
		if (cli_check_not_own_base(argv[i], o->new_base_path && i > optind ?
							 o->new_base_path : o->base_path))
			return 2;
	if (o->btf_path && cli_check_not_own_base(o->btf_path, o->base_path))
		return 2;
	if (mode == OPT_DIFF) {
		/* as diff(1) and cmp: 0 same, 1 different, 2 trouble */
		if (argc - optind != 2) {
			cli_error("--diff needs two files, OLD and NEW");
			return 2;
		}
		return cli_opts()->diff_kfuncs ? cli_diff_kfuncs(argv[optind], argv[optind + 1])
					       : cli_diff(argv[optind], argv[optind + 1]);
	}
	if (argc == optind) {
		cli_error("no object file given (try --help)");
		return 2;
	}
	nr = argc - optind;
	if (nr > 1 && o->output) {
		cli_error("-o names one output: give one object");
		return 2;
	}
	if (nr > 1 && o->btf_path) {
		cli_error("--btf names the BTF of one object: give one object");
		return 2;
	}
	switch (mode) {
	case OPT_HISTORY: return cli_kfunc_history(nr, argv + optind);
	case OPT_CHECK_PROG: return cli_check_prog(nr, argv + optind);
	case 0: return cli_run_each("transform", nr, argv + optind, run_transform, NULL);
	case OPT_KFUNCS: return cli_run_each("kfuncs", nr, argv + optind, cli_kfuncs,
						 inspect_kfuncs_flush);
	case OPT_CHECK: return cli_run_each("check", nr, argv + optind, cli_check, NULL);
	case OPT_DUMP:
	case MODE_KFUNC_DECLS:
		if (nr != 1) {
			cli_error("one object file at a time with --dump and --kfuncs --format=c "
				  "(try --help)");
			return 2;
		}
		return mode == OPT_DUMP ? run_dump(argv[optind]) : cli_kfunc_decls(argv[optind]);
	default: return 2;
	}
}

int main(int argc, char **argv)
{
	struct cli_opts *o = cli_opts();
	unsigned int given = 0, feats = 0;
	bool add_tags = false;
	int opt, mode = 0, rc;

	/* out of space under RLIMIT_FSIZE: write() must fail with EFBIG and the
	 * temp file be removed, not the process die silently with SIGXFSZ */
	signal(SIGXFSZ, SIG_IGN);
	/* a closed pipe on stdout is reported as EPIPE by finish_stdout() */
	signal(SIGPIPE, SIG_IGN);
	cli_heap_init();

	/* the option, when given, overrides it */
	if (getenv("BTF2BTF_MAX_DECOMPRESSED")) {
		rc = parse_size(getenv("BTF2BTF_MAX_DECOMPRESSED"), "BTF2BTF_MAX_DECOMPRESSED",
				&o->max_decompressed);
		if (rc)
			return finish_stdout(rc);
	}
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":B:o:O:nTjpvqhV", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_BTF: o->btf_path = optarg; given |= GIVEN_BTF; break;
		case 'B':
			/* --diff -B OLDBASE -B NEWBASE: a base per side */
			if (o->base_path && o->new_base_path) {
				cli_error("-B given three times: one base, or with --diff one per side");
				return finish_stdout(2);
			}
			*(o->base_path ? &o->new_base_path : &o->base_path) = optarg;
			given |= GIVEN_BASE;
			break;
		case 'o': o->output = optarg; given |= GIVEN_OUTPUT; break;
		case 'O':
			if (strcmp(optarg, "raw") && strcmp(optarg, "elf")) {
				cli_error("-O: unknown format '%s': raw or elf", optarg);
				return finish_stdout(2);
			}
			o->output_elf = !strcmp(optarg, "elf");
			given |= GIVEN_FORMAT;
			break;
		case 'n': o->dry_run = true; o->transform = true; given |= GIVEN_DRY_RUN; break;
		case 'T': o->transform = true; given |= GIVEN_T; break;
		case OPT_ADD_TAGS:
			add_tags = true;
			o->transform = true;
			given |= GIVEN_ADD_TAGS;
			break;
		case OPT_DISTILL: o->distill_base = true; given |= GIVEN_DISTILL; break;
		case OPT_FEATURES:
			rc = parse_features(optarg, &feats);
			if (rc)
				return finish_stdout(rc == 1 ? 0 : rc);
			given |= GIVEN_FEATURES;
			break;
		case OPT_DUMP:
		case OPT_KFUNCS:
		case OPT_DIFF:
		case OPT_CHECK:
		case OPT_HISTORY:
		case OPT_CHECK_PROG:
			/* --diff --kfuncs: the diff of the kfunc tables */
			if ((mode == OPT_DIFF && opt == OPT_KFUNCS) ||
			    (mode == OPT_KFUNCS && opt == OPT_DIFF)) {
				o->diff_kfuncs = true;
				mode = OPT_DIFF;
				break;
			}
			if (mode && mode != opt) {
				cli_error("--dump, --kfuncs, --diff, --check, --kfunc-history and "
					  "--check-prog exclude each other (but --diff --kfuncs)");
				return finish_stdout(2);
			}
			mode = opt;
			break;
		case OPT_WERROR: o->werror = true; given |= GIVEN_WERROR; break;
		case OPT_FORMAT:
			/* bpftool's "format c" */
			if (strcmp(optarg, "c")) {
				cli_error("--format: unknown format '%s': c (with --kfuncs)", optarg);
				return finish_stdout(2);
			}
			o->c_format = true;
			given |= GIVEN_C_FORMAT;
			break;
		case OPT_VMLINUX_H: o->vmlinux_h = optarg; given |= GIVEN_VMLINUX_H; break;
		case OPT_MAX_DECOMPRESSED:
			rc = parse_size(optarg, "--max-decompressed", &o->max_decompressed);
			if (rc)
				return finish_stdout(rc);
			break;
		case OPT_KFUNC_NAMES: o->kfunc_names = optarg; given |= GIVEN_KFUNC_NAMES; break;
		case OPT_USED_BY: o->used_by = optarg; given |= GIVEN_USED_BY; break;
		case 'j': o->json = true; given |= GIVEN_JSON; break;
		case 'p': o->json = true; o->pretty = true; given |= GIVEN_JSON; break;
		case 'v': o->verbose = o->verbose < 0 ? 1 : o->verbose + 1; break;
		case 'q': o->verbose = -1; break;
		case 'h':
			usage(stdout);
			return finish_stdout(0);
		case 'V':
			printf("btf2btf %s (libbpf %s)\n", btf2btf__version(),
			       libbpf_version_string());
			return finish_stdout(0);
		default:
			return finish_stdout(bad_option(opt, argv));
		}
	}
	libbpf_set_print(cli_libbpf_log);
	/* as diff(1): 1 says something of the inputs, 2 is trouble */
	if (mode == OPT_DIFF || mode == OPT_CHECK_PROG)
		o->fail_status = 2;
	/* --features as pahole's --btf_features: the names given, nothing else */
	if (given & (GIVEN_FEATURES | GIVEN_ADD_TAGS))
		o->features = (given & GIVEN_FEATURES ? feats : BTF2BTF_FEATS_DEFAULT) |
			      (add_tags ? BTF2BTF_FEAT_KFUNC_TAGS : 0);

	if ((given & GIVEN_C_FORMAT) && mode != OPT_KFUNCS) {
		cli_error("--format=c is a format of --kfuncs: give --kfuncs --format=c");
		return finish_stdout(2);
	}
	if (given & GIVEN_C_FORMAT)
		mode = MODE_KFUNC_DECLS;
	rc = check_usage(mode, given);
	if (!rc) {
		const char *inputs[] = { optind < argc ? argv[optind] : NULL, o->btf_path,
					 o->base_path };

		cli_heap_reserve(inputs, 3);
		rc = run(mode, argc, argv);
	}
	return finish_stdout(rc);
}
