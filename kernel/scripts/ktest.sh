#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Kernel proof for btf2btf: unpack Debian's linux-source-6.12, apply
# kernel/patches/6.12/, configure (tinyconfig + kernel/configs/6.12/*.config), build
# bzImage and bpf_testmod.ko with btf2btf, build the guest (static /init
# loader + BPF programs), pack an initramfs and boot it in QEMU (TCG).
#
#   kernel/scripts/ktest.sh [all|source|kernel|guest|boot|build-failures|negative|reloc|adapter|check-patches]
#
# Environment: BTF2BTF (path of the btf2btf binary, default build/btf2btf),
# PAHOLE_ADAPTER (the pahole adapter the adapter step checks, default build/lib/btf2btf/pahole),
# KCACHE (default /var/cache/btf2btf/kernel-6.12), JOBS (default nproc), QEMU_TIMEOUT (s).
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
KCACHE=$(mkdir -p "${KCACHE:-/var/cache/btf2btf/kernel-6.12}" && cd "${KCACHE:-/var/cache/btf2btf/kernel-6.12}" && pwd)
SRC=$KCACHE/src/$PKG
OBJ=$KCACHE/build
GUEST=$KCACHE/guest
STAMPS=$KCACHE/stamps
JOBS=${JOBS:-$(nproc)}
BTF2BTF=$(tool_path "${BTF2BTF:-}" build/btf2btf)
ADAPTER=$(tool_path "${PAHOLE_ADAPTER:-}" build/lib/btf2btf/pahole)
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}
TESTMOD=$SRC/tools/testing/selftests/bpf/bpf_testmod

mkdir -p "$STAMPS"

mapfile -t PATCHES < <(ls "$KDIR"/patches/6.12/*.patch | sort)
mapfile -t CONFIGS < <(ls "$KDIR"/configs/6.12/*.config | sort)
mapfile -t TOOLSRC < <(find src include -type f 2>/dev/null | LC_ALL=C sort)
mapfile -t GUESTSRC < <(find "$KDIR"/guest/6.12 "$KDIR"/guest/btf-accept \
	"$KDIR"/guest/common kernel/scripts/btf-accept-sets.sh tests/check-prog -type f | LC_ALL=C sort)
# the 7.3 proof's cache, whose objects this guest loads too (lib.sh, progmode)
PEER_KCACHE=${PEER_KCACHE:-$(dirname "$KCACHE")/kernel-7.3}
# the differential's objects, whose BTF the guest loads (btf-accept-sets.sh)
DIFF_WORK=${DIFF_WORK:-$TOP/build/differential}

tarball_id() { stat -c '%n %s %Y' "$TARBALL"; }

KEY_SRC=$( { tarball_id; hash_files "${PATCHES[@]}"; } | sha256sum | cut -c1-16)
KEY_CFG=$( { echo "$KEY_SRC"; hash_files "${CONFIGS[@]}"; } | sha256sum | cut -c1-16)
# the sources and the binary itself: BTF2BTF may name an installed btf2btf
KEY_TOOL=$( { hash_files "${TOOLSRC[@]}"; echo "$BTF2BTF"; cat "$BTF2BTF" 2>/dev/null; } | sha256sum | cut -c1-16)
KEY_KERNEL=$( { echo "$KEY_CFG"; echo "$KEY_TOOL"; } | sha256sum | cut -c1-16)
# the guest without the 7.3 proof's objects: the negative control's and
# relocation's boots, which load none of them, are keyed on it
KEY_GUEST_OWN=$( { echo "$KEY_KERNEL"; hash_files "${GUESTSRC[@]}";
	cat "$DIFF_WORK/in/manifest" 2>/dev/null || echo "no differential yet"; } | sha256sum | cut -c1-16)
# and the recipe of /progmode (lib.sh; progmode_corpus, defined below)
KEY_GUEST=$( { echo "$KEY_GUEST_OWN"; declare -f progmode_take_peer progmode_kconfig;
	sed -n '/^progmode_corpus() {$/,/^}$/p' "${BASH_SOURCE[0]}";
	progmode_peer_key "$PEER_KCACHE" 7.3; } | sha256sum | cut -c1-16)

check_package() {
	[ -f "$TARBALL" ] ||
		die "$TARBALL not found: install the Debian package ($ apt-get install $PKG)"
}

# files a series creates, changes or deletes (paths relative to the tree)
series_files() {
	sed -n 's|^+++ b/\([^\t]*\).*|\1|p; s|^--- a/\([^\t]*\).*|\1|p' "$@" | LC_ALL=C sort -u
}

# Apply a changed series to the existing tree without touching the files
# whose content stays the same, so that kbuild rebuilds only what the
# change affects: the touched files of the old and new series are
# unpacked from the tarball into a staging tree, patched there, and
# copied over only where they differ.
update_source() {
	local stage=$KCACHE/stage f
	say "source: series changed, updating $SRC in place"
	rm -rf "$stage"
	mkdir -p "$stage"
	series_files "$KCACHE"/applied/*.patch "${PATCHES[@]}" | sed "s|^|$PKG/|" > "$stage.list"
	# members the series creates are not in the tarball: tar says so and exits 2
	tar -C "$stage" -xf "$TARBALL" -T "$stage.list" 2>/dev/null || true
	for p in "${PATCHES[@]}"; do
		patch -d "$stage/$PKG" -p1 -s -N --no-backup-if-mismatch < "$p" ||
			die "$p does not apply"
	done
	while read -r f; do
		if [ -f "$stage/$f" ]; then
			cmp -s "$stage/$f" "$KCACHE/src/$f" || {
				mkdir -p "$(dirname "$KCACHE/src/$f")"
				cp "$stage/$f" "$KCACHE/src/$f"
				say "source: updated ${f#"$PKG"/}"
			}
		else
			rm -f "$KCACHE/src/$f"
		fi
	done < "$stage.list"
	rm -rf "$stage" "$stage.list"
}

step_source() {
	local p
	check_package
	if stamp_ok source "$KEY_SRC" && [ -d "$SRC" ]; then
		say "source: $SRC up to date (series ${KEY_SRC})"
		return
	fi
	if [ -d "$SRC" ] && [ -d "$KCACHE/applied" ] && stamp_ok tarball "$(tarball_id)"; then
		update_source
	else
		say "source: unpacking $TARBALL into $KCACHE/src"
		rm -rf "$KCACHE/src" "$OBJ" "$KCACHE/applied" "$STAMPS"/*
		mkdir -p "$KCACHE/src"
		tar -C "$KCACHE/src" -xf "$TARBALL"
		for p in "${PATCHES[@]}"; do
			say "source: applying $(basename "$p")"
			patch -d "$SRC" -p1 -s -N --no-backup-if-mismatch < "$p" ||
				die "$p does not apply"
		done
	fi
	rm -rf "$KCACHE/applied"
	mkdir -p "$KCACHE/applied"
	cp "${PATCHES[@]}" "$KCACHE/applied/"
	stamp_set tarball "$(tarball_id)"
	stamp_set source "$KEY_SRC"
}

step_config() {
	if stamp_ok config "$KEY_CFG" && [ -f "$OBJ/.config" ]; then
		say "config: $OBJ/.config up to date"
		return
	fi
	say "config: tinyconfig + ${CONFIGS[*]}"
	kconfig_merge "$SRC" "$OBJ" "${CONFIGS[@]}"
	stamp_set config "$KEY_CFG"
}

step_kernel() {
	step_source
	step_config
	kernel_cached && return
	local t0=$SECONDS
	say "kernel: make -j$JOBS bzImage modules (BTF2BTF=$BTF2BTF)"
	kernel_make kernel -C "$SRC" O="$OBJ" -j"$JOBS" BTF2BTF="$BTF2BTF" bzImage modules
	say "kernel: make M=$TESTMOD modules"
	kernel_make testmod -C "$OBJ" M="$TESTMOD" -j"$JOBS" BTF2BTF="$BTF2BTF" modules
	kernel_built "$t0"
}

step_guest() {
	step_kernel
	guest_cached && return
	mkdir -p "$GUEST/root/bpf" "$GUEST/obj"
	say "guest: vmlinux.h from $OBJ/vmlinux (bpftool)"
	bpftool btf dump file "$OBJ/vmlinux" format c > "$GUEST/obj/vmlinux.h"
	grep -q 'struct bpf_prog_aux {' "$GUEST/obj/vmlinux.h" ||
		die "bpftool could not dump the BTF of $OBJ/vmlinux"
	# wq_legacy.bpf.c is built against stock 6.12's bpf_experimental.h
	mkdir -p "$GUEST/obj/stock"
	tar -xOf "$TARBALL" "$PKG/tools/testing/selftests/bpf/bpf_experimental.h" \
		> "$GUEST/obj/stock/bpf_experimental.h"
	grep -q 'bpf_wq_set_callback_impl(timer, cb, flags, NULL)' \
		"$GUEST/obj/stock/bpf_experimental.h" ||
		die "stock bpf_experimental.h lacks the legacy bpf_wq_set_callback macro"
	local c o sel=$SRC/tools/testing/selftests/bpf
	for c in "$KDIR"/guest/6.12/progs/*.bpf.c; do
		o=$GUEST/root/bpf/$(basename "${c%.c}").o
		say "guest: clang -target bpf $(basename "$c")"
		clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$GUEST/obj" -c "$c" -o "$o"
	done
	# the RUN_TESTS programs of the series, as the selftests build them
	mkdir -p "$GUEST/root/bpf/selftests"
	for c in kfunc_implicit_args wq_failures; do
		say "guest: clang -target bpf selftests/bpf/progs/$c.c"
		clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$GUEST/obj" -I"$sel" \
			-I"$sel/progs" -c "$sel/progs/$c.c" -o "$GUEST/root/bpf/selftests/$c.bpf.o"
	done
	progmode_corpus
	say "guest: static /init loader"
	gcc -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -static \
		-I"$KDIR/guest/btf-accept" -I"$KDIR/guest/common" -o "$GUEST/root/init" "$KDIR/guest/6.12/init.c" "$KDIR/guest/btf-accept/btf_accept.c" \
		"$KDIR/guest/common/progload.c" -lbpf -lelf -lz
	cp "$TESTMOD/bpf_testmod.ko" "$GUEST/root/"
	BTF2BTF=$BTF2BTF ENDIAN=little KERNEL=6.12 kernel/scripts/btf-accept-sets.sh \
		"$GUEST/root/btf-accept" "$DIFF_WORK" btf2btf
	say "guest: packing initramfs"
	pack_initramfs "$GUEST/root" "$GUEST/initrd.gz"
	stamp_set guest "$KEY_GUEST"
}

# The guest's /progmode (lib.sh, progmode): group 6.12, the objects built
# above against this kernel's vmlinux.h and 6.12's headers, and
# tests/check-prog/ (clang as tests/test-check-prog.sh builds them;
# debian/obj_new.bpf.c against this vmlinux.h); group 7.3 from the 7.3
# proof's guest.
progmode_corpus() {
	local pm=$GUEST/root/progmode c
	mkdir -p "$pm/6.12" "$pm/repo"
	cp "$GUEST"/root/bpf/*.o "$GUEST"/root/bpf/selftests/*.o "$pm/6.12/"
	for c in tests/check-prog/*.bpf.c tests/check-prog/debian/*.bpf.c; do
		say "guest: clang -target bpf $c (progmode)"
		clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -I"$GUEST/obj" \
			-c "$c" -o "$pm/repo/$(basename "${c%.c}").o"
	done
	progmode_take_peer "$GUEST/root" "$PEER_KCACHE" 7.3
	progmode_kconfig "$GUEST/root"
}

# boot_guest LABEL BZIMAGE INITRD EXTRA_CMDLINE: qemu_boot with the log in
# $KCACHE/LABEL.log
boot_guest() {
	qemu_boot "$2" "$3" "$KCACHE/$1.log" "$QEMU_TIMEOUT" "$4" "$1"
}

step_boot() {
	step_guest
	boot_guest guest "$OBJ/arch/x86/boot/bzImage" "$GUEST/initrd.gz" ""
	progmode_check 6.12 "$KCACHE/guest.log" "$GUEST/root" "$OBJ/vmlinux" "$TESTMOD/bpf_testmod.ko"
}

# A btf2btf failure must fail the build, with a message, and leave no
# output behind: run only the vmlinux link and the module's final step
# with BTF2BTF=false, then put the good vmlinux and .ko back (same
# mtimes, so make still sees them as up to date).
step_build_failures() {
	step_kernel
	local keep=$KCACHE/keep log rc f
	rm -rf "$keep"
	mkdir -p "$keep"
	cp -p "$OBJ/vmlinux" "$OBJ/System.map" "$TESTMOD/bpf_testmod.ko" "$keep/"

	log=$KCACHE/btf2btf-false-vmlinux.log
	rm -f "$OBJ/vmlinux"
	say "build-failure: make vmlinux BTF2BTF=false (log in $log)"
	rc=0
	kmake -q "$KTEST_STEP_TIMEOUT" "$log" -C "$SRC" O="$OBJ" -j"$JOBS" BTF2BTF=false vmlinux || rc=$?
	f=$(grep -m1 "BTF: 'false .tmp_vmlinux1' failed" "$log" || true)
	if [ $rc != 0 ] && [ -n "$f" ] && [ ! -e "$OBJ/vmlinux" ]; then
		echo "PASS build_vmlinux_btf2btf_failure: make exits $rc, no vmlinux, \"$f\""
	else
		cp -p "$keep/vmlinux" "$keep/System.map" "$OBJ/"
		die "vmlinux link with BTF2BTF=false: exit $rc, message '${f:-none}', vmlinux $( [ -e "$OBJ/vmlinux" ] && echo left || echo removed) (see $log)"
	fi
	cp -p "$keep/vmlinux" "$keep/System.map" "$OBJ/"

	log=$KCACHE/btf2btf-false-module.log
	rm -f "$TESTMOD/bpf_testmod.ko"
	say "build-failure: make M=bpf_testmod BTF2BTF=false (log in $log)"
	rc=0
	kmake -q "$KTEST_STEP_TIMEOUT" "$log" -C "$OBJ" M="$TESTMOD" -j"$JOBS" BTF2BTF=false modules || rc=$?
	f=$(grep -m1 "BTF \[M\]: 'false --btf-base" "$log" || true)
	local left=no
	[ ! -e "$TESTMOD/bpf_testmod.ko" ] || left=yes
	cp -p "$keep/bpf_testmod.ko" "$TESTMOD/"
	if [ $rc != 0 ] && [ -n "$f" ] && [ $left = no ]; then
		echo "PASS build_module_btf2btf_failure: make exits $rc, no .ko, \"$f\""
	else
		die "module build with BTF2BTF=false: exit $rc, message '${f:-none}', .ko left: $left (see $log)"
	fi
	rm -rf "$keep"
}

# Negative control: the same tree linked with BTF2BTF=true (pahole's BTF
# left as is) in a copy of the build directory, so only the link steps
# run; bpf_testmod built against it from a copy of its sources.
NEG=$KCACHE/negative
step_negative() {
	step_guest
	if stamp_ok negative "$KEY_GUEST_OWN" && [ -f "$NEG/initrd.gz" ]; then
		say "negative: kernel without btf2btf up to date"
	else
		local t0=$SECONDS
		rm -rf "$NEG"
		mkdir -p "$NEG/testmod"
		say "negative: copying $OBJ, relinking with BTF2BTF=true"
		cp -a "$OBJ" "$NEG/build"
		rm -f "$NEG/build/vmlinux"
		kmake "$KTEST_STEP_TIMEOUT" "$(kernel_log negative)" -C "$SRC" O="$NEG/build" -j"$JOBS" \
			BTF2BTF=true bzImage || die "negative: make bzImage failed (log: $(kernel_log negative))"
		cp "$TESTMOD"/Makefile "$TESTMOD"/*.[ch] "$NEG/testmod/"
		kmake "$KTEST_STEP_TIMEOUT" "$(kernel_log negative-testmod)" -C "$NEG/build" M="$NEG/testmod" \
			-j"$JOBS" BTF2BTF=true modules ||
			die "negative: make M=testmod failed (log: $(kernel_log negative-testmod))"
		cp -a "$GUEST/root" "$NEG/root"
		rm -rf "$NEG/root/progmode"
		cp "$NEG/testmod/bpf_testmod.ko" "$NEG/root/bpf_testmod.ko"
		pack_initramfs "$NEG/root" "$NEG/initrd.gz"
		# only the boot needs these: keep the cache small
		cp "$NEG/build/arch/x86/boot/bzImage" "$NEG/bzImage"
		rm -rf "$NEG/build" "$NEG/root"
		say "negative: built in $((SECONDS - t0)) s"
		stamp_set negative "$KEY_GUEST_OWN"
	fi
	boot_guest negative "$NEG/bzImage" "$NEG/initrd.gz" "btf2btf.negative=1"
}

# Relocatable module BTF: bpf_testmod built out of tree against this
# kernel (A) carries .BTF.base (btf2btf --distill-base, as cmd_btf_ko runs
# it for external modules) and must load into kernel B, whose vmlinux BTF
# has other ids for the same types: A's objects relinked with btf2btf
# sorting the vmlinux BTF by name (the feature 7.3's resolve_btfids has),
# which moves nearly every type; sizes stay (relocation matches structs by
# name and size). A relink, not a build: a second configuration (kernel B
# was A + CONFIG_FS_VERITY=y, whose struct inode change reached most
# objects) cost a whole kernel build, 440 s. The same module built without
# --distill-base must be refused by B.
RELOC_FEATURES=implicit_args,sort
REL=$KCACHE/reloc
KEY_RELOC=$( { echo "$KEY_GUEST_OWN"; echo "$RELOC_FEATURES"; } | sha256sum | cut -c1-16)

# "KIND 'name' id" of every named type of a BTF dump (first of each)
named_ids() {
	sed -n "s/^\[\([0-9]*\)\] \([A-Z_]*\) '\([^']*\)'.*/\2 \3 \1/p" "$1" | awk '!seen[$1" "$2]++'
}

# How many of the named types the module's .BTF.base lists have another id
# in B's vmlinux BTF than in A's: what btf_relocate() must fix up.
moved_base_types() {
	local base=$REL/mod.BTF.base
	objcopy -O binary --only-section=.BTF.base --set-section-flags .BTF.base=alloc \
		"$TESTMOD/bpf_testmod.ko" "$base"
	bpftool btf dump file "$base" > "$base.txt"
	bpftool btf dump file "$OBJ/vmlinux" > "$REL/a.txt"
	bpftool btf dump file "$REL/build/vmlinux" > "$REL/b.txt"
	grep -q '^\[1\]' "$base.txt" || die "cannot read the .BTF.base of $TESTMOD/bpf_testmod.ko"
	named_ids "$REL/a.txt" > "$REL/a.ids"
	named_ids "$REL/b.txt" > "$REL/b.ids"
	named_ids "$base.txt" | awk -v A="$REL/a.ids" -v B="$REL/b.ids" '
		BEGIN {
			while ((getline l < A) > 0) { split(l, f, " "); a[f[1] " " f[2]] = f[3] }
			while ((getline l < B) > 0) { split(l, f, " "); b[f[1] " " f[2]] = f[3] }
		}
		{ k = $1 " " $2; n++; if (a[k] != b[k]) moved++ }
		END { printf "%d %d\n", moved, n }'
	rm -f "$base" "$base.txt" "$REL/a.txt" "$REL/b.txt" "$REL/a.ids" "$REL/b.ids"
}

step_reloc() {
	step_guest
	if stamp_ok reloc "$KEY_RELOC" && [ -f "$REL/initrd.gz" ]; then
		say "reloc: kernel B and the module without .BTF.base up to date"
	else
		local t0=$SECONDS ida idb moved
		rm -rf "$REL"
		mkdir -p "$REL/testmod-plain"
		readelf -S "$TESTMOD/bpf_testmod.ko" | grep -q ' \.BTF\.base ' ||
			die "$TESTMOD/bpf_testmod.ko has no .BTF.base section"
		# the module without .BTF.base: btf2btf without --distill-base
		cat > "$REL/btf2btf-no-distill" <<-EOS
		#!/bin/sh
		for a; do shift; [ "\$a" = --distill-base ] || set -- "\$@" "\$a"; done
		exec "$BTF2BTF" "\$@"
		EOS
		chmod +x "$REL/btf2btf-no-distill"
		cp "$TESTMOD"/Makefile "$TESTMOD"/*.[ch] "$REL/testmod-plain/"
		say "reloc: bpf_testmod without .BTF.base, against kernel A"
		kmake "$KTEST_STEP_TIMEOUT" "$(kernel_log reloc-testmod)" -C "$OBJ" M="$REL/testmod-plain" \
			-j"$JOBS" BTF2BTF="$REL/btf2btf-no-distill" modules ||
			die "reloc: make M=testmod-plain failed (log: $(kernel_log reloc-testmod))"
		! readelf -S "$REL/testmod-plain/bpf_testmod.ko" | grep -q ' \.BTF\.base ' ||
			die "the module built without --distill-base has a .BTF.base section"
		# kernel B, relinked in a copy of A's tree as the negative control is
		say "reloc: kernel B = kernel A relinked in a copy, vmlinux BTF through btf2btf --features=$RELOC_FEATURES"
		cat > "$REL/btf2btf-sorted" <<-EOS
		#!/bin/sh
		exec "$BTF2BTF" --features=$RELOC_FEATURES "\$@"
		EOS
		chmod +x "$REL/btf2btf-sorted"
		cp -a "$OBJ" "$REL/build"
		rm -f "$REL/build/vmlinux"
		kmake "$KTEST_STEP_TIMEOUT" "$(kernel_log reloc)" -C "$SRC" O="$REL/build" -j"$JOBS" \
			BTF2BTF="$REL/btf2btf-sorted" bzImage || die "reloc: make bzImage failed (log: $(kernel_log reloc))"
		ida=$(bpftool btf dump file "$OBJ/vmlinux" | sed -n "s/^\[\([0-9]*\)\] STRUCT 'bpf_prog_aux' .*/\1/p")
		idb=$(bpftool btf dump file "$REL/build/vmlinux" | sed -n "s/^\[\([0-9]*\)\] STRUCT 'bpf_prog_aux' .*/\1/p")
		[ -n "$ida" ] && [ -n "$idb" ] && [ "$ida" != "$idb" ] ||
			die "kernel B does not shift vmlinux type ids (struct bpf_prog_aux: A [$ida], B [$idb])"
		moved=$(moved_base_types) || die "cannot compare bpf_testmod's .BTF.base with A and B"
		echo "$ida $idb $moved" > "$REL/ids"
		cp -a "$GUEST/root" "$REL/root"
		rm -rf "$REL/root/progmode"
		cp "$REL/testmod-plain/bpf_testmod.ko" "$REL/root/bpf_testmod_plain.ko"
		pack_initramfs "$REL/root" "$REL/initrd.gz"
		cp "$REL/build/arch/x86/boot/bzImage" "$REL/bzImage"
		# B's tree served its ids: only its bzImage is kept
		rm -rf "$REL/root" "$REL/testmod-plain" "$REL/build"
		say "reloc: built in $((SECONDS - t0)) s"
		stamp_set reloc "$KEY_RELOC"
	fi
	read -r ida idb moved listed < "$REL/ids"
	echo "INFO reloc: struct bpf_prog_aux is [$ida] in kernel A's vmlinux BTF, [$idb] in kernel B's;" \
		"$moved of the $listed named types in bpf_testmod's .BTF.base have other ids in B"
	boot_guest reloc "$REL/bzImage" "$REL/initrd.gz" "btf2btf.reloc=1"
}

# The pahole adapter (README.md, "Kernels 7.0-7.2 with pahole older than
# 1.26") is harmless on 6.12: with it as PAHOLE, stock 6.12's own pahole
# calls (link-vmlinux.sh: -J in place on .tmp_vmlinux1; Makefile.modfinal:
# -J in place with --btf_base vmlinux on the module) must leave byte-identical
# objects. The flags are 6.12's for pahole 1.24 (scripts/Makefile.btf)
# without -j, whose output is not reproducible.
step_adapter() {
	step_kernel
	[ -x "$ADAPTER" ] || die "pahole adapter not found at $ADAPTER (run make at the top first)"
	local d=$KCACHE/adapter v what p
	rm -rf "$d"
	mkdir -p "$d/pahole" "$d/adapter"
	relink_testmod "$d/pahole/bpf_testmod.ko"
	cp "$d/pahole/bpf_testmod.ko" "$d/adapter/"
	# .tmp_vmlinux1 as the link left it, before gen_btf added .BTF in place
	objcopy --remove-section=.BTF "$OBJ/.tmp_vmlinux1" "$d/vmlinux.tmp"
	for v in pahole adapter; do
		cp "$d/vmlinux.tmp" "$d/$v/vmlinux.tmp"
		p=$ADAPTER
		[ $v = adapter ] || p=$(command -v pahole)
		(cd "$d/$v" && export LLVM_OBJCOPY=objcopy VERSION=6 PATCHLEVEL=12 &&
		 "$p" -J --btf_gen_floats vmlinux.tmp &&
		 "$p" -J --btf_gen_floats --btf_base "$OBJ/vmlinux" bpf_testmod.ko) > "$d/$v.log" 2>&1 ||
			{ cat "$d/$v.log"; die "adapter: $p -J failed on 6.12's objects"; }
	done
	rm "$d/vmlinux.tmp"
	for what in vmlinux.tmp bpf_testmod.ko; do
		readelf -S "$d/pahole/$what" | grep -q ' \.BTF ' || die "adapter: pahole wrote no .BTF into $what"
		cmp -s "$d/pahole/$what" "$d/adapter/$what" ||
			die "adapter: 6.12's $what after pahole -J through the adapter differs from plain pahole's ($(cmp "$d/pahole/$what" "$d/adapter/$what" | head -1))"
	done
	echo "PASS adapter_harmless_6.12_vmlinux: stock 6.12's pahole call on .tmp_vmlinux1 (-J in place) through the adapter:" \
		"byte-identical object ($(stat -c %s "$d/pahole/vmlinux.tmp") bytes)"
	echo "PASS adapter_harmless_6.12_bpf_testmod: stock 6.12's pahole call on bpf_testmod.ko (-J --btf_base vmlinux) through the adapter:" \
		"byte-identical object ($(stat -c %s "$d/pahole/bpf_testmod.ko") bytes)"
	rm -rf "$d"
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
boot) step_boot ;;
build-failures) step_build_failures ;;
negative) step_negative ;;
reloc) step_reloc ;;
adapter) step_adapter ;;
all)
	t0=$SECONDS
	step_boot
	step_build_failures
	step_negative
	step_reloc
	step_adapter
	say "kernel-test: all guest tests, build-failure checks, the negative control, module BTF relocation and the adapter check passed ($((SECONDS - t0)) s)"
	;;
check-patches) step_check_patches ;;
*) die "unknown step $1" ;;
esac
