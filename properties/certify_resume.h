/// \file
/// `ictk certify --resume DIR` (docs/robustness.md "Long runs"): continues a run that was
/// killed, from its report.jsonl. certify writes one case record a line, in case-index
/// order, flushed as each case finishes (and a failure's fixture file before its record),
/// so the file of a killed run is a header, the records of a prefix of the run's cases
/// and at most one cut-off line. Records computed from all cases at the end (the
/// expectation file's `expectations/N` breaches, the totals) are written again. Resuming
/// keeps that prefix byte for byte, runs only the cases after it, and appends their
/// records and the totals: the final report equals an uninterrupted run's apart from
/// timing fields.
#pragma once

#include <cstddef>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "codec/result.h"
#include "reports/report.h"

namespace ictk {

/// What a killed run left in its report.jsonl.
struct ResumeState {
  bool found =
      false;         ///< false: no report.jsonl (or not even a whole header): start anew
  RunHeader header;  ///< the killed run's header (kept in the file as it was)
  std::vector<CaseRecord> cases;  ///< its finished cases, in the order written
  std::set<int64_t> done;         ///< their indices
  /// Length of the prefix of report.jsonl that holds the header and those cases (a
  /// cut-off last line and a totals record are dropped when the run continues).
  size_t keep_bytes = 0;
};

/// Reads `dir`/report.jsonl of an earlier run of the same certification. An error (kind
/// kUsage, naming the file, the line and the field) when its header does not describe
/// the run `expected` describes (seed, histories, max steps, adapter, switches, shard,
/// model version, mode), or when a complete line in the middle is not a record; a
/// missing file gives `found == false`.
/// With `on_case`, each finished case is handed to it instead of kept in `cases` (a
/// long run's records are not all held in memory).
Result<ResumeState> LoadResumeState(const std::string& dir, const RunHeader& expected,
                                    const std::function<void(CaseRecord&&)>& on_case = {});

/// Whether the killed run recorded all `count` cases numbered from `first_index` (the
/// fixture corpus certify replays before the random histories); false when nothing was
/// found to resume.
bool CorpusDone(const ResumeState& state, int64_t first_index, size_t count);

/// Cuts `dir`/report.jsonl to the first `keep_bytes` bytes and opens it for appending
/// into `out`. False with `error` set when it cannot.
bool ReopenReportForAppend(const std::string& dir, size_t keep_bytes, std::ofstream& out,
                           std::string& error);

}  // namespace ictk
