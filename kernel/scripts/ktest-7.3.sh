#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Kernel proof for btf2btf on Linux 7.3: fetch Debian's linux-source-7.3
# (suite trixie-backports) with scripts/fetch-linux-source.sh, apply
# kernel/patches/7.3/ (gen-btf.sh runs btf2btf for the BTF phase,
# resolve_btfids only resolves .BTF_ids), configure (tinyconfig +
# kernel/configs/7.3/*.config), build bzImage and bpf_testmod.ko, compile
# upstream's own selftest programs from the 7.3 tree with clang-19, pack them
# with a static loader that honours their test annotations, boot in QEMU (TCG).
#
#   kernel/scripts/ktest-7.3.sh [all|source|config|kernel|guest|boot|
#                               differential|failstop|adapter|check-patches|
#                               pahole-layout]
#
# all = boot + differential + failstop + adapter; pahole-layout (the forky
# chroot's pahole 1.32 on the built kernel's objects) runs alone. Environment: BTF2BTF (path of the
# btf2btf binary, default build/btf2btf), PAHOLE_ADAPTER (the pahole adapter
# the adapter step checks, default build/lib/btf2btf/pahole), KCACHE (default /var/cache/btf2btf/kernel-7.3),
# JOBS (default nproc), QEMU_TIMEOUT (s), CLANG (default clang-19).
# Every step is cached under $KCACHE with a stamp holding the hash of its
# inputs; a step runs again only when that hash changes.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$TOP"
# (ktest-s390.sh, which sources this file, names its own messages)
[ -n "${KTEST_SOURCED:-}" ] || KTEST_NAME=ktest-7.3
# shellcheck source=kernel/scripts/lib.sh
. "$TOP/kernel/scripts/lib.sh"

VER=7.3
SUITE=trixie-backports
KDIR=kernel
PKG=linux-source-$VER
KCACHE=$(mkdir -p "${KCACHE:-/var/cache/btf2btf/kernel-$VER}" && cd "${KCACHE:-/var/cache/btf2btf/kernel-$VER}" && pwd)
# the pristine tree, shared with make differential (scripts/oracle-resolve-btfids.sh)
FETCH=${KFETCH:-$TOP/.cache/linux-$VER}
SRC=$KCACHE/src/$PKG
OBJ=$KCACHE/build
TESTMOD=$KCACHE/testmod
GUEST=$KCACHE/guest
STAMPS=$KCACHE/stamps
JOBS=${JOBS:-$(nproc)}
BTF2BTF=$(tool_path "${BTF2BTF:-}" build/btf2btf)
ADAPTER=$(tool_path "${PAHOLE_ADAPTER:-}" build/lib/btf2btf/pahole)
QEMU_TIMEOUT=${QEMU_TIMEOUT:-600}
CLANG=${CLANG:-clang-19}
SELFTESTS=tools/testing/selftests/bpf

mkdir -p "$STAMPS"

shopt -s nullglob
PATCHES=("$KDIR"/patches/$VER/*.patch)
CONFIGS=("$KDIR"/configs/$VER/*.config)
shopt -u nullglob
[ ${#CONFIGS[@]} -gt 0 ] || die "no config fragment in $KDIR/configs/$VER"
mapfile -t TOOLSRC < <(find src include -type f 2>/dev/null | LC_ALL=C sort)
mapfile -t GUESTSRC < <(find "$KDIR/guest/$VER" "$KDIR/guest/btf-accept" \
	"$KDIR/guest/common" kernel/scripts/btf-accept-sets.sh -type f | LC_ALL=C sort)
# the differential's objects, whose BTF the guest loads (btf-accept-sets.sh)
DIFF_WORK=${DIFF_WORK:-$TOP/build/differential}
# the 6.12 proof's cache, whose objects this guest loads too (lib.sh,
# progmode); ktest-s390.sh, whose guest loads none, sets PROGMODE empty
PROGMODE=${PROGMODE-1}
PEER_KCACHE=${PEER_KCACHE:-$(dirname "$KCACHE")/kernel-6.12}

step_fetch() {
	say "fetch: $PKG ($SUITE) into $FETCH"
	PRISTINE=$(scripts/fetch-linux-source.sh "$VER" "$SUITE" "$FETCH") ||
		die "could not fetch $PKG"
	DEB=$(ls "$FETCH"/${PKG}_*.deb | head -1)
}

key_src() { { basename "$DEB"; hash_files "${PATCHES[@]}"; } | sha256sum | cut -c1-16; }

step_source() {
	step_fetch
	KEY_SRC=$(key_src)
	KEY_CFG=$( { echo "$KEY_SRC"; hash_files "${CONFIGS[@]}"; } | sha256sum | cut -c1-16)
	# the sources and the binary itself: BTF2BTF may name an installed btf2btf
	KEY_TOOL=$( { hash_files "${TOOLSRC[@]}"; echo "$BTF2BTF"; cat "$BTF2BTF" 2>/dev/null; } | sha256sum | cut -c1-16)
	KEY_KERNEL=$( { echo "$KEY_CFG"; echo "$KEY_TOOL"; } | sha256sum | cut -c1-16)
	KEY_GUEST=$( { echo "$KEY_KERNEL"; hash_files "${GUESTSRC[@]}";
		cat "$DIFF_WORK/in/manifest" 2>/dev/null || echo "no differential yet";
		# the objects the x86 guest builds and the 6.12 proof's (s390x's
		# guest has none: PROGMODE empty)
		[ -z "$PROGMODE" ] || { echo "${UPSTREAM_PROGS[*]} ${PROGMODE_UPSTREAM[*]}";
			declare -f progmode_take_peer progmode_kconfig
			progmode_peer_key "$PEER_KCACHE" 6.12 repo; }
		} | sha256sum | cut -c1-16)
	[ -z "${KTEST_KEYS_ONLY:-}" ] || return 0
	if stamp_ok source "$KEY_SRC" && [ -d "$SRC" ]; then
		say "source: $SRC up to date (series $KEY_SRC)"
		return
	fi
	say "source: copying $PRISTINE into $KCACHE/src"
	rm -rf "$KCACHE/src" "$OBJ" "$TESTMOD" "$STAMPS"/*
	mkdir -p "$KCACHE/src"
	cp -a "$PRISTINE" "$SRC"
	local p
	for p in "${PATCHES[@]}"; do
		say "source: applying $(basename "$p")"
		patch -d "$SRC" -p1 -s -N --no-backup-if-mismatch < "$p" ||
			die "$p does not apply"
	done
	stamp_set source "$KEY_SRC"
}

# the series makes gen-btf.sh run $BTF2BTF; the unpatched tree ignores it
make_kernel() { kernel_make kernel -C "$SRC" O="$OBJ" -j"$JOBS" BTF2BTF="$BTF2BTF" "$@"; }
make_testmod() { kernel_make testmod -C "$OBJ" M="$TESTMOD" -j"$JOBS" BTF2BTF="$BTF2BTF" "$@"; }

step_kernel() {
	step_config
	kernel_cached && return
	local t0=$SECONDS f
	say "kernel: make -j$JOBS bzImage modules (BTF2BTF=$BTF2BTF)"
	make_kernel bzImage modules
	mkdir -p "$TESTMOD"
	cp "$KDIR/guest/$VER/testmod/Kbuild" "$TESTMOD/"
	for f in bpf_testmod.c bpf_testmod.h bpf_testmod_kfunc.h bpf_testmod-events.h; do
		cmp -s "$SRC/$SELFTESTS/test_kmods/$f" "$TESTMOD/$f" ||
			cp "$SRC/$SELFTESTS/test_kmods/$f" "$TESTMOD/$f"
	done
	say "kernel: make M=$TESTMOD modules (7.3's test_kmods/bpf_testmod.c)"
	make_testmod modules
	kernel_built "$t0"
}

# Upstream's selftest objects the guest runs (tools/testing/selftests/bpf/progs/);
# see kernel/guest/7.3/loader.c for how each is run.
UPSTREAM_PROGS=(kfunc_implicit_args kfunc_implicit_args_tracing wq wq_failures
	stream stream_fail task_work task_work_fail linked_list rbtree rbtree_fail
	refcounted_kptr verifier_arena arena_kfunc)

# Upstream's selftest objects that call kfuncs, built as those above, which
# the guest only loads for --check-prog's corpus (lib.sh, progmode): kfuncs
# of vmlinux and bpf_testmod, typed __ksym variables, weak kfuncs guarded
# with bpf_ksym_exists(), kfuncs this configuration lacks.
PROGMODE_UPSTREAM=(kfunc_call_test kfunc_call_fail kfunc_call_race kfunc_call_destructive
	kfunc_call_test_subprog kfunc_module_order cpumask_success cpumask_failure
	task_kfunc_success task_kfunc_failure dynptr_success local_kptr_stash percpu_alloc_array
	test_kfunc_dynptr_param test_kfunc_param_nullable verifier_kfunc_prog_types preempt_lock
	irq res_spin_lock exceptions iters_testmod rcu_read_lock)

# bpftool and libbpf of the 7.3 tree. Debian 12's bpftool 7.1 dumps the 7.3
# BTF but writes no kfunc prototypes into vmlinux.h (that came with bpftool
# 7.4, from the "bpf_kfunc" decl tags), and the 7.3 selftests rely on them;
# the loader needs libbpf API newer than Debian 12's 1.1.2 (BPF streams,
# arena maps). Both come from the same linux-source-7.3 package.
step_tools() {
	step_source
	tree_tools "$KEY_SRC"
}

step_guest() {
	step_kernel
	step_tools
	guest_cached && return
	command -v "$CLANG" > /dev/null || die "$CLANG not found (apt-get install clang-19)"
	mkdir -p "$GUEST/root/progs" "$GUEST/include/bpf" "$GUEST/obj"
	local st=$SRC/$SELFTESTS
	say "guest: vmlinux.h from $OBJ/vmlinux ($BPFTOOL)"
	"$BPFTOOL" btf dump file "$OBJ/vmlinux" format c > "$GUEST/include/vmlinux.h"
	grep -q 'struct bpf_prog_aux {' "$GUEST/include/vmlinux.h" ||
		die "bpftool could not dump the BTF of $OBJ/vmlinux"
	local nk
	nk=$(grep -c '__weak __ksym;$' "$GUEST/include/vmlinux.h" || true)
	say "guest: vmlinux.h declares $nk kfuncs (from the bpf_kfunc decl tags of the BTF phase)"
	[ "$nk" -gt 0 ] || die "no kfunc prototypes in vmlinux.h: the vmlinux BTF has no bpf_kfunc decl tags"
	if command -v bpftool > /dev/null; then
		# Debian 12's bpftool: can it read 7.3's BTF? (its exit status is
		# 0 even on failure, so look at the output)
		bpftool btf dump file "$OBJ/vmlinux" format c > "$GUEST/obj/vmlinux-bpftool-debian.h" 2>&1 || true
		if grep -q 'struct bpf_prog_aux {' "$GUEST/obj/vmlinux-bpftool-debian.h"; then
			say "guest: Debian's $(bpftool version | head -1) also dumps it, with" \
			    "$(grep -c '__ksym;$' "$GUEST/obj/vmlinux-bpftool-debian.h" || true) kfunc prototypes"
		else
			say "guest: Debian's bpftool cannot dump the 7.3 BTF"
		fi
	fi
	cp "$LIBBPF"/include/bpf/*.h "$GUEST/include/bpf/"
	local flags p
	mapfile -t flags < <(selftest_bpf_cflags "$GUEST/include")
	for p in "${UPSTREAM_PROGS[@]}"; do
		say "guest: $CLANG progs/$p.c (upstream)"
		"$CLANG" "${flags[@]}" -c "$st/progs/$p.c" -o "$GUEST/root/progs/$p.bpf.o"
	done
	# btf2btf's kfunc declarations next to that vmlinux.h, and a program using them
	kfunc_decls "$OBJ/vmlinux" "$GUEST/include"
	for p in "$KDIR/guest/$VER"/progs/*.c "$KDIR/guest/$VER"/kdecl/*.c; do
		say "guest: $CLANG $p (ours)"
		"$CLANG" "${flags[@]}" -I"$st/progs" -c "$p" \
			-o "$GUEST/root/progs/$(basename "${p%.c}").bpf.o"
	done
	# Debian 12's libbpf 1.1.2 on these objects, for the record (README)
	if gcc -O2 -o "$GUEST/obj/libbpf-open" "$KDIR/guest/$VER/host/libbpf-open.c" -lbpf 2>/dev/null; then
		"$GUEST/obj/libbpf-open" "$GUEST"/root/progs/*.bpf.o | sed 's/^/    /'
	fi
	# /progmode (lib.sh): group 7.3, the objects above; 6.12 and repo
	# from the 6.12 proof's guest
	mkdir -p "$GUEST/root/progmode/7.3"
	cp "$GUEST"/root/progs/*.bpf.o "$GUEST/root/progmode/7.3/"
	for p in "${PROGMODE_UPSTREAM[@]}"; do
		say "guest: $CLANG progs/$p.c (upstream, --check-prog's corpus)"
		"$CLANG" "${flags[@]}" -c "$st/progs/$p.c" -o "$GUEST/root/progmode/7.3/$p.bpf.o"
	done
	progmode_take_peer "$GUEST/root" "$PEER_KCACHE" 6.12 repo
	progmode_kconfig "$GUEST/root"
	say "guest: static /init (kernel/guest/$VER/loader.c, 7.3's libbpf)"
	gcc -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -static \
		-I"$LIBBPF/include" -I"$SRC/tools/include/uapi" \
		-I"$KDIR/guest/btf-accept" -I"$KDIR/guest/common" -o "$GUEST/root/init" \
		"$KDIR/guest/$VER/loader.c" "$KDIR/guest/btf-accept/btf_accept.c" \
		"$KDIR/guest/common/guest.c" "$KDIR/guest/common/progload.c" "$LIBBPF/libbpf.a" -lelf -lz
	cp "$TESTMOD/bpf_testmod.ko" "$GUEST/root/"
	BTF2BTF=$BTF2BTF ENDIAN=little KERNEL=7.3 kernel/scripts/btf-accept-sets.sh \
		"$GUEST/root/btf-accept" "$DIFF_WORK" btf2btf-all upstream
	say "guest: packing initramfs"
	pack_initramfs "$GUEST/root" "$GUEST/initrd.gz"
	stamp_set guest "$KEY_GUEST"
}

step_boot() {
	step_guest
	qemu_boot "$OBJ/${KIMAGE:-arch/x86/boot/bzImage}" "$GUEST/initrd.gz" "$KCACHE/guest.log" \
		"$QEMU_TIMEOUT"
	[ -z "$PROGMODE" ] ||
		progmode_check 7.3 "$KCACHE/guest.log" "$GUEST/root" "$OBJ/vmlinux" "$TESTMOD/bpf_testmod.ko"
}

# The environment kbuild gives scripts/gen-btf.sh, for running it by hand on
# the objects of the build. No -j for pahole: single-threaded pahole output is
# reproducible, so two runs get the same input.
genbtf_env() {
	env objtree="$OBJ" srctree="$SRC" PAHOLE=pahole PAHOLE_FLAGS="--btf_gen_floats" \
		RESOLVE_BTFIDS="$OBJ/tools/bpf/resolve_btfids/resolve_btfids" \
		CC="${CROSS_COMPILE:-}gcc" OBJCOPY="${CROSS_COMPILE:-}objcopy" CLANG_FLAGS= KBUILD_CPPFLAGS= KBUILD_CFLAGS= \
		BTF2BTF="$BTF2BTF" "$@"
}

# gen_btf_both DIR: run the stock and the patched gen-btf.sh on copies of the
# build's .tmp_vmlinux1 and of the relinked bpf_testmod.ko; extract sections
# (without bpf_testmod when TESTMOD is empty)
gen_btf_both() {
	local d=$1 v f
	rm -rf "$d"
	mkdir -p "$d/stock" "$d/btf2btf"
	[ -z "$TESTMOD" ] || relink_testmod "$d/bpf_testmod.pre.ko"
	for v in stock btf2btf; do
		cp "$OBJ/.tmp_vmlinux1" "$d/$v/vmlinux.tmp"
		[ -z "$TESTMOD" ] || cp "$d/bpf_testmod.pre.ko" "$d/$v/bpf_testmod.ko"
	done
	say "differential: stock gen-btf.sh + resolve_btfids (unpatched 7.3 scripts/gen-btf.sh)"
	(cd "$d/stock" &&
	 genbtf_env RESOLVE_BTFIDS_FLAGS= sh "$PRISTINE/scripts/gen-btf.sh" vmlinux.tmp &&
	 { [ -z "$TESTMOD" ] || genbtf_env RESOLVE_BTFIDS_FLAGS=--distill_base \
		sh "$PRISTINE/scripts/gen-btf.sh" --btf_base "$OBJ/vmlinux" bpf_testmod.ko; }) ||
		die "stock gen-btf.sh failed"
	say "differential: patched gen-btf.sh (btf2btf --features=all, resolve_btfids --resolve_only)"
	(cd "$d/btf2btf" &&
	 genbtf_env RESOLVE_BTFIDS_FLAGS= BTF2BTF_FLAGS=--features=all \
		sh "$SRC/scripts/gen-btf.sh" vmlinux.tmp &&
	 { [ -z "$TESTMOD" ] || genbtf_env RESOLVE_BTFIDS_FLAGS= \
		BTF2BTF_FLAGS="--features=all --distill-base" \
		sh "$SRC/scripts/gen-btf.sh" --btf_base "$OBJ/vmlinux" bpf_testmod.ko; }) ||
		die "patched gen-btf.sh failed"
	for v in stock btf2btf; do
		f=$d/$v
		"${CROSS_COMPILE:-}objcopy" --dump-section .BTF="$f/vmlinux.BTF" "$f/vmlinux.tmp.btf.o" "$f/scratch.o"
		cp "$f/vmlinux.tmp.BTF_ids" "$f/vmlinux.BTF_ids"
		[ -z "$TESTMOD" ] ||
		"${CROSS_COMPILE:-}objcopy" --dump-section .BTF="$f/mod.BTF" --dump-section .BTF.base="$f/mod.BTF.base" \
			--dump-section .BTF_ids="$f/mod.BTF_ids" "$f/bpf_testmod.ko" "$f/scratch.o"
	done
}

# compare_one WHAT STOCK_CANON_ARGS -- OURS_CANON_ARGS: semantic + byte comparison
SEM_DIFFS=0
compare_btf() {
	local what=$1 a=$2 b=$3 base_a=${4:-} base_b=${5:-} n bytes
	"$BTFCANON" ${base_a:+-b "$base_a"} "$a" > "$a.canon" || die "btfcanon $a failed"
	"$BTFCANON" ${base_b:+-b "$base_b"} "$b" > "$b.canon" || die "btfcanon $b failed"
	n=$(diff "$a.canon" "$b.canon" | grep -c '^[<>]' || true)
	if cmp -s "$a" "$b"; then bytes="byte-identical"; else
		bytes="bytes differ ($(stat -c %s "$a") vs $(stat -c %s "$b") bytes)"; fi
	printf 'DIFF %-22s %s types (stock) / %s (btf2btf): %d semantic differences, %s\n' \
		"$what" "$(wc -l < "$a.canon")" "$(wc -l < "$b.canon")" "$n" "$bytes"
	if [ "$n" != 0 ]; then
		diff "$a.canon" "$b.canon" | grep '^[<>]' | head -20 | sed 's/^/    /'
		SEM_DIFFS=$((SEM_DIFFS + n))
	fi
}

compare_raw() {
	local what=$1 a=$2 b=$3
	if cmp -s "$a" "$b"; then
		printf 'DIFF %-22s byte-identical (%s bytes)\n' "$what" "$(stat -c %s "$a")"
	else
		printf 'DIFF %-22s DIFFER\n' "$what"
		SEM_DIFFS=$((SEM_DIFFS + 1))
	fi
}

# Build-time differential: the same .tmp_vmlinux1 and bpf_testmod.ko through
# the stock BTF step (upstream resolve_btfids does the phase) and through ours.
step_differential() {
	step_kernel
	[ -x "${BTFCANON:-}" ] || die "BTFCANON (build/tests/btfcanon) not set or not built: run via make kernel-test"
	local d=$KCACHE/differential s=$KCACHE/differential/stock o=$KCACHE/differential/btf2btf
	gen_btf_both "$d"
	SEM_DIFFS=0
	compare_btf "vmlinux .BTF" "$s/vmlinux.BTF" "$o/vmlinux.BTF"
	compare_raw "vmlinux .BTF_ids" "$s/vmlinux.BTF_ids" "$o/vmlinux.BTF_ids"
	if [ -n "$TESTMOD" ]; then
		compare_btf "bpf_testmod .BTF.base" "$s/mod.BTF.base" "$o/mod.BTF.base"
		compare_btf "bpf_testmod .BTF" "$s/mod.BTF" "$o/mod.BTF" "$s/mod.BTF.base" "$o/mod.BTF.base"
		compare_raw "bpf_testmod .BTF_ids" "$s/mod.BTF_ids" "$o/mod.BTF_ids"
	fi
	[ "$SEM_DIFFS" = 0 ] || die "differential: $SEM_DIFFS differences between stock resolve_btfids and btf2btf"
	say "differential: 0 semantic differences"
}

# same_btf NAME A B [BASE_A BASE_B]: a PASS line when the BTF files A and B
# (split BTF on their bases) are semantically identical (btfcanon), else die
same_btf() {
	local name=$1 a=$2 b=$3 base_a=${4:-} base_b=${5:-} n bytes
	"$BTFCANON" ${base_a:+-b "$base_a"} "$a" > "$a.canon" || die "btfcanon $a failed"
	"$BTFCANON" ${base_b:+-b "$base_b"} "$b" > "$b.canon" || die "btfcanon $b failed"
	diff "$a.canon" "$b.canon" | grep '^[<>]' > "$b.diff" || true
	n=$(wc -l < "$b.diff")
	bytes="bytes differ ($(stat -c %s "$a") vs $(stat -c %s "$b"))"
	! cmp -s "$a" "$b" || bytes=byte-identical
	if [ "$n" != 0 ]; then
		sed -n 's/^/    /; 1,20p' "$b.diff"
		die "$name: $n semantic differences between $a and $b (PAHOLE=<adapter>: >)"
	fi
	echo "PASS $name: PAHOLE=<adapter> vs PAHOLE=pahole, $(wc -l < "$a.canon") types, 0 semantic differences, $bytes"
}

# The pahole adapter (README.md, "Kernels 7.0-7.2 with pahole older than
# 1.26") is harmless on 7.3: stock 7.3's gen-btf.sh and resolve_btfids with
# PAHOLE=<adapter>, in the environment Kbuild gives it (VERSION and
# PATCHLEVEL exported), must give the BTF and .BTF_ids that PAHOLE=pahole
# gives on the same .tmp_vmlinux1 and bpf_testmod.ko: the differential's
# stock run, done again here if it is older than the build's objects.
step_adapter() {
	step_kernel
	[ -x "$ADAPTER" ] || die "pahole adapter not found at $ADAPTER (run make at the top first)"
	[ -x "${BTFCANON:-}" ] || die "BTFCANON (build/tests/btfcanon) not set or not built: run via make kernel-test"
	local d=$KCACHE/adapter s=$KCACHE/differential/stock what a b
	if ! [ "$s/vmlinux.BTF" -nt "$OBJ/.tmp_vmlinux1" ] || ! [ "$s/mod.BTF" -nt "$TESTMOD/bpf_testmod.ko" ]; then
		step_differential
	fi
	rm -rf "$d"
	mkdir -p "$d"
	cp "$OBJ/.tmp_vmlinux1" "$d/vmlinux.tmp"
	relink_testmod "$d/bpf_testmod.ko"
	say "adapter: stock gen-btf.sh + resolve_btfids with PAHOLE=$ADAPTER (VERSION=7 PATCHLEVEL=3)"
	(cd "$d" &&
	 genbtf_env PAHOLE="$ADAPTER" VERSION=7 PATCHLEVEL=3 RESOLVE_BTFIDS_FLAGS= \
		sh "$PRISTINE/scripts/gen-btf.sh" vmlinux.tmp &&
	 genbtf_env PAHOLE="$ADAPTER" VERSION=7 PATCHLEVEL=3 RESOLVE_BTFIDS_FLAGS=--distill_base \
		sh "$PRISTINE/scripts/gen-btf.sh" --btf_base "$OBJ/vmlinux" bpf_testmod.ko) > "$d/gen-btf.log" 2>&1 ||
		{ cat "$d/gen-btf.log"; die "stock gen-btf.sh with PAHOLE=$ADAPTER failed"; }
	objcopy --dump-section .BTF="$d/vmlinux.BTF" "$d/vmlinux.tmp.btf.o" "$d/scratch.o"
	objcopy --dump-section .BTF="$d/mod.BTF" --dump-section .BTF.base="$d/mod.BTF.base" \
		--dump-section .BTF_ids="$d/mod.BTF_ids" "$d/bpf_testmod.ko" "$d/scratch.o"
	say "adapter: compared with the differential's stock run (PAHOLE=pahole, $s)"
	same_btf adapter_harmless_7.3_vmlinux_BTF "$s/vmlinux.BTF" "$d/vmlinux.BTF"
	same_btf adapter_harmless_7.3_bpf_testmod_BTF_base "$s/mod.BTF.base" "$d/mod.BTF.base"
	same_btf adapter_harmless_7.3_bpf_testmod_BTF "$s/mod.BTF" "$d/mod.BTF" "$s/mod.BTF.base" "$d/mod.BTF.base"
	for what in vmlinux bpf_testmod; do
		a=$s/vmlinux.BTF_ids b=$d/vmlinux.tmp.BTF_ids
		[ $what = vmlinux ] || { a=$s/mod.BTF_ids; b=$d/mod.BTF_ids; }
		cmp -s "$a" "$b" || die "adapter: $what .BTF_ids differ with PAHOLE=<adapter> ($a, $b)"
		echo "PASS adapter_harmless_7.3_${what}_BTF_ids: PAHOLE=<adapter> vs PAHOLE=pahole, byte-identical ($(stat -c %s "$a") bytes)"
	done
	rm -rf "$d"
}

# A btf2btf failure must stop the build: the patched gen-btf.sh with
# BTF2BTF=false must fail and leave nothing to link or embed.
step_failstop() {
	step_kernel
	local d=$KCACHE/failstop rc
	rm -rf "$d"
	mkdir -p "$d"
	cp "$OBJ/.tmp_vmlinux1" "$d/vmlinux.tmp"
	relink_testmod "$d/bpf_testmod.ko"
	rc=0
	(cd "$d" && genbtf_env BTF2BTF=false BTF2BTF_FLAGS=--features=all RESOLVE_BTFIDS_FLAGS= \
		sh "$SRC/scripts/gen-btf.sh" vmlinux.tmp) > "$d/vmlinux.log" 2>&1 || rc=$?
	[ $rc != 0 ] || die "failstop: gen-btf.sh vmlinux succeeded with BTF2BTF=false"
	[ ! -e "$d/vmlinux.tmp.btf.o" ] || die "failstop: gen-btf.sh left vmlinux.tmp.btf.o behind"
	say "failstop: gen-btf.sh (vmlinux) with BTF2BTF=false exits $rc, no .btf.o to link"
	rc=0
	(cd "$d" && genbtf_env BTF2BTF=false BTF2BTF_FLAGS="--features=all --distill-base" \
		RESOLVE_BTFIDS_FLAGS= sh "$SRC/scripts/gen-btf.sh" --btf_base "$OBJ/vmlinux" \
		bpf_testmod.ko) > "$d/module.log" 2>&1 || rc=$?
	[ $rc != 0 ] || die "failstop: gen-btf.sh module succeeded with BTF2BTF=false"
	! readelf -S "$d/bpf_testmod.ko" | grep -q ' \.BTF ' ||
		die "failstop: bpf_testmod.ko got a .BTF section although btf2btf failed"
	say "failstop: gen-btf.sh (module) with BTF2BTF=false exits $rc, no .BTF embedded"
	rc=0
	kmake -q "$KTEST_STEP_TIMEOUT" "$d/prepare.log" -s -C "$SRC" O="$OBJ" BTF2BTF=false prepare || rc=$?
	[ $rc -lt 124 ] || die "failstop: make prepare with BTF2BTF=false did not end by itself (see $d/prepare.log)"
	[ $rc != 0 ] && grep -q 'needs btf2btf' "$d/prepare.log" ||
		die "failstop: make prepare with BTF2BTF=false did not stop (see $d/prepare.log)"
	say "failstop: make prepare with BTF2BTF=false stops: $(grep -m1 'needs btf2btf' "$d/prepare.log" | tr -s '* ' ' ')"
}

# A current pahole in the 7.3 proof (issue 31, point 7): the build's
# .tmp_vmlinux1 and bpf_testmod.ko encoded by forky's pahole 1.32 with the
# 7.3 tree's libbpf 1.8 (scripts/pahole-layout.sh, in the forky chroot) with
# the flags 7.3's Makefile.btf gives pahole 1.32 (--btf_features=layout: the
# vmlinux BTF has a layout section), the BTF phase done by stock gen-btf.sh +
# upstream 7.3's resolve_btfids (the differential's oracle, built from the
# pristine tree) and by the patched gen-btf.sh + btf2btf --features=all; the
# module on the vmlinux BTF of its own side, distilled as Kbuild does for an
# external module. 0 semantic differences (btfcanon), the same layout
# section. Then the existing kernel (no build: the cached bzImage) boots an
# initramfs of its own (kernel/guest/7.3-layout/init.c) that loads
# btf2btf's bpf_testmod.ko and, with BPF_BTF_LOAD, both sides' BTF: vmlinux's
# with its layout section as the base BTF it is, the module's flattened onto
# its distilled base (7.3's BPF_BTF_LOAD takes no base BTF). Needs the built
# kernel (make kernel-test KERNEL=7.3), root and the forky chroot
# (scripts/chroot.sh forky; PAHOLE_LAYOUT_ROOT names a built one).
step_pahole_layout() {
	step_fetch
	[ -x "${BTFCANON:-}" ] || die "BTFCANON (build/tests/btfcanon) not set or not built: run via make kernel-test"
	[ -x "$BTF2BTF" ] || die "btf2btf not found at $BTF2BTF (run make at the top first)"
	local f
	for f in "$OBJ/.tmp_vmlinux1" "$OBJ/arch/x86/boot/bzImage" "$TESTMOD/bpf_testmod.ko" \
		 "$SRC/scripts/gen-btf.sh" "$OBJ/tools/bpf/resolve_btfids/resolve_btfids"; do
		[ -e "$f" ] || die "pahole-layout: no $f: build the 7.3 kernel first (make kernel-test KERNEL=7.3)"
	done
	local t0=$SECONDS d=$KCACHE/pahole-layout flags rb v
	if [ -z "${PAHOLE_LAYOUT_ROOT:-}" ]; then
		PAHOLE_LAYOUT_ROOT=$(scripts/chroot.sh forky) ||
			die "pahole-layout: the forky chroot is needed (scripts/chroot.sh forky)"
	fi
	export PAHOLE_LAYOUT_ROOT
	rb=$(scripts/oracle-resolve-btfids.sh "$TOP/.cache")
	flags=$(scripts/pahole-flags.sh "$PRISTINE" 132)
	say "pahole-layout: $(scripts/pahole-layout.sh --version) + the 7.3 tree's libbpf (forky chroot $PAHOLE_LAYOUT_ROOT)"
	say "pahole-layout: 7.3's flags for pahole 1.32: $flags"
	rm -rf "$d"
	mkdir -p "$d/stock" "$d/btf2btf"
	relink_testmod "$d/bpf_testmod.pre.ko"
	for v in stock btf2btf; do
		cp "$OBJ/.tmp_vmlinux1" "$d/$v/vmlinux.tmp"
		cp "$d/bpf_testmod.pre.ko" "$d/$v/bpf_testmod.ko"
	done
	say "pahole-layout: stock gen-btf.sh + 7.3's resolve_btfids ($rb)"
	(cd "$d/stock" &&
	 genbtf_env PAHOLE="$TOP/scripts/pahole-layout.sh" PAHOLE_FLAGS="$flags" RESOLVE_BTFIDS="$rb" \
		RESOLVE_BTFIDS_FLAGS= sh "$PRISTINE/scripts/gen-btf.sh" vmlinux.tmp &&
	 objcopy --dump-section .BTF=vmlinux.BTF vmlinux.tmp.btf.o scratch.o &&
	 genbtf_env PAHOLE="$TOP/scripts/pahole-layout.sh" PAHOLE_FLAGS="$flags" RESOLVE_BTFIDS="$rb" \
		RESOLVE_BTFIDS_FLAGS=--distill_base \
		sh "$PRISTINE/scripts/gen-btf.sh" --btf_base vmlinux.BTF bpf_testmod.ko) > "$d/stock.log" 2>&1 ||
		{ tail -20 "$d/stock.log"; die "pahole-layout: stock gen-btf.sh failed (log: $d/stock.log)"; }
	say "pahole-layout: patched gen-btf.sh (btf2btf --features=all, resolve_btfids --resolve_only)"
	(cd "$d/btf2btf" &&
	 genbtf_env PAHOLE="$TOP/scripts/pahole-layout.sh" PAHOLE_FLAGS="$flags" RESOLVE_BTFIDS_FLAGS= \
		BTF2BTF_FLAGS=--features=all sh "$SRC/scripts/gen-btf.sh" vmlinux.tmp &&
	 objcopy --dump-section .BTF=vmlinux.BTF vmlinux.tmp.btf.o scratch.o &&
	 genbtf_env PAHOLE="$TOP/scripts/pahole-layout.sh" PAHOLE_FLAGS="$flags" RESOLVE_BTFIDS_FLAGS= \
		BTF2BTF_FLAGS="--features=all --distill-base" \
		sh "$SRC/scripts/gen-btf.sh" --btf_base vmlinux.BTF bpf_testmod.ko) > "$d/btf2btf.log" 2>&1 ||
		{ tail -20 "$d/btf2btf.log"; die "pahole-layout: patched gen-btf.sh failed (log: $d/btf2btf.log)"; }
	for v in stock btf2btf; do
		f=$d/$v
		cp "$f/vmlinux.tmp.BTF_ids" "$f/vmlinux.BTF_ids"
		objcopy --dump-section .BTF="$f/mod.BTF" --dump-section .BTF.base="$f/mod.BTF.base" \
			--dump-section .BTF_ids="$f/mod.BTF_ids" "$f/bpf_testmod.ko" "$f/scratch.o"
	done
	local s=$d/stock o=$d/btf2btf ls lo what
	SEM_DIFFS=0
	compare_btf "vmlinux .BTF" "$s/vmlinux.BTF" "$o/vmlinux.BTF"
	compare_raw "vmlinux .BTF_ids" "$s/vmlinux.BTF_ids" "$o/vmlinux.BTF_ids"
	compare_btf "bpf_testmod .BTF.base" "$s/mod.BTF.base" "$o/mod.BTF.base"
	compare_btf "bpf_testmod .BTF" "$s/mod.BTF" "$o/mod.BTF" "$s/mod.BTF.base" "$o/mod.BTF.base"
	compare_raw "bpf_testmod .BTF_ids" "$s/mod.BTF_ids" "$o/mod.BTF_ids"
	# the layout sections, byte for byte: vmlinux's must be there (pahole
	# writes one for base BTF only)
	for what in vmlinux.BTF mod.BTF.base mod.BTF; do
		ls=$(scripts/btf-layout.sh "$s/$what")
		lo=$(scripts/btf-layout.sh "$o/$what")
		[ "$ls" = "$lo" ] || die "pahole-layout: the layout sections of $what differ (stock $ls, btf2btf $lo)"
		printf 'DIFF %-22s layout section: %s\n' "$what" \
			"$([ "$ls" = none ] && echo "none in either" || echo "the same $(( ${#ls} / 2 )) bytes in both")"
	done
	[ "$(scripts/btf-layout.sh "$o/vmlinux.BTF")" != none ] ||
		die "pahole-layout: the vmlinux BTF has no layout section (pahole without the layout feature?)"
	[ "$SEM_DIFFS" = 0 ] ||
		die "pahole-layout: $SEM_DIFFS differences between 7.3's resolve_btfids and btf2btf"
	say "pahole-layout: 0 semantic differences, the same layout section ($((SECONDS - t0)) s)"
	pahole_layout_guest "$d"
	say "pahole-layout: done in $((SECONDS - t0)) s"
}

# pahole_layout_guest DIR: the initramfs of kernel/guest/7.3-layout/init.c
# with btf2btf's bpf_testmod.ko and a btf-accept set per side (DIR/stock,
# DIR/btf2btf), booted on the cached bzImage
pahole_layout_guest() {
	local d=$1 root=$1/guest/root v set name
	mkdir -p "$root/btf-accept"
	gcc -O2 -Wall -Wextra -Werror -o "$d/guest/btf-flatten" kernel/guest/btf-accept/flatten.c -lbpf ||
		die "cannot build btf-flatten"
	gcc -O2 -g -Wall -Wextra -Werror -static -I"$KDIR/guest/btf-accept" -I"$KDIR/guest/common" \
		-o "$root/init" "$KDIR/guest/7.3-layout/init.c" "$KDIR/guest/btf-accept/btf_accept.c" \
		"$KDIR/guest/common/guest.c"
	cp "$d/btf2btf/bpf_testmod.ko" "$root/"
	for v in btf2btf stock; do
		set=$root/btf-accept/pahole-1.32-$v
		mkdir -p "$set"
		: > "$set/refuse"
		cp "$d/$v/vmlinux.BTF" "$set/vmlinux.btf"
		"$d/guest/btf-flatten" -e little -b "$d/$v/mod.BTF.base" "$d/$v/mod.BTF" "$set/bpf_testmod.btf" ||
			die "btf-flatten $d/$v/mod.BTF failed"
		# a decl tag past its FUNC's parameters: the kernel must refuse
		# it (upstream's, of a dropped parameter; btfcanon's DANGLING)
		for name in vmlinux bpf_testmod; do
			if "$BTFCANON" "$set/$name.btf" | grep ' DANGLING$' > /dev/null; then
				echo "$name" >> "$set/refuse"
			fi
		done
		printf '%s, vmlinux (base BTF, layout section of %s bytes) and bpf_testmod (on its distilled base)\n' \
			"pahole 1.32 + 7.3's libbpf, $([ $v = stock ] && echo "7.3 resolve_btfids" || echo "btf2btf --features=all")" \
			"$(( $(scripts/btf-layout.sh "$set/vmlinux.btf" | wc -c) / 2 ))" > "$set/label"
	done
	pack_initramfs "$root" "$d/guest/initrd.gz"
	qemu_boot "$OBJ/arch/x86/boot/bzImage" "$d/guest/initrd.gz" "$d/guest.log" "$QEMU_TIMEOUT" "" \
		pahole-layout
}

# Seed 010 in the 7.3 tree: nothing handles a "__prog" argument suffix any more.
# Seed 010 removed is_kfunc_arg_prog() (the "__prog" name suffix); what
# stays is the type-based is_kfunc_arg_prog_aux() (struct bpf_prog_aux *).
step_seed010() {
	step_fetch
	local hits
	say "seed 010: grep -rnE '\"__prog\"|__prog\\b|is_kfunc_arg_prog\\(' kernel/bpf include/linux (7.3 tree)"
	hits=$(cd "$PRISTINE" && grep -rnE '"__prog"|__prog\b|is_kfunc_arg_prog\(' kernel/bpf include/linux || true)
	[ -z "$hits" ] || { printf '%s\n' "$hits"; die "seed 010: __prog handling still in the 7.3 tree"; }
	say "seed 010: 0 hits; what decides instead (kernel/bpf/verifier.c):"
	(cd "$PRISTINE" && grep -nE 'static bool is_kfunc_arg_(prog_aux|implicit)\(' kernel/bpf/verifier.c) |
		sed 's/^/    /'
}

step_check_patches() {
	step_fetch
	[ ${#PATCHES[@]} -gt 0 ] || die "no patches in $KDIR/patches/$VER"
	local d=$KCACHE/am f p out bad=0
	say "check-patches: git am ${#PATCHES[@]} patches on the files they touch (from $PRISTINE)"
	rm -rf "$d"
	mkdir -p "$d"
	for f in $(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${PATCHES[@]}" | sort -u); do
		[ -f "$PRISTINE/$f" ] || continue	# created by the series
		mkdir -p "$d/$(dirname "$f")"
		cp "$PRISTINE/$f" "$d/$f"
	done
	(
		cd "$d"
		git init -q
		git add -A
		git -c user.name=ktest -c user.email=ktest@localhost commit -q -m base
		git -c user.name=ktest -c user.email=ktest@localhost am -q "${PATCHES[@]/#/$TOP/}"
	) || die "the series does not apply with git am"
	for p in "${PATCHES[@]}"; do
		# an absolute path: given "kernel/patches/..." checkpatch takes the
		# patch file itself for a source file under kernel/ and checks it
		out=$("$PRISTINE/scripts/checkpatch.pl" --strict --no-tree -q "$TOP/$p" 2>&1 || true)
		printf '%s: %s\n' "$(basename "$p")" "$(printf '%s\n' "$out" | grep '^total:' || echo 'no issues')"
		printf '%s\n' "$out" | grep -q '^ERROR' && bad=1
	done
	rm -rf "$d"
	[ $bad = 0 ] || die "checkpatch reported errors"
	say "check-patches: OK"
}

# ktest-s390.sh reuses the steps above for its cross build
[ -z "${KTEST_SOURCED:-}" ] || return 0

case "${1:-all}" in
fetch) step_fetch; echo "$PRISTINE" ;;
source) step_source ;;
config) step_config ;;
kernel) step_kernel ;;
tools) step_tools ;;
guest) step_guest ;;
boot) step_boot ;;
differential) step_differential ;;
failstop) step_failstop ;;
adapter) step_adapter ;;
seed010) step_seed010 ;;
pahole-layout) step_pahole_layout ;;
check-patches) step_check_patches ;;
keys)	# the stamp keys of the current inputs, for debugging the cache
	step_fetch
	KTEST_KEYS_ONLY=1 step_source
	printf 'source %s\nconfig %s\ntool %s\nkernel %s\nguest %s\n' \
		"$KEY_SRC" "$KEY_CFG" "$KEY_TOOL" "$KEY_KERNEL" "$KEY_GUEST"
	;;
all)
	t0=$SECONDS
	step_seed010
	step_boot
	step_differential
	step_failstop
	step_adapter
	say "kernel-test 7.3: guest tests, differential, failstop and the adapter check passed ($((SECONDS - t0)) s)"
	;;
*) die "unknown step $1" ;;
esac
