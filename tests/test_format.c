// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BTF bytes as they are written since Linux 7.1 (btf_format.c): the 32-byte
 * header with its layout section, in both byte orders, from any address;
 * kinds and vlens the library cannot hold refused by number. The library is
 * built against whatever <linux/btf.h> the machine has (24 or 32 bytes):
 * nothing here may depend on which.
 */
#include <bpf/btf.h>
#include <byteswap.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/btf_format.h"
#include "format/btf_raw.h"
#include "input/btf_input.h"
#include "builder.h"
#include "helpers.h"

static char msgs[4096];

static void log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)ctx;
	snprintf(msgs + strlen(msgs), sizeof(msgs) - strlen(msgs), "%s\n", msg);
}

static const struct b2b_log test_log = { .fn = log_cb, .path = "test" };

/* The native 24-byte BTF of a fixture, as libbpf writes it (malloc'd). */
static void *native_of(const char *fixture, size_t *size)
{
	struct btf *btf = th_parse(th_fixture(fixture), NULL);
	__u32 sz = 0;
	const void *raw = btf__raw_data(btf, &sz);
	void *copy = malloc(sz);

	assert_non_null(raw);
	memcpy(copy, raw, sz);
	btf__free(btf);
	*size = sz;
	return copy;
}

static __u32 word(const unsigned char *p, bool swapped)
{
	__u32 v;

	memcpy(&v, p, 4);
	return swapped ? bswap_32(v) : v;
}

/* fmt with a layout section that has only kind 0's entry: the writer adds
 * the library's own entries for every kind the types use */
static void layout_fmt(struct b2b_btf_format *fmt, bool swapped)
{
	memset(fmt, 0, sizeof(*fmt));
	fmt->swapped = swapped;
	fmt->hdr_len = B2B_BTF_HDR_LAYOUT_LEN;
	fmt->nr_layout = 1;
	fmt->layout = calloc(1, sizeof(*fmt->layout));
}

static void check_round_trip(bool swapped)
{
	struct b2b_btf_format fmt, back;
	size_t size, out_size, again_size;
	void *native = native_of("kfuncs.gcc.o", &size), *out, *again;
	const unsigned char *o;
	__u32 type_len, layout_off, layout_len, str_off;

	layout_fmt(&fmt, swapped);
	assert_int_equal(b2b_btf_write(native, size, &fmt, &out, &out_size), 0);
	o = out;
	type_len = word(o + 12, swapped);
	str_off = word(o + 16, swapped);
	layout_off = word(o + 24, swapped);
	layout_len = word(o + 28, swapped);
	assert_int_equal(word(o + 4, swapped), 32);
	assert_int_equal(layout_off, type_len);
	assert_int_equal(str_off, layout_off + layout_len);
	/* an entry for every kind up to FUNC_PROTO at least (the kfuncs' own) */
	assert_true(layout_len / 4 > BTF_KIND_FUNC_PROTO);
	assert_int_equal(o[32 + layout_off + 4 * BTF_KIND_STRUCT + 1], 12);	/* elem_sz */
	assert_int_equal(out_size, 32 + type_len + layout_len + word(o + 20, swapped));

	/* read back: the same native bytes, and a format that writes the same */
	assert_int_equal(b2b_btf_read(out, out_size, "test", &test_log, &again, &again_size,
				      &back), 0);
	assert_true(back.swapped == swapped);
	assert_int_equal(back.hdr_len, 32);
	assert_int_equal(back.nr_layout, layout_len / 4);
	assert_int_equal(again_size, size);
	assert_memory_equal(again, native, size);
	free(again);
	assert_int_equal(b2b_btf_write(native, size, &back, &again, &again_size), 0);
	assert_int_equal(again_size, out_size);
	assert_memory_equal(again, out, out_size);
	free(again);

	/* from an odd address: the reader copies, never reads a type in place */
	again = malloc(out_size + 1);
	memcpy((char *)again + 1, out, out_size);
	b2b_btf_format_free(&back);
	{
		void *n2;
		size_t n2_size;

		assert_int_equal(b2b_btf_read((char *)again + 1, out_size, "test", &test_log,
					      &n2, &n2_size, &back), 0);
		assert_memory_equal(n2, native, size);
		free(n2);
	}
	free(again);
	b2b_btf_format_free(&back);
	b2b_btf_format_free(&fmt);
	free(out);
	free(native);
}

static void test_layout_round_trip(void **state)
{
	(void)state;
	check_round_trip(false);
}

static void test_layout_round_trip_big_endian(void **state)
{
	(void)state;
	check_round_trip(true);
}

/* A 32-byte-header layout BTF through open, transform and raw_btf: the
 * result keeps the header and a layout, and its types are those of the
 * same BTF read with a 24-byte header. */
static void test_transform_keeps_layout(void **state)
{
	const char *obj = th_fixture("kfuncs.gcc.o"), *raw_path = th_path("layout.btf");
	struct b2b_btf_format fmt, back;
	size_t size, out_size, n_size;
	void *native = native_of("kfuncs.gcc.o", &size), *out, *n;
	const void *r24, *r32;
	size_t r24_size, r32_size;
	struct btf2btf *plain, *layout;
	BTF2BTF_OPTS(opts, .btf_path = raw_path, .log = th_log_cb);

	(void)state;
	layout_fmt(&fmt, false);
	assert_int_equal(b2b_btf_write(native, size, &fmt, &out, &out_size), 0);
	assert_int_equal(fx_write_file(raw_path, out, out_size), 0);
	plain = th_open(obj, NULL);
	layout = th_open(obj, &opts);
	assert_int_equal(btf2btf__transform(plain), 0);
	assert_int_equal(btf2btf__transform(layout), 0);
	assert_true(btf2btf__changed(layout));
	assert_int_equal(btf2btf__raw_btf(plain, &r24, &r24_size), 0);
	assert_int_equal(btf2btf__raw_btf(layout, &r32, &r32_size), 0);
	assert_int_equal(word(r32, false) & 0xffff, B2B_BTF_MAGIC);
	assert_int_equal(word((const unsigned char *)r32 + 4, false), 32);
	assert_int_equal(b2b_btf_read(r32, r32_size, "test", &test_log, &n, &n_size, &back), 0);
	assert_true(back.nr_layout > BTF_KIND_FUNC_PROTO);
	assert_int_equal(n_size, r24_size);
	assert_memory_equal(n, r24, r24_size);
	free(n);
	b2b_btf_format_free(&back);
	btf2btf__close(plain);
	btf2btf__close(layout);
	b2b_btf_format_free(&fmt);
	free(out);
	free(native);
}

/* The info word of the first type of a native 24-byte BTF. */
static __u32 *first_info(void *native)
{
	return (__u32 *)((char *)native + B2B_BTF_HDR_LEN + 4);
}

/* Read as the library reads BTF (the bytes, then the model's index): refused
 * with err, saying text, nothing kept. */
static void expect_read_refused(const void *data, size_t size, int err, const char *text)
{
	struct b2b_btf_format fmt;
	struct b2b_btf v;

	msgs[0] = 0;
	assert_int_equal(b2b_parse_btf(data, size, NULL, "test", &v, &fmt, &test_log), err);
	assert_true(b2b_btf_empty(&v));
	if (!strstr(msgs, text))
		fail_msg("expected \"%s\" in: %s", text, msgs);
}

/* data reads, and its format keeps the header length hdr_len. */
static void expect_read_ok_len(const void *data, size_t size, __u32 hdr_len)
{
	struct b2b_btf_format fmt;
	size_t n_size;
	void *n;

	assert_int_equal(b2b_btf_read(data, size, "test", &test_log, &n, &n_size, &fmt), 0);
	assert_int_equal(fmt.hdr_len, hdr_len);
	if (n != data)
		free(n);
	b2b_btf_format_free(&fmt);
}

/* The plain form at an aligned address is read in place (a base mapped
 * from a file is not copied at all); at an odd address it is copied. */
static void test_plain_read_in_place(void **state)
{
	struct b2b_btf_format fmt;
	size_t size, n_size;
	void *native = native_of("kfuncs.gcc.o", &size), *n;
	char *odd = malloc(size + 1);

	(void)state;
	assert_int_equal(b2b_btf_read(native, size, "test", &test_log, &n, &n_size, &fmt), 0);
	assert_ptr_equal(n, native);
	assert_int_equal(n_size, size);
	assert_true(b2b_btf_format_is_plain(&fmt));
	b2b_btf_format_free(&fmt);

	memcpy(odd + 1, native, size);
	assert_int_equal(b2b_btf_read(odd + 1, size, "test", &test_log, &n, &n_size, &fmt), 0);
	assert_ptr_not_equal(n, odd + 1);
	assert_int_equal((uintptr_t)n % 4, 0);
	assert_memory_equal(n, native, size);
	free(n);
	b2b_btf_format_free(&fmt);
	free(odd);
	free(native);
}

static void test_unknown_kind_refused_by_number(void **state)
{
	struct b2b_btf_format fmt;
	size_t size, out_size;
	void *native = native_of("kfuncs.gcc.o", &size), *out;

	(void)state;
	*first_info(native) = (*first_info(native) & 0x80ffffff) | 25U << 24;
	/* no layout: nothing says how long it is */
	expect_read_refused(native, size, -EINVAL, "type [1] has unknown kind 25");
	/* a layout describing kind 25: still refused, by number */
	layout_fmt(&fmt, false);	/* entries up to kind 25, the library's own below 20 */
	assert_int_equal(b2b_btf_write(native, size, &fmt, &out, &out_size), 0);
	expect_read_refused(out, out_size, -EOPNOTSUPP, "type [1] is of kind 25, which btf2btf does not know");
	free(out);
	b2b_btf_format_free(&fmt);
	free(native);
}

#define WIDE_VLEN 70000

/* Raw native BTF with a 24-bit vlen (the 2026 UAPI), made by hand (no
 * libbpf up to 1.7 can): [1] INT int, [2] ENUM wide of WIDE_VLEN values. */
static void *wide_enum_btf(size_t *size)
{
	static const char strs[] = "\0int\0wide\0v";	/* "" 0, int 1, wide 5, v 10 */
	__u32 type_len = 16 + 12 + WIDE_VLEN * 8;
	struct b2b_btf_hdr h = {
		.magic = B2B_BTF_MAGIC, .version = B2B_BTF_VERSION, .hdr_len = B2B_BTF_HDR_LEN,
		.type_off = 0, .type_len = type_len, .str_off = type_len, .str_len = sizeof(strs),
	};
	char *p = calloc(1, B2B_BTF_HDR_LEN + type_len + sizeof(strs));
	__u32 *w = (__u32 *)(p + B2B_BTF_HDR_LEN);

	assert_non_null(p);
	memcpy(p, &h, sizeof(h));
	w[0] = 1, w[1] = BTF_KIND_INT << 24, w[2] = 4, w[3] = BTF_INT_SIGNED << 24 | 32;
	w[4] = 5, w[5] = BTF_KIND_ENUM << 24 | WIDE_VLEN, w[6] = 4;
	for (__u32 i = 0; i < WIDE_VLEN; i++)
		w[7 + 2 * i] = 10, w[8 + 2 * i] = i;
	memcpy(p + B2B_BTF_HDR_LEN + type_len, strs, sizeof(strs));
	*size = B2B_BTF_HDR_LEN + type_len + sizeof(strs);
	return p;
}

/* The CLI: written back the same; --dump (libbpf's view) refused, naming
 * the type, exit 1. */
static void wide_cli(const void *raw, size_t size)
{
	const char *in = th_path("wide.btf"), *out = th_path("wide.out");
	size_t out_size;
	struct run r;
	void *got;
	FILE *f = fopen(in, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(raw, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	th_run(&r, (const char *[]){ "btf2btf", "-q", "--features=all", "-o", out, in, NULL });
	assert_int_equal(r.status, 0);
	th_run_free(&r);
	got = th_read(out, &out_size);
	assert_int_equal(out_size, size);
	assert_memory_equal(got, raw, size);
	free(got);
	th_run(&r, (const char *[]){ "btf2btf", "--dump", in, NULL });
	assert_int_equal(r.status, 1);
	if (!strstr(r.err, "type [2] has vlen 70000, more than the 65535 libbpf holds"))
		fail_msg("expected the wide type named in: %s", r.err);
	th_run_free(&r);
	th_cleanup();
}

/*
 * A vlen above 65535 is held by the library's model, read, transformed and
 * written back the same (with every feature: the passes are the library's
 * own); only libbpf's view of it (btf2btf__btf()) cannot be made, and says
 * which type.
 */
static void test_wide_vlen_held(void **state)
{
	static const unsigned int features[] = { 0, BTF2BTF_FEATS_ALL };
	size_t size, out_size;
	void *raw = wide_enum_btf(&size);
	const void *out;
	struct b2b_btf v;

	(void)state;
	msgs[0] = 0;
	assert_int_equal(b2b_parse_btf(raw, size, NULL, "test", &v, NULL, &test_log), 0);
	assert_int_equal(b2b_btf_type_cnt(&v), 3);
	assert_int_equal(b2b_vlen(b2b_btf_type_by_id(&v, 2)), WIDE_VLEN);
	assert_int_equal(b2b_btf_wide_id(&v), 2);
	errno = 0;
	assert_null(b2b_btf_libbpf(&v));
	assert_int_equal(errno, EOPNOTSUPP);
	b2b_btf_free(&v);
	for (size_t f = 0; f < sizeof(features) / sizeof(features[0]); f++) {
		BTF2BTF_OPTS(o, .log = log_cb, .features = features[f]);
		struct btf2btf *b;

		assert_int_equal(btf2btf__open_mem(raw, size, "wide.btf", &o, &b), 0);
		assert_int_equal(btf2btf__transform(b), 0);
		assert_int_equal(btf2btf__raw_btf(b, &out, &out_size), 0);
		assert_int_equal(out_size, size);
		assert_memory_equal(out, raw, size);
		msgs[0] = 0;
		errno = 0;
		assert_null(btf2btf__btf(b));
		assert_int_equal(errno, EOPNOTSUPP);
		if (!strstr(msgs, "type [2] has vlen 70000, more than the 65535 libbpf holds"))
			fail_msg("expected the wide type named in: %s", msgs);
		btf2btf__close(b);
	}
	wide_cli(raw, size);
	free(raw);
}

static void test_header_tail(void **state)
{
	size_t size;
	void *native = native_of("kfuncs.gcc.o", &size);
	unsigned char *longer = calloc(1, size + 16);
	struct b2b_btf_format fmt;
	size_t n_size, out_size;
	void *n, *out;
	__u32 hdr_len = 40;

	(void)state;
	/* a 40-byte header whose layout words and tail are zero: read, and
	 * written back with its length */
	memcpy(longer, native, 24);
	memcpy(longer + 4, &hdr_len, 4);
	memcpy(longer + 40, (char *)native + 24, size - 24);
	assert_int_equal(b2b_btf_read(longer, size + 16, "test", &test_log, &n, &n_size, &fmt),
			 0);
	assert_int_equal(fmt.hdr_len, 40);
	assert_int_equal(fmt.nr_layout, 0);
	assert_memory_equal(n, native, size);
	assert_int_equal(b2b_btf_write(n, n_size, &fmt, &out, &out_size), 0);
	assert_int_equal(out_size, size + 16);
	assert_memory_equal(out, longer, out_size);
	free(out);
	free(n);
	b2b_btf_format_free(&fmt);
	/* a field this library does not know: refused, as the kernel does */
	longer[36] = 1;
	expect_read_refused(longer, size + 16, -EINVAL, "byte 36 is not zero");
	free(longer);
	free(native);
}

/* A header cut inside the layout fields (25-31 bytes) with a byte of them
 * set, and a type section of a length that is not whole words: refused
 * (the fuzzer's format target read both and could not write them back). */
static void test_header_cut_and_type_words(void **state)
{
	size_t size;
	void *native = native_of("kfuncs.gcc.o", &size);
	unsigned char *cut = calloc(1, size + 6);
	struct b2b_btf_hdr h;
	__u32 hdr_len = 30;

	(void)state;
	memcpy(cut, native, 24);
	memcpy(cut + 4, &hdr_len, 4);
	memcpy(cut + 30, (char *)native + 24, size - 24);
	cut[24] = 1;
	expect_read_refused(cut, size + 6, -EINVAL,
			    "byte 24 is not zero): it ends inside the layout fields");
	/* the same header with its bytes zero: a padded 24-byte header */
	cut[24] = 0;
	expect_read_ok_len(cut, size + 6, 30);
	memcpy(&h, native, sizeof(h));
	h.type_len -= 2;
	h.str_off -= 2;
	memcpy(native, &h, sizeof(h));
	expect_read_refused(native, size - 2, -EINVAL, "is not 4-byte aligned words");
	free(cut);
	free(native);
}

/* Bytes past the sections (a module signature after raw BTF, say): the
 * kernel refuses them, so does the reader; without them it reads. */
static void test_bytes_past_sections(void **state)
{
	size_t size;
	void *native = native_of("kfuncs.gcc.o", &size);
	unsigned char *longer = calloc(1, size + 8);

	(void)state;
	memcpy(longer, native, size);
	expect_read_ok_len(longer, size, B2B_BTF_HDR_LEN);
	expect_read_refused(longer, size + 8, -EINVAL, "8 bytes past the BTF sections");
	free(longer);
	free(native);
}

static void test_layout_not_between(void **state)
{
	struct b2b_btf_format fmt;
	size_t size, out_size;
	void *native = native_of("kfuncs.gcc.o", &size), *out;
	__u32 layout_off;

	(void)state;
	layout_fmt(&fmt, false);
	assert_int_equal(b2b_btf_write(native, size, &fmt, &out, &out_size), 0);
	memcpy(&layout_off, (char *)out + 24, 4);
	layout_off += 4;
	memcpy((char *)out + 24, &layout_off, 4);
	expect_read_refused(out, out_size, -EINVAL, "BTF sections are not contiguous (types 0+");
	free(out);
	b2b_btf_format_free(&fmt);
	free(native);
}

/* A kind as <linux/btf.h>'s structs lay it out (the ABI), independently of
 * the table: the words after struct btf_type, each element's, and the word
 * of each that is a type id or a name offset (-1: none). */
struct abi_kind {
	__u32 kind, extra, elem;
	int ids[2], elem_id, elem_str;
};

#define WORD(type, field)	((int)(offsetof(type, field) / 4))
static const struct abi_kind abi_kinds[] = {
	{ BTF_KIND_INT, 1, 0, { -1, -1 }, -1, -1 },
	{ BTF_KIND_PTR, 0, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_ARRAY, sizeof(struct btf_array) / 4, 0,
	  { 3 + WORD(struct btf_array, type), 3 + WORD(struct btf_array, index_type) }, -1, -1 },
	{ BTF_KIND_STRUCT, 0, sizeof(struct btf_member) / 4, { -1, -1 },
	  WORD(struct btf_member, type), WORD(struct btf_member, name_off) },
	{ BTF_KIND_UNION, 0, sizeof(struct btf_member) / 4, { -1, -1 },
	  WORD(struct btf_member, type), WORD(struct btf_member, name_off) },
	{ BTF_KIND_ENUM, 0, sizeof(struct btf_enum) / 4, { -1, -1 }, -1, WORD(struct btf_enum, name_off) },
	{ BTF_KIND_FWD, 0, 0, { -1, -1 }, -1, -1 },
	{ BTF_KIND_TYPEDEF, 0, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_VOLATILE, 0, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_CONST, 0, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_RESTRICT, 0, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_FUNC, 0, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_FUNC_PROTO, 0, sizeof(struct btf_param) / 4, { 2, -1 },
	  WORD(struct btf_param, type), WORD(struct btf_param, name_off) },
	{ BTF_KIND_VAR, sizeof(struct btf_var) / 4, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_DATASEC, 0, sizeof(struct btf_var_secinfo) / 4, { -1, -1 },
	  WORD(struct btf_var_secinfo, type), -1 },
	{ BTF_KIND_FLOAT, 0, 0, { -1, -1 }, -1, -1 },
	{ BTF_KIND_DECL_TAG, sizeof(struct btf_decl_tag) / 4, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_TYPE_TAG, 0, 0, { 2, -1 }, -1, -1 },
	{ BTF_KIND_ENUM64, 0, sizeof(struct btf_enum64) / 4, { -1, -1 }, -1,
	  WORD(struct btf_enum64, name_off) },
};

/* What word i of a type of kind a holds, by the ABI's structs. */
static enum b2b_word abi_class(const struct abi_kind *a, __u32 i)
{
	if (i == 0)
		return B2B_W_STR;
	if (i < 3 + a->extra)
		return (int)i == a->ids[0] || (int)i == a->ids[1] ? B2B_W_REF : B2B_W_PLAIN;
	i = (i - 3 - a->extra) % a->elem;
	return (int)i == a->elem_id ? B2B_W_REF : (int)i == a->elem_str ? B2B_W_STR : B2B_W_PLAIN;
}

/* The table of kinds says of every kind what the ABI's structs say: its
 * size by vlen, which words are type ids and name offsets; its walks
 * (b2b_words(), b2b_fields(), b2b_word_class()) agree word for word, and
 * its layout section entries are the bytes the table gives. */
static void test_kind_table_is_the_abi(void **state)
{
	(void)state;
	assert_int_equal(sizeof(abi_kinds) / sizeof(abi_kinds[0]), B2B_BTF_NR_KINDS - 1);
	assert_null(b2b_kind_layout(0));
	assert_null(b2b_kind_layout(B2B_BTF_NR_KINDS));
	for (size_t k = 0; k < sizeof(abi_kinds) / sizeof(abi_kinds[0]); k++) {
		const struct abi_kind *a = &abi_kinds[k];

		assert_non_null(b2b_kind_layout(a->kind));
		for (__u32 vlen = 0; vlen < (a->elem ? 4 : 1); vlen++) {
			__u32 w[3 + 3 + 4 * 3] = { 0 };
			const struct btf_type *t = (const struct btf_type *)w;
			enum b2b_word cls[sizeof(w) / 4];
			struct b2b_fields ids, strs;
			__u32 n = 3 + a->extra + vlen * a->elem, seen = 0, i;

			w[1] = a->kind << 24 | vlen;
			assert_int_equal(b2b_btf_type_words(w[1]), n);
			for (struct b2b_words it = b2b_words(t, 0); b2b_words_next(&it); seen++) {
				assert_int_equal(it.i, seen);
				assert_int_equal(it.cls, abi_class(a, it.i));
				assert_int_equal(b2b_word_class(a->kind, it.i), it.cls);
				cls[it.i] = it.cls;
			}
			assert_int_equal(seen, n);
			ids = b2b_fields(t, B2B_W_REF);
			strs = b2b_fields(t, B2B_W_STR);
			for (seen = 0; b2b_fields_next(&ids, &i); seen++)
				assert_int_equal(cls[i], B2B_W_REF);
			for (; b2b_fields_next(&strs, &i); seen++)
				assert_int_equal(cls[i], B2B_W_STR);
			for (i = 0; i < n; i++)
				seen -= cls[i] != B2B_W_PLAIN;
			assert_int_equal(seen, 0);
		}
		assert_string_equal(btf2btf__kind_name(a->kind), b2b_kinds[a->kind].name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_round_trip),
		cmocka_unit_test(test_layout_round_trip_big_endian),
		cmocka_unit_test(test_transform_keeps_layout),
		cmocka_unit_test(test_plain_read_in_place),
		cmocka_unit_test(test_unknown_kind_refused_by_number),
		cmocka_unit_test(test_wide_vlen_held),
		cmocka_unit_test(test_header_tail),
		cmocka_unit_test(test_header_cut_and_type_words),
		cmocka_unit_test(test_bytes_past_sections),
		cmocka_unit_test(test_layout_not_between),
		cmocka_unit_test(test_kind_table_is_the_abi),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	th_cleanup();
	return ret;
}
