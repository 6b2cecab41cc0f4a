#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The library calls libbpf through its public API only: every libbpf symbol
# an object of it references (libbpf_compat.o, which holds the version
# differences, excepted) must be declared by the installed libbpf's headers
# outside libbpf_legacy.h ("shouldn't be used going forward").
#   CC=... CPPFLAGS=... tests/check-libbpf-api.sh OBJ...
set -u
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0

# declarations by file: "FILE NAME" for every NAME( in the headers
printf '#include <bpf/btf.h>\n#include <bpf/libbpf.h>\n#include <bpf/bpf.h>\n' |
	${CC:-cc} ${CPPFLAGS:-} -E -x c - > "$tmp/pp" || { echo "check-libbpf-api: cannot preprocess libbpf's headers"; exit 1; }
awk '/^# [0-9]+ "/ { file = $3; gsub(/"/, "", file); next }
     { while (match($0, /[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(/)) {
		name = substr($0, RSTART, RLENGTH); sub(/[[:space:](]+$/, "", name)
		print file, name; $0 = substr($0, RSTART + RLENGTH) } }' "$tmp/pp" | sort -u > "$tmp/decl"
grep -v 'libbpf_legacy\.h ' "$tmp/decl" | awk '{ print $2 }' | sort -u > "$tmp/public"

n=0
for o in "$@"; do
	case $(basename "$o") in libbpf_compat.o) continue ;; esac
	for s in $(nm -u "$o" | awk '{ print $2 }' | grep -E '^(btf|btf_ext|bpf|libbpf)_'); do
		n=$((n + 1))
		grep -qx "$s" "$tmp/public" ||
			{ echo "check-libbpf-api: $o uses $s, which libbpf's headers do not declare (or only as legacy)"; fail=1; }
	done
done
[ "$fail" -eq 0 ] && echo "check-libbpf-api: $n libbpf references outside libbpf_compat.o, all declared public API"

# and no kind, vlen or kind_flag read through <bpf/btf.h>'s inline helpers
# or <linux/btf.h>'s BTF_INFO_*(): theirs follow the header the build
# machine has (5-bit kinds and 16-bit vlen before Linux 7.1's UAPI), the
# library's own (util/btf_info.h) what the bytes say
src=$(dirname "$0")/../src/lib
used=$(grep -rnE '\<(btf_(kind|vlen|kflag|is_[a-z0-9_]+)[[:space:]]*\(|BTF_INFO_(KIND|VLEN|KFLAG)\>)' \
	--include='*.[ch]' "$src")
if [ -n "$used" ]; then
	echo "check-libbpf-api: the library reads a type's info word through a header's helper, not util/btf_info.h:"
	echo "$used"
	fail=1
else
	echo "check-libbpf-api: kind, vlen and kind_flag read through util/btf_info.h only ($(grep -rhoE '\<b2b_(kind|vlen|kflag|is_[a-z0-9_]+)\(' --include='*.[ch]' "$src" | wc -l) uses)"
fi
exit "$fail"
