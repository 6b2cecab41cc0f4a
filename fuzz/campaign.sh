#!/bin/sh
# One bounded libFuzzer campaign, as CI runs it (make fuzz-ci): SECONDS of
# BIN over the corpus directories, findings (crash, leak, timeout, a broken
# property) into OUT/findings; fails on any finding, and on fewer than
# MIN_RUNS inputs run (a broken harness or machine, not a clean library).
#   fuzz/campaign.sh NAME BIN SECONDS MIN_RUNS OUT CORPUS_DIR...
set -u
name=$1 bin=$2 seconds=$3 min_runs=$4 out=$5
shift 5
rm -rf "$out" && mkdir -p "$out/findings" "$out/new" || exit 1
dict=
[ "$name" = btf2btf ] || [ "$name" = views ] || [ "$name" = distilled ] || [ "$name" = signature ] &&
	dict=-dict=fuzz/btf2btf.dict
# new inputs go to a scratch directory, the corpora given stay as they are
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $dict \
	-artifact_prefix="$(cd "$out" && pwd)/findings/" "$out/new" "$@" > "$out/log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log")
found=$(ls "$out/findings")
if [ $rc -ne 0 ] || [ -n "$found" ]; then
	tail -60 "$out/log"
	echo "fuzz-ci: $name: FAILED (exit $rc) after ${runs:-?} runs; findings: $found"
	echo "fuzz-ci: reproduce with FUZZ_VERBOSE=1 $bin <finding>, then see fuzz/README.md"
	exit 1
fi
if [ "${runs:-0}" -lt "$min_runs" ]; then
	tail -20 "$out/log"
	echo "fuzz-ci: $name: only ${runs:-0} runs (< $min_runs)"
	exit 1
fi
echo "fuzz-ci: $name: $runs runs in $seconds s, $(sed -n 's/^stat::new_units_added: *//p' "$out/log") new inputs, no finding"
