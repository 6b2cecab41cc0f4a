#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# make check-layout: the differential (run.sh) against Linux 7.3's
# resolve_btfids on base objects whose BTF a current pahole wrote with the
# BTF layout section: forky's pahole 1.32 with the 7.3 tree's libbpf 1.8
# (scripts/pahole-layout.sh, in the forky chroot), with the flags 7.3's
# scripts/Makefile.btf gives pahole 1.32 (`--btf_features=layout` among
# them) and, as the control, those it gives pahole 1.26-1.30 (no layout):
# every compiled fixture (kfuncs.{gcc,clang}.o: clang's with bpf_kfunc decl
# tags, gcc's without; the 6.0-6.8 style kfuncs-6.1.gcc.o and
# kfuncs-noversion.gcc.o; not kfuncs-5.15.gcc.o, a kernel before 6.0 that
# btf2btf refuses, as README says) encoded with each.
# Passes when the differential finds 0 semantic differences and the same
# layout section in both outputs of every object whose input has one (and
# that is every object encoded with 1.32's flags). No random objects (DIFF_N
# 0): make check runs those.
#
#   tests/differential/layout.sh BUILD_DIR RESOLVE_BTFIDS     (root)
#
# Needs the forky chroot (scripts/chroot.sh forky, built when missing, or
# the one PAHOLE_LAYOUT_ROOT names; an error when it cannot be had, never a
# skip).

set -euo pipefail

BUILD=${1:?usage: layout.sh BUILD_DIR RESOLVE_BTFIDS}
RB=${2:?usage: layout.sh BUILD_DIR RESOLVE_BTFIDS}
TOP=$(pwd -P)
die() { printf 'check-layout: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'check-layout: %s\n' "$*"; }

t0=$(date +%s)
if [ -z "${PAHOLE_LAYOUT_ROOT:-}" ]; then
	PAHOLE_LAYOUT_ROOT=$(scripts/chroot.sh forky) ||
		die "the forky chroot is needed (scripts/chroot.sh forky: root, debootstrap, Debian's archive)"
fi
export PAHOLE_LAYOUT_ROOT
TREE=$(scripts/fetch-linux-source.sh 7.3 trixie-backports .cache/linux-7.3)
X=$TOP/$BUILD/layout-objects
rm -rf "$X"
mkdir -p "$X"
: > "$X/manifest"
say "pahole: $(scripts/pahole-layout.sh --version) in $PAHOLE_LAYOUT_ROOT, with the 7.3 tree's libbpf"

# NAME-PREFIX KCONFIG-VERSION: every compiled fixture encoded with the flags
# 7.3's Makefile.btf gives that pahole version
encode() {
	local prefix=$1 version=$2 flags o name
	flags=$(scripts/pahole-flags.sh "$TREE" "$version")
	say "$prefix: 7.3's flags for pahole $version: $flags"
	for o in kfuncs.gcc kfuncs.clang kfuncs-6.1.gcc kfuncs-noversion.gcc; do
		name=$prefix-${o//./-}
		cp "$TOP/$BUILD/fixtures/$o.o" "$X/$name.o"
		# (word splitting of flags on purpose: Kbuild's PAHOLE_FLAGS)
		# shellcheck disable=SC2086
		(cd "$X" && "$TOP/scripts/pahole-layout.sh" -J $flags --btf_encode_detached="$name.BTF.1" \
			"$name.o") > "$X/$name.log" 2>&1 ||
			{ cat "$X/$name.log" >&2; die "pahole failed on $o.o"; }
		echo "$name" >> "$X/manifest"
	done
}
encode pahole132 132
encode pahole130 130
echo "forky's pahole 1.32 + 7.3's libbpf 1.8, 7.3's flags for pahole 1.32 (layout) and 1.30" > "$X/label"

# what pahole wrote: a 32-byte header and a layout section with 1.32's flags,
# no layout section without them (but the 32-byte header: libbpf 1.8 writes
# that header whatever BTF it writes)
while read -r name; do
	layout=$(scripts/btf-layout.sh "$X/$name.BTF.1")
	case $name in
	pahole132-*) [ "$layout" != none ] || die "$name: pahole wrote no layout section" ;;
	*) [ "$layout" = none ] || die "$name: a layout section without the layout feature" ;;
	esac
done < "$X/manifest"
nlayout=$(grep -c '^pahole132-' "$X/manifest")
say "$(wc -l < "$X/manifest") objects, $nlayout with a layout section"

DIFF_N=0 DIFF_N_KERNEL=0 DIFF_EXTRA=$X DIFF_WORK=$TOP/$BUILD/layout-differential \
	tests/differential/run.sh "$BUILD" "$RB" | tee "$X/differential.log"
[ "${PIPESTATUS[0]}" = 0 ] || die "the differential failed"
grep -q "layout sections: *$nlayout inputs carry one; upstream keeps it in $nlayout " "$X/differential.log" ||
	die "not every layout section of the $nlayout pahole 1.32 objects was compared and kept"
say "ok: $nlayout objects with a layout section, the same layout in both outputs, 0 semantic differences ($(( $(date +%s) - t0 )) s)"
