#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The same input gives the same bytes whatever toolchain built btf2btf:
# one build records what it writes for a set of inputs, another (in the
# trixie or forky chroot: gcc 14/16, clang 19/21, libbpf 1.5/1.7, the 7.2
# UAPI headers) writes them again and every byte and exit status must match.
#
#   tests/same-output.sh record BTF2BTF INPUT_DIR REF_DIR
#   tests/same-output.sh compare BTF2BTF REF_DIR
#
# record copies every object of INPUT_DIR (the fixtures this build made:
# gcc and clang objects, big-endian, ELF32, a split module, versioned
# kernels, compressed and signed modules) and the running kernel's BTF
# into REF_DIR/in, and writes per
# input and feature set (default, all) what `btf2btf -q -o` wrote and its
# exit status; split BTF on the fixtures' base. compare runs the other
# btf2btf on REF_DIR/in and compares.
set -u
mode=${1:-} b2b=${2:-}
fail=0 n=0

# run BTF2BTF REF_DIR INPUT FEATURES OUT: OUT gets the written bytes (or
# nothing), OUT.rc the exit status
run() {
	r_ref=$2 r_in=$3 r_feat=$4 r_out=$5
	rm -f "$r_out" "$r_out.rc"
	set -- -q --features="$r_feat"
	case $(basename "$r_in") in
	split.o.ko) set -- "$@" -B "$r_ref/in/split.o" ;;
	esac
	"$b2b" "$@" -o "$r_out" "$r_in" 2> /dev/null
	echo $? > "$r_out.rc"
}

case $mode in
record)
	[ $# -eq 4 ] || { echo "usage: $0 record BTF2BTF INPUT_DIR REF_DIR" >&2; exit 2; }
	in_dir=$3 ref=$4
	rm -rf "$ref" && mkdir -p "$ref/in" "$ref/out" || exit 1
	for f in "$in_dir"/*.o "$in_dir"/*.ko "$in_dir"/*.ko.*; do
		[ -f "$f" ] && cp "$f" "$ref/in/"
	done
	# a real kernel's BTF too (raw, 24-byte header), when there is one
	[ -r /sys/kernel/btf/vmlinux ] && cp /sys/kernel/btf/vmlinux "$ref/in/vmlinux.btf"
	for f in "$ref"/in/*; do
		for feat in default all; do
			run "$b2b" "$ref" "$f" "$feat" "$ref/out/$(basename "$f").$feat"
			n=$((n + 1))
		done
	done
	written=$(find "$ref/out" -type f ! -name '*.rc' | wc -l)
	[ "$written" -gt 0 ] || { echo "same-output: $b2b wrote nothing for $n runs" >&2; exit 1; }
	echo "same-output: recorded $n runs ($written outputs written) of $b2b in $ref"
	;;
compare)
	[ $# -eq 3 ] || { echo "usage: $0 compare BTF2BTF REF_DIR" >&2; exit 2; }
	ref=$3 tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
	[ -d "$ref/in" ] || { echo "same-output: no $ref/in: record first" >&2; exit 1; }
	for f in "$ref"/in/*; do
		for feat in default all; do
			name=$(basename "$f").$feat
			run "$b2b" "$ref" "$f" "$feat" "$tmp/$name"
			n=$((n + 1))
			if ! cmp -s "$tmp/$name.rc" "$ref/out/$name.rc"; then
				echo "same-output: $name: exit $(cat "$tmp/$name.rc"), recorded $(cat "$ref/out/$name.rc")"
				fail=1
			elif [ -f "$ref/out/$name" ] && ! cmp "$tmp/$name" "$ref/out/$name"; then
				echo "same-output: $name: other bytes than recorded"
				fail=1
			elif [ ! -f "$ref/out/$name" ] && [ -f "$tmp/$name" ]; then
				echo "same-output: $name: written, recorded as not written"
				fail=1
			fi
		done
	done
	[ $fail -eq 0 ] && echo "same-output: $n runs of $b2b give the recorded bytes and exit statuses"
	;;
*)
	echo "usage: $0 record|compare ..." >&2
	exit 2
	;;
esac
exit $fail
