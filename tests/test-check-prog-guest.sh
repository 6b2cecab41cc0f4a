#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# kernel/scripts/check-prog-guest.sh, the host's half of the guests'
# --check-prog agreement, without a guest: the PROGLOAD lines a guest's
# libbpf would print for the objects of tests/check-prog/ (clang) on a
# kernel made here (tests/check-prog/kvars.c as vmlinux, the fixtures'
# kfuncs.c as its module bpf_testmod.ko, gcc + pahole -J, as
# tests/test-check-prog.sh makes "kvmod"), written by hand from what libbpf
# does; then each kind of disagreement planted in them must fail the
# comparison, naming the object and the extern. Needs clang (CLANG),
# pahole, jq.
#
#   BTF2BTF=build/btf2btf tests/test-check-prog-guest.sh

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BTF2BTF=$(realpath "${BTF2BTF:-build/btf2btf}")
CLANG=${CLANG:-clang}
CHECK=$HERE/../kernel/scripts/check-prog-guest.sh
SUITE=check-prog-guest; . "$HERE/lib.sh"
needs "$CLANG" pahole jq gcc

K=$T/k C=$T/corpus
mkdir -p "$K" "$C/repo"
gcc -g -O1 -c "$HERE/check-prog/kvars.c" -o "$K/vmlinux" &&
LLVM_OBJCOPY=objcopy pahole -J "$K/vmlinux" &&
gcc -g -O1 -I"$HERE/../fixtures/include" -c "$HERE/../fixtures/src/kfuncs.c" -o "$K/bpf_testmod.ko" &&
LLVM_OBJCOPY=objcopy pahole -J --btf_base "$K/vmlinux" "$K/bpf_testmod.ko" ||
	{ echo "test-check-prog-guest: could not make the kernel" >&2; exit 1; }
for o in fwd guarded impl_forms old_shape vars var_type; do
	"$CLANG" -target bpf -O2 -g -Wall -Werror -c "$HERE/check-prog/$o.bpf.c" -o "$C/repo/$o.bpf.o" ||
		{ echo "test-check-prog-guest: clang failed on $o.bpf.c" >&2; exit 1; }
done

# What libbpf 1.8 says on this kernel (externs in its order, by name; a
# strong one it cannot resolve ends the load)
cat > "$T/agree.log" <<'EOF'
[    1.0] boot noise
PROGLOAD repo/fwd.bpf.o extern bpf_kfunc_plain_aux failed func_proto [3] incompatible with bpf_testmod [40]
PROGLOAD repo/fwd.bpf.o result extern bpf_kfunc_plain_aux
PROGLOAD repo/guarded.bpf.o extern bpf_kfunc_gone failed not found in kernel or module BTFs
PROGLOAD repo/guarded.bpf.o result extern bpf_kfunc_gone
PROGLOAD repo/impl_forms.bpf.o extern bpf_kfunc_implicit_arg_legacy_impl resolved bpf_testmod
PROGLOAD repo/impl_forms.bpf.o extern bpf_kfunc_implicit_arg_impl zero
PROGLOAD repo/impl_forms.bpf.o result loaded
PROGLOAD repo/old_shape.bpf.o extern bpf_kfunc_implicit_arg resolved bpf_testmod
PROGLOAD repo/old_shape.bpf.o extern bpf_kfunc_noflags resolved bpf_testmod
PROGLOAD repo/old_shape.bpf.o result verifier prog other R1 type=scalar expected=fp
PROGLOAD repo/var_type.bpf.o extern cpu_number failed incompatible types, expected [4] STRUCT x, but kernel has [2] INT int
PROGLOAD repo/var_type.bpf.o result extern cpu_number
PROGLOAD repo/vars.bpf.o extern bpf_kfunc_noflags resolved bpf_testmod
PROGLOAD repo/vars.bpf.o extern cpu_number resolved btf
PROGLOAD repo/vars.bpf.o extern runqueues resolved btf
PROGLOAD repo/vars.bpf.o extern no_such_var zero
PROGLOAD repo/vars.bpf.o result loaded
EOF
# run NAME LOG: the comparison's output in NAME.out, its status in $rc
run() {
	rc=0
	"$CHECK" "$BTF2BTF" kvmod "$2" "$C" "$K/vmlinux" "$K/bpf_testmod.ko" > "$T/$1.out" 2>&1 || rc=$?
}
run agree "$T/agree.log"
expect "libbpf's verdicts: exit 0" 0 "$rc"
expect "a PASS line per object" 6 "$(grep -c '^PASS check-prog-guest kvmod repo/' "$T/agree.out")"
expect "the summary counts objects and externs" \
	"check-prog-guest kvmod: 6 objects (0 libbpf cannot open or stops before the ksyms): object verdicts 6 equal to libbpf's, 0 known disagreements, 0 unexplained; externs 11 of 11 equal (0 in known disagreements, 0 unexplained; 4 past the one libbpf stopped at, 1 untyped)" \
	"$(tail -1 "$T/agree.out")"
# 1.1.2 names no module ("resolved to kernel [N]"): taken as check-prog's place
sed 's/resolved bpf_testmod$/resolved kernel/' "$T/agree.log" > "$T/libbpf-1.1.log"
run libbpf-1.1 "$T/libbpf-1.1.log"
expect "libbpf 1.1.2's \"resolved to kernel\": exit 0" 0 "$rc"

# plant DESC SED-EXPRESSION WANT: the agreeing log edited by SED-EXPRESSION
# must fail, with a FAIL line holding WANT
plant() {
	sed "$2" "$T/agree.log" > "$T/planted.log"
	run planted "$T/planted.log"
	expect "$1: exit 1" 1 "$rc"
	expect "$1: the FAIL line says so" 1 \
		"$(grep '^FAIL ' "$T/planted.out" | grep -cF -- "$3")"
}
plant "a load libbpf stops at another extern" \
	's/^\(PROGLOAD repo\/guarded.bpf.o\) \(.*\)bpf_kfunc_gone/\1 \2bpf_kfunc_noflags___v2/' \
	"repo/guarded.bpf.o: libbpf: extern bpf_kfunc_noflags___v2;"
plant "an object libbpf loads and check-prog fails" \
	'/fwd.bpf.o extern/d; s/^PROGLOAD repo\/fwd.bpf.o result .*/PROGLOAD repo\/fwd.bpf.o result loaded/' \
	"libbpf loads it, check-prog: extern (func ksym) 'bpf_kfunc_plain_aux'"
plant "a weak extern libbpf resolves and check-prog leaves at 0" \
	's/bpf_kfunc_implicit_arg_impl zero/bpf_kfunc_implicit_arg_impl resolved bpf_testmod/' \
	"bpf_kfunc_implicit_arg_impl: check-prog zero (missing), libbpf resolved bpf_testmod"
plant "a kfunc resolved in another BTF" \
	's/old_shape.bpf.o extern bpf_kfunc_noflags resolved bpf_testmod/old_shape.bpf.o extern bpf_kfunc_noflags resolved vmlinux/' \
	"bpf_kfunc_noflags: check-prog resolved bpf_testmod (ok), libbpf resolved vmlinux"
plant "an extern libbpf says nothing about" \
	'/vars.bpf.o extern runqueues/d' \
	"runqueues: check-prog resolved vmlinux (ok), libbpf silent (no message)"
plant "a kfunc call the verifier refuses, check-prog takes" \
	's/result verifier prog other .*/result verifier prog kfunc bpf_kfunc_noflags cannot find address for kernel function bpf_kfunc_noflags/' \
	"the verifier refuses the call of bpf_kfunc_noflags (prog prog: cannot find address for kernel function bpf_kfunc_noflags), check-prog: ok"
plant "libbpf's unresolved weak kfunc, check-prog resolves" \
	"s/result verifier prog other .*/result verifier prog weak bpf_kfunc_noflags kfunc 'bpf_kfunc_noflags' is referenced but wasn't resolved/" \
	"libbpf left bpf_kfunc_noflags at 0 (prog prog calls it), check-prog: ok"
plant "the verifier reached, check-prog stops at an extern" \
	's/^PROGLOAD repo\/guarded.bpf.o result .*/PROGLOAD repo\/guarded.bpf.o result verifier prog other R0 !read_ok/' \
	"libbpf got past the externs (verifier, prog prog), check-prog: extern (func ksym) 'bpf_kfunc_gone'"

# the known disagreements: a kfunc set of other program types ...
sed 's/result verifier prog other .*/result verifier prog kfunc bpf_kfunc_noflags calling kernel function bpf_kfunc_noflags is not allowed/' \
	"$T/agree.log" > "$T/progtype.log"
run progtype "$T/progtype.log"
expect "a kfunc of another program type: exit 0, an INFO line" "0 1" \
	"$rc $(grep -c "^INFO check-prog-guest kvmod repo/old_shape.bpf.o: known disagreement: the verifier refuses the call of bpf_kfunc_noflags in prog prog (calling kernel function bpf_kfunc_noflags is not allowed), check-prog: ok: the kfunc's set is registered for other program types" "$T/progtype.out")"
# ... and libbpf 1.1.2 on a weak kfunc whose prototype does not match
cat > "$T/weak_mismatch.bpf.c" <<'EOF'
#include "common.h"

extern int bpf_kfunc_plain_aux(int a, struct bpf_prog_aux *aux, int extra) __weak __ksym;

SEC("syscall") int prog(void *ctx)
{
	return bpf_kfunc_plain_aux ? bpf_kfunc_plain_aux(1, 0, 2) : 0;
}

char _license[] SEC("license") = "GPL";
EOF
"$CLANG" -target bpf -O2 -g -Wall -Werror -I"$HERE/check-prog" -c "$T/weak_mismatch.bpf.c" \
	-o "$C/repo/weak_mismatch.bpf.o" || { echo "test-check-prog-guest: clang failed" >&2; exit 1; }
# weak LIBBPF: the log of libbpf 1.1.2's failure, as if LIBBPF said so
weak() {
	cat "$T/agree.log"
	printf 'PASS progload: 7 objects under /progmode loaded by libbpf %s in 0.1 s\n' "$1"
	printf 'PROGLOAD repo/weak_mismatch.bpf.o extern bpf_kfunc_plain_aux failed func_proto [3] incompatible with kernel [40]\n'
	printf 'PROGLOAD repo/weak_mismatch.bpf.o result extern bpf_kfunc_plain_aux\n'
}
weak 1.1 > "$T/weak.log"
run weak "$T/weak.log"
expect "libbpf 1.1 fails a weak kfunc that does not match: exit 0, an INFO line" "0 1" \
	"$rc $(grep -c "^INFO check-prog-guest kvmod repo/weak_mismatch.bpf.o: known disagreement: bpf_kfunc_plain_aux: check-prog zero (incompatible), libbpf 1.1 failed incompatible: libbpf 1.1 fails a weak kfunc" "$T/weak.out")"
weak 1.8 > "$T/weak.log"
run weak "$T/weak.log"
expect "libbpf 1.8 failing it would be a disagreement: exit 1" "1 1" \
	"$rc $(grep -c "^FAIL check-prog-guest kvmod repo/weak_mismatch.bpf.o: .*libbpf stops at extern bpf_kfunc_plain_aux, check-prog: loads" "$T/weak.out")"
rm "$C/repo/weak_mismatch.bpf.o"

# ... and libbpf 1.1.2 on a flavoured kfunc name (bpf_kfunc_noflags___v2)
printf '#include "common.h"\n\nextern long bpf_kfunc_noflags___v2(long a) __weak __ksym;\n\nSEC("syscall") int prog(void *ctx)\n{\n\treturn bpf_kfunc_noflags___v2 ? bpf_kfunc_noflags___v2(1) : 0;\n}\n\nchar _license[] SEC("license") = "GPL";\n' \
	> "$T/flavour.bpf.c"
"$CLANG" -target bpf -O2 -g -Wall -Werror -I"$HERE/check-prog" -c "$T/flavour.bpf.c" \
	-o "$C/repo/flavour.bpf.o" || { echo "test-check-prog-guest: clang failed" >&2; exit 1; }
for v in 1.1 1.8; do
	{ cat "$T/agree.log"
	  printf 'PASS progload: 7 objects under /progmode loaded by libbpf %s in 0.1 s\n' $v
	  printf 'PROGLOAD repo/flavour.bpf.o extern bpf_kfunc_noflags___v2 zero\n'
	  printf 'PROGLOAD repo/flavour.bpf.o result loaded\n'; } > "$T/flavour.log"
	run flavour "$T/flavour.log"
	printf '%s %s\n' "$rc" "$(grep -c "check-prog-guest kvmod repo/flavour.bpf.o: .*bpf_kfunc_noflags___v2: check-prog resolved bpf_testmod (ok), libbpf.* zero" "$T/flavour.out")" > "$T/flavour.$v"
done
expect "libbpf 1.1 does not drop a ___flavour suffix: exit 0 (INFO); from 1.8, exit 1" "0 1, 1 1" \
	"$(cat "$T/flavour.1.1"), $(cat "$T/flavour.1.8")"
rm "$C/repo/flavour.bpf.o"

# an object libbpf cannot open is not judged, and said

sed 's/^PROGLOAD repo\/fwd.bpf.o .*//; $a PROGLOAD repo/fwd.bpf.o result open 22 elf: legacy map definitions are deprecated' \
	"$T/agree.log" > "$T/open.log"
run open "$T/open.log"
expect "an object libbpf cannot open: exit 0" 0 "$rc"
expect "an object libbpf cannot open: an INFO line" 1 \
	"$(grep -c '^INFO check-prog-guest kvmod repo/fwd.bpf.o: libbpf cannot open it (22 elf: legacy' "$T/open.out")"
# ... or fails before it looks at any ksym (a __kconfig extern, no kernel configuration)
sed '/vars.bpf.o extern/d; s/^PROGLOAD repo\/vars.bpf.o result .*/PROGLOAD repo\/vars.bpf.o result error 22 failed to open system Kconfig/' \
	"$T/agree.log" > "$T/kconfig.log"
run kconfig "$T/kconfig.log"
expect "libbpf stops before the ksyms: exit 0, an INFO line" "0 1" \
	"$rc $(grep -c '^INFO check-prog-guest kvmod repo/vars.bpf.o: libbpf fails before it looks at a ksym (22 failed to open system Kconfig): not judged' "$T/kconfig.out")"
# a guest that ran no progload
printf 'PASS something\n' > "$T/none.log"
run none "$T/none.log"
expect "no PROGLOAD line: exit 1, said" "1 1" "$rc $(grep -c 'no PROGLOAD result line' "$T/none.out")"
# without the module, libbpf's bpf_testmod kfuncs are check-prog's missing ones
rc=0
"$CHECK" "$BTF2BTF" kv "$T/agree.log" "$C" "$K/vmlinux" > "$T/nomod.out" 2>&1 || rc=$?
expect "without the module: exit 1" 1 "$rc"
expect "without the module: old_shape's kfunc is missing" 1 \
	"$(grep -c "^FAIL check-prog-guest kv repo/old_shape.bpf.o: .*bpf_kfunc_implicit_arg: check-prog failed missing (missing), libbpf resolved bpf_testmod" "$T/nomod.out")"

summary
