#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Kernel proof for btf2btf: unpack Debian's linux-source-6.12, apply
# kernel/patches/6.12/, configure (tinyconfig + kernel/configs/6.12/*.config), build
# bzImage and bpf_testmod.ko with btf2btf, build the guest (static /init
# loader + BPF programs), pack an initramfs and boot it in QEMU (TCG).
#
#   kernel/scripts/ktest.sh [all|source|kernel|guest|boot|check-patches]
#
# Environment: BTF2BTF (path of the btf2btf binary, default build/btf2btf),
# KCACHE (default .cache/kernel), JOBS (default nproc), QEMU_TIMEOUT (s).
# Every step is cached under $KCACHE with a stamp holding the hash of its
# inputs; a step runs again only when that hash changes.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$TOP"
KTEST_NAME=ktest
# say, die, hash_files, stamp_ok, stamp_set, qemu_boot
# shellcheck source=kernel/scripts/lib.sh
. "$TOP/kernel/scripts/lib.sh"

KDIR=kernel
TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
PKG=linux-source-6.12
KCACHE=$(mkdir -p "${KCACHE:-.cache/kernel}" && cd "${KCACHE:-.cache/kernel}" && pwd)
SRC=$KCACHE/src/$PKG
OBJ=$KCACHE/build
GUEST=$KCACHE/guest
STAMPS=$KCACHE/stamps
JOBS=${JOBS:-$(nproc)}
BTF2BTF=$(realpath "${BTF2BTF:-build/btf2btf}" 2>/dev/null || echo "${BTF2BTF:-build/btf2btf}")
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}
TESTMOD=$SRC/tools/testing/selftests/bpf/bpf_testmod

mkdir -p "$STAMPS"

mapfile -t PATCHES < <(ls "$KDIR"/patches/6.12/*.patch | sort)
mapfile -t CONFIGS < <(ls "$KDIR"/configs/6.12/*.config | sort)
mapfile -t TOOLSRC < <(find src include -type f 2>/dev/null | LC_ALL=C sort)
mapfile -t GUESTSRC < <(find "$KDIR"/guest/6.12 -type f | LC_ALL=C sort)

tarball_id() { stat -c '%n %s %Y' "$TARBALL"; }

KEY_SRC=$( { tarball_id; hash_files "${PATCHES[@]}"; } | sha256sum | cut -c1-16)
KEY_CFG=$( { echo "$KEY_SRC"; hash_files "${CONFIGS[@]}"; } | sha256sum | cut -c1-16)
# the sources and the binary itself: BTF2BTF may name an installed btf2btf
KEY_TOOL=$( { hash_files "${TOOLSRC[@]}"; echo "$BTF2BTF"; cat "$BTF2BTF" 2>/dev/null; } | sha256sum | cut -c1-16)
KEY_KERNEL=$( { echo "$KEY_CFG"; echo "$KEY_TOOL"; } | sha256sum | cut -c1-16)
KEY_GUEST=$( { echo "$KEY_KERNEL"; hash_files "${GUESTSRC[@]}"; } | sha256sum | cut -c1-16)

check_package() {
	[ -f "$TARBALL" ] ||
		die "$TARBALL not found: install the Debian package ($ apt-get install $PKG)"
}

step_source() {
	check_package
	if stamp_ok source "$KEY_SRC" && [ -d "$SRC" ]; then
		say "source: $SRC up to date (series ${KEY_SRC})"
		return
	fi
	say "source: unpacking $TARBALL into $KCACHE/src"
	rm -rf "$KCACHE/src" "$OBJ" "$STAMPS"/*
	mkdir -p "$KCACHE/src"
	tar -C "$KCACHE/src" -xf "$TARBALL"
	local p
	for p in "${PATCHES[@]}"; do
		say "source: applying $(basename "$p")"
		patch -d "$SRC" -p1 -s -N --no-backup-if-mismatch < "$p" ||
			die "$p does not apply"
	done
	stamp_set source "$KEY_SRC"
}

step_config() {
	if stamp_ok config "$KEY_CFG" && [ -f "$OBJ/.config" ]; then
		say "config: $OBJ/.config up to date"
		return
	fi
	say "config: tinyconfig + ${CONFIGS[*]}"
	mkdir -p "$OBJ"
	make -s -C "$SRC" O="$OBJ" tinyconfig >/dev/null
	"$SRC"/scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "${CONFIGS[@]}" >/dev/null
	make -s -C "$SRC" O="$OBJ" olddefconfig >/dev/null
	# every option of the fragments must have survived olddefconfig
	local line missing=0
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		grep -qxF "$line" "$OBJ/.config" || { echo "config: missing $line" >&2; missing=1; }
	done < <(cat "${CONFIGS[@]}")
	[ $missing = 0 ] || die "config fragment not satisfied (see above)"
	stamp_set config "$KEY_CFG"
}

step_kernel() {
	step_source
	step_config
	[ -x "$BTF2BTF" ] || die "btf2btf not found at $BTF2BTF (run make at the top first)"
	if stamp_ok kernel "$KEY_KERNEL" && [ -f "$OBJ/arch/x86/boot/bzImage" ] &&
	   [ -f "$TESTMOD/bpf_testmod.ko" ]; then
		say "kernel: bzImage and bpf_testmod.ko up to date"
		return
	fi
	if ! stamp_ok tool "$KEY_TOOL" && [ -f "$OBJ/vmlinux" ]; then
		# BTF is made by the link step: force it when btf2btf changed
		say "kernel: btf2btf changed, relinking vmlinux and modules"
		rm -f "$OBJ/vmlinux" "$TESTMOD"/*.ko
	fi
	local t0=$SECONDS
	say "kernel: make -j$JOBS bzImage modules (BTF2BTF=$BTF2BTF)"
	make -C "$SRC" O="$OBJ" -j"$JOBS" BTF2BTF="$BTF2BTF" bzImage modules
	say "kernel: make M=$TESTMOD modules"
	make -C "$OBJ" M="$TESTMOD" -j"$JOBS" BTF2BTF="$BTF2BTF" modules
	say "kernel: built in $((SECONDS - t0)) s"
	stamp_set tool "$KEY_TOOL"
	stamp_set kernel "$KEY_KERNEL"
}

step_guest() {
	step_kernel
	if stamp_ok guest "$KEY_GUEST" && [ -f "$GUEST/initrd.gz" ]; then
		say "guest: initramfs up to date"
		return
	fi
	rm -rf "$GUEST"
	mkdir -p "$GUEST/root/bpf" "$GUEST/obj"
	say "guest: vmlinux.h from $OBJ/vmlinux (bpftool)"
	bpftool btf dump file "$OBJ/vmlinux" format c > "$GUEST/obj/vmlinux.h"
	grep -q 'struct bpf_prog_aux {' "$GUEST/obj/vmlinux.h" ||
		die "bpftool could not dump the BTF of $OBJ/vmlinux"
	local c o
	for c in "$KDIR"/guest/6.12/progs/*.bpf.c; do
		o=$GUEST/root/bpf/$(basename "${c%.c}").o
		say "guest: clang -target bpf $(basename "$c")"
		clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$GUEST/obj" -c "$c" -o "$o"
	done
	say "guest: static /init loader"
	gcc -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -static \
		-o "$GUEST/root/init" "$KDIR/guest/6.12/init.c" -lbpf -lelf -lz
	cp "$TESTMOD/bpf_testmod.ko" "$GUEST/root/"
	mkdir -p "$GUEST/root/dev" "$GUEST/root/proc" "$GUEST/root/sys"
	say "guest: packing initramfs"
	(cd "$GUEST/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
		gzip -9 > "$GUEST/initrd.gz"
	stamp_set guest "$KEY_GUEST"
}

step_boot() {
	step_guest
	qemu_boot "$OBJ/arch/x86/boot/bzImage" "$GUEST/initrd.gz" "$KCACHE/guest.log" "$QEMU_TIMEOUT"
}

step_check_patches() {
	check_package
	local d=$KCACHE/am
	say "check-patches: fresh unpack into $d"
	rm -rf "$d"
	mkdir -p "$d"
	tar -C "$d" -xf "$TARBALL"
	(
		cd "$d/$PKG"
		git init -q
		git add -f -A
		git -c user.name=ktest -c user.email=ktest@localhost commit -q -m base
		say "check-patches: git am ${#PATCHES[@]} patches"
		git -c user.name=ktest -c user.email=ktest@localhost am -q "${PATCHES[@]/#/$TOP/}"
		local p bad=0
		for p in "${PATCHES[@]}"; do
			out=$(./scripts/checkpatch.pl --strict --no-tree -q "$TOP/$p" 2>&1 || true)
			printf '%s: %s\n' "$(basename "$p")" "$(printf '%s\n' "$out" | grep '^total:' || echo 'no issues')"
			printf '%s\n' "$out" | grep -q '^ERROR' && bad=1
		done
		[ $bad = 0 ] || { echo "checkpatch reported errors" >&2; exit 1; }
	)
	rm -rf "$d"
	say "check-patches: OK"
}

case "${1:-all}" in
source) step_source ;;
config) step_source; step_config ;;
kernel) step_kernel ;;
guest) step_guest ;;
boot|all) t0=$SECONDS; step_boot; say "kernel-test: all guest tests passed ($((SECONDS - t0)) s)" ;;
check-patches) step_check_patches ;;
*) die "unknown step $1" ;;
esac
