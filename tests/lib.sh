# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What the shell suites share: the tools they need (a missing one fails the
# suite, never skips it: CI runs them all), a scratch directory T removed
# on exit, their PASS/FAIL lines and counters, and the summary. A suite
# names itself and sources it:
#
#   SUITE=check-prog; . "$(dirname "$0")/lib.sh"
#   needs clang jq
#   expect "what is checked" "$want" "$got"
#   summary

pass=0 fail=0
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

# needs TOOL...: each on PATH, or the suite fails naming it
needs() {
	local t
	for t; do
		command -v "$t" > /dev/null || { echo "$SUITE: $t not found" >&2; exit 1; }
	done
}
ok() { echo "PASS $SUITE: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $SUITE: $1"; fail=$((fail + 1)); }
# expect NAME WANT GOT
expect() { if [ "$2" = "$3" ]; then ok "$1"; else ko "$1: want '$2', got '$3'"; fi; }
# check NAME CMD...: passes when CMD succeeds
check() { local name=$1; shift; if "$@"; then ok "$name"; else ko "$name"; fi; }
# summary [NOTE]: the count line; the suite fails when a check failed or none ran
summary() {
	echo "$SUITE: $pass passed, $fail failed${1:+ $1}"
	[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
}
