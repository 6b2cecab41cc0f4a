// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The writers: raw BTF, the object with its .BTF replaced, an ELF image. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "handle.h"
#include "output.h"

/* Refuse to replace a file its owner made read-only (root would not be stopped). */
static int check_writable(const char *path, const struct b2b_log *log)
{
	struct stat st;

	if (stat(path, &st))
		return b2b_errno(log, -errno, "cannot stat: %s", strerror(errno));
	if (!(st.st_mode & 0222) || access(path, W_OK))
		return b2b_errno(log, -EACCES, "is read-only: refusing to rewrite it");
	return 0;
}

/* size bytes at raw into path, all or nothing (temp file, fsync, rename). */
static int write_bytes_to(const char *path, mode_t mode, const void *raw, size_t size,
			  const struct b2b_log *log)
{
	struct b2b_out out;
	int err;

	err = b2b_out_begin(&out, path, mode, log);
	if (err)
		return err;
	err = b2b_out_write(&out, raw, size, log);
	if (!err)
		return b2b_out_commit(&out, log);
	b2b_out_abort(&out);
	return err;
}

/* What goes to the temp file, OUT_BUF bytes at a time: the pieces range
 * from a repointed ->type (4 bytes) or a sorted chunk of types to megabytes
 * of types as read (a piece that size goes straight to write()). */
#define OUT_BUF	(64 * 1024)

struct out_sink {
	struct b2b_out *out;
	const struct b2b_log *log;
	char *buf;
	size_t len;
	bool write_failed;	/* b2b_out_write() said why */
};

static int sink_write(struct out_sink *s, const void *data, size_t len)
{
	int err = b2b_out_write(s->out, data, len, s->log);

	s->write_failed |= err != 0;
	return err;
}

static int sink_flush(struct out_sink *s)
{
	int err = s->len ? sink_write(s, s->buf, s->len) : 0;

	s->len = 0;
	return err;
}

static int sink_out(void *ctx, const void *data, size_t len)
{
	struct out_sink *s = ctx;
	int err;

	if (s->len + len <= OUT_BUF) {
		memcpy(s->buf + s->len, data, len);
		s->len += len;
		return 0;
	}
	err = sink_flush(s);
	if (err)
		return err;
	if (len >= OUT_BUF)
		return sink_write(s, data, len);
	memcpy(s->buf, data, len);
	s->len = len;
	return 0;
}

/* The transformed BTF written from its pieces, never laid out whole. */
static int write_pieces_to(struct btf2btf *b, const char *path, mode_t mode,
			  const struct b2b_log *log)
{
	struct out_sink s = { .log = log };
	struct b2b_out out;
	int err;

	err = b2b_out_begin(&out, path, mode, log);
	if (err)
		return err;
	s.out = &out;
	s.buf = b2b_fault_nomem() ? NULL : malloc(OUT_BUF);
	err = s.buf ? b2b_emit_result(b, sink_out, &s) : -ENOMEM;
	if (err && !s.write_failed)
		b2b_errno(log, err, "cannot write the transformed BTF: %s", strerror(-err));
	if (!err)
		err = sink_flush(&s);
	free(s.buf);
	if (!err)
		return b2b_out_commit(&out, log);
	b2b_out_abort(&out);
	return err;
}

static int write_raw_to(struct btf2btf *b, const char *path, mode_t mode)
{
	struct b2b_log log = b->log;
	const void *raw = NULL;
	size_t size = 0;
	int err;

	log.path = path;
	if ((b->sorted || b->merge) && btf__endianness(b->btf) == b2b_native_endianness())
		return write_pieces_to(b, path, mode, &log);
	err = btf2btf__raw_btf(b, &raw, &size);
	if (err)
		return err;
	return write_bytes_to(path, mode, raw, size, &log);
}

int btf2btf__write_raw(struct btf2btf *b, const char *path)
{
	return write_raw_to(b, path, 0644);
}

int btf2btf__write_raw_base(struct btf2btf *b, const char *path)
{
	struct b2b_log log = b->log;
	const void *raw = NULL;
	size_t size = 0;
	int err;

	log.path = path;
	err = btf2btf__raw_base_btf(b, &raw, &size);
	if (err == -ENOENT)
		return b2b_errno(&log, err, "no distilled base: transform with distill_base first");
	if (err)
		return b2b_errno(&log, err, "cannot serialise the distilled base: %s", strerror(-err));
	return write_bytes_to(path, 0644, raw, size, &log);
}

/* Someone else replaced the file since we read it: do not overwrite their result. */
static int check_same_file(struct btf2btf *b)
{
	struct stat st;

	if (stat(b->path, &st))
		return b2b_errno(&b->log, -errno, "cannot stat: %s", strerror(errno));
	if (st.st_dev != b->elf->st.st_dev || st.st_ino != b->elf->st.st_ino ||
	    st.st_size != b->elf->st.st_size || st.st_mtim.tv_sec != b->elf->st.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != b->elf->st.st_mtim.tv_nsec)
		return b2b_errno(&b->log, -ESTALE,
				 "was changed by another process while btf2btf ran; nothing written, run again");
	return 0;
}

/* .BTF replaced, and with a distilled base .BTF.base replaced or added. */
static int write_btf_sections(struct btf2btf *b, const void *raw, size_t size, int fd,
			      void **image, size_t *image_size)
{
	struct b2b_elf_edit edits[2] = {
		{ .index = b->btf_index, .data = raw, .size = size },
		{ .name = ".BTF.base" },
	};
	int err;

	if (b->base_out) {
		err = btf2btf__raw_base_btf(b, &edits[1].data, &edits[1].size);
		if (err)
			return b2b_errno(&b->log, err, "cannot serialise the distilled base: %s",
					 strerror(-err));
	}
	return b2b_elf_write_edited(b->elf, edits, b->base_out ? 2 : 1, fd, image, image_size,
				    &b->log);
}

/* Raw output FILE: the distilled base goes to FILE.base (as 7.3's X.BTF.base). */
static int write_base_beside(struct btf2btf *b, const char *path)
{
	size_t len = strlen(path);
	char *base_path = malloc(len + sizeof(".base"));
	int err;

	if (!base_path)
		return b2b_errno(&b->log, -ENOMEM, "out of memory");
	memcpy(base_path, path, len);
	memcpy(base_path + len, ".base", sizeof(".base"));
	err = btf2btf__write_raw_base(b, base_path);
	free(base_path);
	return err;
}

int btf2btf__write_elf(struct btf2btf *b)
{
	struct b2b_out out;
	const void *raw = NULL;
	struct stat st;
	size_t size = 0;
	int err;

	if (!b->changed)
		return 0;	/* byte-identical by construction */
	if (b->btf_path) {
		struct b2b_log log = b->log;

		log.path = b->btf_path;	/* the file being rewritten, not the object */
		err = check_writable(b->btf_path, &log);
		if (!err && stat(b->btf_path, &st))
			err = -errno;
		if (!err && b->base_out)
			err = write_base_beside(b, b->btf_path);
		return err ? err : write_raw_to(b, b->btf_path, st.st_mode);
	}
	err = check_writable(b->path, &b->log);
	if (err)
		return err;
	if (!b->elf) {
		if (b->base_out)
			err = write_base_beside(b, b->path);
		return err ? err : write_raw_to(b, b->path, 0644);
	}
	if (b->elf->fd < 0)
		return b2b_errno(&b->log, -EINVAL, "is an in-memory image: nothing to rewrite");

	/* one writer at a time; the second notices the first one's rename */
	if (flock(b->elf->fd, LOCK_EX))
		return b2b_errno(&b->log, -errno, "cannot lock: %s", strerror(errno));
	err = check_same_file(b);
	if (!err)	/* under the lock, any temp file of ours is a killed run's */
		b2b_out_clean_stale(b->path, &b->log);
	if (!err)
		err = btf2btf__raw_btf(b, &raw, &size);
	if (!err)
		err = b2b_out_begin(&out, b->path, b->elf->st.st_mode, &b->log);
	if (err)
		goto unlock;
	err = write_btf_sections(b, raw, size, out.fd, NULL, NULL);
	if (!err)
		err = check_same_file(b);
	if (!err)
		err = b2b_out_commit(&out, &b->log);
	else
		b2b_out_abort(&out);
unlock:
	flock(b->elf->fd, LOCK_UN);
	return err;
}

int btf2btf__elf_image(struct btf2btf *b, void **data, size_t *size)
{
	const void *raw = NULL;
	size_t raw_size = 0;
	int err;

	if (!b->elf || b->btf_path)
		return b2b_errno(&b->log, -EINVAL, "has no .BTF section to replace");
	err = btf2btf__raw_btf(b, &raw, &raw_size);
	if (err)
		return err;
	return write_btf_sections(b, raw, raw_size, -1, data, size);
}

