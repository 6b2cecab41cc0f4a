// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * How many bytes an ELF object or raw BTF says it spans, told from its
 * first bytes: what lets the decompressor (compress.c) stop a stream that
 * holds something else, or far more than the object it starts with, after
 * reading only that object's headers instead of all of it.
 *
 * An ELF object spans its headers, its section header table, every
 * section with contents and every segment; raw BTF its header and the
 * sections the header names. Either byte order, either ELF class; an ELF
 * with 65,535+ sections or segments keeps the real counts in section 0
 * (extended numbering), which is read when it comes.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "format/btf_format.h"
#include "format/extent.h"

static uint64_t field(const unsigned char *p, unsigned int bytes, bool big)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes; i++)
		v = big ? v << 8 | p[i] : v | (uint64_t)p[i] << (8 * i);
	return v;
}

/* Field offsets and sizes of the ELF32 and ELF64 structures (elf.h). */
struct elf_layout {
	unsigned int ehdr, phoff, shoff, w;	/* w: bytes of an address or offset */
	unsigned int phentsize, phnum, shentsize, shnum;
	unsigned int phdr, p_offset, p_filesz;
	unsigned int shdr, sh_type, sh_offset, sh_size, sh_info;
};

static const struct elf_layout elf32 = {
	52, 28, 32, 4, 42, 44, 46, 48,
	32, 4, 16,
	40, 4, 16, 20, 28,
};

static const struct elf_layout elf64 = {
	64, 32, 40, 8, 54, 56, 58, 60,
	56, 8, 32,
	64, 4, 24, 32, 44,
};

#define SHT_NOBITS_	8
#define PN_XNUM_	0xffff

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* off + size, UINT64_MAX when it does not fit: claims are untrusted */
static uint64_t end_of(uint64_t off, uint64_t size)
{
	return off > UINT64_MAX - size ? UINT64_MAX : off + size;
}

/* The end of a table of n entries of entsize bytes at off (n is at most
 * 32 bits and entsize 16: their product fits). */
static uint64_t table_end(uint64_t off, uint64_t n, uint64_t entsize)
{
	return end_of(off, n * entsize);
}

static int elf_extent(const unsigned char *p, size_t len, struct b2b_extent *x)
{
	const struct elf_layout *l;
	uint64_t phoff, shoff, phnum, shnum, phent, shent, end;
	bool big;

	if (len < 6)
		return x->end = 6, 0;
	if (p[4] != 1 && p[4] != 2)
		return x->why = "an ELF header of an unknown class", -ENOEXEC;
	if (p[5] != 1 && p[5] != 2)
		return x->why = "an ELF header of an unknown data encoding", -ENOEXEC;
	l = p[4] == 1 ? &elf32 : &elf64;
	big = p[5] == 2;
	if (len < l->ehdr)
		return x->end = l->ehdr, 0;
	phoff = field(p + l->phoff, l->w, big);
	shoff = field(p + l->shoff, l->w, big);
	phent = field(p + l->phentsize, 2, big);
	phnum = field(p + l->phnum, 2, big);
	shent = field(p + l->shentsize, 2, big);
	shnum = field(p + l->shnum, 2, big);
	if ((shoff && shent < l->shdr) || (phnum && phent < l->phdr))
		return x->why = "an ELF header with section or program header entries too small", -ENOEXEC;
	/* extended numbering: the counts in section 0 */
	if (shoff && (!shnum || phnum == PN_XNUM_)) {
		x->end = max64(l->ehdr, table_end(shoff, 1, shent));
		if (len < x->end)
			return 0;
		if (!shnum)
			shnum = field(p + shoff + l->sh_size, l->w, big);
		if (phnum == PN_XNUM_)
			phnum = field(p + shoff + l->sh_info, 4, big);
		if (shnum > UINT32_MAX || phnum > UINT32_MAX)
			return x->why = "an ELF header with more than 2^32 sections or segments", -ENOEXEC;
	}
	/* the tables first: the sections and segments are read from them */
	end = max64(l->ehdr, max64(phnum ? table_end(phoff, phnum, phent) : 0,
				   shoff ? table_end(shoff, shnum, shent) : 0));
	x->end = end;
	if (len < end)
		return 0;
	for (uint64_t i = 0; shoff && i < shnum; i++) {
		const unsigned char *sh = p + shoff + i * shent;

		if (field(sh + l->sh_type, 4, big) != SHT_NOBITS_)
			end = max64(end, end_of(field(sh + l->sh_offset, l->w, big),
						field(sh + l->sh_size, l->w, big)));
	}
	for (uint64_t i = 0; i < phnum; i++) {
		const unsigned char *ph = p + phoff + i * phent;

		end = max64(end, end_of(field(ph + l->p_offset, l->w, big),
					field(ph + l->p_filesz, l->w, big)));
	}
	x->end = end;
	x->known = true;
	return 0;
}

static int btf_extent(const unsigned char *p, size_t len, struct b2b_extent *x)
{
	bool big = p[0] == 0xeb;	/* the magic 0xeb9f as stored */
	uint64_t hdr_len, end;

	if (len < B2B_BTF_HDR_LEN)
		return x->end = B2B_BTF_HDR_LEN, 0;
	hdr_len = field(p + 4, 4, big);
	if (hdr_len < B2B_BTF_HDR_LEN)
		return x->why = "a BTF header shorter than 24 bytes", -ENOEXEC;
	/* types, strings, and with a 32-byte header the layout section */
	end = max64(field(p + 8, 4, big) + field(p + 12, 4, big),
		    field(p + 16, 4, big) + field(p + 20, 4, big));	/* 33 bits at most */
	if (hdr_len >= B2B_BTF_HDR_LAYOUT_LEN) {
		x->end = hdr_len;
		if (len < B2B_BTF_HDR_LAYOUT_LEN)
			return 0;
		end = max64(end, field(p + 24, 4, big) + field(p + 28, 4, big));
	}
	x->end = hdr_len + end;
	x->known = true;
	return 0;
}

int b2b_extent_of(const void *data, size_t len, struct b2b_extent *x)
{
	static const unsigned char elf_magic[4] = { 0x7f, 'E', 'L', 'F' };
	const unsigned char *p = data;

	memset(x, 0, sizeof(*x));
	if (len < 4)
		return x->end = 4, 0;
	if (!memcmp(p, elf_magic, 4))
		return elf_extent(p, len, x);
	if ((p[0] == 0x9f && p[1] == 0xeb) || (p[0] == 0xeb && p[1] == 0x9f))
		return btf_extent(p, len, x);
	x->why = "neither an ELF object nor raw BTF";
	return -ENOEXEC;
}
