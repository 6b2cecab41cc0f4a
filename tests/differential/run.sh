#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The differential against upstream: Linux 7.3's resolve_btfids (the oracle,
# scripts/oracle-resolve-btfids.sh) and `btf2btf --features=all` on the same
# inputs -- every fixture of `make fixtures`, DIFF_N random objects
# (fixtures/random.c, seeded; FUNCs with unnamed parameters among them) and
# two batches of DIFF_N_KERNEL random objects whose BTF the kernel loads
# (mkfixture random --kernel-valid: kv612_*, no kind_flag decl tag, for 6.12;
# kv73_*, with them, for 7.3; the guests' BPF_BTF_LOAD judges these,
# kernel/scripts/btf-accept-sets.sh) -- compared by a name-based canonical form
# (btfcanon: each type spelled out by kinds, names, members and parameters,
# sorted, compared as a multiset). The layout sections (Linux 7.1+'s 32-byte
# header) of both outputs must be the same bytes, as must their distilled
# bases'; the report counts the inputs that carry one.
#
#   tests/differential/run.sh BUILD_DIR RESOLVE_BTFIDS
#
# Upstream's flow (7.3 scripts/gen-btf.sh): `pahole -J --btf_encode_detached=
# X.BTF.1 X`, then `resolve_btfids [--btf_base BASE [--distill_base]] --btf
# X.BTF.1 X`, which writes X.BTF (and X.BTF.base). Random objects come with
# their X.BTF.1; the fixtures' is taken from their .BTF (or from pahole for
# the compiled ones). Ours: `btf2btf --features=all [--btf-base BASE]
# [--distill-base] --btf X.BTF.1 -o OUT X` (distilled base in OUT.base).
#
# Outcomes per object: same (canonical forms equal; byte-identical counted
# too), documented (the only differences are upstream's decl tags of a
# dropped parameter, left on the reduced kfunc with component_idx >= vlen:
# the kernel refuses them, btf2btf moves them to X_impl), documented refusal
# (a .BTF_ids resolved already: upstream resolves it again, btf2btf refuses
# to renumber types under its ids, as issue 12 allows), both refused (the
# same input is an error for both), different (anything else: exit 1).
#
# Environment: DIFF_FEATURES (btf2btf's feature option, default
# --features=all; set it empty to see where plain btf2btf stands), DIFF_SEED (default 20261203; "random": from the clock),
# DIFF_N (random objects, default 300), DIFF_N_KERNEL (each kernel-valid
# batch, default 150; seeds DIFF_SEED+1 and +2), DIFF_SHOW (differences shown in full,
# default 3), DIFF_NO_DEDUP (non-empty: random BTF with duplicate types,
# which pahole never writes), DIFF_JOBS (parallel workers, default 2), DIFF_WORK (default BUILD_DIR/differential: each build its own),
# DIFF_EXTRA (a directory of more base objects, NAME lines in its manifest,
# each with NAME.o and NAME.BTF.1, its label in label: make check-layout).
set -uo pipefail

BUILD=${1:?usage: run.sh BUILD_DIR RESOLVE_BTFIDS}
RB=${2:?usage: run.sh BUILD_DIR RESOLVE_BTFIDS}
ROOT=$(pwd)
B2B=${DIFF_BTF2BTF:-$ROOT/$BUILD/btf2btf}
MKF=$ROOT/$BUILD/fixtures/mkfixture
CANON=$ROOT/$BUILD/tests/btfcanon
# btf_layout FILE: its layout section as hex, or "none"
. "$ROOT/scripts/btf-layout.sh"
FX=$ROOT/$BUILD/fixtures
SEED=${DIFF_SEED:-20261203}
[ "$SEED" = random ] && SEED=$(date +%s)
N=${DIFF_N:-300}
NK=${DIFF_N_KERNEL:-150}
SHOW=${DIFF_SHOW:-3}
W=${DIFF_WORK:-$ROOT/$BUILD/differential}
PAHOLE=${PAHOLE:-pahole}
FEATURES=${DIFF_FEATURES---features=all}

rm -rf "$W"
mkdir -p "$W/in" "$W/up" "$W/ours" "$W/canon" "$W/res"

echo "differential: upstream $RB ($(cd "$(dirname "$RB")" && pwd | sed "s|^$ROOT/||"))"
echo "differential: btf2btf $B2B $FEATURES"
if [ -n "$FEATURES" ] && ! "$B2B" "$FEATURES" --help >/dev/null 2>&1; then
	echo "differential: NOTE: $B2B does not accept $FEATURES (issue 12 items 1-4 not merged yet): every object it must rewrite will differ"
fi
echo "differential: seed $SEED, $N random objects and 2 x $NK kernel-valid ones (DIFF_SEED=$SEED DIFF_N=$N DIFF_N_KERNEL=$NK make differential reproduces this run)"

# ---- the inputs: NAME KIND [BASE] into $W/cases ----
CASES=$W/cases
. "$ROOT/tests/differential/inputs.sh"

# ---- run both, compare ----
# result line per case in $W/res/NAME: OUTCOME [DETAIL]; in $W/res/NAME.layout
# the layout sections compared (input, outputs: "none" or their size)
run_case() {
	local name=$1 kind=$2 base=$3
	local up=$W/up/$name ours=$W/ours/$name.BTF c=$W/canon/$name
	local upargs=() ourargs=() upbase=$base ourbase=$base
	mkdir -p "$up"
	cp "$W/in/$name.o" "$up/$name.o"
	if [ "$kind" != vmlinux ]; then
		upargs=(--btf_base "$base")
		ourargs=(--btf-base "$base")
	fi
	if [ "$kind" = module-distill ]; then
		upargs+=(--distill_base)
		ourargs+=(--distill-base)
		upbase=$up/$name.o.BTF.base
		ourbase=$ours.base
	fi
	"$RB" "${upargs[@]}" --btf "$W/in/$name.BTF.1" "$up/$name.o" >"$c.up.log" 2>&1
	local up_rc=$?
	"$B2B" $FEATURES "${ourargs[@]}" --btf "$W/in/$name.BTF.1" -o "$ours" "$W/in/$name.o" \
		>"$c.ours.log" 2>&1
	local our_rc=$?
	if [ $our_rc -ne 0 ] && [ -e "$ours" ]; then
		echo "different: btf2btf failed (exit $our_rc) but left $ours behind" > "$W/res/$name"
		return
	fi
	# both refused: btf2btf's error status (1), no sanitizer report
	if [ $up_rc -ne 0 ] && [ $our_rc -eq 1 ] &&
	   ! grep -qE 'Sanitizer|runtime error:' "$c.ours.log"; then
		echo "refused" > "$W/res/$name"
		return
	fi
	if [ $up_rc -eq 0 ] && [ $our_rc -eq 1 ] &&
	   grep -q 'is resolved already (resolve_btfids ran)' "$c.ours.log"; then
		# documented: btf2btf refuses to renumber types (dedup/sort) under
		# ids resolve_btfids wrote already (issue 12: remap them or refuse)
		echo "refused-resolved" > "$W/res/$name"
		return
	fi
	if [ $up_rc -ne 0 ] || [ $our_rc -ne 0 ]; then
		echo "different exit status: upstream $up_rc, btf2btf $our_rc" > "$W/res/$name"
		return
	fi
	local upc=() ourc=()
	[ "$upbase" = - ] || upc=(-b "$upbase")
	[ "$ourbase" = - ] || ourc=(-b "$ourbase")
	if ! "$CANON" "${upc[@]}" "$up/$name.o.BTF" > "$c.up" 2>"$c.up.err"; then
		echo "different: upstream's output does not parse: $(head -1 "$c.up.err")" > "$W/res/$name"
		return
	fi
	if ! "$CANON" "${ourc[@]}" "$ours" > "$c.ours" 2>"$c.ours.err"; then
		echo "different: btf2btf's output does not parse: $(head -1 "$c.ours.err")" > "$W/res/$name"
		return
	fi
	if [ "$kind" = module-distill ]; then
		# the distilled bases themselves
		{ echo "== .BTF.base"; "$CANON" "$upbase"; } >> "$c.up" 2>>"$c.up.err"
		{ echo "== .BTF.base"; "$CANON" "$ourbase"; } >> "$c.ours" 2>>"$c.ours.err"
	fi
	# the layout sections: upstream keeps pahole's, btf2btf must write the
	# same bytes (and the distilled bases' too)
	# (their lengths first, one od for all: most have none)
	local files=("$W/in/$name.BTF.1" "$up/$name.o.BTF" "$ours") lens lin=none lup=none lours=none
	[ "$kind" != module-distill ] || files+=("$upbase" "$ourbase")
	btf_layout_lens "${files[@]}"
	lens=${LAYOUT_LENS[*]}
	if [ "${lens//[0 ]/}" != "" ]; then
		lin=$(btf_layout "${files[0]}" 2>&1)
		lup=$(btf_layout "${files[1]}" 2>&1)
		lours=$(btf_layout "${files[2]}" 2>&1)
		if [ "$kind" = module-distill ]; then
			lup="$lup base $(btf_layout "$upbase" 2>&1)"
			lours="$lours base $(btf_layout "$ourbase" 2>&1)"
		fi
	fi
	if [ "$lup" != "$lours" ]; then
		echo "different: layout sections differ (upstream ${lup:0:80}, btf2btf ${lours:0:80})" > "$W/res/$name"
		return
	fi
	# (whether the input has one, the size of the outputs')
	local lout=${lup%% *}
	[ "$lout" = none ] && lout=0 || lout=$((${#lout} / 2))
	echo "$([ "$lin" = none ] && echo no || echo yes) $lout" > "$W/res/$name.layout"
	local bytes=no
	if cmp -s "$up/$name.o.BTF" "$ours" &&
	   { [ "$kind" != module-distill ] || cmp -s "$upbase" "$ourbase"; }; then
		bytes=yes
	fi
	if cmp -s "$c.up" "$c.ours"; then
		echo "same $bytes" > "$W/res/$name"
		return
	fi
	# multiset difference; upstream-only DANGLING decl tags are the documented one
	diff "$c.up" "$c.ours" > "$c.diff"
	local undoc dangling
	read -r undoc dangling < <(awk -f "$ROOT/tests/differential/classify.awk" "$c.diff")
	if [ "$undoc" -eq 0 ]; then
		echo "documented $dangling" > "$W/res/$name"
	else
		echo "different: $undoc canonical lines differ" > "$W/res/$name"
	fi
}

# two workers (the machine has 2 cores), each taking every other case
JOBS=${DIFF_JOBS:-2}
for ((j = 0; j < JOBS; j++)); do
	awk -v j=$j -v n=$JOBS 'NR % n == j' "$CASES" | while read -r name kind base; do
		run_case "$name" "$kind" "$base"
	done &
done
wait

# ---- report ----
total=0 same=0 bytes=0 doc=0 dtags=0 refused=0 diffs=0 resolved=0
layout_in=0 layout_kept=0 layout_bytes=0 layout_added=0
shown=0
difflist=()
while read -r name kind base; do
	total=$((total + 1))
	read -r outcome detail < "$W/res/$name"
	case $outcome in
	same) same=$((same + 1)); [ "$detail" = yes ] && bytes=$((bytes + 1)) ;;
	documented) doc=$((doc + 1)); dtags=$((dtags + detail)) ;;
	refused) refused=$((refused + 1)) ;;
	refused-resolved) resolved=$((resolved + 1)) ;;
	*) diffs=$((diffs + 1)); difflist+=("$name") ;;
	esac
	if [ -f "$W/res/$name.layout" ]; then
		read -r has size < "$W/res/$name.layout"
		if [ "$has" = yes ]; then
			layout_in=$((layout_in + 1))
			[ "$size" = 0 ] || { layout_kept=$((layout_kept + 1)); layout_bytes=$size; }
		elif [ "$size" != 0 ]; then
			layout_added=$((layout_added + 1))
		fi
	fi
done < "$CASES"

for name in "${difflist[@]}"; do
	[ "$shown" -lt "$SHOW" ] || break
	shown=$((shown + 1))
	read -r kind base < <(awk -v n="$name" '$1 == n { print $2, $3 }' "$CASES")
	seed=$(awk -v n="$name" '$1 == n { print $3 }' "$W/in/manifest")
	echo
	echo "---- $name ($kind${seed:+, seed $seed}): $(cat "$W/res/$name")"
	if [ -s "$W/canon/$name.diff" ]; then
		echo "     (< upstream only, > btf2btf only)"
		grep -E '^[<>] ' "$W/canon/$name.diff" | head -12 | cut -c1-300 | sed 's/^/     /'
	else
		sed -n '1,4p' "$W/canon/$name.up.log" | sed 's/^/     upstream: /'
		sed -n '1,4p' "$W/canon/$name.ours.log" | sed 's/^/     btf2btf:  /'
	fi
	[ "$base" != - ] || base=
	echo "     inputs: $W/in/$name.{o,BTF.1${base:+,base}}; outputs: $W/up/$name/, $W/ours/$name.BTF"
done
if [ "$diffs" -ne 0 ]; then
	# the differences by cause: the failing side's first message, or the
	# kind of canonical line that differs, names and paths folded
	echo
	echo "differences by cause (count, first object):"
	for name in "${difflist[@]}"; do
		read -r outcome < "$W/res/$name"
		c=$W/canon/$name
		case $outcome in
		"different exit status: upstream 0"*) why="btf2btf refused: $(grep -m1 -iE 'error|unrecognized' "$c.ours.log")" ;;
		"different exit status"*) why="upstream refused: $(grep -m1 -iE 'error' "$c.up.log")" ;;
		"different: "*"canonical"*)
			why="canonical: $(grep -m1 -E '^[<>] ' "$c.diff" | sed -E "s/^(. [a-z_]+(\\[attr\\])?( '[^']*')?).*/\\1/")" ;;
		*) why=$outcome ;;
		esac
		printf '%s\t%s\n' "$(printf '%s' "$why" | sed -E "s|$W/[^ :]*|OBJ|g; s/bpf_(r[0-9a-f]{4}|base)_kf[0-9]+/KFUNC/g; s/r[0-9a-f]{4}_/rXXXX_/g" | cut -c1-150)" "$name"
	done | awk -F'\t' '{ n[$1]++; if (!($1 in first)) first[$1] = $2 } END { for (k in n) printf "  %5d  %s  (%s)\n", n[k], k, first[k] }' | sort -rn | head -12
	echo
fi

echo "differential: $total objects ($N random, seed $SEED; $((2 * NK)) kernel-valid random; $nfix fixtures${DIFF_EXTRA:+; $nextra from $(cat "$DIFF_EXTRA/label" 2>/dev/null || echo "$DIFF_EXTRA")})"
echo "  same:               $((same)) ($bytes byte-identical)"
echo "  documented:         $doc (upstream leaves $dtags decl tags of dropped parameters on the reduced kfunc; btf2btf moves them to _impl)"
echo "  documented refusal: $resolved (.BTF_ids resolved already: btf2btf will not renumber the types its ids name)"
echo "  both refused:       $refused"
echo "  layout sections:    $layout_in inputs carry one; upstream keeps it in $layout_kept (${layout_bytes} bytes), btf2btf writes the same bytes in each; $layout_added outputs have one without input"
echo "  semantic differences: $diffs"
if [ "$diffs" -ne 0 ]; then
	echo "differential: FAILED: $diffs objects differ from upstream (list: $W/failed)"
	printf '%s\n' "${difflist[@]}" > "$W/failed"
	exit 1
fi
echo "differential: ok"
