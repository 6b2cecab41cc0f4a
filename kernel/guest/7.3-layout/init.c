// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * /init of the 7.3 guest that judges the BTF a current pahole wrote
 * (ktest-7.3.sh pahole-layout: forky's pahole 1.32 with the 7.3 tree's
 * libbpf, the layout section in vmlinux's BTF): loads /bpf_testmod.ko (its
 * .BTF and .BTF.base written by that pahole and btf2btf; the kernel relocates
 * the distilled base onto its own vmlinux BTF), then BPF_BTF_LOAD of every
 * object set under /btf-accept (btf_accept.c: the vmlinux BTF with its layout
 * section loaded as the base BTF it is, the module's flattened onto its
 * distilled base), then the kernel log for BTF errors. "PASS name" / "FAIL
 * name: why" per test, then "N passed, M failed"; reboots (QEMU runs with
 * -no-reboot). Static, no libbpf.
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "btf_accept.h"
#include "guest.h"

static int passed, failed;

static void report(bool ok, const char *name, const char *why)
{
	if (ok)
		passed++;
	else
		failed++;
	printf("%s %s: %s\n", ok ? "PASS" : "FAIL", name, why);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* a line of its own: the console's escape sequences end up before it */
	printf("\nguest: BTF of pahole 1.32 with the layout section\n");
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	guest_load_testmod(report);
	btf_accept_run("/btf-accept", report);
	guest_check_dmesg(report);
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
