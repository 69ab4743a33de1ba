/// \file
/// Adding, updating and removing a constraint: def.v4-only, the definition rules (called
/// from constraint_rules.h, not restated here), the rows already in the table when a
/// constraint becomes enforced (switch existing-rows-on-enforce), and the ID rules the
/// answer must follow (judged in outcome.cc).
#include <fmt/format.h>

#include "model/rules/constraint_rules.h"
#include "model/rules/definition_rules.h"
#include "model/rules/id_rules.h"
#include "model/judge/operations_internal.h"

namespace ictk::internal {

namespace {

/// "Constraints are added in v4 and are not supported in v3 or earlier." (def.v4-only):
/// "adding a constraint to a v1–v3 table is rejected" with unsupported-format-version.
bool V4Only(const TableMetadata& md, OutcomeBuilder& b) {
  if (ConstraintsSupported(md.format_version)) return true;
  b.MustReject(
      RejectKind::kUnsupportedFormatVersion,
      MakeFinding(RuleId::kDefV4Only,
                  fmt::format("a v{} table cannot have constraints", md.format_version)));
  return false;
}

struct RowsVerdict {
  bool holds = false;
  bool violated = false;
  bool unevaluable = false;
};

/// Whether `c` holds on every live row of `table` (a full scan: the constraint is new).
RowsVerdict CheckExistingRows(const TableState& table, const Constraint& c,
                              const FunctionCatalog& functions) {
  RowsVerdict v;
  const Schema* schema = table.metadata.CurrentSchema();
  if (schema == nullptr) return v;
  if (c.type == ConstraintType::kCheck) {
    const CheckTally t = TallyCheck(c, schema->fields, table.rows, functions);
    v.holds = t.holds();
    v.violated = t.violating > 0;
    v.unevaluable = t.unevaluable > 0;
    return v;
  }
  std::optional<KeyIndex> index = KeyIndex::ForConstraint(c, *schema);
  if (!index) return v;
  for (const auto& [key, values] : table.rows) index->Insert(values);
  v.holds = index->Holds();
  v.violated = !v.holds;
  return v;
}

/// Rows already in the table when a constraint becomes enforced (it is added enforced, or
/// `enforced` is set on it): "writers must ensure that written data conform to the
/// constraint" (enf.enforced) does not say whether existing rows count. Switch
/// existing-rows-on-enforce: `either` (accept, or reject with constraint-violation),
/// `reject`, `accept`. An enforced check that cannot be evaluated on existing rows may be
/// refused as unverifiable-constraint.
void ExistingRowsOnEnforce(const RowsVerdict& v, const std::string& name,
                           std::optional<ConstraintId> id, const Switches& switches,
                           OutcomeBuilder& b) {
  if (v.unevaluable) {
    b.MayReject(
        RejectKind::kUnverifiableConstraint,
        MakeFinding(
            RuleId::kEnfEnforced,
            fmt::format("enforced check {} cannot be evaluated on existing rows", name),
            id));
  }
  if (!v.violated) return;
  const Finding f = MakeFinding(
      RuleId::kEnfEnforced,
      fmt::format(
          "existing rows violate {}, which becomes enforced (existing-rows-on-enforce)",
          name),
      id);
  switch (switches.existing_rows_on_enforce) {
    case ExistingRowsOnEnforce::kEither:
      b.MayReject(RejectKind::kConstraintViolation, f);
      break;
    case ExistingRowsOnEnforce::kReject:
      b.MustReject(RejectKind::kConstraintViolation, f);
      break;
    case ExistingRowsOnEnforce::kAccept:
      b.Because(f);
      break;
  }
}

/// The existing constraint of `md` that `candidate` clashes with under `rule`: the one
/// with its name (def.name-unique) or the primary key already there (def.single-pk).
std::optional<ConstraintId> ClashingConstraint(const TableMetadata& md,
                                               const Constraint& candidate, RuleId rule,
                                               const Switches& switches) {
  for (const Constraint& c : ConstraintsOf(md)) {
    if (!c.id || c.id == candidate.id) continue;
    if (rule == RuleId::kDefNameUnique && c.name && candidate.name &&
        SameConstraintName(*c.name, *candidate.name, switches))
      return c.id;
    if (rule == RuleId::kDefSinglePk && c.type == ConstraintType::kPrimaryKey &&
        candidate.type == ConstraintType::kPrimaryKey)
      return c.id;
  }
  return std::nullopt;
}

/// The request's definition with the ID and timestamp the reference assigns.
Constraint Candidate(const Constraint& requested, ConstraintId id, int64_t now) {
  Constraint c = requested;
  c.id = id;
  c.timestamp_ms = now;
  if (c.type && c.raw_type.empty()) c.raw_type = std::string(ToString(*c.type));
  return c;
}

}  // namespace

AllowedOutcome ApplyAddConstraint(const CatalogState& state, const Request& request,
                                  const AddConstraint& op, const Switches& switches) {
  const TableState* table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  OutcomeBuilder b;
  const bool v4 = V4Only(table->metadata, b);
  const Schema* schema = table->metadata.CurrentSchema();
  if (schema == nullptr) {
    if (!v4) return std::move(b).Build();
    return InvalidRequest("the table has no current schema");
  }
  const Constraint& requested = op.constraint;
  // The definition is judged on a v1-v3 table too: a request with both causes allows
  // either kind. The candidate has no ID yet, so these rejections are about no existing
  // constraint.
  for (Finding& f : CheckConstraintDefinition(requested, *schema, state.functions,
                                              DefinitionSource::kRequest)) {
    f.constraint_id.reset();
    b.MustReject(RejectKind::kInvalidConstraint, std::move(f));
  }
  if (!v4) return std::move(b).Build();
  const ConstraintId next = LowestIdAboveLast(LastConstraintId(table->metadata));
  std::vector<Constraint> after = ConstraintsOf(table->metadata);
  after.push_back(Candidate(requested, next, request.now_ms.value_or(0)));
  for (Finding& f : CheckConstraintSet(after, switches)) {
    if (f.constraint_id == next) {
      // About the existing constraint the candidate clashes with (a duplicate name, a
      // second primary key), not the candidate's provisional ID.
      f.constraint_id.reset();
      if (std::optional<ConstraintId> other =
              ClashingConstraint(table->metadata, after.back(), f.rule, switches))
        f.constraint_id = other;
    }
    b.MustReject(RejectKind::kInvalidConstraint, std::move(f));
  }
  if (b.must_reject()) return std::move(b).Build();
  if (requested.enforced.value_or(false)) {
    ExistingRowsOnEnforce(CheckExistingRows(*table, after.back(), state.functions),
                          requested.name.value_or(""), std::nullopt, switches, b);
  }
  MetadataExpectation exp = BaseExpectation(*table, switches);
  ConstraintExpectation e;
  e.name = requested.name.value_or("");
  e.definition.type = requested.type;
  e.definition.enforced = requested.enforced;
  e.definition.expression = requested.expression;
  e.definition.field_ids = requested.field_ids;
  e.rule = RuleId::kProtoAnswer;
  e.timestamp_must_be = request.now_ms;  // proto.timestamp-from-now
  exp.constraints.push_back(std::move(e));
  b.Because(MakeFinding(RuleId::kIdAboveLast,
                        fmt::format("the new constraint's ID must be above {}",
                                    exp.base_last_constraint_id)));
  // "Fields of a unique constraint may be optional or nested in optional structs"
  // (key.unique-optional-ok): a unique key on such a field is accepted because of it.
  if (requested.type == ConstraintType::kUnique && requested.field_ids) {
    for (FieldId id : *requested.field_ids) {
      const std::optional<FieldLocation> loc = FindField(*schema, id);
      if (!loc || (loc->field.required && !loc->under_optional_struct)) continue;
      b.BecauseFirst(MakeFinding(
          loc->under_optional_struct ? clauses::kKeyUniqueOptionalParent
                                     : clauses::kKeyUniqueOwnFlag,
          fmt::format("field {} of a unique key is {}", id,
                      loc->field.required ? "nested in an optional struct" : "optional")));
      break;
    }
  }
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

namespace {

/// The table and the constraint a request names (update-constraint, remove-constraint);
/// when either is unknown, the outcome to answer instead: `invalid-request`
/// (proto.request), or for a table before v4 also `unsupported-format-version`
/// (def.v4-only).
std::optional<AllowedOutcome> FindNamedConstraint(const CatalogState& state,
                                                  const Request& request,
                                                  const std::string& name,
                                                  const Switches& switches,
                                                  const TableState*& table,
                                                  const Constraint*& constraint) {
  table = TableOf(state, request);
  if (table == nullptr)
    return InvalidRequest(fmt::format("unknown table '{}'", request.table),
                          clauses::kProtoRequestUnknownTable);
  const bool insensitive = switches.name_case == NameCase::kInsensitive;
  constraint = FindConstraintByName(table->metadata, name, insensitive);
  if (constraint != nullptr && constraint->id) return std::nullopt;
  OutcomeBuilder b;
  b.MustReject(RejectKind::kInvalidRequest,
               MakeFinding(clauses::kProtoRequestUnknownConstraint,
                           fmt::format("unknown constraint '{}'", name)));
  if (!ConstraintsSupported(table->metadata.format_version)) {
    b.MayReject(RejectKind::kUnsupportedFormatVersion,
                MakeFinding(RuleId::kDefV4Only, "constraints are not supported before v4"));
  }
  return std::move(b).Build();
}

/// The existing rows against `before` (the verdict its key index or check tally keeps),
/// for an update that makes it enforced.
RowsVerdict ExistingRowsVerdict(const CatalogState& state, const TableState& table,
                                const Constraint& before) {
  RowsVerdict v;
  if (before.type == ConstraintType::kCheck) {
    auto it = table.check_tallies.find(*before.id);
    if (it != table.check_tallies.end()) {
      v.holds = it->second.holds();
      v.violated = it->second.violating > 0;
      v.unevaluable = it->second.unevaluable > 0;
    }
  } else {
    auto it = table.key_indexes.find(*before.id);
    if (it != table.key_indexes.end()) {
      v.holds = it->second.Holds();
      v.violated = !v.holds;
    }
  }
  // An enforced check that calls a UDF which is no longer deterministic cannot be
  // verified on the existing rows (expr.deterministic): refusing it as
  // unverifiable-constraint is allowed, as for a commit that writes rows.
  if (before.type == ConstraintType::kCheck && !table.rows.empty() &&
      !CheckExprDeterministic(before, state.functions).empty())
    v.unevaluable = true;
  return v;
}

}  // namespace

AllowedOutcome ApplyUpdateConstraint(const CatalogState& state, const Request& request,
                                     const UpdateConstraint& op,
                                     const Switches& switches) {
  const TableState* table = nullptr;
  const Constraint* before = nullptr;
  if (std::optional<AllowedOutcome> unknown =
          FindNamedConstraint(state, request, op.name, switches, table, before))
    return std::move(*unknown);
  OutcomeBuilder b;
  // upd.*: the update rules, and switch restated-definition for a `set` that restates the
  // current expression, field-ids or type (CheckConstraintUpdate appends those findings
  // under `reject`).
  Switches strict = switches;
  strict.restated_definition = RestatedDefinition::kReject;
  const Findings base_findings = CheckConstraintUpdate(*before, op.set);
  const Findings strict_findings = CheckConstraintUpdate(*before, op.set, strict);
  for (size_t i = 0; i < strict_findings.size(); ++i) {
    const bool restatement = i >= base_findings.size();
    if (!restatement || switches.restated_definition == RestatedDefinition::kReject) {
      b.MustReject(RejectKind::kInvalidConstraintUpdate, strict_findings[i]);
    } else if (switches.restated_definition == RestatedDefinition::kEither) {
      b.MayReject(RejectKind::kInvalidConstraintUpdate, strict_findings[i]);
    }
  }
  Constraint updated = *before;
  if (op.set.name) updated.name = op.set.name;
  if (op.set.enforced) updated.enforced = op.set.enforced;
  if (op.set.name) {
    // A new name that another constraint has: judged even when the update also breaks
    // an upd.* rule, so that either kind passes. The rejection is about the updated
    // constraint and the one whose name it takes.
    std::vector<Constraint> after;
    for (const Constraint& c : ConstraintsOf(table->metadata))
      after.push_back(c.id == before->id ? updated : c);
    for (Finding& f : CheckConstraintSet(after, switches)) {
      b.MustReject(RejectKind::kInvalidConstraintUpdate, f);
      b.MayReject(RejectKind::kInvalidConstraint, f);
      for (RejectKind kind :
           {RejectKind::kInvalidConstraintUpdate, RejectKind::kInvalidConstraint}) {
        b.About(kind, *before->id);
        if (std::optional<ConstraintId> other =
                ClashingConstraint(table->metadata, updated, f.rule, switches))
          b.About(kind, *other);
      }
    }
  }
  if (b.must_reject()) return std::move(b).Build();
  const bool becomes_enforced =
      updated.enforced.value_or(false) && !before->enforced.value_or(false);
  if (becomes_enforced) {
    RowsVerdict v = ExistingRowsVerdict(state, *table, *before);
    ExistingRowsOnEnforce(v, updated.name.value_or(""), before->id, switches, b);
  }
  MetadataExpectation exp = BaseExpectation(*table, switches);
  for (ConstraintExpectation& e : exp.constraints) {
    if (e.id != before->id) continue;
    e.name = updated.name.value_or("");
    e.definition.enforced = updated.enforced;
    e.rule = RuleId::kUpdNameEnforcedOnly;
    // A renamed constraint that comes back under another ID was identified by its name,
    // which "must not be used to identify a constraint in metadata"
    // (def.name-unique/not-identifier): the more specific rule for that ID.
    if (updated.name != before->name) e.id_rule = RuleId::kDefNameUnique;
    // "timestamp-ms must be updated when the constraint is updated" (upd.timestamp)
    if (TimestampMustBeUpdated(*before, updated)) {
      e.timestamp_must_change_from = before->timestamp_ms;
      e.timestamp_must_be = request.now_ms;  // proto.timestamp-from-now
    }
  }
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

AllowedOutcome ApplyRemoveConstraint(const CatalogState& state, const Request& request,
                                     const RemoveConstraint& op,
                                     const Switches& switches) {
  const TableState* table = nullptr;
  const Constraint* c = nullptr;
  if (std::optional<AllowedOutcome> unknown =
          FindNamedConstraint(state, request, op.name, switches, table, c))
    return std::move(*unknown);
  OutcomeBuilder b;
  MetadataExpectation exp = BaseExpectation(*table, switches);
  std::erase_if(exp.constraints,
                [&](const ConstraintExpectation& e) { return e.id == c->id; });
  b.Because(MakeFinding(
      RuleId::kIdNoReuse,
      fmt::format("ID {} must not be reused after this removal", *c->id), c->id));
  b.outcome().metadata = std::move(exp);
  return std::move(b).Build();
}

Findings AdoptMetadataChange(CatalogState& state, const Request& request,
                             const TableMetadata& answered, const Switches&) {
  auto it = state.tables.find(request.table);
  if (it == state.tables.end())
    return {
        MakeFinding(RuleId::kProtoAnswer, "a change to an unknown table was accepted")};
  TableState& table = it->second;
  std::set<ConstraintId> now_ids;
  for (const Constraint& c : ConstraintsOf(answered))
    if (c.id) now_ids.insert(*c.id);
  for (const Constraint& c : ConstraintsOf(table.metadata))
    if (c.id && !now_ids.count(*c.id)) table.removed_constraint_ids.insert(*c.id);
  table.seen_constraint_ids.insert(now_ids.begin(), now_ids.end());
  const bool constraints_changed =
      ConstraintsOf(table.metadata) != ConstraintsOf(answered);
  const bool schema_changed =
      table.metadata.format_version != answered.format_version ||
      table.metadata.current_schema_id != answered.current_schema_id ||
      table.metadata.schemas != answered.schemas;
  table.metadata = answered;
  ++table.versions.any;
  if (constraints_changed) ++table.versions.constraints;
  if (schema_changed) ++table.versions.schema;
  SyncDerived(table, state.functions);
  return {};
}

std::optional<TableMetadata> CanonicalAddConstraint(const TableState& table,
                                                    const Request& request,
                                                    const AddConstraint& op) {
  const int64_t now = request.now_ms.value_or(table.metadata.last_updated_ms + 1);
  TableMetadata md = NextMetadata(table.metadata, now);
  // The lowest ID that id.above-last allows.
  const ConstraintId id = LowestIdAboveLast(LastConstraintId(table.metadata));
  if (!md.constraints) md.constraints.emplace();
  md.constraints->push_back(Candidate(op.constraint, id, now));
  md.last_constraint_id = id;
  return md;
}

std::optional<TableMetadata> CanonicalUpdateConstraint(const TableState& table,
                                                       const Request& request,
                                                       const UpdateConstraint& op,
                                                       const Switches& switches) {
  const int64_t now = request.now_ms.value_or(table.metadata.last_updated_ms + 1);
  TableMetadata md = NextMetadata(table.metadata, now);
  const bool insensitive = switches.name_case == NameCase::kInsensitive;
  const Constraint* before = FindConstraintByName(table.metadata, op.name, insensitive);
  if (before == nullptr || !md.constraints) return md;
  for (Constraint& c : *md.constraints) {
    if (c.id != before->id) continue;
    if (op.set.name) c.name = op.set.name;
    if (op.set.enforced) c.enforced = op.set.enforced;
    if (TimestampMustBeUpdated(*before, c)) c.timestamp_ms = now;
  }
  return md;
}

std::optional<TableMetadata> CanonicalRemoveConstraint(const TableState& table,
                                                       const Request& request,
                                                       const RemoveConstraint& op,
                                                       const Switches& switches) {
  const int64_t now = request.now_ms.value_or(table.metadata.last_updated_ms + 1);
  TableMetadata md = NextMetadata(table.metadata, now);
  const bool insensitive = switches.name_case == NameCase::kInsensitive;
  const Constraint* c = FindConstraintByName(table.metadata, op.name, insensitive);
  if (c == nullptr || !md.constraints) return md;
  const std::optional<ConstraintId> id = c->id;
  std::erase_if(*md.constraints, [&](const Constraint& x) { return x.id == id; });
  return md;
}

}  // namespace ictk::internal
