#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The 7.3 proof on a big-endian kernel: Debian's linux-source-7.3 with
# kernel/patches/7.3/ cross-built for s390x (ARCH=s390, s390x-linux-gnu-gcc)
# on this x86-64 machine, btf2btf doing the BTF phase of vmlinux. The steps
# are ktest-7.3.sh's (sourced; kernel, readback and guest are this file's),
# run with ARCH and CROSS_COMPILE in the environment and configs/7.3-s390/:
#
#   kernel/scripts/ktest-s390.sh [all|source|config|kernel|differential|readback|
#                                guest|boot]
#
# differential: the build's .tmp_vmlinux1 through stock gen-btf.sh (7.3's
# resolve_btfids does the phase) and through the patched one (btf2btf): .BTF
# 0 semantic differences, .BTF_ids byte-identical.
# readback: the big-endian vmlinux BTF read back for the KF_IMPLICIT_ARGS
# kfuncs (reduced prototype + _impl). No bpf_testmod: see configs/7.3-s390.
# boot: qemu-system-s390x (TCG, Debian 12's QEMU 7.2) runs
# kernel/guest/7.3-s390/init.c: the vmlinux BTF read back, BPF_BTF_LOAD of
# it and of the differential's objects in big-endian byte order, dmesg.
# all = differential + readback + boot. Environment as ktest-7.3.sh; KCACHE
# defaults to /var/cache/btf2btf/kernel-7.3-s390 (outside the clone: the
# cross build is kept across fresh clones, keyed on its inputs).

set -euo pipefail

KCACHE=${KCACHE:-/var/cache/btf2btf/kernel-7.3-s390}
KIMAGE=arch/s390/boot/bzImage
export QEMU_SYSTEM=qemu-system-s390x
# console=ttyS0 is the kernel's SCLP line-mode console (configs/7.3-s390);
# QEMU's default s390x console (-nographic) is the SCLP VT220 one, which
# drops line-mode output: the kernel's log would stop where the console
# takes over from the early one, and /init's lines would never show
QEMU_CONSOLE=(-display none -nodefaults -chardev "stdio,id=con" -device "sclplmconsole,chardev=con")
KTEST_SOURCED=1
KTEST_NAME=ktest-s390
# its guest loads no --check-prog corpus (no bpf_testmod, no libbpf)
PROGMODE=
# shellcheck source=kernel/scripts/ktest-7.3.sh
. "$(dirname "${BASH_SOURCE[0]}")/ktest-7.3.sh"
# (after lib.sh refused any ARCH or CROSS_COMPILE given from outside)
export ARCH=s390 CROSS_COMPILE=s390x-linux-gnu-
CONFIGS=("$KDIR"/configs/"$VER"-s390/*.config)
# no modules in this config, hence no bpf_testmod (configs/7.3-s390)
TESTMOD=
mapfile -t GUESTSRC < <(find "$KDIR/guest/$VER-s390" "$KDIR/guest/btf-accept" \
	"$KDIR/guest/common" kernel/scripts/btf-accept-sets.sh -type f | LC_ALL=C sort)
command -v "${CROSS_COMPILE}gcc" > /dev/null ||
	die "${CROSS_COMPILE}gcc not found (apt-get install gcc-s390x-linux-gnu)"

step_kernel() {
	step_config
	kernel_cached && return
	local t0=$SECONDS
	say "kernel: make -j$JOBS bzImage (ARCH=$ARCH CROSS_COMPILE=$CROSS_COMPILE BTF2BTF=$BTF2BTF)"
	make_kernel bzImage
	kernel_built "$t0"
}

# The KF_IMPLICIT_ARGS kfuncs read back from the big-endian BTF of the build
# by Debian's bpftool (libbpf reads either byte order): the kfunc has the
# reduced prototype, <kfunc>_impl one parameter more, a struct bpf_prog_aux *.
READBACK_KFUNCS=(bpf_wq_set_callback:3 bpf_stream_vprintk:4 bpf_task_work_schedule_signal:4
	bpf_task_work_schedule_resume:4)

# readback_one WHAT JSON KFUNC:N: one READBACK line; counts failures in BAD
readback_one() {
	local what=$1 json=$2 fn=${3%:*} n=${3#*:} got
	# bpftool lists the types in id order from 1: type N is .types[N - 1]
	got=$(jq -r --arg f "$fn" '
		.types as $t
		| [$t[] | select(.kind == "FUNC" and (.name == $f or .name == $f + "_impl"))
		   | $t[.type_id - 1] as $p
		   | "\(.name)/\($p.vlen)/" + (if $p.vlen > 0 then
			($t[$p.params[-1].type_id - 1]
			 | if .kind == "PTR" then ($t[.type_id - 1].name // "-") else "-" end)
			else "-" end)]
		| sort | join(" ")' "$json")
	local want="$fn/$n/- ${fn}_impl/$((n + 1))/bpf_prog_aux"
	# the reduced prototype may end in any parameter: only its count matters
	if [[ "$got" =~ ^$fn/$n/[^\ ]*\ ${fn}_impl/$((n + 1))/bpf_prog_aux$ ]]; then
		printf 'READBACK %-14s %s\n' "$what" "$got"
	else
		printf 'READBACK %-14s %s: expected %s\n' "$what" "$got" "$want"
		BAD=$((BAD + 1))
	fi
}

step_readback() {
	step_kernel
	local d=$KCACHE/readback magic k
	rm -rf "$d"
	mkdir -p "$d"
	"${CROSS_COMPILE}objcopy" --dump-section .BTF="$d/vmlinux.BTF" "$OBJ/vmlinux" "$d/scratch.o"
	magic=$(od -An -tx1 -N2 "$d/vmlinux.BTF" | tr -d ' ')
	[ "$magic" = eb9f ] || die "readback: vmlinux .BTF starts with $magic, not big-endian eb9f"
	say "readback: vmlinux .BTF is big-endian (magic bytes eb 9f), $(stat -c %s "$d/vmlinux.BTF") bytes"
	bpftool -j btf dump file "$OBJ/vmlinux" > "$d/vmlinux.json" ||
		die "readback: bpftool cannot read $OBJ/vmlinux"
	BAD=0
	for k in "${READBACK_KFUNCS[@]}"; do
		readback_one vmlinux "$d/vmlinux.json" "$k"
	done
	[ "$BAD" = 0 ] || die "readback: $BAD kfuncs wrong in the big-endian BTF"
	say "readback: the KF_IMPLICIT_ARGS kfuncs are right in the big-endian BTF"
}

step_guest() {
	step_kernel
	guest_cached && return
	mkdir -p "$GUEST/root/btf-accept/kernel"
	say "guest: static /init (kernel/guest/$VER-s390/init.c, ${CROSS_COMPILE}gcc)"
	"${CROSS_COMPILE}gcc" -O2 -g -Wall -Wextra -Werror -static \
		-I"$KDIR/guest/btf-accept" -I"$KDIR/guest/common" -o "$GUEST/root/init" \
		"$KDIR/guest/$VER-s390/init.c" "$KDIR/guest/btf-accept/btf_accept.c" \
		"$KDIR/guest/common/guest.c"
	# the running kernel's BTF through BPF_BTF_LOAD, then the differential's
	# objects in big-endian byte order
	echo "the running kernel's /sys/kernel/btf/vmlinux" > "$GUEST/root/btf-accept/kernel/label"
	: > "$GUEST/root/btf-accept/kernel/refuse"
	ln -s /sys/kernel/btf/vmlinux "$GUEST/root/btf-accept/kernel/vmlinux.btf"
	BTF2BTF=$BTF2BTF ENDIAN=big KERNEL=7.3 kernel/scripts/btf-accept-sets.sh \
		"$GUEST/root/btf-accept" "$DIFF_WORK" btf2btf-all upstream
	say "guest: packing initramfs"
	pack_initramfs "$GUEST/root" "$GUEST/initrd.gz"
	stamp_set guest "$KEY_GUEST"
}

case "${1:-all}" in
source) step_source ;;
config) step_config ;;
kernel) step_kernel ;;
differential) step_differential ;;
readback) step_readback ;;
guest) step_guest ;;
boot) step_boot ;;
all)
	t0=$SECONDS
	step_differential
	step_readback
	step_boot
	say "kernel-test s390: differential, readback and guest tests passed ($((SECONDS - t0)) s)"
	;;
*) die "unknown step $1" ;;
esac
