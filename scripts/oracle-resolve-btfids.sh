#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Upstream's resolve_btfids as the test oracle: fetch Debian's
# linux-source-7.3 (scripts/fetch-linux-source.sh, private apt setup), build
# its tools/bpf/resolve_btfids (with the tree's own libbpf and libsubcmd)
# into CACHE/oracle/<key>/ and print the binary's path on stdout. <key> is a
# hash of the sources the binary is built from (resolve_btfids, tools/lib/bpf,
# tools/lib/subcmd), so a changed tree builds anew and a second run costs
# nothing.
#
#   scripts/oracle-resolve-btfids.sh CACHE
#
# Example: scripts/oracle-resolve-btfids.sh .cache

set -euo pipefail

die() { printf 'oracle: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'oracle: %s\n' "$*" >&2; }

[ $# -eq 1 ] || die "usage: $0 CACHE"
mkdir -p "$1"
CACHE=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
VERSION=7.3 SUITE=trixie-backports
SRC_CACHE=$CACHE/linux-$VERSION
TREE=$SRC_CACHE/src/linux-source-$VERSION

if ! [ -f "$TREE/Makefile" ] || ! [ -f "$SRC_CACHE/src/.complete" ]; then
	TREE=$("$HERE/fetch-linux-source.sh" "$VERSION" "$SUITE" "$SRC_CACHE")
fi

# the key: every source file the binary is built from, by content
key=$(cd "$TREE/tools" &&
      find bpf/resolve_btfids lib/bpf lib/subcmd lib/rbtree.c lib/string.c lib/ctype.c \
	   lib/str_error_r.c lib/zalloc.c build scripts include \
	   -type f \( -name '*.[ch]' -o -name Makefile -o -name '*.include' -o -name Build \
		      -o -name '*.mak' -o -name '*.arch' \) -print0 2>/dev/null |
      sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
OUT=$CACHE/oracle/$key
mkdir -p "$CACHE/oracle"
BIN=$OUT/resolve_btfids
# built already: no lock needed (nor possible, where the cache is mounted
# read-only, as scripts/check-chroot.sh mounts it)
if [ -x "$BIN" ] && [ -f "$OUT/.complete" ]; then
	printf '%s\n' "$BIN"
	exit 0
fi
# one build of a key at a time (see fetch-linux-source.sh)
exec 9> "$CACHE/oracle/.build.lock"
flock 9
if [ -x "$BIN" ] && [ -f "$OUT/.complete" ]; then
	printf '%s\n' "$BIN"
	exit 0
fi

say "building $TREE/tools/bpf/resolve_btfids into $OUT (log: $OUT.log)"
rm -rf "$OUT"
mkdir -p "$OUT"
# upstream's build with upstream's flags: not those of the make that runs
# us (make SANITIZE=1 CFLAGS=-O1 check passes CFLAGS down through
# MAKEFLAGS, where it overrides the tools' own CFLAGS, include paths and all)
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u CPPFLAGS -u LDFLAGS \
	make -C "$TREE/tools/bpf/resolve_btfids" OUTPUT="$OUT/" -j2 >"$OUT.log" 2>&1 || ! [ -x "$BIN" ]; then
	tail -20 "$OUT.log" >&2
	die "resolve_btfids build failed (needs gcc, make, libelf-dev, zlib1g-dev; see $OUT.log)"
fi
touch "$OUT/.complete"
printf '%s\n' "$BIN"
