# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sourced by the tests in debian/tests: they run from the top of the source
# tree against the installed packages (autopkgtest, or .ci/run after
# `apt-get install ./*.deb`).
set -eu
top=$(pwd)
tmp=${AUTOPKGTEST_TMP:-$(mktemp -d)}
say() { printf '%s: %s\n' "$(basename "$0")" "$*"; }
die() { say "FAIL: $*" >&2; exit 1; }

# A kernel-like object: gcc, then pahole -J adds .BTF as the kernel build
# has it do; 8 kfuncs in a BTF_SET8_KFUNCS set8, 5 of them KF_IMPLICIT_ARGS.
make_object() {
	gcc -g -O1 -I"$top/fixtures/include" -c "$top/fixtures/src/kfuncs.c" -o "$1"
	LLVM_OBJCOPY=objcopy pahole -J "$1"
}
