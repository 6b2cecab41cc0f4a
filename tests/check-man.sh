#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The man pages against what they document:
# - README.md, kernel/README.md and bench/README.md within their sizes;
# - every long option `btf2btf --help` names is in btf2btf(1);
# - every symbol of src/lib/libbtf2btf.map is in libbtf2btf(3), in its
#   SYNOPSIS and in its text;
# - `mandoc -T lint` finds nothing, not even a style note, in either page
#   (skipped, and said, where mandoc is not installed; a failure when
#   BTF2BTF_NO_SKIP is set, as .ci/run sets it);
# - the example program of libbtf2btf(3) (the .nf block after the comment
#   ".\" example: kfunc-list.c") compiles with -Wall -Wextra -Werror against
#   the build tree's header and shared library, and the commands its
#   EXAMPLES show (but the cc line, which needs the installed library) print
#   what the page shows, run in a directory holding the fixtures it names.
#   LDFLAGS are the build's own link flags (ASan/UBSan's under SANITIZE=1:
#   a program loading the sanitized library must carry their runtime).
#
#   tests/check-man.sh BUILD_DIR [CC [LDFLAGS...]]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:?usage: $0 BUILD_DIR [CC [LDFLAGS...]]}")
cc=${2:-cc}
shift $(($# < 2 ? $# : 2))
ldflags=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skip=0
ok() { echo "PASS man: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL man: $*"; fail=$((fail + 1)); }
skipped() {
	if [ -n "${BTF2BTF_NO_SKIP:-}" ]; then
		bad "$* (BTF2BTF_NO_SKIP is set: a skip is a failure)"
	else
		echo "SKIP man: $*"
		skip=$((skip + 1))
	fi
}
# roff to text: what a man page's reader sees of a line
from_roff() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g' -e "s/\\\\(aq/'/g"; }

page1=$top/btf2btf.1 page3=$top/libbtf2btf.3

# every long option of --help
opts=$("$build/btf2btf" --help | grep -o -- '--[a-z][a-z0-9_-]*' | sort -u)
[ -n "$opts" ] || bad "btf2btf --help names no long option"
text1=$(from_roff < "$page1")
missing=
for o in $opts; do
	grep -qF -- "$o" <<< "$text1" || missing+=" $o"
done
if [ -z "$missing" ]; then
	ok "btf2btf(1) names all $(wc -w <<< "$opts") long options of btf2btf --help"
else
	bad "btf2btf(1) does not name these options of btf2btf --help:$missing"
fi

# every exported symbol, in the SYNOPSIS and in the text after it
syms=$(sed -n 's/^[[:space:]]*\(btf2btf__[a-z0-9_]*\);/\1/p' "$top/src/lib/libbtf2btf.map" | sort -u)
[ -n "$syms" ] || bad "src/lib/libbtf2btf.map lists no symbol"
synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$page3" | from_roff)
body=$(sed -n '/^\.SH DESCRIPTION/,$p' "$page3" | from_roff)
missing=
for s in $syms; do
	grep -q "\\b$s(" <<< "$synopsis" && grep -q "\\b$s\\b" <<< "$body" || missing+=" $s"
done
if [ -z "$missing" ]; then
	ok "libbtf2btf(3) declares and describes all $(wc -w <<< "$syms") symbols of libbtf2btf.map"
else
	bad "libbtf2btf(3) lacks (in its SYNOPSIS or its text) these symbols of libbtf2btf.map:$missing"
fi

# the front documents stay short: the reference is in the man pages, the
# rest in docs/ (issue 47: README 12 KB, kernel/README 25 KB, bench/README 15 KB)
for d in README.md:12 kernel/README.md:25 bench/README.md:15; do
	f=$top/${d%:*} max=$(( ${d#*:} * 1024 ))
	size=$(stat -c %s "$f")
	[ "$size" -le "$max" ] && ok "${d%:*}: $size bytes (at most ${d#*:} KiB)" ||
		bad "${d%:*}: $size bytes, more than ${d#*:} KiB: move the detail to docs/ or a man page"
done

# the version the pages say, the header's
ver=$(sed -n 's/^#define BTF2BTF_VERSION[[:space:]]*"\(.*\)"/\1/p' "$top/include/btf2btf.h")
for p in "$page1" "$page3"; do
	head -1 "$p" | grep -q "\"btf2btf $ver\"" && ok "$(basename "$p"): .TH says btf2btf $ver" ||
		bad "$(basename "$p"): .TH does not say btf2btf $ver (include/btf2btf.h)"
done

# mandoc's lint, style notes included
if command -v mandoc > /dev/null; then
	for p in "$page1" "$page3"; do
		out=$(mandoc -T lint "$p" 2>&1)
		if [ -z "$out" ]; then
			ok "mandoc -T lint $(basename "$p"): nothing"
		else
			bad "mandoc -T lint $(basename "$p"): $out"
		fi
	done
else
	skipped "mandoc -T lint: no mandoc (apt-get install mandoc)"
fi

# the example program, compiled and run as the page shows
awk '/^\.\\" example: kfunc-list\.c$/ { want = 1; next }
     want && /^\.nf$/ { inb = 1; next }
     inb && /^\.fi$/ { exit }
     inb { print }' "$page3" | from_roff > "$work/kfunc-list.c"
if ! [ -s "$work/kfunc-list.c" ]; then
	bad "libbtf2btf(3): no example program after '.\\\" example: kfunc-list.c'"
elif ! "$cc" -Wall -Wextra -Werror -I"$top/include" -o "$work/kfunc-list" "$work/kfunc-list.c" \
		"${ldflags[@]}" -L"$build" -Wl,-rpath,"$build" -lbtf2btf > "$work/cc.log" 2>&1; then
	bad "libbtf2btf(3)'s example does not compile with $cc: $(cat "$work/cc.log")"
else
	ok "libbtf2btf(3)'s example compiles with $cc -Wall -Wextra -Werror"
	cp "$build/fixtures/split.o" "$work/vmlinux"
	cp "$build/fixtures/split.o.ko" "$work/mod.ko"
	# the commands of the block after the example, and what they print
	awk '/^\.\\" docs: not run: tests\/check-man\.sh/ { want = 1; next }
	     want && /^\.nf$/ { inb = 1; next }
	     inb && /^\.fi$/ { exit }
	     inb { print }' "$page3" | from_roff > "$work/shown"
	[ -s "$work/shown" ] || bad "libbtf2btf(3): no block of the example's commands"
	: > "$work/got"
	while IFS= read -r line; do
		case $line in
		'$ cc '*) echo "$line" >> "$work/got" ;;
		'$ '*)	echo "$line" >> "$work/got"
			(cd "$work" && bash -c "${line:2}") >> "$work/got" 2>&1 ;;
		esac
	done < "$work/shown"
	if cmp -s "$work/shown" "$work/got"; then
		ok "libbtf2btf(3)'s example prints what the page shows ($(grep -c '^\$ ' "$work/shown") commands)"
	else
		bad "libbtf2btf(3)'s example prints something else now: $(diff -u "$work/shown" "$work/got")"
	fi
	[ -s "$work/mod.btf" ] && ok "the example wrote mod.btf ($(stat -c %s "$work/mod.btf") bytes)" ||
		bad "the example wrote no mod.btf"
fi

[ "$skip" = 0 ] && skip= || skip=", $skip skipped"
echo "man: $pass passed, $fail failed$skip"
[ "$fail" = 0 ]
