/// \file
/// Commits, staged commits, finish (with its retry against the new parent) and validate:
/// the enforcement rules (enf.*), what "holds" means (sem.*), and the allowed statuses of
/// the snapshot each creates. A commit is evaluated in time proportional to the rows it
/// touches: key constraints through their count index (key_index.h), checks through their
/// violation tally (table_state.h).
///
/// This file: the enforcement rules, the statuses, the commit's whole outcome and the
/// requests; the rows a commit touches are in commit_rows.cc, what they do to each
/// constraint in commit_effects.cc (commit_internal.h).
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

// --- the enforcement rules ------------------------------------------------------------

/// An enforced check that the writer cannot evaluate on a row it writes cannot be ensured
/// (unverifiable-constraint); one whose UDF is no longer deterministic "must not be
/// called" (expr.deterministic), so such a commit may be rejected too.
void UnverifiableRule(const ConstraintEffect& e, const CommitContext& ctx,
                      bool writes_rows, OutcomeBuilder& b) {
  if (!e.enforced) return;
  const bool must = e.unverifiable_added ||
                    (e.unverifiable_modified && ctx.switches.modified_counts_as_added);
  if (must || e.unverifiable_modified) {
    Finding f =
        MakeFinding(RuleId::kEnfEnforced,
                    fmt::format("enforced check {} cannot be evaluated on the written "
                                "rows",
                                e.name),
                    e.id);
    if (must) {
      b.MustReject(RejectKind::kUnverifiableConstraint, std::move(f));
    } else {
      b.MayReject(RejectKind::kUnverifiableConstraint, std::move(f));
    }
  }
  if (e.nondeterministic && writes_rows) {
    b.MayReject(
        RejectKind::kUnverifiableConstraint,
        MakeFinding(RuleId::kExprDeterministic,
                    fmt::format("enforced check {} calls a UDF that is not deterministic",
                                e.name),
                    e.id));
  }
}

// --- statuses -------------------------------------------------------------------------



StatusExpectation ExpectStatus(const ConstraintEffect& e, const Snapshot* parent,
                               const StatusInputs& in, const CommitContext& ctx) {
  const StatusContext sc =
      RecomputedStatusContext(e, RecordedStatus(parent, e.id), in, ctx);
  const StatusJudgement judged = JudgeStatus(sc, ctx.switches);
  StatusExpectation s;
  s.name = e.name;
  s.id = e.id;
  s.context = sc;
  s.facts.holds = sc.holds_on_new_snapshot;
  s.facts.violated = e.violated_after;
  s.facts.parent = sc.parent_status;
  s.facts.added_rows = sc.commit_added_rows;
  s.facts.removed_rows = sc.commit_removed_rows;
  s.facts.calls_udf = sc.calls_udf;
  s.facts.full_validation = sc.full_validation;
  s.facts.added_rows_violate = sc.writer_found_violation;
  s.allowed = ToStatusSet(judged.allowed);
  s.precise = judged.precise;
  for (ConstraintStatus p : kAllStatuses) {
    StatusContext g = sc;
    g.parent_status = p;
    s.by_parent[p] = ToStatusSet(AllowedStatuses(g, ctx.switches));
  }
  // `valid` kept whenever truth allows it; a fixture states the parent condition.
  s.by_truth = s.allowed;
  if (s.by_parent[ConstraintStatus::kValidated].Contains(ConstraintStatus::kValid))
    s.by_truth.Add(ConstraintStatus::kValid);
  // "must recompute constraint-statuses from the new parent"
  // (enf.retry-recompute-statuses)
  if (ctx.retry) {
    s.also_rule = RuleId::kEnfRetryRecomputeStatuses;
  } else if (sc.parent_status == ConstraintStatus::kInvalid &&
             !UdfStatusPermits(sc, ConstraintStatus::kInvalid, /*as_carry=*/true,
                               ctx.switches)) {
    // A UDF check's parent `invalid` kept, where it no longer holds: "a writer must not
    // ... keep the parent snapshot's status for it" (expr.udf-status; Judge names it only
    // for a status equal to the parent's).
    s.also_rule = RuleId::kExprUdfStatus;
  } else if (e.broken_by_modified && ctx.switches.modified_counts_as_added) {
    // A status that claims the constraint holds although a modified row breaks it: the
    // writer did not check that row as an added one (enf.modified-row).
    s.also_rule = RuleId::kEnfModifiedRow;
  } else if (e.broken_by_added && e.constraint != nullptr &&
             (e.constraint->type == ConstraintType::kUnique ||
              e.constraint->type == ConstraintType::kPrimaryKey)) {
    // ... although an added row's key collides with another added or a remaining row:
    // the writer did not verify the added keys as enf.keys-against-remaining requires.
    s.also_rule = RuleId::kEnfKeysAgainstRemaining;
  }
  return s;
}

SnapshotExpectation ExpectSnapshot(const TableState& parent, const std::string& operation,
                                   const std::vector<ConstraintEffect>& effects,
                                   const StatusInputs& in, const CommitContext& ctx,
                                   int64_t live_after) {
  SnapshotExpectation se;
  const Snapshot* cur = parent.metadata.CurrentSnapshot();
  if (cur != nullptr) {
    se.parent_snapshot_id = cur->snapshot_id;
    se.parent_timestamp_ms = cur->timestamp_ms;
  }
  se.operation = operation;
  se.retry = ctx.retry;
  se.live_row_count = live_after;
  // "Writers must record constraint-statuses in every snapshot of a table that has
  // constraints" (st.every-snapshot)
  se.statuses_required =
      parent.metadata.format_version >= 4 && !ConstraintsOf(parent.metadata).empty();
  for (const ConstraintEffect& e : effects)
    if (AppliesToNewSnapshot(*e.constraint))
      se.statuses.push_back(ExpectStatus(e, cur, in, ctx));
  return se;
}

/// The whole outcome of applying `commit` on `parent`.
AllowedOutcome CommitOutcome(const TableState& parent, const Commit& commit,
                             const FunctionCatalog& functions, const CommitContext& ctx,
                             const LiveRows* original_rows = nullptr) {
  PreparedCommit p = PrepareCommit(parent, commit, ctx.retry);
  OutcomeBuilder b;
  // A malformed request must be rejected with invalid-request; its well-formed rows are
  // still judged below, so that a commit that also breaks an enforced constraint allows
  // constraint-violation (or unverifiable-constraint) as well: "Where a request has two
  // causes, either kind is accepted" (docs/protocol.md section 8).
  for (const Finding& f : p.invalid) b.MustReject(RejectKind::kInvalidRequest, f);
  for (const Finding& f : p.conflicts) {
    b.MustReject(RejectKind::kCommitConflict, f);
    b.MayReject(RejectKind::kInvalidRequest, f);
  }
  // "A retry whose removed or modified row was deleted concurrently may answer
  // commit-conflict"; accepted, the removal of a row that is gone changes nothing.
  for (const Finding& f : p.vanished) b.MayReject(RejectKind::kCommitConflict, f);

  const std::vector<ConstraintEffect> effects =
      EvaluateConstraints(parent, p.changes, functions, ctx.switches.knock_out,
                          original_rows);
  const bool writes_rows = p.adds > 0 || p.modifies > 0;
  for (const ConstraintEffect& e : effects) {
    b.Add(RejectKind::kConstraintViolation, EnforcedRule(e, ctx));
    b.Add(RejectKind::kConstraintViolation, ModifiedRowRule(e, ctx));
    b.Add(RejectKind::kConstraintViolation, NotEnforcedRule(e, ctx));
    UnverifiableRule(e, ctx, writes_rows, b);
  }
  if (!p.invalid.empty()) return std::move(b).Build();
  // The legal single values at a type extreme or in an unusual spelling (ice.single-value).
  if (const Schema* schema = parent.metadata.CurrentSchema()) {
    for (const std::vector<Row>* rows : {&commit.add, &commit.modify})
      for (const Row& row : *rows)
        for (std::string& why : UnusualSingleValues(row.values, schema->fields))
          b.outcome().unusual_values.push_back(
              fmt::format("row {} {}", row.key, std::move(why)));
  }

  StatusInputs in;
  in.added_rows = p.adds > 0 ||
                  (p.modifies > 0 && ctx.switches.modified_counts_as_added) ||
                  (commit.operation == CommitOperation::kReplace &&
                   ctx.switches.compaction_counts_as_added);
  in.removed_rows = p.removes > 0 || p.modifies > 0;
  const int64_t remaining_old = static_cast<int64_t>(parent.rows.size()) -
                                static_cast<int64_t>(p.removes + p.modifies);
  in.no_remaining_old_rows = remaining_old <= 0;
  const int64_t live_after =
      static_cast<int64_t>(parent.rows.size() + p.adds - p.removes);

  MetadataExpectation exp = BaseExpectation(parent, ctx.switches);
  exp.new_snapshot = ExpectSnapshot(parent, std::string(ToString(commit.operation)),
                                    effects, in, ctx, live_after);
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

/// Whether the table moved on since `begin`: "A retry happens whenever anything was
/// committed to the table between begin and finish".
bool IsRetry(const TableState& table, const Transaction& txn) {
  return table.versions.any != txn.base_versions.any;
}

/// Applies an accepted commit to the model's rows, indexes and tallies and records the
/// snapshot's row changes; `answered` becomes the metadata.
Findings CommitToTable(TableState& table, const Commit& commit,
                       const TableMetadata& answered, bool retry,
                       const FunctionCatalog& functions) {
  PreparedCommit p = PrepareCommit(table, commit, retry);
  Findings problems = p.invalid;
  problems.insert(problems.end(), p.conflicts.begin(), p.conflicts.end());
  if (!problems.empty()) {
    for (Finding& f : problems) {
      f.rule = RuleId::kProtoAnswer;
      f.detail = "an accepted commit cannot be applied: " + f.detail;
    }
    return problems;
  }
  const Snapshot* snap = answered.CurrentSnapshot();
  const Snapshot* old = table.metadata.CurrentSnapshot();
  if (snap == nullptr || (old != nullptr && snap->snapshot_id == old->snapshot_id)) {
    return {MakeFinding(RuleId::kProtoAnswer, "an accepted commit created no snapshot")};
  }
  const Schema* schema = table.metadata.CurrentSchema();
  static const std::vector<NestedField> kNoFields;
  const std::vector<NestedField>& fields = schema ? schema->fields : kNoFields;
  SnapshotDelta delta;
  delta.snapshot_id = snap->snapshot_id;
  // Each check as its tally bound it (BoundCheckOf), bound here only for a schema whose
  // fields differ from those it was counted on.
  std::map<ConstraintId, std::optional<CompiledCheck>> scratch;
  std::map<ConstraintId, const CompiledCheck*> compiled;
  if (!p.changes.empty())
    for (const auto& [id, tally] : table.check_tallies)
      if (tally.expression)
        compiled.emplace(id, &BoundCheckOf(tally, fields, functions, scratch[id]));
  for (RowChange& c : p.changes) {
    std::optional<Value> before;
    if (c.before != nullptr) before = *c.before;
    for (auto& [id, index] : table.key_indexes) {
      if (before) index.Erase(*before);
      if (c.after) index.Insert(*c.after);
    }
    for (auto& [id, tally] : table.check_tallies) {
      if (!tally.expression) continue;
      const CompiledCheck& check = *compiled.at(id);
      if (before) {
        std::optional<bool> r = check.Evaluate(*before);
        if (!r) {
          --tally.unevaluable;
        } else if (!*r) {
          --tally.violating;
        }
      }
      if (c.after) {
        std::optional<bool> r = check.Evaluate(*c.after);
        if (!r) {
          ++tally.unevaluable;
        } else if (!*r) {
          ++tally.violating;
        }
      }
    }
    if (c.after) {
      table.rows[c.key] = std::move(*c.after);
    } else {
      table.rows.erase(c.key);
    }
    if (before) {
      delta.replaced.emplace_back(std::move(c.key), std::move(*before));
    } else {
      delta.added.push_back(std::move(c.key));
    }
  }
  table.history.push_back(std::move(delta));
  table.metadata = answered;
  for (const Constraint& c : ConstraintsOf(answered))
    if (c.id) table.seen_constraint_ids.insert(*c.id);
  ++table.versions.any;
  ++table.versions.rows;
  SyncDerived(table, functions);
  return {};
}

}  // namespace

AllowedOutcome ApplyCommit(const CatalogState& state, const Request& request,
                           const Commit& op, const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  CommitContext ctx{switches};
  if (!op.txn) return CommitOutcome(*table, op, state.functions, ctx);
  auto it = table->transactions.find(*op.txn);
  if (it == table->transactions.end())
    return InvalidRequest(fmt::format("no open transaction '{}'", *op.txn));
  if (it->second.staged)
    return InvalidRequest(
        fmt::format("transaction '{}' already holds a commit", *op.txn));
  // "one later commit naming txn is checked against that base and staged"
  if (!IsRetry(*table, it->second))
    return CommitOutcome(*table, op, state.functions, ctx);
  const TableState base = StateAtBase(*table, it->second.base, state.functions);
  return CommitOutcome(base, op, state.functions, ctx);
}

AllowedOutcome ApplyFinish(const CatalogState& state, const Request& request,
                           const Finish& op, const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  auto it = table->transactions.find(op.txn);
  if (it == table->transactions.end())
    return InvalidRequest(fmt::format("no open transaction '{}'", op.txn));
  const Transaction& txn = it->second;
  if (!txn.staged)
    return InvalidRequest(fmt::format("finish of '{}' without a staged commit", op.txn));
  CommitContext ctx{switches};
  ctx.retry = IsRetry(*table, txn);
  ctx.base = &txn.base;
  // Judged without enf.retry-keys-new-parent (knockout.h), the added keys are verified
  // against the original parent's rows.
  std::optional<TableState> original;
  if (ctx.retry && switches.knock_out == KnockOut::kEnfRetryKeysNewParent)
    original = StateAtBase(*table, txn.base, state.functions);
  AllowedOutcome outcome = CommitOutcome(*table, *txn.staged, state.functions, ctx,
                                         original ? &original->rows : nullptr);
  if (!ctx.retry) return outcome;
  // Judged without enf.retry-recompute-statuses (knockout.h), the new snapshot's statuses
  // are those the commit would have had on the original parent.
  if (switches.knock_out == KnockOut::kEnfRetryRecomputeStatuses && outcome.metadata &&
      outcome.metadata->new_snapshot) {
    const TableState base = StateAtBase(*table, txn.base, state.functions);
    const AllowedOutcome at_base =
        CommitOutcome(base, *txn.staged, state.functions, CommitContext{switches});
    // A constraint the original parent did not have keeps its expectation if listed, and
    // may be left out: statuses computed from that parent do not know it.
    if (at_base.metadata && at_base.metadata->new_snapshot) {
      for (StatusExpectation& e : outcome.metadata->new_snapshot->statuses) {
        e.may_be_unlisted = true;
        for (const StatusExpectation& b : at_base.metadata->new_snapshot->statuses)
          if (b.id && b.id == e.id) e = b;
      }
      outcome.metadata->new_snapshot->retry = false;
    }
  }
  // "A retry that still satisfies every enforced constraint must succeed when only rows
  // changed concurrently; commit-conflict is also allowed when the concurrent commit
  // changed the schema or the constraints."
  const bool metadata_moved =
      table->versions.schema != txn.base_versions.schema ||
      table->versions.constraints != txn.base_versions.constraints;
  if (metadata_moved) {
    outcome.reject_allowed = true;
    outcome.reject_kinds.insert(RejectKind::kCommitConflict);
    outcome.decided_by.push_back(MakeFinding(
        RuleId::kEnfRetryEnforced,
        "the schema or the constraints changed concurrently: the writer may give "
        "up with commit-conflict"));
  } else if (!outcome.must_reject()) {
    outcome.decided_by.push_back(MakeFinding(
        RuleId::kEnfRetryEnforced,
        "only rows changed concurrently and the retry satisfies every enforced "
        "constraint on the new parent"));
  }
  return outcome;
}

AllowedOutcome ApplyValidate(const CatalogState& state, const Request& request,
                             const Validate& op, const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  const bool insensitive = switches.name_case == NameCase::kInsensitive;
  std::set<ConstraintId> named;
  for (const std::string& name : op.names) {
    const Constraint* c = FindConstraintByName(table->metadata, name, insensitive);
    if (c == nullptr || !c->id) {
      OutcomeBuilder b;
      b.MustReject(RejectKind::kInvalidRequest,
                   MakeFinding(clauses::kProtoRequestUnknownConstraint,
                               fmt::format("unknown constraint '{}'", name)));
      if (!ConstraintsSupported(table->metadata.format_version)) {
        b.MayReject(
            RejectKind::kUnsupportedFormatVersion,
            MakeFinding(RuleId::kDefV4Only, "constraints are not supported before v4"));
      }
      return std::move(b).Build();
    }
    named.insert(*c->id);
  }
  CommitContext ctx{switches};
  // "judged like any commit that adds no rows", with the named constraints checked
  // against every live row.
  std::vector<ConstraintEffect> effects =
      EvaluateConstraints(*table, {}, state.functions);
  OutcomeBuilder b;
  for (const ConstraintEffect& e : effects) {
    if (!named.count(e.id) || !e.enforced || e.constraint->type != ConstraintType::kCheck)
      continue;
    auto found = table->check_tallies.find(e.id);
    if (found == table->check_tallies.end()) continue;
    const CheckTally& tally = found->second;
    if (tally.unevaluable > 0) {
      // "An enforced check it cannot evaluate is unverifiable-constraint"
      b.MustReject(
          RejectKind::kUnverifiableConstraint,
          MakeFinding(tally.calls_nondeterministic ? RuleId::kExprDeterministic
                                                   : RuleId::kEnfEnforced,
                      fmt::format("enforced check {} cannot be evaluated on {} rows",
                                  e.name, tally.unevaluable),
                      e.id));
    } else if (tally.calls_nondeterministic) {
      b.MayReject(RejectKind::kUnverifiableConstraint,
                  MakeFinding(RuleId::kExprDeterministic,
                              fmt::format("enforced check {} calls a UDF that is not "
                                          "deterministic",
                                          e.name),
                              e.id));
    }
  }
  StatusInputs in;
  in.fully_validated = named;
  MetadataExpectation exp = BaseExpectation(*table, switches);
  exp.new_snapshot = ExpectSnapshot(*table, "", effects, in, ctx,
                                    static_cast<int64_t>(table->rows.size()));
  b.Because(MakeFinding(RuleId::kStNoAddCarry, "validate adds no rows"));
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

Findings AdoptCommit(CatalogState& state, const Request& request, const Commit& op,
                     const TableMetadata& answered, const Switches&) {
  auto it = state.tables.find(request.table);
  if (it == state.tables.end())
    return {
        MakeFinding(RuleId::kProtoAnswer, "a commit on an unknown table was accepted")};
  TableState& table = it->second;
  if (op.txn) {
    auto t = table.transactions.find(*op.txn);
    if (t == table.transactions.end())
      return {MakeFinding(RuleId::kProtoAnswer,
                          "a commit in an unknown transaction was accepted")};
    t->second.staged = op;
    t->second.staged_now_ms = request.now_ms;
    return {};
  }
  return CommitToTable(table, op, answered, /*retry=*/false, state.functions);
}

Findings AdoptFinish(CatalogState& state, const Request& request, const Finish& op,
                     const Answer& answer, const Switches&) {
  auto it = state.tables.find(request.table);
  if (it == state.tables.end()) return {};
  TableState& table = it->second;
  auto t = table.transactions.find(op.txn);
  if (t == table.transactions.end()) return {};
  Transaction txn = std::move(t->second);
  table.transactions.erase(t);  // finished either way
  if (answer.result != AnswerResult::kOk) return {};
  if (!answer.metadata)
    return {
        MakeFinding(RuleId::kProtoAnswer, "an ok answer to finish carries no metadata")};
  if (!txn.staged)
    return {
        MakeFinding(RuleId::kProtoAnswer, "finish without a staged commit was accepted")};
  return CommitToTable(table, *txn.staged, *answer.metadata, IsRetry(table, txn),
                       state.functions);
}

Findings AdoptValidate(CatalogState& state, const Request& request, const Validate&,
                       const TableMetadata& answered) {
  auto it = state.tables.find(request.table);
  if (it == state.tables.end()) return {};
  TableState& table = it->second;
  const Snapshot* snap = answered.CurrentSnapshot();
  const Snapshot* old = table.metadata.CurrentSnapshot();
  if (snap == nullptr || (old != nullptr && snap->snapshot_id == old->snapshot_id))
    return {
        MakeFinding(RuleId::kProtoAnswer, "an accepted validate created no snapshot")};
  table.history.push_back(SnapshotDelta{snap->snapshot_id, {}, {}});
  table.metadata = answered;
  ++table.versions.any;
  ++table.versions.rows;
  SyncDerived(table, state.functions);
  return {};
}

int64_t AddedRowCount(const Commit& commit) {
  return static_cast<int64_t>(commit.add.size());
}

std::optional<TableMetadata> CanonicalSnapshot(const TableMetadata& parent,
                                               const Request& request,
                                               const AllowedOutcome& outcome,
                                               const std::string& operation,
                                               int64_t added_rows) {
  const int64_t now = request.now_ms.value_or(parent.last_updated_ms + 1);
  TableMetadata md = NextMetadata(parent, now);
  Snapshot s;
  s.snapshot_id = MaxSnapshotId(parent) + 1;
  const Snapshot* cur = parent.CurrentSnapshot();
  if (cur != nullptr) s.parent_snapshot_id = cur->snapshot_id;
  s.timestamp_ms = now;
  if (cur != nullptr && s.timestamp_ms <= cur->timestamp_ms)
    s.timestamp_ms = cur->timestamp_ms + 1;
  if (parent.format_version >= 2) {
    s.sequence_number = parent.last_sequence_number.value_or(0) + 1;
    md.last_sequence_number = s.sequence_number;
  }
  s.summary["operation"] = operation;
  s.schema_id = parent.current_schema_id;
  s.manifest_list = fmt::format("memory://snap-{}.avro", s.snapshot_id);
  if (parent.format_version >= 3) {
    s.first_row_id = parent.next_row_id.value_or(0);
    s.added_rows = added_rows;
    md.next_row_id = *s.first_row_id + added_rows;
  }
  if (parent.format_version >= 4 && outcome.metadata && outcome.metadata->new_snapshot &&
      !outcome.metadata->new_snapshot->statuses.empty()) {
    ConstraintStatuses statuses;
    for (const StatusExpectation& e : outcome.metadata->new_snapshot->statuses) {
      if (!e.id) continue;
      auto& list = statuses.List(e.precise);
      if (!list) list.emplace();
      list->push_back(*e.id);
    }
    s.constraint_statuses = std::move(statuses);
  }
  md.current_snapshot_id = s.snapshot_id;
  md.refs["main"] = SnapshotRef{s.snapshot_id, "branch", {}};
  md.snapshots.push_back(std::move(s));
  return md;
}

}  // namespace ictk::internal
