// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* libbpf's version differences (see libbpf_compat.h). */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/libbpf.h>	/* libbpf_major_version() */

#include "util/libbpf_compat.h"

#ifndef B2B_HAVE_BTF_EXT__RAW_DATA
/* libbpf_legacy.h declares it, which 1.1.2 exports; 1.1.2 declares but does
 * not export its successor btf_ext__raw_data() */
#include <bpf/libbpf_legacy.h>
#endif

struct btf *b2b_btf_new(const void *data, size_t size, const struct btf *base)
{
#ifdef B2B_HAVE_BTF__NEW_SPLIT
	return base ? btf__new_split(data, size, (struct btf *)base) : btf__new(data, size);
#else
	char path[64];
	struct btf *btf;
	int fd, err;

	if (!base)
		return btf__new(data, size);
	/* without btf__new_split(), the split parser reads a file: an anonymous one */
	fd = memfd_create("btf2btf-split", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (write(fd, data, size) != (ssize_t)size) {
		err = errno ? errno : EIO;
		close(fd);
		errno = err;
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	btf = btf__parse_raw_split(path, (struct btf *)base);
	err = errno;
	close(fd);
	errno = err;
	return btf;
#endif
}

const void *b2b_btf_ext_raw(const struct btf_ext *ext, __u32 *size)
{
#ifdef B2B_HAVE_BTF_EXT__RAW_DATA
	return btf_ext__raw_data(ext, size);
#else
	return btf_ext__get_raw_data(ext, size);
#endif
}

enum b2b_typedef_dedup b2b_libbpf_typedef_dedup(void)
{
	__u32 major = libbpf_major_version(), minor = libbpf_minor_version();

	if (major != 1)
		return B2B_TYPEDEF_UNKNOWN;
	if (minor <= 5)
		return B2B_TYPEDEF_REF_PHASE;
	if (minor == 7)
		return B2B_TYPEDEF_STRUCT_PHASE_NO_BASE;
	if (minor == 8)
		return B2B_TYPEDEF_STRUCT_PHASE;
	return B2B_TYPEDEF_UNKNOWN;
}
