// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BTF from bytes or from a file (ELF .BTF or raw BTF), parsed and checked:
 * what the object, its base and a distilled base are all read with.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "btf_check.h"
#include "btf_format.h"
#include "btf_input.h"
#include "elf_file.h"
#include "libbpf_compat.h"

static const unsigned char elf_magic[4] = { 0x7f, 'E', 'L', 'F' };

bool b2b_is_elf_magic(const void *p, size_t size)
{
	return size >= 4 && !memcmp(p, elf_magic, 4);
}

bool b2b_is_btf_magic(const unsigned char *p, size_t size)
{
	return size >= 2 && ((p[0] == 0x9f && p[1] == 0xeb) || (p[0] == 0xeb && p[1] == 0x9f));
}

int b2b_parse_btf(const void *data, size_t size, struct btf *base, const char *what,
		  struct btf **out, struct b2b_btf_format *fmt, const struct b2b_log *log)
{
	struct b2b_btf_format own_fmt;
	struct btf *btf;
	size_t nsize;
	void *native;
	int err;

	*out = NULL;
	if (!fmt)
		fmt = &own_fmt;
	/* libbpf reads the native, 24-byte-header form: what every version
	 * of it reads the same way, whatever the bytes and header were */
	err = b2b_btf_read(data, size, base ? btf__type_cnt(base) : 1, what, log, &native, &nsize,
			   fmt);
	if (err)
		return err;
	errno = 0;
	btf = b2b_btf_new(native, nsize, base);
	if (!btf) {
		err = errno ? -errno : -EINVAL;
		if (err != -EINVAL || !b2b_check_btf_raw(native, nsize, base, what, log))
			err = b2b_errno(log, err, "%s: cannot parse BTF: %s", what, strerror(-err));
	} else {
		err = b2b_check_btf_types(btf, what, log);
	}
	if (native != data)
		free(native);
	if (err) {
		btf__free(btf);
		b2b_btf_format_free(fmt);
		return err;
	}
	if (fmt == &own_fmt)
		b2b_btf_format_free(fmt);
	*out = btf;
	return 0;
}

/* BTF of an ELF file's .BTF section, or of a raw BTF file. */
int b2b_load_btf_file(const char *path, struct btf *base, const char *what,
		      struct btf **out, struct b2b_btf_format *fmt, const struct b2b_log *parent)
{
	struct b2b_log log = *parent;
	struct b2b_section sec;
	struct b2b_elf *e = NULL;
	const void *data;
	size_t size;
	int err;

	log.path = path;
	err = b2b_file_open(path, &log, &e);
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
		if (!err)
			err = b2b_parse_btf(sec.data, sec.size, base, what, out, fmt, &log);
	} else if (b2b_is_btf_magic(data, size)) {
		err = b2b_parse_btf(data, size, base, what, out, fmt, &log);
	} else {
		err = b2b_errno(&log, -ENOEXEC, "neither an ELF object nor raw BTF");
	}
	b2b_elf_close(e);
	return err;
}
