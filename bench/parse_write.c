// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * parse_write: the floor btf2btf is measured against. Load a BTF with
 * libbpf (an ELF object's .BTF, or a raw BTF file) and write its raw bytes
 * out the way btf2btf -o does: a temp file in the same directory, fsync,
 * rename. Nothing else: read, index, write.
 *
 *   parse_write IN OUT
 *   parse_write --modify IN OUT   the same after one btf__add_str(): what any
 *                                 libbpf edit costs (the BTF made modifiable:
 *                                 types copied, every string hashed, raw data
 *                                 serialised again); the floor of a libbpf editor
 *   parse_write --huge-heap IN OUT   the same with the btf2btf CLI's heap
 *                                 policy (src/cli/heap.c: the heap reserved and
 *                                 marked for transparent huge pages): the floor
 *                                 of any tool that reserves its heap that way
 *   parse_write --info IN     print "<types> types, <bytes> bytes" (not timed)
 */
#include <bpf/btf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "heap.h"

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const void *data;
	struct btf *btf;
	char *tmp;
	__u32 size;
	bool modify = false;
	int fd, err;

	if (argc == 4 && !strcmp(argv[1], "--modify")) {
		modify = true;
		argv++;
		argc--;
	} else if (argc == 4 && !strcmp(argv[1], "--huge-heap")) {
		const char *inputs[] = { argv[2] };

		cli_heap_init();
		cli_heap_reserve(inputs, 1);
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: parse_write [--modify | --huge-heap] IN OUT | --info IN\n");
		return 2;
	}
	if (!strcmp(argv[1], "--info")) {
		btf = btf__parse(argv[2], NULL);
		if (!btf || !btf__raw_data(btf, &size)) {
			fprintf(stderr, "parse_write: %s: cannot load BTF\n", argv[2]);
			return 1;
		}
		printf("%u types, %u bytes\n", btf__type_cnt(btf) - 1, size);
		btf__free(btf);
		return 0;
	}
	btf = btf__parse(argv[1], NULL);
	if (!btf) {
		fprintf(stderr, "parse_write: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (modify && btf__add_str(btf, "parse_write") < 0) {
		fprintf(stderr, "parse_write: %s: btf__add_str failed\n", argv[1]);
		return 1;
	}
	data = btf__raw_data(btf, &size);
	if (!data) {
		fprintf(stderr, "parse_write: %s: no raw data\n", argv[1]);
		return 1;
	}
	if (asprintf(&tmp, "%s.XXXXXX", argv[2]) < 0)
		return 1;
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "parse_write: %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	err = write_all(fd, data, size);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, argv[2]))
		err = -errno;
	if (err) {
		fprintf(stderr, "parse_write: %s: %s\n", argv[2], strerror(-err));
		unlink(tmp);
		return 1;
	}
	free(tmp);
	btf__free(btf);
	return 0;
}
