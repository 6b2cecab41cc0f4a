#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# btf2btf --check-prog judged by the real loader (issue 46, item 3): the
# guest's libbpf loaded every object of the corpus (kernel/guest/common/
# progload.c, PROGLOAD lines in the guest's log); here each object is given
# to btf2btf --check-prog -j with the kernel that guest ran (its vmlinux and
# bpf_testmod.ko) and the two are compared, object by object and extern by
# extern.
#
#   kernel/scripts/check-prog-guest.sh BTF2BTF LABEL GUEST_LOG CORPUS VMLINUX [MODULE]
#
# CORPUS is the directory the guest's /progmode was packed from; MODULE the
# module (bpf_testmod.ko) the guest had loaded, if any.
#
# What libbpf says about an extern, and what it must equal:
#   "resolved to WHERE"          check-prog's ok, ok (legacy), not a kfunc or
#                                found (kfunc?): libbpf resolves those; and in
#                                the same BTF (vmlinux, or the module)
#   "(weak): not resolved,       a weak extern check-prog leaves at 0 (missing
#   defaulting to zero"          or incompatible, weak)
#   "not found ..." (warning)    missing, strong
#   "... incompatible ..."       incompatible, strong
#   (after the extern it         not reached: libbpf stops at the first, in
#   stopped at, by name)         its order (by name); not compared
# Untyped __ksym externs (kallsyms) are not --check-prog's; not compared.
#
# And the object:
#   loaded                       check-prog: loads
#   stopped at extern X          check-prog fails, its first failure names X
#   verifier refused a kfunc X   check-prog: X "not a kfunc" (fails)
#   "kfunc 'X' is referenced     libbpf (1.3+) left a weak X at 0 and the
#   but wasn't resolved"         program calls it unguarded: check-prog has X
#                                weak at 0 (and says to guard it)
#   verifier refused otherwise,  past the externs: check-prog has no strong
#   or another error after the   extern missing or incompatible (whether the
#   externs (maps, relocations)  verifier takes each kfunc call is not seen)
#   libbpf cannot open it, or    not judged (counted apart)
#   fails before any ksym (a
#   __kconfig extern without the
#   kernel's configuration: no
#   extern line at all)
#
# A disagreement is a FAIL unless one of the known ones explains it
# (docs/kfuncs.md, "--check-prog and the real loader"), which are counted
# and shown apart (INFO):
#   - libbpf 1.1 (the 6.12 guest's, Debian 12's 1.1.2) is older than what
#     --check-prog follows (the 7.3 tree's 1.8, the guest saying which):
#     it fails the load on a weak kfunc whose prototype does not match,
#     where 1.8 leaves it at 0; it looks a kfunc up by its whole name, where
#     1.8 drops a "___flavour" suffix;
#   - the verifier's "calling kernel function X is not allowed" for a kfunc
#     --check-prog finds in a kfunc set: the set is registered for some
#     program types only (register_btf_kfunc_id_set()), which no BTF
#     records; --check-prog judges the kernel, not the program's type.
# Exit 0 when every verdict agrees or is a known disagreement, 1 otherwise.

set -uo pipefail
export LC_ALL=C
die() { printf 'check-prog-guest: error: %s\n' "$*" >&2; exit 1; }
[ $# = 5 ] || [ $# = 6 ] || die "usage: $0 BTF2BTF LABEL GUEST_LOG CORPUS VMLINUX [MODULE]"
B=$(realpath "$1") LABEL=$2 LOG=$3 CORPUS=$4 VMLINUX=$(realpath "$5") MODULE=
command -v jq > /dev/null || die "needs jq"
[ -x "$B" ] || die "$B: not an executable btf2btf"
for f in "$LOG" "$VMLINUX" "${6:-$LOG}"; do [ -f "$f" ] || die "$f: no such file"; done
[ $# = 5 ] || MODULE=$(realpath "$6")
[ -d "$CORPUS" ] || die "$CORPUS: no such directory"

KNOWN_WEAK="libbpf 1.1 fails a weak kfunc whose prototype does not match; 1.8 (check-prog's) leaves it at 0"
KNOWN_FLAVOUR="libbpf 1.1 looks a kfunc up by its whole name; 1.8 (check-prog's) drops its ___flavour suffix"
KNOWN_PROGTYPE="the kfunc's set is registered for other program types, which no BTF records"

tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
tr -d '\r' < "$LOG" | sed -n 's/^PROGLOAD //p' > "$tmp/lines"
sed -n 's/^\([^ ]*\) result .*/\1/p' "$tmp/lines" | awk '!seen[$0]++' > "$tmp/objs"
# what libbpf said, looked up without a process per extern (the machine is
# shared): RESULT[OBJ] and SAID["OBJ NAME"], the first of each
declare -A RESULT=() SAID=() SAID_ANY=()
while read -r o what name rest; do
	case $what in
	result) [ -n "${RESULT[$o]+x}" ] || RESULT[$o]="$name${rest:+ $rest}" ;;
	extern) SAID_ANY[$o]=1; [ -n "${SAID["$o $name"]+x}" ] || SAID["$o $name"]=$rest ;;
	esac
done < "$tmp/lines"
[ -s "$tmp/objs" ] || die "no PROGLOAD result line in $LOG: did the guest run progload?"
# the guest's libbpf, from its progload line ("loaded by libbpf 1.8"): 0.0 if not said
LIBBPF=$(tr -d '\r' < "$LOG" | sed -n 's/.*progload.* loaded by libbpf \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
LIBBPF=${LIBBPF:-0.0}
libbpf_1_1_or_older() { [ "${LIBBPF%%.*}" -lt 1 ] || { [ "${LIBBPF%%.*}" = 1 ] && [ "${LIBBPF#*.}" -le 1 ]; }; }

objs=0 unopened=0 ext_cmp=0 ext_eq=0 ext_known=0 ext_bad=0 obj_eq=0 obj_known=0 obj_bad=0
notreached=0 untyped=0
while read -r obj; do
	objs=$((objs + 1))
	res=${RESULT[$obj]}
	# shellcheck disable=SC2086 # the result's words
	set -- $res
	kind=$1
	if [ "$kind" = open ]; then
		unopened=$((unopened + 1))
		echo "INFO check-prog-guest $LABEL $obj: libbpf cannot open it (${*:2}): not judged"
		continue
	fi
	rc=0
	(cd "$CORPUS" && "$B" --check-prog -j "$obj" "$LABEL=$VMLINUX${MODULE:+,$MODULE}") > "$tmp/j" 2> "$tmp/err" || rc=$?
	if [ $rc -gt 1 ]; then
		obj_bad=$((obj_bad + 1))
		echo "FAIL check-prog-guest $LABEL $obj: btf2btf --check-prog exits $rc: $(head -1 "$tmp/err"); libbpf: $res"
		continue
	fi
	if [ "$kind" = error ] && [ -z "${SAID_ANY[$obj]:-}" ] &&
	   [ "$(jq '[.objects[0].externs[] | select(.typed)] | length' "$tmp/j")" != 0 ]; then
		unopened=$((unopened + 1))
		echo "INFO check-prog-guest $LABEL $obj: libbpf fails before it looks at a ksym (${*:2}): not judged"
		continue
	fi
	stop=
	[ "$kind" != extern ] || stop=$2
	# every extern: NAME KIND WEAK VERDICT FAILS WHERE; where: "vmlinux", or
	# the module's name as libbpf gives it (its file's name without .ko)
	# (one jq for all: the machine is shared); then the object's verdict:
	# LOADS ERROR and how many strong externs are missing or incompatible
	jq -r --arg v "$VMLINUX" '.objects[0] | (.externs[] | [.name, .kind, (.weak|tostring),
		.on[0].verdict, (.on[0].fails_load|tostring),
		(.on[0].in // "-" | if . == $v then "vmlinux" else sub(".*/"; "") | sub("\\.ko$"; "") end)]
		| @tsv), ([.kernels[0].loads, ([.externs[].on[0] | select(.fails_load and
		(.verdict == "missing" or .verdict == "incompatible"))] | length),
		(.kernels[0].error // "")] | @tsv)' "$tmp/j" > "$tmp/ext"
	IFS=$'\t' read -r loads strong_fail err < <(tail -1 "$tmp/ext")
	sed -i '$d' "$tmp/ext"
	bad=() known=() stop_known=
	while IFS=$'\t' read -r name ekind weak verdict fails in; do
		[ "$verdict" != untyped ] || { untyped=$((untyped + 1)); continue; }
		case $verdict in
		ok|ok_legacy|not_kfunc|unknown) ours="resolved $in" ;;
		missing|incompatible) if [ "$fails" = true ]; then ours="failed $verdict"; else ours=zero; fi ;;
		*) ours="? $verdict" ;;
		esac
		line=${SAID["$obj $name"]:-}
		case $line in
		"resolved "*)
			theirs="resolved ${line#resolved }"
			# where libbpf does not say: 1.1.2's "kernel" for vmlinux and
			# modules alike, a variable's "btf"
			case $theirs in
			"resolved kernel"|"resolved btf") theirs="resolved $in" ;;
			esac ;;
		zero) theirs=zero ;;
		"failed not found"*) theirs="failed missing" ;;
		"failed "*incompatible*) theirs="failed incompatible" ;;
		"failed "*) theirs="failed ${line#failed }" ;;
		"")
			if [ -n "$stop" ] && [[ "$name" > "$stop" ]]; then
				notreached=$((notreached + 1))
				continue
			fi
			# before the extern it stopped at, libbpf skips a weak one
			# it leaves at 0 without a word (it says "defaulting to
			# zero" only once all are resolved)
			if [ -n "$stop" ]; then theirs=zero; else theirs="silent (no message)"; fi ;;
		esac
		ext_cmp=$((ext_cmp + 1))
		if [ "$ours" = "$theirs" ]; then
			ext_eq=$((ext_eq + 1))
		elif [ "$ekind" = kfunc ] && [ "$weak" = true ] && [ "$verdict" = incompatible ] &&
		     [ "$theirs" = "failed incompatible" ] && libbpf_1_1_or_older; then
			ext_known=$((ext_known + 1))
			known+=("$name: check-prog $ours ($verdict), libbpf $LIBBPF $theirs: $KNOWN_WEAK")
			[ "$name" != "$stop" ] || stop_known=1
		elif [ "$ekind" = kfunc ] && [[ "$name" == *___* ]] && [ "${ours%% *}" = resolved ] &&
		     { [ "$theirs" = zero ] || [ "$theirs" = "failed missing" ]; } && libbpf_1_1_or_older; then
			ext_known=$((ext_known + 1))
			known+=("$name: check-prog $ours ($verdict), libbpf $LIBBPF $theirs: $KNOWN_FLAVOUR")
			[ "$name" != "$stop" ] || stop_known=1
		else
			ext_bad=$((ext_bad + 1))
			bad+=("$name: check-prog $ours ($verdict), libbpf $theirs")
		fi
	done < "$tmp/ext"
	# the verdict of the extern a verifier line names: VERDICT[ (weak: 0)]
	named() {
		jq -r --arg n "$1" '.objects[0].externs[] | select(.name == $n) | .on[0] | .verdict +
			(if .fails_load or (.verdict != "missing" and .verdict != "incompatible")
			 then "" else " (weak: 0)" end)' "$tmp/j"
	}
	case $kind in
	loaded)
		[ "$loads" = true ] || bad+=("libbpf loads it, check-prog: $err") ;;
	extern)
		case $err in
		"extern ("*") '$2': "*) ;;
		*) if [ -n "$stop_known" ] && [ "$strong_fail" = 0 ]; then
			known+=("libbpf $LIBBPF stops at extern $2, check-prog: ${err:-loads} (above)")
		   else
			bad+=("libbpf stops at extern $2, check-prog: ${err:-loads}")
		   fi ;;
		esac ;;
	verifier)
		v=$(named "$4")
		if [ "$3" = kfunc ]; then
			if [ "$v" = not_kfunc ]; then
				:
			elif [ "$v" = ok ] && [ "$5 $6 $7" = "calling kernel function" ]; then
				known+=("the verifier refuses the call of $4 in prog $2 (${*:5}), check-prog: ok: $KNOWN_PROGTYPE")
			else
				bad+=("the verifier refuses the call of $4 (prog $2: ${*:5}), check-prog: ${v:-no such extern}")
			fi
		elif [ "$3" = weak ]; then
			case $v in
			"missing (weak: 0)"|"incompatible (weak: 0)") ;;
			*) bad+=("libbpf left $4 at 0 (prog $2 calls it), check-prog: ${v:-no such extern}") ;;
			esac
		elif [ "$strong_fail" != 0 ]; then
			bad+=("libbpf got past the externs (verifier, prog $2), check-prog: $err")
		fi ;;
	error)
		[ "$strong_fail" = 0 ] || bad+=("libbpf got past the externs (${*:2}), check-prog: $err") ;;
	*) bad+=("unknown PROGLOAD result: $res") ;;
	esac
	n=$(grep -c . "$tmp/ext")
	if [ ${#bad[@]} != 0 ]; then
		obj_bad=$((obj_bad + 1))
		echo "FAIL check-prog-guest $LABEL $obj: libbpf: $res; $(printf '%s; ' "${bad[@]}" ${known[@]+"${known[@]}"})"
	elif [ ${#known[@]} != 0 ]; then
		obj_known=$((obj_known + 1))
		echo "INFO check-prog-guest $LABEL $obj: known disagreement: $(printf '%s; ' "${known[@]}")"
	else
		obj_eq=$((obj_eq + 1))
		echo "PASS check-prog-guest $LABEL $obj: libbpf: $res; check-prog: $([ "$loads" = true ] && echo loads || echo "fails: $err"); $n externs"
	fi
done < "$tmp/objs"

echo "check-prog-guest $LABEL: $objs objects ($unopened libbpf cannot open or stops before the ksyms): object verdicts $obj_eq equal" \
     "to libbpf's, $obj_known known disagreements, $obj_bad unexplained; externs $ext_eq of $ext_cmp" \
     "equal ($ext_known in known disagreements, $ext_bad unexplained; $notreached past the one libbpf" \
     "stopped at, $untyped untyped)"
[ $obj_bad = 0 ] && [ $ext_bad = 0 ]
