#!/bin/sh
# Seed corpora of the surface targets (fuzz/fuzz_NAME.c), from the fixtures,
# into OUT/seeds-NAME. Usage: mkseeds-surfaces.sh FIXTURE_DIR MKFIXTURE OUT
set -eu
fx=$1 mk=$2 out=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in views diff decompress format signature distilled; do
	rm -rf "$out/seeds-$t" && mkdir -p "$out/seeds-$t"
done
byte() { printf "\\$(printf %03o "$1")"; }
le32() { # a 32-bit little-endian number
	byte $(($1 & 255)); byte $((($1 >> 8) & 255)); byte $((($1 >> 16) & 255)); byte $((($1 >> 24) & 255))
}
"$mk" kernel-gen1 "$tmp/gen1.o" && "$mk" kernel-gen2 "$tmp/gen2.o" && "$mk" kernel-gen3 "$tmp/gen3.o"
# raw BTF: each fixture's .BTF (basic-be.o's is big endian), the raw pair
for n in basic basic-be kfuncs.gcc kfuncs.clang; do
	objcopy --dump-section .BTF="$tmp/$n.btf" "$fx/$n.o" "$tmp/$n.junk" 2>/dev/null || true
done
# the views: every object as it is read, compressed, signed, raw
for f in "$fx"/*.o "$fx"/*.ko "$fx"/*.ko.* "$fx"/*.BTF "$tmp"/gen?.o "$tmp"/*.btf; do
	[ -s "$f" ] && cp "$f" "$out/seeds-views/$(basename "$f")"
done
# --diff: pairs, 4-byte length of OLD first
pair() { { le32 "$(wc -c < "$1")"; cat "$1" "$2"; } > "$out/seeds-diff/$3"; }
pair "$tmp/gen1.o" "$tmp/gen2.o" gen1-gen2
pair "$tmp/gen2.o" "$tmp/gen3.o" gen2-gen3
pair "$fx/basic.o" "$fx/basic-resolved.o" basic-resolved
pair "$fx/kfuncs.gcc.o" "$fx/kfuncs.clang.o" gcc-clang
pair "$fx/kfuncs.ko" "$fx/kfuncs.ko.xz" ko-xz
# compressed streams: mode 0 xz, 1 zstd, 2 gzip; 4: contents compressed
# by the target itself
seed() { { byte "$1"; cat "$2"; } > "$3"; }
seed 0 "$fx/kfuncs.ko.xz" "$out/seeds-decompress/xz"
seed 1 "$fx/kfuncs.ko.zst" "$out/seeds-decompress/zst"
seed 2 "$fx/kfuncs.ko.gz" "$out/seeds-decompress/gz"
seed 3 "$fx/kfuncs-signed.ko.xz" "$out/seeds-decompress/signed-xz"
for m in 4 5 6; do
	seed $m "$fx/kfuncs.ko" "$out/seeds-decompress/plain-$m"
	seed $m "$fx/reloc.o.ko.BTF" "$out/seeds-decompress/raw-$m"
done
# BTF headers and layout: raw BTF of both byte orders; the 32-byte header
# with a layout section comes from the library's writer in the replay test
# and from mutation here
for f in "$tmp"/*.btf "$fx/reloc.o.ko.BTF.base"; do
	[ -s "$f" ] && cp "$f" "$out/seeds-format/$(basename "$f")"
done
# the signature trailer: 2 bytes (id_type, sig_len adjustment) + an ELF
for f in kfuncs.ko basic.o basic-be.o basic-elf32.o; do
	{ byte 2; byte 0; cat "$fx/$f"; } > "$out/seeds-signature/$f"
done
{ byte 2; byte 200; cat "$fx/kfuncs.ko"; } > "$out/seeds-signature/kfuncs.ko-short"
{ byte 1; byte 0; cat "$fx/kfuncs.ko"; } > "$out/seeds-signature/kfuncs.ko-x509"
# the distilled base: the module with .BTF.base, onto each base
seed 0 "$fx/reloc.o.ko" "$out/seeds-distilled/reloc-fit"
seed 1 "$fx/reloc.o.ko" "$out/seeds-distilled/reloc-other"
seed 0 "$fx/reloc-split.ko" "$out/seeds-distilled/split"
for t in views diff decompress format signature distilled; do
	printf 'seeds-%s: %s files\n' "$t" "$(ls "$out/seeds-$t" | wc -l)"
done
