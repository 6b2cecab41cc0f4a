#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make bench: the module sets, each module in the state the kernel's BTF
# phase meets it (Linux 7.3's scripts/gen-btf.sh: the linked .ko without
# .BTF, pahole's split BTF of it on vmlinux), prepared once per kernel build
# into CACHE and selected into WORK.
#   bench/module-sets.sh CACHE WORK
# Prints, TAB-separated, one line per set or missing set:
#   set  ID  LABEL  VMLINUX  DIR  NOTE
#   skip LABEL  REASON
# DIR/intree and DIR/extmod hold, for each module NAME (in-tree modules, and
# out-of-tree ones, which gen-btf gives --distill_base):
#   NAME.pre.ko  the .ko before the BTF phase (what resolve_btfids is given)
#   NAME.BTF.1   pahole's split BTF (resolve_btfids --btf)
#   NAME.ko      NAME.pre.ko with NAME.BTF.1 as .BTF (what btf2btf is given:
#                pahole -J writes .BTF into the object itself)
# Sets: the modules of the kernel proofs' caches (KERNEL_CACHE,
# KERNEL_CACHE_7_3: in-tree modules of the build and bpf_testmod), relinked
# from the objects their .ko.cmd names and encoded by PAHOLE on their
# vmlinux; and a Debian linux-image .deb when one is cached
# (BENCH_DEBIAN_DEB, else KERNEL_CACHE_ROOT/dev-kernels or CACHE), whose
# modules carry no DWARF: their .BTF is pahole's as Debian's build wrote it
# (6.12's resolve_btfids does not change .BTF), taken as the split BTF.
# BENCH_DEBIAN_MODULES (100, or "all") of its modules, evenly spaced in
# name order.
# Then the largest modules, one line each, of every Debian kernel make
# corpus-debian fetched (KERNEL_CACHE_ROOT/debian-kernels: 6.1, 6.12, 7.2,
# 7.3): the BENCH_LARGEST (5) with the most .BTF bytes among each one's
# modules with .BTF and no resolved set8, as the set above takes them:
#   module  ID  LABEL  VMLINUX  DIR  NOTE
# (DIR as a set's, with that one module)
set -eu
# absolute: the relinks run in the kernel tree
CACHE=$(cd "$1" && pwd) WORK=$(cd "$2" && pwd)
KROOT=${KERNEL_CACHE_ROOT:-}
if [ -z "$KROOT" ]; then	# kernel/kernel.mk's default
	if [ -w /var/cache ]; then KROOT=/var/cache/btf2btf; else KROOT=$HOME/.cache/btf2btf; fi
fi
PAHOLE=${PAHOLE:-pahole}
LOG=$WORK/log/module-sets.log
: >"$LOG"

say() { echo "bench: $*" >&2; }
skip() { printf 'skip\t%s\t%s\n' "$1" "$2"; }
stamp() { stat -c '%s.%Y' "$1"; }
# names DIR: the modules of a group, "none" if none
names() {
	n=$(ls "$1" | sed -n 's/\.pre\.ko$//p' | tr '\n' ' ')
	n=${n% }
	echo "${n:-none}"
}

# group MODULE: intree or extmod (modpost marks in-tree modules "intree: Y";
# gen-btf adds --distill_base for the others, KBUILD_EXTMOD)
group() {
	if [ "$(modinfo -F intree "$1" 2>/dev/null)" = Y ]; then echo intree; else echo extmod; fi
}

# relink MODULE.ko OUT: the module's link as its .ko.cmd recorded it (before
# gen-btf added .BTF), run where its relative paths resolve
relink() {
	r_out=$2 r_dir=$(dirname "$1")
	cmdf=$r_dir/.$(basename "$1").cmd
	[ -r "$cmdf" ] || return 1
	cmd=$(sed -n 's/^savedcmd_[^ ]* := //p' "$cmdf" | sed 's/;.*//')
	[ -n "$cmd" ] || return 1
	for cwd in "$3" "$r_dir"; do
		# shellcheck disable=SC2086 # the recorded command, split as make does
		set -- $cmd
		args='' ok=1 prev=''
		for a in "$@"; do
			case $a in /*) p=$a ;; *) p=$cwd/$a ;; esac
			case $prev in
			-o) a=$r_out ;;
			-T) [ -e "$p" ] || ok= ;;
			*) case $a in *.o) [ -e "$p" ] || ok= ;; esac ;;
			esac
			args="$args $a" prev=$a
		done
		if [ -n "$ok" ]; then
			# shellcheck disable=SC2086
			(cd "$cwd" && $args) >>"$LOG" 2>&1 && return 0
		fi
	done
	return 1
}

# encode DIR NAME VMLINUX: NAME.pre.ko -> NAME.BTF.1 (pahole, as gen-btf) and NAME.ko
encode() {
	"$PAHOLE" -J --btf_gen_floats --btf_base "$3" --btf_encode_detached="$1/$2.BTF.1" \
		"$1/$2.pre.ko" >>"$LOG" 2>&1 &&
		objcopy --add-section .BTF="$1/$2.BTF.1" "$1/$2.pre.ko" "$1/$2.ko"
}

# ---- the kernel proofs' modules ----
# kernel_set ID LABEL KCACHE TESTMOD
kernel_set() {
	id=$1 label=$2 kc=$3 testmod=$4
	v=$kc/build/vmlinux
	if [ ! -r "$v" ]; then
		skip "$label" "no $v (make kernel-test builds it; KERNEL_CACHE_ROOT=$KROOT)"
		return
	fi
	if ! command -v "$PAHOLE" >/dev/null; then
		skip "$label" "no $PAHOLE (apt-get install dwarves)"
		return
	fi
	dir=$CACHE/modset-$id.$(stamp "$v")
	if [ ! -f "$dir/.complete" ]; then
		rm -rf "$CACHE/modset-$id".*
		say "$label: relinking the modules and encoding their BTF with $PAHOLE (once per kernel build)"
		mkdir -p "$dir/intree" "$dir/extmod"
		cp "$v" "$dir/vmlinux"
		{ find "$kc/build" -name '*.ko' 2>/dev/null; echo "$testmod"; } |
		while read -r m; do
			[ -r "$m" ] || continue
			g=$(group "$m") n=$(basename "$m" .ko)
			if relink "$m" "$dir/$g/$n.pre.ko" "$kc/build" && encode "$dir/$g" "$n" "$dir/vmlinux"; then
				:
			else
				echo "bench: $m: relink or pahole failed" >>"$LOG"
				rm -f "$dir/$g/$n".*
			fi
		done
		# none at all: the kernel cache is being rebuilt, perhaps; the
		# next run tries again
		if [ -n "$(find "$dir/" -name '*.pre.ko')" ]; then
			touch "$dir/.complete"
		else
			rm -rf "$dir"
		fi
	fi
	n=$(find "$dir/" -name '*.pre.ko' 2>/dev/null | wc -l)
	if [ "$n" -eq 0 ]; then
		skip "$label" "no module of $kc could be relinked and encoded (see $LOG)"
		return
	fi
	printf 'set\t%s\t%s\t%s\t%s\t%s\n' "$id" "$label" "$dir/vmlinux" "$dir" \
		"$(names "$dir/intree") in-tree, $(names "$dir/extmod") out-of-tree; relinked from their .ko.cmd, split BTF by pahole $("$PAHOLE" --version) --btf_base vmlinux"
}
KC612=${KERNEL_CACHE:-$KROOT/kernel-6.12}
KC73=${KERNEL_CACHE_7_3:-$KROOT/kernel-7.3}
kernel_set k612 "6.12 kernel proof's modules" "$KC612" \
	"$KC612/src/linux-source-6.12/tools/testing/selftests/bpf/bpf_testmod/bpf_testmod.ko"
kernel_set k73 "7.3 kernel proof's modules" "$KC73" "$KC73/testmod/bpf_testmod.ko"

# ---- Debian's modules ----
# modules_into TREE DIR: every module of TREE, decompressed, as DIR/NAME.ko
modules_into() {
	find "$1" -name '*.ko*' | while read -r m; do
		n=$(basename "$m") n=${n%%.ko*}
		case $m in
		*.xz) xz -dc "$m" ;;
		*.zst) zstd -qdc "$m" ;;
		*.gz) gzip -dc "$m" ;;
		*) cat "$m" ;;
		esac >"$2/$n.ko"
	done
}
deb_ok() {
	list=$(dpkg-deb -c "$1" 2>/dev/null) || return 1
	case $list in *'/vmlinuz-'*) ;; *) return 1 ;; esac
	case $list in *'.ko'*) return 0 ;; esac
	return 1
}
DEB=${BENCH_DEBIAN_DEB:-}
if [ -z "$DEB" ]; then
	for d in "$KROOT"/dev-kernels/linux-image-*.deb "$CACHE"/linux-image-*.deb; do
		if [ -r "$d" ] && deb_ok "$d"; then DEB=$d; break; fi
	done
fi
XV=
for x in "$CACHE/../linux-7.3/src/linux-source-7.3" "$KC612/src/linux-source-6.12"; do
	[ -x "$x/scripts/extract-vmlinux" ] && XV=$x/scripts/extract-vmlinux && break
done
# else the kernels make corpus-debian fetched (scripts/fetch-debian-kernel.sh:
# VERSION/vmlinux and VERSION/root/lib/modules unpacked), bookworm's 6.1
# first: BENCH_DEBIAN_KERNEL names one such VERSION directory
KDIR=${BENCH_DEBIAN_KERNEL:-}
dir=
if [ -z "$DEB" ] && [ -z "$KDIR" ]; then
	for d in "$KROOT"/debian-kernels/bookworm/cloud-amd64/*/ "$KROOT"/debian-kernels/*/cloud-amd64/*/; do
		if [ -f "$d/.complete" ] && [ -f "$d/vmlinux" ]; then KDIR=${d%/}; break; fi
	done
fi
# debian_kernel KDIR: ver and dir (in CACHE) of a kernel of make
# corpus-debian, its modules decompressed into dir/all once
debian_kernel() {
	ver=$(basename "$(dirname "$1")")-$(basename "$1")
	dir=$CACHE/debian-$ver.$(stamp "$1/vmlinux")
	if [ ! -f "$dir/.complete" ]; then
		rm -rf "$CACHE/debian-$ver".*
		say "Debian $ver: its modules from $1 (once)"
		mkdir -p "$dir/all"
		cp "$1/vmlinux" "$dir/vmlinux"
		modules_into "$1/root" "$dir/all"
		touch "$dir/.complete"
	fi
}
# eligible DIR: DIR/eligible, the modules of DIR/all with .BTF and no
# resolved set8, once. A set8 resolved by Debian's resolve_btfids is refused
# by btf2btf with dedup/sort (its ids would go stale; the build runs btf2btf
# first), and the set8s' order was sorted by id: the state before cannot be
# rebuilt.
eligible() {
	[ ! -f "$1/eligible" ] || return 0
	ls "$1/all" | sort | while read -r f; do
		m=$1/all/$f
		readelf -S "$m" 2>/dev/null | grep -q ' \.BTF ' || continue
		! readelf -sW "$m" 2>/dev/null | grep -q '__BTF_ID__set8__' || continue
		echo "${f%.ko}"
	done >"$1/eligible.tmp"
	mv "$1/eligible.tmp" "$1/eligible"
}
# select_module DIR NAME SEL: the module as the BTF phase meets it, into
# SEL/GROUP: NAME.BTF.1 (the shipped .BTF, taken as pahole's split BTF),
# NAME.pre.ko (without it), NAME.ko (with it, as before modules_sign:
# objcopy keeps the sections, not the signature appended after them)
select_module() {
	g=$(group "$1/all/$2.ko")
	mkdir -p "$3/intree" "$3/extmod"
	objcopy --dump-section .BTF="$3/$g/$2.BTF.1" "$1/all/$2.ko" "$3/$g/$2.tmp"
	rm -f "$3/$g/$2.tmp"
	objcopy --remove-section .BTF "$1/all/$2.ko" "$3/$g/$2.pre.ko"
	objcopy "$1/all/$2.ko" "$3/$g/$2.ko"
}
if [ -z "$DEB" ] && [ -n "$KDIR" ]; then
	debian_kernel "$KDIR"
elif [ -z "$DEB" ]; then
	dir=
	skip "Debian's modules" "no linux-image-*.deb with vmlinuz and modules in $KROOT/dev-kernels or $CACHE (or set BENCH_DEBIAN_DEB), and no kernel of make corpus-debian in $KROOT/debian-kernels (or set BENCH_DEBIAN_KERNEL)"
elif [ -z "$XV" ]; then
	dir=
	skip "Debian's modules" "no scripts/extract-vmlinux (a linux-source tree in .cache/linux-7.3 or the 6.12 kernel cache)"
else
	ver=$(dpkg-deb -f "$DEB" Package | sed 's/^linux-image-//')
	dir=$CACHE/debian-$ver.$(stamp "$DEB")
	if [ ! -f "$dir/.complete" ]; then
		rm -rf "$CACHE/debian-$ver".*
		say "Debian $ver: unpacking $DEB, its vmlinux and modules (once)"
		mkdir -p "$dir/all"
		dpkg-deb -x "$DEB" "$dir/x"
		sh "$XV" "$dir"/x/boot/vmlinuz-* >"$dir/vmlinux" 2>>"$LOG"
		modules_into "$dir/x" "$dir/all"
		rm -rf "$dir/x"
		touch "$dir/.complete"
	fi
fi
if [ -n "$dir" ]; then
	total=$(ls "$dir/all" | wc -l)
	if ! readelf -S "$dir/vmlinux" 2>/dev/null | grep -q ' \.BTF '; then
		skip "Debian $ver modules" "no .BTF in the vmlinux extract-vmlinux made of its vmlinuz (see $LOG)"
		dir=
	fi
fi
if [ -n "$dir" ]; then
	eligible "$dir"
	ne=$(wc -l <"$dir/eligible")
	want=${BENCH_DEBIAN_MODULES:-100}
	[ "$want" = all ] || [ "$want" -gt "$ne" ] && want=$ne
	sel=$WORK/modset-debian
	mkdir -p "$sel/intree" "$sel/extmod"
	awk -v w="$want" '{ l[NR] = $0 } END { for (i = 0; i < w; i++) print l[int(i * NR / w) + 1] }' \
		"$dir/eligible" | while read -r n; do
		select_module "$dir" "$n" "$sel"
	done
	nsel=$(find "$sel" -name '*.pre.ko' | wc -l)
	printf 'set\t%s\t%s\t%s\t%s\t%s\n' debian "Debian $ver modules" "$dir/vmlinux" "$sel" \
		"$nsel of its $total modules (evenly spaced in name order among the $ne with .BTF and no resolved set8; BENCH_DEBIAN_MODULES=all for all), as shipped: .BTF is pahole's, the split BTF"
fi

# ---- the largest modules of each Debian kernel ----
# btf_size MODULE: the bytes of its .BTF section
btf_size() {
	hex=$(readelf -SW "$1" 2>/dev/null |
		sed -n 's/.* \.BTF  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
	echo $((0x${hex:-0}))
}
LARGEST=${BENCH_LARGEST:-5}
found=
# (in version order: the directories are SUITE/cloud-amd64/VERSION)
printf '%s\n' "$KROOT"/debian-kernels/*/cloud-amd64/*/ |
	awk -F/ '{ print $(NF - 1) "\t" $0 }' | sort -V | cut -f2 >"$WORK/debian-kernels"
while read -r k; do
	k=${k%/}
	[ -f "$k/.complete" ] && [ -f "$k/vmlinux" ] || continue
	found=1
	debian_kernel "$k"
	readelf -S "$dir/vmlinux" 2>/dev/null | grep -q ' \.BTF ' ||
		{ skip "Debian $ver's largest modules" "no .BTF in $dir/vmlinux"; continue; }
	eligible "$dir"
	if [ ! -f "$dir/btf-sizes" ]; then
		while read -r n; do
			printf '%s %s\n' "$(btf_size "$dir/all/$n.ko")" "$n"
		done <"$dir/eligible" | sort -k1,1nr -k2 >"$dir/btf-sizes.tmp"
		mv "$dir/btf-sizes.tmp" "$dir/btf-sizes"
	fi
	kv=$(basename "$k")
	head -n "$LARGEST" "$dir/btf-sizes" | while read -r size n; do
		sel=$WORK/largest-$kv-$n
		select_module "$dir" "$n" "$sel"
		printf 'module\t%s\t%s\t%s\t%s\t%s\n' "$kv/$n" "Debian $kv $n.ko ($size bytes of .BTF)" \
			"$dir/vmlinux" "$sel" \
			"among the $LARGEST largest .BTF of its $(wc -l <"$dir/eligible") modules with .BTF and no resolved set8, as shipped (its .BTF as the split BTF)"
	done
done <"$WORK/debian-kernels"
[ -n "$found" ] || skip "Debian's largest modules" "no kernel of make corpus-debian in $KROOT/debian-kernels"
