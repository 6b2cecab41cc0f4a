# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The differential's inputs (sourced by run.sh and tests/same-as.sh, which
# compare different things on the same objects): every fixture, DIFF_N
# random objects and two batches of DIFF_N_KERNEL kernel-valid ones, each as
# NAME.o with the raw BTF pahole would give (NAME.BTF.1) and, for split BTF,
# its base (NAME.base), in $W/in; and per object a line "NAME KIND BASE"
# (KIND vmlinux, module or module-distill; BASE - for vmlinux) in $CASES.
# Sets nfix and nextra (the fixtures and DIFF_EXTRA objects counted).
#
# Needs: W, MKF, CANON, FX, PAHOLE, SEED, N, NK (run.sh's); DIFF_NO_DEDUP,
# DIFF_EXTRA as run.sh documents them; CASES.

{ "$MKF" random "$SEED" "$N" "$W/in" ${DIFF_NO_DEDUP:+--no-dedup} &&
  "$MKF" random "$((SEED + 1))" "$NK" "$W/in" ${DIFF_NO_DEDUP:+--no-dedup} --kernel-valid --prefix=kv612_ &&
  "$MKF" random "$((SEED + 2))" "$NK" "$W/in" ${DIFF_NO_DEDUP:+--no-dedup} --kernel-valid=tag-kflag --prefix=kv73_; } ||
	{ echo "differential: error: mkfixture random failed" >&2; exit 1; }
while read -r name kind _; do
	base=-
	[ "$kind" = vmlinux ] || base=$W/in/$name.base
	printf '%s %s %s\n' "$name" "$kind" "$base"
done < "$W/in/manifest" > "$CASES"

# fixtures: the raw BTF upstream would get from pahole --btf_encode_detached
fixture() {	# NAME OBJ KIND [BASE_OBJ]
	local name=$1 obj=$2 kind=$3 base=${4:-}
	cp "$obj" "$W/in/$name.o"
	if [ -n "$base" ]; then
		"$CANON" -r "$W/in/$name.base" "$base" &&
			"$CANON" -r "$W/in/$name.BTF.1" -b "$W/in/$name.base" "$obj" || return 1
		printf '%s %s %s\n' "$name" "$kind" "$W/in/$name.base" >> "$CASES"
	else
		"$CANON" -r "$W/in/$name.BTF.1" "$obj" || return 1
		printf '%s %s -\n' "$name" "$kind" >> "$CASES"
	fi
}
nfix=0
for f in basic basic-resolved basic-be basic-elf32 basic-exec; do
	fixture "fx-$f" "$FX/$f.o" vmlinux && nfix=$((nfix + 1))
done
for cc in gcc clang; do
	# the compiled fixtures: DWARF -> BTF the way the 7.3 build does it
	cp "$FX/kfuncs.$cc.o" "$W/in/fx-kfuncs-$cc.o"
	if LLVM_OBJCOPY=objcopy "$PAHOLE" -J --btf_encode_detached="$W/in/fx-kfuncs-$cc.BTF.1" \
		"$W/in/fx-kfuncs-$cc.o" >/dev/null 2>&1; then
		printf 'fx-kfuncs-%s vmlinux -\n' "$cc" >> "$CASES"
		nfix=$((nfix + 1))
	else
		echo "differential: error: pahole --btf_encode_detached failed on kfuncs.$cc.o" >&2
		exit 1
	fi
done
fixture fx-split "$FX/split.o.ko" module "$FX/split.o" && nfix=$((nfix + 1))
fixture fx-split-distill "$FX/split.o.ko" module-distill "$FX/split.o" && nfix=$((nfix + 1))
"$MKF" lint-zoo "$W/lint-zoo.o" && fixture fx-lint-zoo "$W/lint-zoo.o" vmlinux && nfix=$((nfix + 1))

# extra base objects (DIFF_EXTRA=DIR: tests/differential/layout.sh): NAME
# lines in DIR/manifest, each with its DIR/NAME.o and DIR/NAME.BTF.1 (the
# raw BTF of the pahole under test)
nextra=0
if [ -n "${DIFF_EXTRA:-}" ]; then
	while read -r name; do
		cp "$DIFF_EXTRA/$name.o" "$DIFF_EXTRA/$name.BTF.1" "$W/in/" ||
			{ echo "differential: error: $DIFF_EXTRA/$name.{o,BTF.1} missing" >&2; exit 1; }
		printf '%s vmlinux -\n' "$name" >> "$CASES"
		nextra=$((nextra + 1))
	done < "$DIFF_EXTRA/manifest"
fi
