// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Message formatting: every message names the file it is about. */
#include <stdio.h>
#include <string.h>

#include "util/internal.h"

static void vlog(const struct b2b_log *log, enum btf2btf_log_level level,
		 const char *fmt, va_list ap)
{
	char msg[1024];
	int n = 0;

	if (!log || !log->fn)
		return;
	if (log->path)
		n = snprintf(msg, sizeof(msg), "%s: ", log->path);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	log->fn(level, msg, log->ctx);
}

void b2b_log(const struct b2b_log *log, enum btf2btf_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(log, level, fmt, ap);
	va_end(ap);
}

void b2b_warn(const struct b2b_log *log, const char *fmt, ...)
{
	va_list ap;

	if (log && log->warnings)
		(*log->warnings)++;
	va_start(ap, fmt);
	vlog(log, BTF2BTF_LOG_WARN, fmt, ap);
	va_end(ap);
}

int b2b_errno(const struct b2b_log *log, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(log, BTF2BTF_LOG_ERROR, fmt, ap);
	va_end(ap);
	return err;
}
