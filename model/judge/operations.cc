/// \file
/// Dispatch of Apply, Adopt and CanonicalAnswer over the request kinds, the outcome
/// builder, and the small requests (load-table, begin, define-function). The larger ones
/// live in commit.cc, schema_change.cc, upgrade.cc, constraint_ops.cc and reader_ops.cc.
#include "model/judge/operations.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "model/rules/iceberg_rules.h"
#include "model/judge/operations_internal.h"
#include "model/rules/status_rules.h"

namespace ictk {

std::string_view ToString(CommitOperation op) {
  switch (op) {
    case CommitOperation::kAppend:
      return "append";
    case CommitOperation::kDelete:
      return "delete";
    case CommitOperation::kOverwrite:
      return "overwrite";
    case CommitOperation::kReplace:
      break;
  }
  return "replace";
}

std::optional<CommitOperation> ParseCommitOperation(std::string_view text) {
  for (CommitOperation op : {CommitOperation::kAppend, CommitOperation::kDelete,
                             CommitOperation::kOverwrite, CommitOperation::kReplace}) {
    if (ToString(op) == text) return op;
  }
  return std::nullopt;
}

std::string_view OpName(const Operation& op) {
  return std::visit(
      internal::Overloaded{
          [](const CreateTable&) { return std::string_view("create-table"); },
          [](const LoadTable&) { return std::string_view("load-table"); },
          [](const Upgrade&) { return std::string_view("upgrade"); },
          [](const AddConstraint&) { return std::string_view("add-constraint"); },
          [](const UpdateConstraint&) { return std::string_view("update-constraint"); },
          [](const RemoveConstraint&) { return std::string_view("remove-constraint"); },
          [](const UpdateSchema&) { return std::string_view("update-schema"); },
          [](const Commit&) { return std::string_view("commit"); },
          [](const Begin&) { return std::string_view("begin"); },
          [](const Finish&) { return std::string_view("finish"); },
          [](const DefineFunction&) { return std::string_view("define-function"); },
          [](const Validate&) { return std::string_view("validate"); },
          [](const Scan&) { return std::string_view("scan"); },
          [](const ReadStatuses&) { return std::string_view("read-statuses"); },
          [](const ParseMetadata&) { return std::string_view("parse-metadata"); },
      },
      op);
}

bool ActsOnTable(const Operation& op) {
  return !std::holds_alternative<DefineFunction>(op) &&
         !std::holds_alternative<ReadStatuses>(op) &&
         !std::holds_alternative<ParseMetadata>(op);
}

namespace internal {

void OutcomeBuilder::MustReject(RejectKind kind, Finding why) {
  outcome_.reject_kinds.insert(kind);
  if (why.constraint_id) About(kind, *why.constraint_id);
  outcome_.reject_required_by.push_back(why);
  outcome_.decided_by.push_back(std::move(why));
}

void OutcomeBuilder::MayReject(RejectKind kind, Finding why) {
  outcome_.reject_kinds.insert(kind);
  if (why.constraint_id) About(kind, *why.constraint_id);
  outcome_.decided_by.push_back(std::move(why));
}

void OutcomeBuilder::Because(Finding why) {
  outcome_.decided_by.push_back(std::move(why));
}

void OutcomeBuilder::BecauseFirst(Finding why) {
  outcome_.decided_by.insert(outcome_.decided_by.begin(), std::move(why));
}

void OutcomeBuilder::Add(RejectKind kind, Rulings rulings) {
  for (Ruling& r : rulings) {
    switch (r.obligation) {
      case Obligation::kMustFail:
        MustReject(kind, std::move(r.why));
        break;
      case Obligation::kMayFail:
        MayReject(kind, std::move(r.why));
        break;
      case Obligation::kMaySucceed:
        Because(std::move(r.why));
        break;
      case Obligation::kMaySucceedFirst:
        BecauseFirst(std::move(r.why));
        break;
    }
  }
}

void OutcomeBuilder::AddPermissions(Rulings rulings) {
  for (Ruling& r : rulings) {
    assert((r.obligation == Obligation::kMaySucceed ||
            r.obligation == Obligation::kMaySucceedFirst) &&
           "a permission-only rule returned a failure ruling");
    if (r.obligation == Obligation::kMaySucceedFirst) {
      BecauseFirst(std::move(r.why));
    } else {
      Because(std::move(r.why));
    }
  }
}

AllowedOutcome OutcomeBuilder::Build() && {
  outcome_.reject_allowed = !outcome_.reject_kinds.empty();
  outcome_.ok_allowed = outcome_.reject_required_by.empty();
  if (!outcome_.ok_allowed) {
    outcome_.metadata.reset();
    outcome_.rows.reset();
    outcome_.reader_statuses.reset();
    outcome_.parsed.reset();
  }
  return std::move(outcome_);
}

bool DeclaredFormatVersion(int32_t version, const Switches& switches, OutcomeBuilder& b) {
  if (switches.declared_format_versions.count(version)) return true;
  b.MayReject(RejectKind::kUnsupportedFormatVersion,
              MakeFinding(RuleId::kProtoDeclaredVersions,
                          fmt::format("format version {} is not among the versions the "
                                      "implementation declared ({})",
                                      version,
                                      fmt::join(switches.declared_format_versions, ", "))));
  return false;
}

AllowedOutcome InvalidRequest(std::string detail, Clause clause) {
  OutcomeBuilder b;
  b.MustReject(RejectKind::kInvalidRequest, MakeFinding(clause, std::move(detail)));
  return std::move(b).Build();
}

const TableState* TableOf(const CatalogState& state, const Request& request) {
  return state.FindTable(request.table);
}

ConstraintStatus RecordedStatus(const Snapshot* snap, ConstraintId id) {
  return ReaderStatus(
      snap && snap->constraint_statuses ? &*snap->constraint_statuses : nullptr, id);
}

ConstraintExpectation ExpectUnchanged(const Constraint& c) {
  ConstraintExpectation e;
  e.name = c.name.value_or("");
  e.id = c.id;
  e.definition.type = c.type;
  e.definition.enforced = c.enforced;
  e.definition.expression = c.expression;
  e.definition.field_ids = c.field_ids;
  e.rule = RuleId::kProtoAnswer;
  return e;
}

MetadataExpectation BaseExpectation(const TableState& table, const Switches& switches) {
  const TableMetadata& md = table.metadata;
  MetadataExpectation exp;
  exp.format_version = md.format_version;
  exp.base_last_constraint_id = LastConstraintId(md);
  exp.removed_ids = table.removed_constraint_ids;
  exp.seen_ids = table.seen_constraint_ids;
  for (const Constraint& c : ConstraintsOf(md))
    exp.constraints.push_back(ExpectUnchanged(c));
  if (const Snapshot* cur = md.CurrentSnapshot())
    exp.current_snapshot_id = cur->snapshot_id;
  for (const Schema& s : md.schemas) exp.base_schema_ids.insert(s.schema_id.value_or(0));
  exp.base_last_column_id = md.last_column_id;
  exp.stale_ids = switches.stale_ids_in_new_snapshot;
  exp.base_table_uuid = md.table_uuid;
  return exp;
}

SnapshotId MaxSnapshotId(const TableMetadata& metadata) {
  SnapshotId max = 0;
  for (const Snapshot& s : metadata.snapshots) max = std::max(max, s.snapshot_id);
  return max;
}

TableMetadata NextMetadata(const TableMetadata& base, int64_t now_ms) {
  TableMetadata md = base;
  md.last_updated_ms = std::max(now_ms, base.last_updated_ms);
  return md;
}

namespace {

AllowedOutcome ApplyLoadTable(const CatalogState& state, const Request& request,
                              const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  OutcomeBuilder b;
  b.outcome().metadata = BaseExpectation(*table, switches);
  return std::move(b).Build();
}

AllowedOutcome ApplyDefineFunction(const DefineFunction& op) {
  if (op.function.name.empty()) return InvalidRequest("define-function without a name");
  return AllowedOutcome{};
}

}  // namespace

AllowedOutcome ApplyBegin(const CatalogState& state, const Request& request,
                          const Begin& op, const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  if (op.txn.empty()) return InvalidRequest("begin without a txn");
  if (table->transactions.count(op.txn))
    return InvalidRequest(fmt::format("transaction '{}' is already open", op.txn));
  OutcomeBuilder b;
  b.outcome().metadata = BaseExpectation(*table, switches);
  return std::move(b).Build();
}

void AdoptDefineFunction(CatalogState& state, const DefineFunction& op) {
  FunctionDefinition def = op.function;
  auto it = state.functions.find(def.name);
  def.version = it == state.functions.end() ? 1 : it->second.version + 1;
  state.functions[def.name] = def;
  // A check's status describes "the function definitions that were current when the
  // snapshot was written": recount the checks whose calls reach the function.
  for (auto& [name, table] : state.tables) {
    const Schema* schema = table.metadata.CurrentSchema();
    if (schema == nullptr) continue;
    for (const Constraint& c : ConstraintsOf(table.metadata)) {
      if (!c.id || c.type != ConstraintType::kCheck || !c.expression) continue;
      // A tally of this expression knows which UDFs it calls, directly or through their
      // bodies (SurveyCalls; an undefined one too), so only the checks whose calls reach
      // the function defined here, or that could not be evaluated, are counted again; the
      // others are not bound again.
      auto t = table.check_tallies.find(*c.id);
      const bool reaches =
          t != table.check_tallies.end() &&
          (BoundCheckReuse() ? t->second.called_functions.count(def.name) > 0 ||
                                   t->second.calls_beyond_depth
                             : t->second.calls_udf);
      const bool affected = t == table.check_tallies.end() || reaches ||
                            t->second.unevaluable > 0 || t->second.expression != c.expression;
      if (affected)
        table.check_tallies[*c.id] =
            TallyCheck(c, schema->fields, table.rows, state.functions);
    }
  }
}

}  // namespace internal

using namespace internal;  // NOLINT: the dispatchers below name every per-kind function

void ExpectTimestampsFromNow(const CatalogState& state, const Request& request,
                             AllowedOutcome& outcome) {
  if (!request.now_ms || !outcome.ok_allowed || !outcome.metadata) return;
  const int64_t now = *request.now_ms;
  const TableState* table = TableOf(state, request);
  MetadataExpectation& exp = *outcome.metadata;
  bool snapshot = false;  // the request writes a snapshot
  const bool changes = std::visit(
      internal::Overloaded{
          [&](const CreateTable&) { return table == nullptr; },
          [&](const Upgrade& op) {
            return table != nullptr &&
                   op.format_version != table->metadata.format_version;
          },
          [&](const AddConstraint&) { return true; },
          [&](const UpdateConstraint&) {
            return std::any_of(exp.constraints.begin(), exp.constraints.end(),
                               [](const ConstraintExpectation& e) {
                                 return e.timestamp_must_change_from.has_value() ||
                                        e.timestamp_must_be.has_value();
                               });
          },
          [&](const RemoveConstraint&) { return true; },
          [&](const UpdateSchema& op) {
            return !op.changes.empty() || !op.remove_constraints.empty();
          },
          [&](const Commit& op) { return snapshot = !op.txn.has_value(); },
          [&](const Finish&) { return snapshot = true; },
          [&](const Validate&) { return snapshot = true; },
          [&](const auto&) { return false; },
      },
      request.op);
  if (!changes) return;
  if (table != nullptr && now <= table->metadata.last_updated_ms) return;
  exp.last_updated_must_be = now;
  if (!snapshot || !exp.new_snapshot) return;
  SnapshotExpectation& se = *exp.new_snapshot;
  if (se.parent_timestamp_ms &&
      !SnapshotTimestampAfterParent(exp.format_version, now, *se.parent_timestamp_ms))
    return;
  se.timestamp_must_be = now;
}

AllowedOutcome Apply(const CatalogState& state, const Request& request,
                     const Switches& switches) {
  AllowedOutcome outcome = std::visit(
      internal::Overloaded{
          [&](const CreateTable& op) {
            return ApplyCreateTable(state, request, op, switches);
          },
          [&](const LoadTable&) { return ApplyLoadTable(state, request, switches); },
          [&](const Upgrade& op) { return ApplyUpgrade(state, request, op, switches); },
          [&](const AddConstraint& op) {
            return ApplyAddConstraint(state, request, op, switches);
          },
          [&](const UpdateConstraint& op) {
            return ApplyUpdateConstraint(state, request, op, switches);
          },
          [&](const RemoveConstraint& op) {
            return ApplyRemoveConstraint(state, request, op, switches);
          },
          [&](const UpdateSchema& op) {
            return ApplyUpdateSchema(state, request, op, switches);
          },
          [&](const Commit& op) { return ApplyCommit(state, request, op, switches); },
          [&](const Begin& op) { return ApplyBegin(state, request, op, switches); },
          [&](const Finish& op) { return ApplyFinish(state, request, op, switches); },
          [&](const DefineFunction& op) { return ApplyDefineFunction(op); },
          [&](const Validate& op) { return ApplyValidate(state, request, op, switches); },
          [&](const Scan& op) { return ApplyScan(state, request, op, switches); },
          [&](const ReadStatuses& op) {
            return ApplyReadStatuses(state, request, op, switches);
          },
          [&](const ParseMetadata& op) {
            return ApplyParseMetadata(state, request, op, switches);
          },
      },
      request.op);
  ExpectTimestampsFromNow(state, request, outcome);
  return outcome;
}

Findings Adopt(CatalogState& state, const Request& request, const Answer& answer,
               const Switches& switches) {
  if (const auto* finish = std::get_if<Finish>(&request.op))
    return AdoptFinish(state, request, *finish, answer, switches);
  if (answer.result != AnswerResult::kOk) return {};  // a rejection changes nothing
  if (const auto* def = std::get_if<DefineFunction>(&request.op)) {
    AdoptDefineFunction(state, *def);
    return {};
  }
  if (std::holds_alternative<Scan>(request.op) ||
      std::holds_alternative<ReadStatuses>(request.op) ||
      std::holds_alternative<ParseMetadata>(request.op) ||
      std::holds_alternative<LoadTable>(request.op)) {
    return {};
  }
  if (!answer.metadata) {
    return {MakeFinding(
        RuleId::kProtoAnswer,
        fmt::format("an ok answer to {} carries no metadata", OpName(request.op)))};
  }
  return Adopt(state, request, *answer.metadata, switches);
}

Findings Adopt(CatalogState& state, const Request& request, const TableMetadata& answered,
               const Switches& switches) {
  return std::visit(
      internal::Overloaded{
          [&](const CreateTable& op) {
            return AdoptCreateTable(state, request, op, answered);
          },
          [&](const UpdateSchema& op) {
            return AdoptUpdateSchema(state, request, op, answered, switches);
          },
          [&](const Commit& op) {
            return AdoptCommit(state, request, op, answered, switches);
          },
          [&](const Finish& op) {
            return AdoptFinish(state, request, op, Answer::Ok(answered), switches);
          },
          [&](const Validate& op) { return AdoptValidate(state, request, op, answered); },
          [&](const Begin& op) -> Findings {
            auto it = state.tables.find(request.table);
            if (it == state.tables.end())
              return {MakeFinding(clauses::kProtoRequestUnknownTable, "begin on an unknown table")};
            Transaction txn;
            txn.base = it->second.metadata;
            txn.base_versions = it->second.versions;
            it->second.transactions[op.txn] = std::move(txn);
            return {};
          },
          [&](const DefineFunction& op) -> Findings {
            AdoptDefineFunction(state, op);
            return {};
          },
          [&](const LoadTable&) -> Findings { return {}; },
          [&](const Scan&) -> Findings { return {}; },
          [&](const ReadStatuses&) -> Findings { return {}; },
          [&](const ParseMetadata&) -> Findings { return {}; },
          [&](const auto&) -> Findings {
            // upgrade, add-, update-, remove-constraint: the metadata is the whole
            // change.
            return AdoptMetadataChange(state, request, answered, switches);
          },
      },
      request.op);
}

namespace {

/// The canonical answer of a request that must be rejected: the first allowed kind (or
/// invalid-request), the rules that require it, and the constraints a violation is about.
Answer CanonicalRejection(const AllowedOutcome& outcome) {
  Answer a;
  a.result = AnswerResult::kRejected;
  a.error_kind = outcome.reject_kinds.empty() ? RejectKind::kInvalidRequest
                                              : *outcome.reject_kinds.begin();
  a.error_kind_text = std::string(ToString(*a.error_kind));
  std::vector<std::string> why;
  for (const Finding& f : outcome.reject_required_by)
    why.push_back(fmt::format("{} ({})", f.detail, RuleIdName(f.rule)));
  a.message = fmt::format("{}", fmt::join(why, "; "));
  const std::set<ConstraintId>& about = outcome.ConstraintIdsOf(*a.error_kind);
  if (*a.error_kind == RejectKind::kConstraintViolation && !about.empty())
    a.error_constraint_ids = std::vector<ConstraintId>(about.begin(), about.end());
  return a;
}

}  // namespace

Answer CanonicalAnswer(const CatalogState& state, const Request& request,
                       const AllowedOutcome& outcome, const Switches& switches) {
  if (!outcome.ok_allowed) return CanonicalRejection(outcome);
  Answer a;
  const TableState* table = TableOf(state, request);
  std::optional<TableMetadata> md;
  std::visit(
      internal::Overloaded{
          [&](const CreateTable& op) { md = CanonicalCreateTable(request, op); },
          [&](const LoadTable&) {
            if (table) md = table->metadata;
          },
          [&](const Begin&) {
            if (table) md = table->metadata;
          },
          [&](const Upgrade& op) {
            if (table) md = CanonicalUpgrade(*table, request, op);
          },
          [&](const AddConstraint& op) {
            if (table) md = CanonicalAddConstraint(*table, request, op);
          },
          [&](const UpdateConstraint& op) {
            if (table) md = CanonicalUpdateConstraint(*table, request, op, switches);
          },
          [&](const RemoveConstraint& op) {
            if (table) md = CanonicalRemoveConstraint(*table, request, op, switches);
          },
          [&](const UpdateSchema& op) {
            if (table) md = CanonicalUpdateSchema(*table, request, op, switches);
          },
          [&](const Commit& op) {
            if (!table) return;
            const TableMetadata* parent = &table->metadata;
            if (op.txn) {
              auto it = table->transactions.find(*op.txn);
              if (it != table->transactions.end()) parent = &it->second.base;
            }
            md =
                CanonicalSnapshot(*parent, request, outcome,
                                  std::string(ToString(op.operation)), AddedRowCount(op));
          },
          [&](const Finish& op) {
            if (!table) return;
            auto it = table->transactions.find(op.txn);
            if (it == table->transactions.end() || !it->second.staged) return;
            md = CanonicalSnapshot(table->metadata, request, outcome,
                                   std::string(ToString(it->second.staged->operation)),
                                   AddedRowCount(*it->second.staged));
          },
          [&](const Validate&) {
            if (table)
              md = CanonicalSnapshot(table->metadata, request, outcome, "replace", 0);
          },
          [&](const DefineFunction&) {},
          [&](const Scan&) {
            if (!outcome.rows) return;
            std::vector<Row> rows;
            for (const auto& [key, values] : *outcome.rows)
              rows.push_back(Row{key, values});
            a.rows = std::move(rows);
          },
          [&](const ReadStatuses&) {
            if (!outcome.reader_statuses) return;
            std::map<ConstraintId, ConstraintStatus> st;
            for (const auto& [id, set] : *outcome.reader_statuses)
              st[id] = set.ToVector().front();
            a.statuses = std::move(st);
          },
          [&](const ParseMetadata& op) { md = op.metadata; },
      },
      request.op);
  a.metadata = std::move(md);
  return a;
}

}  // namespace ictk
