#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The layout section (Linux 7.1+: one struct btf_layout per kind, after the
# 32-byte header's layout_off) of a raw BTF file, as the bytes say it: the
# header read in the file's own byte order (by its magic), the section
# printed as one line of hex; "none" when the header has no layout fields or
# the section is empty. For comparing two writers' layout sections byte for
# byte (the differential, the 7.3 proof's pahole-layout step). Sourced, it
# defines btf_layout FILE and runs nothing (the differential calls it for
# every object: no process for a file without a layout section).
#
#   scripts/btf-layout.sh FILE
#
# Example: scripts/btf-layout.sh build/differential/up/fx-basic/fx-basic.o.BTF

# btf_layout_header WORD...: the header's first 8 words read little-endian;
# sets BTF_HDR to "HDR_LEN LAYOUT_OFF LAYOUT_LEN" in the file's own byte
# order (by its magic), or "x" when it is no BTF (no process: the
# differential reads every object's header)
btf_layout_header() {
	local -a h=("$@")
	local i
	# magic, version and flags as one little-endian word: 0x0001eb9f for a
	# little-endian BTF of version 1, 0x....9feb for a big-endian one
	case $(( ${h[0]:-0} & 0xffff )) in
	$((0xeb9f))) ;;
	$((0x9feb))) for i in 1 6 7; do
			h[i]=$(( (h[i] >> 24 & 0xff) | (h[i] >> 8 & 0xff00) |
				 (h[i] << 8 & 0xff0000) | (h[i] << 24 & 0xff000000) ))
		done ;;
	*) BTF_HDR=x; return ;;
	esac
	BTF_HDR="${h[1]:-0} ${h[6]:-0} ${h[7]:-0}"
}

# btf_head_words FILE: BTF_WORDS = its first 8 32-bit words, read
# little-endian (fewer when the file is shorter), by bash alone: the reads
# are NUL-delimited, as a bash variable holds no NUL
btf_head_words() {
	local LC_ALL=C chunk v i fd eof=
	local -a b=()
	BTF_WORDS=()
	exec {fd}< "$1" || return 1
	while [ ${#b[@]} -lt 32 ] && [ -z "$eof" ]; do
		IFS= read -r -d '' -u "$fd" chunk || eof=1
		for ((i = 0; i < ${#chunk}; i++)); do
			printf -v v %d "'${chunk:i:1}"
			b+=($((v & 0xff)))
		done
		[ -n "$eof" ] || b+=(0)
	done
	exec {fd}<&-
	for ((i = 0; i + 3 < ${#b[@]} && i < 32; i += 4)); do
		BTF_WORDS+=($((b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24)))
	done
}

# btf_layout_lens FILE...: sets LAYOUT_LENS to the layout section's length
# of each file (0: none; x: no BTF), without a process
btf_layout_lens() {
	local f
	local -a w
	LAYOUT_LENS=()
	for f in "$@"; do
		btf_head_words "$f" 2> /dev/null || BTF_WORDS=()
		btf_layout_header "${BTF_WORDS[@]}"
		read -r -a w <<< "$BTF_HDR"
		if [ "${w[0]}" = x ]; then LAYOUT_LENS+=(x)
		elif [ "${w[0]}" -lt 32 ]; then LAYOUT_LENS+=(0)
		else LAYOUT_LENS+=("${w[2]}")
		fi
	done
}

btf_layout() {
	local f=$1 hdr_len off len
	btf_head_words "$f" || return 1
	btf_layout_header "${BTF_WORDS[@]}"
	read -r hdr_len off len <<< "$BTF_HDR"
	[ "$hdr_len" != x ] ||
		{ echo "btf-layout: error: $f: not raw BTF (no BTF magic)" >&2; return 1; }
	if [ "$hdr_len" -lt 32 ] || [ "$len" = 0 ]; then
		echo none
		return 0
	fi
	[ $((hdr_len + off + len)) -le "$(stat -c %s "$f")" ] ||
		{ echo "btf-layout: error: $f: layout section past the end of the file" >&2; return 1; }
	# (dd reads just the section: tail | head would end tail with SIGPIPE)
	dd if="$f" iflag=skip_bytes,count_bytes skip=$((hdr_len + off)) count="$len" status=none |
		od -An -v -tx1 | tr -d ' \n'
	echo
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	[ $# -eq 1 ] || { echo "usage: $0 FILE" >&2; exit 2; }
	btf_layout "$1"
fi
