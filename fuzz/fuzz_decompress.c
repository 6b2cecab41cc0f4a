// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: compressed streams (compress.c, extent.c).
 *
 *   input = 1 mode byte + bytes
 *   mode & 3: 0 xz, 1 zstd, 2 gzip (3: by the bytes' own magic)
 *   mode & 4: the bytes are first compressed by the library (a valid
 *             stream of fuzzed contents), else they are the stream
 *
 * Decompressed under a 1 MiB limit. Properties beyond no crash, leak or UB:
 *   - a refusal is logged and names the format; an accepted stream's
 *     bytes are at most the limit plus a signature's slack, start with ELF
 *     or BTF magic, and span no less than their headers claim;
 *   - what the library compressed decompresses to the same bytes, or is
 *     refused only because they are no ELF object or raw BTF (-ENOEXEC)
 *     or go on past the object (-EBADMSG), never as corrupt;
 *   - decompressing an accepted stream's output compressed again gives it
 *     back (the writer's round trip).
 */
#include <errno.h>

#include "format/compress.h"
#include "format/extent.h"
#include "fuzz_common.h"

#define LIMIT		(1U << 20)

static int fuzz_one(const uint8_t *data, size_t size)
{
	static const enum b2b_compression formats[] = {
		B2B_COMPRESS_XZ, B2B_COMPRESS_ZSTD, B2B_COMPRESS_GZIP,
	};
	struct b2b_log log = { .fn = fuzz_log, .path = "fuzz-stream" };
	enum b2b_compression c;
	void *stream = NULL, *plain = NULL, *again = NULL, *back = NULL;
	size_t stream_size, plain_size, again_size, back_size;
	struct b2b_extent x;
	bool ours;
	int err;

	if (!size)
		return 0;
	ours = data[0] & 4;
	c = (data[0] & 3) == 3 ? b2b_compression_of(data + 1, size - 1) : formats[data[0] & 3];
	if (c == B2B_COMPRESS_NONE)
		return 0;
	if (ours) {
		if (b2b_compress(c, data + 1, size - 1, &stream, &stream_size, &log))
			FUZZ_FAIL("the library cannot compress what it was given");
	} else {
		stream = malloc(size - 1 ? size - 1 : 1);
		memcpy(stream, data + 1, size - 1);
		stream_size = size - 1;
	}
	fuzz_errors = 0;
	err = b2b_decompress(c, stream, stream_size, LIMIT, &plain, &plain_size, &log);
	if (err) {
		if (fuzz_errors != 1 || !strstr(fuzz_last_error, b2b_compression_name(c)))
			FUZZ_FAIL("a refused stream is not one message naming its format");
		if (ours && err != -ENOEXEC && err != -EBADMSG && err != -EFBIG)
			FUZZ_FAIL("the library's own stream refused as corrupt");
		goto out;
	}
	if (ours && (plain_size != size - 1 || memcmp(plain, data + 1, plain_size)))
		FUZZ_FAIL("the library's own stream decompressed to other bytes");
	if (plain_size > LIMIT)
		FUZZ_FAIL("more bytes than the limit let through");
	if (b2b_extent_of(plain, plain_size, &x) && plain_size >= 4)
		FUZZ_FAIL("bytes that are no ELF object or raw BTF let through");
	/* fewer bytes than claimed is a truncated object, for its reader to
	 * refuse; more is a module signature at most */
	if (x.known && plain_size > x.end + (64U << 10))
		FUZZ_FAIL("more bytes past the object than a signature let through");
	/* the writer's round trip: compressed again, read back the same */
	if (b2b_compress(c, plain, plain_size, &again, &again_size, &log) ||
	    b2b_decompress(c, again, again_size, LIMIT + (1U << 17), &back, &back_size, &log) ||
	    back_size != plain_size || memcmp(back, plain, plain_size))
		FUZZ_FAIL("what was read does not survive being written and read again");
out:
	free(stream);
	free(plain);
	free(again);
	free(back);
	return 0;
}

FUZZ_ENTRY()
