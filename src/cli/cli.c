// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Front-end state and messages: every line the CLI prints to stderr. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct cli_opts cli;

struct cli_opts *cli_opts(void)
{
	return &cli;
}

void cli_log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	switch (level) {
	case BTF2BTF_LOG_ERROR:
		cli.errors++;
		fprintf(stderr, "btf2btf: error: %s\n", msg);
		break;
	case BTF2BTF_LOG_WARN:
		if (cli.verbose >= 0)
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
	if (cli.verbose < 2)
		return 0;
	fputs("libbpf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	cli.errors++;
	fputs("btf2btf: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The library logs its failures; say something only if it could not. */
int cli_fail(const char *path, int err)
{
	if (!cli.errors)
		cli_error("%s: %s", path, strerror(err < 0 ? -err : err));
	return 1;
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
 * returns. Formatted here, only when asked: the library formatting it for
 * every open cost a twentieth of a run at 10,000 kfuncs.
 */
void cli_log_plan(const struct btf2btf *b, const char *path)
{
	static const char *const acts[] = { "add _impl", "use legacy _impl", "reduce proto",
					    "move dropped params' tags", "add bpf_kfunc tag",
					    "add bpf_fastcall tag", "arena return", "arena args" };

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
		for (unsigned int a = 0; a < ARRAY_SIZE(acts) && len < sizeof(buf); a++) {
			if (!(kf->actions & (1U << a)))
				continue;
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? ", " : "", acts[a]);
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

int cli_open(const char *path, struct btf2btf **b)
{
	/* the macro zeroes the padding too: the library refuses non-zero
	 * bytes past the fields it knows */
	BTF2BTF_OPTS(opts, .btf_path = cli.btf_path, .base_path = cli.base_path,
		     .distill_base = cli.distill_base, .log = cli_log_cb,
		     .features = cli.features);
	int err = btf2btf__open(path, &opts, b);

	if (err)
		return cli_fail(path, err);
	cli_log_plan(*b, path);
	return 0;
}

