#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The kernel proofs' harness, without building a kernel: the make variables
# that change a kernel build refused before anything is written (make
# kernel-test KERNEL=7.3 ARCH=s390 once wrote 59 GB of kconfig prompts), the
# step runner (kernel/scripts/bounded-run) stopping runaway and hung steps
# in time with their logs capped, and the proofs' check that a kernel build
# log holds no btf2btf warning.
#
#   tests/test-kernel-harness.sh

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
RUN=$TOP/kernel/scripts/bounded-run
SUITE=harness; . "$TOP/tests/lib.sh"
# the make that runs this test hands its flags down: the cases run as a user's
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL ARCH CROSS_COMPILE CC LLVM O KBUILD_OUTPUT

# bytes DIR: the bytes of the files under DIR
bytes() { find "$1" -type f -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }'; }

# refused NAME WANT COMMAND...: COMMAND fails within 30 s saying WANT, with
# nothing in $T/cache (KERNEL_CACHE_ROOT, KCACHE) and at most the top
# Makefile's flags stamp (a line) in $T/build (BUILD)
refused() {
	local name=$1 want=$2 t0=$SECONDS rc=0 disk
	shift 2
	rm -rf "$T/cache" "$T/build"
	mkdir -p "$T/cache" "$T/build"
	(cd "$TOP" && timeout 60 "$@") > "$T/out" 2>&1 < /dev/null || rc=$?
	disk="$(bytes "$T/cache") bytes in the cache, $(bytes "$T/build") in the build directory"
	if [ $rc != 0 ] && [ $rc != 124 ] && grep -qF -- "$want" "$T/out" && [ $((SECONDS - t0)) -le 30 ] &&
	   [ "$(bytes "$T/cache")" = 0 ] && [ "$(bytes "$T/build")" -le 4096 ]; then
		ok "$name: exit $rc in $((SECONDS - t0)) s, $disk: $(grep -F -- "$want" "$T/out" | head -1)"
	else
		ko "$name: exit $rc in $((SECONDS - t0)) s, $disk; output:"
		sed 's/^/    /' "$T/out"
	fi
}

test_refusals() {
	local mk=(make --no-print-directory KERNEL_CACHE_ROOT="$T/cache" BUILD="$T/build")
	refused "make kernel-test KERNEL=7.3 ARCH=s390" 'the s390x proof is `make kernel-test-s390`' \
		"${mk[@]}" kernel-test KERNEL=7.3 ARCH=s390
	refused "ARCH=s390 in the environment of make kernel-test" 'ARCH=s390: refused' \
		env ARCH=s390 "${mk[@]}" kernel-test
	refused "make kernel-build CROSS_COMPILE=s390x-linux-gnu-" 'no cache key of the proofs holds them' \
		"${mk[@]}" kernel-build CROSS_COMPILE=s390x-linux-gnu-
	refused "make kernel-test CC=clang LLVM=1" 'CC=clang LLVM=1: refused' \
		"${mk[@]}" kernel-test CC=clang LLVM=1
	refused "make kernel-test-s390 O=elsewhere" 'O=elsewhere: refused' \
		"${mk[@]}" kernel-test-s390 O=elsewhere
	# the scripts run by hand refuse them too, before making their cache
	refused "ARCH=s390 kernel/scripts/ktest-7.3.sh failstop" 'the s390x proof is `make kernel-test-s390`' \
		env ARCH=s390 KCACHE="$T/cache/kernel-7.3" kernel/scripts/ktest-7.3.sh failstop
	refused "CROSS_COMPILE=x- kernel/scripts/ktest-s390.sh" 'CROSS_COMPILE=x-: refused' \
		env CROSS_COMPILE=x- KCACHE="$T/cache/kernel-7.3-s390" kernel/scripts/ktest-s390.sh
	refused "KBUILD_OUTPUT=/tmp kernel/scripts/ktest.sh" 'KBUILD_OUTPUT=/tmp: refused' \
		env KBUILD_OUTPUT=/tmp KCACHE="$T/cache/kernel-6.12" kernel/scripts/ktest.sh
	# and a variable that changes no build passes the check (the goal then
	# needs a kernel: -n prints the proof's command, runs nothing)
	check "make -n kernel-test KERNEL=7.3 KERNEL_STEP=failstop is not refused" \
		bash -c "cd '$TOP' && make -n --no-print-directory KERNEL_CACHE_ROOT='$T/cache' kernel-test \
			KERNEL=7.3 KERNEL_STEP=failstop 2>&1 | grep -q 'ktest-7.3.sh failstop'"
}

# ran NAME WANT_RC MAX_S COMMAND...: bounded-run ... exits WANT_RC within
# MAX_S seconds; its stderr in $T/err, the log $T/step.log
ran() {
	local name=$1 want=$2 max=$3 t0=$SECONDS rc=0
	shift 3
	"$@" 2> "$T/err" || rc=$?
	RAN_S=$((SECONDS - t0))
	if [ $rc = "$want" ] && [ $RAN_S -le "$max" ]; then
		return 0
	fi
	ko "$name: exit $rc (expected $want) after $RAN_S s (at most $max); stderr:"
	sed 's/^/    /' "$T/err"
	return 1
}

test_runner() {
	local size
	# kconfig's prompt loop as it met /dev/null: printing forever, stopped
	# at the cap (1 MiB here) within seconds, the log no bigger
	if ran "a step printing forever" 125 10 "$RUN" -t 60 -m 1048576 -l prompt "$T/step.log" \
		sh -c 'while :; do printf "Processor type choice[1-0?]: "; read -r x; done'; then
		size=$(stat -c %s "$T/step.log")
		check "a step printing forever: stopped after $RAN_S s, log $size bytes (cap 1048576)" \
			test "$size" -le $((1048576 + 200))
		check "a step printing forever: the stop, its last lines and the log's path on stderr" \
			grep -qF "prompt stopped: its log reached the cap of 1048576 bytes" "$T/err"
		check "a step printing forever: its last line quoted" grep -q 'choice\[1-0?\]: ' "$T/err"
		check "a step printing forever: the log's path" grep -qF "the whole log: $T/step.log" "$T/err"
		check "a step printing forever: the log says why it ends" \
			grep -qF 'bounded-run: prompt stopped: its log reached the cap' "$T/step.log"
	fi
	# a step that reads its stdin, run from a pipe no one writes to or
	# closes (a terminal no one answers): it reads /dev/null, ends at once
	local silent
	exec 3< <(exec sleep 60)
	silent=$!
	if ran "a step reading its stdin" 0 5 "$RUN" -t 30 "$T/step.log" \
		sh -c 'echo reading; cat; echo "end of input"' <&3; then
		check "a step reading its stdin: EOF at once (${RAN_S} s)" grep -qx 'end of input' "$T/step.log"
	fi
	exec 3<&-
	kill "$silent"
	# a hung step: stopped at its time limit with what it printed
	if ran "a hung step" 124 6 "$RUN" -t 2 -l hung "$T/step.log" sh -c 'echo "started"; sleep 600'; then
		check "a hung step: stopped after $RAN_S s (limit 2 s)" \
			grep -qF 'hung stopped after 2 s: the time limit of this step' "$T/err"
		check "a hung step: its last line quoted" grep -qx '    started' "$T/err"
	fi
	# SIGTERM ignored, a child left running: SIGKILL for the whole group
	if ran "a step ignoring SIGTERM" 124 8 "$RUN" -t 2 -k 2 "$T/step.log" \
		sh -c "trap '' TERM; sleep 600 & echo \$! > '$T/child'; wait"; then
		# (gone, or a zombie where PID 1 reaps no orphan, as in a container)
		check "a step ignoring SIGTERM: its child killed too ($RAN_S s)" \
			bash -c "! grep -qv '^[0-9]* ([^)]*) Z ' /proc/$(cat "$T/child")/stat 2> /dev/null"
	fi
	# a failing step: its own status, its last lines; -q leaves the report
	# to the caller
	if ran "a failing step" 3 5 "$RUN" -l failing "$T/step.log" sh -c 'echo "error: boom"; exit 3'; then
		check "a failing step: its status and last line on stderr" \
			grep -qF 'failing exited with status 3' "$T/err"
		check "a failing step: its last line quoted" grep -qx '    error: boom' "$T/err"
	fi
	if ran "a failing step, -q" 3 5 "$RUN" -q "$T/step.log" sh -c 'echo "error: boom"; exit 3'; then
		check "a failing step, -q: nothing on stderr" test ! -s "$T/err"
	fi
	ran "a step that passes" 0 5 "$RUN" "$T/step.log" true && ok "a step that passes: exit 0"
	# the log is a file the proof makes: a symbolic link there is refused
	ln -s "$T/elsewhere" "$T/link.log"
	if ran "a log that is a symbolic link" 126 5 "$RUN" "$T/link.log" true; then
		check "a log that is a symbolic link: refused, nothing written through it" \
			test ! -e "$T/elsewhere"
	fi
}

# the proofs' check of the kernel's build logs (kernel/scripts/lib.sh)
test_quiet_build() {
	local lib=$TOP/kernel/scripts/lib.sh
	printf '  BTF     .tmp_vmlinux1\n  LD      vmlinux\n' > "$T/clean.log"
	{ cat "$T/clean.log"
	  echo "btf2btf: warning: kfunc bpf_list_push_front: the implicit argument is parameter 3 of 4"
	  echo "btf2btf: warning: kfunc bpf_rbtree_add: the implicit argument is parameter 3 of 4"; } > "$T/warn.log"
	check "btf2btf_quiet: a clean build log passes" \
		bash -c ". '$lib' && btf2btf_quiet '$T/clean.log' > /dev/null"
	bash -c ". '$lib' && btf2btf_quiet '$T/clean.log' '$T/warn.log'" > /dev/null 2> "$T/err"
	check "btf2btf_quiet: warnings in a build log fail the proof" test $? != 0
	check "btf2btf_quiet: the warnings quoted" grep -qF 'kfunc bpf_rbtree_add: the implicit argument' "$T/err"
	check "btf2btf_quiet: the logs named" grep -qF "logs: $T/clean.log $T/warn.log" "$T/err"
}

test_refusals
test_runner
test_quiet_build

summary
