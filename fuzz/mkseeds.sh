#!/bin/sh
# Seed corpus for the fuzz target: every fixture object, each as a plain
# input (mode byte 0), with add_kfunc_tags (2) and through a file (4);
# split modules also against the fuzzer's base (1, 3, 5). Usage: mkseeds.sh FIXTURE_DIR MKFIXTURE OUT
set -eu
fx=$1 mk=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed() { # mode file name
	{ printf "\\$(printf %03o "$1")"; cat "$2"; } > "$out/$3"
}
for f in "$fx"/*.o; do
	n=$(basename "$f" .o)
	[ "$n" = builder ] || [ "$n" = recipes ] || [ "$n" = mkfixture ] && continue
	seed 0 "$f" "$n"
	seed 2 "$f" "$n-tags"
	seed 4 "$f" "$n-file"
done
# malformed recipes (fixtures/malformed.c), when mkfixture knows them
for n in $("$mk" --list-malformed 2>/dev/null || true); do
	"$mk" "$n" "$tmp/$n" 2>/dev/null && seed 0 "$tmp/$n" "$n"
done
"$mk" split "$tmp/split.o" && seed 1 "$tmp/split.o.ko" split-module && seed 3 "$tmp/split.o.ko" split-module-tags && seed 5 "$tmp/split.o.ko" split-module-file
"$mk" synthetic 40 "$tmp/syn.o" 2 3 && seed 0 "$tmp/syn.o" synthetic
# raw BTF inputs (the other branch of open): each fixture's .BTF, via objcopy
for n in basic kfuncs.gcc kfuncs.clang; do
	objcopy --dump-section .BTF="$tmp/$n.btf" "$fx/$n.o" "$tmp/$n.o.junk" 2>/dev/null &&
		[ -s "$tmp/$n.btf" ] && seed 0 "$tmp/$n.btf" "$n-raw"
done
echo "seeds: $(ls "$out" | wc -l) files in $out"
