// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Front-end state and messages: every line the CLI prints to stderr. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct cli_opts cli = { .fail_status = 1 };
static char last_warning[512];

struct cli_opts *cli_opts(void)
{
	return &cli;
}

void cli_log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	switch (level) {
	case BTF2BTF_LOG_ERROR:
		if (!cli.errors++)
			snprintf(cli.first_error, sizeof(cli.first_error), "%s", msg);
		/* libbpf cannot parse split BTF without its base: say which
		 * option (not when it is a distilled base that does not parse) */
		if (!cli.base_path && strstr(msg, ": cannot parse BTF: ") &&
		    !strstr(msg, "distilled base BTF: ") && !strstr(msg, ".BTF.base: "))
			cli.split_without_base = true;
		/* the library's B2B_NOT_SPLIT: the base was given to a vmlinux */
		if (cli.base_path && strstr(msg, ": complete BTF, not split BTF: "))
			cli.base_nonsense = true;
		/* -j: the error goes into the JSON document, as bpftool's do */
		if (!cli.json)
			fprintf(stderr, "btf2btf: error: %s\n", msg);
		break;
	case BTF2BTF_LOG_WARN:
		/* the same warning again (a kfunc in two set8s, the next
		 * object of a run) is said once */
		if (cli.verbose < 0 || (cli.verbose < 1 && !strcmp(msg, last_warning)))
			break;
		snprintf(last_warning, sizeof(last_warning), "%s", msg);
		fprintf(stderr, "btf2btf: warning: %s\n", msg);
		break;
	case BTF2BTF_LOG_INFO:
		if (cli.verbose >= 1)
			fprintf(stderr, "btf2btf: %s\n", msg);
		break;
	case BTF2BTF_LOG_DEBUG:
		if (cli.verbose >= 2)
			fprintf(stderr, "btf2btf: debug: %s\n", msg);
		break;
	}
}

int cli_libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	/* libbpf's messages start with "libbpf: " already */
	if (cli.verbose < 2)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void cli_error(const char *fmt, ...)
{
	char msg[sizeof(cli.first_error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!cli.errors++)
		snprintf(cli.first_error, sizeof(cli.first_error), "%s", msg);
	if (!cli.json)
		fprintf(stderr, "btf2btf: error: %s\n", msg);
}

/* The library logs its failures; say something only if it could not. */
int cli_fail(const char *path, int err)
{
	if (!cli.errors)
		cli_error("%s: %s", path, strerror(err < 0 ? -err : err));
	if (cli.base_nonsense) {
		cli.base_nonsense = false;
		return 2;
	}
	if (cli.split_without_base) {
		fprintf(stderr, "btf2btf: hint: a module's .BTF is split BTF: give its base, "
			"--btf-base vmlinux\n");
		cli.split_without_base = false;
	}
	return 1;
}

int cli_new_side(void)
{
	if (cli.new_base_path)
		cli.base_path = cli.new_base_path;
	return 0;
}

int cli_check_not_own_base(const char *path, const char *base_path)
{
	struct stat a, b;

	if (!base_path || stat(path, &a) || stat(base_path, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		return 0;	/* a file that is not there: the open says so */
	cli_error("%s: given as its own base (-B %s): a base is the vmlinux a module was built against, and it would leave %s no types of its own",
		  path, base_path, path);
	return 2;
}

int cli_fail_open(const char *path, int err)
{
	int status = cli_fail(path, err);

	if (err == -EFBIG)
		fprintf(stderr, "btf2btf: hint: a compressed input may decompress to %llu bytes; "
			"raise that with --max-decompressed=SIZE or BTF2BTF_MAX_DECOMPRESSED\n",
			(unsigned long long)(cli.max_decompressed ? cli.max_decompressed
								  : BTF2BTF_MAX_DECOMPRESSED));
	return status;
}

const char *cli_state_str(enum btf2btf_kfunc_state s)
{
	switch (s) {
	case BTF2BTF_KFUNC_PLAIN: return "plain";
	case BTF2BTF_KFUNC_PENDING: return "pending";
	case BTF2BTF_KFUNC_TRANSFORMED: return "transformed";
	case BTF2BTF_KFUNC_LEGACY: return "legacy";
	case BTF2BTF_KFUNC_ALREADY: return "already_transformed";
	}
	return "?";
}

/*
 * -vv: the plan, a line per kfunc, from the kfunc table the library
 * returns. Formatted here, only when asked: a run without -vv formats
 * nothing per kfunc.
 */
const char *cli_action_name(unsigned int bit, bool json)
{
	static const struct {
		const char *json, *text;
	} names[] = {
		{ "add_impl", "add _impl" },			/* BTF2BTF_ACT_ADD_IMPL */
		{ "use_legacy_impl", "use legacy _impl" },	/* BTF2BTF_ACT_USE_LEGACY */
		{ "reduce_proto", "reduce proto" },		/* BTF2BTF_ACT_REDUCE_PROTO */
		{ "move_param_tags", "move dropped params' tags" }, /* BTF2BTF_ACT_MOVE_TAGS */
		{ "add_kfunc_tag", "add bpf_kfunc tag" },	/* BTF2BTF_ACT_KFUNC_TAG */
		{ "add_fastcall_tag", "add bpf_fastcall tag" },	/* BTF2BTF_ACT_FASTCALL_TAG */
		{ "arena_ret", "arena return" },		/* BTF2BTF_ACT_ARENA_RET */
		{ "arena_args", "arena args" },			/* BTF2BTF_ACT_ARENA_ARGS */
	};

	if (bit >= ARRAY_SIZE(names))
		return NULL;
	return json ? names[bit].json : names[bit].text;
}

void cli_log_plan(const struct btf2btf *b, const char *path)
{
	if (cli.verbose < 2)
		return;
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++) {
		const struct btf2btf_kfunc *kf = btf2btf__kfunc(b, i);
		char buf[512];
		size_t len = 0;

		if (!kf) {	/* the table is made on first use */
			fprintf(stderr, "btf2btf: debug: %s: plan: %s\n", path, strerror(errno));
			return;
		}
		buf[0] = 0;
		for (unsigned int a = 0; cli_action_name(a, false) && len < sizeof(buf); a++) {
			if (!(kf->actions & (1U << a)))
				continue;
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? ", " : "",
					cli_action_name(a, false));
			if ((1U << a) == BTF2BTF_ACT_REDUCE_PROTO && len < sizeof(buf))
				len += snprintf(buf + len, sizeof(buf) - len, " to %u params",
						kf->reduced_params);
			if ((1U << a) == BTF2BTF_ACT_ARENA_ARGS && len < sizeof(buf))
				len += snprintf(buf + len, sizeof(buf) - len, " 0x%llx",
						(unsigned long long)kf->arena_args);
		}
		fprintf(stderr, "btf2btf: debug: %s: plan: kfunc %s [%u]: %s -> %s: %s%s\n", path,
			kf->name, kf->btf_id, cli_state_str(kf->state), cli_state_str(kf->planned),
			len ? buf : "nothing to do", kf->problems ? " (see its problems)" : "");
	}
}

/* CLI_OPEN_QUIET: warnings only with -v (the views report problems their own way). */
static void quiet_log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	if (level == BTF2BTF_LOG_WARN && cli.verbose < 1)
		return;
	cli_log_cb(level, msg, ctx);
}

/* "-": standard input, read whole into *buf (freed by the caller). */
static int read_stdin(void **buf, size_t *size)
{
	size_t cap = 0, len = 0, n;
	char *data = NULL;

	do {
		if (len == cap) {
			char *grown = realloc(data, cap = cap ? cap * 2 : 1 << 20);

			if (!grown) {
				free(data);
				return -ENOMEM;
			}
			data = grown;
		}
		n = fread(data + len, 1, cap - len, stdin);
		len += n;
	} while (n);
	if (ferror(stdin)) {
		free(data);
		return -EIO;
	}
	*buf = data;
	*size = len;
	return 0;
}

int cli_open(const char *path, unsigned int how, struct btf2btf **b)
{
	/* the macro zeroes the padding too: the library refuses non-zero
	 * bytes past the fields it knows */
	BTF2BTF_OPTS(opts, .btf_path = cli.btf_path, .base_path = cli.base_path,
		     .distill_base = cli.distill_base,
		     .log = how & CLI_OPEN_QUIET ? quiet_log_cb : cli_log_cb,
		     .lenient = how & CLI_OPEN_LENIENT, .features = cli.features,
		     .base_btf = cli.base_btf, .max_decompressed = cli.max_decompressed);
	void *input = NULL;
	size_t size = 0;
	int err;

	/* "-" as cat(1) takes it: the bytes of one object, copied by the library */
	if (!strcmp(path, "-")) {
		err = read_stdin(&input, &size);
		if (err) {
			cli_error("-: cannot read standard input: %s", strerror(-err));
			return 1;
		}
		err = btf2btf__open_mem(input, size, path, &opts, b);
		free(input);
	} else {
		err = btf2btf__open(path, &opts, b);
	}

	if (err)
		return cli_fail_open(path, err);
	cli_log_plan(*b, path);
	return 0;
}

char *cli_strfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}
