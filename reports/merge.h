/// \file
/// Sharded runs (docs/certify.md "Sharded CI"): the reports of `ictk certify --shard 0/N
/// ... N-1/N` (same seed, adapter, switches, model) merged into the report one unsharded
/// run would have written, and an exact comparison of two reports that ignores only
/// durations and command lines (`ictk report diff --exact`).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codec/result.h"
#include "reports/report.h"

namespace ictk {

/// One shard's report and where it came from (named in errors).
struct ShardInput {
  std::string source;
  Report report;
};

/// What merging gives: the merged report, and the failure fixtures to carry over (one per
/// cause of failure, as an unsharded run writes them): `source` index -> path relative
/// to that shard's folder (the same path in the merged folder).
struct MergedReport {
  Report report;
  std::vector<std::pair<size_t, std::string>> fixtures;
};

/// Merges shards. Refuses (kInvalid, naming the field and both values) shards that do
/// not belong together: a header field that differs (seed, adapter, switches,
/// model-version, ...), a `shard` missing, repeated or of another N, a shard without its
/// closing totals or with fewer cases than its header's `histories` (a killed or
/// --fail-fast run). The corpus cases are taken once (from shard 0), the random cases in
/// index order, expectation breaches that every shard reported once; failures for the
/// same cause point at the first case of the cause, as in an unsharded run.
/// `replay_of(fixture_path)` gives the replay command of a fixture written into the
/// merged folder; `reproduce_of(shard, fixture_path, reproduce)` the reproduce command of
/// a corpus failure whose fixture a shard wrote into its folder (docs/certify.md, "A
/// corpus failure"), from the shard's command (unchanged when not given).
Result<MergedReport> MergeShards(
    const std::vector<ShardInput>& shards,
    const std::function<std::string(const std::string&)>& replay_of,
    const std::string& command_line,
    const std::function<std::string(size_t, const std::string&, const std::string&)>&
        reproduce_of = {});

/// Every difference between two reports apart from durations and command lines
/// (`command-line`, a failure's `replay` and `reproduce`): header fields, cases by position and ID,
/// totals. Empty when they are the same run.
std::vector<std::string> ExactDifferences(const Report& a, const Report& b);

}  // namespace ictk
