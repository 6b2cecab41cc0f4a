#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The README blocks marked "<!-- docs: debian kernels: ... -->", run on
# Debian's own kernels: bookworm's 6.1, trixie's 6.12, sid's 7.2 and
# trixie-backports' 7.3 (cloud-amd64), fetched by scripts/fetch-debian-kernel.sh
# into CACHE (outside git, kept by package version), linked into a scratch
# directory as vmlinux-6.1, vmlinux-6.12, vmlinux-7.2 and vmlinux-7.3.
# Needs Debian's archive (as apt is configured) on the first run: four
# kernel packages, about 250 MB. Debian keeps only each suite's current
# kernel: when one moves on, the output may change, and
# `tests/check-docs-debian.sh --update ...` writes it.
#
#   tests/check-docs-debian.sh [--update] BUILD_DIR CACHE
set -euo pipefail
update=
[ "${1:-}" = --update ] && { update=--update; shift; }
build=${1:?usage: $0 [--update] BUILD_DIR CACHE}
cache=${2:?usage: $0 [--update] BUILD_DIR CACHE}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for k in bookworm:6.1 trixie:6.12 sid:7.2 trixie-backports:7.3; do
	env=$("$top/scripts/fetch-debian-kernel.sh" "${k%%:*}" cloud-amd64 "$cache") ||
		{ echo "check-docs-debian: fetching ${k%%:*}'s kernel failed" >&2; exit 1; }
	VMLINUX=
	eval "$env"
	[ -s "$VMLINUX" ] || { echo "check-docs-debian: ${k%%:*}: no vmlinux" >&2; exit 1; }
	ln -s "$VMLINUX" "$dir/vmlinux-${k#*:}"
done
cd "$top"
./tests/check-docs.sh $update --debian-kernels "$dir" "$build" README.md "$top"/docs/*.md
