// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Compressed modules. Kbuild (CONFIG_MODULE_COMPRESS_*, scripts/Makefile.modinst
 * of 7.3) installs NAME.ko.xz (xz --check=crc32 --lzma2=dict=1MiB),
 * NAME.ko.zst (zstd) or NAME.ko.gz (gzip -n); Debian ships its 7.x modules as
 * .ko.xz. They are read whole into memory (libkmod does the same for modinfo)
 * and written back the way Kbuild wrote them.
 */
#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "compress.h"

enum b2b_compression b2b_compression_of(const void *data, size_t size)
{
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const unsigned char gz[] = { 0x1f, 0x8b };

	if (size >= sizeof(xz) && !memcmp(data, xz, sizeof(xz)))
		return B2B_COMPRESS_XZ;
	if (size >= sizeof(zst) && !memcmp(data, zst, sizeof(zst)))
		return B2B_COMPRESS_ZSTD;
	if (size >= sizeof(gz) && !memcmp(data, gz, sizeof(gz)))
		return B2B_COMPRESS_GZIP;
	return B2B_COMPRESS_NONE;
}

const char *b2b_compression_name(enum b2b_compression c)
{
	switch (c) {
	case B2B_COMPRESS_XZ: return "xz";
	case B2B_COMPRESS_ZSTD: return "zstd";
	case B2B_COMPRESS_GZIP: return "gzip";
	default: return "none";
	}
}

/* A growing output buffer: room for at least more bytes past len. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

static int buf_room(struct buf *b, size_t more)
{
	return b2b_grow((void **)&b->p, &b->cap, b->len + more, 1);
}

/* Decompressed sizes are refused past this: a module is megabytes, a
 * vmlinux under a gigabyte; a "zip bomb" would take all memory. */
#define MAX_DECOMPRESSED	(4ULL << 30)

static int xz_run(lzma_stream *s, const void *data, size_t size, struct buf *out, bool decode)
{
	lzma_ret ret;

	s->next_in = data;
	s->avail_in = size;
	do {
		if (buf_room(out, 1 << 16))
			return -ENOMEM;
		s->next_out = out->p + out->len;
		s->avail_out = out->cap - out->len;
		ret = lzma_code(s, LZMA_FINISH);
		out->len = out->cap - s->avail_out;
		if (out->len > MAX_DECOMPRESSED)
			return -EFBIG;
	} while (ret == LZMA_OK);
	if (ret == LZMA_MEM_ERROR)
		return -ENOMEM;
	return ret == LZMA_STREAM_END ? 0 : decode ? -EBADMSG : -EINVAL;
}

static int xz_decompress(const void *data, size_t size, struct buf *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	int err;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	err = xz_run(&s, data, size, out, true);
	lzma_end(&s);
	return err;
}

/* xz --check=crc32 --lzma2=dict=1MiB: preset 6 with a 1 MiB dictionary */
static int xz_compress(const void *data, size_t size, struct buf *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_options_lzma opt;
	lzma_filter filters[2];
	int err;

	if (lzma_lzma_preset(&opt, LZMA_PRESET_DEFAULT))
		return -EINVAL;
	opt.dict_size = 1U << 20;
	filters[0] = (lzma_filter){ .id = LZMA_FILTER_LZMA2, .options = &opt };
	filters[1] = (lzma_filter){ .id = LZMA_VLI_UNKNOWN };
	if (lzma_stream_encoder(&s, filters, LZMA_CHECK_CRC32) != LZMA_OK)
		return -ENOMEM;
	err = xz_run(&s, data, size, out, false);
	lzma_end(&s);
	return err;
}

static int zstd_decompress(const void *data, size_t size, struct buf *out)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer in = { data, size, 0 };
	size_t ret = 1;
	int err = 0;

	if (!ds)
		return -ENOMEM;
	/* frames one after the other, as zstd -d reads them */
	for (;;) {
		ZSTD_outBuffer o;

		if (buf_room(out, ZSTD_DStreamOutSize())) {
			err = -ENOMEM;
			break;
		}
		o = (ZSTD_outBuffer){ out->p, out->cap, out->len };
		ret = ZSTD_decompressStream(ds, &o, &in);
		out->len = o.pos;
		if (ZSTD_isError(ret))
			err = -EBADMSG;
		else if (out->len > MAX_DECOMPRESSED)
			err = -EFBIG;
		else if (!ret && in.pos == in.size)
			break;		/* the last frame is complete */
		else if (in.pos == in.size && o.pos < o.size)
			err = -EBADMSG;	/* truncated: it wants more input */
		if (err)
			break;
	}
	ZSTD_freeDStream(ds);
	return err;
}

/* zstd's command line at its default level (Kbuild passes none) */
static int zstd_compress(const void *data, size_t size, struct buf *out)
{
	size_t bound = ZSTD_compressBound(size), n;

	if (buf_room(out, bound))
		return -ENOMEM;
	n = ZSTD_compress(out->p, bound, data, size, ZSTD_CLEVEL_DEFAULT);
	if (ZSTD_isError(n))
		return -EINVAL;
	out->len = n;
	return 0;
}

static int gzip_run(z_stream *z, struct buf *out, bool decode)
{
	int ret;

	do {
		if (buf_room(out, 1 << 16))
			return -ENOMEM;
		z->next_out = out->p + out->len;
		z->avail_out = (uInt)(out->cap - out->len > UINT32_MAX ? UINT32_MAX
								       : out->cap - out->len);
		ret = decode ? inflate(z, Z_NO_FLUSH) : deflate(z, Z_FINISH);
		out->len = z->next_out - out->p;
		if (out->len > MAX_DECOMPRESSED)
			return -EFBIG;
	} while (ret == Z_OK || (ret == Z_BUF_ERROR && z->avail_in));
	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	return ret == Z_STREAM_END ? 0 : -EBADMSG;
}

static int gzip_code(const void *data, size_t size, struct buf *out, bool decode)
{
	z_stream z = { 0 };
	int err;

	if (size > UINT32_MAX)
		return -EFBIG;
	/* 16 + MAX_WBITS: the gzip wrapper; deflate writes a header without
	 * name or time, as gzip -n */
	if (decode ? inflateInit2(&z, 16 + MAX_WBITS)
		   : deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
				  Z_DEFAULT_STRATEGY))
		return -ENOMEM;
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)size;
	err = gzip_run(&z, out, decode);
	if (decode)
		inflateEnd(&z);
	else
		deflateEnd(&z);
	return err;
}

static int run(enum b2b_compression c, const void *data, size_t size, void **out,
	       size_t *out_size, bool decode, const struct b2b_log *log)
{
	struct buf b = { 0 };
	int err;

	switch (c) {
	case B2B_COMPRESS_XZ:
		err = decode ? xz_decompress(data, size, &b) : xz_compress(data, size, &b);
		break;
	case B2B_COMPRESS_ZSTD:
		err = decode ? zstd_decompress(data, size, &b) : zstd_compress(data, size, &b);
		break;
	case B2B_COMPRESS_GZIP:
		err = gzip_code(data, size, &b, decode);
		break;
	default:
		err = -EINVAL;
	}
	if (err) {
		free(b.p);
		if (err == -ENOMEM)
			return b2b_errno(log, err, "out of memory");
		if (err == -EFBIG)
			return b2b_errno(log, err, "%s data of more than %llu bytes: refused",
					 b2b_compression_name(c), MAX_DECOMPRESSED);
		return b2b_errno(log, err, decode ? "%s data is corrupt or truncated"
						  : "cannot compress with %s", b2b_compression_name(c));
	}
	*out = b.p;
	*out_size = b.len;
	return 0;
}

int b2b_decompress(enum b2b_compression c, const void *data, size_t size,
		   void **out, size_t *out_size, const struct b2b_log *log)
{
	return run(c, data, size, out, out_size, true, log);
}

int b2b_compress(enum b2b_compression c, const void *data, size_t size,
		 void **out, size_t *out_size, const struct b2b_log *log)
{
	return run(c, data, size, out, out_size, false, log);
}
