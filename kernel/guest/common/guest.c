// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The checks the 7.3 guests share (guest.h). */
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

void guest_load_testmod(guest_report_fn report)
{
	int fd = open("/bpf_testmod.ko", O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
		report(false, "bpf_testmod_load", strerror(errno));
		return;
	}
	close(fd);
	report(stat("/sys/kernel/btf/bpf_testmod", &st) == 0, "bpf_testmod_load",
	       "/sys/kernel/btf/bpf_testmod");
}

void guest_check_dmesg(guest_report_fn report)
{
	static char buf[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1), bad = 0;
	char *line, *save, why[64];

	if (n < 0) {
		snprintf(why, sizeof(why), "klogctl: %s", strerror(errno));
		report(false, "dmesg_no_btf_errors", why);
		return;
	}
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "BTF") && (strstr(line, "rror") || strstr(line, "nvalid"))) {
			printf("BTFERR %s\n", line);
			bad++;
		}
	snprintf(why, sizeof(why), "%d BTF error lines", bad);
	report(!bad, "dmesg_no_btf_errors", why);
}
