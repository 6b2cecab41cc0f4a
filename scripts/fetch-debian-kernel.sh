#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Fetch and unpack one of Debian's own built kernels (image and modules, as
# Debian built them) of any suite, with a private apt configuration under
# CACHE (scripts/apt-private.sh), and extract its vmlinux from vmlinuz.
#
#   scripts/fetch-debian-kernel.sh SUITE FLAVOUR CACHE
#
# e.g. `scripts/fetch-debian-kernel.sh bookworm cloud-amd64 /var/cache/btf2btf/debian-kernels`.
# The metapackage linux-image-FLAVOUR of SUITE names the current kernel
# package; up to 6.12 it holds vmlinuz and the modules, from 7.x they are in
# the linux-binary-* and linux-modules-* packages it depends on: every
# linux-image/-binary/-modules package of that version is unpacked into one
# root. Debian keeps only current versions in its archive, so the cache is
# keyed on the package version (CACHE/SUITE/FLAVOUR/VERSION) and a second run
# with the same version only refreshes the lists. If the archive cannot be
# reached, the newest complete cache of SUITE/FLAVOUR is used (with a warning).
#
# vmlinux is extracted with scripts/extract-vmlinux of a kernel source tree:
# $EXTRACT_VMLINUX if set, else the linux-source-7.3 tree that
# scripts/fetch-linux-source.sh keeps in .cache/linux-7.3 (fetched if absent).
#
# Prints on stdout shell-quoted KEY=value lines (eval them):
#   PACKAGE_VERSION  Debian version of the kernel packages (e.g. 6.1.176-1)
#   PACKAGES         the packages unpacked, name=version, space separated
#   RELEASE          the kernel release (uname -r, e.g. 6.1.0-50-cloud-amd64)
#   ROOT             the unpacked root
#   VMLINUZ VMLINUX  the image and the vmlinux extracted from it
#   MODULES          the release's module directory (ROOT/.../modules/RELEASE)
#   SYSTEM_MAP       the System.map Debian ships (a placeholder: the real one
#                    and the unstripped vmlinux are in linux-image-*-dbg)
# Progress goes to stderr.

set -euo pipefail
die() { printf 'fetch-debian-kernel: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'fetch-debian-kernel: %s\n' "$*" >&2; }

[ $# -eq 3 ] || die "usage: $0 SUITE FLAVOUR CACHE"
SUITE=$1 FLAVOUR=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$3/$SUITE/$FLAVOUR"
CACHE=$(cd "$3" && pwd)
KEYDIR=$CACHE/$SUITE/$FLAVOUR

. "$HERE/apt-private.sh"
apt_private_setup "$CACHE/apt-$SUITE" "$SUITE" || die "private apt setup failed"

# the candidate's field FIELD of package PKG
field() {
	apt_private_cache show --no-all-versions "$1" 2>/dev/null |
		sed -n "s/^$2: //p" | head -1
}
# the package names of a Depends line, alternatives and versions dropped
dep_names() {
	tr ',' '\n' | sed 's/|.*//; s/(.*//; s/[[:space:]]//g' | sed '/^$/d'
}

# 6.x: ROOT/boot/vmlinuz-RELEASE; 7.x: ROOT/usr/lib/modules/RELEASE/vmlinuz
find_vmlinuz() {
	ls "$ROOT"/boot/vmlinuz-* "$ROOT"/usr/lib/modules/*/vmlinuz "$ROOT"/lib/modules/*/vmlinuz \
		2>/dev/null | head -1 || true
}

VERSION=
say "apt-get update ($SUITE, private lists in $CACHE/apt-$SUITE)"
if apt_private update >&2; then
	META=linux-image-$FLAVOUR
	VERSION=$(field "$META" Version)
	[ -n "$VERSION" ] || die "$SUITE has no $META"
	IMAGE=$(field "$META" Depends | dep_names | grep -E "^linux-image-.*-$FLAVOUR\$" | head -1 || true)
	[ -n "$IMAGE" ] || die "$META $VERSION depends on no linux-image-*-$FLAVOUR"
else
	VERSION=$(ls -t "$KEYDIR" 2>/dev/null | while read -r v; do
		[ -f "$KEYDIR/$v/.complete" ] && { echo "$v"; break; }; done || true)
	[ -n "$VERSION" ] || die "apt-get update of $SUITE failed and $KEYDIR holds no complete kernel"
	say "warning: apt-get update of $SUITE failed; using the cached $VERSION"
fi

DIR=$KEYDIR/$VERSION
ROOT=$DIR/root
if [ ! -f "$DIR/.complete" ]; then
	rm -rf "$DIR"
	mkdir -p "$DIR/debs"
	# 6.x: the image package holds everything; 7.x: it depends on -binary and -modules
	# shellcheck disable=SC2046 # one package name per word
	PKGS=$(printf '%s ' "$IMAGE" $(field "$IMAGE" Depends | dep_names |
		grep -E '^linux-(binary|modules|base)-[0-9]' || true))
	say "apt-get download $PKGS ($VERSION)"
	# shellcheck disable=SC2086
	(cd "$DIR/debs" && apt_private download $PKGS >&2) || die "apt-get download $PKGS failed"
	for deb in "$DIR"/debs/*.deb; do
		[ -f "$deb" ] || die "apt-get download left no .deb in $DIR/debs"
		say "unpacking $(basename "$deb")"
		dpkg-deb -x "$deb" "$ROOT"
		printf '%s=%s ' "$(dpkg-deb -f "$deb" Package)" "$(dpkg-deb -f "$deb" Version)" >> "$DIR/packages"
	done
	rm -rf "$DIR/debs"

	VMLINUZ=$(find_vmlinuz)
	[ -n "$VMLINUZ" ] || die "no vmlinuz in the packages of $VERSION"
	if [ -z "${EXTRACT_VMLINUX:-}" ]; then
		TREE=$("$HERE/fetch-linux-source.sh" 7.3 trixie-backports "$HERE/../.cache/linux-7.3") ||
			die "no kernel tree for scripts/extract-vmlinux (set EXTRACT_VMLINUX)"
		EXTRACT_VMLINUX=$TREE/scripts/extract-vmlinux
	fi
	say "extracting vmlinux from $(basename "$VMLINUZ")"
	"$EXTRACT_VMLINUX" "$VMLINUZ" > "$DIR/vmlinux.tmp" || die "$EXTRACT_VMLINUX $VMLINUZ failed"
	mv "$DIR/vmlinux.tmp" "$DIR/vmlinux"
	touch "$DIR/.complete"
fi

VMLINUZ=$(find_vmlinuz)
MODULES=
for d in "$ROOT"/lib/modules/* "$ROOT"/usr/lib/modules/*; do
	[ -d "$d/kernel" ] && MODULES=$d
done
[ -n "$MODULES" ] || die "no modules/RELEASE/kernel directory in $ROOT"
RELEASE=${MODULES##*/}
say "$SUITE $FLAVOUR: $(cat "$DIR/packages")"
for kv in "PACKAGE_VERSION=$VERSION" "PACKAGES=$(sed 's/ $//' "$DIR/packages")" \
	  "RELEASE=$RELEASE" "ROOT=$ROOT" "VMLINUZ=$VMLINUZ" "VMLINUX=$DIR/vmlinux" \
	  "MODULES=$MODULES" "SYSTEM_MAP=$(ls "$ROOT"/boot/System.map-* "$MODULES"/System.map \
						2>/dev/null | head -1 || true)"; do
	printf '%s=%q\n' "${kv%%=*}" "${kv#*=}"
done
