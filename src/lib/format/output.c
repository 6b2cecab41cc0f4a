// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Output is never written in place: a reader (or a crash) sees either the
 * old file or the complete new one. The temp file lives in the target's
 * directory so rename() stays atomic on one file system, and is fsynced
 * before it is renamed: a file system may write the rename before the
 * data (delayed allocation), and a crash would then leave an empty or
 * partial file under the name. The directory is not fsynced: that would
 * make the rename itself durable, which atomicity does not need; it
 * reaches the disk with the file system's next commit, as the build's
 * other outputs (objcopy, ld, resolve_btfids write without fsync); it
 * cost 0.5-1 ms, a tenth of a module's run. What the user had
 * is kept, as install(1) and objcopy keep it: a symlink is followed, the
 * mode and owner stay; what a rename would lose (other hard links, a
 * read-only file, a directory) is refused; a character device or a FIFO
 * is written to as it is.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/output.h"

static char *dir_of(const char *path)
{
	char *copy = b2b_strdup(path), *dir;

	if (!copy)
		return NULL;
	dir = b2b_strdup(dirname(copy));
	free(copy);
	return dir;
}

/* umask() both reads and sets it: set it back at once. */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/*
 * What a rewrite of path can keep of the file there. A symlink is followed
 * (its target is rewritten, the link stays); a regular file keeps its mode
 * and owner, but is refused when read-only or when it has other hard links
 * (a rename would leave them the old contents); a character device or a
 * FIFO is written to as it is (*direct); anything else is refused.
 */
static int inspect_target(struct b2b_out *o, const char *path, mode_t *mode,
			  struct stat *st, bool *exists, const struct b2b_log *log)
{
	struct stat lst;

	*exists = false;
	if (lstat(path, &lst)) {
		if (errno != ENOENT)
			return b2b_errno(log, -errno, "cannot stat: %s", strerror(errno));
		o->path = b2b_strdup(path);
		*mode = *mode & ~current_umask();
		return o->path ? 0 : b2b_errno(log, -ENOMEM, "out of memory");
	}
	if (S_ISLNK(lst.st_mode)) {
		o->path = realpath(path, NULL);
		if (!o->path)
			return b2b_errno(log, -errno, "is a symbolic link that cannot be followed: %s",
					 strerror(errno));
	} else {
		o->path = b2b_strdup(path);
		if (!o->path)
			return b2b_errno(log, -ENOMEM, "out of memory");
	}
	if (stat(o->path, st))
		return b2b_errno(log, -errno, "cannot stat: %s", strerror(errno));
	*exists = true;
	if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode)) {
		o->direct = true;
		return 0;
	}
	if (!S_ISREG(st->st_mode))
		return b2b_errno(log, -EINVAL, "is not a regular file, a character device or a FIFO: "
				 "refusing to replace it");
	if (!(st->st_mode & 0222) || access(o->path, W_OK))
		return b2b_errno(log, -EACCES, "is read-only: refusing to rewrite it");
	if (st->st_nlink > 1)
		return b2b_errno(log, -EMLINK, "has %ju hard links: replacing it would leave the "
				 "others the old contents; refusing (copy it first)",
				 (uintmax_t)st->st_nlink);
	*mode = st->st_mode;
	return 0;
}

int b2b_out_begin(struct b2b_out *o, const char *path, mode_t mode, const struct b2b_log *log)
{
	char *copy = NULL, *base, *dir = NULL;
	struct stat st;
	bool exists;
	int err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	err = inspect_target(o, path, &mode, &st, &exists, log);
	if (err)
		goto out;
	if (o->direct) {
		o->fd = open(o->path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0)
			err = b2b_errno(log, -errno, "cannot open for writing: %s", strerror(errno));
		goto out;
	}
	copy = b2b_strdup(o->path);
	dir = dir_of(o->path);
	if (!copy || !dir) {
		err = b2b_errno(log, -ENOMEM, "out of memory");
		goto out;
	}
	base = basename(copy);
	if (asprintf(&o->tmp, "%s/.%s.btf2btf.XXXXXX", dir, base) < 0) {
		o->tmp = NULL;
		err = b2b_errno(log, -ENOMEM, "out of memory");
		goto out;
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		err = b2b_errno(log, -errno, "cannot create a temporary file in %s: %s", dir,
				strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		goto out;
	}
	/* the owner first: chown clears the set-id bits fchmod then restores */
	if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(o->fd, st.st_uid, st.st_gid)) {
		err = b2b_errno(log, -errno, "cannot keep its owner %ju:%ju: %s; refusing to "
				"replace it", (uintmax_t)st.st_uid, (uintmax_t)st.st_gid,
				strerror(errno));
		goto out;
	}
	if (fchmod(o->fd, mode & 07777)) {
		err = b2b_errno(log, -errno, "cannot set the mode of %s: %s", o->tmp, strerror(errno));
		goto out;
	}
	err = 0;
out:
	free(copy);
	free(dir);
	if (err)
		b2b_out_abort(o);
	return err;
}

int b2b_write_all(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		b2b_fault_point("mid-write");
		p += n;
		size -= n;
	}
	return 0;
}

int b2b_out_write(struct b2b_out *o, const void *data, size_t size, const struct b2b_log *log)
{
	int err = b2b_write_all(o->fd, data, size);

	if (err)
		return b2b_errno(log, err, "cannot write %s: %s", o->tmp ? o->tmp : o->path,
				 strerror(-err));
	return 0;
}

/* fsync and close the temp file (or the device written directly). */
static int finish_file(struct b2b_out *o, const struct b2b_log *log)
{
	b2b_fault_point("before-fsync");
	/* a FIFO or a terminal has nothing to sync */
	if (fsync(o->fd) && !(o->direct && (errno == EINVAL || errno == EROFS))) {
		int err = b2b_errno(log, -errno, "cannot sync %s: %s", o->tmp ? o->tmp : o->path,
				    strerror(errno));
		return err;
	}
	if (close(o->fd)) {
		o->fd = -1;
		return b2b_errno(log, -errno, "cannot close %s: %s", o->tmp ? o->tmp : o->path,
				 strerror(errno));
	}
	o->fd = -1;
	return 0;
}

static int rename_into_place(struct b2b_out *o, const struct b2b_log *log)
{
	b2b_fault_point("before-rename");
	if (rename(o->tmp, o->path))
		return b2b_errno(log, -errno, "cannot rename %s to %s: %s", o->tmp, o->path,
				 strerror(errno));
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

int b2b_out_commit(struct b2b_out *o, const struct b2b_log *log)
{
	int err = finish_file(o, log);

	if (!err && !o->direct)
		err = rename_into_place(o, log);
	b2b_out_abort(o);
	return err;
}

/*
 * A hard link to what is at path now, under a name of the temp files'
 * pattern (so that a killed run's is cleaned up with them); NULL if there
 * is nothing there. *err set on failure.
 */
static char *keep_old(const char *path, const char *tmp, int *err, const struct b2b_log *log)
{
	char *bak = b2b_strdup(tmp);
	int fd;

	*err = 0;
	if (access(path, F_OK)) {
		free(bak);
		return NULL;
	}
	if (!bak) {
		*err = b2b_errno(log, -ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(bak + strlen(bak) - 6, "XXXXXX", 6);
	fd = mkostemp(bak, O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		unlink(bak);
	}
	if (fd < 0 || link(path, bak)) {
		*err = b2b_errno(log, -errno, "cannot keep the old %s while replacing it: %s", path,
				 strerror(errno));
		free(bak);
		return NULL;
	}
	return bak;
}

int b2b_out_commit_pair(struct b2b_out *first, struct b2b_out *second, const struct b2b_log *log)
{
	char *bak = NULL;
	int err;

	if (first->direct || second->direct) {
		err = b2b_errno(log, -EINVAL, "a device or a FIFO cannot be one of a pair of files "
				"committed together");
		goto out;
	}
	err = finish_file(first, log);
	if (!err)
		err = finish_file(second, log);
	if (!err)
		bak = keep_old(first->path, first->tmp, &err, log);
	if (!err)
		err = rename_into_place(first, log);
	if (!err) {
		b2b_fault_point("between-renames");
		err = rename_into_place(second, log);
		if (err) {	/* put the first one back as it was */
			if (bak ? rename(bak, first->path) : unlink(first->path))
				b2b_errno(log, -errno, "cannot restore %s: %s", first->path,
					  strerror(errno));
			else {
				free(bak);
				bak = NULL;
			}
		}
	}
	if (bak) {
		if (!err)
			unlink(bak);
		free(bak);
	}
out:
	b2b_out_abort(first);
	b2b_out_abort(second);
	return err;
}

void b2b_out_clean_stale(const char *path, const struct b2b_log *log)
{
	/* the temp files are beside a symlink's target */
	char *real = realpath(path, NULL);
	char *copy = b2b_strdup(real ? real : path), *dir = dir_of(real ? real : path), *prefix = NULL;
	struct dirent *de;
	DIR *d = NULL;
	int dfd;

	if (!copy || !dir || asprintf(&prefix, ".%s.btf2btf.", basename(copy)) < 0) {
		prefix = NULL;
		goto out;
	}
	d = opendir(dir);
	if (!d)
		goto out;
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		size_t len = strlen(prefix);
		struct stat st;

		/* mkostemp's six characters, a regular file */
		if (strncmp(de->d_name, prefix, len) || strlen(de->d_name) != len + 6 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (!unlinkat(dfd, de->d_name, 0))
			b2b_info(log, "removed %s/%s, left behind by an interrupted run", dir,
				 de->d_name);
	}
out:
	if (d)
		closedir(d);
	free(prefix);
	free(copy);
	free(dir);
	free(real);
}

void b2b_out_abort(struct b2b_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = NULL;
	o->path = NULL;
	o->direct = false;
}
