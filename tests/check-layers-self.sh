#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tests/check-layers.sh on copies of src/lib: the tree as it is passes; an
# upward include planted (input reaching into passes), a header included by
# its bare name and a source outside the stage folders each fail it, with a
# message naming the file.
#   tests/check-layers-self.sh STAGE...
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { name=$1; shift; if "$@"; then echo "PASS check-layers: $name"; pass=$((pass + 1)); else echo "FAIL check-layers: $name"; fail=$((fail + 1)); fi; }
copy() { rm -rf "$work/lib" && cp -r "$top/src/lib" "$work/lib"; }
layers() { "$top/tests/check-layers.sh" "$work/lib" "$@" > "$work/out" 2>&1; }

copy
layers "$@"; rc=$?
check "the tree as it is passes" [ "$rc" = 0 ]

copy
sed -i '0,/^#include "/s//#include "passes\/btf_post.h"\n&/' "$work/lib/input/kfuncs.c"
layers "$@"; rc=$?
check "an upward include (input/kfuncs.c of passes/btf_post.h) fails, named" \
	sh -c "[ $rc = 1 ] && grep -q 'src/lib/input/kfuncs.c:[0-9]*.*passes/btf_post.h.*reaches up into passes' '$work/out'"

copy
sed -i 's|#include "format/btf_format.h"|#include "btf_format.h"|' "$work/lib/plan/plan.c"
layers "$@"; rc=$?
check "a header by its bare name (plan/plan.c) fails, named" \
	sh -c "[ $rc = 1 ] && grep -q 'src/lib/plan/plan.c:[0-9]*.*\"btf_format.h\" by its bare name' '$work/out'"

copy
cp "$work/lib/api/write.c" "$work/lib/write.c"
layers "$@"; rc=$?
check "a source in no stage folder fails, named" \
	sh -c "[ $rc = 1 ] && grep -q 'write.c is in no stage folder' '$work/out'"

echo "check-layers-self: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
