#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# btf2btf --check-prog on BPF objects compiled here by clang from
# tests/check-prog/*.bpf.c, against kernels made from the fixtures: the
# fixtures' kfuncs.gcc.o as it is ("old": kernel prototypes, set8s), its
# transform as an ELF copy ("new": reduced prototypes, the added _impl
# FUNCs, set8s) and as raw BTF with bpf_kfunc tags ("raw"), and
# tests/check-prog/kvars.c (gcc + pahole -J: per-CPU VARs) alone ("kv") and
# with the fixtures' kfuncs.c as a module split on it ("kvmod"). Every
# verdict, the exit statuses (0, 1, 2), the JSON document, the --kfuncs
# --format=c header restricted to an object's kfuncs or to names, and the
# bad inputs. Needs clang (CLANG), pahole, jq.
#
#   BTF2BTF=build/btf2btf FIXTURE_DIR=build/fixtures tests/test-check-prog.sh

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BTF2BTF=$(realpath "${BTF2BTF:-build/btf2btf}")
FIXTURE_DIR=$(realpath "${FIXTURE_DIR:-build/fixtures}")
CLANG=${CLANG:-clang}
SUITE=check-prog; . "$HERE/lib.sh"
needs "$CLANG" pahole jq gcc

# the kernels
K=$T/k
mkdir -p "$K"
cp "$FIXTURE_DIR/kfuncs.gcc.o" "$K/old.o"
"$BTF2BTF" -q -O elf -o "$K/new.o" "$K/old.o" &&
"$BTF2BTF" -q --features=all -o "$K/raw.btf" "$K/old.o" &&
gcc -g -O1 -c "$HERE/check-prog/kvars.c" -o "$K/kv.o" &&
LLVM_OBJCOPY=objcopy pahole -J "$K/kv.o" &&
gcc -g -O1 -I"$HERE/../fixtures/include" -c "$HERE/../fixtures/src/kfuncs.c" -o "$K/mod.o" &&
LLVM_OBJCOPY=objcopy pahole -J --btf_base "$K/kv.o" "$K/mod.o" ||
	{ echo "test-check-prog: could not make the kernels" >&2; exit 1; }
# the objects
P=$T/p
mkdir -p "$P"
for src in "$HERE"/check-prog/*.bpf.c; do
	"$CLANG" -target bpf -O2 -g -Wall -Werror -c "$src" -o "$P/$(basename "${src%.c}").o" ||
		{ echo "test-check-prog: clang failed on $src" >&2; exit 1; }
done
KERNELS=(old="$K/old.o" new="$K/new.o" raw="$K/raw.btf")
KVARS=(kv="$K/kv.o" kvmod="$K/kv.o,$K/mod.o")

# run OUT ARGS...: --check-prog -j into OUT.json, its status into OUT.rc
run() {
	local out=$1
	shift
	"$BTF2BTF" --check-prog -j "$@" > "$out.json" 2> "$out.err"
	echo $? > "$out.rc"
}
# cell OUT OBJECT EXTERN KERNEL [FIELD]: a field (default verdict) of one cell
cell() {
	jq -r --arg o "$2" --arg e "$3" --arg k "$4" --arg f "${5:-verdict}" \
		'.objects[] | select(.file | endswith("/" + $o)) | .externs[] |
		 select(.name == $e) | .on[] | select(.kernel == $k) | .[$f] | tostring' "$1.json"
}
loads() {
	jq -r --arg o "$2" --arg k "$3" '.objects[] | select(.file | endswith("/" + $o)) |
		.kernels[] | select(.kernel == $k) | .loads | tostring' "$1.json"
}

run "$T/all" "$P"/*.bpf.o "${KERNELS[@]}"
expect "exit 1: strong externs fail on some kernel" 1 "$(cat "$T/all.rc")"
expect "one JSON document" 1 "$(jq -s length "$T/all.json")"
expect "ok is false" false "$(jq -r .ok "$T/all.json")"
expect "three kernels, kfuncs known in each" "true true true" \
	"$(jq -r '[.kernels[].kfuncs_known | tostring] | join(" ")' "$T/all.json")"

# the reduced prototype: the transformed kernels' kfunc, not the old one's
expect "new_shape: reduced proto on old: incompatible" incompatible \
	"$(cell "$T/all" new_shape.bpf.o bpf_kfunc_implicit_arg old)"
expect "new_shape: reduced proto on new: ok" ok "$(cell "$T/all" new_shape.bpf.o bpf_kfunc_implicit_arg new)"
expect "new_shape: reduced proto on raw BTF: ok" ok "$(cell "$T/all" new_shape.bpf.o bpf_kfunc_implicit_arg raw)"
expect "new_shape: bpf_wq_set_callback without aux on new: ok" ok \
	"$(cell "$T/all" new_shape.bpf.o bpf_wq_set_callback new)"
expect "new_shape: loads on new" true "$(loads "$T/all" new_shape.bpf.o new)"
expect "new_shape: fails on old" false "$(loads "$T/all" new_shape.bpf.o old)"
expect "new_shape: old's error is libbpf's first, by name" \
	"extern (func ksym) 'bpf_kfunc_implicit_arg': func_proto incompatible with $K/old.o's: int bpf_kfunc_implicit_arg(int a, struct bpf_prog_aux *aux)" \
	"$(jq -r '.objects[] | select(.file | endswith("/new_shape.bpf.o")) | .kernels[0].error' "$T/all.json")"
# the kernel prototype: the other way round
expect "old_shape: kernel proto on old: ok" ok "$(cell "$T/all" old_shape.bpf.o bpf_kfunc_implicit_arg old)"
expect "old_shape: kernel proto on new: incompatible" incompatible \
	"$(cell "$T/all" old_shape.bpf.o bpf_kfunc_implicit_arg new)"
expect "old_shape: the kernel's declaration is said" "int bpf_kfunc_implicit_arg(int a)" \
	"$(cell "$T/all" old_shape.bpf.o bpf_kfunc_implicit_arg new kernel_declaration)"
expect "old_shape: loads on old only" "true false false" \
	"$(for k in old new raw; do loads "$T/all" old_shape.bpf.o $k; done | xargs)"
# the _impl forms
expect "impl: the added _impl on new: not a kfunc" not_kfunc \
	"$(cell "$T/all" impl_forms.bpf.o bpf_kfunc_implicit_arg_impl new)"
expect "impl: the added _impl on raw BTF: not a kfunc" not_kfunc \
	"$(cell "$T/all" impl_forms.bpf.o bpf_kfunc_implicit_arg_impl raw)"
expect "impl: the added _impl fails the load even weak" true \
	"$(cell "$T/all" impl_forms.bpf.o bpf_kfunc_implicit_arg_impl new fails_load)"
expect "impl: the verifier's refusal is named" \
	"verifier: cannot find address for kernel function bpf_kfunc_implicit_arg_impl" \
	"$(cell "$T/all" impl_forms.bpf.o bpf_kfunc_implicit_arg_impl new error)"
expect "impl: on old, no _impl: missing, weak" missing \
	"$(cell "$T/all" impl_forms.bpf.o bpf_kfunc_implicit_arg_impl old)"
expect "impl: the hint names the kfunc under its other shape" \
	"the kernel has the kfunc bpf_kfunc_implicit_arg: int bpf_kfunc_implicit_arg(int a) (declare it so to call it)" \
	"$(cell "$T/all" impl_forms.bpf.o bpf_kfunc_implicit_arg_impl new hint)"
expect "impl: a legacy _impl in a set8 resolves, the new form beside it" ok_legacy \
	"$(cell "$T/all" impl_forms.bpf.o bpf_kfunc_implicit_arg_legacy_impl new)"
expect "impl: loads on old (weak at 0), not on new" "true false" \
	"$(for k in old new; do loads "$T/all" impl_forms.bpf.o $k; done | xargs)"
# weak, strong, flavours, non-kfuncs
expect "guarded: weak missing: missing, the load goes on" "missing false" \
	"$(cell "$T/all" guarded.bpf.o bpf_kfunc_not_anywhere new) $(cell "$T/all" guarded.bpf.o bpf_kfunc_not_anywhere new fails_load)"
expect "guarded: weak incompatible: left at 0 (libbpf since 2023)" "incompatible false" \
	"$(cell "$T/all" guarded.bpf.o bpf_kfunc_plain_aux new) $(cell "$T/all" guarded.bpf.o bpf_kfunc_plain_aux new fails_load)"
expect "guarded: a ___flavour is looked up without it" ok \
	"$(cell "$T/all" guarded.bpf.o bpf_kfunc_noflags___v2 new)"
expect "guarded: strong missing fails" "missing true" \
	"$(cell "$T/all" guarded.bpf.o bpf_kfunc_gone new) $(cell "$T/all" guarded.bpf.o bpf_kfunc_gone new fails_load)"
expect "guarded: a FUNC in no kfunc set: not a kfunc" not_kfunc \
	"$(cell "$T/all" guarded.bpf.o helper_with_aux old)"
expect "guarded: libbpf's error comes before the verifier's" \
	"extern (func ksym) 'bpf_kfunc_gone': not found in kernel or module BTFs" \
	"$(jq -r '.objects[] | select(.file | endswith("/guarded.bpf.o")) | .kernels[1].error' "$T/all.json")"
expect "fwd: a forward-declared struct is not the kernel's struct (libbpf)" incompatible \
	"$(cell "$T/all" fwd.bpf.o bpf_kfunc_plain_aux old)"

# variables and a module
run "$T/vars" "$P"/vars.bpf.o "$P"/var_type.bpf.o "$P"/old_shape.bpf.o "${KVARS[@]}"
expect "vars: typed struct variable: ok" ok "$(cell "$T/vars" vars.bpf.o runqueues kv)"
expect "vars: typed int variable: ok" ok "$(cell "$T/vars" vars.bpf.o cpu_number kv)"
expect "vars: untyped: kallsyms, not BTF" untyped "$(cell "$T/vars" vars.bpf.o not_percpu_global kv)"
expect "vars: weak missing variable" "missing false" \
	"$(cell "$T/vars" vars.bpf.o no_such_var kv) $(cell "$T/vars" vars.bpf.o no_such_var kv fails_load)"
expect "vars: a variable of another type fails, weak or not" "incompatible true" \
	"$(cell "$T/vars" var_type.bpf.o cpu_number kv) $(cell "$T/vars" var_type.bpf.o cpu_number kv fails_load)"
expect "module: a kfunc only the module has: missing without it" missing \
	"$(cell "$T/vars" vars.bpf.o bpf_kfunc_noflags kv)"
expect "module: found in the module, named" "ok $K/mod.o" \
	"$(cell "$T/vars" vars.bpf.o bpf_kfunc_noflags kvmod) $(cell "$T/vars" vars.bpf.o bpf_kfunc_noflags kvmod in)"
expect "module: the module's prototype is checked" ok "$(cell "$T/vars" old_shape.bpf.o bpf_kfunc_implicit_arg kvmod)"
expect "module: labels and modules in the kernels' list" "kvmod $K/mod.o" \
	"$(jq -r '.kernels[1] | "\(.label) \(.modules[0])"' "$T/vars.json")"

# exit 0, and the text table
"$BTF2BTF" --check-prog "$P/new_shape.bpf.o" "$K/new.o" 7.3=/dev/null 2> /dev/null
expect "a kernel without BTF: exit 2" 2 $?
"$BTF2BTF" --check-prog "$P/new_shape.bpf.o" new="$K/new.o" raw="$K/raw.btf" > "$T/text" 2> "$T/text.err"
expect "every strong extern resolves on every kernel: exit 0" 0 $?
expect "text: a row per extern, a column per kernel" \
	"bpf_kfunc_implicit_arg  kfunc  strong  ok   ok" "$(grep '^bpf_kfunc_implicit_arg ' "$T/text")"
expect "text: a verdict line per kernel" "new: loads|raw: loads" \
	"$(grep -E '^(new|raw): ' "$T/text" | paste -sd'|')"
expect "text: nothing on stderr" "" "$(cat "$T/text.err")"
"$BTF2BTF" --check-prog "$P/impl_forms.bpf.o" new="$K/new.o" old="$K/old.o" > "$T/text2"
expect "text: exit 1 when one kernel fails" 1 $?
expect "text: the failing kernel's line names the cause" \
	"new: fails: verifier: cannot find address for kernel function bpf_kfunc_implicit_arg_impl" \
	"$(grep '^new: ' "$T/text2")"
expect "text: weak externs at 0 are said" \
	"old: loads (1 weak extern at 0: guard it with bpf_ksym_exists())" "$(grep '^old: ' "$T/text2")"
grep -q '^  hint: bpf_kfunc_implicit_arg_impl on new: the kernel has the kfunc bpf_kfunc_implicit_arg: ' "$T/text2" &&
	ok "text: the hint line" || ko "text: the hint line"
"$BTF2BTF" --check-prog "$P/impl_forms.bpf.o" new="$K/new.o" old="$K/old.o" | cmp -s - "$T/text2" &&
	ok "the same output twice" || ko "the same output twice"

# bad input: exit 2 with the file and the cause, -j an error document
printf 'not an object\n' > "$T/junk"
"$CLANG" -target bpf -O2 -c "$HERE/check-prog/new_shape.bpf.c" -o "$T/nobtf.bpf.o"
gcc -c "$HERE/check-prog/kvars.c" -o "$T/nobtf-kernel.o"
bad() {
	local name=$1 want=$2
	shift 2
	"$BTF2BTF" --check-prog "$@" > "$T/bad.out" 2> "$T/bad.err"
	local rc=$?
	if [ $rc = 2 ] && grep -qF -- "$want" "$T/bad.err" && [ ! -s "$T/bad.out" ]; then
		ok "bad input: $name: exit 2"
	else
		ko "bad input: $name: exit $rc, stderr: $(head -2 "$T/bad.err")"
	fi
}
bad "neither an object nor a kernel" "$T/junk: not a kernel's BTF" "$P/new_shape.bpf.o" "$T/junk"
bad "a BPF object without BTF" "$T/nobtf.bpf.o: a BPF object without BTF" "$T/nobtf.bpf.o" "$K/new.o"
bad "a kernel without BTF" "$T/nobtf-kernel.o: not a kernel's BTF" "$P/new_shape.bpf.o" "$T/nobtf-kernel.o"
bad "no kernel" "no kernel given" "$P/new_shape.bpf.o"
bad "no object" "no BPF object given" "$K/new.o"
bad "a BPF object as a module" "a BPF object given as a module" "$P/new_shape.bpf.o" "k=$K/kv.o,$P/vars.bpf.o"
"$BTF2BTF" --check-prog -j "$T/nobtf.bpf.o" "$K/new.o" > "$T/bad.json" 2> /dev/null
expect "bad input -j: exit 2, an error document" "2 true" \
	"$? $(jq -r 'has("error")' "$T/bad.json")"
"$BTF2BTF" --check-prog -B "$K/kv.o" "$P/vars.bpf.o" "$K/kv.o" 2> "$T/usage.err"
expect "-B is refused: modules go after their kernel" 2 $?

# --kfuncs --format=c restricted to an object's kfuncs, or to names
"$BTF2BTF" --kfuncs --format=c --used-by "$P/new_shape.bpf.o" "$K/old.o" > "$T/min.h" 2> "$T/min.err"
expect "--used-by: exit 0" 0 $?
expect "--used-by: the object's kfuncs only" \
	"bpf_kfunc_implicit_arg bpf_kfunc_noflags bpf_wq_set_callback" \
	"$(sed -n 's/^extern [^(]* \**\([a-z_0-9]*\)(.*/\1/p' "$T/min.h" | xargs)"
"$BTF2BTF" --kfuncs --format=c --kfunc-names 'bpf_kfunc_implicit_*,bpf_kfunc_noflags' "$K/old.o" > "$T/names.h" 2> "$T/names.err"
expect "--kfunc-names: patterns and names" \
	"bpf_kfunc_implicit_arg bpf_kfunc_implicit_arg_legacy bpf_kfunc_implicit_arg_legacy_impl bpf_kfunc_implicit_mid bpf_kfunc_implicit_typedef bpf_kfunc_noflags" \
	"$(sed -n 's/^extern [^(]* \**\([a-z_0-9]*\)(.*/\1/p' "$T/names.h" | xargs)"
# new_shape.bpf.c's program with the header's declarations instead of its own
cat > "$T/uses-min.c" << EOF
#include "$HERE/check-prog/common.h"
#include "$T/min.h"

SEC("syscall") int prog(void *ctx)
{
	return bpf_kfunc_implicit_arg(1) + bpf_wq_set_callback(0, 0, 0) + bpf_kfunc_noflags(2);
}

char _license[] SEC("license") = "GPL";
EOF
"$CLANG" -target bpf -O2 -g -Wall -Werror -c "$T/uses-min.c" \
	-o "$T/uses-min.o" 2> "$T/uses-min.err" && ok "--used-by: the program compiles with the header alone" ||
	{ ko "--used-by: the program compiles with the header alone"; sed 's/^/    /' "$T/uses-min.err"; }
"$BTF2BTF" --check-prog "$T/uses-min.o" new="$K/new.o" > /dev/null
expect "--used-by: built with the header of new, it loads on new" 0 $?
"$BTF2BTF" --kfuncs --format=c --kfunc-names bpf_no_such_kfunc "$K/old.o" > /dev/null 2> "$T/none.err"
expect "--kfunc-names: a name no kfunc has: exit 1, said" "1 yes" \
	"$? $(grep -q 'bpf_no_such_kfunc' "$T/none.err" && echo yes)"
"$BTF2BTF" --kfuncs --used-by "$P/new_shape.bpf.o" "$K/old.o" > /dev/null 2>&1
expect "--used-by without --format=c: exit 2" 2 $?

summary
