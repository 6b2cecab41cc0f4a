// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Output is never written in place: a reader (or a crash) sees either the
 * old file or the complete new one. The temp file lives in the target's
 * directory so rename() stays atomic on one file system.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

static char *dir_of(const char *path)
{
	char *copy = strdup(path), *dir;

	if (!copy)
		return NULL;
	dir = strdup(dirname(copy));
	free(copy);
	return dir;
}

int b2b_out_begin(struct b2b_out *o, const char *path, mode_t mode, const struct b2b_log *log)
{
	char *copy, *base, *dir;
	int err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = strdup(path);
	copy = strdup(path);
	dir = dir_of(path);
	if (!o->path || !copy || !dir) {
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

int b2b_out_write(struct b2b_out *o, const void *data, size_t size, const struct b2b_log *log)
{
	const char *p = data;

	while (size) {
		ssize_t n = write(o->fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			return b2b_errno(log, err, "cannot write %s: %s", o->tmp, strerror(-err));
		}
		b2b_fault_point("mid-write");
		p += n;
		size -= n;
	}
	return 0;
}

int b2b_out_commit(struct b2b_out *o, const struct b2b_log *log)
{
	char *dir;
	int err = 0, dfd;

	b2b_fault_point("before-fsync");
	if (fsync(o->fd)) {
		err = b2b_errno(log, -errno, "cannot sync %s: %s", o->tmp, strerror(errno));
		goto fail;
	}
	if (close(o->fd)) {
		o->fd = -1;
		err = b2b_errno(log, -errno, "cannot close %s: %s", o->tmp, strerror(errno));
		goto fail;
	}
	o->fd = -1;
	b2b_fault_point("before-rename");
	if (rename(o->tmp, o->path)) {
		err = b2b_errno(log, -errno, "cannot rename %s to %s: %s", o->tmp, o->path,
				strerror(errno));
		goto fail;
	}
	free(o->tmp);
	o->tmp = NULL;
	/* make the rename itself durable */
	dir = dir_of(o->path);
	dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
	b2b_out_abort(o);
	return 0;
fail:
	b2b_out_abort(o);
	return err;
}

void b2b_out_clean_stale(const char *path, const struct b2b_log *log)
{
	char *copy = strdup(path), *dir = dir_of(path), *prefix = NULL;
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
}
