// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: BTF headers and the layout section (btf_format.c),
 * either byte order, 24- and 32-byte headers: the input is raw BTF.
 * Properties beyond no crash, leak or UB:
 *   - a refusal is logged, one message naming the input;
 *   - what is read writes back (in the format it was read in) to bytes
 *     that read again to the same native BTF and the same format;
 *   - the same BTF written in the other byte order reads back the same.
 */
#include <errno.h>

#include "format/btf_format.h"
#include "fuzz_common.h"

static unsigned int logged;

static void log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == BTF2BTF_LOG_ERROR) {
		logged++;
		if (!strstr(msg, "fuzz-btf"))
			FUZZ_FAIL("a message does not name the input");
	}
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "log[%d]: %s\n", level, msg);
}

static const struct b2b_log log_ = { .fn = log_cb, .path = "" };

/* bytes read with fmt: written with it, read again: the same native bytes */
static void round_trip(const void *native, size_t size, const struct b2b_btf_format *fmt)
{
	struct b2b_btf_format back;
	void *out, *again;
	size_t out_size, again_size;

	if (b2b_btf_write(native, size, fmt, &out, &out_size))
		FUZZ_FAIL("BTF that was read cannot be written in its format");
	if (b2b_btf_read(out, out_size, "fuzz-btf (written)", &log_, &again, &again_size, &back))
		FUZZ_FAIL("BTF written in its format does not read again");
	if (again_size != size || memcmp(again, native, size) || back.swapped != fmt->swapped ||
	    back.nr_layout < fmt->nr_layout)
		FUZZ_FAIL("BTF written and read again is not the same");
	if (again != out)
		free(again);
	free(out);
	b2b_btf_format_free(&back);
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	struct b2b_btf_format fmt;
	void *native;
	size_t native_size;
	int err;

	logged = 0;
	err = b2b_btf_read(data, size, "fuzz-btf", &log_, &native, &native_size, &fmt);
	if (err) {
		if (logged != 1)
			FUZZ_FAIL("a refusal is not exactly one message");
		return 0;
	}
	round_trip(native, native_size, &fmt);
	fmt.swapped = !fmt.swapped;
	round_trip(native, native_size, &fmt);
	fmt.swapped = !fmt.swapped;
	if (native != (const void *)data)
		free(native);
	b2b_btf_format_free(&fmt);
	return 0;
}

FUZZ_ENTRY()
