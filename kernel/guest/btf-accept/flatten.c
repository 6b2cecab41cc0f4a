// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * btf-flatten: make a raw BTF file that BPF_BTF_LOAD takes, for the guests'
 * acceptance test (btf_accept.c), keeping the bytes the tool under test wrote.
 *
 *   btf-flatten [-e little|big] [-b BASE] IN OUT
 *
 * IN (and BASE) are raw BTF. Without -b, IN is copied as it is. With -b,
 * IN is split BTF on BASE: BPF_BTF_LOAD takes no base, so OUT is one BTF
 * whose type section is BASE's followed by IN's and whose string section is
 * BASE's followed by IN's. That is exactly the BTF the split one describes:
 * IN's type ids continue BASE's and its string offsets start at the end of
 * BASE's strings. A file not in the byte order of -e (default: the host's)
 * is first rewritten in that order by libbpf; only then are its bytes not
 * the ones the tool wrote.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <linux/btf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct raw {
	unsigned char *data;
	size_t size;
	struct btf_header hdr;		/* in the host's byte order */
};

static bool swapped;			/* the target byte order is not the host's */

static __u32 host32(__u32 v) { return swapped ? __builtin_bswap32(v) : v; }

static void die(const char *what, const char *why)
{
	fprintf(stderr, "btf-flatten: %s: %s\n", what, why);
	exit(1);
}

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		die(path, strerror(errno));
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf)
				die(path, strerror(ENOMEM));
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f))
		die(path, strerror(errno));
	fclose(f);
	*size = n;
	return buf;
}

/* the raw bytes of PATH in the byte order ENDIAN (split on BASE_PATH) */
static void load(struct raw *r, const char *path, const char *base_path,
		 enum btf_endianness endian)
{
	__u16 magic;

	r->data = read_file(path, &r->size);
	if (r->size < sizeof(struct btf_header))
		die(path, "too short for a BTF header");
	memcpy(&magic, r->data, sizeof(magic));
	if (magic != BTF_MAGIC && magic != __builtin_bswap16(BTF_MAGIC))
		die(path, "not raw BTF (no BTF magic)");
	if ((magic == BTF_MAGIC) == swapped) {
		struct btf *base = NULL, *btf;
		const void *raw;
		__u32 size;

		if (base_path && !(base = btf__parse_raw(base_path)))
			die(base_path, strerror(errno));
		btf = btf__parse_raw_split(path, base);
		if (!btf)
			die(path, strerror(errno));
		if (btf__set_endianness(btf, endian))
			die(path, "libbpf cannot change its byte order");
		raw = btf__raw_data(btf, &size);
		if (!raw)
			die(path, strerror(errno));
		free(r->data);
		r->data = malloc(size);
		if (!r->data)
			die(path, strerror(ENOMEM));
		memcpy(r->data, raw, size);
		r->size = size;
		btf__free(btf);
		btf__free(base);
	}
	memcpy(&r->hdr, r->data, sizeof(r->hdr));
	r->hdr.hdr_len = host32(r->hdr.hdr_len);
	r->hdr.type_off = host32(r->hdr.type_off);
	r->hdr.type_len = host32(r->hdr.type_len);
	r->hdr.str_off = host32(r->hdr.str_off);
	r->hdr.str_len = host32(r->hdr.str_len);
	if (r->hdr.hdr_len > r->size ||
	    (size_t)r->hdr.type_off + r->hdr.type_len > r->size - r->hdr.hdr_len ||
	    (size_t)r->hdr.str_off + r->hdr.str_len > r->size - r->hdr.hdr_len)
		die(path, "sections past the end of the file");
}

static void write_out(const char *path, const void *a, size_t na, const void *b, size_t nb,
		      const void *c, size_t nc)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(a, 1, na, f) != na || fwrite(b, 1, nb, f) != nb ||
	    fwrite(c, 1, nc, f) != nc || fclose(f))
		die(path, strerror(errno));
}

int main(int argc, char **argv)
{
	const enum btf_endianness host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
					 BTF_LITTLE_ENDIAN : BTF_BIG_ENDIAN;
	enum btf_endianness endian = host;
	const char *base_path = NULL;
	struct raw base, in;
	int opt;

	while ((opt = getopt(argc, argv, "b:e:")) != -1) {
		if (opt == 'b')
			base_path = optarg;
		else if (opt == 'e' && !strcmp(optarg, "little"))
			endian = BTF_LITTLE_ENDIAN;
		else if (opt == 'e' && !strcmp(optarg, "big"))
			endian = BTF_BIG_ENDIAN;
		else
			optind = argc + 1;
	}
	if (optind + 2 != argc) {
		fprintf(stderr, "usage: btf-flatten [-e little|big] [-b BASE] IN OUT\n");
		return 2;
	}
	swapped = endian != host;
	load(&in, argv[optind], base_path, endian);
	if (!base_path) {
		write_out(argv[optind + 1], in.data, in.size, NULL, 0, NULL, 0);
		return 0;
	}
	load(&base, base_path, NULL, endian);
	{
		const unsigned char *bt = base.data + base.hdr.hdr_len + base.hdr.type_off;
		const unsigned char *bs = base.data + base.hdr.hdr_len + base.hdr.str_off;
		const unsigned char *it = in.data + in.hdr.hdr_len + in.hdr.type_off;
		const unsigned char *is = in.data + in.hdr.hdr_len + in.hdr.str_off;
		size_t tlen = base.hdr.type_len + in.hdr.type_len;
		size_t slen = base.hdr.str_len + in.hdr.str_len;
		struct btf_header hdr = {
			.magic = swapped ? __builtin_bswap16(BTF_MAGIC) : BTF_MAGIC,
			.version = 1, .hdr_len = host32(sizeof(hdr)),
			.type_off = 0, .type_len = host32(tlen),
			.str_off = host32(tlen), .str_len = host32(slen),
		};
		unsigned char *types = malloc(tlen), *strs = malloc(slen);

		if (!types || !strs)
			die(argv[optind + 1], strerror(ENOMEM));
		memcpy(types, bt, base.hdr.type_len);
		memcpy(types + base.hdr.type_len, it, in.hdr.type_len);
		memcpy(strs, bs, base.hdr.str_len);
		memcpy(strs + base.hdr.str_len, is, in.hdr.str_len);
		write_out(argv[optind + 1], &hdr, sizeof(hdr), types, tlen, strs, slen);
	}
	return 0;
}
