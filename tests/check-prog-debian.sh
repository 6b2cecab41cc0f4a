#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# btf2btf --check-prog on Debian's own kernels (bookworm 6.1, trixie 6.12,
# sid 7.2, trixie-backports 7.3, as tests/corpus-debian.sh fetches them
# into CACHE): BPF objects compiled here by clang against the vmlinux.h
# bpftool dumps from Debian's 6.12 (objects "built against 6.12's headers"):
# the repo's 6.12 guest programs (kernel/guest/6.12/progs, but wq_legacy,
# which needs the stock tree's bpf_experimental.h) and
# tests/check-prog/debian/*.bpf.c. Each object's table over the four
# kernels is printed; the run must exit 0 or 1 (never crash), and what
# Debian's kernels are known to have is checked: bpf_wq_set_callback is
# missing on 6.1 and 6.12 (whose BTF has only the legacy
# bpf_wq_set_callback_impl, named by the hint) and there on 7.3;
# bpf_obj_new (KF_IMPLICIT_ARGS, the 2026-03 change) missing on 6.12 and
# there on 7.3 beside the legacy bpf_obj_new_impl.
#
#   tests/check-prog-debian.sh BTF2BTF CACHE     (CLANG, default clang; needs bpftool, jq)

set -uo pipefail
die() { printf 'check-prog-debian: error: %s\n' "$*" >&2; exit 1; }
[ $# = 2 ] || die "usage: $0 BTF2BTF CACHE"
B=$(realpath "$1") CACHE=$2
HERE=$(cd "$(dirname "$0")/.." && pwd)
CLANG=${CLANG:-clang}
SUITE=check-prog-debian; . "$HERE/tests/lib.sh"
needs "$CLANG" bpftool jq
tmp=$T

# the newest cloud kernel of each suite, as corpus-debian.sh leaves it
kernels=()
for s in bookworm:6.1 trixie:6.12 sid:7.2 trixie-backports:7.3; do
	v=$(ls -d "$CACHE/${s%%:*}"/cloud-amd64/*/ 2> /dev/null | sort -V | tail -1)
	[ -n "$v" ] && [ -f "$v/vmlinux" ] ||
		die "no ${s%%:*} kernel in $CACHE (make corpus-debian fetches them)"
	kernels+=("${s#*:}=${v}vmlinux")
done
k612=${kernels[1]#*=}

bpftool btf dump file "$k612" format c > "$tmp/vmlinux.h" 2> "$tmp/bpftool.err"
grep -q 'struct bpf_wq {' "$tmp/vmlinux.h" || die "bpftool could not dump $k612: $(head -2 "$tmp/bpftool.err")"
objs=()
for src in "$HERE"/kernel/guest/6.12/progs/*.bpf.c "$HERE"/tests/check-prog/debian/*.bpf.c; do
	[ "$(basename "$src")" = wq_legacy.bpf.c ] && continue
	o=$tmp/$(basename "${src%.c}").o
	"$CLANG" -target bpf -D__TARGET_ARCH_x86 -O2 -g -I"$tmp" -I"$(dirname "$src")" -c "$src" \
		-o "$o" 2> "$o.err" || die "clang failed on $src: $(head -3 "$o.err")"
	objs+=("$o")
done
echo "check-prog-debian: ${#objs[@]} objects (against Debian 6.12's vmlinux.h) on ${kernels[*]}"

# the tables
(cd "$tmp" && "$B" --check-prog "${objs[@]##*/}" "${kernels[@]}") > "$tmp/text" 2> "$tmp/text.err"
rc=$?
sed 's/^/    /' "$tmp/text"
[ $rc -le 1 ] && ! grep -q 'AddressSanitizer\|runtime error:' "$tmp/text.err"
expect "the text run exits 0 or 1 and says nothing on stderr" "0 " "$? $(cat "$tmp/text.err")"
"$B" --check-prog -j "${objs[@]}" "${kernels[@]}" > "$tmp/json" 2> "$tmp/json.err"
expect "-j: the same exit status" "$rc" "$?"
expect "-j: one document, with ok" "1 true" \
	"$(jq -s length "$tmp/json") $(jq 'has("ok")' "$tmp/json")"

# cell OBJECT EXTERN KERNEL [FIELD]
cell() {
	jq -r --arg o "$1" --arg e "$2" --arg k "$3" --arg f "${4:-verdict}" \
		'.objects[] | select(.file | endswith("/" + $o)) | .externs[] |
		 select(.name == $e) | .on[] | select(.kernel == $k) | .[$f] | tostring' "$tmp/json"
}
expect "wq: bpf_wq_set_callback on 6.1, 6.12, 7.3" "missing missing ok" \
	"$(cell wq.bpf.o bpf_wq_set_callback 6.1) $(cell wq.bpf.o bpf_wq_set_callback 6.12) $(cell wq.bpf.o bpf_wq_set_callback 7.3)"
case $(cell wq.bpf.o bpf_wq_set_callback 6.12 hint) in
"the kernel has its legacy form bpf_wq_set_callback_impl: "*) expect "wq: 6.12's hint names the legacy form" ok ok ;;
*) expect "wq: 6.12's hint names the legacy form" "bpf_wq_set_callback_impl" "$(cell wq.bpf.o bpf_wq_set_callback 6.12 hint)" ;;
esac
expect "obj_new: bpf_obj_new on 6.12, 7.3" "missing ok" \
	"$(cell obj_new.bpf.o bpf_obj_new 6.12) $(cell obj_new.bpf.o bpf_obj_new 7.3)"
expect "obj_new: bpf_obj_new_impl on 6.12, 7.3 (kept beside bpf_obj_new)" "ok ok_legacy" \
	"$(cell obj_new.bpf.o bpf_obj_new_impl 6.12) $(cell obj_new.bpf.o bpf_obj_new_impl 7.3)"
loads() {
	jq -r --arg o "$1" --arg k "$2" '.objects[] | select(.file | endswith("/" + $o)) |
		.kernels[] | select(.kernel == $k) | .loads | tostring' "$tmp/json"
}
expect "obj_new: loads on 7.3, not on 6.12" "true false" "$(loads obj_new.bpf.o 7.3) $(loads obj_new.bpf.o 6.12)"
summary
