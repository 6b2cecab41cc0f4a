// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Stage 5 of the pipeline (open -> plan -> edit -> post-passes -> write): the
 * writers: raw BTF, the object with its .BTF replaced, an ELF image. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/compress.h"
#include "api/handle.h"
#include "format/output.h"

/* The raw BTF into out, begun already. */
static int fill_raw(struct btf2btf *b, struct b2b_out *out, const struct b2b_log *log)
{
	const void *raw = NULL;
	size_t size = 0;
	int err;

	err = btf2btf__raw_btf(b, &raw, &size);
	return err ? err : b2b_out_write(out, raw, size, log);
}

/* The distilled base into out, begun already. */
static int fill_base(struct btf2btf *b, struct b2b_out *out, const struct b2b_log *log)
{
	const void *raw = NULL;
	size_t size = 0;
	int err;

	err = btf2btf__raw_base_btf(b, &raw, &size);
	if (err == -ENOENT)
		return b2b_errno(log, err, "no distilled base: transform with distill_base first");
	if (err)
		return b2b_errno(log, err, "cannot serialise the distilled base: %s", strerror(-err));
	return b2b_out_write(out, raw, size, log);
}

typedef int (*fill_fn)(struct btf2btf *b, struct b2b_out *out, const struct b2b_log *log);

/* One file, all or nothing (temp file, fsync, rename). */
static int write_one(struct btf2btf *b, const char *path, mode_t mode, fill_fn fill)
{
	struct b2b_log log = b->log;
	struct b2b_out out;
	int err;

	log.path = path;
	err = b2b_out_begin(&out, path, mode, &log);
	if (err)
		return err;
	err = fill(b, &out, &log);
	if (err) {
		b2b_out_abort(&out);
		return err;
	}
	return b2b_out_commit(&out, &log);
}

/* The BTF at path and the distilled base at base_path: both or neither. */
static int write_both(struct btf2btf *b, const char *path, const char *base_path, mode_t mode)
{
	struct b2b_log log = b->log, base_log = b->log;
	struct b2b_out out, base_out;
	int err;

	log.path = path;
	base_log.path = base_path;
	err = b2b_out_begin(&base_out, base_path, mode, &base_log);
	if (err)
		return err;
	err = b2b_out_begin(&out, path, mode, &log);
	if (err) {
		b2b_out_abort(&base_out);
		return err;
	}
	err = fill_base(b, &base_out, &base_log);
	if (!err)
		err = fill_raw(b, &out, &log);
	if (!err)
		return b2b_out_commit_pair(&base_out, &out, &log);
	b2b_out_abort(&base_out);
	b2b_out_abort(&out);
	return err;
}

/* path names a file btf2btf reads (the object, --btf's raw BTF): writing
 * there would replace the input by the output of another kind. */
static int check_not_input(struct btf2btf *b, const char *path)
{
	const char *inputs[] = { b->obj.path, b->obj.btf_path };
	struct b2b_log log = b->log;
	struct stat st, in;

	log.path = path;
	if (stat(path, &st))
		return 0;	/* a new file */
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		if (inputs[i] && !stat(inputs[i], &in) && in.st_dev == st.st_dev &&
		    in.st_ino == st.st_ino)
			return b2b_errno(&log, -EINVAL, "is the input %s: refusing to write over it "
					 "(rewrite in place without -o)", inputs[i]);
	return 0;
}

int btf2btf__write_raw(struct btf2btf *b, const char *path)
{
	int err = check_not_input(b, path);

	return err ? err : write_one(b, path, 0644, fill_raw);
}

int btf2btf__write_raw_base(struct btf2btf *b, const char *path)
{
	int err = check_not_input(b, path);

	return err ? err : write_one(b, path, 0644, fill_base);
}

int btf2btf__write_raw_pair(struct btf2btf *b, const char *path, const char *base_path)
{
	char *named = base_path ? NULL : b2b_base_path_of(path);
	int err = 0;

	if (!base_path && !named)
		return b2b_errno(&b->log, -ENOMEM, "out of memory");
	if (!base_path)
		base_path = named;
	err = check_not_input(b, path);
	if (!err)
		err = check_not_input(b, base_path);
	if (!err)
		err = write_both(b, path, base_path, 0644);
	free(named);
	return err;
}

/* Someone else replaced the file since we read it: do not overwrite their result. */
static int check_same_file(struct btf2btf *b)
{
	struct stat st;

	if (stat(b->obj.path, &st))
		return b2b_errno(&b->log, -errno, "cannot stat: %s", strerror(errno));
	if (st.st_dev != b->obj.elf->st.st_dev || st.st_ino != b->obj.elf->st.st_ino ||
	    st.st_size != b->obj.elf->st.st_size || st.st_mtim.tv_sec != b->obj.elf->st.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != b->obj.elf->st.st_mtim.tv_nsec)
		return b2b_errno(&b->log, -ESTALE,
				 "was changed by another process while btf2btf ran; nothing written, run again");
	return 0;
}

/* .BTF replaced, and with a distilled base .BTF.base replaced or added. */
static int write_btf_sections(struct btf2btf *b, const void *raw, size_t size, int fd,
			      void **image, size_t *image_size)
{
	struct b2b_elf_edit edits[2] = {
		{ .index = b->obj.btf_index, .data = raw, .size = size },
		{ .name = ".BTF.base" },
	};
	int err;

	if (b->res.distilled) {
		err = btf2btf__raw_base_btf(b, &edits[1].data, &edits[1].size);
		if (err)
			return b2b_errno(&b->log, err, "cannot serialise the distilled base: %s",
					 strerror(-err));
	}
	return b2b_elf_write_edited(b->obj.elf, edits, b->res.distilled ? 2 : 1, fd, image, image_size,
				    &b->log);
}

/* Raw output FILE rewritten in place, and the distilled base in FILE.base
 * committed with it. */
static int write_raw_in_place(struct btf2btf *b, const char *path)
{
	char *base_path;
	int err;

	if (!b->res.distilled)
		return write_one(b, path, 0644, fill_raw);
	base_path = b2b_base_path_of(path);
	if (!base_path)
		return b2b_errno(&b->log, -ENOMEM, "out of memory");
	err = write_both(b, path, base_path, 0644);
	free(base_path);
	return err;
}

/*
 * A signed module is not rewritten in place: the signature covers the old
 * bytes, and a kernel enforcing signatures (CONFIG_MODULE_SIG_FORCE, lockdown)
 * would refuse the module; an unsigned copy can be written and signed again.
 */
static int check_unsigned(struct btf2btf *b)
{
	if (!b->obj.elf->signature_off)
		return 0;
	return b2b_errno(&b->log, -EPERM,
			 "carries an appended module signature (~Module signature appended~), which a new .BTF would invalidate: not rewritten; "
			 "write an unsigned copy (-O elf -o NEW.ko) and sign it with the kernel tree's scripts/sign-file HASH KEY CERT NEW.ko");
}

/* A compressed module: the new ELF image compressed as Kbuild compresses it. */
static int write_compressed(struct btf2btf *b, const void *raw, size_t size, struct b2b_out *out)
{
	void *image = NULL, *packed = NULL;
	size_t image_size = 0, packed_size = 0;
	int err = write_btf_sections(b, raw, size, -1, &image, &image_size);

	if (!err)
		err = b2b_compress(b->obj.elf->compression, image, image_size, &packed, &packed_size,
				   &b->log);
	free(image);
	if (!err)
		err = b2b_out_write(out, packed, packed_size, &b->log);
	free(packed);
	return err;
}

int btf2btf__write_elf(struct btf2btf *b)
{
	struct b2b_out out;
	const void *raw = NULL;
	size_t size = 0;
	int err;

	if (!b->res.changed)
		return 0;	/* byte-identical by construction */
	/* --btf's raw file is the one rewritten, not the object */
	if (b->obj.btf_path)
		return write_raw_in_place(b, b->obj.btf_path);
	if (!b->obj.elf)
		return write_raw_in_place(b, b->obj.path);
	if (b->obj.elf->fd < 0)
		return b2b_errno(&b->log, -EINVAL, "is an in-memory image: nothing to rewrite");
	err = check_unsigned(b);
	if (err)
		return err;

	/* one writer at a time; the second notices the first one's rename */
	if (flock(b->obj.elf->fd, LOCK_EX))
		return b2b_errno(&b->log, -errno, "cannot lock: %s", strerror(errno));
	err = check_same_file(b);
	if (!err)	/* under the lock, any temp file of ours is a killed run's */
		b2b_out_clean_stale(b->obj.path, &b->log);
	if (!err)
		err = btf2btf__raw_btf(b, &raw, &size);
	if (!err)
		err = b2b_out_begin(&out, b->obj.path, b->obj.elf->st.st_mode, &b->log);
	if (err)
		goto unlock;
	if (b->obj.elf->compression)
		err = write_compressed(b, raw, size, &out);
	else
		err = write_btf_sections(b, raw, size, out.fd, NULL, NULL);
	if (!err)
		err = check_same_file(b);
	if (!err)
		err = b2b_out_commit(&out, &b->log);
	else
		b2b_out_abort(&out);
unlock:
	flock(b->obj.elf->fd, LOCK_UN);
	return err;
}

int btf2btf__write_elf_copy(struct btf2btf *b, const char *path)
{
	struct b2b_log log = b->log;
	struct b2b_out out;
	const void *raw = NULL;
	size_t size = 0;
	int err;

	if (!b->obj.elf || b->obj.btf_path || b->obj.elf->fd < 0)
		return b2b_errno(&b->log, -EINVAL, "is no ELF object read with its .BTF: "
				 "no copy of it to write");
	log.path = path;
	err = check_not_input(b, path);
	if (!err)
		err = btf2btf__raw_btf(b, &raw, &size);
	/* the object's mode (a vmlinux stays executable) for a new file */
	if (!err)
		err = b2b_out_begin(&out, path, b->obj.elf->st.st_mode, &log);
	if (err)
		return err;
	err = write_btf_sections(b, raw, size, out.fd, NULL, NULL);
	if (err) {
		b2b_out_abort(&out);
		return err;
	}
	err = b2b_out_commit(&out, &log);
	/* the copy is the ELF alone (not compressed), and unsigned */
	if (!err && b->obj.elf->signature_off)
		b2b_warn(&log, "is not signed (the module signature of %s covered its old bytes): "
			 "sign it with the kernel tree's scripts/sign-file HASH KEY CERT %s",
			 b->obj.path, path);
	return err;
}

int btf2btf__elf_image(struct btf2btf *b, void **data, size_t *size)
{
	const void *raw = NULL;
	size_t raw_size = 0;
	int err;

	if (!b->obj.elf || b->obj.btf_path)
		return b2b_errno(&b->log, -EINVAL, "has no .BTF section to replace");
	err = btf2btf__raw_btf(b, &raw, &raw_size);
	if (err)
		return err;
	return write_btf_sections(b, raw, raw_size, -1, data, size);
}

