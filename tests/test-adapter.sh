#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The Kbuild pahole adapter (src/adapter/pahole.sh, built as build/pahole)
# against the real pahole, on gcc and clang objects of fixtures/src/kfuncs.c
# encoded the way 7.x's scripts/gen-btf.sh asks (-J --btf_encode_detached)
# and the way older kernels ask (-J in place). bpftool, not btf2btf, reads
# the results. Needs pahole, gcc, clang, bpftool (make demo installs them).
#
#   ADAPTER=build/pahole BTF2BTF=build/btf2btf tests/test-adapter.sh

set -u
ADAPTER=$(realpath "${ADAPTER:-build/pahole}")
BTF2BTF=$(realpath "${BTF2BTF:-build/btf2btf}")
TOP=$(cd "$(dirname "$0")/.." && pwd)
PAHOLE=$(command -v pahole) || { echo "test-adapter: pahole not found (apt-get install dwarves)" >&2; exit 1; }
SUITE=adapter; . "$TOP/tests/lib.sh"
needs gcc clang bpftool
export BTF2BTF LLVM_OBJCOPY=objcopy
unset VERSION PATCHLEVEL


# bpftool's exit status is 0 even on bad input: look at its output
dump() { bpftool btf dump file "$@" 2>&1; }
has_func() { grep -q "^\[[0-9]*\] FUNC '$2' " "$1"; }
# number of parameters of FUNC $2's prototype in dump $1
nparams() {
	local id
	id=$(sed -n "s/^\[[0-9]*\] FUNC '$2' type_id=\([0-9]*\).*/\1/p" "$1")
	sed -n "s/^\[$id\] FUNC_PROTO .* vlen=\([0-9]*\)$/\1/p" "$1"
}
ntags() { grep -c "DECL_TAG '$2'" "$1"; }

cd "$T" || exit 1
gcc -g -O1 -I"$TOP/fixtures/include" -c "$TOP/fixtures/src/kfuncs.c" -o kfuncs.gcc.o
clang -g -O1 -I"$TOP/fixtures/include" -DWITH_DECL_TAGS -c "$TOP/fixtures/src/kfuncs.c" -o kfuncs.clang.o
# a "vmlinux" for split BTF: the kfuncs' types, no kfuncs
printf '%s\n' 'struct bpf_prog_aux { int id; void *priv; };' \
	'struct bpf_wq { unsigned long __opaque[2]; };' \
	'int base_fn(struct bpf_prog_aux *aux, struct bpf_wq *wq) { return aux->id + (int)wq->__opaque[0]; }' > base.c
gcc -g -O1 -c base.c -o base.o && "$PAHOLE" -J base.o

# The adapter transforms only for a pahole older than 1.27 (from 1.27 pahole
# emits the bpf_kfunc tags itself and the adapter passes through). With a
# newer real pahole, the transform is tested through OLD, a pahole that says
# it is v1.26 and runs the real one: what the adapter does with the BTF it
# writes does not depend on the version.
PAHOLE_VERSION=$("$PAHOLE" --version)
pahole_num=$(printf '%s\n' "$PAHOLE_VERSION" | sed -n 's/^v\([0-9]*\)\.\([0-9]*\).*/\1\2/p')
[ -n "$pahole_num" ] || { echo "test-adapter: cannot read the version of $PAHOLE ($PAHOLE_VERSION)" >&2; exit 1; }
mkdir old
if [ "$pahole_num" -lt 127 ]; then
	ln -s "$PAHOLE" old/pahole
else
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo v1.26; exit 0; }\nexec %s "$@"\n' "$PAHOLE" > old/pahole
	chmod +x old/pahole
fi
OLD=$T/old/pahole
OLD_VERSION=$("$OLD" --version)
export BTF2BTF_PAHOLE=$OLD

# --- pass-through ---
check "--version is pahole's ($OLD_VERSION)" test "$("$ADAPTER" --version)" = "$OLD_VERSION"
check "--version is the real pahole's ($PAHOLE_VERSION) when that is the one it runs" \
	test "$(BTF2BTF_PAHOLE=$PAHOLE "$ADAPTER" --version)" = "$PAHOLE_VERSION"
rc_real=0; "$PAHOLE" --no-such-option > /dev/null 2>&1 || rc_real=$?
rc_ad=0; "$ADAPTER" --no-such-option > /dev/null 2>&1 || rc_ad=$?
check "a bad option exits as pahole does ($rc_real)" test "$rc_ad" = "$rc_real" -a "$rc_real" != 0

cp kfuncs.gcc.o inplace.real.o; cp kfuncs.gcc.o inplace.adapter.o
"$PAHOLE" -J inplace.real.o; "$ADAPTER" -J inplace.adapter.o
check "-J in place (kernels before 7.0): byte-identical object" cmp -s inplace.real.o inplace.adapter.o

cp kfuncs.gcc.o mod612.real.o; cp kfuncs.gcc.o mod612.adapter.o
"$PAHOLE" -J --btf_base base.o mod612.real.o; "$ADAPTER" -J --btf_base base.o mod612.adapter.o
check "-J --btf_base in place (6.12 modules): byte-identical object" cmp -s mod612.real.o mod612.adapter.o

# --- the 7.0-7.2 call: -J --btf_encode_detached ---
"$PAHOLE" -J --btf_encode_detached=real.BTF.1 kfuncs.gcc.o
"$ADAPTER" -J --btf_encode_detached=adapter.BTF.1 kfuncs.gcc.o
dump real.BTF.1 > real.txt; dump adapter.BTF.1 > adapter.txt
check "plain pahole $PAHOLE_VERSION: no _impl, bpf_kfunc_implicit_arg takes 2 parameters" \
	eval '! has_func real.txt bpf_kfunc_implicit_arg_impl && [ "$(nparams real.txt bpf_kfunc_implicit_arg)" = 2 ]'
check "bpf_kfunc_implicit_arg_impl added with 2 parameters, the kfunc reduced to 1" \
	eval '[ "$(nparams adapter.txt bpf_kfunc_implicit_arg_impl)" = 2 ] && [ "$(nparams adapter.txt bpf_kfunc_implicit_arg)" = 1 ]'
check "bpf_wq_set_callback reduced to 3 parameters, _impl keeps 4" \
	eval '[ "$(nparams adapter.txt bpf_wq_set_callback)" = 3 ] && [ "$(nparams adapter.txt bpf_wq_set_callback_impl)" = 4 ]'
check "legacy bpf_kfunc_implicit_arg_legacy reduced to 2, its own _impl kept" \
	eval '[ "$(nparams adapter.txt bpf_kfunc_implicit_arg_legacy)" = 2 ] && [ "$(grep -c "FUNC .bpf_kfunc_implicit_arg_legacy_impl." adapter.txt)" = 1 ]'
check "no bpf_kfunc decl tag added for resolve_btfids to act on (pahole wrote $(ntags real.txt bpf_kfunc))" \
	test "$(ntags adapter.txt bpf_kfunc)" = "$(ntags real.txt bpf_kfunc)"
check "unflagged bpf_kfunc_plain_aux untouched" \
	eval '[ "$(nparams adapter.txt bpf_kfunc_plain_aux)" = 2 ] && ! has_func adapter.txt bpf_kfunc_plain_aux_impl'
"$ADAPTER" -J --btf_encode_detached=again.BTF.1 kfuncs.gcc.o
check "deterministic (a second run is byte-identical)" cmp -s adapter.BTF.1 again.BTF.1
"$ADAPTER" -J --btf_encode_detached real.sep.BTF.1 kfuncs.gcc.o
check "--btf_encode_detached FILE (separate argument) is handled too" cmp -s adapter.BTF.1 real.sep.BTF.1

# --- no tag twice: clang emits the source's decl tags itself ---
"$PAHOLE" -J --btf_encode_detached=clang.real.BTF.1 kfuncs.clang.o
"$ADAPTER" -J --btf_encode_detached=clang.adapter.BTF.1 kfuncs.clang.o
dump clang.real.BTF.1 > clang.real.txt; dump clang.adapter.BTF.1 > clang.adapter.txt
check "clang object: bpf_kfunc tags as pahole wrote them ($(ntags clang.real.txt bpf_kfunc)), _impl added" \
	eval '[ "$(ntags clang.adapter.txt bpf_kfunc)" = "$(ntags clang.real.txt bpf_kfunc)" ] && has_func clang.adapter.txt bpf_kfunc_implicit_arg_impl'

# --- split BTF (a module): --btf_base ---
"$PAHOLE" -J --btf_base base.o --btf_encode_detached=split.real.BTF.1 kfuncs.gcc.o
"$ADAPTER" -J --btf_base base.o --btf_encode_detached=split.adapter.BTF.1 kfuncs.gcc.o
dump split.real.BTF.1 -B base.o > split.real.txt; dump split.adapter.BTF.1 -B base.o > split.adapter.txt
check "split BTF: base types stay in the base (struct bpf_prog_aux not in the module's BTF)" \
	eval '! grep -q "STRUCT .bpf_prog_aux." split.adapter.txt && grep -q "^\[1\] STRUCT .bpf_prog_aux." <(dump base.o)'
check "split BTF: plain pahole has no _impl, the adapter adds it with the reduced kfunc" \
	eval '! has_func split.real.txt bpf_kfunc_implicit_arg_impl && [ "$(nparams split.adapter.txt bpf_kfunc_implicit_arg)" = 1 ] && [ "$(nparams split.adapter.txt bpf_kfunc_implicit_arg_impl)" = 2 ]'
"$ADAPTER" -J --btf_base=base.o --btf_encode_detached=split.eq.BTF.1 kfuncs.gcc.o
check "split BTF: --btf_base=FILE gives the same result" cmp -s split.adapter.BTF.1 split.eq.BTF.1

# --- where the adapter must do nothing ---
VERSION=7 PATCHLEVEL=3 "$ADAPTER" -J --btf_encode_detached=v73.BTF.1 kfuncs.gcc.o
check "Linux 7.3 (VERSION=7 PATCHLEVEL=3): pahole's BTF, byte-identical" cmp -s real.BTF.1 v73.BTF.1
VERSION=7 PATCHLEVEL=2 "$ADAPTER" -J --btf_encode_detached=v72.BTF.1 kfuncs.gcc.o
check "Linux 7.2 (VERSION=7 PATCHLEVEL=2): transformed" cmp -s adapter.BTF.1 v72.BTF.1
mkdir new
printf '#!/bin/sh\n[ "$1" = --version ] && { echo v1.27; exit 0; }\nexec %s "$@"\n' "$PAHOLE" > new/pahole
chmod +x new/pahole
BTF2BTF_PAHOLE=$T/new/pahole "$ADAPTER" -J --btf_encode_detached=p127.BTF.1 kfuncs.gcc.o
check "a pahole that reports v1.27 (emits the tags itself): byte-identical" cmp -s real.BTF.1 p127.BTF.1
BTF2BTF_PAHOLE=$PAHOLE "$ADAPTER" -J --btf_encode_detached=preal.BTF.1 kfuncs.gcc.o
if [ "$pahole_num" -ge 127 ]; then
	check "the real pahole $PAHOLE_VERSION (emits the tags itself): byte-identical" cmp -s real.BTF.1 preal.BTF.1
else
	check "the real pahole $PAHOLE_VERSION (older than 1.27): transformed" cmp -s adapter.BTF.1 preal.BTF.1
fi

# --- masquerade: the adapter as "pahole" first in PATH finds the next one ---
mkdir masq && ln -s "$ADAPTER" masq/pahole
check "masquerade in PATH: pahole --version still answers $OLD_VERSION" \
	test "$(PATH=$T/masq:$T/old:$PATH BTF2BTF_PAHOLE= pahole --version)" = "$OLD_VERSION"
PATH=$T/masq:$T/old:$PATH BTF2BTF_PAHOLE= pahole -J --btf_encode_detached=masq.BTF.1 kfuncs.gcc.o
check "masquerade in PATH: transformed as by build/pahole" cmp -s adapter.BTF.1 masq.BTF.1

# --- failures stop the build ---
rc=0; BTF2BTF=/bin/false "$ADAPTER" -J --btf_encode_detached=fail.BTF.1 kfuncs.gcc.o 2> fail.err || rc=$?
check "btf2btf failing: exit $rc, message names the file ($(cat fail.err))" \
	eval '[ $rc != 0 ] && grep -q "btf2btf failed on fail.BTF.1" fail.err'
# a pahole that fails (exit 3) on the encoding call: the adapter stops with
# its status and runs no btf2btf
mkdir failing
printf '#!/bin/sh\n[ "$1" = --version ] && { echo v1.26; exit 0; }\necho "pahole: $2: cannot encode" >&2; exit 3\n' > failing/pahole
chmod +x failing/pahole
rc=0; BTF2BTF_PAHOLE=$T/failing/pahole "$ADAPTER" -J --btf_encode_detached=none.BTF.1 kfuncs.gcc.o 2> none.err || rc=$?
check "pahole failing: its exit status ($rc) is the adapter's, no btf2btf run" \
	eval '[ $rc = 3 ] && ! grep -q btf2btf-pahole none.err'
# the real pahole on a missing object: the adapter exits as it does when it
# fails (pahole 1.24 and 1.30: 1), and stops the build when it does not
rc_real=0; "$PAHOLE" -J --btf_encode_detached=none.real.BTF.1 no-such.o 2> /dev/null || rc_real=$?
rc=0; "$ADAPTER" -J --btf_encode_detached=none.BTF.1 no-such.o 2> none.err || rc=$?
if [ "$rc_real" != 0 ]; then
	check "pahole $PAHOLE_VERSION failing (missing object): its exit status ($rc) is the adapter's" \
		eval '[ $rc = $rc_real ] && ! grep -q btf2btf-pahole none.err'
else
	check "pahole $PAHOLE_VERSION exits 0 on a missing object: the adapter stops ($rc): $(cat none.err)" \
		eval '[ $rc != 0 ] && grep -q "btf2btf failed on none.BTF.1" none.err'
fi

# --- issue 33: never a pahole by accident, warnings in the build log, ---
# --- clear errors for the variables, one pahole version in the docs ---
test_not_on_path() {
	check "no pahole beside btf2btf (users put that directory on PATH)" \
		test ! -e "$(dirname "$BTF2BTF")/pahole"
	check "the adapter lives under lib/btf2btf, as installed" \
		eval 'case $ADAPTER in */lib/btf2btf/pahole) true ;; *) false ;; esac'
}

test_warnings_in_log() {
	local out err
	out=$("$ADAPTER" -J --btf_encode_detached=warn.BTF.1 kfuncs.gcc.o 2> warn.err)
	err=$(grep -c "bpf_kfunc_implicit_mid: the implicit argument is parameter 2 of 3; the transform drops the parameters after it" warn.err)
	check "btf2btf's warnings reach the build log, each once ($err)" test "$err" = 1
	check "no summary line on stdout ('$out')" test -z "$out"
}

test_variable_errors() {
	local rc var val
	for var in BTF2BTF_PAHOLE BTF2BTF; do
		for val in /nonexistent "$ADAPTER"; do
			[ "$var" = BTF2BTF ] && [ "$val" = "$ADAPTER" ] && continue
			rc=0
			env "$var=$val" "$ADAPTER" -J --btf_encode_detached=var.BTF.1 kfuncs.gcc.o \
				> var.out 2> var.err || rc=$?
			check "$var=$val: exit $rc, one line naming it ($(cat var.err))" \
				eval '[ $rc = 1 ] && [ "$(wc -l < var.err)" = 1 ] && grep -q "^btf2btf-pahole: error: $var=$val" var.err'
		done
	done
}

# the pahole from which the tags come, said the same in README, man page and adapter
test_one_pahole_version() {
	local v ver
	ver=$(sed -n 's/.*\[ "\$ver" -lt \([0-9]\)\([0-9]*\) \].*/\1.\2/p' "$TOP/src/adapter/pahole.sh")
	v=$(cat "$TOP/README.md" "$TOP"/docs/*.md "$TOP"/*.[13] "$TOP/src/adapter/pahole.sh" |
		grep -o "pahole older than [0-9.]*[0-9]" | sort -u)
	check "pahole version: the adapter's test is $ver; the docs say '$v'" \
		test "$v" = "pahole older than $ver"
}

test_not_on_path
test_warnings_in_log
test_variable_errors
test_one_pahole_version

summary
