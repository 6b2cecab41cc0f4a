#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# tests/check-docs.sh on documents made here: an example whose command fails
# (a pipe's first command included) without saying so fails the check, one
# that shows its status passes, and a fence with a language (```sh) does not
# hide the blocks after it.
#
#   tests/check-docs-self.sh BUILD_DIR
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:?usage: $0 BUILD_DIR}")
SUITE=check-docs-self; . "$top/tests/lib.sh"
work=$T
doc() {	# FILE COMMAND OUTPUT...: a README with a ```sh block, then the example
	local f=$1 cmd=$2
	shift 2
	{ printf '```sh\nmake\n```\n\n```\n$ %s\n' "$cmd"; printf '%s\n' "$@"; printf '```\n'; } > "$work/$f"
}
docs() { (cd "$top" && ./tests/check-docs.sh "$build" "$work/$1") > "$work/out" 2>&1; }

doc unsaid.md 'btf2btf nothing.o 2>&1 | tail -1' \
	'btf2btf: error: nothing.o: cannot open: No such file or directory'
docs unsaid.md; rc=$?
check "a failing example that does not say so fails ($(grep -c 'unsaid' "$work/out") line)" \
	eval '[ $rc != 0 ] && grep -q "exit 1, unsaid" "$work/out"'
doc said.md 'btf2btf nothing.o 2>&1 | tail -1; echo "exit ${PIPESTATUS[0]}"' \
	'btf2btf: error: nothing.o: cannot open: No such file or directory' 'exit 1'
docs said.md; rc=$?
check "the same example showing its status passes" eval '[ $rc = 0 ]'
doc wrong.md 'btf2btf nothing.o 2>&1 | tail -1; echo "exit ${PIPESTATUS[0]}"' \
	'btf2btf: error: nothing.o: cannot open: No such file or directory' 'exit 0'
docs wrong.md; rc=$?
check "a wrong status shown fails (after a \`\`\`sh block)" eval '[ $rc != 0 ]'
summary
