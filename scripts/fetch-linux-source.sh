#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Fetch and unpack Debian's linux-source-VERSION from a suite the machine's
# apt is not configured for (7.3 lives in trixie-backports), without touching
# the machine's apt configuration: a private sources list, lists directory and
# package cache under CACHE (scripts/apt-private.sh).
#
#   scripts/fetch-linux-source.sh VERSION SUITE CACHE
#
# On success prints the path of the unpacked tree (CACHE/src/linux-source-VERSION)
# on stdout; progress goes to stderr. Every step is skipped when its result is
# already in CACHE, so a second run costs nothing. Example:
#
#   scripts/fetch-linux-source.sh 7.3 trixie-backports .cache/linux-7.3

set -euo pipefail

die() { printf 'fetch-linux-source: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'fetch-linux-source: %s\n' "$*" >&2; }

[ $# -eq 3 ] || die "usage: $0 VERSION SUITE CACHE"
VERSION=$1 SUITE=$2
mkdir -p "$3"
CACHE=$(cd "$3" && pwd)
PKG=linux-source-$VERSION
TREE=$CACHE/src/$PKG
# fetched already: no lock needed (nor possible, where the cache is mounted
# read-only, as scripts/check-chroot.sh mounts it)
if [ -f "$TREE/Makefile" ] && [ -f "$CACHE/src/.complete" ]; then
	printf '%s\n' "$TREE"
	exit 0
fi
# one fetch at a time per cache: two make checks started together (a CI run
# and a developer's, or two worktrees sharing .cache) would otherwise unpack
# over each other; the second waits, then finds the tree complete
exec 8> "$CACHE/.fetch.lock"
flock 8

if [ -f "$TREE/Makefile" ] && [ -f "$CACHE/src/.complete" ]; then
	printf '%s\n' "$TREE"
	exit 0
fi

. "$(dirname "$0")/apt-private.sh"
apt_private_setup "$CACHE/apt" "$SUITE" || die "private apt setup failed"
APT=$CACHE/apt

deb=$(ls "$CACHE"/${PKG}_*.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	say "apt-get update ($SUITE, private lists in $APT)"
	apt_private update >&2 || die "apt-get update of $SUITE failed"
	say "apt-get download $PKG"
	(cd "$CACHE" && apt_private download "$PKG" >&2) || die "apt-get download $PKG failed"
	deb=$(ls "$CACHE"/${PKG}_*.deb 2>/dev/null | head -1 || true)
	[ -n "$deb" ] || die "apt-get download left no ${PKG}_*.deb in $CACHE"
fi

say "unpacking $(basename "$deb")"
rm -rf "$CACHE/pkg" "$CACHE/src"
mkdir -p "$CACHE/pkg" "$CACHE/src"
dpkg-deb -x "$deb" "$CACHE/pkg"
tarball=$(ls "$CACHE"/pkg/usr/src/$PKG.tar.* 2>/dev/null | head -1 || true)
[ -n "$tarball" ] || die "$deb holds no usr/src/$PKG.tar.*"
tar -C "$CACHE/src" -xf "$tarball"
rm -rf "$CACHE/pkg"
[ -f "$TREE/Makefile" ] || die "$tarball did not unpack to $TREE"
touch "$CACHE/src/.complete"
printf '%s\n' "$TREE"
