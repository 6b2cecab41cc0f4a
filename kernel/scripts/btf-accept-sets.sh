#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The object sets a guest loads with BPF_BTF_LOAD (kernel/guest/btf-accept/):
# the BTF of the differential's objects (make differential, its work
# directory WORK) whose input the guest's kernel loads -- its fixtures and
# its kernel-valid random batches (6.12: kv612_*, no kind_flag decl tag; 7.2
# and 7.3: kv73_* too), not the random objects with unnamed FUNC parameters (rand*,
# which every kernel refuses: "Invalid arg#N") -- as raw native BTF files
# (split BTF joined to its base by btf-flatten).
#
#   btf-accept-sets.sh OUT WORK SET...
#
# SET is one of
#   btf2btf-all  btf2btf --features=all, the differential's own output
#   btf2btf      btf2btf with its default features, run here ($BTF2BTF)
#   adapter      btf2btf with the pahole adapter's features (src/adapter/pahole.sh)
#   upstream     7.3 resolve_btfids, the differential's oracle output; the
#                kernel must refuse exactly the objects with a decl tag past
#                its FUNC's parameters (btfcanon's DANGLING: the decl tags
#                of a dropped parameter, the differential's "documented")
# Each object comes with its input (pahole's BTF) as NAME.in.btf: an object
# whose input the guest's kernel refuses is judged apart (btf_accept.h).
# When WORK holds no results, make differential runs first (DIFF_WORK=WORK).
# Environment: BTF2BTF, BTFCANON (build/tests/btfcanon, for upstream), ENDIAN
# (little or big, the guest's), KERNEL (6.12, 7.2 or 7.3, the guest's). Writes
# OUT/SET/{label,refuse,*.btf}; builds btf-flatten (host, Debian's libbpf).

set -euo pipefail

OUT=${1:?usage: btf-accept-sets.sh OUT WORK SET...}
WORK=${2:?usage: btf-accept-sets.sh OUT WORK SET...}
shift 2
ENDIAN=${ENDIAN:-little}
KERNEL=${KERNEL:?KERNEL (6.12, 7.2 or 7.3) not set}
case $KERNEL in
6.12) objects='^(fx-|kv612_)' ;;
7.2 | 7.3) objects='^(fx-|kv612_|kv73_)' ;;
*) echo "btf-accept-sets: error: KERNEL $KERNEL: 6.12, 7.2 or 7.3" >&2; exit 1 ;;
esac
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

die() { printf 'btf-accept-sets: error: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! [ -f "$WORK/cases" ] || ! [ -d "$WORK/res" ] || ! grep -q '^kv612_' "$WORK/cases"; then
	printf '==> btf-accept: no (kernel-valid) differential results in %s: make differential\n' "$WORK"
	# (a cross build's ARCH and CROSS_COMPILE are not the oracle's)
	env -u ARCH -u CROSS_COMPILE DIFF_WORK="$WORK" make -C "$TOP" differential \
		> "$tmp/differential.log" 2>&1 ||
		{ tail -20 "$tmp/differential.log"; die "make differential failed"; }
fi
FLATTEN=$tmp/btf-flatten
gcc -O2 -Wall -Wextra -Werror -o "$FLATTEN" "$TOP/kernel/guest/btf-accept/flatten.c" -lbpf ||
	die "cannot build btf-flatten"

# flat IN BASE OUT: OUT from IN (split on BASE unless "-")
flat() {
	local base=()
	[ "$2" = - ] || base=(-b "$2")
	"$FLATTEN" -e "$ENDIAN" "${base[@]}" "$1" "$3" || die "btf-flatten $1 failed"
}

# the set's objects: NAME BTF BASE lines on stdin; with each, its input
fill() {
	local dir=$1 name btf base inbase
	while read -r name btf base; do
		flat "$btf" "$base" "$dir/$name.btf"
		inbase=$(awk -v n="$name" '$1 == n { print $3 }' "$WORK/cases")
		flat "$WORK/in/$name.BTF.1" "$inbase" "$dir/$name.in.btf"
	done
}

for set in "$@"; do
	d=$OUT/$set
	rm -rf "$d"
	mkdir -p "$d"
	: > "$d/refuse"
	grep -E "$objects" "$WORK/cases" > "$tmp/cases"
	total=$(wc -l < "$tmp/cases")
	case $set in
	btf2btf-all)
		while read -r name kind base; do
			[ -f "$WORK/ours/$name.BTF" ] || continue
			[ "$kind" != module-distill ] || base=$WORK/ours/$name.BTF.base
			echo "$name $WORK/ours/$name.BTF $base"
		done < "$tmp/cases" | fill "$d"
		label="btf2btf --features=all"
		;;
	btf2btf | adapter)
		features=()
		if [ "$set" = adapter ]; then
			# the adapter's own --features, read from it (no second copy to drift)
			f=$(grep -o -m1 -- '--features=[a-z_,]*' "$TOP/src/adapter/pahole.sh") ||
				die "no --features in src/adapter/pahole.sh"
			features=("$f")
		fi
		while read -r name kind base; do
			args=("${features[@]}")
			[ "$kind" = vmlinux ] || args+=(--btf-base "$base")
			[ "$kind" != module-distill ] || args+=(--distill-base)
			cp "$WORK/in/$name.o" "$tmp/$name.o"
			# an input btf2btf refuses (exit 1) is no object of the set
			"$BTF2BTF" -q "${args[@]}" --btf "$WORK/in/$name.BTF.1" -o "$tmp/$name.BTF" \
				"$tmp/$name.o" 2> "$tmp/$name.err" || {
				[ $? = 1 ] || die "btf2btf crashed on $name: $(cat "$tmp/$name.err")"
				continue
			}
			[ "$kind" != module-distill ] || base=$tmp/$name.BTF.base
			echo "$name $tmp/$name.BTF $base"
		done < "$tmp/cases" | fill "$d"
		label="btf2btf ${features[*]:-(default features)}"
		;;
	upstream)
		[ -x "${BTFCANON:-}" ] || die "BTFCANON (build/tests/btfcanon) not set or not built"
		while read -r name kind base; do
			f=$WORK/up/$name/$name.o.BTF
			[ -f "$f" ] || continue
			[ "$kind" != module-distill ] || base=$f.base
			echo "$name $f $base"
			# a decl tag past its FUNC's parameters: the kernel must refuse
			# it (no grep -q: under pipefail, btfcanon's SIGPIPE would count)
			canon_base=()
			[ "$base" = - ] || canon_base=(-b "$base")
			if "$BTFCANON" "${canon_base[@]}" "$f" | grep ' DANGLING$' > /dev/null; then
				echo "$name" >> "$d/refuse"
			fi
		done < "$tmp/cases" | fill "$d"
		label="7.3 resolve_btfids"
		;;
	*) die "unknown set $set" ;;
	esac
	n=$(find "$d" -name '*.btf' ! -name '*.in.btf' | wc -l)
	[ "$n" -gt 0 ] || die "set $set: no objects"
	echo "$label, $n of $total objects (the differential's fixtures and $KERNEL-valid random ones)" > "$d/label"
	printf '==> btf-accept: %s: %s objects, %s expected refused\n' \
		"$set" "$n" "$(wc -l < "$d/refuse")"
done
