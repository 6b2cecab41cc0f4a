#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Fetch and unpack libbpf1 + libbpf-dev of a suite the machine's apt is not
# configured for (bookworm-backports' 1.4.6: what a Debian 12 user with
# backports runs under the packaged btf2btf, same SONAME as 1.1.2), with a
# private apt configuration under CACHE (scripts/apt-private.sh).
#
#   scripts/fetch-libbpf.sh SUITE CACHE
#
# Prints the unpacked root (CACHE/root: usr/include, usr/lib/<triplet>) on
# stdout; build against it with CPPFLAGS=-IROOT/usr/include
# LDFLAGS=-LROOT/usr/lib/<triplet> and run with LD_LIBRARY_PATH. A second run
# with the root complete costs nothing.

set -euo pipefail
die() { printf 'fetch-libbpf: error: %s\n' "$*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 SUITE CACHE"
SUITE=$1
mkdir -p "$2"
CACHE=$(cd "$2" && pwd)
ROOT=$CACHE/root
if [ -f "$ROOT/.complete" ]; then
	printf '%s\n' "$ROOT"
	exit 0
fi

. "$(dirname "$0")/apt-private.sh"
apt_private_setup "$CACHE/apt" "$SUITE" || die "private apt setup failed"
echo "fetch-libbpf: apt-get update ($SUITE, private lists in $CACHE/apt)" >&2
apt_private update >&2 || die "apt-get update of $SUITE failed"
rm -f "$CACHE"/*.deb
(cd "$CACHE" && apt_private download "libbpf1/$SUITE" "libbpf-dev/$SUITE" >&2) ||
	die "apt-get download libbpf1 libbpf-dev ($SUITE) failed"
rm -rf "$ROOT"
for deb in "$CACHE"/libbpf1_*.deb "$CACHE"/libbpf-dev_*.deb; do
	[ -f "$deb" ] || die "apt-get download left no $deb"
	dpkg-deb -x "$deb" "$ROOT"
done
ls "$ROOT"/usr/lib/*/libbpf.so >/dev/null 2>&1 || die "no libbpf.so in $ROOT"
touch "$ROOT/.complete"
printf '%s\n' "$ROOT"
