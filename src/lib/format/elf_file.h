/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* ELF access: sections, symbols, and rewriting one section's contents. */
#ifndef BTF2BTF_ELF_FILE_H
#define BTF2BTF_ELF_FILE_H

#include <gelf.h>
#include <sys/stat.h>

#include "util/internal.h"

struct b2b_elf {
	int fd;			/* -1 for an in-memory image */
	void *mem;		/* owned copy of an in-memory image */
	void *map;		/* private mapping of the file libelf reads, or NULL */
	uint64_t size;		/* file (image) size */
	struct stat st;		/* of the file, when fd >= 0 */
	Elf *elf;
	GElf_Ehdr ehdr;
	size_t shnum;
	size_t shstrndx;
	bool big_endian;
	/* a compressed module (.ko.xz, .ko.zst, .ko.gz): mem holds it
	 * decompressed, size is that size; enum b2b_compression */
	uint8_t compression;
	/* the ELF ends here, an appended module signature follows; 0: unsigned */
	uint64_t signature_off;
};

struct b2b_section {
	size_t index;
	GElf_Shdr shdr;
	const void *data;	/* raw bytes, in the file's byte order */
	size_t size;
};

struct b2b_symtab {
	Elf_Data *data;
	size_t count;
	size_t strndx;
	/* the string table when libelf holds it in one piece ending in a NUL
	 * (names read in place), else NULL (elf_strptr) */
	const char *strs;
	size_t strs_size;
};

/*
 * A file is opened (and mapped) once: b2b_file_open(), or b2b_mem_open() for
 * a copy of an in-memory image; b2b_file_bytes() gives its bytes to sniff or
 * parse as raw BTF; b2b_elf_begin() reads them as ELF. A compressed file
 * (xz, zstd, gzip: compress.c) is decompressed into memory at open: its
 * bytes are the decompressed ones, at most max_plain of them (0: the
 * default, BTF2BTF_MAX_DECOMPRESSED; b2b_decompress() says what else).
 */
int b2b_file_open(const char *path, uint64_t max_plain, const struct b2b_log *log,
		  struct b2b_elf **out);
int b2b_mem_open(const void *buf, size_t size, uint64_t max_plain, const struct b2b_log *log,
		 struct b2b_elf **out);
int b2b_file_bytes(struct b2b_elf *e, const void **data, size_t *size, const struct b2b_log *log);
int b2b_elf_begin(struct b2b_elf *e, const struct b2b_log *log);
void b2b_elf_close(struct b2b_elf *e);

/* 0 and *sec filled, -ENOENT when there is no such section, other errors logged. */
int b2b_elf_section(struct b2b_elf *e, const char *name, struct b2b_section *sec,
		    const struct b2b_log *log);

/* 0, -ENOENT without a symbol table, other errors logged. */
int b2b_elf_symtab(struct b2b_elf *e, struct b2b_symtab *symtab, const struct b2b_log *log);
/* Symbol i when it is defined in section shndx: 1 (NULL name when it has none
 * or it is out of the string table), or 0 (name not
 * looked up: elf_strptr on every symbol of a vmlinux costs more than the rest
 * of the scan), or -EINVAL. */
int b2b_elf_sym_in(struct b2b_elf *e, const struct b2b_symtab *symtab, size_t i, size_t shndx,
		   GElf_Sym *sym, const char **name);

/*
 * Done with [p, p + size) of a section's bytes: let the kernel drop the
 * pages of the file mapping (read again from the file if touched again).
 * Keeps the peak RSS near one copy of the BTF; a no-op unless the bytes
 * are the mapping's own (not converted or copied by libelf).
 */
void b2b_elf_release(struct b2b_elf *e, const void *p, size_t size);
/* Map in at once the pages of [p, p + size) that lie in the file's mapping:
 * bytes about to be read whole (a .BTF section). */
void b2b_elf_prefault(const struct b2b_elf *e, const void *p, size_t size);

/* Read a 32-bit word stored in the object's byte order. */
uint32_t b2b_elf_word(const struct b2b_elf *e, const void *p);

/*
 * One section of the object to write: index's contents replaced by data,
 * or (index 0) the section called name replaced if the object has one,
 * else added after the others (SHT_PROGBITS, named in .shstrtab).
 */
struct b2b_elf_edit {
	size_t index;
	const char *name;
	const void *data;
	size_t size;
};

#define B2B_ELF_MAX_EDITS 4

/* Write the whole object with edits (at most B2B_ELF_MAX_EDITS) made: to
 * out_fd when >= 0, else into a malloc'd *image / *image_size. */
int b2b_elf_write_edited(struct b2b_elf *e, const struct b2b_elf_edit *edits, size_t nr,
			 int out_fd, void **image, size_t *image_size,
			 const struct b2b_log *log);

#endif /* BTF2BTF_ELF_FILE_H */
