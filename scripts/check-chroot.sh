#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The whole `make check` (differential included) in a Debian SUITE chroot
# (scripts/chroot.sh: its own gcc, clang, libbpf, pahole, cmocka, UAPI
# headers), on a copy of this tree (tracked and untracked-not-ignored files;
# no build/). Warnings are errors (CFLAGS -Werror). The chroot reuses this
# tree's .cache (Linux 7.3 source and the resolve_btfids oracle, built on
# this machine: its output does not depend on the toolchain), bind-mounted
# read-only at the same path; /proc is mounted, and /sys/kernel/btf read-only
# (tests read the running kernel's BTF), unless CHROOT_NO_SYS is set: then
# the tests that need it skip themselves, as in a package build's chroot. Then the chroot's btf2btf is given
# what this machine's build (build/btf2btf, when built) wrote for its
# fixtures and the running kernel's BTF (tests/same-output.sh): the same
# bytes and exit statuses, or the run fails. Everything mounted is unmounted
# and the copy removed on every exit. Extra arguments go to make (e.g.
# CC=clang).
#
#   scripts/check-chroot.sh SUITE [MAKE ARGS...]     (root)
#
# Example: scripts/check-chroot.sh forky CC=clang

set -euo pipefail

die() { printf 'check-chroot: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'check-chroot: %s\n' "$*" >&2; }

[ $# -ge 1 ] || die "usage: $0 SUITE [MAKE ARGS...]"
SUITE=$1
shift
TOP=$(cd "$(dirname "$0")/.." && pwd)
t0=$(date +%s)

ROOT=$("$TOP/scripts/chroot.sh" "$SUITE" "${BTF2BTF_CHROOT_CACHE:-/var/cache/btf2btf/chroot}")
# the oracle on this machine first (fetched and built once; a no-op when
# cached), so that the chroot finds it complete in the read-only cache
"$TOP/scripts/oracle-resolve-btfids.sh" "$TOP/.cache" > /dev/null
CACHE=$(cd "$TOP/.cache" && pwd -P)

mounts=()
work=
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[i]}" 2> /dev/null || umount -l "${mounts[i]}" ||
			say "cannot unmount ${mounts[i]}"
	done
	# nothing may be mounted under what is removed
	[ -z "$work" ] || rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mount_at() {	# mount_at TARGET MOUNT-ARGS...
	local target=$1
	shift
	mkdir -p "$target"
	mount "$@" "$target"
	mounts+=("$target")
}
mount_ro() {	# mount_ro SOURCE TARGET: a read-only bind mount
	mount_at "$2" --bind "$1"
	mount -o remount,bind,ro "$2"
}

work=$(mktemp -d "$ROOT/tmp/btf2btf-check.XXXXXX")
inside=${work#"$ROOT"}
# (.cache may be a symlink, which the ignore rule "/.cache/" does not match)
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard --deduplicate |
	grep -zv '^\.cache$' | tar --null -T - --ignore-failed-read -cf - 2> /dev/null) | tar -C "$work" -xf -
ln -sfn "$CACHE" "$work/.cache"

# what this machine's btf2btf writes, for the chroot's to write again
same=
if [ -x "$TOP/build/btf2btf" ] && [ -d "$TOP/build/fixtures" ]; then
	"$TOP/tests/same-output.sh" record "$TOP/build/btf2btf" "$TOP/build/fixtures" "$work/same-output" >&2 ||
		die "tests/same-output.sh record failed"
	same=SAME_OUTPUT_REF=$inside/same-output
else
	say "$SUITE: no build/btf2btf here: the same-output check is left out (make first)"
fi

mount_at "$ROOT/proc" -t proc proc
if [ -n "${CHROOT_NO_SYS:-}" ]; then
	say "$SUITE: /sys/kernel/btf not mounted (CHROOT_NO_SYS): the tests that need it skip themselves"
elif [ -d /sys/kernel/btf ]; then
	mount_ro /sys/kernel/btf "$ROOT/sys/kernel/btf"
fi
mount_ro "$CACHE" "$ROOT$CACHE"

say "$SUITE: make check $* in $inside"
# which struct btf_header the suite's <linux/btf.h> has (32 bytes from
# Linux 7.1's UAPI on: forky's is the build against a grown header)
if grep -q layout_len "$ROOT/usr/include/linux/btf.h"; then
	say "$SUITE: <linux/btf.h> has the 32-byte struct btf_header (layout_off, layout_len)"
else
	say "$SUITE: <linux/btf.h> has the 24-byte struct btf_header"
fi
rc=0
chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
	TERM=dumb TMPDIR=/tmp /bin/bash -c 'cd "$1" && same=$2 && shift 2 &&
		make -j"$(nproc)" CFLAGS="-O2 -g -Werror" "$@" all &&
		make -k CFLAGS="-O2 -g -Werror" "$@" check ${same:+check-same-output "$same"}' \
	check-chroot "$inside" "$same" "$@" || rc=$?
say "$SUITE: make check $*: exit $rc in $(( $(date +%s) - t0 )) s"
exit "$rc"
