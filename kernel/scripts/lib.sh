# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Shell helpers shared by the kernel proofs (ktest.sh for 6.12, ktest-7.3.sh
# for 7.3). Sourced, not run. The caller sets KTEST_NAME (prefix of error
# messages) and STAMPS (directory of the step stamps) before using them.

say() { printf '==> %s\n' "$*"; }
die() { printf '%s: error: %s\n' "${KTEST_NAME:-ktest}" "$*" >&2; exit 1; }
# set -e ends a proof silently when a command outside a function fails (as
# a cache key computed from a file a fresh clone lacks did): name it
trap 'printf "%s: error: line %s: %s exited %s\n" "${KTEST_NAME:-ktest}" "$LINENO" "$BASH_COMMAND" "$?" >&2' ERR

# tool_path VALUE DEFAULT: VALUE (DEFAULT when empty) made absolute when it
# exists, as the steps run it from other directories
tool_path() { realpath "${1:-$2}" 2>/dev/null || echo "${1:-$2}"; }

hash_files() {
	# hash of the names and contents of the given files, in order
	local f
	for f in "$@"; do
		printf '%s\n' "$f"
		cat "$f"
	done | sha256sum | cut -c1-16
}

# A step's stamp holds the hash of its inputs; the step is skipped while the
# stamp matches.
stamp_ok() { [ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]; }
stamp_set() { printf '%s\n' "$2" > "$STAMPS/$1"; }

# The kernel step's cache, one for every proof (reads BTF2BTF, OBJ, TESTMOD,
# KEY_KERNEL, KEY_TOOL; KIMAGE, default arch/x86/boot/bzImage; an empty
# TESTMOD: a build without bpf_testmod). kernel_cached: 0 when the image and
# bpf_testmod.ko are up to date; else 1, after deleting vmlinux and the .ko
# when btf2btf changed (the link step makes the BTF, and kbuild would not
# link again).
kernel_cached() {
	[ -x "$BTF2BTF" ] || die "btf2btf not found at $BTF2BTF (run make at the top first)"
	if stamp_ok kernel "$KEY_KERNEL" && [ -f "$OBJ/${KIMAGE:-arch/x86/boot/bzImage}" ] &&
	   { [ -z "$TESTMOD" ] || [ -f "$TESTMOD/bpf_testmod.ko" ]; }; then
		say "kernel: $(basename "${KIMAGE:-bzImage}")${TESTMOD:+ and bpf_testmod.ko} up to date"
		return 0
	fi
	if ! stamp_ok tool "$KEY_TOOL" && [ -f "$OBJ/vmlinux" ]; then
		say "kernel: btf2btf changed, relinking vmlinux${TESTMOD:+ and bpf_testmod.ko}"
		rm -f "$OBJ/vmlinux"
		[ -z "$TESTMOD" ] || rm -f "$TESTMOD"/*.ko
	fi
	return 1
}

# guest_cached: true (and said) when the guest's initramfs is up to date;
# otherwise $GUEST is emptied for the caller to build it again
guest_cached() {
	if stamp_ok guest "$KEY_GUEST" && [ -f "$GUEST/initrd.gz" ]; then
		say "guest: initramfs up to date"
		return 0
	fi
	rm -rf "$GUEST"
	return 1
}

# kernel_built T0: the kernel step done, started at $SECONDS = T0
kernel_built() {
	say "kernel: built in $((SECONDS - $1)) s"
	stamp_set tool "$KEY_TOOL"
	stamp_set kernel "$KEY_KERNEL"
}

# pack_initramfs ROOTDIR OUT: cpio newc (owned by root), gzip -9
pack_initramfs() {
	mkdir -p "$1/dev" "$1/proc" "$1/sys"
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
		gzip -9 > "$2"
}

# qemu_boot BZIMAGE INITRD LOG TIMEOUT [EXTRA_CMDLINE [LABEL]]: boot under TCG
# (QEMU_SYSTEM: the emulator, default qemu-system-x86_64; QEMU_SMP: the
# guest's CPUs, default 1; QEMU_ACCEL: the -accel argument, default tcg;
# QEMU_CONSOLE: an array of the options that put the guest's console=ttyS0
# on stdout, default -nographic, the serial port), print the guest's result
# lines and fail unless the last summary is "N passed, 0 failed", N > 0.
qemu_boot() {
	local kernel=$1 initrd=$2 log=$3 secs=$4 extra=${5:-} label=${6:+ ($6)} rc=0 summary
	local qemu=${QEMU_SYSTEM:-qemu-system-x86_64} console=(-nographic)
	[ -z "${QEMU_CONSOLE[*]:-}" ] || console=("${QEMU_CONSOLE[@]}")
	say "boot${6:+($6)}: $qemu -smp ${QEMU_SMP:-1} -accel ${QEMU_ACCEL:-tcg} (timeout ${secs}s), log in $log"
	timeout "$secs" "$qemu" -m 512 -smp "${QEMU_SMP:-1}" -accel "${QEMU_ACCEL:-tcg}" \
		"${console[@]}" -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet loglevel=4${extra:+ $extra}" \
		< /dev/null > "$log" 2>&1 || rc=$?
	tr -d '\r' < "$log" | grep -E '^(PASS|FAIL|SKIP|INFO|BTFERR) |^[0-9]+ passed, [0-9]+ failed$' || true
	[ $rc != 124 ] || die "QEMU timed out after ${secs}s (see $log)"
	[ $rc = 0 ] || die "QEMU exited with $rc (see $log)"
	summary=$(tr -d '\r' < "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
	[ -n "$summary" ] || die "no test summary from the guest (see $log)"
	case "$summary" in
	*" passed, 0 failed") ;;
	*) die "guest tests$label failed: $summary" ;;
	esac
	[ "${summary%% *}" -gt 0 ] || die "no guest test ran$label"
}

# kconfig_merge SRC OBJ FRAGMENT...: tinyconfig + fragments + olddefconfig;
# fails when a CONFIG_ line of a fragment did not survive.
kconfig_merge() {
	local src=$1 obj=$2 line missing=0
	shift 2
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" tinyconfig >/dev/null
	"$src"/scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$@" >/dev/null
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		grep -qxF "$line" "$obj/.config" || { echo "config: missing $line" >&2; missing=1; }
	done < <(cat "$@")
	[ $missing = 0 ] || die "config fragment not satisfied (see above)"
}

# The config step of the proofs that fetch their tree (7.2, 7.3 and s390x;
# ktest.sh has its own): tinyconfig + CONFIGS into OBJ, redone when KEY_CFG
# changes. Reads the caller's step_source, SRC, OBJ, CONFIGS, KEY_CFG.
step_config() {
	step_source
	if stamp_ok config "$KEY_CFG" && [ -f "$OBJ/.config" ]; then
		say "config: $OBJ/.config up to date"
		return
	fi
	say "config: tinyconfig + ${CONFIGS[*]}"
	kconfig_merge "$SRC" "$OBJ" "${CONFIGS[@]}"
	stamp_set config "$KEY_CFG"
}

# bpf_testmod.ko as it is before its BTF step (modfinal's ld_ko_o): the
# built one has resolved .BTF_ids whose set8 pairs are sorted by id.
relink_testmod() {
	local out=$1 cmd target dir=$TESTMOD
	target=$(sed -n 's/^savedcmd_\(.*bpf_testmod\.ko\) := .*/\1/p' "$TESTMOD/.bpf_testmod.ko.cmd")
	cmd=$(sed -n 's/^savedcmd_.*bpf_testmod\.ko := //p' "$TESTMOD/.bpf_testmod.ko.cmd")
	[ -n "$cmd" ] || die "no link command in $TESTMOD/.bpf_testmod.ko.cmd"
	cmd=${cmd%%;*}
	# 7.x's kbuild runs it in the module's directory (M=); 6.12's in the
	# object tree, with absolute paths
	[ "${target#/}" = "$target" ] || dir=$OBJ
	(cd "$dir" && eval "${cmd/ -o $target / -o $out }") ||
		die "relinking bpf_testmod.ko failed: $cmd"
}

# tree_tools KEY: the kernel tree's own bpftool (bootstrap) and libbpf.a,
# built into $KCACHE/tools from $SRC; sets BPFTOOL and LIBBPF. Redone when
# KEY (the tree's) changes.
tree_tools() {
	local KEY_SRC=$1
	BPFTOOL=$KCACHE/tools/bpftool/bootstrap/bpftool
	LIBBPF=$KCACHE/tools/bpftool/bootstrap/libbpf
	if stamp_ok tools "$KEY_SRC" && [ -x "$BPFTOOL" ] && [ -f "$LIBBPF/libbpf.a" ]; then
		say "tools: bpftool and libbpf of the $VER tree up to date"
		return
	fi
	say "tools: building the $VER tree's bpftool (bootstrap) and libbpf.a"
	rm -rf "$KCACHE/tools"
	mkdir -p "$KCACHE/tools/bpftool"
	make -s -C "$SRC/tools/bpf/bpftool" OUTPUT="$KCACHE/tools/bpftool/" -j"$JOBS" bootstrap \
		> "$KCACHE/tools/build.log" 2>&1 || { tail -20 "$KCACHE/tools/build.log"; die "bpftool build failed"; }
	"$BPFTOOL" version | sed -n 1,2p	# all of it read: head would end bpftool with SIGPIPE (pipefail)
	stamp_set tools "$KEY_SRC"
}

clang_sys_includes() {
	"$CLANG" -v -E - < /dev/null 2>&1 |
		sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }'
}

# selftest_bpf_cflags INCDIR: clang flags for upstream's selftest BPF
# programs of $SRC (BPF_CFLAGS and CLANG_BPF_BUILD_RULE of
# tools/testing/selftests/bpf/Makefile), vmlinux.h and bpf/*.h in INCDIR;
# one per line
selftest_bpf_cflags() {
	local st=$SRC/tools/testing/selftests/bpf
	# shellcheck disable=SC2046 # one -idirafter DIR pair per word
	printf '%s\n' -g -Wall -Werror -D__TARGET_ARCH_x86 -mlittle-endian \
		-I"$1" -I"$st" -I"$SRC/tools/include/uapi" -I"$SRC/tools/include" \
		-I"$st/libarena/include" -std=gnu11 -fno-strict-aliasing \
		-Wno-microsoft-anon-tag -fms-extensions -Wno-compare-distinct-pointer-types \
		-Wno-initializer-overrides $(clang_sys_includes) -DENABLE_ATOMICS_TESTS \
		-O2 --target=bpfel -mcpu=v3
}

# kfunc_decls VMLINUX INCDIR: INCDIR/kfuncs.h = btf2btf --kfuncs --format=c
# VMLINUX, which must compile with $CLANG -target bpf next to INCDIR/vmlinux.h
# (bpftool's of the same kernel, with its own kfunc externs): after it,
# before it, after it with BPF_NO_KFUNC_PROTOTYPES, and alone. Prints the
# commands, the number of kfuncs each header declares and any kfunc only one
# of them declares; dies on a compile error.
kfunc_decls() {
	local vmlinux=$1 inc=$2 d=$2/kfunc-decls case ours theirs
	mkdir -p "$d"
	say "kfunc-decls: $BTF2BTF --kfuncs --format=c $vmlinux > $inc/kfuncs.h"
	"$BTF2BTF" --kfuncs --format=c "$vmlinux" > "$inc/kfuncs.h" 2> "$d/btf2btf.err" ||
		{ cat "$d/btf2btf.err"; die "btf2btf --kfuncs --format=c $vmlinux failed"; }
	sed -n 's/^extern .*[ *]\([A-Za-z0-9_]*\)(.* __weak __ksym;$/\1/p' "$inc/kfuncs.h" | sort > "$d/ours"
	sed -n 's/^extern .*[ *]\([A-Za-z0-9_]*\)(.* __weak __ksym;$/\1/p' "$inc/vmlinux.h" | sort > "$d/theirs"
	ours=$(wc -l < "$d/ours")
	theirs=$(wc -l < "$d/theirs")
	[ "$ours" -gt 0 ] || die "kfuncs.h declares no kfunc"
	say "kfunc-decls: kfuncs.h declares $ours kfuncs, bpftool's vmlinux.h $theirs;" \
	    "only in kfuncs.h: $(comm -23 "$d/ours" "$d/theirs" | tr '\n' ' ')" \
	    "only in vmlinux.h: $(comm -13 "$d/ours" "$d/theirs" | tr '\n' ' ')"
	for case in after before guard alone; do
		case $case in
		after) printf '#include "vmlinux.h"\n#include "kfuncs.h"\n' ;;
		before) printf '#include "kfuncs.h"\n#include "vmlinux.h"\n' ;;
		guard) printf '#define BPF_NO_KFUNC_PROTOTYPES\n#include "vmlinux.h"\n#include "kfuncs.h"\n' ;;
		alone) printf '#include "kfuncs.h"\n' ;;
		esac > "$d/$case.c"
		# vmlinux.h of a kernel this new has anonymous members bpftool
		# writes as "struct x;": -Wmissing-declarations, not ours
		say "kfunc-decls: $case.c: $(tr '\n' ' ' < "$d/$case.c")"
		say "kfunc-decls: $CLANG -target bpf -O2 -g -Wall -Werror -Wno-missing-declarations -I$inc -c $case.c"
		"$CLANG" -target bpf -O2 -g -Wall -Werror -Wno-missing-declarations -I"$inc" \
			-c "$d/$case.c" -o "$d/$case.o" ||
			die "kfuncs.h does not compile ($case)"
	done
}
