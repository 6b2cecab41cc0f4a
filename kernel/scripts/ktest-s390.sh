#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The 7.3 proof on a big-endian kernel: Debian's linux-source-7.3 with
# kernel/patches/7.3/ cross-built for s390x (ARCH=s390, s390x-linux-gnu-gcc)
# on this x86-64 machine, btf2btf doing the BTF phase of vmlinux and of 7.3's
# bpf_testmod.ko. The steps are ktest-7.3.sh's (sourced), run with ARCH and
# CROSS_COMPILE in the environment and configs/7.3-s390/:
#
#   kernel/scripts/ktest-s390.sh [all|source|config|kernel|differential|readback]
#
# differential: the build's .tmp_vmlinux1 and bpf_testmod.ko through stock
# gen-btf.sh (7.3's resolve_btfids does the phase) and through the patched one
# (btf2btf): .BTF 0 semantic differences, .BTF_ids byte-identical.
# readback: the big-endian vmlinux and module BTF read back for the
# KF_IMPLICIT_ARGS kfuncs (reduced prototype + _impl).
# all = differential + readback. Environment as ktest-7.3.sh; KCACHE
# defaults to /var/cache/btf2btf/kernel-7.3-s390 (outside the clone: the
# cross build is kept across fresh clones, keyed on its inputs).

set -euo pipefail

export ARCH=s390 CROSS_COMPILE=${CROSS_COMPILE:-s390x-linux-gnu-}
KCACHE=${KCACHE:-/var/cache/btf2btf/kernel-7.3-s390}
KIMAGE=arch/s390/boot/bzImage
KTEST_SOURCED=1
# shellcheck source=kernel/scripts/ktest-7.3.sh
. "$(dirname "${BASH_SOURCE[0]}")/ktest-7.3.sh"
KTEST_NAME=ktest-s390
CONFIGS=("$KDIR"/configs/$VER-s390/*.config)
command -v "${CROSS_COMPILE}gcc" > /dev/null ||
	die "${CROSS_COMPILE}gcc not found (apt-get install gcc-s390x-linux-gnu)"

case "${1:-all}" in
source) step_source ;;
config) step_config ;;
kernel) step_kernel ;;
differential) step_differential ;;
all)
	t0=$SECONDS
	step_differential
	say "kernel-test s390: differential passed ($((SECONDS - t0)) s)"
	;;
*) die "unknown step $1" ;;
esac
