#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# btf2btf --kfuncs --format=c on the fixtures: the header compiles with
# clang -target bpf next to bpftool's vmlinux.h of the same BTF (included
# before or after it, or alone), next to a vmlinux.h that already has
# bpftool >= 7.5's kfunc externs (this bpftool's own, which must be
# btf2btf's declarations, when it is >= 7.5; else the block
# tests/kfunc-externs.c writes: Debian 12's bpftool 7.1 writes none), with
# BPF_NO_KFUNC_PROTOTYPES, and
# next to hand-written externs of the same prototype; a hand-written extern
# of another prototype must not compile with it (the check can fail).
# KF_IMPLICIT_ARGS kfuncs are declared with the reduced prototype (also in
# the BTF of the compiled program), __bpf_fastcall and address_space(1)
# where the kernel has them. Needs clang (CLANG, default clang) and bpftool.
#
#   BTF2BTF=build/btf2btf MKFIXTURE=build/fixtures/mkfixture \
#   FIXTURE_DIR=build/fixtures KFUNC_EXTERNS=build/tests/kfunc-externs \
#   tests/test-kfunc-decl.sh

set -u
BTF2BTF=$(realpath "${BTF2BTF:-build/btf2btf}")
MKFIXTURE=$(realpath "${MKFIXTURE:-build/fixtures/mkfixture}")
FIXTURE_DIR=$(realpath "${FIXTURE_DIR:-build/fixtures}")
KFUNC_EXTERNS=$(realpath "${KFUNC_EXTERNS:-build/tests/kfunc-externs}")
CLANG=${CLANG:-clang}
SUITE=kfunc-decl; . "$(dirname "$0")/lib.sh"
needs "$CLANG" bpftool

# to FILE CMD...: CMD's standard output into FILE
to() { local f=$1; shift; "$@" > "$f"; }

# cc DIR NAME PROGRAM-TEXT: compile DIR/NAME.c as a BPF object, warnings are errors
cc() {
	printf '%s\n' "$3" > "$1/$2.c"
	"$CLANG" -target bpf -O2 -g -Wall -Werror -c "$1/$2.c" -o "$1/$2.o" 2> "$1/$2.err"
}
cc_ok() { cc "$@" || { sed 's/^/    /' "$1/$2.err"; return 1; }; }
# number of parameters of extern FUNC $2 in the BTF of BPF object $1
nparams() {
	local id
	bpftool btf dump file "$1" > "$1.dump" 2>&1
	id=$(sed -n "s/^\[[0-9]*\] FUNC '$2' type_id=\([0-9]*\) linkage=extern$/\1/p" "$1.dump")
	[ -n "$id" ] || { echo none; return; }
	sed -n "s/^\[$id\] FUNC_PROTO .* vlen=\([0-9]*\)$/\1/p" "$1.dump"
}
has_line() { grep -qxF -- "$2" "$1" || { echo "    not in $1: $2"; return 1; }; }
# the extern lines of bpftool's vmlinux.h $1 are those of btf2btf's header
# $2, in what this bpftool can spell (measured: trixie's bpftool 7.5 with
# libbpf 1.5 prints 7.3's arena type attribute as the type tag it is in the
# BTF, btf_type_tag("X") for X, and without a __bpf_fastcall macro in
# vmlinux.h writes no __bpf_fastcall; forky's 7.8 with libbpf 1.8 writes
# both as btf2btf does)
cmp_externs() {
	local fastcall=
	grep -q '^#define __bpf_fastcall' "$1" || fastcall='s/^extern __bpf_fastcall /extern /'
	grep '^extern ' "$1" | sed 's/__attribute__((btf_type_tag("\(address_space([0-9]*)\)")))/__attribute__((\1))/g' |
		sort > "$1.ext"
	grep '^extern ' "$2" | sed "$fastcall" | sort > "$2.ext"
	grep -q 'btf_type_tag("address_space' "$1" &&
		echo "    bpftool writes address_space(1) as btf_type_tag(\"address_space(1)\") (an older libbpf)"
	[ -z "$fastcall" ] || echo "    bpftool writes no __bpf_fastcall (an older bpftool): compared without it"
	diff "$1.ext" "$2.ext" | sed 's/^/    /'
	[ "${PIPESTATUS[0]}" = 0 ]
}

# vmlinux.h with bpftool >= 7.5's kfunc block, from the BTF with the tags a
# 7.3 kernel has (bpf_kfunc, bpf_fastcall, reduced prototypes): the one the
# bpftool here writes when it is >= 7.5, of the BTF with 7.3's arena
# attributes too (its externs are then btf2btf's declarations, a check);
# else bpftool's types with the block kfunc-externs.c writes (with Debian
# 12's libbpf, which prints no arena attribute)
vmlinux_with_externs() {
	local d=$1 obj=$2
	shift 2
	"$BTF2BTF" -q --features=implicit_args,kfunc_tags,fastcall_tags,arena_attrs "$@" \
		-o "$d/tagged-arena.btf" "$obj" ||
		{ echo "    could not transform $obj"; return 1; }
	if bpftool btf dump file "$d/tagged-arena.btf" "$@" format c > "$d/vmlinux-arena.h" 2> /dev/null &&
	   grep -q '__weak __ksym;$' "$d/vmlinux-arena.h"; then
		check "$fx: bpftool's own kfunc externs of the transformed BTF are btf2btf's" \
			cmp_externs "$d/vmlinux-arena.h" "$d/kfuncs.h"
		cp "$d/vmlinux-arena.h" "$d/with-externs/vmlinux.h"
		return
	fi
	"$BTF2BTF" -q --features=implicit_args,kfunc_tags,fastcall_tags "$@" -o "$d/tagged.btf" "$obj" &&
	bpftool btf dump file "$d/tagged.btf" "$@" format c > "$d/vmlinux-bpftool.h" ||
		{ echo "    could not make $d/vmlinux.h with externs"; return 1; }
	"$KFUNC_EXTERNS" "$d/tagged.btf" ${2:+"$2"} > "$d/externs.h" 2>&1 ||
		{ echo "    could not make $d/vmlinux.h with externs"; return 1; }
	# at the end of the types, where bpftool puts it
	awk -v block="$d/externs.h" '/^#ifndef BPF_NO_PRESERVE_ACCESS_INDEX$/ { n++ }
		n == 2 && !done { while ((getline l < block) > 0) print l; done = 1 } { print }' \
		"$d/vmlinux-bpftool.h" > "$d/with-externs/vmlinux.h"
	grep -q '__weak __ksym;$' "$d/with-externs/vmlinux.h"
}

# what a program has from bpf_helpers.h before its own externs (the
# fixtures' vmlinux.h has no __u64 for the real one)
HELPERS='#define __ksym __attribute__((section(".ksyms")))
#define __weak __attribute__((weak))'

"$MKFIXTURE" features-zoo "$T/zoo.o" > /dev/null || { echo "test-kfunc-decl: mkfixture failed" >&2; exit 1; }

# fixture: name, object, base (or ""), a program calling some of its kfuncs,
# a hand-written extern of one of them (the BPF prototype), one of the
# kernel prototype of a KF_IMPLICIT_ARGS kfunc (must conflict)
run_fixture() {
	local fx=$1 obj=$2 base=$3 body=$4 hand=$5 wrong=$6 d=$T/$1 bargs=() v guard
	[ -z "$base" ] || bargs=(-B "$base")
	mkdir -p "$d/with-externs"
	check "$fx: --kfuncs --format=c exits 0" \
		to "$d/kfuncs.h" "$BTF2BTF" --kfuncs --format=c "${bargs[@]}" "$obj"
	"$BTF2BTF" --kfuncs --format=c "${bargs[@]}" "$obj" 2> /dev/null | cmp -s - "$d/kfuncs.h" &&
		ok "$fx: the same header twice" || ko "$fx: the same header twice"
	bpftool btf dump file "$obj" "${bargs[@]}" format c > "$d/vmlinux.h" 2>&1
	grep -q '^#define __VMLINUX_H__' "$d/vmlinux.h" || { ko "$fx: bpftool dump"; return; }
	cp "$d/kfuncs.h" "$d/with-externs/"
	# bpftool >= 7.5 declares the kfuncs of BTF with bpf_kfunc tags (clang
	# puts them in its fixture): here with this untransformed object's
	# kernel prototypes, which a running 7.3 kernel's BTF does not have (a
	# transformed BTF's vmlinux.h, checked below, declares what btf2btf
	# does). A program with other declarations turns them off with
	# bpftool's guard, BPF_NO_KFUNC_PROTOTYPES.
	guard=
	if grep -q '__weak __ksym;$' "$d/vmlinux.h"; then
		guard='#define BPF_NO_KFUNC_PROTOTYPES'
		echo "    $fx: bpftool's vmlinux.h of the untransformed object declares its kfuncs: $guard"
	fi
	check "$fx: after bpftool's vmlinux.h" cc_ok "$d" after \
		"$guard
#include \"vmlinux.h\"
#include \"kfuncs.h\"
$body"
	for v in bpf_kfunc_implicit_arg bpf_fc; do
		grep -q " $v(" "$d/kfuncs.h" || continue
		n=$(nparams "$d/after.o" "$v")
		check "$fx: $v is a 1-parameter extern in the program's BTF ($n)" test "$n" = 1
	done
	check "$fx: before bpftool's vmlinux.h" cc_ok "$d" before \
		"$guard
#include \"kfuncs.h\"
#include \"vmlinux.h\"
$body"
	check "$fx: alone" cc_ok "$d" alone "#include \"kfuncs.h\"
$body"
	check "$fx: hand-written extern of the same prototype" cc_ok "$d" hand \
		"$guard
#include \"vmlinux.h\"
$HELPERS
$hand
#include \"kfuncs.h\"
$body"
	if [ -n "$wrong" ]; then
		if cc "$d" wrong "$guard
#include \"vmlinux.h\"
$HELPERS
$wrong
#include \"kfuncs.h\"
$body"; then
			ko "$fx: a hand-written extern of the kernel prototype compiles with it"
		else
			check "$fx: a hand-written extern of the kernel prototype conflicts" \
				grep -q 'conflicting types' "$d/wrong.err"
		fi
	fi
	# a vmlinux.h of the same BTF with bpftool >= 7.5's externs
	if vmlinux_with_externs "$d" "$obj" "${bargs[@]}"; then
		check "$fx: BPF_NO_KFUNC_PROTOTYPES + vmlinux.h with externs" cc_ok "$d/with-externs" guard \
			"#define BPF_NO_KFUNC_PROTOTYPES
#include \"vmlinux.h\"
#include \"kfuncs.h\"
$body"
		if [ "$fx" != zoo ]; then	# zoo: arena, see below
			check "$fx: after vmlinux.h with externs" cc_ok "$d/with-externs" after \
				"#include \"vmlinux.h\"
#include \"kfuncs.h\"
$body"
			check "$fx: before vmlinux.h with externs" cc_ok "$d/with-externs" before \
				"#include \"kfuncs.h\"
#include \"vmlinux.h\"
$body"
		fi
	else
		ko "$fx: vmlinux.h with externs"
	fi
	# --vmlinux-h: the types from the named vmlinux.h
	check "$fx: --vmlinux-h exits 0" to "$d/kfuncs-vh.h" "$BTF2BTF" --kfuncs --format=c \
		--vmlinux-h "$d/vmlinux.h" "${bargs[@]}" "$obj"
	check "$fx: --vmlinux-h includes it" grep -qx '#include "vmlinux.h"' "$d/kfuncs-vh.h"
	check "$fx: --vmlinux-h defines no typedef itself" \
		test "$(grep -c '^typedef' "$d/kfuncs-vh.h")" = 0
	cp "$d/kfuncs-vh.h" "$d/kfuncs.h.vh"
	check "$fx: --vmlinux-h header alone" cc_ok "$d" vh "$guard
#include \"kfuncs.h.vh\"
$body"
}

run_fixture gcc "$FIXTURE_DIR/kfuncs.gcc.o" "" \
	'__attribute__((section("syscall"))) int prog(void *ctx)
{ return bpf_kfunc_implicit_arg(5) + bpf_kfunc_implicit_arg_legacy(1, 2) +
	 bpf_kfunc_implicit_arg_legacy_impl(1, 2, (void *)0) + bpf_kfunc_implicit_mid(3) +
	 (bpf_kfunc_implicit_typedef(ctx, (bpf_prog_aux_t *)0) != 0); }' \
	'extern int bpf_kfunc_implicit_arg(int a) __ksym;' \
	'extern int bpf_kfunc_implicit_arg(int a, struct bpf_prog_aux *aux) __ksym;'
run_fixture clang "$FIXTURE_DIR/kfuncs.clang.o" "" \
	'__attribute__((section("syscall"))) int prog(void *ctx)
{ return bpf_kfunc_implicit_arg(5) + bpf_kfunc_noflags(2); }' \
	'extern int bpf_kfunc_noflags(int a) __weak __ksym;' \
	'extern int bpf_kfunc_implicit_arg_legacy(int a, int b, struct bpf_prog_aux *aux) __ksym;'
run_fixture split "$FIXTURE_DIR/split.o.ko" "$FIXTURE_DIR/split.o" \
	'__attribute__((section("syscall"))) int prog(void *ctx)
{ return bpf_kfunc_implicit_arg(5) + bpf_testmod_plain(1); }' \
	'extern int bpf_testmod_plain(int a0) __ksym;' \
	'extern int bpf_kfunc_implicit_arg(int a0, struct bpf_prog_aux *a1) __ksym;'
run_fixture zoo "$T/zoo.o" "" \
	'__attribute__((section("syscall"))) int prog(void *ctx)
{ return bpf_fc(1) + bpf_fc_miss(2) + (bpf_ar((void __attribute__((address_space(1))) *)0, 0) != 0); }' \
	'extern int bpf_fc_miss(int a0) __ksym;' \
	'extern int bpf_fc(int a0, struct bpf_prog_aux *a1) __ksym;'

# what is declared, and how
check "KF_IMPLICIT_ARGS: the reduced prototype" has_line "$T/gcc/kfuncs.h" \
	'extern int bpf_kfunc_implicit_arg(int a) __weak __ksym;'
check "KF_IMPLICIT_ARGS in the middle: the parameters before it" has_line "$T/gcc/kfuncs.h" \
	'extern int bpf_kfunc_implicit_mid(int a) __weak __ksym;'
check "a legacy _impl kfunc is declared as it is" has_line "$T/gcc/kfuncs.h" \
	'extern int bpf_kfunc_implicit_arg_legacy_impl(int a, int b, struct bpf_prog_aux *aux) __weak __ksym;'
check "an _impl the transform adds is not declared" \
	test "$(grep -c '_impl(' "$T/gcc/kfuncs.h")" = 1
check "not a kfunc (in no set8): not declared" \
	test "$(grep -c helper_with_aux "$T/gcc/kfuncs.h")" = 0
check "bpf_wq_set_callback: 3 parameters, the callback typed" has_line "$T/gcc/kfuncs.h" \
	'extern int bpf_wq_set_callback(struct bpf_wq *wq, int (*callback_fn)(void *, int *, void *), unsigned int flags) __weak __ksym;'
check "KF_FASTCALL: __bpf_fastcall, reduced" has_line "$T/zoo/kfuncs.h" \
	'extern __bpf_fastcall int bpf_fc(int a0) __weak __ksym;'
check "no KF_FASTCALL: no __bpf_fastcall" has_line "$T/zoo/kfuncs.h" \
	'extern int bpf_fc_miss(int a0) __weak __ksym;'
check "KF_ARENA_RET|KF_ARENA_ARG1: address_space(1) on both" has_line "$T/zoo/kfuncs.h" \
	'extern void __attribute__((address_space(1))) *bpf_ar(void __attribute__((address_space(1))) *a0, int a1) __weak __ksym;'
check "an __arena parameter: address_space(1)" has_line "$T/zoo/kfuncs.h" \
	'extern int bpf_ar_name(void __attribute__((address_space(1))) *p__arena, void *q_arena) __weak __ksym;'
check "a struct forward-declared, a typedef defined" \
	grep -qx 'typedef struct bpf_prog_aux bpf_prog_aux_t;' "$T/gcc/kfuncs.h"

# found from tags: the raw BTF a 7.3 kernel exposes (no set8s, no flags)
# declares the same as the object with its set8s
"$BTF2BTF" -q --features=all -o "$T/zoo-all.btf" "$T/zoo.o"
"$BTF2BTF" --kfuncs --format=c "$T/zoo-all.btf" 2> "$T/raw.err" | grep '^extern' > "$T/raw.ext"
grep '^extern' "$T/zoo/kfuncs.h" > "$T/elf.ext"
check "raw BTF with the tags (no set8s) declares what the set8s do" cmp -s "$T/raw.ext" "$T/elf.ext"
check "raw BTF: the note that flags are not seen" grep -q 'their set8s and flags are not' "$T/raw.err"
# the already transformed object (as a 7.3 vmlinux): the same again
"$BTF2BTF" -q --features=all -o "$T/zoo-all.o" -O elf "$T/zoo.o"
"$BTF2BTF" --kfuncs --format=c "$T/zoo-all.o" 2> /dev/null | grep '^extern' > "$T/all.ext"
check "an already transformed object declares the same" cmp -s "$T/all.ext" "$T/elf.ext"

# --vmlinux-h of another BTF (here: the typedef the declarations use deleted): it is named
mkdir -p "$T/trimmed"
grep -v 'bpf_prog_aux_t;$' "$T/gcc/vmlinux.h" > "$T/trimmed/vmlinux.h"
rc=0
"$BTF2BTF" --kfuncs --format=c --vmlinux-h "$T/trimmed/vmlinux.h" "$FIXTURE_DIR/kfuncs.gcc.o" \
	> "$T/none.h" 2> "$T/none.err" || rc=$?
check "--vmlinux-h without a typedef it needs: exit 1" test "$rc" = 1
check "--vmlinux-h without a typedef it needs: says which" \
	grep -q "defines no bpf_prog_aux_t" "$T/none.err"
check "--vmlinux-h without a typedef it needs: nothing on stdout" test ! -s "$T/none.h"
# usage
rc=0; "$BTF2BTF" --format=c "$T/zoo.o" > /dev/null 2>&1 || rc=$?
check "--format=c without --kfuncs: exit 2" test "$rc" = 2
rc=0; "$BTF2BTF" --kfuncs --format=c -j "$T/zoo.o" > /dev/null 2>&1 || rc=$?
check "--format=c with -j: exit 2" test "$rc" = 2
rc=0; "$BTF2BTF" --kfuncs --vmlinux-h x.h "$T/zoo.o" > /dev/null 2>&1 || rc=$?
check "--vmlinux-h without --format=c: exit 2" test "$rc" = 2

summary "($CLANG)"
