#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Check the differential itself before trusting its verdict:
#  1. classify.awk on canned diffs: the documented difference is recognised,
#     anything else is not;
#  2. run.sh with upstream behind btf2btf's command line
#     (upstream-as-btf2btf.sh) on DIFF_SELFTEST_N random objects and 2 x 5
#     kernel-valid ones: every one must come out the same and byte-identical
#     (no false differences, and the byte count works).
#   tests/differential/selftest.sh BUILD_DIR RESOLVE_BTFIDS
set -uo pipefail
BUILD=$1 RB=$2
D=$(dirname "$0")
fail() { echo "differential self-check: FAILED: $*"; exit 1; }

dangling="< decl_tag 'param_tag' comp=2 on func 'bpf_x' linkage=1 proto(int 'int' 'p0') -> int 'int' DANGLING"
moved="> decl_tag 'param_tag' comp=2 on func 'bpf_x_impl' linkage=1 proto(int 'int' 'p0', ptr -> struct 'bpf_prog_aux' 'aux', int 'int' 'p2') -> int 'int'"
other="> decl_tag 'param_tag' comp=1 on func 'bpf_y_impl' linkage=1 proto() -> int 'int'"
check() {	# EXPECTED LINES...
	local want=$1 got
	shift
	got=$(printf '%s\n' "$@" | awk -f "$D/classify.awk")
	[ "$got" = "$want" ] || fail "classify.awk: expected '$want', got '$got' for: $*"
}
check "0 1" "$dangling"
check "0 1" "$dangling" "$moved"
check "1 0" "$moved"
check "1 1" "$dangling" "$other"
check "1 1" "$dangling" "> func 'bpf_x' linkage=1 proto() -> void"

out=$(ORACLE=$RB DIFF_BTF2BTF="$D/upstream-as-btf2btf.sh" DIFF_N=${DIFF_SELFTEST_N:-40} DIFF_N_KERNEL=5 \
      DIFF_WORK=$PWD/$BUILD/differential-selftest "$D/run.sh" "$BUILD" "$RB" 2>&1) ||
	fail "upstream against itself: $(printf '%s\n' "$out" | tail -5)"
total=$(printf '%s\n' "$out" | sed -n 's/^differential: \([0-9]*\) objects.*/\1/p')
same=$(printf '%s\n' "$out" | sed -n 's/^  same: *\([0-9]*\) (\([0-9]*\) byte-identical)/\1 \2/p')
refused=$(printf '%s\n' "$out" | sed -n 's/^  both refused: *\([0-9]*\)/\1/p')
[ -n "$total" ] && [ "$same" = "$((total - refused)) $((total - refused))" ] ||
	fail "upstream against itself: $total objects, same/byte-identical $same, refused $refused"
echo "differential self-check: ok (classify.awk: 5 cases; upstream against itself: $total objects, $((total - refused)) same and byte-identical, $refused refused by both)"
