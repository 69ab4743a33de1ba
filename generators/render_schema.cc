/// \file
/// update-schema steps about the fields constraints reference (added, renamed, moved,
/// deleted, promoted, made optional), and upgrade steps.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "generators/render_internal.h"
#include "generators/schema_gen.h"
#include "model/iceberg/schema.h"

namespace ictk::render_internal {

References Referenced(const Ctx& ctx) {
  References r;
  for (const Constraint& c : ctx.constraints()) {
    for (FieldId id : ReferencedFieldIds(c)) {
      if (c.type == ConstraintType::kCheck)
        r.by_check.insert(id);
      else
        r.by_key.insert(id);
      if (c.type == ConstraintType::kPrimaryKey) r.by_pk.insert(id);
      if (c.name) r.names[id].push_back(*c.name);
    }
  }
  return r;
}

/// The top-level field that contains field `id` (itself when top-level).
FieldId TopLevelOf(const Schema& schema, FieldId id) {
  std::optional<FieldLocation> loc = FindField(schema, id);
  return loc && !loc->path.empty() ? loc->path.front() : id;
}

/// The precondition of a schema change that constraints must refuse for a nested field,
/// repaired: with no constraint on a field inside a struct yet, a not-enforced unique
/// (`primary_key` false) or primary key (true; only while the table has none) on a
/// field inside a top-level struct (a required one, for a primary key), so that a later
/// step can delete that struct (sch.remove-referenced/nested) or make it optional
/// (sch.pk-stays-required/optional-parent). nullopt when the table offers no such field.
std::optional<RenderedStep> RenderNestedKeyFirst(const Ctx& ctx, bool primary_key) {
  if (ctx.md().format_version < 4 || !ctx.caps().nested_keys) return std::nullopt;
  if (primary_key ? !ctx.caps().primary_key : !ctx.caps().unique) return std::nullopt;
  if (primary_key)
    for (const Constraint& c : ctx.constraints())
      if (c.type == ConstraintType::kPrimaryKey) return std::nullopt;
  const Schema& schema = *ctx.schema();
  std::vector<FieldId> pool;
  for (const KeyCandidate& k : KeyCandidates(schema, true)) {
    if (!k.nested) continue;
    const FieldId top = TopLevelOf(schema, k.id);
    std::optional<FieldLocation> outer = FindField(schema, top);
    if (!outer) continue;
    if (primary_key && (!k.pk_eligible || !outer->field.required)) continue;
    pool.push_back(k.id);
  }
  if (pool.empty()) return std::nullopt;
  Constraint c;
  c.type = primary_key ? ConstraintType::kPrimaryKey : ConstraintType::kUnique;
  c.raw_type = primary_key ? "primary-key" : "unique";
  c.name = FreshName(ctx, primary_key ? "nested_pk" : "nested_key");
  c.enforced = false;
  c.field_ids = std::vector<FieldId>{pool[ctx.Pick(pool.size(), 2)]};
  RenderedStep r = Make(AddConstraint{c}, ctx.options.table,
                        primary_key ? "add-constraint/nested-primary-key"
                                    : "add-constraint/nested-unique",
                        Intent::kOk, std::nullopt,
                        {RuleId::kIdAboveLast, RuleId::kIdUpdateLast});
  r.clauses = {Clause(RuleId::kIdAboveLast, "whole"), Clause(RuleId::kIdUpdateLast, "whole")};
  return r;
}

RenderedStep SchemaStep::Render(const Ctx& ctx) {
  RenderedStep r = Make(std::move(u), ctx.options.table, label, intent, aimed, tags);
  r.clauses = std::move(clauses);
  return r;
}

namespace {

/// What the update-schema flavours look at.
struct SchemaInputs {
  const Schema& schema;
  References refs;
  bool has_rows = false;
  int32_t fv = 0;
  std::vector<FieldId> top_ids;

  /// Whether a constraint references top-level field `top` or a field inside it.
  bool ReferencedUnder(FieldId top) const {
    for (FieldId id : refs.by_check)
      if (TopLevelOf(schema, id) == top) return true;
    for (FieldId id : refs.by_key)
      if (TopLevelOf(schema, id) == top) return true;
    return false;
  }
  /// Whether a constraint references a field inside a struct.
  bool NestedReference() const {
    bool nested_ref = false;
    for (const auto& ids : {refs.by_check, refs.by_key})
      for (FieldId id : ids) nested_ref = nested_ref || TopLevelOf(schema, id) != id;
    return nested_ref;
  }
};

/// Which flavour the step draws. Flavours 10-13 repeat the changes that constraints must
/// refuse (a referenced column deleted, a check field promoted, a primary-key field made
/// optional); 14-15 the changes they must allow (a referenced field renamed or moved,
/// sch.rename-reorder); 16-23 the changes Iceberg's schema evolution must refuse, each
/// breaking one clause (an illegal promotion, date to timestamp before v3, a field the
/// schema lacks, a sibling's name, a move beside a field that is no sibling) and three
/// times in eight a second table's create-table with an invalid schema (identifier
/// fields, v3 types).
uint32_t ChooseSchemaFlavour(const Ctx& ctx, const SchemaInputs& in) {
  static constexpr uint32_t kSchemaFlavours[] = {0,  1,  2,  3,  4,  5,  6,  7,
                                                 8,  9,  6,  8,  9,  9,  4,  4,
                                                 10, 11, 12, 13, 14, 15, 15, 15};
  uint32_t flavour = kSchemaFlavours[ctx.Flavour(24)];
  // Date to timestamp is legal from v3: on a v1-v2 table, two thirds of the legal and
  // illegal promotions and one in four of the other flavours request it instead
  // (ice.type-promotion/by-version; few update-schema steps meet a v1-v2 table).
  if (in.fv < 3 && ((flavour == 8 || flavour == 10) ? ctx.step.pick % 3 != 2
                                                     : ctx.step.pick % 4 == 1))
    flavour = 11;
  // Once a constraint references a field inside a struct (add-constraint sets that up,
  // RenderNestedKeyFirst), one step in six deletes the struct (sch.remove-referenced/
  // nested) and, for a primary key inside a required struct, one in two makes the struct
  // optional (sch.pk-stays-required/optional-parent).
  bool pk_in_required_struct = false;
  for (FieldId id : in.refs.by_pk) {
    const FieldId top = TopLevelOf(in.schema, id);
    std::optional<FieldLocation> outer = FindField(in.schema, top);
    pk_in_required_struct =
        pk_in_required_struct || (top != id && outer && outer->field.required);
  }
  if (in.NestedReference() && ctx.step.pick % 6 == 0) flavour = 6;
  if (pk_in_required_struct && ctx.step.pick % 6 % 2 == 1) flavour = 9;
  if (flavour == 11 && in.fv >= 3) flavour = 10;
  return flavour;
}

/// Flavour 0: an optional column of a random primitive type.
std::optional<RenderedStep> AddOptional(const Ctx& ctx, const SchemaInputs& in) {
  SchemaStep s;
  AddColumn a;
  a.name = fmt::format("added_{}", ctx.counters.next_name++);
  std::optional<Type> t = Sample(GenPrimitiveType(std::min(in.fv, 3)), ctx.Seed(3), 10);
  a.type = t && t->id != TypeId::kGeometry && t->id != TypeId::kGeography
               ? *t
               : Type::Primitive(TypeId::kString);
  s.u.changes.push_back(std::move(a));
  s.label = "update-schema/add-optional";
  s.tags = {RuleId::kSchReferencedExist};
  return s.Render(ctx);
}

/// Flavour 1: a required column with a default (v3+), or without one before v3.
std::optional<RenderedStep> AddRequiredDefault(const Ctx& ctx, const SchemaInputs& in) {
  SchemaStep s;
  AddColumn a;
  a.name = fmt::format("added_{}", ctx.counters.next_name++);
  a.type = Type::Primitive(TypeId::kInt);
  a.required = true;
  if (in.fv >= 3) {
    a.initial_default_json = "7";
    a.write_default_json = "7";
    s.label = "update-schema/add-required-default";
  } else {
    s.label = "update-schema/add-required-v2";
    s.intent = Intent::kAny;
  }
  s.tags = {RuleId::kIceRequiredNeedsDefault};
  if (!in.has_rows && in.fv >= 3) s.intent = Intent::kOk;
  s.u.changes.push_back(std::move(a));
  return s.Render(ctx);
}

/// Flavour 2: a required column without a default (ice.required-needs-default).
std::optional<RenderedStep> AddRequiredNoDefault(const Ctx& ctx, const SchemaInputs& in) {
  SchemaStep s;
  AddColumn a;
  a.name = fmt::format("added_{}", ctx.counters.next_name++);
  a.type = Type::Primitive(TypeId::kLong);
  a.required = true;
  s.u.changes.push_back(std::move(a));
  s.label = "update-schema/add-required-no-default";
  s.intent = in.has_rows ? Intent::kReject : Intent::kOk;
  if (in.has_rows) s.aimed = RuleId::kIceRequiredNeedsDefault;
  if (in.has_rows && in.fv < 3) s.intent = Intent::kAny;
  if (s.intent != Intent::kReject) s.aimed.reset();
  s.tags = {RuleId::kIceRequiredNeedsDefault};
  return s.Render(ctx);
}

/// Flavour 3: rename a referenced field (sch.rename-reorder).
std::optional<RenderedStep> RenameReferenced(const Ctx& ctx, const SchemaInputs& in) {
  SchemaStep s;
  std::vector<FieldId> pool(in.refs.by_check.begin(), in.refs.by_check.end());
  pool.insert(pool.end(), in.refs.by_key.begin(), in.refs.by_key.end());
  if (pool.empty()) pool = in.top_ids;
  const FieldId id = pool[ctx.Pick(pool.size())];
  s.u.changes.push_back(RenameColumn{id, fmt::format("renamed_{}", ctx.counters.next_name++)});
  s.label = "update-schema/rename";
  s.tags = {RuleId::kSchRenameReorder};
  return s.Render(ctx);
}

/// Flavour 4: reorder, mostly a referenced field (sch.rename-reorder/reorder).
std::optional<RenderedStep> MoveReferenced(const Ctx& ctx, const SchemaInputs& in) {
  SchemaStep s;
  const std::vector<FieldId>& top_ids = in.top_ids;
  MoveColumn m;
  // A top-level field a constraint references itself, else one that holds such a
  // field, else (and one time in four) any.
  std::vector<FieldId> pool;
  for (FieldId id : top_ids)
    if (in.refs.by_check.count(id) || in.refs.by_key.count(id)) pool.push_back(id);
  if (pool.empty())
    for (FieldId id : top_ids)
      if (in.ReferencedUnder(id)) pool.push_back(id);
  if (pool.empty() || ctx.step.pick % 4 == 3) pool = top_ids;
  m.id = pool[ctx.Pick(pool.size())];
  if (ctx.step.pick % 2 == 0 || top_ids.size() < 2) {
    m.position = MoveColumn::Position::kFirst;
  } else {
    m.position = MoveColumn::Position::kAfter;
    const size_t at = static_cast<size_t>(
        std::find(top_ids.begin(), top_ids.end(), m.id) - top_ids.begin());
    m.reference = top_ids[(at + 1) % top_ids.size()];
  }
  s.u.changes.push_back(m);
  s.label = "update-schema/move";
  s.tags = {RuleId::kSchRenameReorder};
  return s.Render(ctx);
}

/// Flavour 5: delete an unreferenced column.
std::optional<RenderedStep> DeleteUnreferenced(const Ctx& ctx, const SchemaInputs& in) {
  SchemaStep s;
  std::vector<FieldId> pool;
  for (const NestedField& f : in.schema.fields)
    if (!in.ReferencedUnder(f.id) && f.id != 1 && !f.required) pool.push_back(f.id);
  if (pool.empty()) return std::nullopt;
  s.u.changes.push_back(DeleteColumn{pool[ctx.Pick(pool.size())]});
  s.label = "update-schema/delete-unreferenced";
  s.tags = {RuleId::kSchRemoveReferenced};
  return s.Render(ctx);
}

/// Without its constraints (flavour 6), the deleted field is one a check, a unique or a
/// primary key references (sch.remove-referenced/rejected), or the struct that holds one
/// (sch.remove-referenced/nested): sets `top` and returns the clause.
std::string ReferencedFieldToDelete(const Ctx& ctx, const SchemaInputs& in, FieldId& top) {
  std::string clause = Clause(RuleId::kSchRemoveReferenced, "rejected");
  std::vector<std::pair<FieldId, bool>> targets;  // field to delete, nested
  std::set<FieldId> all = in.refs.by_check;
  all.insert(in.refs.by_key.begin(), in.refs.by_key.end());
  for (FieldId id : all) {
    const FieldId outer = TopLevelOf(in.schema, id);
    if (!FindField(in.schema, id)) continue;
    targets.emplace_back(id, false);
    if (outer != id) targets.emplace_back(outer, true);
  }
  // Half the time, the struct that holds a referenced field when there is one.
  std::vector<std::pair<FieldId, bool>> outer_only;
  for (const auto& t : targets)
    if (t.second) outer_only.push_back(t);
  if (!outer_only.empty() && ctx.step.pick % 2 == 0) targets = outer_only;
  if (!targets.empty()) {
    const auto& [id, nested] = targets[ctx.Pick(targets.size(), 3)];
    top = id;
    if (nested) clause = Clause(RuleId::kSchRemoveReferenced, "nested");
  }
  return clause;
}

/// Flavours 6 and 7: delete a referenced column, without (6) or with (7) its constraints.
std::optional<RenderedStep> DeleteReferenced(const Ctx& ctx, const SchemaInputs& in,
                                             bool with_constraints) {
  // No constraint references a field inside a struct: one is added first.
  if (!with_constraints && ctx.step.pick % 2 == 0 && !in.NestedReference())
    if (std::optional<RenderedStep> first = RenderNestedKeyFirst(ctx, false)) return first;
  std::vector<FieldId> pool;
  for (const NestedField& f : in.schema.fields)
    if (in.ReferencedUnder(f.id)) pool.push_back(f.id);
  if (pool.empty()) return std::nullopt;
  FieldId top = pool[ctx.Pick(pool.size())];
  std::string clause = Clause(RuleId::kSchRemoveReferenced, "rejected");
  if (!with_constraints) clause = ReferencedFieldToDelete(ctx, in, top);
  SchemaStep s;
  s.u.changes.push_back(DeleteColumn{top});
  if (with_constraints) {
    std::set<std::string> names;
    for (const auto& [id, ns] : in.refs.names)
      if (TopLevelOf(in.schema, id) == top) names.insert(ns.begin(), ns.end());
    s.u.remove_constraints.assign(names.begin(), names.end());
    s.label = "update-schema/delete-with-constraints";
    s.intent = Intent::kAny;  // other rules (e.g. a required column) may still decide
    s.tags = {RuleId::kSchRemoveReferenced, RuleId::kIdNoReuse};
    s.clauses = {Clause(RuleId::kSchRemoveReferenced, "unless-removed")};
  } else {
    s.label = "update-schema/delete-referenced";
    s.intent = Intent::kReject;
    s.aimed = RuleId::kSchRemoveReferenced;
    s.clauses = {clause};
  }
  return s.Render(ctx);
}

/// Flavour 8: promote a type: int->long, float->double, decimal widening,
/// date->timestamp.
std::optional<RenderedStep> Promote(const Ctx& ctx, const SchemaInputs& in) {
  struct Candidate {
    FieldId id;
    Type to;
  };
  std::vector<Candidate> pool;
  const int32_t fv = in.fv;
  std::function<void(const std::vector<NestedField>&)> walk =
      [&](const std::vector<NestedField>& fields) {
        for (const NestedField& f : fields) {
          if (f.type.id == TypeId::kStruct) {
            walk(f.type.fields);
            continue;
          }
          if (f.type.id == TypeId::kInt)
            pool.push_back({f.id, Type::Primitive(TypeId::kLong)});
          if (f.type.id == TypeId::kFloat)
            pool.push_back({f.id, Type::Primitive(TypeId::kDouble)});
          if (f.type.id == TypeId::kDecimal && f.type.precision < 38)
            pool.push_back(
                {f.id, Type::Decimal(std::min(38, f.type.precision + 9), f.type.scale)});
          if (f.type.id == TypeId::kDate && fv >= 3)
            pool.push_back({f.id, Type::Primitive(TypeId::kTimestamp)});
        }
      };
  walk(in.schema.fields);
  if (pool.empty()) return std::nullopt;
  const Candidate& c = pool[ctx.Pick(pool.size())];
  SchemaStep s;
  s.u.changes.push_back(UpdateColumnType{c.id, c.to});
  if (in.refs.by_check.count(c.id)) {
    s.label = "update-schema/promote-check-field";
    s.intent = Intent::kReject;
    s.aimed = RuleId::kSchCheckNoTypeChange;
  } else if (in.refs.by_key.count(c.id)) {
    s.label = "update-schema/promote-key-field";
    s.intent = Intent::kAny;  // switch key-promotions
    s.tags = {RuleId::kSchKeyPromotionOk};
  } else {
    s.label = "update-schema/promote";
    s.tags = {RuleId::kIceTypePromotion};
  }
  return s.Render(ctx);
}

/// Flavour 9: make a required field optional.
std::optional<RenderedStep> MakeFieldOptional(const Ctx& ctx, const SchemaInputs& in) {
  const Schema& schema = in.schema;
  // Identifier fields must stay required (Iceberg), so they are not offered.
  const std::vector<FieldId> identifiers =
      schema.identifier_field_ids.value_or(std::vector<FieldId>{});
  std::vector<FieldId> pool;
  for (const NestedField& f : schema.fields)
    if (f.required && std::none_of(identifiers.begin(), identifiers.end(), [&](FieldId i) {
          return TopLevelOf(schema, i) == f.id;
        }))
      pool.push_back(f.id);
  // A required struct that holds a primary-key field: making it optional nests the
  // field under an optional struct (sch.pk-stays-required/optional-parent).
  std::set<FieldId> pk_parents;
  for (FieldId pk_id : in.refs.by_pk) {
    const FieldId outer = TopLevelOf(schema, pk_id);
    if (outer != pk_id && std::find(pool.begin(), pool.end(), outer) != pool.end())
      pk_parents.insert(outer);
  }
  // No primary key on a field inside a required struct: one in two such steps adds
  // one first (when the table has no primary key).
  if (pk_parents.empty() && ctx.step.pick % 4 == 1)
    if (std::optional<RenderedStep> first = RenderNestedKeyFirst(ctx, true)) return first;
  if (pool.empty()) return std::nullopt;
  FieldId id = pool[ctx.Pick(pool.size())];
  if (!in.refs.by_pk.empty() && ctx.step.pick % 4 != 0) id = *in.refs.by_pk.begin();
  if (!pk_parents.empty() && ctx.step.pick % 2 == 1) id = *pk_parents.begin();
  SchemaStep s;
  s.u.changes.push_back(MakeOptional{id});
  if (in.refs.by_pk.count(id) || pk_parents.count(id)) {
    s.label = "update-schema/pk-field-optional";
    s.intent = Intent::kReject;
    s.aimed = RuleId::kSchPkStaysRequired;
    s.clauses = {Clause(RuleId::kSchPkStaysRequired,
                        pk_parents.count(id) ? "optional-parent" : "own-flag")};
  } else {
    s.label = "update-schema/make-optional";
    s.tags = {RuleId::kKeyUniqueOptionalOk};
  }
  return s.Render(ctx);
}

/// The update-schema step of the flavour the step draws; nullopt when it has nothing to
/// act on.
std::optional<RenderedStep> RenderUpdateSchemaFlavour(const Ctx& ctx) {
  SchemaInputs in{*ctx.schema(), Referenced(ctx), !ctx.table->rows.empty(),
                  ctx.md().format_version, {}};
  for (const NestedField& f : in.schema.fields) in.top_ids.push_back(f.id);
  const uint32_t flavour = ChooseSchemaFlavour(ctx, in);
  switch (flavour) {
    case 0:
    default:
      return AddOptional(ctx, in);
    case 1:
      return AddRequiredDefault(ctx, in);
    case 2:
      return AddRequiredNoDefault(ctx, in);
    case 3:
      return RenameReferenced(ctx, in);
    case 4:
      return MoveReferenced(ctx, in);
    case 5:
      return DeleteUnreferenced(ctx, in);
    case 6:
    case 7:
      return DeleteReferenced(ctx, in, flavour == 7);
    case 8:
      return Promote(ctx, in);
    case 9:
      return MakeFieldOptional(ctx, in);
    case 10:
      return RenderIllegalPromotion(ctx, in.refs);
    case 11:
      return RenderDatePromotionBeforeV3(ctx, in.refs);
    case 12:
      return RenderUnknownField(ctx);
    case 13:
      return RenderSiblingName(ctx);
    case 14:
      return RenderMoveOutOfStruct(ctx);
    case 15:
      return RenderInvalidSchemaTable(ctx);
  }
}

}  // namespace

/// An update-schema step. When the flavour it draws has nothing to act on (no column to
/// promote, no struct to move out of, ...), it renders a second table's create-table with
/// an invalid schema instead (RenderInvalidSchemaTable): each of its seven variants breaks
/// one clause that no other step reaches (ice.identifier-fields, ice.types-by-version),
/// and at three flavours in 24 each was drawn only about twice in 200 histories.
std::optional<RenderedStep> RenderUpdateSchema(const Ctx& ctx) {
  if (std::optional<RenderedStep> r = RenderUpdateSchemaFlavour(ctx)) return r;
  return RenderInvalidSchemaTable(ctx);
}

std::optional<RenderedStep> RenderUpgrade(const Ctx& ctx) {
  const int32_t fv = ctx.md().format_version;
  const std::set<int32_t>& versions = ctx.caps().format_versions;
  std::vector<int32_t> higher;
  for (int32_t v : versions)
    if (v > fv) higher.push_back(v);
  if (!higher.empty() && ctx.Flavour(8) != 7) {
    // Mostly straight to v4, where identifier fields become a primary key.
    const int32_t to =
        versions.count(4) && ctx.step.pick % 3 != 0 ? 4 : higher[ctx.Pick(higher.size())];
    std::vector<RuleId> tags = {RuleId::kIceFormatVersionUp};
    if (to == 4) {
      tags = {RuleId::kUpgPkFromIdentifiers, RuleId::kUpgSkipIneligible,
              RuleId::kIdLastDefaultZero, RuleId::kUpgReadersIgnoreIdentifiers};
    }
    return Make(Upgrade{to}, ctx.options.table, fmt::format("upgrade/v{}-to-v{}", fv, to),
                Intent::kOk, std::nullopt, tags);
  }
  // A downgrade, to a version the implementation declared; or version 5, which no
  // format defines (both must be refused, ice.format-version-up).
  if (fv <= 1) return std::nullopt;
  const int32_t to = ctx.step.pick % 2 == 0 && versions.count(fv - 1) ? fv - 1 : 5;
  return Make(Upgrade{to}, ctx.options.table,
              to < fv ? "upgrade/downgrade" : "upgrade/unknown-version", Intent::kReject,
              RuleId::kIceFormatVersionUp);
}

}  // namespace ictk::render_internal
