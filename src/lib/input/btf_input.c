// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BTF from bytes or from a file (ELF .BTF or raw BTF), parsed and checked:
 * what the object, its base and a distilled base are all read with.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/btf_check.h"
#include "format/btf_format.h"
#include "input/btf_input.h"
#include "format/elf_file.h"
#include "input/split_check.h"

static const unsigned char elf_magic[4] = { 0x7f, 'E', 'L', 'F' };

bool b2b_is_elf_magic(const void *p, size_t size)
{
	return size >= 4 && !memcmp(p, elf_magic, 4);
}

bool b2b_is_btf_magic(const unsigned char *p, size_t size)
{
	return size >= 2 && ((p[0] == 0x9f && p[1] == 0xeb) || (p[0] == 0xeb && p[1] == 0x9f));
}

int b2b_parse_btf(const void *data, size_t size, const struct b2b_btf *base, const char *what,
		  struct b2b_btf *out, struct b2b_btf_format *fmt, const struct b2b_log *log)
{
	struct b2b_btf_format own_fmt;
	size_t nsize;
	void *native;
	int err;

	memset(out, 0, sizeof(*out));
	if (!fmt)
		fmt = &own_fmt;
	err = b2b_btf_read(data, size, what, log, &native, &nsize, fmt);
	if (err)
		return err;
	/* bytes already native and aligned are read in place (the caller
	 * keeps them alive), converted ones are the model's */
	err = b2b_btf_open(out, native, nsize, base);
	/* what the index refused: a type's kind or vlen, named, else the rest */
	if (err == -EINVAL)
		err = b2b_btf_check_kinds((const char *)native + B2B_BTF_HDR_LEN,
					  ((const struct b2b_btf_hdr *)native)->type_len,
					  base ? b2b_btf_type_cnt(base) : 1, fmt, what, log) ?:
		      b2b_errno(log, err, "%s: cannot parse BTF: %s", what,
				b2b_btf_refusal(native, nsize, base));
	else if (err)
		err = b2b_errno(log, err, "%s: cannot parse BTF: %s", what, strerror(-err));
	else if (native != data)
		out->owned = native;
	if (!err && base)
		err = b2b_check_split_base(out, what, log);
	if (!err)
		err = b2b_check_btf_types(out, what, log);
	if (err) {
		if (native != data && !out->owned)
			free(native);
		b2b_btf_free(out);
		b2b_btf_format_free(fmt);
		return err;
	}
	if (fmt == &own_fmt)
		b2b_btf_format_free(fmt);
	return 0;
}

/* BTF of an ELF file's .BTF section, or of a raw BTF file. */
int b2b_load_btf_file(const char *path, const struct b2b_btf *base, const char *what,
		      uint64_t max_plain, struct b2b_btf *out, struct b2b_btf_format *fmt,
		      const struct b2b_log *parent)
{
	struct b2b_log log = *parent;
	struct b2b_section sec;
	struct b2b_elf *e = NULL;
	const void *data;
	size_t size;
	int err;

	log.path = path;
	err = b2b_file_open(path, max_plain, &log, &e);
	if (!err)
		err = b2b_file_bytes(e, &data, &size, &log);
	if (err) {
		b2b_elf_close(e);
		return err;
	}
	if (b2b_is_elf_magic(data, size)) {
		err = b2b_elf_begin(e, &log);
		if (!err) {
			err = b2b_elf_section(e, ".BTF", &sec, &log);
			if (err == -ENOENT)
				err = b2b_errno(&log, -ENOENT, "has no .BTF section");
		}
		if (!err) {
			b2b_elf_prefault(e, sec.data, sec.size);
			err = b2b_parse_btf(sec.data, sec.size, base, what, out, fmt, &log);
		}
	} else if (b2b_is_btf_magic(data, size)) {
		b2b_elf_prefault(e, data, size);
		err = b2b_parse_btf(data, size, base, what, out, fmt, &log);
	} else {
		err = b2b_errno(&log, -ENOEXEC, "neither an ELF object nor raw BTF");
	}
	/* read in place: the file's mapping goes with the model */
	if (!err && !out->owned) {
		out->file = e;
		e = NULL;
	}
	b2b_elf_close(e);
	return err;
}
