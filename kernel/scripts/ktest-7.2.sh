#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Kernel proof for the Kbuild pahole adapter on Linux 7.2: Debian's
# linux-source-7.2 (suite trixie-backports), UNPATCHED, configured with
# tinyconfig + kernel/configs/7.2/*.config (sched_ext included), built with
# the machine's pahole (1.24 on Debian 12) through `make PAHOLE=<adapter>`,
# booted in QEMU (TCG) with upstream 7.2's own selftest programs for what
# KF_IMPLICIT_ARGS touches (run by the 7.3 guest's loader) and the sched_ext
# selftests built from the same tree.
#
#   kernel/scripts/ktest-7.2.sh [all|source|config|kernel|tools|sched_ext|
#                               guest|boot|negative|uaf|oracle|btf|check-patches]
#
# btf = negative + uaf + oracle (.ci/run); all = btf + boot. Environment: PAHOLE_ADAPTER (default
# build/lib/btf2btf/pahole), BTF2BTF (the btf2btf it runs, default build/btf2btf),
# KCACHE (default /var/cache/btf2btf/kernel-7.2), JOBS, QEMU_TIMEOUT (s), QEMU_SMP
# (default 3), QEMU_ACCEL (default tcg,thread=single), CLANG.
# Every step is cached under $KCACHE with a stamp holding the hash of its
# inputs; a step runs again only when that hash changes.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$TOP"
KTEST_NAME=ktest-7.2
# shellcheck source=kernel/scripts/lib.sh
. "$TOP/kernel/scripts/lib.sh"

VER=7.2
SUITE=trixie-backports
KDIR=kernel
PKG=linux-source-$VER
KCACHE=$(mkdir -p "${KCACHE:-/var/cache/btf2btf/kernel-$VER}" && cd "${KCACHE:-/var/cache/btf2btf/kernel-$VER}" && pwd)
FETCH=${KFETCH:-$KCACHE/fetch}
OBJ=$KCACHE/build
TESTMOD=$KCACHE/testmod
GUEST=$KCACHE/guest
SCX=$KCACHE/sched_ext
STAMPS=$KCACHE/stamps
JOBS=${JOBS:-$(nproc)}
BTF2BTF=$(tool_path "${BTF2BTF:-}" build/btf2btf)
ADAPTER=$(tool_path "${PAHOLE_ADAPTER:-}" build/lib/btf2btf/pahole)
QEMU_TIMEOUT=${QEMU_TIMEOUT:-900}
CLANG=${CLANG:-clang-19}
SELFTESTS=tools/testing/selftests/bpf
# the adapter runs this btf2btf
export BTF2BTF

mkdir -p "$STAMPS"

CONFIGS=("$KDIR"/configs/"$VER"/*.config)
mapfile -t TOOLSRC < <(find src include -type f 2>/dev/null | LC_ALL=C sort)
mapfile -t GUESTSRC < <(find "$KDIR/guest/7.3" "$KDIR/guest/7.2" "$KDIR/guest/btf-accept" \
	"$KDIR/guest/common" kernel/scripts/btf-accept-sets.sh -type f |
	LC_ALL=C sort)
# the differential's objects, whose BTF the guest loads (btf-accept-sets.sh)
DIFF_WORK=${DIFF_WORK:-$TOP/build/differential}

step_fetch() {
	say "fetch: $PKG ($SUITE) into $FETCH"
	SRC=$(scripts/fetch-linux-source.sh "$VER" "$SUITE" "$FETCH") ||
		die "could not fetch $PKG"
	DEB=$(ls "$FETCH"/${PKG}_*.deb | head -1)
}

step_source() {
	step_fetch
	# the tree is built as Debian ships it (O=, no patch): its key is the package
	KEY_SRC=$(basename "$DEB" | sha256sum | cut -c1-16)
	KEY_CFG=$( { echo "$KEY_SRC"; hash_files "${CONFIGS[@]}"; } | sha256sum | cut -c1-16)
	KEY_TOOL=$( { hash_files "${TOOLSRC[@]}"; echo "$BTF2BTF $ADAPTER"; cat "$BTF2BTF" "$ADAPTER" 2>/dev/null; } |
		   sha256sum | cut -c1-16)
	KEY_KERNEL=$( { echo "$KEY_CFG"; echo "$KEY_TOOL"; } | sha256sum | cut -c1-16)
	KEY_GUEST=$( { echo "$KEY_KERNEL"; hash_files "${GUESTSRC[@]}"; } | sha256sum | cut -c1-16)
	[ -x "$ADAPTER" ] || die "pahole adapter not found at $ADAPTER (run make at the top first)"
}

# the one thing a user adds to the build: PAHOLE=<adapter>
make_kernel() { kernel_make kernel -C "$SRC" O="$OBJ" -j"$JOBS" PAHOLE="$ADAPTER" "$@"; }
make_testmod() { kernel_make testmod -C "$OBJ" M="$TESTMOD" -j"$JOBS" PAHOLE="$ADAPTER" "$@"; }

step_kernel() {
	step_config
	kernel_cached && return
	local t0=$SECONDS f
	say "kernel: make -j$JOBS PAHOLE=$ADAPTER bzImage modules ($(pahole --version))"
	make_kernel bzImage modules
	mkdir -p "$TESTMOD"
	# 7.3's Kbuild for bpf_testmod alone fits 7.2's test_kmods too
	cp "$KDIR/guest/7.3/testmod/Kbuild" "$TESTMOD/"
	for f in bpf_testmod.c bpf_testmod.h bpf_testmod_kfunc.h bpf_testmod-events.h; do
		cmp -s "$SRC/$SELFTESTS/test_kmods/$f" "$TESTMOD/$f" ||
			cp "$SRC/$SELFTESTS/test_kmods/$f" "$TESTMOD/$f"
	done
	say "kernel: make M=$TESTMOD PAHOLE=$ADAPTER modules (7.2's test_kmods/bpf_testmod.c)"
	make_testmod modules
	kernel_built "$t0"
}

step_tools() {
	step_source
	tree_tools "$KEY_SRC"
}

# vmlinux.h for BPF programs: the adapter leaves no "bpf_kfunc" decl tags in
# the kernel (7.2's resolve_btfids would act on them), so bpftool >= 7.4
# writes the kfunc prototypes of vmlinux.h from a copy that has them.
vmlinux_h() {
	local out=$1
	"$BTF2BTF" -q --features=kfunc_tags -o "$KCACHE/vmlinux.tagged.btf" "$OBJ/vmlinux" ||
		die "btf2btf --features=kfunc_tags on $OBJ/vmlinux failed"
	"$BPFTOOL" btf dump file "$KCACHE/vmlinux.tagged.btf" format c > "$out"
	grep -q 'struct bpf_prog_aux {' "$out" || die "bpftool could not dump $KCACHE/vmlinux.tagged.btf"
}

# tools/testing/selftests/sched_ext of the 7.2 tree: the runner (all tests
# linked in), static for the initramfs
step_sched_ext() {
	step_kernel
	step_tools
	if stamp_ok sched_ext "$KEY_KERNEL" && [ -x "$SCX/runner" ]; then
		say "sched_ext: runner up to date"
		return
	fi
	command -v "$CLANG" > /dev/null || die "$CLANG not found (apt-get install clang-19)"
	rm -rf "$SCX"
	mkdir -p "$SCX"
	vmlinux_h "$SCX/vmlinux.h"
	say "sched_ext: make -C tools/testing/selftests/sched_ext ($CLANG)"
	kmake "$KTEST_STEP_TIMEOUT" "$SCX/build.log" -C "$SRC/tools/testing/selftests/sched_ext" -j"$JOBS" \
		OUTPUT="$SCX" CLANG="$CLANG" BPFTOOL="$BPFTOOL" VMLINUX_BTF="$OBJ/vmlinux" VMLINUX_H="$SCX/vmlinux.h" ||
		die "sched_ext selftests build failed (see $SCX/build.log)"
	# the runner again, static (LDFLAGS on the make command line would reach
	# libbpf's shared library too): its objects, each test's own
	local o=$SCX/build/obj/sched_ext t objs=()
	for t in "$SRC"/tools/testing/selftests/sched_ext/*.c; do
		t=$(basename "${t%.c}")
		case $t in runner|util|*.bpf) continue ;; esac
		[ -f "$o/$t.o" ] && objs+=("$o/$t.o")
	done
	gcc -static -o "$SCX/runner" "$o/runner.o" "$o/util.o" "${objs[@]}" \
		"$SCX/build/obj/libbpf/libbpf.a" -lelf -lz -lpthread -lzstd 2>> "$SCX/build.log" ||
		die "static link of the sched_ext runner failed (see $SCX/build.log)"
	[ -x "$SCX/runner" ] || die "no $SCX/runner after the build"
	say "sched_ext: $("$SCX/runner" -l | wc -l) tests in the runner"
	stamp_set sched_ext "$KEY_KERNEL"
}

# Upstream 7.2 selftest objects the guest runs (tools/testing/selftests/bpf/progs/);
# kernel/guest/7.3/loader.c (built with -DGUEST_KERNEL_7_2) runs them.
UPSTREAM_PROGS=(kfunc_implicit_args kfunc_implicit_args_tracing wq wq_failures
	stream stream_fail task_work task_work_fail linked_list rbtree rbtree_fail
	refcounted_kptr verifier_arena)

step_guest() {
	step_sched_ext
	guest_cached && return
	mkdir -p "$GUEST/root/progs" "$GUEST/root/sched_ext" "$GUEST/include/bpf"
	local st=$SRC/$SELFTESTS p flags
	say "guest: vmlinux.h from $OBJ/vmlinux (+ bpf_kfunc tags, $BPFTOOL)"
	vmlinux_h "$GUEST/include/vmlinux.h"
	cp "$LIBBPF"/include/bpf/*.h "$GUEST/include/bpf/"
	mapfile -t flags < <(selftest_bpf_cflags "$GUEST/include")
	for p in "${UPSTREAM_PROGS[@]}"; do
		say "guest: $CLANG progs/$p.c (upstream 7.2)"
		"$CLANG" "${flags[@]}" -c "$st/progs/$p.c" -o "$GUEST/root/progs/$p.bpf.o"
	done
	for p in kernel/guest/7.3/progs/*.c; do
		say "guest: $CLANG $p (ours)"
		"$CLANG" "${flags[@]}" -I"$st/progs" -c "$p" \
			-o "$GUEST/root/progs/$(basename "${p%.c}").bpf.o"
	done
	# btf2btf's kfunc declarations next to that vmlinux.h, and a sched_ext
	# scheduler using them
	kfunc_decls "$OBJ/vmlinux" "$GUEST/include"
	for p in kernel/guest/7.2/kdecl/*.c; do
		say "guest: $CLANG $p (ours)"
		"$CLANG" "${flags[@]}" -c "$p" -o "$GUEST/root/progs/$(basename "${p%.c}").bpf.o"
	done
	say "guest: static /init (kernel/guest/7.3/loader.c -DGUEST_KERNEL_7_2, 7.2's libbpf)"
	gcc -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -static -DGUEST_KERNEL_7_2 \
		-I"$LIBBPF/include" -I"$SRC/tools/include/uapi" \
		-I"$KDIR/guest/btf-accept" -I"$KDIR/guest/common" -o "$GUEST/root/init" \
		"$KDIR/guest/7.3/loader.c" "$KDIR/guest/btf-accept/btf_accept.c" \
		"$KDIR/guest/common/guest.c" "$LIBBPF/libbpf.a" -lelf -lz
	cp "$TESTMOD/bpf_testmod.ko" "$GUEST/root/"
	cp "$SCX/runner" "$GUEST/root/sched_ext/runner"
	# the run-time negative control: vmlinux's BTF without the adapter (the
	# negative step's, of this kernel), which the loader puts in place of the
	# kernel's for the runner's create_dsq test
	[ "$KCACHE/negative/pahole/vmlinux.BTF" -nt "$OBJ/vmlinux" ] || step_negative
	mkdir -p "$GUEST/root/no-adapter"
	cp "$KCACHE/negative/pahole/vmlinux.BTF" "$GUEST/root/no-adapter/vmlinux.btf"
	# the differential's kernel-valid objects as the adapter transforms them
	BTF2BTF=$BTF2BTF ENDIAN=little KERNEL=$VER kernel/scripts/btf-accept-sets.sh \
		"$GUEST/root/btf-accept" "$DIFF_WORK" adapter
	say "guest: packing initramfs"
	pack_initramfs "$GUEST/root" "$GUEST/initrd.gz"
	stamp_set guest "$KEY_GUEST"
}

# Three CPUs: sched_ext calls ops.select_cpu() only for tasks allowed on more
# than one CPU, and cyclic_kick_wait needs three (configs/7.2). One TCG
# thread for all of them: with QEMU's multi-threaded TCG (Debian 12's 7.2),
# reload_loop's static-key flips oopsed the guest ("int3" in sched_tick,
# kernel/README.md).
step_boot() {
	step_guest
	QEMU_SMP=${QEMU_SMP:-3} QEMU_ACCEL=${QEMU_ACCEL:-tcg,thread=single} \
		qemu_boot "$OBJ/arch/x86/boot/bzImage" "$GUEST/initrd.gz" "$KCACHE/guest.log" "$QEMU_TIMEOUT"
}

# gen_btf DIR PAHOLE [--btf_base B] OBJECT: 7.2's scripts/gen-btf.sh BTF
# phase (pahole, then the build's resolve_btfids) on a copy, with the
# environment kbuild gives it; no -j for pahole (reproducible output)
gen_btf() {
	local d=$1 pahole=$2
	shift 2
	(cd "$d" && env objtree="$OBJ" srctree="$SRC" PAHOLE="$pahole" PAHOLE_FLAGS="--btf_gen_floats" \
		RESOLVE_BTFIDS="$OBJ/tools/bpf/resolve_btfids/resolve_btfids" \
		RESOLVE_BTFIDS_FLAGS="${RESOLVE_BTFIDS_FLAGS:-}" VERSION=7 PATCHLEVEL=2 \
		CC=gcc OBJCOPY=objcopy CLANG_FLAGS= KBUILD_CPPFLAGS= KBUILD_CFLAGS= \
		sh "$SRC/scripts/gen-btf.sh" "$@")
}

# nparams DUMP FUNC: parameters of FUNC's prototype in a bpftool raw dump
nparams() {
	local id
	id=$(sed -n "s/^\[[0-9]*\] FUNC '$2' type_id=\([0-9]*\).*/\1/p" "$1")
	[ -n "$id" ] || { echo none; return; }
	sed -n "s/^\[$id\] FUNC_PROTO .* vlen=\([0-9]*\)$/\1/p" "$1"
}

# NEG name DUMP FUNC FULL: the kfunc keeps FULL parameters and has no _impl
neg_line() {
	local name=$1 dump=$2 fn=$3 full=$4 n m
	n=$(nparams "$dump" "$fn")
	m=$(nparams "$dump" "${fn}_impl")
	if [ "$n" = "$full" ] && [ "$m" = none ]; then
		echo "NEGATIVE $name: without the adapter $fn has $n parameters (aux included), no ${fn}_impl"
	else
		die "negative control $name: without the adapter $fn has $n parameters, ${fn}_impl $m (expected $full, none)"
	fi
}
pos_line() {
	local name=$1 dump=$2 fn=$3 reduced=$4 n m
	n=$(nparams "$dump" "$fn")
	m=$(nparams "$dump" "${fn}_impl")
	if [ "$n" = "$reduced" ] && [ "$m" = $((reduced + 1)) ]; then
		echo "PASS $name: with the adapter $fn has $n parameters, ${fn}_impl $m"
	else
		die "$name: with the adapter $fn has $n parameters, ${fn}_impl $m (expected $reduced, $((reduced + 1)))"
	fi
}

# The negative control, every run: the same BTF phase (7.2's gen-btf.sh, its
# resolve_btfids) on copies of the build's .tmp_vmlinux1 and of the relinked
# bpf_testmod.ko, with the plain pahole and with the adapter.
step_negative() {
	step_kernel
	step_tools
	local d=$KCACHE/negative v
	rm -rf "$d"
	for v in pahole adapter; do
		mkdir -p "$d/$v"
		cp "$OBJ/.tmp_vmlinux1" "$d/$v/vmlinux.tmp"
	done
	relink_testmod "$d/pahole/bpf_testmod.ko"
	cp "$d/pahole/bpf_testmod.ko" "$d/adapter/bpf_testmod.ko"
	gen_btf "$d/pahole" "$(command -v pahole)" vmlinux.tmp
	gen_btf "$d/adapter" "$ADAPTER" vmlinux.tmp
	RESOLVE_BTFIDS_FLAGS=--distill_base gen_btf "$d/pahole" "$(command -v pahole)" --btf_base "$OBJ/vmlinux" bpf_testmod.ko
	RESOLVE_BTFIDS_FLAGS=--distill_base gen_btf "$d/adapter" "$ADAPTER" --btf_base "$OBJ/vmlinux" bpf_testmod.ko
	for v in pahole adapter; do
		objcopy --dump-section .BTF="$d/$v/vmlinux.BTF" "$d/$v/vmlinux.tmp.btf.o" "$d/$v/scratch.o"
		"$BPFTOOL" btf dump file "$d/$v/vmlinux.BTF" > "$d/$v/vmlinux.txt"
		objcopy --dump-section .BTF="$d/$v/mod.BTF" --dump-section .BTF.base="$d/$v/mod.BTF.base" \
			"$d/$v/bpf_testmod.ko" "$d/$v/scratch.o"
		"$BPFTOOL" btf dump file "$d/$v/mod.BTF" -B "$d/$v/mod.BTF.base" > "$d/$v/mod.txt"
	done
	neg_line vmlinux_bpf_wq_set_callback "$d/pahole/vmlinux.txt" bpf_wq_set_callback 4
	neg_line vmlinux_scx_bpf_dsq_insert "$d/pahole/vmlinux.txt" scx_bpf_dsq_insert 5
	neg_line bpf_testmod_bpf_kfunc_implicit_arg "$d/pahole/mod.txt" bpf_kfunc_implicit_arg 2
	pos_line btf_phase_vmlinux_bpf_wq_set_callback "$d/adapter/vmlinux.txt" bpf_wq_set_callback 3
	pos_line btf_phase_vmlinux_scx_bpf_dsq_insert "$d/adapter/vmlinux.txt" scx_bpf_dsq_insert 4
	pos_line btf_phase_bpf_testmod_implicit_arg "$d/adapter/mod.txt" bpf_kfunc_implicit_arg 1
}

# The reason the adapter adds no bpf_kfunc tags: 7.2's resolve_btfids on
# tagged module BTF reads freed memory (process_kfunc_with_implicit_args),
# on pahole's BTF with the tags pahole >= 1.27 would add ("tagged") and on
# BTF already transformed by btf2btf ("transformed+tagged": the tags cannot
# be added before it either). Fails when a future 7.2 fixes it, so that
# README.md stays true.
uaf_case() {
	local d=$1 name=$2 features=$3 rb=$OBJ/tools/bpf/resolve_btfids/resolve_btfids
	mkdir -p "$d/$name"
	cp "$d/bpf_testmod.ko" "$d/$name/"
	(cd "$d/$name" &&
	 pahole -J --btf_gen_floats --btf_base "$OBJ/vmlinux" --btf_encode_detached=bpf_testmod.ko.BTF.1 bpf_testmod.ko &&
	 "$BTF2BTF" -q --features="$features" -B "$OBJ/vmlinux" --btf bpf_testmod.ko.BTF.1 bpf_testmod.ko)
	(cd "$d/$name" && valgrind -q --error-exitcode=99 "$rb" --distill_base --btf_base "$OBJ/vmlinux" \
		--btf bpf_testmod.ko.BTF.1 bpf_testmod.ko) > "$d/$name.log" 2>&1 || true
	{ grep -q 'Invalid read' "$d/$name.log" && grep -q 'process_kfunc_with_implicit_args' "$d/$name.log"; } ||
		die "7.2's resolve_btfids no longer reads freed memory on $name module BTF (see $d/$name.log): revisit the adapter's design and README.md"
	echo "NEGATIVE resolve_btfids_uaf_$name: 7.2's resolve_btfids on $name bpf_testmod BTF (btf2btf --features=$features):" \
		"valgrind: $(grep -m1 'Invalid read' "$d/$name.log" | sed 's/^==[0-9]*== //') in process_kfunc_with_implicit_args"
}

step_uaf() {
	step_kernel
	command -v valgrind > /dev/null || die "valgrind not found (apt-get install valgrind)"
	local d=$KCACHE/uaf rb=$OBJ/tools/bpf/resolve_btfids/resolve_btfids
	rm -rf "$d"
	mkdir -p "$d/adapter"
	relink_testmod "$d/bpf_testmod.ko"
	uaf_case "$d" tagged kfunc_tags
	uaf_case "$d" transformed+tagged implicit_args,kfunc_tags
	cp "$d/bpf_testmod.ko" "$d/adapter/"
	(cd "$d/adapter" &&
	 "$ADAPTER" -J --btf_gen_floats --btf_base "$OBJ/vmlinux" --btf_encode_detached=bpf_testmod.ko.BTF.1 bpf_testmod.ko &&
	 valgrind -q --error-exitcode=99 "$rb" --distill_base --btf_base "$OBJ/vmlinux" \
		--btf bpf_testmod.ko.BTF.1 bpf_testmod.ko) > "$d/adapter.log" 2>&1 ||
		{ cat "$d/adapter.log"; die "7.2's resolve_btfids after the adapter: valgrind errors (see $d/adapter.log)"; }
	echo "PASS resolve_btfids_after_adapter: 7.2's resolve_btfids on the adapter's bpf_testmod BTF: valgrind clean"
}

# The oracle: no pahole >= 1.27 can be built here (kernel/README.md), so
# 7.3's resolve_btfids, whose BTF phase reads the set8s itself (what
# `make differential` checks btf2btf against), runs on pahole's BTF of the
# same .tmp_vmlinux1. Its result must have the same kfunc prototypes, _impl
# FUNCs, fastcall tags and arena attributes as the adapter's after 7.2's
# resolve_btfids, once the "bpf_kfunc" tags the adapter leaves out, the dedup
# 7.2 does not do and the sort are added to ours (btf2btf, after the fact).
step_oracle() {
	step_negative
	[ -x "${BTFCANON:-}" ] || die "BTFCANON (build/tests/btfcanon) not set or not built: run via make kernel-test"
	local d=$KCACHE/oracle rb73 n
	rb73=$(scripts/oracle-resolve-btfids.sh .cache) || die "no 7.3 resolve_btfids (scripts/oracle-resolve-btfids.sh)"
	rm -rf "$d"
	mkdir -p "$d"
	cp "$OBJ/.tmp_vmlinux1" "$d/vmlinux.tmp"
	(cd "$d" && pahole -J --btf_gen_floats --btf_encode_detached=vmlinux.tmp.BTF.1 vmlinux.tmp &&
	 "$rb73" --btf vmlinux.tmp.BTF.1 vmlinux.tmp) > "$d/oracle.log" 2>&1 ||
		{ cat "$d/oracle.log"; die "7.3's resolve_btfids failed on 7.2's .tmp_vmlinux1"; }
	"$BTF2BTF" -q --features=kfunc_tags,dedup,sort --btf "$KCACHE/negative/adapter/vmlinux.BTF" \
		-o "$d/adapter.BTF" "$KCACHE/negative/adapter/vmlinux.tmp" ||
		die "btf2btf --features=kfunc_tags,dedup,sort on the adapter's BTF failed"
	"$BTFCANON" "$d/vmlinux.tmp.BTF" > "$d/oracle.canon"
	"$BTFCANON" "$d/adapter.BTF" > "$d/adapter.canon"
	n=$(diff "$d/oracle.canon" "$d/adapter.canon" | grep -c '^[<>]' || true)
	if [ "$n" != 0 ]; then
		diff "$d/oracle.canon" "$d/adapter.canon" | grep '^[<>]' | head -20 | sed 's/^/    /'
		die "oracle: $n semantic differences between 7.3's resolve_btfids and the adapter on 7.2's vmlinux"
	fi
	echo "PASS oracle_vmlinux: 7.3's resolve_btfids on pahole's BTF of 7.2's .tmp_vmlinux1 and the adapter's result" \
		"(+ bpf_kfunc tags, dedup, sort): $(wc -l < "$d/oracle.canon") types, 0 semantic differences"
}

case "${1:-all}" in
fetch) step_fetch; echo "$SRC" ;;
source) step_source ;;
config) step_config ;;
kernel) step_kernel ;;
tools) step_tools ;;
sched_ext) step_sched_ext ;;
guest) step_guest ;;
boot) step_boot ;;
negative) step_negative ;;
uaf) step_uaf ;;
oracle) step_oracle ;;
keys)	# the stamp keys of the current inputs, for debugging the cache
	step_source
	printf 'source %s\nconfig %s\ntool %s\nkernel %s\nguest %s\n' \
		"$KEY_SRC" "$KEY_CFG" "$KEY_TOOL" "$KEY_KERNEL" "$KEY_GUEST"
	;;
check-patches) say "check-patches: none (the 7.2 proof builds Debian's tree unpatched)" ;;
btf)	# the BTF-level proof without the guest (what .ci/run runs)
	t0=$SECONDS
	step_negative
	step_uaf
	step_oracle
	say "kernel-test 7.2 (btf): negative control, resolve_btfids check and oracle passed ($((SECONDS - t0)) s)"
	;;
all)
	t0=$SECONDS
	step_negative
	step_uaf
	step_oracle
	step_boot
	say "kernel-test 7.2: negative control, resolve_btfids check, oracle and guest tests passed ($((SECONDS - t0)) s)"
	;;
*) die "unknown step $1" ;;
esac
