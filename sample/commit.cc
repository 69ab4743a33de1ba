/// \file
/// The sample's write path: a commit is planned against a parent snapshot (its row
/// changes applied, the added and modified rows verified against every constraint,
/// statuses derived from the parent's), and becomes a new snapshot. A transaction stages
/// its commit on the base it pinned and, at `finish`, runs it again against whatever is
/// current: the retry of enf.retry-* (the operations are in commit_ops.cc).
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
    std::optional<Reply> second =
        RunCommit(parent, part, now, snapshot_id, nullptr, scratch, scratch_statuses, true);
    if (second && (second->error_kind == kinds::kConstraintViolation ||
                   second->error_kind == kinds::kUnverifiable) &&
        choose_.Coin())
      return second;
    return whole;
  }
  const TableMetadata& pm = parent.meta;
  const Schema& schema = CurrentSchemaOf(pm);
  const std::vector<NestedField>& fields = schema.fields;
  const bool is_retry = retry != nullptr && retry->base != nullptr &&
                        retry->base->version != parent.version;
  auto invalid = [](std::string m) {
    return Reply::Reject(kinds::kInvalidRequest, std::move(m));
  };

  // Which rows each operation carries (ARCHITECTURE.md conventions).
  const bool adds = !c.add.empty(), removes = !c.remove.empty(),
             modifies = !c.modify.empty();
  switch (c.operation) {
    case CommitOperation::kAppend:
      if (removes || modifies) return invalid("an append only adds rows");
      break;
    case CommitOperation::kDelete:
      if (adds || modifies) return invalid("a delete only removes rows");
      break;
    case CommitOperation::kReplace:
      if (adds || removes || modifies) return invalid("a replace carries no rows");
      break;
    case CommitOperation::kOverwrite:
      break;
  }
  if (is_retry && CurrentSchemaOf(retry->base->meta).schema_id != schema.schema_id) {
    return Reply::Reject(kinds::kCommitConflict,
                         "the schema changed since the transaction began; retry it");
  }

  // The row changes, by key.
  const RowSet& live = parent.live();
  std::set<std::string> removed, modified, added;
  for (const std::string& k : c.remove) {
    if (live.count(k) == 0) {
      if (is_retry)
        return Reply::Reject(kinds::kCommitConflict,
                             fmt::format("row {} was removed concurrently", k));
      // not-live-removal-ignored: removing a row that is not there changes nothing.
      if (Has(Mutant::kNotLiveRemovalIgnored)) continue;
      return invalid(fmt::format("row {} is not live", k));
    }
    if (!removed.insert(k).second)
      return invalid(fmt::format("row {} is removed twice", k));
  }
  // A retry whose rows no longer fit the new parent: commit-conflict, or (a request that
  // has become malformed) invalid-request; the divergent style takes either.
  auto conflict = [this](std::string m) {
    return Reply::Reject(divergent_ && choose_.Coin() ? kinds::kInvalidRequest
                                                      : kinds::kCommitConflict,
                         std::move(m));
  };
  for (const Row& r : c.modify) {
    if (live.count(r.key) == 0) {
      if (is_retry) return conflict(fmt::format("row {} was removed concurrently", r.key));
      return invalid(fmt::format("row {} is not live", r.key));
    }
    if (removed.count(r.key) != 0 || !modified.insert(r.key).second) {
      return invalid(fmt::format("row {} is changed twice", r.key));
    }
  }
  for (const Row& r : c.add) {
    if (live.count(r.key) != 0) {
      if (is_retry) return conflict(fmt::format("row {} was added concurrently", r.key));
      return invalid(fmt::format("row {} is live already; change it with modify", r.key));
    }
    if (!added.insert(r.key).second || modified.count(r.key) != 0) {
      return invalid(fmt::format("row {} is added twice", r.key));
    }
  }

  // The new rows, complete under the current schema.
  std::vector<Row> new_rows;  // added then modified
  for (const std::vector<Row>* list : {&c.add, &c.modify}) {
    for (const Row& r : *list) {
      Row row = r;
      if (row.values.kind != ValueKind::kStruct) row.values = Value::Struct({}, {});
      std::string p = CompleteStruct(row.values, fields, fmt::format("row {}: ", r.key));
      if (!p.empty()) return invalid(p);
      new_rows.push_back(std::move(row));
    }
  }
  const size_t n_added = c.add.size();

  auto next = std::make_shared<RowSet>(live);
  for (const std::string& k : removed) next->erase(k);
  const int32_t schema_id = schema.schema_id.value_or(0);
  const int64_t first_row_id = pm.next_row_id.value_or(0);
  for (size_t i = 0; i < new_rows.size(); ++i) {
    const Row& r = new_rows[i];
    const bool is_add = i < n_added;
    StoredRow stored{
        is_add ? first_row_id + static_cast<int64_t>(i) : live.at(r.key).row_id,
        schema_id, r.values};
    (*next)[r.key] = std::move(stored);
  }

  // The rows verified against the constraints: every added row and, since "a row whose
  // values changed in a commit counts as a removed row and an added row"
  // (enf.modified-row), every modified row.
  std::vector<const Value*> checked;
  for (size_t i = 0; i < new_rows.size(); ++i) {
    if (i >= n_added && Has(Mutant::kModifiedNotRechecked)) continue;
    checked.push_back(&new_rows[i].values);
  }
  // The rows remaining from the parent after the commit's removals, read under the
  // current schema (enf.keys-against-remaining), computed when a key constraint needs
  // them.
  std::optional<std::vector<Value>> remaining;
  auto remaining_rows = [&]() -> const std::vector<Value>& {
    if (remaining) return *remaining;
    remaining.emplace();
    if (Has(Mutant::kKeysOnlyAmongAdded)) return *remaining;
    const Table& source =
        is_retry && Has(Mutant::kRetryAgainstOriginalParent) ? *retry->base : parent;
    for (const auto& [key, row] : source.live()) {
      const bool gone = removed.count(key) != 0 || modified.count(key) != 0;
      if (gone && !Has(Mutant::kKeysBeforeRemovals)) continue;
      remaining->push_back(ReadRow(source.meta, row, fields));
    }
    return *remaining;
  };
  // For `validate`: every live row.
  std::optional<std::vector<Value>> all_rows;
  auto every_row = [&]() -> const std::vector<Value>& {
    if (all_rows) return *all_rows;
    all_rows.emplace();
    for (const auto& [key, row] : *next) all_rows->push_back(ReadRow(pm, row, fields));
    return *all_rows;
  };

  const std::vector<Constraint> constraints =
      pm.constraints.value_or(std::vector<Constraint>{});
  const auto slots = IndexFields(fields);
  std::vector<ConstraintId> violating, unverifiable;
  std::map<ConstraintId, Verification> found;
  for (const Constraint& con : constraints) {
    if (!con.id || !con.type) continue;
    const ConstraintId id = *con.id;
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
    const bool full = retry != nullptr && retry->full_check != nullptr &&
                      retry->full_check->count(id) != 0;
    std::vector<const Value*> rows = checked;
    if (full) {
      rows.clear();
      for (const Value& v : every_row()) rows.push_back(&v);
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
      CompiledCheck check(*con.expression, fields, udfs_, CheckOpts());
      const CheckInfo& info = check.info();
      v.calls_udf = info.calls_udf;
      v.evaluable =
          check.evaluable() || (Has(Mutant::kNondeterministicUdfAccepted) &&
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
    } else if (!skip && con.field_ids) {
      KeyReader reader;
      reader.primary_key = *con.type == ConstraintType::kPrimaryKey;
      reader.compare_nulls = Has(Mutant::kUniqueComparesNulls);
      for (FieldId f : *con.field_ids) {
        auto it = slots.find(f);
        reader.paths.push_back(it == slots.end() || it->second.in_repeated
                                   ? std::vector<FieldId>{}
                                   : it->second.path);
      }
      if (Has(reader.primary_key ? Mutant::kPkFirstFieldOnly : Mutant::kUniqueFirstFieldOnly) &&
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
        for (const Value& row : remaining_rows()) {
          bool null_pk = false;
          auto key = reader.Of(row, null_pk);
          if (key && keys.count(*key) != 0) {
            v.violated = true;
            break;
          }
        }
      }
    }
    // "When a constraint is enforced, writers must ensure that written data conform to
    // the constraint" (enf.enforced); one that is not enforced never fails a commit
    // (enf.not-enforced). A validation records what it finds.
    if (v.violated && !full && (enforced || Has(Mutant::kUnenforcedRejects))) {
      violating.push_back(id);
    }
    found[id] = v;
  }
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
                         NameSome(violating));
  }
  if (!unverifiable.empty()) {
    return Reply::Reject(
        kinds::kUnverifiable,
        "an enforced check cannot be evaluated (a UDF is undefined or not "
        "deterministic)",
        NameSome(unverifiable));
  }

  // The statuses, from the parent's (st.*).
  const bool adds_rows = !new_rows.empty();
  const bool removes_rows = !removed.empty() || !modified.empty();
  statuses = ConstraintStatuses{};
  if (is_retry && Has(Mutant::kStatusesNotRecomputedOnRetry) && retry->staged_statuses) {
    statuses = *retry->staged_statuses;
  } else if (divergent_ && Has(Mutant::kNone)) {
    // The divergent style checks every live row of the new snapshot and records a status
    // picked at random from the ones the truth allows (docs/rules.md, "Judging a reported
    // status"): `unvalidated` always; `validated` when the constraint holds on every row
    // (it checked them all); `valid` when it holds, the parent records `validated` or
    // `valid`, and it is not a check that calls a UDF (expr.udf-status); `invalid` when a
    // row breaks it. A constraint that cannot be evaluated on some row is `unvalidated`.
    std::map<ConstraintStatus, std::vector<ConstraintId>> lists;
    const std::vector<Value>& all = every_row();
    for (const Constraint& con : constraints) {
      if (!con.id || found.count(*con.id) == 0) continue;
      const Truth truth = TruthOf(con, fields, all);
      const ConstraintStatus p = ParentStatus(pm, *con.id, ConstraintStatus::kUnvalidated);
      std::vector<ConstraintStatus> allowed = {ConstraintStatus::kUnvalidated};
      if (truth.evaluable && truth.violated) {
        allowed.push_back(ConstraintStatus::kInvalid);
      } else if (truth.holds()) {
        allowed.push_back(ConstraintStatus::kValidated);
        if ((p == ConstraintStatus::kValidated || p == ConstraintStatus::kValid) &&
            !found[*con.id].calls_udf) {
          allowed.push_back(ConstraintStatus::kValid);
        }
      }
      lists[allowed[choose_.Below(allowed.size())]].push_back(*con.id);
    }
    for (ConstraintStatus s : kAllStatuses) {
      std::vector<ConstraintId>& ids = lists[s];
      choose_.Shuffle(ids);
      // An empty list may be written or left out.
      if (!ids.empty() || choose_.Coin()) statuses.List(s) = ids;
    }
  } else {
    std::map<ConstraintStatus, std::vector<ConstraintId>> lists;
    for (const Constraint& con : constraints) {
      if (!con.id || found.count(*con.id) == 0) continue;
      const Verification& v = found[*con.id];
      const ConstraintStatus p = ParentStatus(pm, *con.id,
                                              Has(Mutant::kUnlistedParentValidated)
                                                  ? ConstraintStatus::kValidated
                                                  : ConstraintStatus::kUnvalidated);
      const bool carry_invalid = !removes_rows || Has(Mutant::kInvalidKeptAfterDelete);
      ConstraintStatus s = ConstraintStatus::kUnvalidated;
      if (!v.evaluable) {
        s = ConstraintStatus::kUnvalidated;
      } else if (v.calls_udf && !(adds_rows && Has(Mutant::kUdfCheckKeepsValid)) &&
                 !(!adds_rows && Has(Mutant::kUdfCheckCarriesStatus))) {
        // "a writer must not record valid for such a constraint or keep the parent
        // snapshot's status for it; the constraint is validated only if it was checked
        // for every row in the snapshot" (expr.udf-status).
        s = v.violated      ? ConstraintStatus::kInvalid
            : v.all_checked ? ConstraintStatus::kValidated
                            : ConstraintStatus::kUnvalidated;
      } else if (v.violated) {
        // "At least one row in the snapshot is known to violate the constraint"
        // (st.invalid).
        s = ConstraintStatus::kInvalid;
      } else if (v.all_checked) {
        // "The constraint was checked and holds for all rows in the snapshot"
        // (st.validated).
        s = ConstraintStatus::kValidated;
      } else if (!adds_rows) {
        // "A commit that does not add rows cannot introduce a violation ... may carry
        // over the parent snapshot's validated or valid status" (st.no-add-carry);
        // invalid when "the parent snapshot's status is invalid and the commit did not
        // remove any rows".
        if (p == ConstraintStatus::kValidated || p == ConstraintStatus::kValid) {
          s = p;
        } else if (p == ConstraintStatus::kInvalid && carry_invalid) {
          s = ConstraintStatus::kInvalid;
        }
      } else {
        // "The parent snapshot's status is validated or valid, and ... the writer can
        // prove that the rows it added follow the constraint" (st.valid).
        if (p == ConstraintStatus::kValidated && Has(Mutant::kValidatedCarriedOverAdds)) {
          s = ConstraintStatus::kValidated;  // "the commit did not add rows" ignored
        } else if (p == ConstraintStatus::kValidated || p == ConstraintStatus::kValid) {
          s = ConstraintStatus::kValid;
        } else if (p == ConstraintStatus::kInvalid && carry_invalid) {
          s = ConstraintStatus::kInvalid;
        }
      }
      // invalid only "because the constraint was checked" and a row breaks it
      // (st.invalid); the mutant records invalid for what it could not verify.
      if (s == ConstraintStatus::kUnvalidated && v.evaluable && !v.violated && adds_rows &&
          Has(Mutant::kUncheckedRecordedInvalid)) {
        s = ConstraintStatus::kInvalid;
      }
      if (s == ConstraintStatus::kUnvalidated &&
          Has(Mutant::kStatusListMissingConstraint)) {
        continue;
      }
      lists[s].push_back(*con.id);
    }
    if (Has(Mutant::kIdInTwoLists)) {
      for (ConstraintId id : lists[ConstraintStatus::kInvalid])
        lists[ConstraintStatus::kUnvalidated].push_back(id);
    }
    if (Has(Mutant::kStaleIdListed)) {
      if (const Snapshot* ps = pm.CurrentSnapshot(); ps && ps->constraint_statuses) {
        for (ConstraintStatus s : kAllStatuses) {
          for (ConstraintId id :
               ps->constraint_statuses->List(s).value_or(std::vector<ConstraintId>{})) {
            if (found.count(id) == 0) lists[s].push_back(id);
          }
        }
      }
    }
    for (auto& [s, ids] : lists) {
      std::sort(ids.begin(), ids.end());
      if (!ids.empty()) statuses.List(s) = ids;
    }
  }

  // The new snapshot.
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
                                 : c.operation;
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
  if (md.format_version >= 4 && !(Has(Mutant::kStatusesOmittedWithoutAdds) && !adds_rows))
    snap.constraint_statuses = statuses;
  AddSnapshot(md, std::move(snap));
  out.rows_at[snapshot_id] = std::move(next);
  return std::nullopt;
}

}  // namespace ictk::sample
