/// \file
/// The sample's write path: a commit is planned against a parent snapshot (its row
/// changes applied, the added and modified rows verified against every constraint,
/// statuses derived from the parent's), and becomes a new snapshot. A transaction stages
/// its commit on the base it pinned and, at `finish`, runs it again against whatever is
/// current: the retry of enf.retry-* (the operations are in commit_ops.cc, the statuses
/// in commit_statuses.cc).
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
namespace {

Reply Invalid(std::string m) {
  return Reply::Reject(kinds::kInvalidRequest, std::move(m));
}

}  // namespace

std::optional<Reply> Engine::RunCommit(const Table& parent, const Commit& c, int64_t now,
                                       SnapshotId snapshot_id, const RetryContext* retry,
                                       Table& out, ConstraintStatuses& statuses,
                                       bool whole_only) const {
  if (divergent_ && retry == nullptr && !whole_only) {
    // "Where a request has two causes, either kind is accepted" (docs/protocol.md
    // section 8): a commit with a malformed row change whose well-formed rows break an
    // enforced constraint is invalid-request, or — the divergent style's pick, half the
    // time — the well-formed part's constraint-violation (or unverifiable-constraint).
    std::optional<Reply> whole =
        RunCommit(parent, c, now, snapshot_id, nullptr, out, statuses, true);
    if (!whole || whole->error_kind != kinds::kInvalidRequest) return whole;
    const Commit part = WellFormedPart(parent.live(), c);
    Table scratch;
    ConstraintStatuses scratch_statuses;
    std::optional<Reply> second = RunCommit(parent, part, now, snapshot_id, nullptr,
                                            scratch, scratch_statuses, true);
    if (second &&
        (second->error_kind == kinds::kConstraintViolation ||
         second->error_kind == kinds::kUnverifiable) &&
        choose_.Coin())
      return second;
    return whole;
  }
  CommitPlan plan(*this, parent, c, retry);
  if (std::optional<Reply> refused = plan.RowChangesRefusal()) return refused;
  if (std::optional<Reply> refused = plan.NewRowsRefusal()) return refused;
  if (std::optional<Reply> refused = plan.VerifyConstraints()) return refused;
  statuses = plan.Statuses();
  plan.WriteSnapshot(now, snapshot_id, statuses, out);
  return std::nullopt;
}

CommitPlan::CommitPlan(const Engine& engine, const Table& parent, const Commit& commit,
                       const Engine::RetryContext* retry)
    : engine(engine),
      parent(parent),
      pm(parent.meta),
      commit(commit),
      retry(retry),
      schema(CurrentSchemaOf(pm)),
      fields(schema.fields),
      live(parent.live()),
      is_retry(retry != nullptr && retry->base != nullptr &&
               retry->base->version != parent.version),
      constraints(pm.constraints.value_or(std::vector<Constraint>{})),
      schema_id(schema.schema_id.value_or(0)),
      first_row_id(pm.next_row_id.value_or(0)) {}

Reply CommitPlan::Conflict(std::string message) const {
  return Reply::Reject(engine.divergent_ && engine.choose_.Coin()
                           ? kinds::kInvalidRequest
                           : kinds::kCommitConflict,
                       std::move(message));
}

std::optional<Reply> CommitPlan::RowChangesRefusal() {
  // Which rows each operation carries (ARCHITECTURE.md conventions).
  const bool adds = !commit.add.empty(), removes = !commit.remove.empty(),
             modifies = !commit.modify.empty();
  switch (commit.operation) {
    case CommitOperation::kAppend:
      if (removes || modifies) return Invalid("an append only adds rows");
      break;
    case CommitOperation::kDelete:
      if (adds || modifies) return Invalid("a delete only removes rows");
      break;
    case CommitOperation::kReplace:
      if (adds || removes || modifies) return Invalid("a replace carries no rows");
      break;
    case CommitOperation::kOverwrite:
      break;
  }
  if (is_retry && CurrentSchemaOf(retry->base->meta).schema_id != schema.schema_id) {
    return Reply::Reject(kinds::kCommitConflict,
                         "the schema changed since the transaction began; retry it");
  }

  // The row changes, by key.
  for (const std::string& k : commit.remove) {
    if (live.count(k) == 0) {
      if (is_retry)
        return Reply::Reject(kinds::kCommitConflict,
                             fmt::format("row {} was removed concurrently", k));
      // not-live-removal-ignored: removing a row that is not there changes nothing.
      if (Has(Mutant::kNotLiveRemovalIgnored)) continue;
      return Invalid(fmt::format("row {} is not live", k));
    }
    if (!removed.insert(k).second)
      return Invalid(fmt::format("row {} is removed twice", k));
  }
  for (const Row& r : commit.modify) {
    if (live.count(r.key) == 0) {
      if (is_retry)
        return Conflict(fmt::format("row {} was removed concurrently", r.key));
      return Invalid(fmt::format("row {} is not live", r.key));
    }
    if (removed.count(r.key) != 0 || !modified.insert(r.key).second) {
      return Invalid(fmt::format("row {} is changed twice", r.key));
    }
  }
  for (const Row& r : commit.add) {
    if (live.count(r.key) != 0) {
      if (is_retry) return Conflict(fmt::format("row {} was added concurrently", r.key));
      return Invalid(fmt::format("row {} is live already; change it with modify", r.key));
    }
    if (!added.insert(r.key).second || modified.count(r.key) != 0) {
      return Invalid(fmt::format("row {} is added twice", r.key));
    }
  }
  return std::nullopt;
}

std::optional<Reply> CommitPlan::NewRowsRefusal() {
  // The new rows, complete under the current schema.
  for (const std::vector<Row>* list : {&commit.add, &commit.modify}) {
    for (const Row& r : *list) {
      Row row = r;
      if (row.values.kind != ValueKind::kStruct) row.values = Value::Struct({}, {});
      std::string p = CompleteStruct(row.values, fields, fmt::format("row {}: ", r.key));
      if (!p.empty()) return Invalid(p);
      new_rows.push_back(std::move(row));
    }
  }
  const size_t n_added = commit.add.size();

  next = std::make_shared<RowSet>(live);
  for (const std::string& k : removed) next->erase(k);
  for (size_t i = 0; i < new_rows.size(); ++i) {
    const Row& r = new_rows[i];
    const bool is_add = i < n_added;
    StoredRow stored{
        is_add ? first_row_id + static_cast<int64_t>(i) : live.at(r.key).row_id,
        schema_id, r.values};
    (*next)[r.key] = std::move(stored);
  }
  return std::nullopt;
}

const std::vector<Value>& CommitPlan::RemainingRows() {
  if (remaining_) return *remaining_;
  remaining_.emplace();
  if (Has(Mutant::kKeysOnlyAmongAdded)) return *remaining_;
  const bool against_base =
      is_retry &&
      (Has(Mutant::kRetryAgainstOriginalParent) ||
       (Has(Mutant::kRetryBlindToOtherTransactions) && retry->only_finishes_since_base));
  const Table& source = against_base ? *retry->base : parent;
  for (const auto& [key, row] : source.live()) {
    const bool gone = removed.count(key) != 0 || modified.count(key) != 0;
    if (gone && !Has(Mutant::kKeysBeforeRemovals)) continue;
    remaining_->push_back(ReadRow(source.meta, row, fields));
  }
  return *remaining_;
}

const std::vector<Value>& CommitPlan::EveryRow() {
  if (all_rows_) return *all_rows_;
  all_rows_.emplace();
  for (const auto& [key, row] : *next) all_rows_->push_back(ReadRow(pm, row, fields));
  return *all_rows_;
}

bool CommitPlan::Enforced(const Constraint& con) const {
  bool enforced = con.enforced.value_or(false);
  if (is_retry &&
      (Has(Mutant::kRetryMissesNewEnforced) || Has(Mutant::kRetryMissesEnforceChange))) {
    bool at_base = false;
    for (const Constraint& b :
         retry->base->meta.constraints.value_or(std::vector<Constraint>{})) {
      if (b.id != con.id) continue;
      at_base = true;
      if (Has(Mutant::kRetryMissesEnforceChange)) enforced = b.enforced.value_or(false);
    }
    if (!at_base && Has(Mutant::kRetryMissesNewEnforced)) enforced = false;
  }
  return enforced;
}

std::optional<Reply> CommitPlan::VerifyConstraints() {
  // The rows verified against the constraints: every added row and, since "a row whose
  // values changed in a commit counts as a removed row and an added row"
  // (enf.modified-row), every modified row.
  const size_t n_added = commit.add.size();
  std::vector<const Value*> checked;
  for (size_t i = 0; i < new_rows.size(); ++i) {
    if (i >= n_added && Has(Mutant::kModifiedNotRechecked)) continue;
    checked.push_back(&new_rows[i].values);
  }
  slots_ = IndexFields(fields);
  std::vector<ConstraintId> violating, unverifiable;
  for (const Constraint& con : constraints) {
    if (!con.id || !con.type) continue;
    const ConstraintId id = *con.id;
    const bool enforced = Enforced(con);
    const bool full = retry != nullptr && retry->full_check != nullptr &&
                      retry->full_check->count(id) != 0;
    std::vector<const Value*> rows = checked;
    if (full) {
      rows.clear();
      for (const Value& v : EveryRow()) rows.push_back(&v);
    }
    Verification v;
    v.all_checked = rows.size() == next->size() ||
                    (Has(Mutant::kValidatedAfterPartialCheck) && !rows.empty());
    // The mutant trusts a parent that was fine and skips verifying what is not enforced.
    const ConstraintStatus parent_status =
        ParentStatus(pm, id, ConstraintStatus::kUnvalidated);
    // So does validated-carried-over-adds, for a parent that was validated.
    const bool skip = !enforced && !full &&
                      ((Has(Mutant::kValidAfterUnverifiedAdds) &&
                        (parent_status == ConstraintStatus::kValidated ||
                         parent_status == ConstraintStatus::kValid)) ||
                       (Has(Mutant::kValidatedCarriedOverAdds) &&
                        parent_status == ConstraintStatus::kValidated));
    if (skip) v.all_checked = false;

    if (*con.type == ConstraintType::kCheck) {
      if (!con.expression) continue;
      VerifyCheck(con, rows, enforced, skip, v, unverifiable);
    } else if (!skip && con.field_ids) {
      VerifyKey(con, rows, full, v);
    }
    // "When a constraint is enforced, writers must ensure that written data conform to
    // the constraint" (enf.enforced); one that is not enforced never fails a commit
    // (enf.not-enforced). A validation records what it finds.
    if (v.violated && !full && (enforced || Has(Mutant::kUnenforcedRejects))) {
      violating.push_back(id);
    }
    found[id] = v;
  }
  return ViolationRefusal(violating, unverifiable);
}

void CommitPlan::VerifyCheck(const Constraint& con, const std::vector<const Value*>& rows,
                             bool enforced, bool skip, Verification& v,
                             std::vector<ConstraintId>& unverifiable) const {
  const ConstraintId id = *con.id;
  CompiledCheck check(*con.expression, fields, engine.udfs_, engine.CheckOpts());
  const CheckInfo& info = check.info();
  v.calls_udf = info.calls_udf;
  v.evaluable = check.evaluable() || (Has(Mutant::kNondeterministicUdfAccepted) &&
                                      info.error.empty() && info.undefined_udfs.empty());
  if (!v.evaluable) {
    v.all_checked = false;
    if (enforced && !rows.empty()) unverifiable.push_back(id);
  } else if (!skip) {
    for (const Value* row : rows) {
      std::optional<bool> holds = check.Holds(*row);
      if (!holds) {
        v.evaluable = false;
        if (enforced) unverifiable.push_back(id);
        break;
      }
      if (!*holds) {
        v.violated = true;
        break;
      }
    }
  }
}

void CommitPlan::VerifyKey(const Constraint& con, const std::vector<const Value*>& rows,
                           bool full, Verification& v) {
  KeyReader reader;
  reader.primary_key = *con.type == ConstraintType::kPrimaryKey;
  reader.compare_nulls = Has(Mutant::kUniqueComparesNulls);
  for (FieldId f : *con.field_ids) {
    auto it = slots_.find(f);
    reader.paths.push_back(it == slots_.end() || it->second.in_repeated
                               ? std::vector<FieldId>{}
                               : it->second.path);
  }
  if (Has(reader.primary_key ? Mutant::kPkFirstFieldOnly
                             : Mutant::kUniqueFirstFieldOnly) &&
      reader.paths.size() > 1)
    reader.paths.resize(1);
  // "a writer must verify that added rows have distinct keys among themselves and do
  // not conflict with rows remaining from the new parent after applying the commit's
  // removals" (enf.keys-against-remaining, enf.retry-keys-new-parent).
  KeySet keys;
  for (const Value* row : rows) {
    bool null_pk = false;
    auto key = reader.Of(*row, null_pk);
    if (null_pk) v.violated = true;
    if (key && !keys.insert(std::move(*key)).second &&
        !Has(Mutant::kAddedKeysNotCompared))
      v.violated = true;
    if (v.violated) break;
  }
  if (!v.violated && !keys.empty() && !full) {
    for (const Value& row : RemainingRows()) {
      bool null_pk = false;
      auto key = reader.Of(row, null_pk);
      if (key && keys.count(*key) != 0) {
        v.violated = true;
        break;
      }
    }
  }
}

std::optional<Reply> CommitPlan::ViolationRefusal(
    const std::vector<ConstraintId>& violating,
    const std::vector<ConstraintId>& unverifiable) const {
  if (!violating.empty()) {
    std::string names;
    for (ConstraintId id : violating) {
      for (const Constraint& con : constraints) {
        if (con.id == id)
          names +=
              fmt::format("{}'{}'", names.empty() ? "" : ", ", con.name.value_or(""));
      }
    }
    return Reply::Reject(kinds::kConstraintViolation,
                         fmt::format("rows break [{}] (enf.enforced)", names),
                         engine.NameSome(violating));
  }
  if (!unverifiable.empty()) {
    return Reply::Reject(
        kinds::kUnverifiable,
        "an enforced check cannot be evaluated (a UDF is undefined or not "
        "deterministic)",
        engine.NameSome(unverifiable));
  }
  return std::nullopt;
}

void CommitPlan::WriteSnapshot(int64_t now, SnapshotId snapshot_id,
                               const ConstraintStatuses& statuses, Table& out) {
  out = parent;
  TableMetadata& md = out.meta;
  Snapshot snap;
  snap.snapshot_id = snapshot_id;
  snap.parent_snapshot_id = pm.current_snapshot_id;
  if (md.format_version >= 2)
    snap.sequence_number = pm.last_sequence_number.value_or(0) + 1;
  int64_t ts = now;
  // snapshot-timestamp-from-table-clock: counts on from the table's last-updated-ms
  // instead of taking the request's now-ms.
  if (Has(Mutant::kSnapshotTimestampFromTableClock)) ts = pm.last_updated_ms + 1;
  const Snapshot* new_parent = pm.CurrentSnapshot();
  if (retry != nullptr && retry->staged_now_ms && new_parent != nullptr &&
      *retry->staged_now_ms <= new_parent->timestamp_ms &&
      Has(Mutant::kSnapshotTimestampNotIncreasing)) {
    // snapshot-timestamp-not-increasing: a retry onto a parent snapshot written after the
    // staged commit keeps the staged commit's clock, below its new parent's.
    ts = *retry->staged_now_ms;
  } else if (const Snapshot* ps = pm.CurrentSnapshot(); ps && md.format_version >= 4) {
    // ice.v4-snapshot-timestamps: strictly after the parent's.
    ts = std::max(ts, ps->timestamp_ms + 1);
  }
  snap.timestamp_ms = ts;
  const CommitOperation op = retry != nullptr && retry->full_check != nullptr
                                 ? CommitOperation::kReplace
                                 : commit.operation;
  snap.summary["operation"] = std::string(OperationText(op));
  snap.summary["added-records"] = std::to_string(new_rows.size());
  snap.summary["deleted-records"] = std::to_string(removed.size() + modified.size());
  snap.summary["total-records"] = std::to_string(next->size());
  snap.schema_id = schema_id;
  const std::string manifest =
      fmt::format("{}/metadata/snap-{}.avro",
                  md.location.value_or("memory://ictk-sample"), snapshot_id);
  if (md.format_version >= 4) {
    snap.extra["root-manifest"] = "\"" + manifest + "\"";
  } else {
    snap.manifest_list = manifest;
  }
  if (md.format_version >= 3) {
    snap.first_row_id = first_row_id;
    snap.added_rows = static_cast<int64_t>(new_rows.size());
    md.next_row_id = first_row_id + static_cast<int64_t>(new_rows.size());
  }
  // "Writers must record constraint-statuses in every snapshot" (st.every-snapshot); the
  // mutant leaves them out of the snapshot of a commit that adds no rows.
  if (md.format_version >= 4 &&
      !(Has(Mutant::kStatusesOmittedWithoutAdds) && !adds_rows()))
    snap.constraint_statuses = statuses;
  AddSnapshot(md, std::move(snap));
  out.rows_at[snapshot_id] = std::move(next);
}

}  // namespace ictk::sample
