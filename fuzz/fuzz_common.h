/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the surface targets (fuzz/fuzz_*.c but fuzz_btf2btf.c) share: the
 * failure hook, a private temp dir, files written from the input, the
 * CLI's standard output captured, and a JSON syntax check.
 *
 * Each target defines static int fuzz_one(const uint8_t *, size_t); the
 * libFuzzer entry calls it, and the replay tests (tests/test_fuzz_*.c,
 * with FUZZ_FAIL defined as a test failure) call it on tests/corpus/NAME/
 * and the fixtures.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf2btf.h"

#ifndef FUZZ_FAIL
#define FUZZ_FAIL(why) (fprintf(stderr, "fuzz: %s\n", why), abort())
#endif

/* The errors the library logged since a target last zeroed fuzz_errors,
 * and the last one's text: a target's property that a failure logs its
 * error (FUZZ_VERBOSE=1 prints every line). */
static unsigned int fuzz_errors;
static char fuzz_last_error[512];

static __attribute__((unused)) void fuzz_log(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == BTF2BTF_LOG_ERROR) {
		fuzz_errors++;
		snprintf(fuzz_last_error, sizeof(fuzz_last_error), "%s", msg);
	}
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "log[%d]: %s\n", level, msg);
}

/* The target's temp dir (made once, removed at exit). */
static __attribute__((unused)) const char *fuzz_dir(void)
{
	static char dir[256];

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/btf2btf-fuzz.XXXXXX", tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			FUZZ_FAIL("cannot make a temp dir");
	}
	return dir;
}

/* dir/name, in one of four rotating buffers. */
static __attribute__((unused)) const char *fuzz_path(const char *name)
{
	static char bufs[4][320];
	static unsigned int next;
	char *p = bufs[next++ % 4];

	snprintf(p, sizeof(bufs[0]), "%s/%s", fuzz_dir(), name);
	return p;
}

static __attribute__((unused)) void fuzz_write(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		FUZZ_FAIL("cannot write a temp file");
}

/* ---- JSON: syntax only (RFC 8259), recursive descent ---- */

struct json_in {
	const char *p, *end;
	int depth;
};

static void json_ws(struct json_in *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static bool json_lit(struct json_in *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

static bool json_string(struct json_in *j)
{
	if (j->p >= j->end || *j->p++ != '"')
		return false;
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p++;

		if (c < 0x20)
			return false;	/* control characters must be escaped */
		if (c == '\\') {
			if (j->p >= j->end)
				return false;
			c = (unsigned char)*j->p++;
			if (c == 'u') {
				for (int i = 0; i < 4; i++)
					if (j->p >= j->end || !isxdigit((unsigned char)*j->p++))
						return false;
			} else if (!strchr("\"\\/bfnrt", c)) {
				return false;
			}
		}
	}
	return j->p < j->end && *j->p++ == '"';
}

static bool json_number(struct json_in *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || !isdigit((unsigned char)*j->p))
		return false;
	if (*j->p == '0' && j->p + 1 < j->end && isdigit((unsigned char)j->p[1]))
		return false;	/* no leading zeros */
	while (j->p < j->end && isdigit((unsigned char)*j->p))
		j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || !isdigit((unsigned char)*j->p))
			return false;
		while (j->p < j->end && isdigit((unsigned char)*j->p))
			j->p++;
	}
	return j->p > s;
}

static bool json_value(struct json_in *j)
{
	bool ok = true, first = true;

	if (++j->depth > 64)
		return false;
	json_ws(j);
	if (j->p >= j->end)
		return false;
	if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';
		bool object = close == '}';

		j->p++;
		json_ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return true;
		}
		while (ok) {
			if (!first) {
				json_ws(j);
				if (j->p < j->end && *j->p == close)
					break;
				ok = j->p < j->end && *j->p++ == ',';
			}
			first = false;
			if (ok && object) {
				json_ws(j);
				ok = json_string(j);
				json_ws(j);
				ok = ok && j->p < j->end && *j->p++ == ':';
			}
			ok = ok && json_value(j);
		}
		if (!ok)
			return false;
		j->p++;
	} else if (*j->p == '"') {
		ok = json_string(j);
	} else if (!json_lit(j, "true") && !json_lit(j, "false") && !json_lit(j, "null")) {
		ok = json_number(j);
	}
	j->depth--;
	return ok;
}

/* text holds one or more JSON documents (a view's -j output), nothing else. */
static __attribute__((unused)) bool json_valid(const char *text, size_t len)
{
	struct json_in j = { text, text + len, 0 };
	int docs = 0;

	for (;;) {
		json_ws(&j);
		if (j.p == j.end)
			return docs > 0;
		if (!json_value(&j))
			return false;
		docs++;
	}
}

/* ---- the CLI's output: stdout into memory, stderr nowhere ---- */

struct fuzz_capture {
	char *out;
	size_t len;
	FILE *saved_out, *saved_err;
};

/* ASan writes to fd 2 itself, which stays: only the FILE pointers move */
static __attribute__((unused)) void capture_begin(struct fuzz_capture *c)
{
	c->saved_out = stdout;
	c->saved_err = stderr;
	stdout = open_memstream(&c->out, &c->len);
	stderr = fopen("/dev/null", "w");
	if (!stdout || !stderr)
		FUZZ_FAIL("cannot capture the CLI's output");
}

/* What was printed, if it is to be JSON: it parses. */
static __attribute__((unused)) void capture_end(struct fuzz_capture *c, bool json)
{
	fflush(stdout);
	if (json && c->len && !json_valid(c->out, c->len))
		FUZZ_FAIL("the JSON output does not parse");
	fclose(stdout);
	fclose(stderr);
	stdout = c->saved_out;
	stderr = c->saved_err;
	free(c->out);
	c->out = NULL;
}

/* The libFuzzer entry, left out when a replay test includes the target. */
#ifndef FUZZ_NO_ENTRY
#define FUZZ_ENTRY()								\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);		\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
	{									\
		return fuzz_one(data, size);					\
	}
#else
#define FUZZ_ENTRY()
#endif

#endif /* FUZZ_COMMON_H */
