/// \file
/// The rows a commit touches: which rows each operation may carry, and the commit's row
/// changes against the live rows of its parent (removals, modifications, additions), with
/// what makes them invalid or, on a retry, a conflict.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "model/rules/definition_rules.h"
#include "model/rules/enforcement.h"
#include "model/judge/operations_internal.h"
#include "model/iceberg/single_value.h"
#include "model/judge/commit_internal.h"

namespace ictk::internal {

namespace {

/// Which rows each operation carries: "append only add; delete only remove; overwrite any
/// of add, remove, modify; replace none" (ARCHITECTURE.md conventions, proto.request).
void CheckOperationRows(const Commit& commit, Findings& invalid) {
  const bool adds = !commit.add.empty(), removes = !commit.remove.empty(),
             modifies = !commit.modify.empty();
  bool ok = true;
  switch (commit.operation) {
    case CommitOperation::kAppend:
      ok = !removes && !modifies;
      break;
    case CommitOperation::kDelete:
      ok = !adds && !modifies;
      break;
    case CommitOperation::kOverwrite:
      ok = true;
      break;
    case CommitOperation::kReplace:
      ok = !adds && !removes && !modifies;
      break;
  }
  Require(invalid, ok, clauses::kProtoRequestMalformed,
          fmt::format("a {} commit cannot carry {}{}{}", ToString(commit.operation),
                      adds ? "add " : "", removes ? "remove " : "",
                      modifies ? "modify" : ""));
}

}  // namespace

/// The commit's row changes against the live rows of `parent` ("a table's live rows,
/// after applying deletes": sem.live-rows): removals first, then modifications, then
/// additions. "Removing or modifying a key that is not live in the parent, or adding a
/// key that is" is invalid-request; on a retry the same keys may have changed
/// concurrently, which is a conflict instead.
PreparedCommit PrepareCommit(const TableState& parent, const Commit& commit, bool retry) {
  PreparedCommit p;
  CheckOperationRows(commit, p.invalid);
  const Schema* schema = parent.metadata.CurrentSchema();
  static const std::vector<NestedField> kNoFields;
  const std::vector<NestedField>& fields = schema ? schema->fields : kNoFields;
  std::unordered_set<std::string> touched;
  const auto once = [&](const std::string& key) {
    if (key.empty()) {
      p.invalid.push_back(MakeFinding(clauses::kProtoRequestMalformed, "a row without a key"));
      return false;
    }
    if (touched.insert(key).second) return true;
    p.invalid.push_back(MakeFinding(
        clauses::kProtoRequestMalformed, fmt::format("row {} appears twice in the commit", key)));
    return false;
  };
  const auto normalize = [&](const Row& row) -> std::optional<Value> {
    NormalizedRow n = NormalizeRow(row.values, fields);
    if (!n.values) {
      (retry ? p.conflicts : p.invalid)
          .push_back(MakeFinding(clauses::kProtoRequestMalformed,
                                 fmt::format("row {}: {}", row.key, n.error)));
    }
    return std::move(n.values);
  };
  for (const std::string& key : commit.remove) {
    if (!once(key)) continue;
    auto it = parent.rows.find(key);
    if (it == parent.rows.end()) {
      (retry ? p.vanished : p.invalid)
          .push_back(MakeFinding(clauses::kProtoRequestMalformed,
                                 fmt::format("removes row {}, which is not live", key)));
      continue;
    }
    p.changes.push_back(
        RowChange{RowChange::Kind::kRemove, key, &it->second, std::nullopt});
    ++p.removes;
  }
  for (const Row& row : commit.modify) {
    if (!once(row.key)) continue;
    auto it = parent.rows.find(row.key);
    if (it == parent.rows.end()) {
      (retry ? p.conflicts : p.invalid)
          .push_back(
              MakeFinding(clauses::kProtoRequestMalformed,
                          fmt::format("modifies row {}, which is not live", row.key)));
      continue;
    }
    std::optional<Value> after = normalize(row);
    if (!after) continue;
    p.changes.push_back(
        RowChange{RowChange::Kind::kModify, row.key, &it->second, std::move(after)});
    ++p.modifies;
  }
  for (const Row& row : commit.add) {
    if (!once(row.key)) continue;
    if (parent.rows.count(row.key)) {
      (retry ? p.conflicts : p.invalid)
          .push_back(MakeFinding(
              clauses::kProtoRequestMalformed,
              fmt::format("adds row {}, which is already live (use modify)", row.key)));
      continue;
    }
    std::optional<Value> after = normalize(row);
    if (!after) continue;
    p.changes.push_back(
        RowChange{RowChange::Kind::kAdd, row.key, nullptr, std::move(after)});
    ++p.adds;
  }
  return p;
}

}  // namespace ictk::internal
