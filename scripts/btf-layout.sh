#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The layout section (Linux 7.1+: one struct btf_layout per kind, after the
# 32-byte header's layout_off) of a raw BTF file, as the bytes say it: the
# header read in the file's own byte order (by its magic), the section
# printed as one line of hex; "none" when the header has no layout fields or
# the section is empty. For comparing two writers' layout sections byte for
# byte (the differential, the 7.3 proof's pahole-layout step).
#
#   scripts/btf-layout.sh FILE
#
# Example: scripts/btf-layout.sh build/differential/up/fx-basic/fx-basic.o.BTF

set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 FILE" >&2; exit 2; }
f=$1
case $(od -An -tx1 -N2 "$f" | tr -d ' ') in
9feb) endian=little ;;
eb9f) endian=big ;;
*) echo "btf-layout: error: $f: not raw BTF (no BTF magic)" >&2; exit 1 ;;
esac
read -r hdr_len < <(od -An -tu4 --endian=$endian -j4 -N4 "$f")
[ "$hdr_len" -ge 32 ] || { echo none; exit 0; }
read -r off len < <(od -An -tu4 --endian=$endian -j24 -N8 "$f")
[ "$len" -gt 0 ] || { echo none; exit 0; }
[ $((hdr_len + off + len)) -le "$(stat -c %s "$f")" ] ||
	{ echo "btf-layout: error: $f: layout section past the end of the file" >&2; exit 1; }
# (dd reads just the section: tail | head would end tail with SIGPIPE)
dd if="$f" iflag=skip_bytes,count_bytes skip=$((hdr_len + off)) count="$len" status=none |
	od -An -v -tx1 | tr -d ' \n'
echo
