#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# What debian/ repeats from the tree must agree with the tree, so the package
# cannot drift from the library (tests/check-abi.sh ties header, version
# script and exports together; this ties debian/ to them):
#   - debian/libbtf2btf0.symbols lists exactly the version script's symbols,
#     each as NAME@NODE, plus one NODE@NODE per version node, each with the
#     minimal version of the node (LIBBTF2BTF_X.Y.Z -> X.Y.Z);
#   - its header names the SONAME and the package the Makefile's SONAME gives;
#   - the top debian/changelog entry has the version of include/btf2btf.h.
#   tests/check-debian.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
map=$top/src/lib/libbtf2btf.map symbols=$top/debian/libbtf2btf0.symbols
hdr=$top/include/btf2btf.h changelog=$top/debian/changelog
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "check-debian: $*"; fail=1; }

# version script: "NODE {" opens a node, "NAME;" under global: is a symbol,
# "}" (or "} PREV;") closes it; comments stripped first.
sed -e 's|/\*.*\*/||g' -e 's|#.*||' "$map" | awk '
	/^[[:space:]]*[A-Za-z0-9_.]+[[:space:]]*\{/ { node = $1; sub(/\{.*/, "", node); print node "@" node; scope = ""; next }
	/^[[:space:]]*\}/ { node = ""; next }
	/global:/ { scope = "global"; sub(/.*global:/, "") }
	/local:/ { scope = "local"; next }
	node != "" && scope == "global" {
		n = split($0, w, /[;[:space:]]+/)
		for (i = 1; i <= n; i++) if (w[i] != "") print w[i] "@" node
	}' | sort > "$tmp/map"
[ -s "$tmp/map" ] || bad "no version node in $map"

# symbols file: " NAME@NODE MINVER" lines under the one library header line
grep '^ ' "$symbols" | awk '{ print $1 }' | sort > "$tmp/symbols"
diff -u "$tmp/map" "$tmp/symbols" > "$tmp/diff" ||
	{ bad "$map (-) and $symbols (+) list different symbols:"; sed -n '3,$p' "$tmp/diff"; }
grep '^ ' "$symbols" | awk '{
	node = $1; sub(/.*@/, "", node); want = node; sub(/^LIBBTF2BTF_/, "", want)
	if ($2 != want) print "check-debian: " $1 ": minimal version " $2 ", its node says " want
}' | grep . && fail=1

ver=$(sed -n 's/^#define BTF2BTF_VERSION[[:space:]]*"\(.*\)"/\1/p' "$hdr")
[ -n "$ver" ] || bad "no BTF2BTF_VERSION in $hdr"
soversion=${ver%%.*}
head=$(grep -v '^[ *#|]' "$symbols" | head -1)
[ "$head" = "libbtf2btf.so.$soversion libbtf2btf$soversion #MINVER#" ] ||
	bad "$symbols: header '$head', expected 'libbtf2btf.so.$soversion libbtf2btf$soversion #MINVER#'"
grep -q "^Package: libbtf2btf$soversion\$" "$top/debian/control" ||
	bad "debian/control: no package libbtf2btf$soversion for SONAME libbtf2btf.so.$soversion"
cver=$(sed -n '1s/^btf2btf (\([^)]*\)).*/\1/p' "$changelog")
[ "$cver" = "$ver" ] || bad "$changelog: top entry is $cver, $hdr says $ver"

[ "$fail" -eq 0 ] &&
	echo "check-debian: $(grep -c '^ ' "$symbols") symbols = version script; package libbtf2btf$soversion, changelog $cver = header"
exit "$fail"
