#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make bench: prepare the inputs, write the spec, run bench/bench.c.
#   bench/run.sh BUILD_DIR
# Environment: BENCH_RUNS (7), BENCH_WARMUP (1), BENCH_SIZES ("100 1000 10000 100000"),
#   BENCH_VMLINUX (a vmlinux to use instead of looking in KERNEL_CACHE/build),
#   BENCH_VMLINUX73 (a 7.3 vmlinux to use instead of looking in KERNEL_CACHE_7_3/build),
#   BENCH_UPSTREAM=0 (no rows of Linux 7.3's resolve_btfids: it is fetched and built once),
#   BENCH_UPSTREAM_MAX (10000: largest synthetic size upstream runs on; its per-kfunc
#   name lookups are linear, ~80 s CPU a run at 100,000 kfuncs),
#   BENCH_SYS_BTF (/sys/kernel/btf/vmlinux), BPFTOOL, BENCH_KERNEL_TARBALL,
#   BENCH_OLD_BTF2BTF (another btf2btf, an earlier commit's: rows "btf2btf@LABEL
#   --features=all" and, for the module sets, "btf2btf@LABEL all, per module", in the
#   same run), BENCH_OLD_LABEL (LABEL: e70b18f, the commit issue 26 compared with),
#   BENCH_DEBIAN_DEB (a linux-image .deb whose modules make a module set),
#   BENCH_DEBIAN_MODULES (100, or all: how many of its modules),
#   BENCH_INPUTS (the inputs to run, of: vmlinux sys synthetic vmlinux-7.3 modsets; default all),
#   KERNEL_CACHE_ROOT, KERNEL_CACHE, KERNEL_CACHE_7_3 (the kernel proofs' caches, as
#   kernel/kernel.mk sets them: the vmlinux and module inputs).
# Everything generated goes to .cache/bench (git-ignored).
set -eu
BUILD=${1:-build}
ROOT=$(pwd)
CACHE=$ROOT/.cache/bench
W=$CACHE/work
B2B=$ROOT/$BUILD/btf2btf
MKF=$ROOT/$BUILD/fixtures/mkfixture
PW=$ROOT/$BUILD/bench/parse_write
BENCH=$ROOT/$BUILD/bench/bench
RUNS=${BENCH_RUNS:-7}
WARMUP=${BENCH_WARMUP:-1}
SIZES=${BENCH_SIZES:-"100 1000 10000 100000"}
SYS_BTF=${BENCH_SYS_BTF:-/sys/kernel/btf/vmlinux}
T=$(printf '\t')
# the kernel proofs' caches (kernel/kernel.mk's defaults)
if [ -z "${KERNEL_CACHE_ROOT:-}" ]; then
	if [ -w /var/cache ]; then KERNEL_CACHE_ROOT=/var/cache/btf2btf; else KERNEL_CACHE_ROOT=$HOME/.cache/btf2btf; fi
fi
KERNEL_CACHE=${KERNEL_CACHE:-$KERNEL_CACHE_ROOT/kernel-6.12}
KERNEL_CACHE_7_3=${KERNEL_CACHE_7_3:-$KERNEL_CACHE_ROOT/kernel-7.3}
export KERNEL_CACHE_ROOT KERNEL_CACHE KERNEL_CACHE_7_3

rm -rf "$W"
mkdir -p "$W/log"
SPEC=$W/spec

# row ID TOOL OUT PREP ARGV...
row() {
	id=$1 tool=$2 out=$3 prep=$4
	shift 4
	line="row$T$id$T$tool$T$out$T$prep"
	for a in "$@"; do line="$line$T$a"; done
	printf '%s\n' "$line" >>"$SPEC"
}
skip() { printf 'skip\t%s\t%s\n' "$1" "$2" >>"$SPEC"; }
# wanted INPUT: in BENCH_INPUTS (all when unset); else skipped, saying so
wanted() {
	case " ${BENCH_INPUTS:-$1} " in
	*" $1 "*) return 0 ;;
	esac
	skip "$1" "not in BENCH_INPUTS=$BENCH_INPUTS"
	return 1
}
input() { printf 'input\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$SPEC"; }

# ---- tools ----
BPFTOOL=${BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}
[ -x "$BPFTOOL" ] || BPFTOOL=
RB_OUT=$("$ROOT/bench/resolve_btfids.sh" "$CACHE") && RB=$RB_OUT || RB=
RB_SKIP=${RB_OUT#skip: }
[ -n "$BPFTOOL" ] || skip "bpftool-dump" "bpftool not found (apt-get install bpftool)"
[ -n "$RB" ] || skip "resolve_btfids" "$RB_SKIP"
# Linux 7.3's resolve_btfids: upstream's btf2btf phase, what --features=all matches
RB73=
if [ "${BENCH_UPSTREAM:-1}" = 0 ]; then
	skip "resolve_btfids-7.3" "BENCH_UPSTREAM=0"
elif RB73=$("$ROOT/scripts/oracle-resolve-btfids.sh" "$ROOT/.cache" 2>"$W/log/oracle.err"); then
	:
else
	RB73=
	skip "resolve_btfids-7.3" "scripts/oracle-resolve-btfids.sh failed: $(tail -1 "$W/log/oracle.err")"
fi
ALL=
if "$B2B" --features=all --help >/dev/null 2>&1; then
	ALL=1
else
	skip "btf2btf --features=all" "$B2B does not accept --features=all yet (issue 12 items 1-4)"
fi

# btf2btf --features=all and 7.3's resolve_btfids on the same raw BTF (the
# .BTF.1 pahole --btf_encode_detached writes in the 7.3 build) and object
# upstream ID BTF1 OBJ
OLD_B2B=${BENCH_OLD_BTF2BTF:-}
OLD_LABEL=${BENCH_OLD_LABEL:-e70b18f}
upstream() {
	id=$1 btf1=$2 obj=$3
	[ -z "$ALL" ] || row "$id" "btf2btf --features=all" "$W/$id.all.btf" - \
		"$B2B" -q --features=all --btf "$btf1" -o "$W/$id.all.btf" "$obj"
	[ -z "$ALL" ] || [ -z "$OLD_B2B" ] || row "$id" "btf2btf@$OLD_LABEL --features=all" \
		"$W/$id.old.btf" - "$OLD_B2B" -q --features=all --btf "$btf1" -o "$W/$id.old.btf" "$obj"
	if [ -n "$RB73" ]; then
		copy=$W/$id.rb73.o
		row "$id" resolve_btfids-7.3 "$copy.BTF" "cp '$obj' '$copy'" "$RB73" --btf "$btf1" "$copy"
	fi
}

# baselines of one input: parse+write, bpftool dump, resolve_btfids on a copy
# baselines ID BTF_SOURCE RB_OBJ [RB_ARGS...]
baselines() {
	id=$1 src=$2 obj=$3
	shift 3
	row "$id" parse+write "$W/$id.pw.btf" - "$PW" "$src" "$W/$id.pw.btf"
	row "$id" "parse+write --huge-heap" "$W/$id.pwh.btf" - "$PW" --huge-heap "$src" "$W/$id.pwh.btf"
	row "$id" "parse+modify+write" "$W/$id.pmw.btf" - "$PW" --modify "$src" "$W/$id.pmw.btf"
	[ -z "$BPFTOOL" ] || row "$id" bpftool-dump - - "$BPFTOOL" btf dump file "$src"
	if [ -n "$RB" ]; then
		copy=$W/$id.rb.o
		row "$id" resolve_btfids "$copy" "cp '$obj' '$copy'" "$RB" "$@" "$copy"
	fi
}

# ---- input 1: the 6.12 vmlinux of the kernel cache ----
find_vmlinux() {
	for name in vmlinux .tmp_vmlinux1; do
		find "$KERNEL_CACHE/build" -maxdepth 1 -type f -name "$name" 2>/dev/null
	done | while read -r f; do
		if readelf -S "$f" 2>/dev/null | grep -q ' \.BTF '; then
			echo "$f"
			break
		fi
	done
}
VMLINUX=${BENCH_VMLINUX:-$(find_vmlinux)}
vmlinux_found=
if ! wanted vmlinux; then
	VMLINUX=
elif [ -n "$VMLINUX" ] && [ -r "$VMLINUX" ]; then
	V=$W/vmlinux
	cp "$VMLINUX" "$V"	# a snapshot: the kernel build may rewrite its own
	info=$("$PW" --info "$V")
	state=$("$B2B" -n "$V" 2>&1 | sed -n 's/.*KF_IMPLICIT_ARGS: \([^;]*\);.*/\1/p')
	input vmlinux vmlinux "6.12 vmlinux" \
		"$VMLINUX, $info, $(stat -c %s "$V") bytes ELF; btf2btf -n: ${state:-?}"
	row vmlinux btf2btf "$W/vmlinux.b2b.btf" - "$B2B" -q -o "$W/vmlinux.b2b.btf" "$V"
	baselines vmlinux "$V" "$V"
	vmlinux_found=1
else
	skip "6.12 vmlinux" "no vmlinux or .tmp_vmlinux1 with a .BTF section in $KERNEL_CACHE/build (make kernel-test builds one; or set BENCH_VMLINUX)"
fi

# ---- input 1b: the same kernel's BTF as btf2btf meets it in the build ----
# The kernel cache's objects went through btf2btf already (link-vmlinux.sh
# runs it after pahole -J), so the transform has nothing left to do on
# them. Re-encode .tmp_vmlinux1 with the build's pahole flags to get the
# BTF btf2btf is given in the build, once per kernel build (cached).
TMP1=${VMLINUX:+$(dirname "$VMLINUX")/.tmp_vmlinux1}
PAHOLE=${PAHOLE:-pahole}
if [ -n "$vmlinux_found" ] && [ -r "$TMP1" ] && command -v "$PAHOLE" >/dev/null; then
	stamp="$(stat -c '%s.%Y' "$TMP1")"
	PRE=$CACHE/vmlinux-pre.$stamp
	if [ ! -f "$PRE" ]; then
		rm -f "$CACHE"/vmlinux-pre.*
		echo "bench: re-encoding $TMP1 with $PAHOLE -J --btf_gen_floats (once per kernel build)" >&2
		cp "$TMP1" "$PRE.tmp" &&
			LLVM_OBJCOPY=${OBJCOPY:-objcopy} "$PAHOLE" -J --btf_gen_floats "$PRE.tmp" >/dev/null &&
			mv "$PRE.tmp" "$PRE" || rm -f "$PRE.tmp"
	fi
fi
pre_note=
if [ -z "$VMLINUX" ] && [ -n "${BENCH_INPUTS:-}" ]; then
	PRE=	# vmlinux not wanted
elif [ -z "${PRE:-}" ] || [ ! -f "$PRE" ]; then
	# the kernel cache is being rebuilt (a src/ change deletes its vmlinux):
	# use the re-encoded copy of the last build, and say so
	PRE=$(ls -t "$CACHE"/vmlinux-pre.* 2>/dev/null | grep -v '\.tmp$' | head -1)
	[ -z "$PRE" ] || pre_note=" (kept in .cache/bench from the kernel build of $(date -r "$PRE" '+%F %T'): the kernel cache has none now)"
fi
if [ -n "${PRE:-}" ] && [ -f "$PRE" ]; then
	P=$W/vmlinux-pre
	cp "$PRE" "$P"
	info=$("$PW" --info "$P")
	state=$("$B2B" -n "$P" 2>&1 | sed -n 's/.*KF_IMPLICIT_ARGS: \([^;]*\);.*/\1/p')
	input vmlinux-pre vmlinux-pre "6.12 .tmp_vmlinux1 before btf2btf" \
		".tmp_vmlinux1 re-encoded by pahole $("$PAHOLE" --version) -J --btf_gen_floats$pre_note, $info, $(stat -c %s "$P") bytes ELF; btf2btf -n: ${state:-?}"
	row vmlinux-pre btf2btf "$W/vmlinux-pre.b2b.btf" - "$B2B" -q -o "$W/vmlinux-pre.b2b.btf" "$P"
	# the build's own step: rewrite .BTF of the ELF in place (fresh copy each run)
	row vmlinux-pre "btf2btf in place" "$W/vmlinux-pre.ip" "cp '$P' '$W/vmlinux-pre.ip'" \
		"$B2B" -q "$W/vmlinux-pre.ip"
	baselines vmlinux-pre "$P" "$P"
	# --features=all and 7.3's resolve_btfids on the same object and its
	# BTF written out raw, as 7.3's gen-btf.sh gives them X.BTF.1
	"$PW" "$P" "$W/vmlinux-pre.BTF.1"
	upstream vmlinux-pre "$W/vmlinux-pre.BTF.1" "$P"
else
	skip "6.12 .tmp_vmlinux1 before btf2btf" "needs a .tmp_vmlinux1 next to the kernel cache's vmlinux and pahole"
fi

# ---- input 2: this machine's BTF + a .BTF_ids listing its kfuncs ----
if ! wanted sys; then
	:
elif [ -r "$SYS_BTF" ]; then
	msg=$("$MKF" ids-for-btf "$SYS_BTF" "$W/sys-ids.o")
	info=$("$PW" --info "$SYS_BTF")
	input sys sys "$SYS_BTF (running kernel $(uname -r))" \
		"$info; .BTF_ids object: ${msg#*: }; btf2btf --btf"
	row sys btf2btf "$W/sys.b2b.btf" - "$B2B" -q --btf "$SYS_BTF" -o "$W/sys.b2b.btf" "$W/sys-ids.o"
	baselines sys "$SYS_BTF" "$W/sys-ids.o" --btf "$SYS_BTF"
	upstream sys "$SYS_BTF" "$W/sys-ids.o"
else
	skip "$SYS_BTF" "not readable (kernel without CONFIG_DEBUG_INFO_BTF?)"
fi

# ---- input 3: synthetic objects ----
wanted synthetic || SIZES=
for n in $SIZES; do
	id=synthetic-$n
	"$MKF" synthetic "$n" "$W/$id.o"
	info=$("$PW" --info "$W/$id.o")
	input "$id" "synthetic:$n" "synthetic, $n kfuncs" \
		"set8s of 1000, 3 decl tags each, every 10th KF_IMPLICIT_ARGS; $info"
	row "$id" btf2btf "$W/$id.b2b.btf" - "$B2B" -q -o "$W/$id.b2b.btf" "$W/$id.o"
	baselines "$id" "$W/$id.o" "$W/$id.o"
	"$PW" "$W/$id.o" "$W/$id.BTF.1"
	if [ -n "$RB73" ] && [ "$n" -gt "${BENCH_UPSTREAM_MAX:-10000}" ]; then
		skip "resolve_btfids-7.3 on $id" "more than BENCH_UPSTREAM_MAX=${BENCH_UPSTREAM_MAX:-10000} kfuncs (its name lookups are linear per kfunc: ~80 s CPU a run at 100,000)"
		RB73_SAVED=$RB73 RB73=
		upstream "$id" "$W/$id.BTF.1" "$W/$id.o"
		RB73=$RB73_SAVED
	else
		upstream "$id" "$W/$id.BTF.1" "$W/$id.o"
	fi
done

# ---- input 4: a 7.3 vmlinux (KERNEL=7.3 kernel cache), as upstream's build meets it ----
# .tmp_vmlinux1 next to it, through pahole --btf_encode_detached as 7.3's
# scripts/gen-btf.sh does, once per kernel build (cached)
find_vmlinux73() {
	find "$KERNEL_CACHE_7_3/build" -maxdepth 1 -type f -name vmlinux 2>/dev/null |
	while read -r f; do
		if [ -r "$(dirname "$f")/.tmp_vmlinux1" ]; then
			echo "$f"
			break
		fi
	done
}
V73=${BENCH_VMLINUX73:-$(find_vmlinux73)}
want73=1
wanted vmlinux-7.3 || V73= want73=
T73=${V73:+$(dirname "$V73")/.tmp_vmlinux1}
if [ -n "$V73" ] && [ -r "$T73" ] && command -v "$PAHOLE" >/dev/null; then
	stamp="$(stat -c '%s.%Y' "$T73")"
	PRE73=$CACHE/vmlinux73-pre.$stamp
	if [ ! -f "$PRE73.BTF.1" ]; then
		rm -f "$CACHE"/vmlinux73-pre.*
		echo "bench: pahole --btf_encode_detached on $T73 (once per 7.3 kernel build)" >&2
		cp "$T73" "$PRE73" &&
			"$PAHOLE" -J --btf_gen_floats --btf_encode_detached="$PRE73.BTF.1.tmp" "$PRE73" >/dev/null &&
			mv "$PRE73.BTF.1.tmp" "$PRE73.BTF.1" || rm -f "$PRE73" "$PRE73.BTF.1.tmp"
	fi
fi
if [ -n "${PRE73:-}" ] && [ -f "$PRE73.BTF.1" ]; then
	info=$("$PW" --info "$PRE73.BTF.1")
	input vmlinux-7.3 vmlinux73 "7.3 .tmp_vmlinux1 before resolve_btfids" \
		"$T73 through pahole $("$PAHOLE" --version) -J --btf_gen_floats --btf_encode_detached, $info; both tools --btf"
	row vmlinux-7.3 btf2btf "$W/v73.b2b.btf" - "$B2B" -q --btf "$PRE73.BTF.1" -o "$W/v73.b2b.btf" "$PRE73"
	row vmlinux-7.3 parse+write "$W/v73.pw.btf" - "$PW" "$PRE73.BTF.1" "$W/v73.pw.btf"
	upstream vmlinux-7.3 "$PRE73.BTF.1" "$PRE73"
elif [ -n "$want73" ]; then
	skip "7.3 vmlinux" "no vmlinux with a .tmp_vmlinux1 beside it in $KERNEL_CACHE_7_3/build (make kernel-test KERNEL=7.3 builds one; or set BENCH_VMLINUX73) or no pahole"
fi

# ---- input 5: module sets, each module as the kernel's BTF phase meets it ----
# (bench/module-sets.sh). Four rows: btf2btf over every module of a group in
# one process (the base read once, each .ko rewritten in place), btf2btf
# once per module in place, btf2btf once per module as our 7.3 patch's
# scripts/gen-btf.sh runs it (pahole's X.BTF.1 and the .ko read, X.BTF
# written: the files resolve_btfids reads and writes), and 7.3's
# resolve_btfids once per module as stock gen-btf.sh runs it. Each gets a
# fresh copy of the set before every run (untimed): all write next to or
# into the modules.
# modset_rows ID VMLINUX DIR
modset_rows() {
	id=$1 v=$2 dir=$3 run=$W/$1.run
	one=$W/$id.one.sh per=$W/$id.per.sh gen=$W/$id.gen.sh rb=$W/$id.rb73.sh old=$W/$id.old.sh
	printf 'set -e\n' | tee "$one" "$per" "$gen" "$old" >"$rb"
	for g in intree extmod; do
		mods=$(ls "$dir/$g" | sed -n 's/\.pre\.ko$//p')
		[ -n "$mods" ] || continue
		bd='' rd=''
		[ $g = intree ] || { bd=--distill-base rd=--distill_base; }
		files=
		for m in $mods; do
			files="$files '$run/$g/$m.ko'"
			printf "'%s' -q --features=all %s -B '%s' '%s'\n" "$B2B" "$bd" "$v" "$run/$g/$m.ko" >>"$per"
			printf "'%s' -q --features=all %s -B '%s' --btf '%s' -o '%s' '%s'\n" "$B2B" "$bd" \
				"$v" "$run/$g/$m.BTF.1" "$run/$g/$m.pre.ko.BTF" "$run/$g/$m.pre.ko" >>"$gen"
			[ -z "$OLD_B2B" ] || printf "'%s' -q --features=all %s -B '%s' '%s'\n" "$OLD_B2B" \
				"$bd" "$v" "$run/$g/$m.ko" >>"$old"
			printf "'%s' %s --btf_base '%s' --btf '%s' '%s'\n" "$RB73" "$rd" "$v" \
				"$run/$g/$m.BTF.1" "$run/$g/$m.pre.ko" >>"$rb"
		done
		printf "'%s' -q --features=all %s -B '%s'%s\n" "$B2B" "$bd" "$v" "$files" >>"$one"
	done
	prep="rm -rf '$run' && cp -rL '$dir' '$run'"
	row "$id" "btf2btf all, one run" - "$prep" sh "$one"
	row "$id" "btf2btf all, per module" - "$prep" sh "$per"
	row "$id" "btf2btf all, per module, gen-btf" - "$prep" sh "$gen"
	[ -z "$OLD_B2B" ] || row "$id" "btf2btf@$OLD_LABEL all, per module" - "$prep" sh "$old"
	row "$id" "resolve_btfids-7.3 per module" - "$prep" sh "$rb"
}
# module_rows ID VMLINUX DIR: one of the largest modules (DIR as a set's,
# with one module): btf2btf as our 7.3 gen-btf.sh runs it and 7.3's
# resolve_btfids as stock gen-btf.sh does, each a process of its own: the
# peak RSS of each on this module (issue 45: at or below resolve_btfids' on
# every module)
module_rows() {
	id=$1 v=$2 f=$(find "$3" -name '*.pre.ko') files=$W/$(echo "$1" | tr / _)
	bd='' rd=''
	case $f in */extmod/*) bd=--distill-base rd=--distill_base ;; esac
	# (split by the shell: the flag when there is one)
	# shellcheck disable=SC2086
	row "$id" "btf2btf all, gen-btf" "$files.BTF" - "$B2B" -q --features=all $bd -B "$v" \
		--btf "${f%.pre.ko}.BTF.1" -o "$files.BTF" "$f"
	# shellcheck disable=SC2086
	row "$id" resolve_btfids-7.3 "$files.pre.ko.BTF" "cp '$f' '$files.pre.ko'" "$RB73" $rd \
		--btf_base "$v" --btf "${f%.pre.ko}.BTF.1" "$files.pre.ko"
}
if ! wanted modsets; then
	:
elif [ -z "$ALL" ] || [ -z "$RB73" ]; then
	skip "module sets" "need btf2btf --features=all and 7.3's resolve_btfids (see above)"
else
	"$ROOT/bench/module-sets.sh" "$CACHE" "$W" >"$W/modsets" ||
		skip "module sets" "bench/module-sets.sh failed (see $W/log/module-sets.log)"
	while IFS="$T" read -r kind id label v dir note; do
		if [ "$kind" = skip ]; then
			skip "$id" "$label"
			continue
		elif [ "$kind" = module ]; then
			input "$id" module "$label" "$note"
			module_rows "$id" "$v" "$dir"
			continue
		fi
		n=$(find "$dir/" -name '*.pre.ko' | wc -l)
		input "$id" "modset:$n" "$label" "$n module(s) on their vmlinux ($(stat -c %s "$v") bytes): $note"
		modset_rows "$id" "$v" "$dir"
	done <"$W/modsets"
fi

exec "$BENCH" -r "$RUNS" -w "$WARMUP" -l "$W/log" "$SPEC"
