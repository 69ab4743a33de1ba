/// \file
/// The engine's upgrade of a table's format version and its constraint DDL: add, update
/// and remove a constraint.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <variant>

#include "sample/engine_internal.h"
#include "sample/engine_support_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {
namespace {

/// What a constraint's problem returns: records rule `r` in `rule`, gives back `message`.
auto Failer(std::string& rule) {
  return [&rule](std::string r, std::string message) {
    rule = std::move(r);
    return message;
  };
}

}  // namespace

Reply Engine::UpgradeOp(Table& t, int64_t now, const Upgrade& op) {
  TableMetadata& md = t.meta;
  // unknown-version-ignored: takes an upgrade to a version it does not know as done.
  if (op.format_version > 4 && Has(Mutant::kUnknownVersionIgnored)) return Reply::Ok(md);
  if (op.format_version < 1 || op.format_version > 4) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("format version {} is not supported", op.format_version));
  }
  if (op.format_version < md.format_version && Has(Mutant::kDowngradeAccepted)) {
    md.format_version = op.format_version;
    md.last_updated_ms = std::max(md.last_updated_ms, now);
    return Reply::Ok(md);
  }
  if (op.format_version < md.format_version) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("cannot downgrade from v{} to v{} (ice.format-version-up)",
                    md.format_version, op.format_version));
  }
  if (op.format_version == md.format_version) return Reply::Ok(md);
  const int32_t from = md.format_version;
  md.format_version = op.format_version;
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  if (from == 1) {
    md.has_legacy_schema = false;
    md.has_legacy_partition_spec = false;
  }
  if (op.format_version >= 2 && !md.last_sequence_number) md.last_sequence_number = 0;
  if (op.format_version >= 3 && !md.next_row_id) md.next_row_id = 0;
  if (op.format_version >= 4) {
    // "last-constraint-id ... is treated as 0 when it is not present"
    // (id.last-default-zero); the mutant takes it as 1.
    md.last_constraint_id =
        md.last_constraint_id.value_or(Has(Mutant::kAbsentLastIdIsOne) ? 1 : 0);
    md.constraints = std::vector<Constraint>{};
    const Schema& schema = CurrentSchemaOf(md);
    if (schema.identifier_field_ids && !schema.identifier_field_ids->empty()) {
      const auto slots = IndexFields(schema.fields);
      bool eligible = true;
      for (FieldId id : *schema.identifier_field_ids) {
        auto it = slots.find(id);
        if (it == slots.end() || !CheckKeyField(it->second, true).problem.empty()) {
          eligible = false;
        }
      }
      if (!eligible && Has(Mutant::kUpgradeFailsOnIneligible)) {
        return Reply::Reject(kinds::kInvalidSchemaChange,
                             "an identifier field cannot be a primary-key field");
      }
      if ((eligible && !Has(Mutant::kUpgradeCreatesNoPk)) ||
          Has(Mutant::kUpgradeKeepsIneligiblePk)) {
        Constraint pk;
        pk.id = *md.last_constraint_id + 1 + IdGap();
        pk.type = ConstraintType::kPrimaryKey;
        pk.raw_type = "primary-key";
        pk.name = "pk";
        pk.enforced = Has(Mutant::kUpgradePkEnforced);
        pk.timestamp_ms = now;
        pk.field_ids = *schema.identifier_field_ids;
        md.last_constraint_id = *pk.id;
        md.constraints->push_back(std::move(pk));
      }
    }
  }
  return Reply::Ok(md);
}

std::string Engine::ConstraintProblem(const Constraint& c, const Schema& schema,
                                      const std::vector<Constraint>& others,
                                      std::string& rule, bool as_reader,
                                      std::optional<ConstraintId>* clash) const {
  std::string problem = DefinitionProblem(c, others, rule, as_reader, clash);
  if (!problem.empty()) return problem;
  if (*c.type == ConstraintType::kCheck) return CheckProblem(c, schema, rule, as_reader);
  return KeyProblem(c, schema, others, rule, as_reader, clash);
}

std::string Engine::DefinitionProblem(const Constraint& c,
                                      const std::vector<Constraint>& others,
                                      std::string& rule, bool as_reader,
                                      std::optional<ConstraintId>* clash) const {
  auto fail = Failer(rule);
  const bool writer = !as_reader;
  if (!c.type)
    return fail("def.types", fmt::format("'{}' is not a constraint type", c.raw_type));
  if (!c.name || c.name->empty())
    return fail("def.required-fields", "a constraint needs a name");
  if (!c.enforced) return fail("def.required-fields", "a constraint needs enforced");
  if (as_reader && (!c.id || !c.timestamp_ms) &&
      !Has(Mutant::kReaderAcceptsMissingIdOrTimestamp)) {
    return fail("def.required-fields",
                "a stored constraint needs constraint-id and timestamp-ms");
  }
  for (const Constraint& o : others) {
    if (o.name && *o.name == *c.name &&
        !(writer && Has(Mutant::kDuplicateNameAccepted))) {
      if (clash != nullptr) *clash = o.id;
      return fail("def.name-unique",
                  fmt::format("another constraint is named '{}'", *c.name));
    }
    if (as_reader && o.id && c.id && *o.id == *c.id &&
        !Has(Mutant::kReaderAcceptsDuplicateIds)) {
      return fail("def.id-unique", fmt::format("constraint ID {} is used twice", *c.id));
    }
  }
  return {};
}

std::string Engine::CheckProblem(const Constraint& c, const Schema& schema,
                                 std::string& rule, bool as_reader) const {
  auto fail = Failer(rule);
  const bool writer = !as_reader;
  if (!c.expression && writer && Has(Mutant::kCheckWithoutExpressionAccepted)) return {};
  if (!c.expression) return fail("def.check-expression", "a check needs an expression");
  if (c.field_ids && !(writer && Has(Mutant::kCheckFieldIdsAccepted)))
    return fail("def.key-field-ids", "a check must not set field-ids");
  UdfCatalog none;
  CompiledCheck check(*c.expression, schema.fields, as_reader ? none : udfs_,
                      CheckOpts());
  const CheckInfo& info = check.info();
  if (!info.error.empty()) return fail(info.error_rule, info.error);
  if (writer && !info.undefined_udfs.empty()) {
    return fail("expr.deterministic",
                fmt::format("function {} is not defined", info.undefined_udfs[0]));
  }
  if (writer && !info.nondeterministic_udfs.empty() &&
      !Has(Mutant::kNondeterministicUdfAccepted)) {
    return fail("expr.deterministic", fmt::format("function {} is not deterministic",
                                                  info.nondeterministic_udfs[0]));
  }
  return {};
}

std::string Engine::KeyProblem(const Constraint& c, const Schema& schema,
                               const std::vector<Constraint>& others, std::string& rule,
                               bool as_reader, std::optional<ConstraintId>* clash) const {
  auto fail = Failer(rule);
  const bool writer = !as_reader;
  const bool pk = *c.type == ConstraintType::kPrimaryKey;
  if (c.expression && !(writer && Has(Mutant::kKeyExpressionAccepted)))
    return fail("def.check-expression", "only a check has an expression");
  if (!c.field_ids && writer && Has(Mutant::kAbsentKeyFieldsAccepted)) return {};
  if (!c.field_ids ||
      (c.field_ids->empty() && !(writer && Has(Mutant::kEmptyKeyAccepted)))) {
    return fail("def.key-field-ids", "a key constraint needs at least one field ID");
  }
  std::set<FieldId> seen;
  const auto slots = IndexFields(schema.fields);
  KeyFieldLeniency lenient;
  if (writer) {
    lenient.float_ok = Has(Mutant::kFloatKeyAccepted);
    lenient.geo_ok = Has(Mutant::kGeoKeyAccepted);
    lenient.optional_ok = Has(Mutant::kPkAllowsOptional);
    lenient.repeated_ok = Has(Mutant::kListKeyAccepted);
    lenient.map_ok = Has(Mutant::kMapKeyAccepted);
    lenient.struct_ok = Has(Mutant::kStructKeyAccepted);
    lenient.collection_ok = Has(Mutant::kCollectionKeyAccepted);
    lenient.variant_ok = Has(Mutant::kVariantKeyAccepted);
    lenient.double_ok = Has(Mutant::kDoubleKeyAccepted);
    lenient.geography_ok = Has(Mutant::kGeographyKeyAccepted);
    lenient.unknown_ok = Has(Mutant::kUnknownKeyAccepted);
    lenient.optional_parent_ok = Has(Mutant::kPkAllowsOptionalParent);
    lenient.unique_needs_required = Has(Mutant::kUniqueRejectsOptional);
    lenient.unique_needs_required_parent = Has(Mutant::kUniqueRejectsOptionalParent);
  }
  for (FieldId id : *c.field_ids) {
    if (!seen.insert(id).second && !(writer && Has(Mutant::kDuplicateKeyFieldAccepted))) {
      return fail("def.key-field-ids", fmt::format("field ID {} is listed twice", id));
    }
    auto it = slots.find(id);
    if (it == slots.end() && writer && Has(Mutant::kMissingKeyFieldAccepted)) continue;
    if (it == slots.end()) {
      return fail("sch.referenced-exist", fmt::format("the schema has no field {}", id));
    }
    KeyFieldVerdict v = CheckKeyField(it->second, pk, lenient);
    if (!v.problem.empty()) return fail(v.rule, v.problem);
  }
  if (pk && !(writer && Has(Mutant::kTwoPksAccepted))) {
    for (const Constraint& o : others) {
      if (o.type == ConstraintType::kPrimaryKey) {
        if (clash != nullptr) *clash = o.id;
        return fail("def.single-pk", "the table already has a primary key");
      }
    }
  }
  return {};
}

Reply Engine::AddConstraintOp(Table& t, int64_t now, const AddConstraint& op) {
  TableMetadata& md = t.meta;
  if (md.format_version < 4 && !Has(Mutant::kConstraintsOnV3)) {
    return Reply::Reject(
        kinds::kUnsupportedVersion,
        fmt::format("constraints need format version 4, the table is v{} "
                    "(def.v4-only)",
                    md.format_version));
  }
  if (!md.constraints) md.constraints = std::vector<Constraint>{};
  Constraint c = op.constraint;
  if (!c.type && Has(Mutant::kTypeNameCaseInsensitive) &&
      LowerCase(c.raw_type) == "unique")
    c.type = ConstraintType::kUnique;
  if (!c.name && Has(Mutant::kMissingNameGenerated))
    c.name = fmt::format("constraint_{}", md.last_constraint_id.value_or(0) + 1);
  if (!c.enforced && Has(Mutant::kMissingEnforcedDefaultsFalse)) c.enforced = false;
  if (!c.type && c.raw_type.empty() && Has(Mutant::kMissingTypeInferred)) {
    c.type = c.expression ? ConstraintType::kCheck : ConstraintType::kUnique;
  }
  std::string rule;
  std::optional<ConstraintId> clash;
  std::string problem =
      ConstraintProblem(c, CurrentSchemaOf(md), *md.constraints, rule, false, &clash);
  if (!problem.empty()) {
    // The rejection names the constraint the new one clashes with (a duplicate name, a
    // second primary key), when there is one.
    std::vector<ConstraintId> ids;
    if (clash && divergent_) ids.push_back(*clash);
    return Reply::Reject(kinds::kInvalidConstraint, fmt::format("{} ({})", problem, rule),
                         ids);
  }
  // Existing rows that break a constraint added as enforced: "writers must ensure that
  // written data conform to the constraint" (enf.enforced) leaves open whether rows
  // written before count (switch existing-rows-on-enforce, default either). The canonical
  // sample accepts; the divergent one refuses.
  if (divergent_ && c.enforced.value_or(false) && !t.live().empty()) {
    const Truth truth = TruthOnLive(t, c);
    if (truth.violated) {
      return Reply::Reject(kinds::kConstraintViolation,
                           fmt::format("existing rows break '{}', which would be "
                                       "enforced (enf.enforced)",
                                       c.name.value_or("")));
    }
    if (!truth.evaluable) {
      return Reply::Reject(kinds::kUnverifiable,
                           fmt::format("'{}' cannot be evaluated on the existing rows",
                                       c.name.value_or("")));
    }
  }
  // "Writers must assign a new constraint an ID that is higher than the table's current
  // last-constraint-id and must update last-constraint-id to the highest assigned ID"
  // (id.above-last, id.update-last); last-constraint-id "is treated as 0 when it is not
  // present" (id.last-default-zero); IDs "must not be reused" (id.no-reuse).
  const ConstraintId last = md.last_constraint_id.value_or(0);
  ConstraintId id = last + 1 + IdGap();
  if (Has(Mutant::kReuseRemovedId)) {
    ConstraintId max = 0;
    for (const Constraint& o : *md.constraints) max = std::max(max, o.id.value_or(0));
    id = max + 1;
  }
  if (Has(Mutant::kIdNotAboveLast)) id = last;
  c.id = id;
  c.raw_type = std::string(TypeText(*c.type));
  // constraint-timestamp-from-table-clock: the table's previous clock, not now-ms.
  c.timestamp_ms =
      Has(Mutant::kConstraintTimestampFromTableClock) ? md.last_updated_ms : now;
  if (!Has(Mutant::kLastIdNotUpdated)) md.last_constraint_id = std::max(last, id);
  if (!md.last_constraint_id) md.last_constraint_id = last;
  md.constraints->push_back(std::move(c));
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

/// "Only name and enforced fields in a constraint definition can be updated, and
/// timestamp-ms must be updated when the constraint is updated. The expression and
/// field-ids fields must not change" (upd.name-enforced-only, upd.timestamp,
/// upd.definition-immutable). A `set` that restates the current value changes nothing.
Reply Engine::UpdateConstraintOp(Table& t, int64_t now, const UpdateConstraint& op) {
  TableMetadata& md = t.meta;
  if (md.format_version < 4 && !md.constraints) {
    return Reply::Reject(kinds::kUnsupportedVersion, "constraints need format version 4");
  }
  if (!md.constraints) md.constraints = std::vector<Constraint>{};
  Constraint* c = FindByName(*md.constraints, op.name);
  if (c == nullptr) {
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("no constraint named '{}'", op.name));
  }
  const ConstraintUpdate& set = op.set;
  // A refused update names the constraint it updates.
  std::vector<ConstraintId> self;
  if (divergent_ && c->id) self.push_back(*c->id);
  // A `set` naming `type`, `expression` or `field-ids` with the current value changes
  // nothing, yet names a field other than `name` and `enforced` (switch
  // restated-definition, default either): the divergent sample refuses every one.
  if (divergent_ && (set.type || set.expression || set.field_ids)) {
    return Reply::Reject(kinds::kInvalidUpdate,
                         "only name and enforced can be updated "
                         "(upd.name-enforced-only)",
                         self);
  }
  if (auto refused = UpdateDefinition(*c, set, self)) return *refused;
  if (set.name) {
    if (auto refused = RenameConstraint(md, c, *set.name)) return *refused;
  }
  if (auto refused = EnforceOverLiveRows(t, *c, set, self)) return *refused;
  if (set.enforced) c->enforced = *set.enforced;
  if (!Has(Mutant::kTimestampNotUpdated))
    c->timestamp_ms =
        Has(Mutant::kConstraintTimestampFromTableClock) ? md.last_updated_ms : now;
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

std::optional<Reply> Engine::UpdateDefinition(Constraint& c, const ConstraintUpdate& set,
                                              const std::vector<ConstraintId>& self) {
  if (set.type && *set.type != c.raw_type && *set.type != TypeText(*c.type)) {
    if (Has(Mutant::kTypeUpdatable) && c.type != ConstraintType::kCheck &&
        (*set.type == "unique" || *set.type == "primary-key")) {
      c.type =
          *set.type == "unique" ? ConstraintType::kUnique : ConstraintType::kPrimaryKey;
      c.raw_type = *set.type;
    } else {
      return Reply::Reject(
          kinds::kInvalidUpdate,
          "the type of a constraint cannot change (upd.name-enforced-only)", self);
    }
  }
  if (set.expression && (!c.expression || !(*set.expression == *c.expression))) {
    if (Has(Mutant::kExpressionUpdatable) && c.expression) {
      c.expression = *set.expression;
    } else {
      return Reply::Reject(
          kinds::kInvalidUpdate,
          "the expression of a check cannot change (upd.definition-immutable)", self);
    }
  }
  if (set.field_ids) {
    const std::set<FieldId> now_ids(set.field_ids->begin(), set.field_ids->end());
    const bool same =
        c.field_ids &&
        now_ids == std::set<FieldId>(c.field_ids->begin(), c.field_ids->end()) &&
        now_ids.size() == set.field_ids->size();
    if (!same) {
      if (!Has(Mutant::kFieldIdsUpdatable) || !c.field_ids) {
        return Reply::Reject(kinds::kInvalidUpdate,
                             "the field-ids of a constraint cannot change "
                             "(upd.definition-immutable)",
                             self);
      }
      c.field_ids = *set.field_ids;
    }
  }
  return std::nullopt;
}

std::optional<Reply> Engine::RenameConstraint(TableMetadata& md, Constraint* c,
                                              const std::string& name) {
  if (name.empty()) return Reply::Reject(kinds::kInvalidConstraint, "an empty name");
  for (const Constraint& o : *md.constraints) {
    if (&o != c && o.name && *o.name == name) {
      std::vector<ConstraintId> ids;
      if (divergent_ && o.id) ids.push_back(*o.id);
      // A duplicate name breaks the definition rules and is a refused update: either
      // kind (protocol section 8, "Where a request has two causes").
      return Reply::Reject(
          divergent_ && choose_.Coin() ? kinds::kInvalidUpdate
                                       : kinds::kInvalidConstraint,
          fmt::format("another constraint is named '{}' (def.name-unique)", name), ids);
    }
  }
  c->name = name;
  if (Has(Mutant::kRenameReassignsId)) {
    c->id = md.last_constraint_id.value_or(0) + 1;
    md.last_constraint_id = c->id;
  }
  return std::nullopt;
}

std::optional<Reply> Engine::EnforceOverLiveRows(
    const Table& t, const Constraint& c, const ConstraintUpdate& set,
    const std::vector<ConstraintId>& self) const {
  if (divergent_ && set.enforced && *set.enforced && !c.enforced.value_or(false) &&
      !t.live().empty()) {
    const Truth truth = TruthOnLive(t, c);
    if (truth.violated) {
      return Reply::Reject(kinds::kConstraintViolation,
                           fmt::format("existing rows break '{}', which would become "
                                       "enforced (enf.enforced)",
                                       c.name.value_or("")),
                           self);
    }
    if (!truth.evaluable) {
      return Reply::Reject(kinds::kUnverifiable,
                           fmt::format("'{}' cannot be evaluated on the existing rows",
                                       c.name.value_or("")),
                           self);
    }
  }
  return std::nullopt;
}

Reply Engine::RemoveConstraintOp(Table& t, int64_t now, const RemoveConstraint& op) {
  TableMetadata& md = t.meta;
  if (!md.constraints) {
    return Reply::Reject(
        md.format_version < 4 ? kinds::kUnsupportedVersion : kinds::kInvalidRequest,
        fmt::format("no constraint named '{}'", op.name));
  }
  auto& cs = *md.constraints;
  auto it = std::find_if(cs.begin(), cs.end(), [&](const Constraint& c) {
    return c.name && *c.name == op.name;
  });
  if (it == cs.end()) {
    if (Has(Mutant::kUnknownConstraintRemovalIgnored)) return Reply::Ok(md);
    return Reply::Reject(kinds::kInvalidRequest,
                         fmt::format("no constraint named '{}'", op.name));
  }
  cs.erase(it);
  md.last_updated_ms = std::max(md.last_updated_ms, now);
  return Reply::Ok(md);
}

/// Applies the changes of one update-schema as one new schema, with the constraint rules
/// of "Constraints and Schema Evolution" (sch.*).

}  // namespace ictk::sample
