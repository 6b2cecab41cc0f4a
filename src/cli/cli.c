// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Front-end state and messages: every line the CLI prints to stderr. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

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

int cli_open(const char *path, struct btf2btf **b)
{
	/* the macro zeroes the padding too: the library refuses non-zero
	 * bytes past the fields it knows */
	BTF2BTF_OPTS(opts, .btf_path = cli.btf_path, .base_path = cli.base_path,
		     .distill_base = cli.distill_base, .log = cli_log_cb,
		     .features = cli.features);
	int err = btf2btf__open(path, &opts, b);

	return err ? cli_fail(path, err) : 0;
}

