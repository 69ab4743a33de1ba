/// \file
/// Running, judging and shrinking histories (runner.h).
#include "properties/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <set>
#include <unordered_map>

#include "adapters/step_loop.h"
#include "codec/decode_memo.h"
#include "codec/metadata_delta.h"
#include "codec/protocol.h"
#include "fixtures/replay.h"
#include "model/iceberg/metadata_compare.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/single_value.h"
#include "model/judge/blame.h"
#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"
#include "model/rules/clause.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/definition_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/metadata_rules.h"
#include "model/rules/status_rules.h"
#include "properties/clock_internal.h"
#include "properties/fixture.h"
#include "properties/minimize.h"
#include "properties/model_expectations.h"

namespace ictk {
namespace {

using json = nlohmann::json;
using internal::Clock;
using internal::MillisSince;

/// `response` made whole (PutWholeMetadata) for the checks that read an answer whole;
/// `response` itself when `rebuilt` is nullptr (it was whole).
json WithRebuiltMetadata(const json& response, const json* rebuilt) {
  if (rebuilt == nullptr) return response;
  json whole = response;
  PutWholeMetadata(whole, *rebuilt);
  return whole;
}

}  // namespace

std::string MetadataDifference(const TableMetadata& before_given,
                               const TableMetadata& after_given) {
  // Compared by meaning: an implementation may answer the same metadata with its lists in
  // another order each time (docs/writing-an-adapter.md, "The freedoms an implementation
  // has"). Equal as given is equal by meaning (normalizing is a function of the value):
  // the usual case, decided without normalizing copies of both.
  if (before_given == after_given) return {};
  const TableMetadata before = NormalizedMetadata(before_given);
  const TableMetadata after = NormalizedMetadata(after_given);
  if (before == after) return {};
  std::vector<std::string> diffs;
  if (before.format_version != after.format_version) diffs.push_back("format-version");
  if (before.last_constraint_id != after.last_constraint_id)
    diffs.push_back("last-constraint-id");
  if (before.constraints != after.constraints) diffs.push_back("constraints");
  if (before.current_snapshot_id != after.current_snapshot_id)
    diffs.push_back("current-snapshot-id");
  if (before.snapshots != after.snapshots) diffs.push_back("snapshots");
  if (before.schemas != after.schemas) diffs.push_back("schemas");
  if (before.current_schema_id != after.current_schema_id)
    diffs.push_back("current-schema-id");
  if (before.last_column_id != after.last_column_id) diffs.push_back("last-column-id");
  if (before.last_updated_ms != after.last_updated_ms) diffs.push_back("last-updated-ms");
  if (diffs.empty()) diffs.push_back("other members");
  return fmt::format("{}", fmt::join(diffs, ", "));
}

namespace {

// --- coverage
// ----------------------------------------------------------------------------

/// The rules a new snapshot's statuses exercised (Exercised).
void ExercisedBySnapshot(const MetadataExpectation& m, const Answer& a,
                         const Request& request, const TableState* table,
                         const std::function<void(RuleId, bool)>& add) {
  const SnapshotExpectation& s = *m.new_snapshot;
  if (s.statuses_required) {
    add(RuleId::kStEverySnapshot, false);
    add(RuleId::kStExactlyOneList, false);
    add(RuleId::kStSound, false);
  }
  if (m.format_version >= 4 && s.parent_snapshot_id)
    add(RuleId::kIceV4SnapshotTimestamps, false);
  if (s.retry) add(RuleId::kEnfRetryRecomputeStatuses, false);
  const Snapshot* snap = a.metadata ? a.metadata->CurrentSnapshot() : nullptr;
  const Commit* commit = std::get_if<Commit>(&request.op);
  if (commit && !commit->modify.empty()) add(RuleId::kEnfModifiedRow, false);
  for (const StatusExpectation& e : s.statuses) {
    if (e.also_rule) add(*e.also_rule, false);
    // What judging this status by truth exercised, by the constraint's type.
    const Constraint* c =
        table && e.id ? FindConstraintById(table->metadata, *e.id) : nullptr;
    const std::optional<ConstraintType> type = c ? c->type : std::nullopt;
    const bool key =
        type == ConstraintType::kUnique || type == ConstraintType::kPrimaryKey;
    if (e.facts.calls_udf) add(RuleId::kExprUdfStatus, false);
    if (e.facts.added_rows && key) add(RuleId::kEnfKeysAgainstRemaining, false);
    if (e.facts.added_rows && type == ConstraintType::kUnique)
      add(RuleId::kSemUnique, false);
    if (e.facts.added_rows && type == ConstraintType::kPrimaryKey)
      add(RuleId::kSemPrimaryKey, false);
    if (e.facts.added_rows && type == ConstraintType::kCheck)
      add(RuleId::kSemCheck, false);
    if (s.retry) {
      add(RuleId::kEnfRetryEnforced, false);
      if (key && e.facts.added_rows) add(RuleId::kEnfRetryKeysNewParent, false);
      if (type == ConstraintType::kCheck && e.facts.added_rows)
        add(RuleId::kEnfRetryCheck, false);
    }
    if (e.facts.parent != ConstraintStatus::kUnvalidated && !e.facts.added_rows)
      add(RuleId::kStNoAddCarry, false);
    ConstraintId id = e.id.value_or(0);
    const StatusSet listed = ListedStatuses(
        snap && snap->constraint_statuses ? &*snap->constraint_statuses : nullptr, id);
    for (ConstraintStatus st : listed.ToVector()) add(StatusDescriptionRule(st), false);
  }
}

std::vector<std::pair<RuleId, bool>> Exercised(const AllowedOutcome& o, const Answer& a,
                                               const Request& request,
                                               const TableState* table) {
  std::vector<std::pair<RuleId, bool>> out;
  std::set<RuleId> seen;
  const std::function<void(RuleId, bool)> add = [&](RuleId r, bool negative) {
    if (seen.insert(r).second) out.emplace_back(r, negative);
  };
  const bool negative = o.must_reject();
  for (const Finding& f : o.reject_required_by) add(f.rule, true);
  for (const Finding& f : o.decided_by) add(f.rule, negative);
  if (o.metadata && a.result == AnswerResult::kOk) {
    const MetadataExpectation& m = *o.metadata;
    for (const ConstraintExpectation& c : m.constraints) {
      if (!c.id) {
        add(RuleId::kIdAboveLast, false);
        add(RuleId::kIdUpdateLast, false);
        if (m.base_last_constraint_id == 0) add(RuleId::kIdLastDefaultZero, false);
      }
      if (c.timestamp_must_change_from) add(RuleId::kUpdTimestamp, false);
      if (c.timestamp_must_be) add(c.timestamp_rule, false);
      if (c.rule != RuleId::kProtoAnswer) add(c.rule, false);
    }
    if (!m.removed_ids.empty()) add(RuleId::kIdNoReuse, false);
    if (m.new_snapshot) ExercisedBySnapshot(m, a, request, table, add);
    if (m.format_version == 4 && !m.base_schema_ids.empty())
      add(RuleId::kUpgNoIdentifiersInV4, false);
  }
  if (o.rows) add(RuleId::kSemLiveRows, false);
  // A rejection whose kind is about some constraints: its constraint-ids were judged.
  if (a.result == AnswerResult::kRejected && a.error_kind &&
      !o.ConstraintIdsOf(*a.error_kind).empty())
    add(RuleId::kProtoRejectionConstraintIds, false);
  // A request carrying legal single values at a type extreme or in an unusual spelling.
  if (!o.unusual_values.empty()) add(RuleId::kIceSingleValue, false);
  if (o.reader_statuses) add(RuleId::kStReaderLookup, false);
  // A constraint added by field ID (def.by-field-id); a unique key over an optional field
  // (key.unique-optional-ok).
  if (const auto* add_c = std::get_if<AddConstraint>(&request.op);
      add_c && o.ok_allowed && a.result == AnswerResult::kOk && table) {
    add(RuleId::kDefByFieldId, false);
    const Schema* schema = table->metadata.CurrentSchema();
    if (schema && add_c->constraint.type == ConstraintType::kUnique &&
        add_c->constraint.field_ids)
      for (FieldId id : *add_c->constraint.field_ids)
        if (std::optional<FieldLocation> loc = FindField(*schema, id);
            loc && (!loc->field.required || loc->under_optional_struct))
          add(RuleId::kKeyUniqueOptionalOk, false);
  }
  // A rejection for rows that break key constraints checked them against the remaining
  // rows.
  if (a.result == AnswerResult::kRejected && table)
    for (ConstraintId id : o.ConstraintIdsOf(RejectKind::kConstraintViolation))
      if (const Constraint* c = FindConstraintById(table->metadata, id);
          c &&
          (c->type == ConstraintType::kUnique || c->type == ConstraintType::kPrimaryKey))
        add(RuleId::kEnfKeysAgainstRemaining, true);
  return out;
}

/// The clauses every answered table metadata of `format_version` is judged by whatever
/// the change (internal::JudgeMetadata): the Iceberg metadata rules of
/// CheckIcebergMetadata (ice.table-uuid: its is-uuid clause there) and the metadata's shape
/// (it decoded). Computed once per format version: every answered step asks it.
const std::vector<const ClauseInfo*>& ClausesOfEveryMetadata(int format_version) {
  auto make = [](int v) {
    std::vector<const ClauseInfo*> out;
    for (RuleId rule : IcebergMetadataRules(v))
      for (const ClauseInfo& c : FindRule(rule).clauses)
        if (rule != RuleId::kIceTableUuid || c.name == clauses::kIceTableUuidIsUuid.name)
          out.push_back(&c);
    // A failure to decode is ice.metadata-shape's finding.
    out.push_back(&FindRule(RuleId::kIceMetadataShape).clauses.front());
    return out;
  };
  static const std::array<std::vector<const ClauseInfo*>, kMaxFormatVersion + 1> known = [&] {
    std::array<std::vector<const ClauseInfo*>, kMaxFormatVersion + 1> a;
    for (int v = 0; v <= kMaxFormatVersion; ++v) a[static_cast<size_t>(v)] = make(v);
    return a;
  }();
  if (format_version >= 0 && format_version <= kMaxFormatVersion)
    return known[static_cast<size_t>(format_version)];
  static thread_local std::vector<const ClauseInfo*> other;
  other = make(format_version);
  return other;
}

/// The clauses an answered table metadata is judged by (internal::JudgeMetadata):
/// ClausesOfEveryMetadata, ice.table-uuid/identifies-the-table against the table's UUID
/// before the change, and the timestamps a change takes from now-ms.
void ClausesOfJudgedMetadata(const MetadataExpectation& m,
                             std::vector<std::pair<const ClauseInfo*, bool>>& out) {
  for (const ClauseInfo* c : ClausesOfEveryMetadata(m.format_version))
    out.emplace_back(c, false);
  if (m.base_table_uuid) out.emplace_back(FindClause(clauses::kIceTableUuidIdentifies), false);
  if (m.last_updated_must_be || (m.new_snapshot && m.new_snapshot->timestamp_must_be))
    out.emplace_back(FindClause(clauses::kProtoTimestampEvery), false);
}

/// Whether a scan's live rows hold a value at a type extreme (UnusualBoundValues), which
/// the answer must write back as it is (ice.single-value/writes, judge_reads.cc).
bool ScanWritesSingleValue(const AllowedOutcome& o) {
  if (!o.rows || !o.rows_schema) return false;
  for (const auto& [key, row] : *o.rows)
    for (const NestedField& f : o.rows_schema->fields)
      if (const Value* v = row.kind == ValueKind::kStruct ? row.FindField(f.id) : nullptr;
          v && !UnusualBoundValues(*v, f.type, "").empty())
        return true;
  return false;
}

/// The clauses the rule book's rulings on an answered step exercised, whatever the step's
/// label named (StepOutcome::exercised_clauses): each the clause a wrong answer here would
/// break, as the rule functions name it.
std::vector<std::pair<const ClauseInfo*, bool>> ClausesByRulings(const AllowedOutcome& o,
                                                                 const Answer& a,
                                                                 const Request& request,
                                                                 const Switches& switches) {
  std::vector<std::pair<const ClauseInfo*, bool>> out;
  auto add = [&](Clause c) {
    if (const ClauseInfo* info = FindClause(c)) out.emplace_back(info, false);
  };
  const bool ok = a.result == AnswerResult::kOk && o.ok_allowed;
  if (a.result == AnswerResult::kOk && o.metadata && a.metadata)
    ClausesOfJudgedMetadata(*o.metadata, out);
  // A rejection naming constraints: the IDs it lists were judged to be about it.
  if (a.result == AnswerResult::kRejected && o.reject_allowed && a.error_kind &&
      a.error_constraint_ids)
    add(clauses::kProtoRejectionOnlyAbout);
  if (ok && ScanWritesSingleValue(o)) add(clauses::kIceSingleValueWrites);
  if (ok && o.metadata && o.metadata->new_snapshot)
    for (const StatusExpectation& e : o.metadata->new_snapshot->statuses) {
      // A status the writer may not list here: listing it would break the half of its
      // description that ClauseBrokenByListedStatus names.
      for (ConstraintStatus st : {ConstraintStatus::kValidated, ConstraintStatus::kValid,
                                  ConstraintStatus::kInvalid})
        if (!e.allowed.Contains(st)) add(ClauseBrokenByListedStatus(st, e.context));
      // A check calling a UDF over a recorded parent status that may not be kept.
      const ConstraintStatus parent = e.context.parent_status;
      if (e.context.calls_udf && parent != ConstraintStatus::kUnvalidated &&
          !UdfStatusPermits(e.context, parent, /*as_carry=*/true, switches))
        add(clauses::kExprUdfNoCarry);
    }
  // A read where a reader taking timestamp-ms as deciding would answer otherwise.
  if (const auto* read = std::get_if<ReadStatuses>(&request.op);
      read && o.reader_statuses && read->metadata.constraints) {
    const Snapshot* snap = read->snapshot_id ? read->metadata.FindSnapshot(*read->snapshot_id)
                                             : read->metadata.CurrentSnapshot();
    if (snap && std::any_of(read->metadata.constraints->begin(),
                            read->metadata.constraints->end(), [&](const Constraint& c) {
                              return TimestampWouldChangeReaderStatus(*snap, c);
                            }))
      add(clauses::kDefTimestampApplies);
  }
  // A rename keeps the constraint: its ID, not its name, identifies it.
  if (const auto* update = std::get_if<UpdateConstraint>(&request.op);
      ok && update && update->set.name && *update->set.name != update->name)
    add(clauses::kDefNameNotIdentifier);
  // A schema change that adds a field: its ID is judged against last-column-id.
  if (const auto* schema = std::get_if<UpdateSchema>(&request.op);
      ok && schema && std::any_of(schema->changes.begin(), schema->changes.end(),
                                  [](const SchemaChange& c) {
                                    return std::holds_alternative<AddColumn>(c);
                                  }))
    add(clauses::kIceEvolutionNewIdsAboveLast);
  return out;
}

void CountPrecision(const AllowedOutcome& o, const Answer& a,
                    std::map<std::string, PrecisionCount>& precision) {
  if (a.result != AnswerResult::kOk || !a.metadata || !o.metadata ||
      !o.metadata->new_snapshot)
    return;
  const Snapshot* snap = a.metadata->CurrentSnapshot();
  for (const StatusExpectation& e : o.metadata->new_snapshot->statuses) {
    const ConstraintId id = e.id.value_or(0);
    const StatusSet listed = ListedStatuses(
        snap && snap->constraint_statuses ? &*snap->constraint_statuses : nullptr, id);
    PrecisionCount& p = precision[std::string(ToString(e.precise))];
    ++p.total;
    if (listed == StatusSet{e.precise}) ++p.precise;
  }
}

}  // namespace

std::vector<std::pair<const ClauseInfo*, bool>> ClausesExercised(const StepOutcome& step) {
  std::vector<std::pair<const ClauseInfo*, bool>> out;
  auto add = [&](const ClauseInfo* c, bool negative) {
    if (std::find(out.begin(), out.end(), std::pair{c, negative}) == out.end())
      out.emplace_back(c, negative);
  };
  for (const auto& [rule, negative] : step.exercised) {
    const std::vector<ClauseInfo>& clauses = FindRule(rule).clauses;
    for (const ClauseInfo& c : clauses)
      if (clauses.size() == 1 || std::find(step.step.clauses.begin(), step.step.clauses.end(),
                                           c.id) != step.step.clauses.end())
        add(&c, negative);
  }
  for (const auto& [c, negative] : step.exercised_clauses) add(c, negative);
  return out;
}

namespace {

/// One history against an adapter: each rendered step is applied to the model, sent,
/// decoded, judged and adopted, until the plan ends or a step fails.
class HistoryRunner {
 public:
  HistoryRunner(AdapterSession& session, const Plan& plan, const RenderOptions& options,
                const Switches& switches)
      : session_(session), renderer_(plan, options), switches_(switches), loop_(switches) {}

  HistoryRun Run() && {
    while (std::optional<RenderedStep> rendered = renderer_.Next(loop_.state())) {
      if (rendered->setup) {
        // Setup of a reader profile's inputs: the model alone performs it, nothing is
        // sent.
        const AllowedOutcome& outcome = loop_.Begin(rendered->request);
        loop_.Adopt(CanonicalAnswer(loop_.state(), rendered->request, outcome, switches_));
        run_.setups.emplace_back(run_.steps.size(), std::move(rendered->request));
        continue;
      }
      if (!Step(std::move(*rendered))) break;
    }
    return std::move(run_);
  }

 private:
  /// Sends, decodes, judges and adopts one step; false when it ended the history.
  bool Step(RenderedStep rendered);
  /// The decoded answer of `step`, or nullopt after failing the step (a protocol error,
  /// or metadata that breaks an Iceberg rule).
  /// `rebuilt` is the metadata a `metadata-delta` answer stands for (nullptr when the
  /// answer is whole).
  std::optional<Answer> Decode(StepOutcome& step, const json* rebuilt,
                               const MetadataLineage& lineage);
  /// What the judge, the invariants of returned metadata and (after a rejection) the
  /// table's unchanged state find; false after failing the step on a transport failure.
  bool JudgeStep(StepOutcome& step, const Answer& answer, Findings& findings);
  /// A rejected request changes nothing: load-table answers the state before it.
  bool RejectedChangesNothing(StepOutcome& step, const TableState& table,
                              const Request& request, Findings& findings);
  void Fail(Verdict v, StepOutcome& step, Findings findings, std::string reason) {
    run_.verdict = v;
    run_.failed_step = static_cast<int>(run_.steps.size());
    run_.findings = findings;
    // A failure the blame did not file (a transport failure, metadata not decoded, an
    // adoption finding) is filed under the clause its first finding names.
    if (step.clause.empty() && !findings.empty()) step.clause = ClauseIdOf(findings.front());
    run_.clause = step.clause;
    run_.reason = std::move(reason);
    step.findings = std::move(findings);
    run_.steps.push_back(std::move(step));
  }

  AdapterSession& session_;
  HistoryRenderer renderer_;
  const Switches& switches_;
  HistoryRun run_;
  // The one step loop (adapters/step_loop.h): the model's state, the decode memo, the
  // judge, the blame and the adoption.
  StepLoop loop_;
};

bool HistoryRunner::Step(RenderedStep rendered) {
  run_.distribution.Add(rendered);
  StepOutcome step;
  step.step = std::move(rendered);
  const Request& request = step.step.request;
  const AllowedOutcome& outcome = loop_.Begin(request);
  const CatalogState& state = loop_.state();
  step.allowed = DescribeAllowed(outcome, state, request);
  json sent = RequestToJson(request);
  CallResult call = session_.Call(sent);
  sent["id"] = session_.calls();
  const json* rebuilt = call.metadata;
  const MetadataLineage lineage = call.lineage;
  // Moved, not copied: an answer carries the whole table metadata, which grows with
  // the history.
  step.request = std::move(sent);
  step.response = std::move(call.response);
  if (call.failure) {
    step.answered =
        fmt::format("{}: {}", ToString(call.failure->kind), call.failure->message);
    const std::string tail = session_.adapter().StderrTail();
    Fail(VerdictOf(call.failure->kind), step,
         {Finding{RuleId::kProtoAnswer, std::nullopt, {}, step.answered}},
         tail.empty() ? step.answered : step.answered + "\n" + tail);
    return false;
  }
  const std::optional<Answer> decoded = Decode(step, rebuilt, lineage);
  if (!decoded) return false;
  const Answer& answer = *decoded;
  step.answered = DescribeAnswer(answer, outcome, state, request);
  step.exercised = Exercised(outcome, answer, request, state.FindTable(request.table));
  step.exercised_clauses = ClausesByRulings(outcome, answer, request, switches_);
  for (const auto& [clause, negative] : step.exercised_clauses)
    if (std::none_of(step.exercised.begin(), step.exercised.end(),
                     [&](const auto& e) { return e.first == clause->rule; }))
      step.exercised.emplace_back(clause->rule, negative);
  // Every decoded answer is judged for carrying what was asked (proto.answer).
  if (std::none_of(step.exercised.begin(), step.exercised.end(),
                   [](const auto& e) { return e.first == RuleId::kProtoAnswer; }))
    step.exercised.emplace_back(RuleId::kProtoAnswer, false);
  // The step's fixture expectation is written only for the fixture of a failure
  // (FixtureExpectations), but for a blamed rejection, whose expectation the blame
  // changes, and an answer that does not decode.

  Findings findings;
  if (!JudgeStep(step, answer, findings)) return false;
  if (answer.result == AnswerResult::kError) {
    Fail(Verdict::kError, step, findings,
         "the implementation answered error: " + answer.message);
    return false;
  }
  if (!findings.empty()) {
    // The failure is filed under the clause the answer broke, as the model's rule book
    // decides it (model/judge/blame.h), not under the rules that decided the outcome.
    const bool only_ids = std::all_of(findings.begin(), findings.end(), [](const Finding& f) {
      return f.rule == RuleId::kProtoRejectionConstraintIds;
    });
    BlameResult blamed = loop_.Blame(answer, std::move(findings));
    step.expect = FixtureExpectation(outcome, state, request, answer);
    if (only_ids && !blamed.findings.empty())
      ExpectRejectionBlame(outcome, state, request, answer, blamed.findings.front().rule,
                           step.expect);
    findings = std::move(blamed.findings);
    step.clause = std::move(blamed.clause);
    run_.judged_rule = blamed.judged_rule;
    for (const Finding& f : findings)
      step.exercised.emplace_back(f.rule, outcome.must_reject());
    Fail(Verdict::kFail, step, findings, {});
    return false;
  }
  Findings adopt = loop_.Adopt(answer);
  if (!adopt.empty()) {
    Fail(Verdict::kFail, step, adopt, {});
    return false;
  }
  CountPrecision(outcome, answer, run_.precision);
  run_.steps.push_back(std::move(step));
  return true;
}

std::optional<Answer> HistoryRunner::Decode(StepOutcome& step, const json* rebuilt,
                                            const MetadataLineage& lineage) {
  Result<Answer> answer = loop_.Decode(*step.response, rebuilt, &lineage);
  if (answer) return std::move(*answer);
  const AllowedOutcome& outcome = loop_.outcome();
  const std::vector<NestedField>* fields =
      outcome.rows_schema ? &outcome.rows_schema->fields : nullptr;
  // The failure fixture still states what the step allows (its writer's keys for an
  // `ok` answer, iceberg-metadata-valid among them), so that the step fails again on
  // replay; an answer that does not decode counts as `ok` for `stop-if`.
  step.expect = FixtureExpectation(outcome, loop_.state(), step.step.request, Answer{});
  if (std::optional<Finding> shape =
          MetadataShapeFinding(WithRebuiltMetadata(*step.response, rebuilt), fields)) {
    // Well-formed answer, metadata that breaks an Iceberg rule: a failure of that
    // rule (the adapter is not restarted), not a protocol error.
    step.answered = "ok with metadata that does not decode: " + shape->detail;
    step.exercised.emplace_back(shape->rule, false);
    Fail(Verdict::kFail, step, {*shape}, {});
    return std::nullopt;
  }
  step.answered = "protocol-error: " + answer.error().message;
  Fail(Verdict::kProtocolError, step,
       {Finding{RuleId::kProtoAnswer, std::nullopt, {}, answer.error().message}},
       step.answered);
  return std::nullopt;
}

bool HistoryRunner::JudgeStep(StepOutcome& step, const Answer& answer, Findings& findings) {
  const Request& request = step.step.request;
  findings = loop_.Check(answer);
  const TableState* table = loop_.state().FindTable(request.table);
  if (answer.result == AnswerResult::kRejected && findings.empty() && table != nullptr &&
      ActsOnTable(request.op))
    return RejectedChangesNothing(step, *table, request, findings);
  return true;
}

bool HistoryRunner::RejectedChangesNothing(StepOutcome& step, const TableState& table,
                                           const Request& request, Findings& findings) {
  const json load = RequestToJson(Request{request.table, request.now_ms, LoadTable{}});
  CallResult after = session_.Call(load);
  if (after.failure) {
    step.answered += fmt::format("; then load-table: {}: {}",
                                 ToString(after.failure->kind), after.failure->message);
    Fail(VerdictOf(after.failure->kind), step,
         {Finding{RuleId::kProtoAnswer, std::nullopt, {}, after.failure->message}},
         step.answered);
    return false;
  }
  Result<Response> loaded =
      loop_.DecodeFollowUp(*after.response, after.metadata, &after.lineage);
  std::optional<Finding> shape;
  if (!loaded)
    shape = MetadataShapeFinding(WithRebuiltMetadata(*after.response, after.metadata),
                                 nullptr);
  if (session_.metadata_delta()) {
    // A later answer may be a delta based on this one.
    json sent = load;
    sent["id"] = session_.calls();
    step.followup_request = std::move(sent);
    step.followup_response = std::move(after.response);
  }
  if (shape) {
    // The load-table answer is well formed but its metadata breaks an Iceberg rule:
    // a failure of that rule, not of the convention.
    shape->detail = "load-table after a rejected request: " + shape->detail;
    findings.push_back(std::move(*shape));
  } else if (!loaded || loaded->result != Response::Result::kOk || !loaded->metadata) {
    findings.push_back(Finding{RuleId::kProtoAnswer, std::nullopt, {},
                               "load-table after a rejected request did not answer "
                               "the table's metadata",
                               clauses::kProtoAnswerCarries.name});
  } else if (std::string diff = MetadataDifference(table.metadata, *loaded->metadata);
             !diff.empty()) {
    // The metadata differs from the state before; where the difference breaks a
    // surrounding Iceberg rule, the failure is named by that rule (the verdict is the
    // same: the answer fails either way).
    Findings ice = CheckIcebergMetadata(*loaded->metadata);
    for (Finding& f : ice) {
      f.detail = "load-table after a rejected request: " + f.detail;
      findings.push_back(std::move(f));
    }
    if (ice.empty()) {
      findings.push_back(Finding{
          RuleId::kProtoAnswer, std::nullopt, {},
          fmt::format(
              "the request was rejected, yet load-table after it differs from the "
              "state before it in {}: a rejected request changes nothing",
              diff),
          clauses::kProtoAnswerRejectedChangesNothing.name});
    }
  }
  return true;
}

}  // namespace

HistoryRun RunHistory(AdapterSession& session, const Plan& plan,
                      const RenderOptions& options, const Switches& switches) {
  HistoryRun run = HistoryRunner(session, plan, options, switches).Run();
  if (run.verdict != Verdict::kPass && session.metadata_delta())
    ExpandMetadataDeltas(run.steps);
  return run;
}

std::vector<json> FixtureExpectations(const HistoryRun& run, const Switches& switches) {
  // The model's states again, through the one step loop over the recorded requests and
  // (whole) answers, with the setup steps where they came.
  std::vector<json> out;
  for (const StepOutcome& step : run.steps) out.push_back(step.expect);
  StepLoop loop(switches);
  size_t setup = 0;
  const auto setups_before = [&](size_t i) {
    for (; setup < run.setups.size() && run.setups[setup].first <= i; ++setup) {
      const Request& r = run.setups[setup].second;
      loop.Adopt(CanonicalAnswer(loop.state(), r, loop.Begin(r), switches));
    }
  };
  for (size_t i = 0; i < run.steps.size(); ++i) {
    const StepOutcome& step = run.steps[i];
    setups_before(i);
    // A step that failed at the transport has no answer and no expectation.
    if (static_cast<int>(i) == run.failed_step && !step.response) break;
    const AllowedOutcome& outcome = loop.Begin(step.step.request);
    Result<Answer> answer = step.response ? loop.Decode(*step.response)
                                          : Result<Answer>(Answer{});
    if (out[i].is_null())
      out[i] = FixtureExpectation(outcome, loop.state(), step.step.request,
                                  answer ? *answer : Answer{});
    if (static_cast<int>(i) == run.failed_step || !answer) break;
    loop.Adopt(*answer);
  }
  return out;
}

void ExpandMetadataDeltas(std::vector<StepOutcome>& steps) {
  // Read again in order through the reader the session read them with; a delta whose
  // base is not in these steps (or that the session refused: the step's protocol error)
  // stays as it came.
  MetadataDeltaReader reader;
  const auto track = [&reader](const json* request, std::optional<json>& response) {
    if (!request || !response || !request->is_object() || !response->is_object()) return;
    const auto table = request->find("table");
    const auto id = request->find("id");
    const auto result = response->find("result");
    if (table == request->end() || !table->is_string() || id == request->end() ||
        !id->is_number_integer() || result == response->end() || *result != "ok")
      return;
    Result<MetadataDeltaReader::Read> read =
        reader.Track(table->get<std::string>(), id->get<int64_t>(), *response);
    if (read && read->metadata != nullptr) PutWholeMetadata(*response, *read->metadata);
  };
  for (StepOutcome& s : steps) {
    track(&s.request, s.response);
    track(s.followup_request ? &*s.followup_request : nullptr, s.followup_response);
  }
}

}  // namespace ictk
