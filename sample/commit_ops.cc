/// \file
/// The sample's commit, begin, finish and validate operations, and what the rows of a
/// table say about one constraint (Engine::TruthOf), each on top of RunCommit (commit.cc).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_set>

#include "sample/commit_internal.h"
#include "sample/engine_internal.h"
#include "sample/schema_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {

Engine::Truth Engine::TruthOf(const Constraint& c, const std::vector<NestedField>& fields,
                              const std::vector<Value>& rows) const {
  Truth truth;
  if (!c.type) return truth;
  if (*c.type == ConstraintType::kCheck) {
    if (!c.expression) {
      truth.evaluable = false;
      return truth;
    }
    CompiledCheck check(*c.expression, fields, udfs_, CheckOpts());
    if (!check.evaluable()) {
      truth.evaluable = false;
      return truth;
    }
    for (const Value& row : rows) {
      std::optional<bool> holds = check.Holds(row);
      if (!holds) {
        truth.evaluable = false;
      } else if (!*holds) {
        truth.violated = true;
      }
    }
    return truth;
  }
  if (!c.field_ids) return truth;
  const auto slots = IndexFields(fields);
  KeyReader reader;
  reader.primary_key = *c.type == ConstraintType::kPrimaryKey;
  for (FieldId f : *c.field_ids) {
    auto it = slots.find(f);
    reader.paths.push_back(it == slots.end() || it->second.in_repeated
                               ? std::vector<FieldId>{}
                               : it->second.path);
  }
  KeySet keys;
  for (const Value& row : rows) {
    bool null_pk = false;
    auto key = reader.Of(row, null_pk);
    if (null_pk) truth.violated = true;
    if (key && !keys.insert(std::move(*key)).second) truth.violated = true;
  }
  return truth;
}

Engine::Truth Engine::TruthOnLive(const Table& t, const Constraint& c) const {
  const std::vector<NestedField>& fields = CurrentSchemaOf(t.meta).fields;
  std::vector<Value> rows;
  for (const auto& [key, row] : t.live()) rows.push_back(ReadRow(t.meta, row, fields));
  return TruthOf(c, fields, rows);
}

Reply Engine::CommitOp(const std::string& name, Table& t, int64_t now, const Commit& op) {
  Table out;
  ConstraintStatuses statuses;
  if (op.txn) {
    auto it = txns_.find({name, *op.txn});
    if (it == txns_.end()) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no transaction '{}'", *op.txn));
    }
    Transaction& x = it->second;
    if (x.staged) {
      return Reply::Reject(
          kinds::kInvalidRequest,
          fmt::format("transaction '{}' already holds a commit", *op.txn));
    }
    const SnapshotId sid = PickSnapshotId(name);
    if (auto rejected = RunCommit(x.base, op, now, sid, nullptr, out, statuses)) {
      return *rejected;
    }
    UseSnapshotId(name, sid);  // reserved for this transaction
    x.staged = op;
    x.staged_now_ms = now;
    x.reserved_snapshot_id = sid;
    x.staged_statuses = statuses;
    return Reply::Ok(out.meta);
  }
  const SnapshotId sid = PickSnapshotId(name);
  if (auto rejected = RunCommit(t, op, now, sid, nullptr, out, statuses))
    return *rejected;
  UseSnapshotId(name, sid);
  t = std::move(out);
  return Reply::Ok(t.meta);
}

Reply Engine::BeginOp(const std::string& name, const Table& t, const Begin& op) {
  Transaction x;
  x.base = t;
  txns_[{name, op.txn}] = std::move(x);
  return Reply::Ok(t.meta);
}

Reply Engine::FinishOp(const std::string& name, Table& t, int64_t now, const Finish& op) {
  auto it = txns_.find({name, op.txn});
  if (it == txns_.end() || !it->second.staged) {
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("transaction '{}' holds no staged commit", op.txn));
  }
  Transaction x = std::move(it->second);
  txns_.erase(it);
  RetryContext retry;
  retry.base = &x.base;
  retry.staged_statuses = x.staged_statuses ? &*x.staged_statuses : nullptr;
  retry.staged_now_ms = x.staged_now_ms;
  retry.only_finishes_since_base =
      t.version - x.base.version == t.finishes - x.base.finishes;
  Table out;
  ConstraintStatuses statuses;
  Commit commit = *x.staged;
  commit.txn.reset();
  if (auto rejected =
          RunCommit(t, commit, now, x.reserved_snapshot_id, &retry, out, statuses)) {
    return *rejected;
  }
  t = std::move(out);
  return Reply::Ok(t.meta);
}

/// `validate`: the named constraints checked against every live row, recorded in a new
/// snapshot that changes no rows (operation `replace`).
Reply Engine::ValidateOp(const std::string& name, Table& t, int64_t now,
                         const Validate& op) {
  TableMetadata& md = t.meta;
  if (md.format_version < 4) {
    return Reply::Reject(kinds::kUnsupportedVersion, "constraints need format version 4");
  }
  std::set<ConstraintId> ids;
  for (const std::string& name : op.names) {
    bool seen = false;
    for (const Constraint& c : md.constraints.value_or(std::vector<Constraint>{})) {
      if (c.name && *c.name == name && c.id) {
        ids.insert(*c.id);
        seen = true;
      }
    }
    if (!seen) {
      return Reply::Reject(kinds::kInvalidRequest,
                           fmt::format("no constraint named '{}'", name));
    }
  }
  RetryContext context;
  context.full_check = &ids;
  Commit replace;
  replace.operation = CommitOperation::kReplace;
  const SnapshotId sid = PickSnapshotId(name);
  Table out;
  ConstraintStatuses statuses;
  if (auto rejected = RunCommit(t, replace, now, sid, &context, out, statuses))
    return *rejected;
  UseSnapshotId(name, sid);
  t = std::move(out);
  return Reply::Ok(t.meta);
}


}  // namespace ictk::sample
