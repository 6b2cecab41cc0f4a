#!/bin/sh
# Run cmocka test programs; print one line per program that passed, the
# whole output of one that failed (libbpf's messages about the malformed BTF
# the tests feed it are expected there and only shown then); one total line;
# fail if any test failed. The programs run TEST_JOBS at a time (default:
# the number of CPUs; each works in a scratch directory of its own), and
# are reported in the order given. A test that skips itself (the host lacks
# what it needs: tests/helpers.h, th_skip()) prints "SKIP: REASON": the skips
# are counted by reason, per program and in the total line ("3 skipped: no
# /sys/kernel/btf/vmlinux"). With BTF2BTF_NO_SKIP set (.ci/run) a skip fails
# the test itself, and any skip counted here fails the run too.
set -u
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
i=0
for t in "$@"; do
	i=$((i + 1))
	printf '%s\n%s\n' "$i" "$t"
done | tr '\n' '\0' |
	RUN_TESTS_DIR=$tmp xargs -0 -r -n 2 -P "${TEST_JOBS:-$(nproc)}" sh -c \
		'"$2" > "$RUN_TESTS_DIR/$1.out" 2>&1; echo $? > "$RUN_TESTS_DIR/$1.rc"' run-tests

total=0 failed=0 skipped=0 bad="" i=0
: > "$tmp/reasons"
for t in "$@"; do
	i=$((i + 1))
	out=$(cat "$tmp/$i.out" 2> /dev/null)
	rc=$(cat "$tmp/$i.rc" 2> /dev/null || echo 127)
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	# cmocka 2 names the group: "[  SKIPPED ] tests: 1 test(s), listed below:"
	f=$(printf '%s\n' "$out" | sed -En 's/^\[  FAILED  \] ([^ ]+: )?([0-9]+) test.*/\2/p' | tail -1)
	s=$(printf '%s\n' "$out" | sed -En 's/^\[  SKIPPED \] ([^ ]+: )?([0-9]+) test.*/\2/p' | tail -1)
	why=$(printf '%s\n' "$out" | sed -n 's/^SKIP: //p' | sort | uniq -c |
		awk '{ n = $1; $1 = ""; printf "%s%d %s", sep, n, substr($0, 2); sep = ", " }')
	printf '%s\n' "$out" | sed -n 's/^SKIP: //p' >> "$tmp/reasons"
	total=$((total + ${p:-0} + ${f:-0} + ${s:-0}))
	skipped=$((skipped + ${s:-0}))
	failed=$((failed + ${f:-0}))
	if [ "$rc" -ne 0 ] || [ -z "${p}${f}" ] || [ -n "$f" ]; then
		bad="$bad $(basename "$t")"
		[ -z "$f" ] && failed=$((failed + 1))
		printf '%s\n' "$out"
		echo "FAILED: $(basename "$t") (exit $rc)"
	else
		echo "  $(basename "$t"): $p tests passed${s:+, $s skipped ($why)}"
	fi
done
why=$(sort "$tmp/reasons" | uniq -c | awk '{ $1 = ""; printf "%s%s", sep, substr($0, 2); sep = ", " }')
[ "$skipped" -gt 0 ] && skips=", $skipped skipped: $why" || skips=
echo "check: $total tests, $failed failed${bad:+ (in:$bad)}$skips"
if [ "$skipped" -gt 0 ] && [ -n "${BTF2BTF_NO_SKIP:-}" ]; then
	echo "check: BTF2BTF_NO_SKIP is set: the $skipped skipped tests fail the run"
	exit 1
fi
[ "$failed" -eq 0 ] && [ -z "$bad" ]
