#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Drive the bash completion the way readline does (COMP_WORDS, COMP_CWORD,
# COMP_LINE, COMP_POINT, then the function `complete -p` names) in a
# non-interactive bash, and check COMPREPLY against the CLI's own option
# table: the `struct option` array and getopt_long() string in src/cli/*.c.
# A new option the --help text does not document, or documents without its
# argument, fails here.
#
#   tests/test-completion.sh COMPLETION_FILE
# Environment: BTF2BTF (binary whose --help the completion reads; default
# build/btf2btf), CLI_SRC (default src/cli), BASH_COMPLETION (bash-completion's
# main script, package bash-completion).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
comp=$(realpath "${1:?usage: $0 COMPLETION_FILE}")
btf2btf=$(realpath "${BTF2BTF:-$top/build/btf2btf}")
cli_src=${CLI_SRC:-$top/src/cli}
bash_completion=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}

die() { echo "test-completion: $*" >&2; exit 1; }
[ -r "$bash_completion" ] || die "$bash_completion missing: apt-get install bash-completion"
[ -x "$btf2btf" ] || die "$btf2btf: no such binary (run make)"
# bash_completion itself refuses to load in a POSIX-mode or too-old shell
# shellcheck source=/dev/null
. "$bash_completion" || die "sourcing $bash_completion failed"
type -t _init_completion > /dev/null || die "$bash_completion did not define _init_completion"
# shellcheck source=/dev/null
. "$comp" || die "sourcing $comp failed"

checks=0 failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { checks=$((checks + 1)); }

# The CLI's option table, from the source: long options with has_arg, and the
# getopt_long() short-option string.
declare -A long_arg=()
while read -r name has; do
	long_arg[--$name]=$has
done < <(sed -n -E 's/^[[:space:]]*\{[[:space:]]*"([a-z0-9-]+)",[[:space:]]*(no|required|optional)_argument,.*/\1 \2/p' \
	"$cli_src"/*.c)
shortstr=$(sed -n -E 's/.*getopt_long\([^"]*"([^"]*)".*/\1/p' "$cli_src"/*.c | head -1)
[ "${#long_arg[@]}" -gt 0 ] || die "no long options found in $cli_src/*.c"
[ -n "$shortstr" ] || die "no getopt_long() option string in $cli_src/*.c"
declare -A short_arg=()
for (( i = 0; i < ${#shortstr}; i++ )); do
	c=${shortstr:i:1}
	[ "$c" = ":" ] && continue
	if [ "${shortstr:i+1:1}" = ":" ]; then short_arg[-$c]=required; else short_arg[-$c]=no; fi
done
declare -A want_arg=()
for o in "${!long_arg[@]}"; do want_arg[$o]=${long_arg[$o]}; done
for o in "${!short_arg[@]}"; do want_arg[$o]=${short_arg[$o]}; done
expected=$(printf '%s\n' "${!want_arg[@]}" | sort)

# complete LINE: run the completion for the command line LINE with the cursor
# at its end, split into words as readline does with the default
# COMP_WORDBREAKS ("=" is a word of its own). COMPREPLY is left sorted in $got.
complete_line() {
	local line=$1 spaced
	spaced=${line//=/ = }
	read -r -a COMP_WORDS <<< "$spaced"
	COMP_WORDS[0]=$cmd
	[[ $line == *" " || $line == *= ]] && COMP_WORDS+=("")
	COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
	COMP_LINE="$cmd${line#btf2btf}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	"$func" btf2btf "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort)
}
has() { grep -qxF -- "$2" <<< "$1"; }
cmd=$btf2btf	# the command being completed: its --help is what the completion reads

spec=$(complete -p btf2btf 2>/dev/null) || die "$comp registers no completion for btf2btf"
func=$(sed -n -E 's/.*-F ([^ ]+) .*/\1/p' <<< "$spec")
[ -n "$func" ] || die "complete -p btf2btf: '$spec' names no function"
ok

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/cwd" && cd "$work/cwd" || die "cd $work/cwd"
touch vmlinux.o mod.ko raw.btf
mkdir subdir
files=$(printf '%s\n' mod.ko raw.btf subdir vmlinux.o)

# "-" offers exactly the CLI's options; "--" exactly its long ones
complete_line "btf2btf -"
if [ "$got" = "$expected" ]; then ok; else
	fail "'btf2btf -' offers"; diff <(echo "$expected") <(echo "$got") | sed -n 's/^[<>]/  &/p'
fi
complete_line "btf2btf --"
if [ "$got" = "$(grep -- '^--' <<< "$expected")" ]; then ok; else fail "'btf2btf --' offers: $got"; fi

for o in "${!want_arg[@]}"; do
	# each long option completes from a prefix
	if [[ $o == --* ]]; then
		complete_line "btf2btf ${o:0:${#o}-1}"
		if has "$got" "$o"; then ok; else fail "'btf2btf ${o:0:${#o}-1}' does not give $o: $got"; fi
	fi
	if [ "${want_arg[$o]}" = required ]; then
		# its argument is never taken for an option
		complete_line "btf2btf $o -"
		if [ -z "$got" ]; then ok; else
			fail "after $o (takes an argument) '-' offers options: --help must name its argument"
		fi
		# a FILE argument completes files, also as --option=FILE
		if "$btf2btf" --help | grep -qE -- "(^|[ ,])$o FILE "; then
			complete_line "btf2btf $o "
			if [ "$got" = "$files" ]; then ok; else fail "'btf2btf $o ' offers '$got', not the files"; fi
			if [[ $o == --* ]]; then
				complete_line "btf2btf $o=ra"
				if [ "$got" = raw.btf ]; then ok; else fail "'btf2btf $o=ra' offers '$got'"; fi
			fi
		fi
		# a LIST argument completes the words `btf2btf OPT help` lists
		if "$btf2btf" --help | grep -qE -- "(^|[ ,])$o LIST "; then
			values=$("$btf2btf" "$o" help | sed -n -E 's/^ +([A-Za-z0-9_.-]+)( .*)?$/\1/p' | sort)
			complete_line "btf2btf $o "
			if [ -n "$values" ] && [ "$got" = "$values" ]; then ok; else
				fail "'btf2btf $o ' offers '$got', '$o help' lists '$values'"
			fi
		fi
	else
		# a flag is followed by OBJ: files
		complete_line "btf2btf $o "
		if [ "$got" = "$files" ]; then ok; else fail "'btf2btf $o ' offers '$got', not the files"; fi
	fi
done

# OBJ, and the files after options and their arguments
complete_line "btf2btf vm"
if [ "$got" = vmlinux.o ]; then ok; else fail "'btf2btf vm' offers '$got'"; fi
complete_line "btf2btf -B vmlinux.o m"
if [ "$got" = mod.ko ]; then ok; else fail "'btf2btf -B vmlinux.o m' offers '$got'"; fi

# an option given once is not offered again, by either spelling; -v is
complete_line "btf2btf -o x.btf -"
if ! has "$got" -o && ! has "$got" --output && has "$got" -B; then ok; else
	fail "'btf2btf -o x.btf -' offers -o/--output again or lost -B: $got"
fi
complete_line "btf2btf --json --"
if ! has "$got" --json && has "$got" --pretty; then ok; else fail "'btf2btf --json --' offers: $got"; fi
complete_line "btf2btf -v -"
if has "$got" -v && has "$got" --verbose; then ok; else fail "'btf2btf -v -' drops -v: $got"; fi
# the argument of an option is not read as an option: "-o --dump" writes a file named --dump
complete_line "btf2btf -o --dump --"
if has "$got" --dump; then ok; else fail "'btf2btf -o --dump --' took --dump as given: $got"; fi

# one mode per command line (the modes: the first word of each Usage: line);
# once given, only what --help's "Options each mode takes" lists for it
modes=$("$btf2btf" --help | sed -n '/^Usage:/,/^$/p' | sed -E 's/.*btf2btf +//; s/ .*//' |
	tr '|' '\n' | grep -- '^--' | sort -u)
[ -n "$modes" ] || fail "no mode options on btf2btf --help's Usage: lines"
takes() { "$btf2btf" --help | sed -n '/^Options each mode takes/,/^$/p' |
	sed -n -E "s/^ +$1(:| [^:]*:) *//p" | tr ' ' '\n' | sed '/^$/d'; }
for m in $modes; do
	complete_line "btf2btf $m --"
	for other in $modes; do
		case "$m $other" in "--diff --kfuncs"|"--kfuncs --diff") continue ;; esac
		if has "$got" "$other"; then fail "'btf2btf $m --' offers mode $other"; else ok; fi
	done
	t=$(takes "$m")
	[ -n "$t" ] || fail "btf2btf --help lists no options for $m"
	if has "$t" -j; then
		if has "$got" --json; then ok; else fail "'btf2btf $m --' lost --json: $got"; fi
	fi
	# an option the mode does not take is not offered, and the CLI refuses it
	for o in "${!want_arg[@]}"; do
		[ "$o" = "$m" ] && continue
		case $o in -v|--verbose|-q|--quiet|-h|--help|-V|--version|--max-decompressed) continue ;; esac
		complete_line "btf2btf $m -"
		offered=false; has "$got" "$o" && offered=true
		arg=; [ "${want_arg[$o]}" = required ] && arg=x
		case $o in -O|--output-format) arg=raw ;; --format) arg=c ;; --features) arg=default ;; esac
		objs=a.o; [ "$m" = --diff ] && objs="a.o b.o"
		extra=	# the options of --kfuncs --format=c, with their format
		case "$m $o" in "--kfuncs --vmlinux-h"|"--kfuncs --kfunc-names"|"--kfuncs --used-by") extra="--format c" ;; esac
		rc=0; "$btf2btf" "$m" $extra "$o" $arg $objs > /dev/null 2> "$work/err" || rc=$?
		refused=false; [ $rc = 2 ] && grep -qE "means nothing with|exclude each other|is a format of" "$work/err" && refused=true
		if $offered && $refused; then fail "'btf2btf $m -' offers $o, which $m refuses: $(cat "$work/err")"
		elif ! $offered && ! $refused; then fail "'btf2btf $m -' does not offer $o, which $m takes (exit $rc: $(cat "$work/err"))"
		else ok; fi
	done
done
# the cases of issue 33
complete_line "btf2btf --diff --k"
if [ "$got" = --kfuncs ]; then ok; else fail "'btf2btf --diff --k' offers '$got'"; fi
complete_line "btf2btf --diff -"
for o in --output --dry-run --transform; do
	if has "$got" $o; then fail "'btf2btf --diff -' offers $o"; else ok; fi
done
complete_line "btf2btf -O "
if [ "$got" = "$(printf '%s\n' elf raw)" ]; then ok; else fail "'btf2btf -O ' offers '$got'"; fi
complete_line "btf2btf --output-format="
if [ "$got" = "$(printf '%s\n' elf raw)" ]; then ok; else fail "'btf2btf --output-format=' offers '$got'"; fi
complete_line "btf2btf --kfuncs --format "
if [ "$got" = c ]; then ok; else fail "'btf2btf --kfuncs --format ' offers '$got'"; fi
complete_line "btf2btf --features=all,"
if ! grep -q 'all,all' <<< "$got" && has "$got" all,dedup; then ok; else
	fail "'btf2btf --features=all,' offers '$got'"
fi

# The --help parser on a synthetic help text: "=ARG", "[=ARG]", LIST, DIR
cat > "$work/fake" <<'FAKE'
#!/bin/sh
if [ "$1 $2" = "--features help" ]; then
	printf 'Features (--features=LIST, comma separated):\n  implicit_args  one\n  dedup          two\n  all            all\n'
	exit 0
fi
cat <<'HELP'
Usage: btf2btf [OPTIONS] OBJ
       btf2btf --dump [OPTIONS] OBJ

  -o, --output FILE       write raw BTF to FILE
      --features LIST     a comma list; help lists them
      --level=N           a number
      --color[=WHEN]      optional argument;  -x, --extra=DIR  a directory
      --dump              print
HELP
FAKE
chmod +x "$work/fake"
cmd=$work/fake
complete_line "btf2btf -"
want=$(printf '%s\n' -o --output --features --level --color -x --extra --dump | sort)
if [ "$got" = "$want" ]; then ok; else fail "synthetic help: '-' offers '$got'"; fi
complete_line "btf2btf --features "
if [ "$got" = "$(printf '%s\n' all dedup implicit_args)" ]; then ok; else fail "synthetic: '--features ' offers '$got'"; fi
complete_line "btf2btf --features implicit_args,d"
if [ "$got" = implicit_args,dedup ]; then ok; else fail "synthetic: '--features implicit_args,d' offers '$got'"; fi
complete_line "btf2btf --features=a"
if [ "$got" = all ]; then ok; else fail "synthetic: '--features=a' offers '$got'"; fi
complete_line "btf2btf --level -"
if [ -z "$got" ]; then ok; else fail "synthetic: '--level -' offers '$got'"; fi
complete_line "btf2btf --color "
if [ "$got" = "$files" ]; then ok; else fail "synthetic: '--color ' (optional argument) offers '$got'"; fi
complete_line "btf2btf --extra "
if [ "$got" = subdir ]; then ok; else fail "synthetic: '--extra ' (DIR) offers '$got'"; fi
complete_line "btf2btf --dump --"
if ! has "$got" --dump && has "$got" --output; then ok; else fail "synthetic: '--dump --' offers '$got'"; fi
cmd=$btf2btf

echo "completion: $checks checks, $failed failed ($(basename "$comp") against $btf2btf)"
[ "$failed" -eq 0 ]
