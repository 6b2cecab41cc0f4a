#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# A Debian chroot of SUITE (trixie, forky, sid, ...) with what `make check`
# needs (its own gcc, clang, libbpf, pahole, cmocka, UAPI headers), made by
# debootstrap from the Debian archive the machine's apt already uses
# (scripts/apt-private.sh: no host name in this repository), cached under
# CACHE/<suite>-<key> and printed on stdout. <key> hashes the versions of
# every package the chroot holds, as the archive has them now (a private
# `apt-get update`, then a simulated install on an empty system): forky and
# sid move daily, and a new version builds a new chroot. The versions of the
# toolchain go to stderr. The chroot is built in a temporary directory and
# renamed when complete, so a killed build is never served; older chroots of
# the suite are removed once a new one is complete.
#
#   scripts/chroot.sh SUITE [CACHE]     (root; CACHE: /var/cache/btf2btf/chroot)
#
# Example: scripts/chroot.sh trixie

set -euo pipefail

die() { printf 'chroot: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'chroot: %s\n' "$*" >&2; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: $0 SUITE [CACHE]"
SUITE=$1
CACHE=${2:-/var/cache/btf2btf/chroot}
[ "$(id -u)" = 0 ] || die "debootstrap and chroot need root"
command -v debootstrap > /dev/null || die "debootstrap not found (apt-get install debootstrap)"

# what `make check` runs, each with the chroot's own version (.ci/run's list
# for the host, less the kernel proofs' packages)
PKGS=(gcc libc6-dev make clang llvm libbpf-dev libelf-dev zlib1g-dev libzstd-dev liblzma-dev
      libcmocka-dev pkg-config dwarves bpftool jq valgrind bash-completion man-db xz-utils
      binutils file util-linux bsdextrautils diffutils linux-libc-dev strace zstd gzip)
# the toolchain whose versions are printed
SHOWN=(gcc clang libbpf-dev dwarves libcmocka-dev linux-libc-dev bpftool libc6)

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
. "$(dirname "$0")/apt-private.sh"
apt_private_setup "$CACHE/apt-$SUITE" "$SUITE"
MIRROR=$(awk '{ print $2; exit }' "$APT_PRIVATE/etc/sources.list")
# debootstrap knows a suite by its script; testing without one of its own
# (forky on Debian 12's debootstrap) is made by sid's
script=/usr/share/debootstrap/scripts/$SUITE
[ -e "$script" ] || script=/usr/share/debootstrap/scripts/sid

# one build of a suite at a time (a second caller waits, then finds it)
exec 9> "$CACHE/$SUITE.lock"
flock 9

apt_private update > "$APT_PRIVATE/update.log" 2>&1 ||
	{ cat "$APT_PRIVATE/update.log" >&2; die "apt-get update of $SUITE failed"; }
empty=$APT_PRIVATE/empty-status
: > "$empty"
# every package a minimal system with PKGS holds, and its version
versions=$(apt_private -o Dir::State::status="$empty" -s install "${PKGS[@]}" 2> "$APT_PRIVATE/simulate.err" |
	   awk '$1 == "Inst" { v = $3; gsub(/[()]/, "", v); print $2, v }' | sort) ||
	{ cat "$APT_PRIVATE/simulate.err" >&2; die "cannot resolve ${PKGS[*]} in $SUITE"; }
[ -n "$versions" ] || die "no package versions for $SUITE (see $APT_PRIVATE/simulate.err)"
key=$( { printf '%s\n' "$SUITE" "${PKGS[*]}" "$(basename "$script")"; printf '%s\n' "$versions"; } |
       sha256sum | cut -c1-16)
DIR=$CACHE/$SUITE-$key

# a tree with something mounted inside is in use: never removed
mounted_under() { awk -v d="$1/" 'index($2 "/", d) == 1 { f = 1 } END { exit !f }' /proc/self/mounts; }
remove_tree() {
	if mounted_under "$1"; then
		say "leaving $1: something is mounted in it"
	else
		rm -rf --one-file-system "$1"
	fi
}

if ! [ -f "$DIR/.complete" ]; then
	tmp=$CACHE/.building-$SUITE-$key
	[ -e "$tmp" ] && remove_tree "$tmp"
	[ -e "$tmp" ] && die "$tmp is in use"
	say "building $SUITE ($key) with debootstrap into $DIR (log: $CACHE/$SUITE-$key.log)"
	t0=$(date +%s)
	if ! debootstrap --variant=minbase --include="$(IFS=,; echo "${PKGS[*]}")" \
			"$SUITE" "$tmp" "$MIRROR" "$script" > "$CACHE/$SUITE-$key.log" 2>&1; then
		tail -20 "$CACHE/$SUITE-$key.log" >&2
		die "debootstrap $SUITE failed (log: $CACHE/$SUITE-$key.log)"
	fi
	chroot "$tmp" dpkg-query -W -f '${Package} ${Version}\n' > "$tmp/.packages"
	# the apt lists and .debs debootstrap left are not needed to build or test
	rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/*_Packages
	touch "$tmp/.complete"
	mv -T "$tmp" "$DIR"
	say "built $SUITE in $(( $(date +%s) - t0 )) s"
	for old in "$CACHE/$SUITE"-*; do
		[ -d "$old" ] && [ "$old" != "$DIR" ] && remove_tree "$old"
	done
fi

shown=
for p in "${SHOWN[@]}"; do
	v=$(awk -v p="$p" '$1 == p { print $2 }' "$DIR/.packages")
	shown="$shown $p $v,"
done
# the compilers the gcc and clang packages resolve to
cc=$(chroot "$DIR" sh -c 'gcc -dumpfullversion; clang --version | head -1' | tr '\n' ' ')
say "$SUITE ($key):${shown%,}; $cc"
printf '%s\n' "$DIR"
