#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The differential's self-check: upstream's resolve_btfids behind btf2btf's
# command line (the subset run.sh uses), so that run.sh compares upstream
# with itself and must find every object the same and byte-identical.
#   ORACLE=RESOLVE_BTFIDS upstream-as-btf2btf.sh --features=all [--btf-base B]
#       [--distill-base] --btf X.BTF.1 -o OUT X
set -eu
args=() out= btf= obj=
while [ $# -gt 0 ]; do
	case $1 in
	--features=*) shift ;;
	--help) exit 0 ;;
	--btf-base) args+=(--btf_base "$2"); shift 2 ;;
	--distill-base) args+=(--distill_base); shift ;;
	--btf) btf=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	*) obj=$1; shift ;;
	esac
done
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp "$obj" "$d/x.o"
# btf2btf refuses with exit 1, whatever upstream's own code
"$ORACLE" "${args[@]}" --btf "$btf" "$d/x.o" || exit 1
cp "$d/x.o.BTF" "$out"
[ ! -f "$d/x.o.BTF.base" ] || cp "$d/x.o.BTF.base" "$out.base"
