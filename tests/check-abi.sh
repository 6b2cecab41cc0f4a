#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The library's ABI in one view: the functions include/btf2btf.h declares
# BTF2BTF_API, the version script's global symbols and what the shared
# library exports must be the same set; the version is written once (the
# header) and the man page and the library agree with it.
#   tests/check-abi.sh SHARED_LIB
set -u
lib=$1
top=$(cd "$(dirname "$0")/.." && pwd)
hdr=$top/include/btf2btf.h map=$top/src/lib/libbtf2btf.map man=$top/btf2btf.1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "check-abi: $*"; fail=1; }

# every declaration that starts with BTF2BTF_API names one function
awk '/^BTF2BTF_API/ { decl = 1 } decl { buf = buf $0 } decl && /;/ { print buf; buf = ""; decl = 0 }' "$hdr" |
	grep -o 'btf2btf__[a-z0-9_]*(' | tr -d '(' | sort -u > "$tmp/header"
sed -n 's/^[[:space:]]*\(btf2btf__[a-z0-9_]*\);.*/\1/p' "$map" | sort -u > "$tmp/map"
nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/so"

diff -u "$tmp/header" "$tmp/map" > "$tmp/d1" || { bad "header and $map differ:"; cat "$tmp/d1"; }
diff -u "$tmp/map" "$tmp/so" > "$tmp/d2" || { bad "$map and the exports of $lib differ:"; cat "$tmp/d2"; }
[ -s "$tmp/so" ] || bad "$lib exports no btf2btf__ function"
# every export carries the version node
nm -D --defined-only --with-symbol-versions "$lib" 2>/dev/null | awk '$2 == "T"' |
	grep -v '@@LIBBTF2BTF_' | sed 's/^/check-abi: unversioned export: /' | grep . && fail=1

ver=$(sed -n 's/^#define BTF2BTF_VERSION[[:space:]]*"\(.*\)"/\1/p' "$hdr")
[ -n "$ver" ] || bad "no BTF2BTF_VERSION in $hdr"
head -1 "$man" | grep -q "\"btf2btf $ver\"" || bad "$man: .TH does not say btf2btf $ver"
case $(basename "$lib") in libbtf2btf.so."$ver") ;; *) bad "$lib is not libbtf2btf.so.$ver" ;; esac
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libbtf2btf.so.${ver%%.*}" ] || bad "SONAME $soname, expected libbtf2btf.so.${ver%%.*}"

n=$(wc -l < "$tmp/so")
[ "$fail" -eq 0 ] && echo "check-abi: $n exported functions, header = version script = exports; version $ver, SONAME $soname"
exit "$fail"
