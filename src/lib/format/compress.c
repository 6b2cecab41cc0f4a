// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Compressed modules. Kbuild (CONFIG_MODULE_COMPRESS_*, scripts/Makefile.modinst
 * of 7.3) installs NAME.ko.xz (xz --check=crc32 --lzma2=dict=1MiB),
 * NAME.ko.zst (zstd) or NAME.ko.gz (gzip -n); Debian ships its 7.x modules as
 * .ko.xz. They are read whole into memory (libkmod does the same for modinfo)
 * and written back the way Kbuild wrote them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <lzma.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "format/compress.h"
#include "format/extent.h"

/*
 * liblzma and libzstd are loaded when data compressed with them is met,
 * not at every start (as systemd loads them): each library a process links
 * costs its start 0.1-0.2 ms and six page faults (20 us each on a VM),
 * and most runs read uncompressed objects. zlib stays linked: libelf needs
 * it anyway. The headers give the functions' types; the sonames are those
 * of the ABI the headers describe.
 */
struct xz_api {
	__typeof__(lzma_stream_decoder) *stream_decoder;
	__typeof__(lzma_stream_encoder) *stream_encoder;
	__typeof__(lzma_lzma_preset) *lzma_preset;
	__typeof__(lzma_code) *code;
	__typeof__(lzma_end) *end;
};

struct zstd_api {
	__typeof__(ZSTD_createDStream) *create_dstream;
	__typeof__(ZSTD_freeDStream) *free_dstream;
	__typeof__(ZSTD_DStreamOutSize) *dstream_out_size;
	__typeof__(ZSTD_decompressStream) *decompress_stream;
	__typeof__(ZSTD_isError) *is_error;
	__typeof__(ZSTD_compressBound) *compress_bound;
	__typeof__(ZSTD_compress) *compress;
};

/* A library loaded once for the process, or why it could not be. */
struct lib {
	const char *soname;
	const char *const *symbols;	/* in the order of the api's pointers */
	void *api;			/* struct xz_api or zstd_api */
	size_t nr;
	pthread_once_t once;
	bool loaded;
	char why[200];
};

static struct xz_api xz;
static const char *const xz_symbols[] = {
	"lzma_stream_decoder", "lzma_stream_encoder", "lzma_lzma_preset", "lzma_code", "lzma_end",
};
static struct lib xz_lib = {
	"liblzma.so.5", xz_symbols, &xz, sizeof(xz) / sizeof(void *), PTHREAD_ONCE_INIT,
};

static struct zstd_api zstd;
static const char *const zstd_symbols[] = {
	"ZSTD_createDStream", "ZSTD_freeDStream", "ZSTD_DStreamOutSize",
	"ZSTD_decompressStream", "ZSTD_isError", "ZSTD_compressBound", "ZSTD_compress",
};
static struct lib zstd_lib = {
	"libzstd.so.1", zstd_symbols, &zstd, sizeof(zstd) / sizeof(void *),
	PTHREAD_ONCE_INIT,
};

_Static_assert(sizeof(xz.code) == sizeof(void *) && sizeof(zstd.compress) == sizeof(void *),
	       "a function's address is the size of a void * (POSIX)");
_Static_assert(sizeof(xz_symbols) / sizeof(*xz_symbols) == sizeof(xz) / sizeof(void *),
	       "a name for every pointer of struct xz_api");
_Static_assert(sizeof(zstd_symbols) / sizeof(*zstd_symbols) == sizeof(zstd) / sizeof(void *),
	       "a name for every pointer of struct zstd_api");

static void lib_load(struct lib *l)
{
	/* test builds: BTF2BTF_FAULT=dlopen, the library missing */
	void *h = b2b_fault_at("dlopen") ? NULL : dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	const char *err = h ? NULL : dlerror();

	for (size_t i = 0; h && i < l->nr; i++) {
		void *sym = dlsym(h, l->symbols[i]);

		if (!sym) {
			err = dlerror();
			h = NULL;	/* left loaded, unused */
			break;
		}
		/* into the i-th function pointer: POSIX gives a function's
		 * address the size and form of a void * (dlsym's own use) */
		memcpy((char *)l->api + i * sizeof(sym), &sym, sizeof(sym));
	}
	l->loaded = h != NULL;
	if (!l->loaded)
		snprintf(l->why, sizeof(l->why), "%s", err ? err : "fault injected");
}

static void xz_load(void)
{
	lib_load(&xz_lib);
}

static void zstd_load(void)
{
	lib_load(&zstd_lib);
}

/* 0, or -ELIBACC with *why set (for the message). */
static int lib_get(struct lib *l, void (*load)(void), const char **why)
{
	pthread_once(&l->once, load);
	*why = l->why;
	return l->loaded ? 0 : -ELIBACC;
}

enum b2b_compression b2b_compression_of(const void *data, size_t size)
{
	static const unsigned char xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	static const unsigned char zst_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const unsigned char gz_magic[] = { 0x1f, 0x8b };

	if (size >= sizeof(xz_magic) && !memcmp(data, xz_magic, sizeof(xz_magic)))
		return B2B_COMPRESS_XZ;
	if (size >= sizeof(zst_magic) && !memcmp(data, zst_magic, sizeof(zst_magic)))
		return B2B_COMPRESS_ZSTD;
	if (size >= sizeof(gz_magic) && !memcmp(data, gz_magic, sizeof(gz_magic)))
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

/*
 * What decompressed bytes may grow to. A hostile stream (a "zip bomb": 1 MB
 * of zstd is 30 GiB of zeros) is stopped early, not when memory runs out:
 * its first bytes must start an ELF object or raw BTF, the size their
 * headers claim must be within the limit, and once the headers are read the
 * stream may not go on past the object by more than a module signature.
 */
struct guard {
	uint64_t limit;
	struct b2b_extent x;	/* what the bytes so far say they span */
	const char *format;	/* "xz", ... for messages */
	const struct b2b_log *log;
	bool refused;		/* the guard stopped the stream (and logged why) */
};

/* An appended module signature (modsig.c) past the ELF's end: PKCS#7 of
 * one signer without certificates (sign-file) is about a kilobyte */
#define TRAILER_MAX	(64U << 10)

/* 0 while the bytes so far may be what they claim, or the refusal logged. */
static int guard_verdict(struct guard *g, const struct buf *out)
{
	const unsigned char *p = out->p;
	int err;

	if (!g->x.known && out->len >= g->x.end) {
		err = b2b_extent_of(out->p, out->len, &g->x);
		if (err)
			return b2b_errno(g->log, -ENOEXEC,
					 "%s data holds %s (it starts with %02x %02x %02x %02x): refused",
					 g->format, g->x.why, p[0], p[1], p[2], p[3]);
		if (g->x.end > g->limit)
			return b2b_errno(g->log, -EFBIG,
					 "%s data holds an object whose headers say it spans %llu bytes, more than the limit of %llu bytes decompressed: refused",
					 g->format, (unsigned long long)g->x.end,
					 (unsigned long long)g->limit);
	}
	if (out->len > g->limit)
		return b2b_errno(g->log, -EFBIG,
				 "%s data decompresses to more than the limit of %llu bytes: refused",
				 g->format, (unsigned long long)g->limit);
	if (g->x.known && out->len > g->x.end && out->len - g->x.end > TRAILER_MAX)
		return b2b_errno(g->log, -EBADMSG,
				 "%s data goes on past the end of the object it holds (%llu bytes) by more than %u bytes: refused",
				 g->format, (unsigned long long)g->x.end, TRAILER_MAX);
	return 0;
}

static int guard_check(struct guard *g, const struct buf *out)
{
	int err = guard_verdict(g, out);

	g->refused = err;
	return err;
}

/* Room for up to want more bytes, as far as the guard lets the output
 * grow, and one byte past that to tell a stream that goes on: *avail is
 * what the decoder may write now. Encoding (no guard): want, unbounded. */
static int guard_room(const struct guard *g, struct buf *out, size_t want, size_t *avail)
{
	uint64_t may, left = SIZE_MAX;

	if (g) {
		may = g->x.known && g->x.end + TRAILER_MAX < g->limit ? g->x.end + TRAILER_MAX
								       : g->limit;
		left = may + 1 > out->len ? may + 1 - out->len : 1;
		if (want > left)
			want = left;
	}
	if (buf_room(out, want))
		return -ENOMEM;
	*avail = out->cap - out->len;
	if (*avail > left)
		*avail = left;
	return 0;
}

/* Encoding with liblzma, or decoding under a guard g (else NULL). */
static int xz_run(lzma_stream *s, const void *data, size_t size, struct buf *out,
		  struct guard *g)
{
	lzma_ret ret;
	int err;

	s->next_in = data;
	s->avail_in = size;
	do {
		if (guard_room(g, out, 1 << 16, &s->avail_out))
			return -ENOMEM;
		s->next_out = out->p + out->len;
		ret = xz.code(s, LZMA_FINISH);
		out->len = s->next_out - out->p;
		if (g && (err = guard_check(g, out)))
			return err;
	} while (ret == LZMA_OK);
	if (ret == LZMA_MEM_ERROR)
		return -ENOMEM;
	return ret == LZMA_STREAM_END ? 0 : g ? -EBADMSG : -EINVAL;
}

static int xz_decompress(const void *data, size_t size, struct buf *out, struct guard *g)
{
	lzma_stream s = LZMA_STREAM_INIT;
	int err;

	if (xz.stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	err = xz_run(&s, data, size, out, g);
	xz.end(&s);
	return err;
}

/* xz --check=crc32 --lzma2=dict=1MiB: preset 6 with a 1 MiB dictionary */
static int xz_compress(const void *data, size_t size, struct buf *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_options_lzma opt;
	lzma_filter filters[2];
	int err;

	if (xz.lzma_preset(&opt, LZMA_PRESET_DEFAULT))
		return -EINVAL;
	opt.dict_size = 1U << 20;
	filters[0] = (lzma_filter){ .id = LZMA_FILTER_LZMA2, .options = &opt };
	filters[1] = (lzma_filter){ .id = LZMA_VLI_UNKNOWN };
	if (xz.stream_encoder(&s, filters, LZMA_CHECK_CRC32) != LZMA_OK)
		return -ENOMEM;
	err = xz_run(&s, data, size, out, NULL);
	xz.end(&s);
	return err;
}

static int zstd_decompress(const void *data, size_t size, struct buf *out, struct guard *g)
{
	ZSTD_DStream *ds = zstd.create_dstream();
	ZSTD_inBuffer in = { data, size, 0 };
	size_t ret = 1;
	int err = 0;

	if (!ds)
		return -ENOMEM;
	/* frames one after the other, as zstd -d reads them */
	for (;;) {
		ZSTD_outBuffer o;
		size_t avail;

		if (guard_room(g, out, zstd.dstream_out_size(), &avail)) {
			err = -ENOMEM;
			break;
		}
		o = (ZSTD_outBuffer){ out->p, out->len + avail, out->len };
		ret = zstd.decompress_stream(ds, &o, &in);
		out->len = o.pos;
		if (zstd.is_error(ret))
			err = -EBADMSG;
		else if ((err = guard_check(g, out)))
			;
		else if (!ret && in.pos == in.size)
			break;		/* the last frame is complete */
		else if (in.pos == in.size && o.pos < o.size)
			err = -EBADMSG;	/* truncated: it wants more input */
		if (err)
			break;
	}
	zstd.free_dstream(ds);
	return err;
}

/* zstd's command line at its default level (Kbuild passes none) */
static int zstd_compress(const void *data, size_t size, struct buf *out)
{
	size_t bound = zstd.compress_bound(size), n;

	if (buf_room(out, bound))
		return -ENOMEM;
	n = zstd.compress(out->p, bound, data, size, ZSTD_CLEVEL_DEFAULT);
	if (zstd.is_error(n))
		return -EINVAL;
	out->len = n;
	return 0;
}

/* Encoding with zlib, or decoding under a guard g (else NULL). */
static int gzip_run(z_stream *z, struct buf *out, struct guard *g)
{
	size_t avail;
	int ret, err;

	do {
		if (guard_room(g, out, 1 << 16, &avail))
			return -ENOMEM;
		z->next_out = out->p + out->len;
		z->avail_out = (uInt)(avail > UINT32_MAX ? UINT32_MAX : avail);
		ret = g ? inflate(z, Z_NO_FLUSH) : deflate(z, Z_FINISH);
		out->len = z->next_out - out->p;
		if (g && (err = guard_check(g, out)))
			return err;
		/* members one after the other, as gzip -d reads them */
		if (g && ret == Z_STREAM_END && z->avail_in)
			ret = inflateReset(z);
	} while (ret == Z_OK || (ret == Z_BUF_ERROR && z->avail_in));
	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	return ret == Z_STREAM_END ? 0 : -EBADMSG;
}

static int gzip_code(const void *data, size_t size, struct buf *out, struct guard *g)
{
	z_stream z = { 0 };
	int err;

	if (size > UINT32_MAX)
		return -EFBIG;
	/* 16 + MAX_WBITS: the gzip wrapper; deflate writes a header without
	 * name or time, as gzip -n */
	if (g ? inflateInit2(&z, 16 + MAX_WBITS)
	      : deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
			     Z_DEFAULT_STRATEGY))
		return -ENOMEM;
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)size;
	err = gzip_run(&z, out, g);
	if (g)
		inflateEnd(&z);
	else
		deflateEnd(&z);
	return err;
}

/* Decoding when g is not NULL, else encoding. */
static int run(enum b2b_compression c, const void *data, size_t size, void **out,
	       size_t *out_size, struct guard *g, const struct b2b_log *log)
{
	struct buf b = { 0 };
	const char *why = NULL;
	int err;

	switch (c) {
	case B2B_COMPRESS_XZ:
		err = lib_get(&xz_lib, xz_load, &why);
		if (!err)
			err = g ? xz_decompress(data, size, &b, g) : xz_compress(data, size, &b);
		break;
	case B2B_COMPRESS_ZSTD:
		err = lib_get(&zstd_lib, zstd_load, &why);
		if (!err)
			err = g ? zstd_decompress(data, size, &b, g) : zstd_compress(data, size, &b);
		break;
	case B2B_COMPRESS_GZIP:
		err = gzip_code(data, size, &b, g);
		break;
	default:
		err = -EINVAL;
	}
	if (err) {
		free(b.p);
		if (err == -ELIBACC)
			return b2b_errno(log, err, "%s data needs %s, which cannot be loaded: %s",
					 b2b_compression_name(c), c == B2B_COMPRESS_XZ ? xz_lib.soname
					 : zstd_lib.soname, why);
		if (err == -ENOMEM)
			return b2b_errno(log, err, "out of memory");
		/* the guard's refusals are logged already */
		if (g && g->refused)
			return err;
		return b2b_errno(log, err, g ? "%s data is corrupt or truncated"
					     : "cannot compress with %s", b2b_compression_name(c));
	}
	*out = b.p;
	*out_size = b.len;
	return 0;
}

int b2b_decompress(enum b2b_compression c, const void *data, size_t size, uint64_t limit,
		   void **out, size_t *out_size, const struct b2b_log *log)
{
	struct guard g = {
		.limit = limit ? limit : BTF2BTF_MAX_DECOMPRESSED,
		.format = b2b_compression_name(c),
		.log = log,
	};

	/* a limit past what this process can address is no limit */
	if (g.limit > SIZE_MAX - TRAILER_MAX - 1)
		g.limit = SIZE_MAX - TRAILER_MAX - 1;
	return run(c, data, size, out, out_size, &g, log);
}

int b2b_compress(enum b2b_compression c, const void *data, size_t size,
		 void **out, size_t *out_size, const struct b2b_log *log)
{
	return run(c, data, size, out, out_size, NULL, log);
}
