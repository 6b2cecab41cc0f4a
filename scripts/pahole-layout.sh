#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# A pahole with the BTF `layout` feature, from Debian packages alone: forky's
# pahole (1.32) run with the libbpf of Linux 7.3's tree (1.8). forky's own
# libbpf (1.7) lacks the layout API, and pahole linked to it silently has no
# `layout` feature (`pahole --supported_btf_features`). pahole needs forky's
# glibc, so it runs in the forky chroot (scripts/chroot.sh), in a private
# mount namespace (unshare: nothing stays mounted when it ends, and the
# mounts of other users of the chroot are not touched), with the current
# directory and every directory of PAHOLE_LAYOUT_BIND bind-mounted at the
# same path: pahole's arguments mean there what they mean here (give
# physical paths, as `pwd -P` prints them). The arguments go to pahole as
# they are, so PAHOLE=scripts/pahole-layout.sh serves Kbuild's gen-btf.sh.
#
# libbpf is built once per chroot, inside it, into
# /opt/btf2btf/libbpf-<linux-source .deb> (a new chroot builds it anew), from
# the 7.3 tree scripts/fetch-linux-source.sh keeps in .cache/linux-7.3; only
# libbpf.so (its bpf_helper_defs.h needs python3, which neither pahole nor
# the chroot has). The build is checked: that pahole must list `layout`.
#
#   scripts/pahole-layout.sh PAHOLE-ARGS...      (root: chroot, mount)
#
# Environment: PAHOLE_LAYOUT_ROOT (the forky chroot; default: the path
# scripts/chroot.sh forky prints, which builds it when missing),
# PAHOLE_LAYOUT_BIND (colon-separated directories, read-write).
# Example: scripts/pahole-layout.sh --supported_btf_features

set -euo pipefail

die() { printf 'pahole-layout: error: %s\n' "$*" >&2; exit 1; }

TOP=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || die "chroot and mount need root"
command -v unshare > /dev/null || die "unshare not found (util-linux)"
ROOT=${PAHOLE_LAYOUT_ROOT:-}
if [ -z "$ROOT" ]; then
	ROOT=$("$TOP/scripts/chroot.sh" forky) || die "no forky chroot (scripts/chroot.sh forky failed)"
fi
[ -x "$ROOT/usr/bin/pahole" ] || die "$ROOT is no forky chroot with pahole (scripts/chroot.sh forky)"
TREE=$("$TOP/scripts/fetch-linux-source.sh" 7.3 trixie-backports "$TOP/.cache/linux-7.3")
TREE=$(cd "$TREE" && pwd -P)
DEB=$(cd "$TREE/../.." && ls linux-source-7.3_*.deb 2> /dev/null | head -1) ||
	die "no linux-source-7.3 package next to $TREE"
LIBBPF=/opt/btf2btf/libbpf-${DEB%.deb}

# inside ROOT, in a private mount namespace: bind DIR... at the same paths,
# then run the rest (after --) in the chroot with a clean environment
in_chroot() {
	local binds=()
	while [ "$1" != -- ]; do binds+=("$1"); shift; done
	shift
	unshare --mount --propagation private /bin/bash -c '
		set -e
		root=$1; shift
		while [ "$1" != -- ]; do
			mkdir -p "$root$1"
			mount --bind "$1" "$root$1"
			shift
		done
		shift
		exec chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"
	' in-chroot "$ROOT" "${binds[@]}" -- "$@"
}

if ! [ -f "$ROOT$LIBBPF/.complete" ]; then
	mkdir -p "$ROOT/opt/btf2btf"
	exec 9> "$ROOT/opt/btf2btf/.lock"
	flock 9
	if ! [ -f "$ROOT$LIBBPF/.complete" ]; then
		printf 'pahole-layout: building libbpf of %s in %s (%s)\n' "$DEB" "$ROOT" "$LIBBPF" >&2
		rm -rf "$ROOT$LIBBPF"
		mkdir -p "$ROOT$LIBBPF"
		# (a command-line BPF_GENERATED= drops bpf_helper_defs.h, which
		# only BPF programs include; the top make builds the .so itself)
		in_chroot "$TREE" -- make -s -C "$TREE/tools/lib/bpf" OUTPUT="$LIBBPF/" BPF_GENERATED= \
			-j"$(nproc)" "$LIBBPF/libbpf.so" > "$ROOT$LIBBPF.log" 2>&1 ||
			{ tail -20 "$ROOT$LIBBPF.log" >&2; die "libbpf build failed (log: $ROOT$LIBBPF.log)"; }
		features=$(in_chroot -- env LD_LIBRARY_PATH="$LIBBPF" pahole --supported_btf_features) ||
			die "pahole does not run with $LIBBPF"
		case ",$features," in
		*,layout,*) ;;
		*) die "forky's pahole with $LIBBPF has no layout feature: $features" ;;
		esac
		touch "$ROOT$LIBBPF/.complete"
	fi
	exec 9>&-
fi

binds=("$(pwd -P)")
IFS=: read -r -a extra <<< "${PAHOLE_LAYOUT_BIND:-}"
for d in "${extra[@]}"; do
	[ -z "$d" ] || binds+=("$d")
done
for d in "${binds[@]}"; do
	[ -d "$d" ] || die "$d: no such directory to bind"
done
in_chroot "${binds[@]}" -- /bin/sh -c 'cd "$1" && shift && exec "$@"' cd "$(pwd -P)" \
	env LD_LIBRARY_PATH="$LIBBPF" pahole "$@"
