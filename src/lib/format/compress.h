/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Compressed modules (.ko.xz, .ko.zst, .ko.gz), as modinfo reads them and
 * Kbuild's scripts/Makefile.modinst writes them. */
#ifndef BTF2BTF_COMPRESS_H
#define BTF2BTF_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"

enum b2b_compression {
	B2B_COMPRESS_NONE,
	B2B_COMPRESS_XZ,
	B2B_COMPRESS_ZSTD,
	B2B_COMPRESS_GZIP,
};

/* The compression data starts with (its magic), B2B_COMPRESS_NONE if none. */
enum b2b_compression b2b_compression_of(const void *data, size_t size);
/* "xz", "zstd", "gzip". */
const char *b2b_compression_name(enum b2b_compression c);

/*
 * All of data decompressed into a malloc'd *out: 0, or a negative errno
 * logged (log names the input). Refused early, before the stream is read
 * to its end: -ENOEXEC when the first bytes are not an ELF object or raw
 * BTF; -EFBIG past limit bytes (0: BTF2BTF_MAX_DECOMPRESSED) or when the
 * headers claim more; -EBADMSG when it goes on past the object's end by
 * more than a module signature, or is corrupt or truncated.
 */
int b2b_decompress(enum b2b_compression c, const void *data, size_t size, uint64_t limit,
		   void **out, size_t *out_size, const struct b2b_log *log);

/* data compressed as Kbuild compresses modules (xz --check=crc32
 * --lzma2=dict=1MiB; zstd at its default level; gzip -n), into a malloc'd *out. */
int b2b_compress(enum b2b_compression c, const void *data, size_t size,
		 void **out, size_t *out_size, const struct b2b_log *log);

#endif /* BTF2BTF_COMPRESS_H */
