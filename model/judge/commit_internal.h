/// \file
/// What the parts of the commit path share (not installed): the rows a commit touches
/// (commit_rows.cc) and what they do to each constraint (commit_effects.cc); commit.cc
/// turns these into the commit's allowed outcome and statuses and applies it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/judge/operations_internal.h"
#include "model/rules/enforcement.h"

namespace ictk::internal {

struct RowChange {
  enum class Kind { kAdd, kRemove, kModify };
  Kind kind = Kind::kAdd;
  std::string key;
  const Value* before = nullptr;  ///< the live values in the parent (remove, modify)
  std::optional<Value> after;     ///< the normalized new values (add, modify)
};

struct PreparedCommit {
  std::vector<RowChange> changes;  ///< removals, then modifications, then additions
  Findings invalid;                ///< the request breaks the protocol: invalid-request
  Findings conflicts;  ///< a retry cannot apply: commit-conflict (or invalid-request)
  Findings
      vanished;  ///< a retry removes rows deleted concurrently: commit-conflict or ok
  size_t adds = 0;
  size_t removes = 0;
  size_t modifies = 0;
};

/// The commit's row changes against the live rows of `parent` ("a table's live rows,
/// after applying deletes": sem.live-rows): removals first, then modifications, then
/// additions. "Removing or modifying a key that is not live in the parent, or adding a
/// key that is" is invalid-request; on a retry the same keys may have changed
/// concurrently, which is a conflict instead.
PreparedCommit PrepareCommit(const TableState& parent, const Commit& commit, bool retry);

/// What the row changes do to each constraint of `parent` (key constraints through their
/// count index, checks through their violation tally), one effect per constraint. Under a
/// key clause's knock-out (knockout.h) the key facts are found by scanning rows;
/// `original_rows` are the transaction base's rows, for kEnfRetryKeysNewParent.
std::vector<ConstraintEffect> EvaluateConstraints(const TableState& parent,
                                                  const std::vector<RowChange>& changes,
                                                  const FunctionCatalog& functions,
                                                  KnockOut knock_out = KnockOut::kNone,
                                                  const LiveRows* original_rows = nullptr);

}  // namespace ictk::internal
