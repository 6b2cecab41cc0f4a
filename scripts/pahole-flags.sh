#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The pahole flags a kernel tree's Kbuild gives a pahole version: TREE's own
# scripts/Makefile.btf evaluated by make with CONFIG_PAHOLE_VERSION=VERSION
# (e.g. 132 for pahole 1.32) and CONFIG_PAHOLE_HAS_LANG_EXCLUDE as
# lib/Kconfig.debug sets it (pahole >= 1.24), printed on one line. JOBS is 1
# (-j1: pahole's output is then reproducible; Kbuild gives make's -j) and
# KBUILD_BUILD_TIMESTAMP unset, as in an ordinary build.
#
#   scripts/pahole-flags.sh TREE VERSION
#
# Example: scripts/pahole-flags.sh .cache/linux-7.3/src/linux-source-7.3 132

set -euo pipefail

die() { printf 'pahole-flags: error: %s\n' "$*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 TREE VERSION"
TREE=$1 VERSION=$2
[ -f "$TREE/scripts/Makefile.btf" ] || die "$TREE/scripts/Makefile.btf: no such file"
[[ $VERSION =~ ^[0-9]+$ ]] || die "VERSION: pahole's version as Kconfig has it (132 for 1.32)"
lang_exclude=
[ "$VERSION" -lt 124 ] || lang_exclude=y
printf '%s\n' 'include $(TREE)/scripts/Kbuild.include' 'include $(TREE)/scripts/Makefile.btf' \
	'all: ; @echo "$(strip $(PAHOLE_FLAGS))"' |
	env -u KBUILD_BUILD_TIMESTAMP -u MAKEFLAGS -u MFLAGS make -s --no-print-directory -f - \
		TREE="$TREE" JOBS=1 CONFIG_PAHOLE_VERSION="$VERSION" \
		CONFIG_PAHOLE_HAS_LANG_EXCLUDE="$lang_exclude"
