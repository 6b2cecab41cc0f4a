#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The toolchain matrix: scripts/check-chroot.sh (the whole make check in a
# Debian chroot, warnings as errors) with trixie's gcc, forky's gcc and
# forky's clang, one after the other. Each run's output, then one line a
# run: "matrix: RUN: <its summary lines> N s". Stops at the first failure.
#
#   scripts/check-matrix.sh     (root)

set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for run in "trixie" "forky" "forky CC=clang BUILD=build/clang"; do
	t0=$(date +%s)
	# (run is split on purpose: suite, then make arguments)
	# shellcheck disable=SC2086
	"$TOP/scripts/check-chroot.sh" $run > "$log" 2>&1
	rc=$?
	cat "$log"
	if [ "$rc" != 0 ]; then
		echo "matrix: $run: failed (exit $rc)"
		exit 1
	fi
	echo "matrix: $run: $(grep -E '^(check|check-docs|adapter|differential|same-output): ' "$log" |
		tr '\n' ' ')$(( $(date +%s) - t0 )) s"
done
