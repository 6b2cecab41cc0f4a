#!/bin/sh
# tests/run-tests.sh on two stand-in test programs: a passing one that
# prints libbpf's expected noise (not shown), a failing one (shown whole).
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-run-tests: $*"; exit 1; }

cat > "$work/test_pass" <<'T'
#!/bin/sh
echo '[==========] Running 2 test(s).'
echo 'libbpf: BTF type [4] is malformed' >&2
echo '[  PASSED  ] 2 test(s).'
T
cat > "$work/test_fail" <<'T'
#!/bin/sh
echo '[ RUN      ] test_broken'
echo '[   LINE   ] --- tests/test_x.c:12: error: Failure!'
echo '[  PASSED  ] 1 test(s).'
echo '[  FAILED  ] 1 test(s), listed below:'
echo '[  FAILED  ] test_broken'
exit 1
T
cat > "$work/test_slow" <<'T'
#!/bin/sh
sleep 1
echo '[  PASSED  ] 3 test(s).'
T
cat > "$work/test_killed" <<'T'
#!/bin/sh
echo '[ RUN      ] test_crash'
kill -SEGV $$
T
cat > "$work/test_skip" <<'T'
#!/bin/sh
echo '[ RUN      ] test_needs_sys'
echo 'SKIP: no /sys/kernel/btf/vmlinux'
echo '[  SKIPPED ] test_needs_sys'
echo '[==========] 3 test(s) run.'
echo '[  PASSED  ] 2 test(s).'
echo '[  SKIPPED ] 1 test(s), listed below:'
echo '[  SKIPPED ] test_needs_sys'
T
chmod +x "$work/test_pass" "$work/test_fail" "$work/test_slow" "$work/test_killed" "$work/test_skip"

out=$("$here/run-tests.sh" "$work/test_pass") || fail "a passing program failed the run: $out"
[ "$out" = "$(printf '  test_pass: 2 tests passed\ncheck: 2 tests, 0 failed')" ] ||
	fail "a passing program should give one line, no libbpf noise; got: $out"
out=$("$here/run-tests.sh" "$work/test_pass" "$work/test_fail") && fail "a failing program passed the run"
printf '%s\n' "$out" | grep -q 'tests/test_x.c:12: error: Failure!' || fail "the failure is not shown: $out"
printf '%s\n' "$out" | grep -q '^check: 4 tests, 1 failed (in: test_fail)$' || fail "wrong total: $out"
printf '%s\n' "$out" | grep -q 'libbpf:' && fail "libbpf noise of a passing program shown: $out"
# side by side, reported in the order given: the slow one first
out=$(TEST_JOBS=2 "$here/run-tests.sh" "$work/test_slow" "$work/test_pass") ||
	fail "two passing programs side by side failed the run: $out"
[ "$out" = "$(printf '  test_slow: 3 tests passed\n  test_pass: 2 tests passed\ncheck: 5 tests, 0 failed')" ] ||
	fail "programs run side by side are not reported in the order given; got: $out"
out=$("$here/run-tests.sh" "$work/test_killed" "$work/test_pass") && fail "a program killed by a signal passed the run"
printf '%s\n' "$out" | grep -q '^FAILED: test_killed (exit 139)$' || fail "the killed program is not named with its status: $out"
# a skip: counted, named by its reason; with BTF2BTF_NO_SKIP a failure
out=$(BTF2BTF_NO_SKIP= "$here/run-tests.sh" "$work/test_skip" "$work/test_pass") ||
	fail "a skipped test failed the run: $out"
printf '%s\n' "$out" | grep -q '^  test_skip: 2 tests passed, 1 skipped (1 no /sys/kernel/btf/vmlinux)$' ||
	fail "the program's skip is not counted with its reason: $out"
printf '%s\n' "$out" | grep -q '^check: 5 tests, 0 failed, 1 skipped: no /sys/kernel/btf/vmlinux$' ||
	fail "the total line does not count and name the skip: $out"
# cmocka 2 (trixie's 1.1.7 does not) names the group in the totals
sed -i 's/^echo .\[  SKIPPED \] 1 test(s), listed below:.$/echo "[  SKIPPED ] tests: 1 test(s), listed below:"/' "$work/test_skip"
grep -q 'tests: 1 test' "$work/test_skip" || fail "the cmocka 2 stand-in was not made"
out=$(BTF2BTF_NO_SKIP= "$here/run-tests.sh" "$work/test_skip") ||
	fail "a skipped test (cmocka 2's totals) failed the run: $out"
printf '%s\n' "$out" | grep -q '^check: 3 tests, 0 failed, 1 skipped: no /sys/kernel/btf/vmlinux$' ||
	fail "cmocka 2's skip total is not counted: $out"
out=$(BTF2BTF_NO_SKIP=1 "$here/run-tests.sh" "$work/test_skip") &&
	fail "a skip passed the run with BTF2BTF_NO_SKIP set: $out"
echo "check-run-tests: ok"
