#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Build resolve_btfids from the Debian linux-source-6.12 tarball into
# .cache/bench/ (only tools/, include/uapi/linux/bpf.h and scripts/bpf_doc.py
# are extracted) and print its path. On failure print the reason on stdout
# prefixed with "skip: " and exit 1. The kernel tree is never committed.
#   bench/resolve_btfids.sh CACHE_DIR
set -u
CACHE=${1:-.cache/bench}
TARBALL=${BENCH_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SRC=$CACHE/src/linux-source-6.12
RB=$SRC/tools/bpf/resolve_btfids/resolve_btfids

if [ -x "$RB" ]; then
	echo "$RB"
	exit 0
fi
if [ ! -r "$TARBALL" ]; then
	echo "skip: $TARBALL not found (apt-get install linux-source-6.12)"
	exit 1
fi
mkdir -p "$CACHE/src"
echo "bench: extracting tools/ of $TARBALL into $CACHE/src (once)" >&2
if ! tar -xJf "$TARBALL" -C "$CACHE/src" --wildcards 'linux-source-6.12/tools/*' \
	'linux-source-6.12/include/uapi/linux/bpf.h' 'linux-source-6.12/scripts/bpf_doc.py'; then
	echo "skip: cannot extract $TARBALL"
	exit 1
fi
echo "bench: building resolve_btfids (once, log in $CACHE/resolve_btfids.log)" >&2
# with its own flags, not those of the make that runs us (see
# scripts/oracle-resolve-btfids.sh)
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u CPPFLAGS -u LDFLAGS \
	make -C "$SRC/tools/bpf/resolve_btfids" -j"$(nproc)" >"$CACHE/resolve_btfids.log" 2>&1 ||
	[ ! -x "$RB" ]; then
	echo "skip: resolve_btfids build failed (needs libelf-dev, zlib1g-dev; see $CACHE/resolve_btfids.log)"
	exit 1
fi
echo "$RB"
