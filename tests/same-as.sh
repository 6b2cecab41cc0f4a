#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The byte-identical guard of a refactoring: a reference btf2btf (a build of
# an earlier commit) and this tree's run on the same inputs with both
# feature sets (default, all); every written byte (the output and a
# distilled base) and every exit status must be the same. The inputs, by set:
#   differential  the differential's objects (tests/differential/inputs.sh:
#                 fixtures, random and kernel-valid random objects; seeds and
#                 counts as make differential's, DIFF_* as there)
#   debian        Debian's own kernels as scripts/fetch-debian-kernel.sh
#                 keeps them in DEBIAN_KERNELS (the newest complete version
#                 of each of bookworm, trixie, sid, trixie-backports: 6.1,
#                 6.12, 7.2, 7.3): vmlinux and every module (-B vmlinux;
#                 the modules through the library, below)
#   kernel        the kernel proofs' caches (KERNEL_CACHES): vmlinux and
#                 bpf_testmod.ko, plain and with --distill-base, and what
#                 their BTF phase was given: .tmp_vmlinux1
#   layout        the objects make check-layout encoded with the BTF layout
#                 section (LAYOUT_OBJECTS: its manifest, NAME.o, NAME.BTF.1)
# A set with no input is said so, by name; SAME_AS_STRICT=1 makes that a
# failure too (the guard before a landing that claims every set).
#
#   tests/same-as.sh REF_BTF2BTF [BTF2BTF]       (from the top of the tree)
#
# Environment: BUILD (build), DEBIAN_KERNELS (/var/cache/btf2btf/debian-kernels),
# KERNEL_CACHES (/var/cache/btf2btf/kernel-6.12 and kernel-7.3),
# LAYOUT_OBJECTS (BUILD/layout-objects), JOBS (nproc), SAME_AS_SETS (the sets
# to run, default all four), SAME_AS_WORK (where outputs go, default a new
# directory in /dev/shm or TMPDIR; removed at the end).
# Exit 0: every run the same; 1: a difference (the first ones shown) or an
# error; prints the counts per set.
set -uo pipefail

die() { printf 'same-as: error: %s\n' "$*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 REF_BTF2BTF [BTF2BTF]"
BUILD=${BUILD:-build}
REF=$(realpath "$1") || die "no $1"
NEW=$(realpath "${2:-$BUILD/btf2btf}") || die "no ${2:-$BUILD/btf2btf}"
[ -x "$REF" ] && [ -x "$NEW" ] || die "$REF and $NEW must be executables"
ROOT=$(pwd)
DEBIAN_KERNELS=${DEBIAN_KERNELS:-/var/cache/btf2btf/debian-kernels}
KERNEL_CACHES=${KERNEL_CACHES:-/var/cache/btf2btf/kernel-6.12 /var/cache/btf2btf/kernel-7.3}
LAYOUT_OBJECTS=${LAYOUT_OBJECTS:-$BUILD/layout-objects}
JOBS=${JOBS:-$(nproc)}
SETS=${SAME_AS_SETS:-differential debian kernel layout}
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
W=${SAME_AS_WORK:-$(mktemp -d "$shm/same-as.XXXXXX")} || die "no work directory"
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/res" || die "cannot write $W"
JOBLIST=$W/jobs
: > "$JOBLIST"
absent=()

# job SET LABEL ARG...: one line of the job list (no argument has a space)
job() {
	local set=$1 label=$2
	shift 2
	printf '%s\t%s\t%s\n' "$set" "$label" "$*" >> "$JOBLIST"
}

# The modules of Debian's kernels (thousands) through tests/same-as-batch.c,
# built against this tree's library and the reference's (REF_LIB, default
# the libbtf2btf.a beside REF): one process a kernel and library, the base
# read once; without REF_LIB, one btf2btf process a module and feature set.
BATCH=
REF_LIB=${SAME_AS_REF_LIB:-$(dirname "$REF")/libbtf2btf.a}
if [ -f "$REF_LIB" ] && [ -f "$BUILD/libbtf2btf.a" ]; then
	for lib in "$REF_LIB" "$BUILD/libbtf2btf.a"; do
		# shellcheck disable=SC2046 # (pkg-config's flags: words)
		${CC:-cc} -O2 -Iinclude tests/same-as-batch.c "$lib" \
			$(pkg-config --libs libbpf 2> /dev/null || echo -lbpf) -lelf -lz -ldl \
			-o "$W/batch.$([ "$lib" = "$REF_LIB" ] && echo ref || echo new)" ||
			die "cannot build tests/same-as-batch.c against $lib"
	done
	BATCH=$W/batch
fi

for set in $SETS; do
	case $set in
	differential)
		MKF=$ROOT/$BUILD/fixtures/mkfixture CANON=$ROOT/$BUILD/tests/btfcanon FX=$ROOT/$BUILD/fixtures
		[ -x "$MKF" ] && [ -x "$CANON" ] || die "no $MKF or $CANON: make all fixtures $BUILD/tests/btfcanon"
		PAHOLE=${PAHOLE:-pahole} SEED=${DIFF_SEED:-20261203} N=${DIFF_N:-300} NK=${DIFF_N_KERNEL:-150}
		D=$W/diff
		mkdir -p "$D/in"
		(W=$D CASES=$D/cases
		 . "$ROOT/tests/differential/inputs.sh") > "$D/inputs.log" 2>&1 ||
			{ cat "$D/inputs.log"; die "the differential's inputs"; }
		while read -r name kind base; do
			in=$D/in/$name
			case $kind in
			vmlinux) job differential "$name" --btf "$in.BTF.1" "$in.o" ;;
			module) job differential "$name" -B "$base" --btf "$in.BTF.1" "$in.o" ;;
			module-distill) job differential "$name" -B "$base" --distill-base --btf "$in.BTF.1" "$in.o" ;;
			esac
		done < "$D/cases"
		;;
	debian)
		for suite in bookworm trixie sid trixie-backports; do
			dir=
			for d in $(ls -td "$DEBIAN_KERNELS/$suite"/*/* 2> /dev/null); do
				[ -f "$d/.complete" ] && { dir=$d; break; }
			done
			if [ -z "$dir" ]; then
				absent+=("debian $suite (no complete kernel in $DEBIAN_KERNELS/$suite)")
				continue
			fi
			job debian "$suite:vmlinux" "$dir/vmlinux"
			find "$dir/root" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' |
				sort > "$W/modules.$suite"
			if [ -n "$BATCH" ]; then
				echo "$suite $dir/vmlinux" >> "$W/batches"
			else
				while read -r ko; do
					job debian "$suite:${ko##*/}" -B "$dir/vmlinux" "$ko"
				done < "$W/modules.$suite"
			fi
		done
		;;
	kernel)
		for k in $KERNEL_CACHES; do
			vmlinux=$k/build/vmlinux
			# the module the guest loads (built outside build/: the
			# selftests' tree on 6.12, testmod/ on 7.3)
			testmod=$k/guest/root/bpf_testmod.ko
			if [ ! -f "$vmlinux" ] || [ ! -f "$testmod" ]; then
				absent+=("kernel ${k##*/} (no $vmlinux and $testmod yet)")
				continue
			fi
			job kernel "${k##*/}:vmlinux" "$vmlinux"
			job kernel "${k##*/}:bpf_testmod" -B "$vmlinux" "$testmod"
			job kernel "${k##*/}:bpf_testmod-distilled" -B "$vmlinux" --distill-base "$testmod"
			# what the BTF phase is given, before it (the objects above are
			# its output, which both refuse or leave alone): the linked
			# .tmp_vmlinux1, with its .BTF where pahole put it there (6.12;
			# 7.3's pahole writes it to a file the build removes)
			[ ! -f "$k/build/.tmp_vmlinux1" ] ||
				job kernel "${k##*/}:.tmp_vmlinux1" "$k/build/.tmp_vmlinux1"
		done
		;;
	layout)
		if [ ! -f "$LAYOUT_OBJECTS/manifest" ]; then
			absent+=("layout (no $LAYOUT_OBJECTS/manifest: make check-layout)")
			continue
		fi
		while read -r name; do
			job layout "$name" --btf "$LAYOUT_OBJECTS/$name.BTF.1" "$LAYOUT_OBJECTS/$name.o"
		done < "$LAYOUT_OBJECTS/manifest"
		;;
	*) die "unknown set $set (differential, debian, kernel, layout)" ;;
	esac
done

# one share of the job list: per job and feature set a line
# "SET same|differs LABEL FEATURES STATUS|what" in W/res/SHARE (few
# processes a run: both btf2btf and a cmp, the statuses kept in variables)
share() {
	local j=$1 set label args feat r n what rc_r rc_n
	r=$W/out.$j.ref n=$W/out.$j.new
	awk -v j="$j" -v n="$JOBS" 'NR % n == j' "$JOBLIST" |
	while IFS=$'\t' read -r set label args; do
		for feat in default all; do
			rm -f "$r" "$r.base" "$n" "$n.base"
			# shellcheck disable=SC2086 # (args: one word each)
			"$REF" -q --features="$feat" $args -o "$r" > /dev/null 2>&1
			rc_r=$?
			# shellcheck disable=SC2086
			"$NEW" -q --features="$feat" $args -o "$n" > /dev/null 2>&1
			rc_n=$?
			what=
			if [ "$rc_r" != "$rc_n" ]; then
				what="exit $rc_n, reference $rc_r"
			elif { [ -e "$r" ] || [ -e "$n" ]; } && ! cmp -s "$r" "$n"; then
				what="other bytes written"
			elif { [ -e "$r.base" ] || [ -e "$n.base" ]; } && ! cmp -s "$r.base" "$n.base"; then
				what="other bytes in the distilled base"
			fi
			if [ -n "$what" ]; then
				echo "$set differs $label $feat $what ($args)"
			else
				echo "$set same $label $feat $rc_n"
			fi
		done
	done > "$W/res/$j"
}

t0=$(date +%s)
for ((j = 0; j < JOBS; j++)); do
	share "$j" &
done
wait
# the batches: per kernel both drivers, their lines compared one by one
if [ -f "$W/batches" ]; then
	while read -r suite vmlinux; do
		"$BATCH.ref" "$vmlinux" < "$W/modules.$suite" > "$W/batch.$suite.ref" 2>&1
		"$BATCH.new" "$vmlinux" < "$W/modules.$suite" > "$W/batch.$suite.new" 2>&1
		paste -d '\n' "$W/batch.$suite.ref" "$W/batch.$suite.new" | awk -v s="$suite" '
			NR % 2 { ref = $0; next }
			NR == 2 { if ($0 != ref) print "debian differs " s ":base the reference: " ref; next }
			{ split(ref, r, " "); n = split(r[1], p, "/")
			  if ($0 == ref) print "debian same " s ":" p[n] " " r[2] " " (ref ~ / open:0 transform:0 / ? 0 : 1)
			  else print "debian differs " s ":" p[n] " " r[2] " " $0 "; the reference: " ref }'
	done < "$W/batches" > "$W/res/batches"
fi
cat "$W"/res/* > "$W/all"

fail=0
echo "same-as: $NEW against $REF, both feature sets ($(($(date +%s) - t0)) s)"
for set in $SETS; do
	read -r runs same written failed < <(awk -v s="$set" '$1 == s {
		n++; if ($2 == "same") { k++; if ($5 == 0) w++; else f++ } }
		END { printf "%d %d %d %d\n", n, k, w, f }' "$W/all")
	[ "$runs" -gt 0 ] || continue
	echo "  $set: $((runs / 2)) inputs, $runs runs: $same the same ($written written, $failed refused by both with the same status), $((runs - same)) differ"
	[ "$same" -eq "$runs" ] || fail=1
done
for a in "${absent[@]}"; do
	echo "  not compared: $a"
	[ "${SAME_AS_STRICT:-0}" = 1 ] && fail=1
done
if grep -q '^[a-z]* differs ' "$W/all"; then
	echo "same-as: the first differences:"
	grep '^[a-z]* differs ' "$W/all" | head -10 | sed 's/^/  /'
fi
total=$(wc -l < "$W/all")
[ "$total" -gt 0 ] || { echo "same-as: FAILED: no input at all"; exit 1; }
[ "$fail" -eq 0 ] || { echo "same-as: FAILED"; exit 1; }
echo "same-as: ok: $total runs, the same bytes and exit statuses"
