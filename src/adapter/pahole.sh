#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Kbuild adapter for Linux 7.0-7.2 built with pahole older than 1.27:
#
#   make PAHOLE=/usr/lib/btf2btf/pahole
#
# Those kernels' resolve_btfids finds kfuncs only through the "bpf_kfunc"
# decl tags that pahole emits from 1.27 on (decl_tag_kfuncs); with an older
# pahole every KF_IMPLICIT_ARGS kfunc keeps its full prototype and BPF
# programs calling it fail to load. This adapter runs the real pahole with
# its arguments unchanged and then, on the detached BTF that scripts/gen-btf.sh
# asks for (-J --btf_encode_detached=X.BTF.1 [--btf_base B] X), runs btf2btf,
# which finds the kfuncs from the set8s in X's .BTF_ids: <kfunc>_impl FUNCs,
# the reduced prototypes, "bpf_fastcall" tags and arena attributes.
#
# It adds no "bpf_kfunc" tags: 7.2's resolve_btfids, which runs next on the
# same file, acts on the tagged KF_IMPLICIT_ARGS kfuncs in a way that reads
# freed memory (main.c, process_kfunc_with_implicit_args); untagged, its
# phase does nothing. See docs/kernel-integration.md, "Kernels 7.0-7.2 with pahole older than
# 1.27".
#
# Every other call (--version, which Kbuild turns into CONFIG_PAHOLE_VERSION,
# the BTF encoding of kernels before 7.0, which write no detached file) is
# the real pahole's, untouched. So are kernels from 7.3 on (their
# resolve_btfids reads the set8s itself; Kbuild exports VERSION and
# PATCHLEVEL) and a pahole from 1.27 on (it emits the tags itself).
#
# Environment: BTF2BTF_PAHOLE (the real pahole; default: the first pahole in
# PATH that is not this script), BTF2BTF (the btf2btf binary). A wrong one
# is a one-line error naming the variable.
#
# `make` builds it as build/lib/btf2btf/pahole, the place `make install`
# gives it under PREFIX: never as build/pahole, where putting build/ on PATH
# (for btf2btf) would make it every pahole of the machine.

set -eu

ME=btf2btf-pahole

die() { printf '%s: error: %s\n' "$ME" "$*" >&2; exit 1; }

self=$(readlink -f "$0")

# A variable the user set names what it names: anything else is one line
# naming the variable, not a shell's "not found" (exit 127) from deep in a
# kernel build.
from_variable() {	# VAR VALUE WHAT
	p=$(command -v -- "$2" 2>/dev/null) && [ -f "$p" ] && [ -x "$p" ] ||
		die "$1=$2: no such executable ($3)"
	[ "$(readlink -f "$p")" != "$self" ] ||
		die "$1=$2 is this adapter, not $3"
	printf '%s\n' "$p"
}

real_pahole() {
	if [ -n "${BTF2BTF_PAHOLE:-}" ]; then
		from_variable BTF2BTF_PAHOLE "$BTF2BTF_PAHOLE" "the real pahole"
		return
	fi
	# masquerade: this script may itself be "pahole" in a PATH directory
	old_ifs=$IFS
	IFS=:
	for d in $PATH; do
		[ -n "$d" ] && [ -x "$d/pahole" ] || continue
		[ "$(readlink -f "$d/pahole")" != "$self" ] || continue
		IFS=$old_ifs
		printf '%s\n' "$d/pahole"
		return
	done
	IFS=$old_ifs
	die "no pahole in PATH but this adapter (set BTF2BTF_PAHOLE)"
}

if [ -n "${BTF2BTF:-}" ]; then
	BTF2BTF=$(from_variable BTF2BTF "$BTF2BTF" "the btf2btf binary")
else
	BTF2BTF=@BTF2BTF@
fi
PAHOLE_REAL=$(real_pahole)

# What was asked: -J with a detached BTF file, the base, the object (last
# argument that is not an option or an option's value).
encode=0 detached='' base='' obj='' want_value=''
for a in "$@"; do
	if [ -n "$want_value" ]; then
		[ "$want_value" != base ] || base=$a
		[ "$want_value" != detached ] || detached=$a
		want_value=
		continue
	fi
	case $a in
	-J|--btf_encode) encode=1 ;;
	--btf_encode_detached=*) encode=1; detached=${a#*=} ;;
	--btf_encode_detached) encode=1; want_value=detached ;;
	--btf_base=*) base=${a#*=} ;;
	--btf_base) want_value=base ;;
	-*) ;;
	*) obj=$a ;;
	esac
done

if [ "$encode" = 0 ] || [ -z "$detached" ] || [ -z "$obj" ]; then
	exec "$PAHOLE_REAL" "$@"
fi

# kernels from 7.3 on transform in their own resolve_btfids
if [ -n "${VERSION:-}" ] && [ -n "${PATCHLEVEL:-}" ] &&
   [ $((VERSION * 1000 + PATCHLEVEL)) -ge 7003 ]; then
	exec "$PAHOLE_REAL" "$@"
fi

"$PAHOLE_REAL" "$@" || exit $?

# "v1.24" -> 124
ver=$("$PAHOLE_REAL" --version) || die "$PAHOLE_REAL --version failed"
ver=$(printf '%s\n' "$ver" | sed -n 's/^v\([0-9]*\)\.\([0-9]*\).*/\1\2/p')
[ -n "$ver" ] || die "cannot read the version of $PAHOLE_REAL"
[ "$ver" -lt 127 ] || exit 0

[ -x "$BTF2BTF" ] || die "btf2btf not found at $BTF2BTF (set BTF2BTF)"
# its warnings (a dropped parameter, a kfunc without its implicit argument)
# go to the build log on stderr, each once; its summary line would be noise
"$BTF2BTF" --features=implicit_args,fastcall_tags,arena_attrs \
	${base:+--btf-base "$base"} --btf "$detached" "$obj" > /dev/null ||
	die "btf2btf failed on $detached (BTF of $obj); the build stops here"
