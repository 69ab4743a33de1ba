#!/usr/bin/env bash
# Sharded runs (docs/certify.md "Sharded CI"): 4 shards of a failing sample mutant merged by
# `ictk report merge` equal the unsharded run (`ictk report diff --exact`: every record apart
# from durations and command lines), with every rendering and the same failure fixtures;
# shards that do not belong together are refused with exit 2 naming the field; and
# scripts/ci/implementation-repo runs the matrix locally (--shards 4) and the merge job
# (--merge).
#
#   tests/reports/merge_shards_test.sh SOURCE_DIR BIN_DIR
set -uo pipefail
source_dir=$1
bin=$2
ictk=$bin/ictk
source "$(dirname "$0")/../check_lib.sh"

# A mutant the corpus (replayed by every shard) and the random histories both catch, for
# causes of their own, so that the run writes failure fixtures to merge (a mutant whose
# random failures share the corpus failure's cause points at the corpus fixture instead).
mutant=${ICTK_MERGE_MUTANT:-unique-compares-nulls}
adapter="builtin:sample?mutant=$mutant"
common=(certify --adapter "$adapter" --histories 40 --seed 1 --quiet --jobs 1)
seed2=(certify --adapter "$adapter" --histories 40 --seed 2 --quiet --jobs 1)

expect_exit 1 "$tmp/u.log" "$ictk" "${common[@]}" --out "$tmp/unsharded"
for i in 0 1 2 3; do
  expect_exit 1 "$tmp/s$i.log" "$ictk" "${common[@]}" --shard "$i/4" --out "$tmp/shard$i"
done
shards=("$tmp/shard0" "$tmp/shard1" "$tmp/shard2" "$tmp/shard3")
# The order of the folders does not matter.
expect_exit 1 "$tmp/merge.log" "$ictk" report merge "$tmp/shard2" "$tmp/shard0" "$tmp/shard3" \
  "$tmp/shard1" --out "$tmp/merged"
cat "$tmp/merge.log"
expect_exit 0 "$tmp/exact.log" "$ictk" report diff --exact "$tmp/unsharded/report.jsonl" \
  "$tmp/merged/report.jsonl"
cat "$tmp/exact.log"
expect_exit 0 "$tmp/diff.log" "$ictk" report diff "$tmp/unsharded/report.jsonl" \
  "$tmp/merged/report.jsonl"
for f in report.jsonl junit.xml summary.md report.html badge.json; do
  check "merged: $f written" test -s "$tmp/merged/$f"
done
check "the run failed (there is something to merge)" test -d "$tmp/unsharded/failures"
check "the same failure fixtures as the unsharded run" \
  diff -r "$tmp/unsharded/failures" "$tmp/merged/failures"
check "the same badge" cmp -s "$tmp/unsharded/badge.json" "$tmp/merged/badge.json"
# summary.md and junit.xml differ only in durations and the folder replay commands name.
strip() {
  sed -E "s/[0-9]+\.[0-9]+ ?s\b/T/g; s/time=\"[0-9.]+\"/time=T/g; s#$tmp/(unsharded|merged)/#DIR/#g" "$1"
}
check "the same summary.md apart from durations" \
  diff <(strip "$tmp/unsharded/summary.md") <(strip "$tmp/merged/summary.md")
check "the same junit.xml apart from durations" \
  diff <(strip "$tmp/unsharded/junit.xml") <(strip "$tmp/merged/junit.xml")
check "a replay command of the merged run names the merged folder" \
  grep -q "$tmp/merged/failures/" "$tmp/merged/report.jsonl"

# --exact sees a real difference: another seed.
"$ictk" "${seed2[@]}" --out "$tmp/seed2" >/dev/null 2>&1
expect_exit 1 "$tmp/exact2.log" "$ictk" report diff --exact "$tmp/unsharded/report.jsonl" \
  "$tmp/seed2/report.jsonl"
check "--exact names the header field" grep -q "header seed" "$tmp/exact2.log"

# Shards that do not belong together: exit 2, naming the field.
expect_exit 2 "$tmp/missing.log" "$ictk" report merge "${shards[@]:0:3}" --out "$tmp/m1"
check "a missing shard is named" grep -q "missing shard(s) 3/4" "$tmp/missing.log"
"$ictk" "${seed2[@]}" --shard 3/4 --out "$tmp/shard3-seed2" >/dev/null 2>&1
expect_exit 2 "$tmp/seed.log" "$ictk" report merge "${shards[@]:0:3}" "$tmp/shard3-seed2" \
  --out "$tmp/m2"
check "another seed is named: field seed" grep -q "field seed differs" "$tmp/seed.log"
"$ictk" "${common[@]}" --switch modified-counts-as-added=false --shard 3/4 \
  --out "$tmp/shard3-switch" >/dev/null 2>&1 || true
if [ -f "$tmp/shard3-switch/report.jsonl" ]; then
  expect_exit 2 "$tmp/switch.log" "$ictk" report merge "${shards[@]:0:3}" \
    "$tmp/shard3-switch" --out "$tmp/m3"
  check "another switch is named" grep -Eq "field (switches|model-version) differs" \
    "$tmp/switch.log"
fi
expect_exit 2 "$tmp/twice.log" "$ictk" report merge "${shards[@]}" "$tmp/shard1" --out "$tmp/m4"
check "a shard given twice is named" grep -q "are both shard 1/4" "$tmp/twice.log"
expect_exit 2 "$tmp/unsh.log" "$ictk" report merge "$tmp/unsharded" "${shards[@]}" --out "$tmp/m5"
check "an unsharded run is not a shard" grep -q "field shard" "$tmp/unsh.log"
"$ictk" certify --adapter builtin:sample --histories 40 --seed 1 --quiet --jobs 1 --shard 1/4 \
  --out "$tmp/shard1-other" >/dev/null 2>&1
expect_exit 2 "$tmp/adapter.log" "$ictk" report merge "$tmp/shard0" "$tmp/shard1-other" \
  "$tmp/shard2" "$tmp/shard3" --out "$tmp/m6"
check "another adapter is named" grep -q "field adapter differs" "$tmp/adapter.log"
head -n -1 "$tmp/shard2/report.jsonl" >"$tmp/cut.jsonl"
mkdir -p "$tmp/shard2-killed" && mv "$tmp/cut.jsonl" "$tmp/shard2-killed/report.jsonl"
expect_exit 2 "$tmp/killed.log" "$ictk" report merge "$tmp/shard0" "$tmp/shard1" \
  "$tmp/shard2-killed" "$tmp/shard3" --out "$tmp/m7"
check "a shard that did not finish is named: field totals" grep -q "field totals" \
  "$tmp/killed.log"

# Progress outside a terminal: one line per 10% with the failures so far; --jobs defaults
# to the number of cores.
"$ictk" certify --adapter "$adapter" --histories 40 --seed 1 --no-corpus --out "$tmp/progress" \
  >"$tmp/progress.out" 2>"$tmp/progress.err" </dev/null
lines=$(grep -c "^certify: .*% .* cases, .* failing so far" "$tmp/progress.err")
check "one progress line per 10% (got $lines)" test "$lines" -eq 10
check "the last progress line is at 100%" \
  bash -c "grep '^certify: ' '$tmp/progress.err' | tail -n 1 | grep -q '100% 40/40 cases'"
check "the progress lines count the failures" \
  bash -c "grep '^certify: ' '$tmp/progress.err' | tail -n 1 | grep -Eq ' [1-9][0-9]* failing so far'"
cores=$(nproc 2>/dev/null || echo 1)
check "--jobs defaults to the cores ($cores)" grep -q "$cores job(s)" "$tmp/progress.err"

# The CI script: the merge job's step on these shards, and the whole matrix locally.
unset GITHUB_STEP_SUMMARY
ICTK_BIN=$bin ICTK_SUMMARY=$tmp/merge-job.md "$source_dir/scripts/ci/implementation-repo" \
  --merge "${shards[@]}" --out "$tmp/merge-job" >"$tmp/merge-job.log" 2>&1
rc=$?
check "implementation-repo --merge: exit 1 for the mutant (got $rc)" test $rc -eq 1
check "its step summary has the merged summary" grep -q "Merged from 4 shard" "$tmp/merge-job.md"
ICTK_BIN=$bin ICTK_SUMMARY=$tmp/shards.md "$source_dir/scripts/ci/implementation-repo" \
  --adapter "exec:$bin/ictk-sample-adapter --mutant $mutant" --histories 20 --shards 4 \
  --out "$tmp/ci" >"$tmp/ci.log" 2>&1
rc=$?
check "implementation-repo --shards 4: exit 1 for the mutant (got $rc)" test $rc -eq 1
[ $rc -eq 1 ] || tail -n 20 "$tmp/ci.log"
check "it ran 4 shards" test -s "$tmp/ci/shards/3/report.jsonl"
check "and merged them" test -s "$tmp/ci/report.html"
check "its step summary has validate-adapter and certify" grep -q "validate-adapter" "$tmp/shards.md"
exit $failed
