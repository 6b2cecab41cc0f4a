#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The command examples of README.md, docs/*.md and the man pages, run:
# every "$ COMMAND" line of a code block (markdown: ``` fences; man page:
# .nf/.fi) runs in a scratch directory of the document's own, in document
# order, and what it
# prints (standard output and standard error, as a terminal shows them) must
# be the lines that follow it, up to the next "$ " or the block's end, and it
# must exit 0 as a whole, pipes included (bash -o pipefail; 141, a writer a
# `| head` closed early, counts as 0): an example that shows a failure says
# so itself (`; echo "exit $?"`), and then shows the status of the command,
# not of a `| tail` after it. A block is left out only after a line
# "<!-- docs: not run: REASON -->" (markdown) or ".\" docs: not run: REASON"
# (man page) just before it; the reasons are printed. A block after
# "<!-- docs: kernel proofs: WHAT -->" runs on the kernels make kernel-test
# builds: only with --kernels DIR (then it runs alone, in a scratch directory
# holding DIR's entries, and every other block is left as it is; make
# kernel-test does this), not run otherwise. A block after
# "<!-- docs: debian kernels: WHAT -->" is the same for Debian's own kernels,
# with --debian-kernels DIR (make check-docs-debian fetches them and passes a
# directory of vmlinux-VERSION links).
#
#   tests/check-docs.sh [--update] [--kernels DIR|--debian-kernels DIR] BUILD_DIR FILE...
# --update writes the real output into FILE instead of failing: the docs
# are never edited by hand. Each scratch directory holds a symlink "build"
# to BUILD_DIR, README.md, and what the setup blocks make: every ```sh block
# setting B=/path/to/btf2btf/build, of README.md and of each markdown FILE,
# run first, in that order, with the build directory they name; BUILD_DIR is
# first on PATH.
set -u
update=false kernels= marker="kernel proofs"
[ "${1:-}" = --update ] && { update=true; shift; }
[ "${1:-}" = --kernels ] && { kernels=$(realpath "${2:?--kernels DIR}"); shift 2; }
[ "${1:-}" = --debian-kernels ] &&
	{ kernels=$(realpath "${2:?--debian-kernels DIR}"); marker="debian kernels"; shift 2; }
build=$(realpath "${1:?usage: $0 [--update] BUILD_DIR FILE...}")
shift
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
die() { echo "check-docs: $*" >&2; exit 1; }
[ -x "$build/btf2btf" ] || die "$build/btf2btf: no such binary (run make)"

if [ -n "$kernels" ]; then
	setup=true
else
# the setup blocks of README.md and the markdown FILEs, with the build
# directory they name
setup=
for doc in "$top/README.md" "$@"; do
	case $doc in *.md) ;; *) continue ;; esac
	[ "$doc" -ef "$top/README.md" ] && [ -n "$setup" ] && continue
	setup+=$(awk '/^```sh$/ { inb = 1; buf = ""; next }
		     /^```$/ { if (inb && buf ~ /B=\/path\/to\/btf2btf\/build/) printf "%s", buf
			       inb = 0; next }
		     inb { buf = buf $0 "\n" }' "$doc")
	setup+=$'\n'
done
[[ $setup == *[![:space:]]* ]] || die "no setup block (B=/path/to/btf2btf/build) in README.md or $*"
setup=${setup//\/path\/to\/btf2btf\/build/$build}
fi

# a fresh scratch directory for each document: what one document's examples
# change (a transform in place) is not what the next one starts from
scratch=$work/doc
new_scratch() {
	rm -rf "$scratch"
	mkdir "$scratch"
	ln -s "$build" "$scratch/build"
	cp "$top/README.md" "$scratch/README.md"
	[ -z "$kernels" ] || ln -s "$kernels"/* "$scratch/"
	(cd "$scratch" && bash -e -c "$setup") > "$work/.setup.log" 2>&1 ||
		die "the setup blocks failed: $(cat "$work/.setup.log")"
}

# the command's output; its exit status in $work/.status
run() {
	(cd "$scratch" && PATH="$build:$PATH" bash -o pipefail -c "$1" 2>&1; echo $? > "$work/.status")
}

# roff <-> text for the man page's example lines
from_roff() { sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(aq/'"'"'/g'; }
to_roff() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e 's/^\./\\\&./'; }

ran=0 skipped=0 failed=0 bad_status=0
for doc in "$@"; do
	case $doc in
	*.md) open='^```[a-z]*$' close='^```$' skip_re='^<!-- docs: not run: (.*) -->$' roff=false
	      kernel_re='^<!-- docs: (kernel proofs|debian kernels): (.*) -->$' ;;
	*) open='^\.nf$' close='^\.fi$' skip_re='^\.\\" docs: not run: (.*)$' roff=true
	   kernel_re='^$.' ;;
	esac
	new_scratch
	out="$work/.doc.new"
	: > "$out"
	inb=false skip= prev=
	mapfile -t lines < "$doc"
	n=${#lines[@]}
	i=0
	while [ "$i" -lt "$n" ]; do
		l=${lines[i]}
		if ! $inb; then
			printf '%s\n' "$l" >> "$out"
			if [[ $l =~ $open ]]; then
				inb=true
				skip=
				[[ $prev =~ $skip_re ]] && skip=${BASH_REMATCH[1]}
				if [[ $prev =~ $kernel_re ]] && [ -n "$kernels" ] &&
				   [ "${BASH_REMATCH[1]}" = "$marker" ]; then
					:	# the blocks this run is for
				elif [[ $prev =~ $kernel_re ]]; then
					case ${BASH_REMATCH[1]} in
					"kernel proofs") skip="on the kernel proofs' builds (make kernel-test runs it): ${BASH_REMATCH[2]}" ;;
					*) skip="on Debian's kernels (make check-docs-debian runs it): ${BASH_REMATCH[2]}" ;;
					esac
				elif [ -n "$kernels" ]; then
					skip="not a $marker block"
				fi
			fi
			prev=$l
			i=$((i + 1))
			continue
		fi
		if [[ $l =~ $close ]]; then
			inb=false
			printf '%s\n' "$l" >> "$out"
			prev=$l
			i=$((i + 1))
			continue
		fi
		text=$l
		$roff && text=$(printf '%s\n' "$l" | from_roff)
		if [[ $text != '$ '* ]]; then
			printf '%s\n' "$l" >> "$out"
			i=$((i + 1))
			continue
		fi
		# a command and its shown output
		printf '%s\n' "$l" >> "$out"
		i=$((i + 1))
		shown=()
		while [ "$i" -lt "$n" ]; do
			t=${lines[i]}
			[[ $t =~ $close ]] && break
			$roff && t=$(printf '%s\n' "$t" | from_roff)
			[[ $t == '$ '* ]] && break
			shown+=("${lines[i]}")
			i=$((i + 1))
		done
		if [ -n "$skip" ]; then
			[ ${#shown[@]} -eq 0 ] || printf '%s\n' "${shown[@]}" >> "$out"
			skipped=$((skipped + 1))
			[ "$skip" != "${said:-}" ] &&
				echo "check-docs: $(basename "$doc"): a block not run: $skip"
			said=$skip
			continue
		fi
		ran=$((ran + 1))
		got=$(run "${text:2}")
		status=$(cat "$work/.status")
		if [ "$status" != 0 ] && [ "$status" != 141 ]; then
			bad_status=$((bad_status + 1))
			echo "check-docs: $(basename "$doc"): exit $status, unsaid (add '; echo \"exit \$?\"'): ${text:2}"
		fi
		if [ -n "$got" ]; then
			if $roff; then printf '%s\n' "$got" | to_roff >> "$out"
			else printf '%s\n' "$got" >> "$out"; fi
		fi
	done
	if ! cmp -s "$doc" "$out"; then
		if $update; then
			cp "$out" "$doc"
			echo "check-docs: $(basename "$doc"): updated"
		else
			failed=$((failed + 1))
			echo "check-docs: $(basename "$doc"): the examples print something else now" \
			     "(tests/check-docs.sh --update $build $doc writes it):"
			diff -u "$doc" "$out" | sed 's/^/  /'
		fi
	fi
done
echo "check-docs: $ran commands run, $skipped not run, $failed files differ," \
     "$bad_status commands fail unsaid"
[ "$failed" -eq 0 ] && [ "$bad_status" -eq 0 ]
