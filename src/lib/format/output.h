/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Crash-safe output: temp file in the target's directory, fsync, rename. */
#ifndef BTF2BTF_OUTPUT_H
#define BTF2BTF_OUTPUT_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/internal.h"

struct b2b_out {
	int fd;
	char *path;		/* final name, a symlink followed */
	char *tmp;		/* temp name, same directory; NULL when direct */
	bool direct;		/* a character device or a FIFO, written as it is */
};

/* Refuses (negative errno, logged) what the rewrite could not keep: see output.c. */
int b2b_out_begin(struct b2b_out *o, const char *path, mode_t mode, const struct b2b_log *log);
int b2b_out_write(struct b2b_out *o, const void *data, size_t size, const struct b2b_log *log);
/* All of data to fd, through short writes and EINTR: 0 or a negative
 * errno (-EIO for a write that wrote nothing), not logged. Test builds
 * can be killed between writes (fault point "mid-write"). */
int b2b_write_all(int fd, const void *data, size_t size);
/* fsync, rename over path (output.c: why not the directory's fsync);
 * aborts on failure. */
int b2b_out_commit(struct b2b_out *o, const struct b2b_log *log);
/*
 * Both or neither: first is renamed into place, then second; if second's
 * rename fails, what was at first's path is put back. Both are aborted
 * on failure and freed on success.
 */
int b2b_out_commit_pair(struct b2b_out *first, struct b2b_out *second, const struct b2b_log *log);
/*
 * Remove ".<name>.btf2btf.XXXXXX" temp files of path that a killed run left
 * behind. Only call it holding the writers' lock on path (btf2btf__write_elf):
 * then no live writer of path has a temp file.
 */
void b2b_out_clean_stale(const char *path, const struct b2b_log *log);
/* Close and remove the temp file. Safe to call twice. */
void b2b_out_abort(struct b2b_out *o);

#endif /* BTF2BTF_OUTPUT_H */
