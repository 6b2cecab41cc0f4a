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

# Make variables that change what a kernel make builds, and which no cache
# key of the proofs holds: refused, from the environment (where an enclosing
# make puts its command line's) or a make command line, before anything is
# built. `make kernel-test KERNEL=7.3 ARCH=s390` once ran the x86 proof with
# ARCH=s390 handed down; failstop's make prepare then met s390's Kconfig with
# the host's gcc and kconfig asked "Processor type choice[1-0?]:" of no one
# until 59 GB of log had filled the disk. The x86-64 proofs build with the
# host's gcc; ktest-s390.sh sets ARCH and CROSS_COMPILE itself (after this).
KTEST_BUILD_VARS=(ARCH CROSS_COMPILE CC LLVM O KBUILD_OUTPUT)
refuse_build_vars() {
	local v set=()
	for v in "${KTEST_BUILD_VARS[@]}"; do
		[ -z "${!v:-}" ] || set+=("$v=${!v}")
	done
	[ ${#set[@]} = 0 ] && return
	case " ${set[*]}" in
	*" ARCH=s390"*) die "${set[*]}: refused; the s390x proof is \`make kernel-test-s390\`," \
		"which sets ARCH and CROSS_COMPILE itself (kernel/s390.mk)" ;;
	*) die "${set[*]}: refused; these change the kernel build and no cache key of the proofs" \
		"holds them. The proofs build x86-64 with the host's gcc (s390x: \`make kernel-test-s390\`);" \
		"to prove a btf2btf built otherwise, give BTF2BTF=<path of it>" ;;
	esac
}
refuse_build_vars

# Every kernel make and guest boot runs under kernel/scripts/bounded-run:
# stdin from /dev/null, its output in a log file capped at KTEST_LOG_MAX
# bytes, stopped after a time limit; a stopped step fails with its last
# lines and the path of its log. The limits, generous (seconds; raise them
# in the environment on a slower machine): a kernel make, KTEST_BUILD_TIMEOUT
# (a cold tinyconfig build takes 440 s on 2 cores, 10-25 min while other
# jobs share them); the configuration, KTEST_CONFIG_TIMEOUT (under 30 s); the
# other makes (tools, relinks, make prepare), KTEST_STEP_TIMEOUT; a guest
# boot, each proof's QEMU_TIMEOUT.
BOUNDED_RUN=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bounded-run
KTEST_BUILD_TIMEOUT=${KTEST_BUILD_TIMEOUT:-7200}
KTEST_CONFIG_TIMEOUT=${KTEST_CONFIG_TIMEOUT:-900}
KTEST_STEP_TIMEOUT=${KTEST_STEP_TIMEOUT:-3600}
KTEST_LOG_MAX=${KTEST_LOG_MAX:-134217728}

# bounded [-q] SECONDS LOG COMMAND...: COMMAND under bounded-run (-q: its
# failure is reported by the caller, unless it was stopped)
bounded() {
	local flags=()
	[ "$1" != -q ] || { flags=(-q); shift; }
	mkdir -p "$(dirname "$2")"
	"$BOUNDED_RUN" "${flags[@]}" -t "$1" -m "$KTEST_LOG_MAX" -l "$(basename "$2" .log)" "$2" "${@:3}"
}

# kmake [-q] SECONDS LOG MAKE-ARGUMENT...: a kernel make, bounded, in an
# environment without the enclosing make's flags and command line
# (MAKEFLAGS: its -k, -n, -e or variables are not the proof's to pass on),
# and with KCONFIG_NOSILENTUPDATE set: a syncconfig that would change the
# configuration (make prepare or a build on a .config that no longer fits
# the tree, the arch or the compiler) fails at once with "The
# configuration requires explicit update" instead of asking questions
# (the config step writes .config with tinyconfig and olddefconfig, which
# ask none)
kmake() {
	local flags=()
	[ "$1" != -q ] || { flags=(-q); shift; }
	bounded "${flags[@]}" "$1" "$2" env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL \
		KCONFIG_NOSILENTUPDATE=1 make "${@:3}"
}

# btf2btf_quiet LOG...: the kernel's build logs hold no btf2btf warning (a
# build of correct code prints none; lint findings stay in --check); dies
# quoting them
btf2btf_quiet() {
	local hits
	hits=$(grep -h 'btf2btf: warning' "$@" | LC_ALL=C sort | uniq -c || true)
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | sed -n 's/^ *\([0-9]*\) /    (x\1) /; 1,40p' >&2
		die "btf2btf warned in the kernel build (above; logs: $*): a build of correct code must be quiet"
	fi
	say "kernel: no btf2btf warning in the build logs ($*)"
}

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
# bpf_testmod.ko are up to date, after checking the logs of the make that
# built them (kernel_log) for btf2btf warnings; else 1, after deleting vmlinux
# and the .ko: every build links them again, so that its logs show the BTF
# phase (kbuild would not link again for a changed btf2btf, and a make that
# has nothing left to do would hide the warnings of the one before). A cached
# kernel with no log (built before the logs were kept) is relinked.
kernel_cached() {
	[ -x "$BTF2BTF" ] || die "btf2btf not found at $BTF2BTF (run make at the top first)"
	local logs=("$(kernel_log kernel)")
	[ -z "$TESTMOD" ] || logs+=("$(kernel_log testmod)")
	if stamp_ok kernel "$KEY_KERNEL" && [ -f "$OBJ/${KIMAGE:-arch/x86/boot/bzImage}" ] &&
	   { [ -z "$TESTMOD" ] || [ -f "$TESTMOD/bpf_testmod.ko" ]; }; then
		if ls "${logs[@]}" > /dev/null 2>&1; then
			say "kernel: $(basename "${KIMAGE:-bzImage}")${TESTMOD:+ and bpf_testmod.ko} up to date"
			btf2btf_quiet "${logs[@]}"
			return 0
		fi
		say "kernel: no build log kept with the cached kernel: relinking for its BTF phase's output"
	elif ! stamp_ok tool "$KEY_TOOL" && [ -f "$OBJ/vmlinux" ]; then
		say "kernel: btf2btf changed, relinking vmlinux${TESTMOD:+ and bpf_testmod.ko}"
	fi
	rm -f "$OBJ/vmlinux"
	[ -z "$TESTMOD" ] || rm -f "$TESTMOD"/*.ko
	return 1
}

# kernel_log NAME: the kernel step's log NAME (kernel: the image's make,
# testmod: bpf_testmod's), kept with the build in $KCACHE/logs
kernel_log() { printf '%s/logs/%s.log\n' "$KCACHE" "$1"; }

# kernel_make NAME MAKE-ARGUMENT...: one make of the kernel step, bounded,
# its output in kernel_log NAME
kernel_make() {
	local log
	log=$(kernel_log "$1")
	say "kernel: its output in $log"
	kmake "$KTEST_BUILD_TIMEOUT" "$log" "${@:2}" || die "kernel: make ${*:2} failed (log: $log)"
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
	btf2btf_quiet "$(kernel_log kernel)" ${TESTMOD:+"$(kernel_log testmod)"}
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
	bounded -q "$secs" "$log" "$qemu" -m 512 -smp "${QEMU_SMP:-1}" -accel "${QEMU_ACCEL:-tcg}" \
		"${console[@]}" -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet loglevel=4${extra:+ $extra}" || rc=$?
	tr -d '\r' < "$log" | grep -E '^(PASS|FAIL|SKIP|INFO|BTFERR) |^[0-9]+ passed, [0-9]+ failed$' || true
	[ $rc != 124 ] || die "QEMU timed out after ${secs}s (see $log)"
	[ $rc != 125 ] || die "QEMU stopped: the guest's log reached the cap of $KTEST_LOG_MAX bytes (see $log)"
	[ $rc = 0 ] || die "QEMU exited with $rc (see $log)"
	summary=$(tr -d '\r' < "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
	[ -n "$summary" ] || die "no test summary from the guest (see $log)"
	case "$summary" in
	*" passed, 0 failed") ;;
	*) die "guest tests$label failed: $summary" ;;
	esac
	[ "${summary%% *}" -gt 0 ] || die "no guest test ran$label"
}

# kconfig_merge SRC OBJ FRAGMENT...: tinyconfig + fragments + olddefconfig
# (none of them asks a question), each logged in $KCACHE/logs/config-*.log;
# fails when a CONFIG_ line of a fragment did not survive.
kconfig_merge() {
	local src=$1 obj=$2 line missing=0
	shift 2
	mkdir -p "$obj"
	kmake "$KTEST_CONFIG_TIMEOUT" "$(kernel_log config-tinyconfig)" -s -C "$src" O="$obj" tinyconfig ||
		die "config: make tinyconfig failed (log: $(kernel_log config-tinyconfig))"
	bounded "$KTEST_CONFIG_TIMEOUT" "$(kernel_log config-merge)" \
		"$src"/scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$@" ||
		die "config: merge_config.sh failed (log: $(kernel_log config-merge))"
	kmake "$KTEST_CONFIG_TIMEOUT" "$(kernel_log config-olddefconfig)" -s -C "$src" O="$obj" olddefconfig ||
		die "config: make olddefconfig failed (log: $(kernel_log config-olddefconfig))"
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
	kmake "$KTEST_STEP_TIMEOUT" "$KCACHE/tools/build.log" \
		-s -C "$SRC/tools/bpf/bpftool" OUTPUT="$KCACHE/tools/bpftool/" -j"$JOBS" bootstrap ||
		die "bpftool build failed (log: $KCACHE/tools/build.log)"
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

# ---- --check-prog judged by the guests' libbpf (issue 46, item 3) ----
# Each guest's /init loads every object under /progmode with its libbpf
# (kernel/guest/common/progload.c) in the boot it has anyway, and the host
# compares what libbpf said with btf2btf --check-prog -j on the same
# kernel's vmlinux and bpf_testmod.ko (kernel/scripts/check-prog-guest.sh).
# The corpus: the objects a proof builds (its group: 6.12, the repo's
# programs against 6.12's headers and tests/check-prog/; 7.3, upstream
# 7.3's selftest programs and ours, clang-19 against 7.3's vmlinux.h), and
# the other proof's group, taken from its cache (PEER_KCACHE) when its guest
# is built; a group that is not there yet is said, and its hash is part of
# the guest's key, so the guest is rebuilt once it is.

# progmode_peer_dir PEER_KCACHE GROUP: the peer's objects of GROUP, if its
# guest is built
progmode_peer_dir() {
	local d=$1/guest/root/progmode/$2
	[ -f "$1/stamps/guest" ] && [ -f "$1/guest/initrd.gz" ] && [ -d "$d" ] && printf '%s\n' "$d"
}

# progmode_peer_key PEER_KCACHE GROUP...: a line per group, the hash of its
# objects (or "none"), for KEY_GUEST
progmode_peer_key() {
	local peer=$1 g d
	shift
	for g; do
		if d=$(progmode_peer_dir "$peer" "$g"); then
			printf '%s %s\n' "$g" "$(cd "$d" && find . -name '*.o' | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-16)"
		else
			printf '%s none\n' "$g"
		fi
	done
}

# progmode_take_peer ROOT PEER_KCACHE GROUP...: copy the peer's groups into
# ROOT/progmode
progmode_take_peer() {
	local root=$1 peer=$2 g d
	shift 2
	for g; do
		if d=$(progmode_peer_dir "$peer" "$g"); then
			rm -rf "${root:?}/progmode/$g"
			mkdir -p "$root/progmode"
			cp -a "$d" "$root/progmode/$g"
			say "progmode: $(ls "$root/progmode/$g" | wc -l) objects of group $g from $d"
		else
			say "progmode: no objects of group $g: the guest in $peer is not built" \
			    "(its proof builds them; this guest is rebuilt with them once they are)"
		fi
	done
}

# progmode_check LABEL GUEST_LOG ROOT VMLINUX MODULE: the host's half, after
# the boot: check-prog-guest.sh on the corpus the guest loaded
progmode_check() {
	local t0=$SECONDS out=$KCACHE/check-prog-guest.log rc=0
	say "progmode: btf2btf --check-prog -j on each object of $3/progmode against $4,$5 (log in $out)"
	"$TOP/kernel/scripts/check-prog-guest.sh" "$BTF2BTF" "$1" "$2" "$3/progmode" "$4" "$5" > "$out" 2>&1 || rc=$?
	grep -E '^(FAIL|INFO) ' "$out" || true
	tail -1 "$out"
	[ $rc = 0 ] || die "progmode: btf2btf --check-prog disagrees with the $1 guest's libbpf (see $out)"
	say "progmode: compared in $((SECONDS - t0)) s"
}

# progmode_kconfig ROOT: the kernel's configuration where libbpf looks for
# it (/boot/config-RELEASE), as on a distribution's system: an object with
# a __kconfig extern (upstream's cpumask_success.c) is loaded, not refused
# with "failed to open system Kconfig" before its kfuncs are looked at
progmode_kconfig() {
	local rel
	rel=$(cat "$OBJ/include/config/kernel.release") || die "no kernel.release in $OBJ"
	mkdir -p "$1/boot"
	cp "$OBJ/.config" "$1/boot/config-$rel"
}
