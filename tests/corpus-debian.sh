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
#   tests/corpus-debian.sh BTF2BTF CACHE [SUITE...]
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

	# every module: the views
	with_kfuncs=0 kfuncs=0 clean=0 warned=0 errored=0 legacy=0
	for m in "${mods[@]}"; do
		"$B" -q --kfuncs -B "$VMLINUX" "$m" > "$tmp/k" 2> "$tmp/e"; rc=$?
		check_rc $rc "$suite --kfuncs $m" "$tmp/e" || continue
		[ $rc -eq 0 ] || { bad "$suite --kfuncs $m: exit $rc: $(head -1 "$tmp/e")"; continue; }
		n=$(($(wc -l < "$tmp/k") - 1))
		[ $n -gt 0 ] && with_kfuncs=$((with_kfuncs + 1)) kfuncs=$((kfuncs + n))
		"$B" --check -j -B "$VMLINUX" "$m" > "$tmp/c" 2> "$tmp/e"; rc=$?
		check_rc $rc "$suite --check $m" "$tmp/e" || continue
		read -r c_clean c_err c_warn c_note < <(jq -r '[.clean, .errors, .warnings, (.note // "-" | .[0:6])] | @tsv' "$tmp/c")
		[ "$c_clean" = true ] && clean=$((clean + 1))
		[ "$c_warn" -gt 0 ] && warned=$((warned + 1))
		[ "$c_err" -gt 0 ] && errored=$((errored + 1))
		[ "$c_note" = "Linux " ] && legacy=$((legacy + 1))
		[ $rc -eq $((c_err > 0)) ] || bad "$suite --check $m: exit $rc with $c_err errors"
	done

	# every module: the whole transform in memory, one base read for all
	"$B" -n --features=all -B "$VMLINUX" "${mods[@]}" > /dev/null 2> "$tmp/t"; rc=$?
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
		check_rc $rc "$suite --diff --kfuncs" "$tmp/e"
		[ $rc -eq 0 ] || bad "$suite --diff --kfuncs: exit $rc: $(head -1 "$tmp/e")"
		diff_summary=$(grep -E '^kfuncs (added|removed): [0-9]+$' "$tmp/d" | tr '\n' ' ')
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
