// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Host-side probe, run by ktest-7.3.sh's guest step: can the libbpf this is
 * linked with (Debian 12's 1.1.2) open the BPF objects built from the 7.3
 * selftests? Prints one line per object and the count that failed; the
 * guest's loader uses the 7.3 tree's libbpf either way (this only reports).
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	libbpf_set_print(quiet);
	for (i = 1; i < argc; i++) {
		struct bpf_object *obj = bpf_object__open_file(argv[i], NULL);
		const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];

		if (!obj) {
			printf("libbpf %u.%u: %s: open fails (%s)\n", libbpf_major_version(),
			       libbpf_minor_version(), name, strerror(errno));
			bad++;
			continue;
		}
		bpf_object__close(obj);
	}
	printf("libbpf %u.%u: %d of %d objects do not open\n", libbpf_major_version(),
	       libbpf_minor_version(), bad, argc - 1);
	return 0;
}
