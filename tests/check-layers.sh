#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The library's stages bound what each file sees: every file lives in a stage
# folder of src/lib, includes the library's headers by path from src/lib
# ("format/btf_format.h"), and only those of its own stage or one before it
# in STAGE... (lowest first); "btf2btf.h", the public header, is below all.
#   tests/check-layers.sh LIBDIR STAGE...
set -u
lib=${1:?usage: $0 LIBDIR STAGE...}
shift
[ $# -gt 0 ] || { echo "check-layers: no stages given"; exit 2; }
fail=0 n=0
includes=$(mktemp) || exit 2
trap 'rm -f "$includes"' EXIT
rank() {	# the position of stage $1 in the order, none when it is not one
	r=0
	for s in $stages; do
		[ "$s" = "$1" ] && { echo "$r"; return; }
		r=$((r + 1))
	done
	echo none
}
stages="$*"
for f in "$lib"/*; do
	case $f in
	*.c | *.h) echo "check-layers: ${f#"$lib"/} is in no stage folder ($stages)"; fail=1 ;;
	esac
done
for dir in "$lib"/*/; do
	stage=$(basename "$dir")
	own=$(rank "$stage")
	[ "$own" = none ] && { echo "check-layers: src/lib/$stage is no stage ($stages)"; fail=1; continue; }
	for f in "$dir"*.[ch]; do
		[ -e "$f" ] || continue
		# "NUMBER HEADER" for each #include "HEADER" of the file
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
			sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' > "$includes"
		while read -r line hdr; do
			n=$((n + 1))
			where="src/lib/$stage/$(basename "$f"):$line"
			[ "$hdr" = btf2btf.h ] && continue
			case $hdr in
			*/*) ;;
			*) echo "check-layers: $where includes \"$hdr\" by its bare name, not by its path from src/lib"; fail=1; continue ;;
			esac
			to=${hdr%%/*}
			theirs=$(rank "$to")
			if [ "$theirs" = none ] || [ ! -f "$lib/$hdr" ]; then
				echo "check-layers: $where includes \"$hdr\", which is no header of a stage of src/lib"; fail=1
			elif [ "$theirs" -gt "$own" ]; then
				echo "check-layers: $where includes \"$hdr\": stage $stage reaches up into $to, a later stage (order: $stages)"
				fail=1
			fi
		done < "$includes"
	done
done
[ "$fail" -eq 0 ] && echo "check-layers: $n includes of src/lib, none reaching a later stage ($(echo "$stages" | sed 's/ / < /g'))"
exit "$fail"
