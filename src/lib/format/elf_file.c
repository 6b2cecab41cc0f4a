// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ELF access through libelf, and the writer that replaces or adds sections.
 *
 * The writer never lets libelf lay the file out again: allocated sections
 * and program headers of an executable (a .tmp_vmlinux) must keep their
 * offsets. The new section contents go where the old ones were when they
 * were the last thing in the file (pahole appends .BTF), else past the end;
 * a fresh section header table follows them.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/compress.h"
#include "format/elf_file.h"
#include "format/extent.h"
#include "format/modsig.h"
#include "format/output.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14; glibc 2.35 */
#endif

static int init_libelf(const struct b2b_log *log)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return b2b_errno(log, -EINVAL, "libelf initialisation failed: %s",
				 elf_errmsg(-1));
	return 0;
}

static int check_header(struct b2b_elf *e, const struct b2b_log *log)
{
	if (elf_kind(e->elf) != ELF_K_ELF)
		return b2b_errno(log, -ENOEXEC, "not an ELF object");
	if (!gelf_getehdr(e->elf, &e->ehdr))
		return b2b_errno(log, -ENOEXEC, "invalid ELF header: %s", elf_errmsg(-1));
	if (e->ehdr.e_ident[EI_DATA] != ELFDATA2LSB && e->ehdr.e_ident[EI_DATA] != ELFDATA2MSB)
		return b2b_errno(log, -ENOEXEC, "invalid ELF data encoding %u",
				 e->ehdr.e_ident[EI_DATA]);
	e->big_endian = e->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	if (elf_getshdrnum(e->elf, &e->shnum) || elf_getshdrstrndx(e->elf, &e->shstrndx))
		return b2b_errno(log, -ENOEXEC, "invalid section headers: %s", elf_errmsg(-1));
	if (e->ehdr.e_shoff > e->size ||
	    e->shnum * (uint64_t)e->ehdr.e_shentsize > e->size - e->ehdr.e_shoff)
		return b2b_errno(log, -ENOEXEC,
				 "truncated ELF: section header table ends past the file end (%llu bytes)",
				 (unsigned long long)e->size);
	/* the writer copies everything up to the last section's end: it must exist */
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e->elf, scn));) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return b2b_errno(log, -ENOEXEC, "invalid section header: %s", elf_errmsg(-1));
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > e->size || sh.sh_size > e->size - sh.sh_offset))
			return b2b_errno(log, -ENOEXEC,
					 "truncated ELF: section [%zu] (offset %llu, size %llu) ends past the file end (%llu bytes)",
					 elf_ndxscn(scn), (unsigned long long)sh.sh_offset,
					 (unsigned long long)sh.sh_size, (unsigned long long)e->size);
	}
	if (e->ehdr.e_phnum && (e->ehdr.e_phoff > e->size ||
	    e->ehdr.e_phnum * (uint64_t)e->ehdr.e_phentsize > e->size - e->ehdr.e_phoff))
		return b2b_errno(log, -ENOEXEC,
				 "truncated ELF: program header table ends past the file end (%llu bytes)",
				 (unsigned long long)e->size);
	return 0;
}

static int new_elf(struct b2b_elf **out, const struct b2b_log *log)
{
	int err = init_libelf(log);

	*out = NULL;
	if (err)
		return err;
	*out = b2b_calloc(1, sizeof(**out));
	if (!*out)
		return b2b_errno(log, -ENOMEM, "out of memory");
	(*out)->fd = -1;
	return 0;
}

/* A compressed file (or image) replaced by its decompressed bytes, in mem
 * (at most max_plain of them, 0: the default). */
static int decompress_whole(struct b2b_elf *e, uint64_t max_plain, const struct b2b_log *log)
{
	enum b2b_compression c;
	const void *data;
	size_t size;
	void *plain;
	int err = b2b_file_bytes(e, &data, &size, log);

	if (err)
		return err;
	c = b2b_compression_of(data, size);
	if (c == B2B_COMPRESS_NONE)
		return 0;
	err = b2b_decompress(c, data, size, max_plain, &plain, &size, log);
	if (err)
		return err;
	if (e->map)
		munmap(e->map, e->size);
	e->map = NULL;
	free(e->mem);
	e->mem = plain;
	e->size = size;
	e->compression = c;
	return 0;
}

int b2b_file_open(const char *path, uint64_t max_plain, const struct b2b_log *log,
		  struct b2b_elf **out)
{
	struct b2b_elf *e;
	int err = new_elf(&e, log);

	if (err)
		return err;
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0)
		err = b2b_errno(log, -errno, "cannot open: %s", strerror(errno));
	else if (fstat(e->fd, &e->st))
		err = b2b_errno(log, -errno, "cannot stat: %s", strerror(errno));
	else if (S_ISDIR(e->st.st_mode))
		err = b2b_errno(log, -EISDIR, "cannot read: %s", strerror(EISDIR));
	else if (!S_ISREG(e->st.st_mode))
		err = b2b_errno(log, -EINVAL, "not a regular file");
	if (err) {
		b2b_elf_close(e);
		return err;
	}
	e->size = e->st.st_size;
	/* our own mapping, so that b2b_elf_release() knows its bounds; private
	 * and writable because libelf may convert a memory image in place */
	if (e->size && e->size == (size_t)e->size) {
		e->map = mmap(NULL, e->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, e->fd, 0);
		if (e->map == MAP_FAILED)
			e->map = NULL;
	}
	err = decompress_whole(e, max_plain, log);
	if (err) {
		b2b_elf_close(e);
		return err;
	}
	*out = e;
	return 0;
}

int b2b_mem_open(const void *buf, size_t size, uint64_t max_plain, const struct b2b_log *log,
		 struct b2b_elf **out)
{
	struct b2b_elf *e;
	int err = new_elf(&e, log);

	if (err)
		return err;
	e->size = size;
	/* libelf may write into a memory image (byte swapping): give it a copy */
	e->mem = b2b_malloc(size);
	if (!e->mem) {
		b2b_elf_close(e);
		return b2b_errno(log, -ENOMEM, "out of memory");
	}
	memcpy(e->mem, buf, size);
	err = decompress_whole(e, max_plain, log);
	if (err) {
		b2b_elf_close(e);
		return err;
	}
	*out = e;
	return 0;
}

int b2b_file_bytes(struct b2b_elf *e, const void **data, size_t *size, const struct b2b_log *log)
{
	size_t off = 0;

	if (!e->map && !e->mem) {
		/* no mapping (mmap refused): read the file once, from the same fd */
		e->mem = b2b_malloc(e->size);
		if (!e->mem)
			return b2b_errno(log, -ENOMEM, "out of memory");
		while (off < e->size) {
			ssize_t n = pread(e->fd, (char *)e->mem + off, e->size - off, off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				int err = n < 0 ? -errno : -EIO;

				free(e->mem);
				e->mem = NULL;
				return b2b_errno(log, err, "cannot read: %s", strerror(-err));
			}
			off += n;
		}
	}
	*data = e->map ? e->map : e->mem;
	*size = e->size;
	return 0;
}

/* An appended module signature: where the ELF ends, or the trailer refused
 * when it does not add up or overlaps what the ELF's headers span. */
static int check_signature(struct b2b_elf *e, const void *data, size_t size,
			   const struct b2b_log *log)
{
	struct b2b_extent x;
	char why[256];
	size_t elf_size;
	int found = b2b_modsig_find(data, size, &elf_size, why, sizeof(why));

	if (found < 0)
		return b2b_errno(log, -EBADMSG, "%s", why);
	if (!found)
		return 0;
	if (!b2b_extent_of(data, elf_size, &x) && x.end > elf_size)
		return b2b_errno(log, -EBADMSG,
				 "its module signature trailer (%zu bytes from offset %zu) overlaps the ELF object, whose headers say it spans %llu bytes",
				 size - elf_size, elf_size, (unsigned long long)x.end);
	e->signature_off = elf_size;
	return 0;
}

int b2b_elf_begin(struct b2b_elf *e, const struct b2b_log *log)
{
	const void *data;
	size_t size;
	int err = b2b_file_bytes(e, &data, &size, log);

	if (err)
		return err;
	e->elf = elf_memory((char *)data, size);
	if (!e->elf)
		return b2b_errno(log, -ENOEXEC, "not an ELF object: %s", elf_errmsg(-1));
	err = check_header(e, log);
	if (!err)
		err = check_signature(e, data, size, log);
	return err;
}

void b2b_elf_close(struct b2b_elf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	if (e->map)
		munmap(e->map, e->size);
	if (e->fd >= 0)
		close(e->fd);
	free(e->mem);
	free(e);
}

static int section_bytes(struct b2b_elf *e, Elf_Scn *scn, const char *name,
			 struct b2b_section *sec, const struct b2b_log *log)
{
	Elf_Data *data;

	sec->data = NULL;
	sec->size = 0;
	if (sec->shdr.sh_type == SHT_NOBITS)
		return b2b_errno(log, -EINVAL, "section %s has no contents (SHT_NOBITS)", name);
	if (sec->shdr.sh_offset > e->size || sec->shdr.sh_size > e->size - sec->shdr.sh_offset)
		return b2b_errno(log, -EINVAL,
				 "truncated ELF: section %s (offset %llu, size %llu) ends past the file end (%llu bytes)",
				 name, (unsigned long long)sec->shdr.sh_offset,
				 (unsigned long long)sec->shdr.sh_size, (unsigned long long)e->size);
	if (!sec->shdr.sh_size)
		return 0;
	data = elf_rawdata(scn, NULL);
	if (!data || data->d_size != sec->shdr.sh_size)
		return b2b_errno(log, -EINVAL, "cannot read section %s (type %u, entry size %llu): %s",
				 name, sec->shdr.sh_type, (unsigned long long)sec->shdr.sh_entsize,
				 elf_errmsg(-1));
	sec->data = data->d_buf;
	sec->size = data->d_size;
	return 0;
}

int b2b_elf_section(struct b2b_elf *e, const char *name, struct b2b_section *sec,
		    const struct b2b_log *log)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *sname;

		if (!gelf_getshdr(scn, &sec->shdr))
			return b2b_errno(log, -EINVAL, "invalid section header: %s", elf_errmsg(-1));
		sname = elf_strptr(e->elf, e->shstrndx, sec->shdr.sh_name);
		if (!sname || strcmp(sname, name))
			continue;
		sec->index = elf_ndxscn(scn);
		return section_bytes(e, scn, name, sec, log);
	}
	return -ENOENT;
}

/* Whether [lo, hi) lies in the file's own mapping. */
static bool in_mapping(const struct b2b_elf *e, uintptr_t lo, uintptr_t hi)
{
	uintptr_t m = (uintptr_t)e->map;

	return e->map && lo >= m && hi <= m + e->size && hi >= lo;
}

void b2b_elf_release(struct b2b_elf *e, const void *p, size_t size)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p, hi = lo + size;

	/* a file in the other byte order may have been converted in place:
	 * dropping those pages would bring the unconverted bytes back */
	if (e->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) || !in_mapping(e, lo, hi))
		return;
	lo = (lo + page - 1) & ~(page - 1);
	hi &= ~(page - 1);
	if (lo < hi)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

void b2b_elf_prefault(const struct b2b_elf *e, const void *p, size_t size)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p, hi = lo + size;

	if (!in_mapping(e, lo, hi))
		return;
	lo &= ~(page - 1);
	/*
	 * One call instead of a fault every 64 KB (the kernel's fault-around):
	 * a 7.3 vmlinux's 2.4 MB .BTF took 40 faults, 0.9 ms on a VM, against
	 * 0.4 ms. The pages stay the page cache's (read-only in a private
	 * mapping until written). A kernel before 5.14 refuses the advice
	 * (EINVAL): the faults then come as before.
	 */
	madvise((void *)lo, hi - lo, MADV_POPULATE_READ);
}

/*
 * The symbol names in place: elf_strptr() validates every name on every
 * call. The same guarantee once: one
 * data block, the last byte a NUL, so every name ends inside it.
 */
static void symtab_strings(struct b2b_elf *e, struct b2b_symtab *symtab)
{
	Elf_Scn *scn = elf_getscn(e->elf, symtab->strndx);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	if (!d || !d->d_buf || !d->d_size || elf_getdata(scn, d) ||
	    ((const char *)d->d_buf)[d->d_size - 1])
		return;
	symtab->strs = d->d_buf;
	symtab->strs_size = d->d_size;
}

int b2b_elf_symtab(struct b2b_elf *e, struct b2b_symtab *symtab, const struct b2b_log *log)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(symtab, 0, sizeof(*symtab));
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return b2b_errno(log, -EINVAL, "invalid section header: %s", elf_errmsg(-1));
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (sh.sh_offset > e->size || sh.sh_size > e->size - sh.sh_offset)
			return b2b_errno(log, -EINVAL, "truncated ELF: symbol table ends past the file end");
		if (!sh.sh_entsize || sh.sh_entsize != gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT))
			return b2b_errno(log, -EINVAL, "invalid symbol table entry size %llu",
					 (unsigned long long)sh.sh_entsize);
		if (sh.sh_link == 0 || sh.sh_link >= e->shnum)
			return b2b_errno(log, -EINVAL, "symbol table links to invalid string table %u",
					 sh.sh_link);
		symtab->data = elf_getdata(scn, NULL);
		if (!symtab->data)
			return b2b_errno(log, -EINVAL, "cannot read the symbol table: %s", elf_errmsg(-1));
		symtab->count = sh.sh_size / sh.sh_entsize;
		symtab->strndx = sh.sh_link;
		symtab_strings(e, symtab);
		return 0;
	}
	return -ENOENT;
}

int b2b_elf_sym_in(struct b2b_elf *e, const struct b2b_symtab *symtab, size_t i, size_t shndx,
		   GElf_Sym *sym, const char **name)
{
	if (!gelf_getsym(symtab->data, (int)i, sym))
		return -EINVAL;
	if (sym->st_shndx != shndx)
		return 0;
	if (!sym->st_name)
		*name = NULL;
	else if (symtab->strs)
		*name = sym->st_name < symtab->strs_size ? symtab->strs + sym->st_name : NULL;
	else
		*name = elf_strptr(e->elf, symtab->strndx, sym->st_name);
	return 1;
}

uint32_t b2b_elf_word(const struct b2b_elf *e, const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return e->big_endian ? be32toh(v) : le32toh(v);
}

/* ---- writer ---- */

struct sink {
	int fd;
	char *buf;	/* the image in memory; for a file, what is not written yet */
	size_t len, cap;
};

/* A file sink gathers the small pieces (section headers, padding) into
 * writes of up to this many bytes: a write() each cost more than the bytes. */
#define SINK_BATCH	(64u << 10)

static int sink_flush(struct sink *s)
{
	int err = 0;

	if (s->fd >= 0 && s->len) {
		err = b2b_write_all(s->fd, s->buf, s->len);
		s->len = 0;
	}
	return err;
}

/* To the file, or appended to the image in memory. */
static int sink_write(struct sink *s, const void *p, size_t len)
{
	if (s->fd >= 0 && s->len + len > SINK_BATCH) {
		int err = sink_flush(s);

		if (err || len > SINK_BATCH)
			return err ?: b2b_write_all(s->fd, p, len);
	}
	if (s->len + len > s->cap && b2b_grow((void **)&s->buf, &s->cap, s->len + len, 1))
		return -ENOMEM;
	if (len)
		memcpy(s->buf + s->len, p, len);
	s->len += len;
	return 0;
}

static int sink_zeros(struct sink *s, size_t len)
{
	static const char zeros[64];
	int err = 0;

	while (len && !err) {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);

		err = sink_write(s, zeros, n);
		len -= n;
	}
	return err;
}

/* Copy [off, off + len) of the input: in the kernel when both are files. */
static int sink_copy(struct sink *s, struct b2b_elf *e, uint64_t off, uint64_t len)
{
	char buf[1 << 16];

	if (e->fd < 0 || e->compression)
		return sink_write(s, (char *)e->mem + off, len);
	if (s->fd >= 0) {
		loff_t in_off = off;
		int err = sink_flush(s);

		if (err)
			return err;

		while (len) {
			ssize_t n = copy_file_range(e->fd, &in_off, s->fd, NULL, len, 0);

			if (n <= 0)
				break;	/* not supported here: fall back to read + write */
			len -= n;
		}
		off = in_off;
	}
	while (len) {
		size_t want = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t n = pread(e->fd, buf, want, off);
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		err = sink_write(s, buf, n);
		if (err)
			return err;
		off += n;
		len -= n;
	}
	return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

static bool is_edited(const struct b2b_elf_edit *edits, size_t nr, size_t index)
{
	for (size_t i = 0; i < nr; i++)
		if (edits[i].index == index)
			return true;
	return false;
}

/* End of everything in the file but the edited sections and the section header table. */
static int content_end(struct b2b_elf *e, const struct b2b_elf_edit *edits, size_t nr,
		       uint64_t *end, const struct b2b_log *log)
{
	uint64_t max = gelf_fsize(e->elf, ELF_T_EHDR, 1, EV_CURRENT);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (e->ehdr.e_phnum) {
		uint64_t ph_end = e->ehdr.e_phoff + (uint64_t)e->ehdr.e_phnum * e->ehdr.e_phentsize;

		if (ph_end > max)
			max = ph_end;
	}
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return b2b_errno(log, -EINVAL, "invalid section header: %s", elf_errmsg(-1));
		if (is_edited(edits, nr, elf_ndxscn(scn)) || sh.sh_type == SHT_NOBITS)
			continue;
		if (sh.sh_offset + sh.sh_size > max)
			max = sh.sh_offset + sh.sh_size;
	}
	*end = max;
	return 0;
}

/* A segment covering the section would silently stop matching it. */
static int check_segments(struct b2b_elf *e, const GElf_Shdr *sh, const struct b2b_log *log)
{
	for (size_t i = 0; i < e->ehdr.e_phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e->elf, (int)i, &ph))
			return b2b_errno(log, -EINVAL, "invalid program header %zu", i);
		if (ph.p_filesz && sh->sh_offset < ph.p_offset + ph.p_filesz &&
		    ph.p_offset < sh->sh_offset + sh->sh_size)
			return b2b_errno(log, -ENOTSUP,
					 "the BTF section lies inside loadable segment %zu: it cannot grow in place; write raw BTF with -o",
					 i);
	}
	if (sh->sh_flags & SHF_ALLOC)
		return b2b_errno(log, -ENOTSUP,
				 "the BTF section is allocated (SHF_ALLOC, a final vmlinux?): it cannot grow in place; write raw BTF with -o");
	return 0;
}

/* GElf_Ehdr -> Elf32_Ehdr or Elf64_Ehdr: same field names, other widths. */
#define COPY_EHDR(h, eh) do {						\
	memcpy((h)->e_ident, (eh).e_ident, EI_NIDENT);			\
	(h)->e_type = (eh).e_type;	(h)->e_machine = (eh).e_machine;	\
	(h)->e_version = (eh).e_version; (h)->e_entry = (eh).e_entry;	\
	(h)->e_phoff = (eh).e_phoff;	(h)->e_shoff = (eh).e_shoff;	\
	(h)->e_flags = (eh).e_flags;	(h)->e_ehsize = (eh).e_ehsize;	\
	(h)->e_phentsize = (eh).e_phentsize; (h)->e_phnum = (eh).e_phnum; \
	(h)->e_shentsize = (eh).e_shentsize; (h)->e_shnum = (eh).e_shnum; \
	(h)->e_shstrndx = (eh).e_shstrndx;				\
} while (0)

/* One section header in the file's class and byte order. */
static int emit_shdr(struct b2b_elf *e, const GElf_Shdr *sh, struct sink *s)
{
	size_t shsz = gelf_fsize(e->elf, ELF_T_SHDR, 1, EV_CURRENT);
	unsigned int enc = e->ehdr.e_ident[EI_DATA];
	union { Elf32_Shdr s32; Elf64_Shdr s64; } mem, file;
	Elf_Data src = { .d_buf = &mem, .d_type = ELF_T_SHDR, .d_version = EV_CURRENT };
	Elf_Data dst = { .d_buf = &file, .d_type = ELF_T_SHDR, .d_version = EV_CURRENT,
			 .d_size = sizeof(file) };

	if (gelf_getclass(e->elf) == ELFCLASS64) {
		mem.s64 = (Elf64_Shdr){ sh->sh_name, sh->sh_type, sh->sh_flags, sh->sh_addr,
			sh->sh_offset, sh->sh_size, sh->sh_link, sh->sh_info,
			sh->sh_addralign, sh->sh_entsize };
		src.d_size = sizeof(Elf64_Shdr);
		if (!elf64_xlatetof(&dst, &src, enc))
			return -EINVAL;
	} else {
		if (sh->sh_offset > UINT32_MAX || sh->sh_size > UINT32_MAX)
			return -EFBIG;
		mem.s32 = (Elf32_Shdr){ sh->sh_name, sh->sh_type, sh->sh_flags, sh->sh_addr,
			sh->sh_offset, sh->sh_size, sh->sh_link, sh->sh_info,
			sh->sh_addralign, sh->sh_entsize };
		src.d_size = sizeof(Elf32_Shdr);
		if (!elf32_xlatetof(&dst, &src, enc))
			return -EINVAL;
	}
	return sink_write(s, &file, shsz);
}

/*
 * Section headers (edited ones at their new offsets and sizes, new ones
 * appended) and the ELF header, converted to the file's class and byte order.
 */
static int emit_headers(struct b2b_elf *e, const struct b2b_elf_edit *edits, size_t nr,
			const uint64_t *offs, const uint32_t *names, uint64_t shoff,
			struct sink *s, void *ehdr_out, size_t *ehdr_sz)
{
	bool is64 = gelf_getclass(e->elf) == ELFCLASS64;
	unsigned int enc = e->ehdr.e_ident[EI_DATA];
	size_t added = 0;
	int err = 0;

	for (size_t i = 0; i < e->shnum && !err; i++) {
		Elf_Scn *scn = elf_getscn(e->elf, i);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			return -EINVAL;
		for (size_t k = 0; k < nr; k++) {
			/* index 0 marks an added section, not section 0 */
			if (edits[k].index && edits[k].index == i) {
				sh.sh_offset = offs[k];
				sh.sh_size = edits[k].size;
			}
		}
		err = emit_shdr(e, &sh, s);
	}
	for (size_t k = 0; k < nr && !err; k++) {
		GElf_Shdr sh = {
			.sh_name = names[k], .sh_type = SHT_PROGBITS, .sh_offset = offs[k],
			.sh_size = edits[k].size, .sh_addralign = 4,
		};

		if (edits[k].index)
			continue;
		err = emit_shdr(e, &sh, s);
		added++;
	}
	if (err)
		return err;

	{
		union { Elf32_Ehdr e32; Elf64_Ehdr e64; } mem;
		Elf_Data src = { .d_buf = &mem, .d_type = ELF_T_EHDR, .d_version = EV_CURRENT };
		Elf_Data dst = { .d_buf = ehdr_out, .d_type = ELF_T_EHDR, .d_version = EV_CURRENT,
				 .d_size = sizeof(Elf64_Ehdr) };
		GElf_Ehdr eh = e->ehdr;

		eh.e_shoff = shoff;
		eh.e_shnum += added;
		if (is64) {
			Elf64_Ehdr *h = &mem.e64;

			COPY_EHDR(h, eh);
			src.d_size = sizeof(*h);
			if (!elf64_xlatetof(&dst, &src, enc))
				return -EINVAL;
		} else {
			Elf32_Ehdr *h = &mem.e32;

			if (shoff > UINT32_MAX)
				return -EFBIG;
			COPY_EHDR(h, eh);
			src.d_size = sizeof(*h);
			if (!elf32_xlatetof(&dst, &src, enc))
				return -EINVAL;
		}
		*ehdr_sz = dst.d_size;
	}
	return 0;
}

/* Index of the section named name, 0 if none. */
static size_t section_index(struct b2b_elf *e, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
		if (n && !strcmp(n, name))
			return elf_ndxscn(scn);
	}
	return 0;
}

int b2b_elf_write_edited(struct b2b_elf *e, const struct b2b_elf_edit *in, size_t nr_in,
			 int out_fd, void **image, size_t *image_size,
			 const struct b2b_log *log)
{
	struct b2b_elf_edit edits[B2B_ELF_MAX_EDITS + 1];
	uint64_t end = 0, pos, shoff, file_end, offs[B2B_ELF_MAX_EDITS + 1];
	uint32_t names[B2B_ELF_MAX_EDITS + 1] = { 0 };
	Elf64_Ehdr ehdr_bytes;	/* big enough for either class */
	struct sink s = { .fd = out_fd };
	char *shstr = NULL;
	size_t ehdr_sz = 0, nr = 0, added = 0;
	bool all_last = true;
	int err;

	if (nr_in > B2B_ELF_MAX_EDITS)
		return b2b_errno(log, -EINVAL, "too many section edits");
	if (e->ehdr.e_shentsize != gelf_fsize(e->elf, ELF_T_SHDR, 1, EV_CURRENT))
		return b2b_errno(log, -EINVAL, "unexpected section header size %u",
				 e->ehdr.e_shentsize);
	for (size_t k = 0; k < nr_in; k++) {
		edits[nr] = in[k];
		if (!edits[nr].index && edits[nr].name)
			edits[nr].index = section_index(e, edits[nr].name);	/* replace */
		added += !edits[nr].index;
		nr++;
	}
	if (added) {
		/* the new names go at the end of the section name table, itself rewritten */
		Elf_Scn *scn = elf_getscn(e->elf, e->shstrndx);
		Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
		size_t len;

		if (!d || !e->shstrndx || e->shnum + added >= SHN_LORESERVE)
			return b2b_errno(log, -ENOTSUP, "cannot add a section to this object");
		len = d->d_size;
		for (size_t k = 0; k < nr; k++)
			if (!edits[k].index)
				len += strlen(edits[k].name) + 1;
		shstr = b2b_malloc(len);
		if (!shstr)
			return b2b_errno(log, -ENOMEM, "out of memory");
		memcpy(shstr, d->d_buf, d->d_size);
		len = d->d_size;
		for (size_t k = 0; k < nr; k++) {
			if (edits[k].index)
				continue;
			names[k] = len;
			memcpy(shstr + len, edits[k].name, strlen(edits[k].name) + 1);
			len += strlen(edits[k].name) + 1;
		}
		edits[nr++] = (struct b2b_elf_edit){ .index = e->shstrndx, .data = shstr, .size = len };
	}
	for (size_t k = 0; k < nr; k++) {
		Elf_Scn *scn;
		GElf_Shdr sh;

		if (!edits[k].index)
			continue;
		scn = elf_getscn(e->elf, edits[k].index);
		if (!scn || !gelf_getshdr(scn, &sh)) {
			err = b2b_errno(log, -EINVAL, "invalid section index %zu", edits[k].index);
			goto out;
		}
		/* a bogus alignment would pad the output with gigabytes of zeros */
		if (sh.sh_addralign > 4096) {
			err = b2b_errno(log, -EINVAL, "the BTF section's alignment %llu is implausible (> 4096)",
					(unsigned long long)sh.sh_addralign);
			goto out;
		}
		err = check_segments(e, &sh, log);
		if (err)
			goto out;
	}
	err = content_end(e, edits, nr, &end, log);
	if (err)
		goto out;
	for (size_t k = 0; k < nr; k++) {
		Elf_Scn *scn = edits[k].index ? elf_getscn(e->elf, edits[k].index) : NULL;
		GElf_Shdr sh;

		if (scn && gelf_getshdr(scn, &sh) && sh.sh_offset < end)
			all_last = false;
	}
	/* the edited sections were last: rewrite them where they were; an
	 * appended signature is not copied (it would sign other bytes) */
	file_end = e->signature_off ? e->signature_off : e->size;
	pos = all_last ? end : (end > file_end ? end : file_end);
	for (size_t k = 0; k < nr; k++) {
		Elf_Scn *scn = edits[k].index ? elf_getscn(e->elf, edits[k].index) : NULL;
		GElf_Shdr sh = { .sh_addralign = 4 };
		uint64_t align;

		if (scn)
			gelf_getshdr(scn, &sh);
		align = sh.sh_addralign > 8 ? sh.sh_addralign : 8;
		offs[k] = align_up(pos, align);
		pos = offs[k] + edits[k].size;
	}
	shoff = align_up(pos, gelf_getclass(e->elf) == ELFCLASS64 ? 8 : 4);

	/* Everything before the new contents, as it was (ELF header patched below). */
	pos = nr ? offs[0] : shoff;
	err = sink_copy(&s, e, 0, pos < file_end ? pos : file_end);
	if (!err && pos > file_end)
		err = sink_zeros(&s, pos - file_end);
	for (size_t k = 0; k < nr && !err; k++) {
		if (offs[k] > pos)
			err = sink_zeros(&s, offs[k] - pos);
		if (!err)
			err = sink_write(&s, edits[k].data, edits[k].size);
		pos = offs[k] + edits[k].size;
	}
	if (!err)
		err = sink_zeros(&s, shoff - pos);
	if (!err)
		err = emit_headers(e, edits, nr, offs, names, shoff, &s, &ehdr_bytes, &ehdr_sz);
	if (!err)
		err = sink_flush(&s);
	if (!err) {
		if (out_fd >= 0) {
			if (pwrite(out_fd, &ehdr_bytes, ehdr_sz, 0) != (ssize_t)ehdr_sz)
				err = errno ? -errno : -EIO;
		} else {
			memcpy(s.buf, &ehdr_bytes, ehdr_sz);
		}
	}
	if (out_fd >= 0) {
		free(s.buf);
		s.buf = NULL;
	}
	if (err) {
		free(s.buf);
		err = b2b_errno(log, err, "cannot write the new object: %s", strerror(-err));
		goto out;
	}
	if (out_fd < 0) {
		*image = s.buf;
		*image_size = s.len;
	}
out:
	free(shstr);
	return err;
}
