#!/bin/sh
# make demo: run btf2btf on the gcc-built fixture and show the kfuncs before and after.
set -eu
tool=$1 dir=$2
obj=$(mktemp -d)/kfuncs.o
cp "$dir/kfuncs.gcc.o" "$obj"
echo "== $obj before (gcc 12 + pahole 1.24: no decl tags, kfuncs come from the set8)"
"$tool" --dump "$obj" | grep -E "^\[[0-9]+\] FUNC 'bpf_" | sed 's/^/  /'
echo "== btf2btf $obj"
"$tool" "$obj"
echo "== after: _impl FUNCs carry the kernel prototypes, kfuncs the BPF-visible ones"
"$tool" --dump "$obj" | grep -E "^\[[0-9]+\] FUNC 'bpf_" | sed 's/^/  /'
echo "== second run (idempotent)"
cp "$obj" "$obj.first"
"$tool" "$obj"
cmp "$obj" "$obj.first" && echo "  byte-identical"
rm -rf "$(dirname "$obj")"
