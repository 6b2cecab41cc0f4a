#!/bin/sh
# Run cmocka test programs; print one line per program that passed, the
# whole output of one that failed (libbpf's messages about the malformed BTF
# the tests feed it are expected there and only shown then); one total line;
# fail if any test failed.
set -u
total=0 failed=0 bad=""
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	total=$((total + ${p:-0} + ${f:-0}))
	failed=$((failed + ${f:-0}))
	if [ "$rc" -ne 0 ] || [ -z "${p}${f}" ] || [ -n "$f" ]; then
		bad="$bad $(basename "$t")"
		[ -z "$f" ] && failed=$((failed + 1))
		printf '%s\n' "$out"
		echo "FAILED: $(basename "$t") (exit $rc)"
	else
		echo "  $(basename "$t"): $p tests passed"
	fi
done
echo "check: $total tests, $failed failed${bad:+ (in:$bad)}"
[ "$failed" -eq 0 ] && [ -z "$bad" ]
