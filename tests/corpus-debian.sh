#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Debian's own kernels as a corpus (built by Debian, not here): the current
# cloud kernel of bookworm (6.1), trixie (6.12), sid (7.2) and
# trixie-backports (7.3), fetched by scripts/fetch-debian-kernel.sh into
# CACHE (keyed on the package version, printed). On each: --kfuncs and
# --check of vmlinux and of every module (-B vmlinux; .ko.xz read as it is),
# `-n --features=all -B vmlinux` on every module, and --diff --kfuncs of
# each vmlinux against the previous kernel's. Every run must exit 0 or
# with a documented refusal (below), never crash, and write nothing (no file
# of the unpacked packages is newer than the start). The counts are printed,
# never compared with fixed numbers: Debian keeps only current versions.
#
#   tests/corpus-debian.sh BTF2BTF CACHE [SUITE...]     (JOBS=N: modules in parallel, default nproc)
#
# Documented refusals (README.md, "Distribution kernels"):
#   resolved   the transform with dedup/sort of an installed module: its
#              .BTF_ids holds ids resolve_btfids wrote, which they would renumber
set -uo pipefail

die() { printf 'corpus-debian: error: %s\n' "$*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: $0 BTF2BTF CACHE [SUITE...]"
B=$(realpath "$1") CACHE=$2
shift 2
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=(bookworm trixie sid trixie-backports)
FLAVOUR=cloud-amd64
HERE=$(cd "$(dirname "$0")/.." && pwd)
command -v jq > /dev/null || die "needs jq"
command -v xargs > /dev/null || die "needs xargs"
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { printf 'corpus-debian: FAIL: %s\n' "$*"; fail=1; }

# refusal reasons the transform may give an installed module
refusal() {
	case "$1" in
	*"is resolved already (resolve_btfids ran)"*) echo resolved ;;
	*) echo "" ;;
	esac
}

# exit status rc of "what" is a crash (signal, sanitizer) or an unexpected status
check_rc() {
	local rc=$1 what=$2 errfile=$3

	if [ "$rc" -ge 2 ] || grep -q 'AddressSanitizer\|runtime error:' "$errfile"; then
		bad "$what: exit $rc: $(head -3 "$errfile")"
		return 1
	fi
	return 0
}

# A share of the modules through --kfuncs -j and --check -j, one process
# each (one read of the base for all): per module a line "OK KFUNCS CLEAN
# ERRORS WARNINGS legacy|- PATH", or "FAIL what: why" for the share, into
# a file of the share's own (shares run side by side: lines written to one
# stream would interleave).
views() {
	views_share "$@" > "$TMPD/views.$$"
}
views_share() {
	local k=$TMPD/k.$$ c=$TMPD/c.$$ rk rc n=$# errors sel
	# one object is printed bare, several in "objects"
	sel='(if has("objects") then .objects[] else . end)'
	"$B" -q -j --kfuncs -B "$VMLINUX" "$@" > "$k.json" 2> "$k.err" < /dev/null; rk=$?
	"$B" --check -j -B "$VMLINUX" "$@" > "$c.json" 2> "$c.err" < /dev/null; rc=$?
	if grep -q 'AddressSanitizer\|runtime error:' "$k.err" "$c.err"; then
		echo "FAIL sanitizer on $n modules from $1: $(grep -h -m1 'AddressSanitizer\|runtime error:' "$k.err" "$c.err")"
		return
	fi
	[ $rk -eq 0 ] || { echo "FAIL --kfuncs exit $rk on $n modules from $1: $(head -c 300 "$k.err")" | tr '\n' ' '; echo; return; }
	[ $rc -le 1 ] || { echo "FAIL --check exit $rc on $n modules from $1: $(head -c 300 "$c.err")" | tr '\n' ' '; echo; return; }
	jq -r "$sel | \"\\(.file)\\t\\(.kfuncs | length)\"" "$k.json" > "$k.tsv" 2> /dev/null ||
		{ echo "FAIL --kfuncs -j on $n modules from $1: not JSON: $(head -c 200 "$k.json")"; return; }
	jq -r "$sel | \"\\(.file)\\t\\(.clean)\\t\\(.errors)\\t\\(.warnings)\\t\\(if ((.note // \"\") | startswith(\"Linux \")) then \"legacy\" else \"-\" end)\"" \
		"$c.json" > "$c.tsv" 2> /dev/null ||
		{ echo "FAIL --check -j exit $rc on $n modules from $1: not JSON: $(head -c 200 "$c.json")" | tr '\n' ' '; echo; return; }
	# --check exits 1 exactly when it found an error
	errors=$(awk -F'\t' '{ e += $3 } END { print e + 0 }' "$c.tsv")
	[ $rc -eq $((errors > 0)) ] || { echo "FAIL --check exit $rc with $errors errors on $n modules from $1"; return; }
	# the two views name the same modules, in the order given
	paste "$k.tsv" "$c.tsv" | awk -F'\t' -v n="$n" '
		$1 != $3 { print "FAIL views disagree: " $1 " / " $3; bad = 1; exit }
		{ printf "OK %s %s %s %s %s %s\n", $2, $4, $5, $6, $7, $1; rows++ }
		END { if (!bad && rows != n) print "FAIL views gave " rows " results for " n " modules" }'
	rm -f "$k".* "$c".*
}
export -f views views_share
JOBS=${JOBS:-$(nproc)}

prev=
for suite in "${SUITES[@]}"; do
	t0=$(date +%s)
	env=$("$HERE/scripts/fetch-debian-kernel.sh" "$suite" "$FLAVOUR" "$CACHE" 2> "$tmp/fetch.err") ||
		{ cat "$tmp/fetch.err"; bad "$suite: fetch failed"; continue; }
	eval "$env"
	stamp=$tmp/stamp.$suite
	touch "$stamp"
	sleep 1		# a write in this second would not be newer than the stamp
	mapfile -t mods < <(find "$MODULES" -type f \( -name '*.ko' -o -name '*.ko.xz' -o \
				-name '*.ko.zst' -o -name '*.ko.gz' \) | sort)
	compressed=$(printf '%s\n' "${mods[@]}" | grep -c '\.ko\.' || true)
	echo "corpus-debian: $suite $FLAVOUR $PACKAGE_VERSION ($PACKAGES): release $RELEASE," \
	     "${#mods[@]} modules ($compressed compressed)"

	# vmlinux (stripped: kfuncs by decl tag only, said in a note)
	"$B" -q --kfuncs "$VMLINUX" > "$tmp/k" 2> "$tmp/e"; rc=$?
	check_rc $rc "$suite vmlinux --kfuncs" "$tmp/e"
	[ $rc -eq 0 ] || bad "$suite vmlinux --kfuncs: exit $rc: $(head -1 "$tmp/e")"
	vk=$(($(wc -l < "$tmp/k") - 1))
	"$B" --check -j "$VMLINUX" > "$tmp/c" 2> "$tmp/e"; rc=$?
	check_rc $rc "$suite vmlinux --check" "$tmp/e"
	[ $rc -eq 0 ] || bad "$suite vmlinux --check: exit $rc: $(head -1 "$tmp/e")"
	vnote=$(jq -r '.note // "-"' "$tmp/c" | cut -c1-40)

	# every module: the views, in $JOBS shares (one line of results each)
	export B VMLINUX TMPD=$tmp
	printf '%s\0' "${mods[@]}" |
		xargs -0 -r -n $(( (${#mods[@]} + JOBS - 1) / JOBS )) -P "$JOBS" bash -c 'views "$@"' _
	cat "$tmp"/views.* > "$tmp/views" 2> /dev/null
	rm -f "$tmp"/views.*
	with_kfuncs=0 kfuncs=0 clean=0 warned=0 errored=0 legacy=0
	while read -r tag a b c d e f m; do
		case $tag in
		FAIL) bad "$suite $a $b $c $d $e $f $m"; continue ;;
		OK) ;;
		*) bad "$suite: worker said: $tag $a $b $c $d $e $f $m"; continue ;;
		esac
		[ "$a" -gt 0 ] && with_kfuncs=$((with_kfuncs + 1)) kfuncs=$((kfuncs + a))
		[ "$b" = true ] && clean=$((clean + 1))
		[ "$c" -gt 0 ] && errored=$((errored + 1))
		[ "$d" -gt 0 ] && warned=$((warned + 1))
		[ "$e" = legacy ] && legacy=$((legacy + 1))
	done < "$tmp/views"
	[ "$(wc -l < "$tmp/views")" -eq ${#mods[@]} ] || bad "$suite: $(wc -l < "$tmp/views") results for ${#mods[@]} modules"

	# every module: the whole transform in memory, one base read for all
	"$B" -n --features=all -B "$VMLINUX" "${mods[@]}" > "$tmp/t" 2>&1; rc=$?
	check_rc $rc "$suite -n --features=all" "$tmp/t"
	ok=$(grep -c ' kfuncs (tag ' "$tmp/t" || true)
	resolved=0 other=0
	while IFS= read -r line; do
		case $(refusal "$line") in
		resolved) resolved=$((resolved + 1)) ;;
		*) other=$((other + 1)); bad "$suite -n: $line" ;;
		esac
	done < <(grep '^btf2btf: error: ' "$tmp/t")
	[ $((ok + resolved + other)) -eq ${#mods[@]} ] ||
		bad "$suite -n: $ok transformed + $resolved refused + $other failed != ${#mods[@]} modules"

	# consecutive kernels
	diff_summary=-
	if [ -n "$prev" ]; then
		"$B" -q --diff --kfuncs "$prev" "$VMLINUX" > "$tmp/d" 2> "$tmp/e"; rc=$?
		if grep -q "^btf2btf: error: $prev: kfuncs unknown" "$tmp/e"; then
			# a kernel whose kfuncs its vmlinux cannot show (6.1:
			# stripped, a pahole without bpf_kfunc tags): exit 2, said,
			# and every count unknown, never "added: N"
			[ $rc -eq 2 ] || bad "$suite --diff --kfuncs: $prev's kfuncs unknown, exit $rc (2)"
			grep -qx 'kfuncs added: unknown' "$tmp/d" ||
				bad "$suite --diff --kfuncs: $prev's kfuncs unknown, no 'kfuncs added: unknown'"
			grep -q 'AddressSanitizer\|runtime error:' "$tmp/e" && bad "$suite --diff --kfuncs: $(head -3 "$tmp/e")"
			diff_summary="unknown (the previous kernel's kfuncs cannot be seen)"
		else
			check_rc $rc "$suite --diff --kfuncs" "$tmp/e"
			# --diff exits 1 when the kernels differ, which consecutive ones do;
			# 0 would say two different kernels have the same kfuncs
			[ $rc -eq 1 ] || bad "$suite --diff --kfuncs: exit $rc (1: they differ): $(head -1 "$tmp/e")"
			diff_summary=$(grep -E '^kfuncs (added|removed): [0-9]+$' "$tmp/d" | tr '\n' ' ')
			[ -n "$diff_summary" ] || bad "$suite --diff --kfuncs: no 'kfuncs added/removed' lines"
		fi
	fi

	# nothing written
	written=$(find "$ROOT" "$(dirname "$VMLINUX")" -newer "$stamp" -type f | head -3)
	[ -z "$written" ] && [ ! "$(find "$(dirname "$VMLINUX")" -maxdepth 1 -name '*.tmp*' | head -1)" ] ||
		bad "$suite: files written: $written"

	echo "corpus-debian: $suite: vmlinux: $vk kfuncs by decl tag (note: $vnote...);" \
	     "modules: $with_kfuncs with kfuncs ($kfuncs kfuncs; $legacy read by the 6.0-6.8 rule)," \
	     "--check: $clean clean, $warned with warnings, $errored with errors;" \
	     "-n --features=all: $ok done, $resolved refused (resolved already), $other failed;" \
	     "--diff --kfuncs vs previous: ${diff_summary:--}; $(( $(date +%s) - t0 )) s"
	prev=$VMLINUX
done
[ $fail -eq 0 ] && echo "corpus-debian: ${#SUITES[@]} kernels, no failure"
exit $fail
