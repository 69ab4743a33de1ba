/// \file
/// Judging a metadata answer against its expectation (MetadataExpectation): the
/// constraints, the new snapshot and its statuses, the schemas and their fields, the
/// surrounding Iceberg rules and the timestamps a request writes.
#include "model/rules/id_rules.h"
#include "model/judge/outcome.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

#include "model/rules/constraint_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/metadata_rules.h"
#include "model/rules/reader_preserves.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/single_value.h"
#include "model/rules/status_rules.h"
#include "model/judge/table_state.h"
#include "model/iceberg/value_parse.h"
#include "model/judge/outcome_internal.h"
#include "model/iceberg/kinds.h"

namespace ictk {

using namespace internal;

namespace {

std::vector<FieldId> Sorted(std::vector<FieldId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

// --- constraints ----------------------------------------------------------------------

/// A constraint's `timestamp-ms` where its value is specified, not only its presence: the
/// `pk` an upgrade generates carries "the time of the upgrade" (upg.pk-from-identifiers),
/// and a constraint a request adds or updates takes the request's `now-ms` because
/// "every timestamp the implementation writes comes from it" (proto.timestamp-from-now,
/// docs/protocol.md section 10).
void JudgeConstraintTimestamp(const ConstraintExpectation& e, const Constraint& got,
                              Findings& out) {
  if (!e.timestamp_must_be || !got.timestamp_ms) return;  // absence: def.required-fields
  if (*got.timestamp_ms == *e.timestamp_must_be) return;
  // An update that kept the old timestamp is reported once, under upd.timestamp.
  if (e.timestamp_must_change_from == got.timestamp_ms) return;
  out.push_back(MakeFinding(
      e.timestamp_rule == RuleId::kProtoTimestampFromNow ? clauses::kProtoTimestampConstraint
                                                         : Clause{e.timestamp_rule, {}},
      fmt::format("{} has timestamp-ms {}, but it must be the request's now-ms {}{}", e.name,
                  *got.timestamp_ms, *e.timestamp_must_be,
                  e.timestamp_rule == RuleId::kUpgPkFromIdentifiers
                      ? " (\"the time of the upgrade\")"
                      : ""),
      got.id));
}

/// The clause of `rule` that a constraint unlike its expectation breaks, where the rule
/// has several: an upgrade's primary key "that is not enforced" (its enforced flag) or
/// "rewritten as a single primary-key constraint" (anything else), an update's
/// `expression` or `field-ids`, and a rename's "must not be used to identify a
/// constraint" (its ID).
Clause ExpectationClause(RuleId rule, std::string_view member) {
  switch (rule) {
    case RuleId::kUpgPkFromIdentifiers:
      return member == "enforced" ? clauses::kUpgNotEnforced : clauses::kUpgSinglePk;
    case RuleId::kUpdDefinitionImmutable:
      return member == "expression" ? clauses::kUpdExpression : clauses::kUpdFieldIds;
    case RuleId::kDefNameUnique:
      return member == "constraint-id" ? clauses::kDefNameNotIdentifier
                                       : clauses::kDefNameUnique;
    default:
      return Clause{rule, {}};
  }
}

void JudgeDefinition(const ConstraintExpectation& e, const Constraint& got,
                     Findings& out) {
  const std::string ptr = got.id ? fmt::format("constraint {}", *got.id) : e.name;
  const Constraint& want = e.definition;
  if (want.type && got.type != want.type) {
    out.push_back(MakeFinding(ExpectationClause(e.rule, "type"),
                              fmt::format("{} has type {}, expected {}", e.name,
                                          got.raw_type, ToString(*want.type)),
                              got.id));
  }
  if (want.enforced && got.enforced != want.enforced) {
    out.push_back(MakeFinding(ExpectationClause(e.rule, "enforced"),
                              fmt::format("{} has enforced={}, expected {}", e.name,
                                          got.enforced.value_or(false), *want.enforced),
                              got.id));
  }
  // An existing constraint's definition must not change (upd.definition-immutable); a
  // new one must carry what was asked.
  const RuleId def_rule = e.id ? RuleId::kUpdDefinitionImmutable : e.rule;
  if (want.expression != got.expression) {
    out.push_back(
        MakeFinding(ExpectationClause(def_rule, "expression"),
                    fmt::format("{} has expression {}, expected {}", e.name,
                                got.expression ? ToString(*got.expression) : "none",
                                want.expression ? ToString(*want.expression) : "none"),
                    got.id));
  }
  if (want.field_ids.has_value() != got.field_ids.has_value() ||
      (want.field_ids && Sorted(*want.field_ids) != Sorted(*got.field_ids))) {
    out.push_back(
        MakeFinding(ExpectationClause(def_rule, "field-ids"),
                    fmt::format("{} has other field-ids", e.name), got.id));
  }
  if (e.timestamp_must_change_from && got.timestamp_ms == e.timestamp_must_change_from) {
    out.push_back(MakeFinding(RuleId::kUpdTimestamp,
                              fmt::format("{} was updated but kept timestamp-ms {}",
                                          e.name, *e.timestamp_must_change_from),
                              got.id));
  }
  JudgeConstraintTimestamp(e, got, out);
}

/// Whether the metadata before the request had no `last-constraint-id`, which "is treated
/// as 0 when it is not present" (id.last-default-zero): the upgrade to v4 of a table that
/// never had a constraint (v1-v3 metadata has no last-constraint-id).
bool BaseLastConstraintIdAbsent(const MetadataExpectation& exp) {
  return exp.format_version_rule == RuleId::kIceFormatVersionUp &&
         exp.format_version >= 4 && exp.base_last_constraint_id == 0 &&
         exp.seen_ids.empty();
}

/// The constraints of the answer against the expectations: each expected one present with
/// its definition, nothing else; new IDs above the previous last-constraint-id and never
/// reused; last-constraint-id the highest assigned.
void JudgeConstraints(const MetadataExpectation& exp, const TableMetadata& md,
                      Findings& out) {
  const std::vector<Constraint>& got = ConstraintsOf(md);
  std::vector<bool> matched(got.size(), false);
  ConstraintId highest_new = 0;
  for (const ConstraintExpectation& e : exp.constraints) {
    size_t i = 0;
    while (i < got.size() && !(got[i].name == e.name)) ++i;
    if (i == got.size()) {
      if (!e.optional) {
        out.push_back(
            MakeFinding(ExpectationClause(e.rule, "constraint"),
                        fmt::format("constraint {} is missing", e.name), e.id));
      }
      continue;
    }
    matched[i] = true;
    const Constraint& c = got[i];
    JudgeDefinition(e, c, out);
    if (e.id) {
      if (c.id != e.id) {
        out.push_back(
            MakeFinding(ExpectationClause(e.id_rule.value_or(e.rule), "constraint-id"),
                        fmt::format("constraint {} changed its ID from {} to {}", e.name,
                                    *e.id, c.id.value_or(0)),
                        e.id));
      }
      continue;
    }
    if (!c.id) {
      out.push_back(
          MakeFinding(RuleId::kDefRequiredFields,
                      fmt::format("new constraint {} has no constraint-id", e.name)));
      continue;
    }
    highest_new = std::max(highest_new, *c.id);
    Require(out, IdAboveLast(*c.id, exp.base_last_constraint_id), RuleId::kIdAboveLast,
            fmt::format("new constraint {} has ID {}, not above last-constraint-id {}",
                        e.name, *c.id, exp.base_last_constraint_id),
            c.id);
    // "treated as 0 when it is not present" (id.last-default-zero): an ID of 0 or less
    // where last-constraint-id was absent numbers from something other than 0.
    Require(out, *c.id > 0 || !BaseLastConstraintIdAbsent(exp),
            RuleId::kIdLastDefaultZero,
            fmt::format("new constraint {} has ID {}, but the absent last-constraint-id "
                        "is 0",
                        e.name, *c.id),
            c.id);
    Require(out, IdNotReused(*c.id, exp.removed_ids), RuleId::kIdNoReuse,
            fmt::format("new constraint {} reuses the removed ID {}", e.name, *c.id),
            c.id);
    Require(out, c.timestamp_ms.has_value(), RuleId::kDefRequiredFields,
            fmt::format("new constraint {} has no timestamp-ms", e.name), c.id);
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (matched[i]) continue;
    out.push_back(
        MakeFinding(exp.unexpected_constraint_rule == RuleId::kUpgSkipIneligible
                        ? clauses::kUpgNoConstraint
                        : Clause{exp.unexpected_constraint_rule, {}},
                    fmt::format("unexpected constraint {} (ID {}){}",
                                got[i].name.value_or("<no name>"), got[i].id.value_or(0),
                                exp.unexpected_constraint_rule == RuleId::kUpgSkipIneligible
                                    ? ": an identifier field cannot be in a primary key, "
                                      "so the upgrade creates no constraint"
                                    : ""),
                    got[i].id));
  }
  const ConstraintId want_last = std::max(exp.base_last_constraint_id, highest_new);
  const ConstraintId last = LastConstraintId(md);
  Require(out, LastConstraintIdUpdated(last, exp.base_last_constraint_id, highest_new),
          RuleId::kIdUpdateLast,
          fmt::format("last-constraint-id is {}, the highest assigned ID is {}", last,
                      want_last));
  // Where last-constraint-id was absent and no ID was assigned, the answer's value can only
  // come from the default, which is 0 (id.last-default-zero).
  Require(out,
          LastConstraintIdUpdated(last, exp.base_last_constraint_id, highest_new) ||
              !BaseLastConstraintIdAbsent(exp) || highest_new != 0,
          RuleId::kIdLastDefaultZero,
          fmt::format("last-constraint-id was absent, which is 0, and no constraint was "
                      "added, but the answer has {}",
                      last));
}

void JudgeStatuses(const SnapshotExpectation& exp, const Snapshot& snap, StaleIds stale,
                   Findings& out) {
  std::vector<ConstraintId> existing;
  for (const StatusExpectation& e : exp.statuses)
    if (e.id && !e.may_be_unlisted) existing.push_back(*e.id);
  Switches switches;
  switches.stale_ids_in_new_snapshot = stale;
  // st.every-snapshot, st.exactly-one-list and stale IDs (status_rules.h).
  Findings lists = CheckNewSnapshotStatuses(snap.constraint_statuses, existing, switches,
                                            fmt::format("snapshot {}", snap.snapshot_id));
  if (!exp.statuses_required && !snap.constraint_statuses) lists.clear();
  // After a retry the lists must be "recomputed from the new parent"
  // (enf.retry-recompute-statuses): a list that misses a constraint the new parent has,
  // or names one it removed, breaks that rule too.
  if (exp.retry)
    for (size_t i = 0, n = lists.size(); i < n; ++i) {
      Finding f = lists[i];
      f.rule = RuleId::kEnfRetryRecomputeStatuses;
      lists.push_back(std::move(f));
    }
  out.insert(out.end(), lists.begin(), lists.end());
  if (!snap.constraint_statuses) return;
  // "A constraint must not be listed with a status unless the status's description above
  // holds for the snapshot" (st.sound): each listed status in its allowed set.
  const ConstraintStatuses& st = *snap.constraint_statuses;
  for (const StatusExpectation& e : exp.statuses) {
    if (!e.id) continue;
    for (ConstraintStatus s : kAllStatuses) {
      const auto& list = st.List(s);
      if (!list || std::find(list->begin(), list->end(), *e.id) == list->end()) continue;
      if (e.allowed.Contains(s)) continue;
      Clause clause = ClauseBrokenByListedStatus(s, e.context);
      if (s == ConstraintStatus::kValid &&
          !UdfStatusPermits(e.context, s, /*as_carry=*/false, switches))
        clause = clauses::kExprUdfNotValid;
      // A UDF check recorded with its parent's validated status by a commit that added
      // no rows, where that status no longer holds: the parent's status was kept, which
      // "a writer must not ... keep the parent snapshot's status for it" forbids
      // (expr.udf-status/no-carry), rather than a check that found the rows holding.
      if (s == ConstraintStatus::kValidated && !e.context.commit_added_rows &&
          e.context.parent_status == s &&
          !UdfStatusPermits(e.context, s, /*as_carry=*/true, switches))
        clause = clauses::kExprUdfNoCarry;
      const RuleId rule = clause.rule;
      const std::string detail =
          fmt::format("constraint {} (ID {}) is recorded {}; allowed {}", e.name, *e.id,
                      ToString(s), ToString(e.allowed));
      out.push_back(MakeFinding(clause, detail, e.id));
      // expr.udf-status as the other rule is about a status kept from the parent.
      const bool kept = s == e.context.parent_status;
      if (e.also_rule && *e.also_rule != rule &&
          (*e.also_rule != RuleId::kExprUdfStatus || kept))
        out.push_back(MakeFinding(*e.also_rule != RuleId::kExprUdfStatus
                                      ? Clause{*e.also_rule, {}}
                                  : s == ConstraintStatus::kValid ? clauses::kExprUdfNotValid
                                                                  : clauses::kExprUdfNoCarry,
                                  detail, e.id));
    }
  }
}

void JudgeSnapshot(const MetadataExpectation& exp, const TableMetadata& md,
                   Findings& out) {
  const Snapshot* cur = md.CurrentSnapshot();
  if (!exp.new_snapshot) {
    const std::optional<SnapshotId> got =
        cur ? std::optional<SnapshotId>(cur->snapshot_id) : std::nullopt;
    Require(
        out, got == exp.current_snapshot_id, RuleId::kProtoAnswer,
        fmt::format("the current snapshot changed from {} to {}",
                    exp.current_snapshot_id ? fmt::format("{}", *exp.current_snapshot_id)
                                            : "none",
                    got ? fmt::format("{}", *got) : "none"));
    return;
  }
  const SnapshotExpectation& se = *exp.new_snapshot;
  if (cur == nullptr) {
    // A current-snapshot-id that names no snapshot breaks ice.current-snapshot-exists
    // (JudgeIcebergMetadata reports it, under that rule); only an answer without one is
    // the protocol's finding.
    if (!md.current_snapshot_id || *md.current_snapshot_id == -1)
      out.push_back(
          MakeFinding(RuleId::kProtoAnswer, "the answer has no current snapshot"));
    return;
  }
  if (se.parent_snapshot_id && cur->snapshot_id == *se.parent_snapshot_id) {
    out.push_back(
        MakeFinding(RuleId::kProtoAnswer,
                    fmt::format("no new snapshot: the current snapshot is still {}",
                                cur->snapshot_id)));
    return;
  }
  if (cur->parent_snapshot_id != se.parent_snapshot_id) {
    out.push_back(MakeFinding(
        se.retry ? RuleId::kEnfRetryRecomputeStatuses : RuleId::kProtoAnswer,
        fmt::format(
            "the new snapshot's parent is {}, expected {}",
            cur->parent_snapshot_id ? fmt::format("{}", *cur->parent_snapshot_id)
                                    : "none",
            se.parent_snapshot_id ? fmt::format("{}", *se.parent_snapshot_id) : "none")));
  }
  if (!se.operation.empty() && cur->operation() != se.operation) {
    out.push_back(
        MakeFinding(RuleId::kProtoAnswer,
                    fmt::format("the new snapshot's operation is '{}', expected '{}'",
                                cur->operation(), se.operation)));
  }
  // "in v4 a snapshot's timestamp-ms is strictly greater than its parent's"
  // (ice.v4-snapshot-timestamps, iceberg_rules.h)
  Findings ts = CheckV4SnapshotTimestamps(md);
  out.insert(out.end(), ts.begin(), ts.end());
  if (md.format_version >= 4) JudgeStatuses(se, *cur, exp.stale_ids, out);
}

/// Siblings under one parent: the expected fields against the answered ones.
void JudgeFields(const std::vector<NestedField>& want,
                 const std::vector<NestedField>& got, FieldId base_last_column_id,
                 const std::string& where, Findings& out) {
  std::vector<std::string> want_names, got_names;
  for (const NestedField& f : got) got_names.push_back(f.name);
  for (const NestedField& w : want) {
    want_names.push_back(w.name);
    const bool is_new = w.id > base_last_column_id;
    const NestedField* g = nullptr;
    for (const NestedField& f : got) {
      if (is_new ? f.name == w.name : f.id == w.id) {
        g = &f;
        break;
      }
    }
    if (g == nullptr) {
      out.push_back(MakeFinding(
          RuleId::kIceSchemaEvolution,
          is_new ? fmt::format("added field {}{} is missing", where, w.name)
                 : fmt::format("field {} ({}{}) is missing", w.id, where, w.name)));
      continue;
    }
    if (is_new) {
      Require(out, g->id > base_last_column_id, clauses::kIceEvolutionNewIdsAboveLast,
              fmt::format("added field {}{} has ID {}, not above last-column-id {}",
                          where, w.name, g->id, base_last_column_id));
    } else {
      Require(
          out, g->name == w.name, RuleId::kSchRenameReorder,
          fmt::format("field {} is named '{}', expected '{}'", w.id, g->name, w.name));
    }
    Require(out, g->required == w.required, RuleId::kIceSchemaEvolution,
            fmt::format("field {}{} has required={}, expected {}", where, w.name,
                        g->required, w.required));
    if (g->type.id != w.type.id) {
      out.push_back(
          MakeFinding(RuleId::kIceTypePromotion,
                      fmt::format("field {}{} has type {}, expected {}", where, w.name,
                                  ToString(g->type), ToString(w.type))));
    } else if (w.type.id == TypeId::kStruct) {
      JudgeFields(w.type.fields, g->type.fields, base_last_column_id,
                  fmt::format("{}{}.", where, w.name), out);
    } else if (IsPrimitive(w.type.id)) {
      Require(out, g->type == w.type, RuleId::kIceTypePromotion,
              fmt::format("field {}{} has type {}, expected {}", where, w.name,
                          ToString(g->type), ToString(w.type)));
    }
  }
  for (const std::string& name : got_names) {
    if (std::find(want_names.begin(), want_names.end(), name) == want_names.end()) {
      out.push_back(MakeFinding(
          RuleId::kIceSchemaEvolution,
          fmt::format("field {}{} should not be in the schema", where, name)));
    }
  }
  std::vector<std::string> want_sorted = want_names, got_sorted = got_names;
  std::sort(want_sorted.begin(), want_sorted.end());
  std::sort(got_sorted.begin(), got_sorted.end());
  if (want_sorted == got_sorted && want_names != got_names) {
    // "Renaming or reordering a constraint-referenced field is allowed": the order asked
    // for must be the order answered.
    out.push_back(MakeFinding(
        RuleId::kSchRenameReorder,
        fmt::format("fields {}are in the order [{}], expected [{}]", where,
                    fmt::join(got_names, ", "), fmt::join(want_names, ", "))));
  }
}

}  // namespace

Findings JudgeSchemaFields(const std::vector<NestedField>& want,
                           const std::vector<NestedField>& got,
                           FieldId base_last_column_id) {
  Findings out;
  JudgeFields(want, got, base_last_column_id, "", out);
  return out;
}

namespace {

void JudgeSchemas(const MetadataExpectation& exp, const TableMetadata& md,
                  Findings& out) {
  const Schema* schema = md.CurrentSchema();
  // A current-schema-id that names no schema breaks ice.current-schema-exists
  // (JudgeIcebergMetadata reports it). The checks of the current schema's fields (every
  // referenced field in it, the fields a change asked for) have no schema to look at:
  // filing the answer under sch.referenced-exist or ice.schema-evolution would name rules
  // it did not break.
  if (schema == nullptr && md.current_schema_id) {
    if (md.format_version >= 4)
      for (Finding& f : CheckNoIdentifiersInAddedSchemas(md, exp.base_schema_ids))
        out.push_back(std::move(f));
    return;
  }
  if (md.format_version >= 4) {
    for (Finding& f : CheckNoIdentifiersInAddedSchemas(md, exp.base_schema_ids))
      out.push_back(std::move(f));
    // "Every field referenced by a constraint must exist in the table's current schema."
    for (const Constraint& c : ConstraintsOf(md)) {
      for (FieldId id : ReferencedFieldIds(c)) {
        Require(out, schema != nullptr && FindField(*schema, id).has_value(),
                RuleId::kSchReferencedExist,
                fmt::format("constraint {} references field {}, which the current schema "
                            "lacks",
                            c.name.value_or("?"), id),
                c.id);
      }
    }
  }
  if (exp.new_schema_required) {
    Require(
        out,
        schema != nullptr && !exp.base_schema_ids.count(schema->schema_id.value_or(0)),
        RuleId::kIceSchemaEvolution, "a schema change must make a new current schema");
  }
  if (exp.expected_schema) {
    if (schema == nullptr) {
      out.push_back(
          MakeFinding(RuleId::kProtoAnswer, "the answer has no current schema"));
      return;
    }
    JudgeFields(exp.expected_schema->fields, schema->fields, exp.base_last_column_id, "",
                out);
  }
}

/// The surrounding Iceberg rules every table metadata a writer answers keeps (ice.*,
/// iceberg_rules.h: a current schema, spec, sort order and snapshot that exist, refs that
/// name snapshots, the members each format version requires and allows, field IDs unique,
/// ...), and the table's identity: "table-uuid ... identifies the table", so no change to
/// the table gives it another (ice.table-uuid/identifies-the-table). A finding the
/// expectations above already made under the same rule is not repeated.
void JudgeIcebergMetadata(const MetadataExpectation& exp, const TableMetadata& md,
                          Findings& out) {
  const auto has_rule = [&out](RuleId rule) {
    return std::any_of(out.begin(), out.end(),
                       [rule](const Finding& f) { return f.rule == rule; });
  };
  Findings ice = CheckIcebergMetadata(md);
  for (Finding& f : CheckTableUuidKept(exp.base_table_uuid, md)) ice.push_back(std::move(f));
  for (Finding& f : ice)
    if (!has_rule(f.rule)) out.push_back(std::move(f));
}

/// "every timestamp the implementation writes comes from it" (the request's `now-ms`;
/// proto.timestamp-from-now/every-timestamp, docs/protocol.md section 10): the new
/// snapshot's `timestamp-ms` and the `last-updated-ms` of a request that changes the
/// table, where ExpectTimestampsFromNow (operations.h) demands them. A snapshot whose
/// timestamp is not above its parent's is reported once, under
/// ice.v4-snapshot-timestamps (its last-updated-ms is then not judged either: a writer
/// that dates a write wrong dates both wrong).
void JudgeTimestampsFromNow(const MetadataExpectation& exp, const TableMetadata& md,
                            Findings& out) {
  const Snapshot* cur = md.CurrentSnapshot();
  const bool not_increasing = std::any_of(out.begin(), out.end(), [](const Finding& f) {
    return f.rule == RuleId::kIceV4SnapshotTimestamps;
  });
  if (not_increasing) return;  // the snapshot's time is reported once, there
  if (exp.new_snapshot && exp.new_snapshot->timestamp_must_be && cur != nullptr &&
      cur->snapshot_id != exp.new_snapshot->parent_snapshot_id &&
      cur->timestamp_ms != *exp.new_snapshot->timestamp_must_be) {
    out.push_back(MakeFinding(
        clauses::kProtoTimestampEvery,
        fmt::format(
            "the new snapshot {} has timestamp-ms {}, but it must be the request's "
            "now-ms {}",
            cur->snapshot_id, cur->timestamp_ms, *exp.new_snapshot->timestamp_must_be),
        std::nullopt, "/snapshots"));
  }
  if (exp.last_updated_must_be && md.last_updated_ms != *exp.last_updated_must_be) {
    out.push_back(MakeFinding(
        clauses::kProtoTimestampEvery,
        fmt::format(
            "last-updated-ms is {}, but the request changed the table, so it must "
            "be the request's now-ms {}",
            md.last_updated_ms, *exp.last_updated_must_be),
        std::nullopt, "/last-updated-ms"));
  }
}

}  // namespace

namespace internal {

void JudgeMetadata(const MetadataExpectation& exp, const TableMetadata& md,
                   Findings& out) {
  Require(out, md.format_version == exp.format_version, exp.format_version_rule,
          fmt::format("format-version is {}, expected {}", md.format_version,
                      exp.format_version));
  if (md.format_version < 4) {
    // "Constraints are added in v4 and are not supported in v3 or earlier." (def.v4-only)
    Findings v4 = CheckV4OnlyFields(md);
    out.insert(out.end(), v4.begin(), v4.end());
  } else {
    JudgeConstraints(exp, md, out);
  }
  JudgeSnapshot(exp, md, out);
  JudgeTimestampsFromNow(exp, md, out);
  JudgeSchemas(exp, md, out);
  JudgeIcebergMetadata(exp, md, out);
}

}  // namespace internal

Findings JudgeReturnedMetadata(const TableMetadata& metadata, const TableState* before) {
  Findings out = CheckIdsAtMostLast(metadata);
  if (before) AppendFindings(out, CheckNoRemovedIdReused(metadata, before->removed_constraint_ids));
  AppendFindings(out, CheckReferencedFieldsExist(metadata));
  AppendFindings(out, CheckCurrentStatusListedOnce(metadata));
  AppendFindings(out, CheckV4SnapshotTimestamps(metadata));
  if (before && before->metadata.format_version >= 4) {
    std::set<int32_t> old;
    for (const Schema& s : before->metadata.schemas) old.insert(s.schema_id.value_or(0));
    AppendFindings(out, CheckNoIdentifiersInAddedSchemas(metadata, old));
  }
  return out;
}

}  // namespace ictk
