/// \file
/// add-constraint steps that must be refused (add-invalid-constraint): which clause to break,
/// and the column a clause needs added first when the schema lacks it.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/render_internal.h"
#include "generators/schema_gen.h"
#include "model/iceberg/schema.h"

namespace ictk::render_internal {
namespace {

/// The invalid-constraint clauses whose breaking step needs a column of a type that few
/// generated schemas have (RenderColumnForClause adds one).
bool IsRareColumnClause(std::string_view clause) {
  static constexpr std::string_view kRare[] = {
      "key.no-float-double/float",      "key.no-float-double/double",
      "key.no-geo/geometry",            "key.no-geo/geography",
      "key.no-unknown/whole",           "key.primitive-only/variant",
      "key.not-in-list-map/list",       "key.not-in-list-map/map",
      "expr.no-list-map-element/list",  "expr.no-list-map-element/map",
      "key.pk-required/optional-parent"};
  return std::find(std::begin(kRare), std::end(kRare), clause) != std::end(kRare);
}

/// An update-schema that adds an optional column of a type that an invalid-constraint clause
/// needs and that no reachable clause in `usable` has yet; nullopt when none is missing.
std::optional<RenderedStep> RenderColumnForClause(const Ctx& ctx,
                                                  const std::vector<InvalidTarget>& usable) {
  auto reachable = [&](std::string_view clause) {
    for (const InvalidTarget& t : usable)
      if (t.clause == clause) return true;
    return false;
  };
  std::vector<NestedField> members;
  NestedField k;
  k.name = "k";
  k.required = true;
  k.type = Type::Primitive(TypeId::kLong);
  members.push_back(k);
  struct Wanted {
    const char* clause;
    const char* stem;
    Type type;
  };
  std::vector<Wanted> wanted = {
      {"key.no-float-double/float", "fl", Type::Primitive(TypeId::kFloat)},
      {"key.no-geo/geometry", "geom", Type::Primitive(TypeId::kGeometry)},
      {"key.no-geo/geography", "geog", Type::Primitive(TypeId::kGeography)},
      {"key.no-unknown/whole", "nothing", Type::Primitive(TypeId::kUnknown)},
      // A v3+ type that is not primitive (key.primitive-only/variant); its values are
      // always null in generated rows.
      {"key.primitive-only/variant", "var", Type::Primitive(TypeId::kVariant)},
      {"key.not-in-list-map/list", "items", Type::List(1, false, Type::Primitive(TypeId::kInt))},
      {"key.not-in-list-map/map", "props",
       Type::Map(1, Type::Primitive(TypeId::kString), 2, false,
                 Type::Primitive(TypeId::kInt))},
      {"key.pk-required/optional-parent", "rec", Type::Struct(members)},
  };
  std::vector<const Wanted*> missing;
  for (const Wanted& w : wanted)
    if (!reachable(w.clause)) missing.push_back(&w);
  // The optional struct serves a primary key on a nested field: it needs both capabilities.
  if ((!ctx.caps().nested_keys || !ctx.caps().primary_key) && !missing.empty() &&
      missing.back() == &wanted.back())
    missing.pop_back();
  if (missing.empty()) return std::nullopt;
  // Two times in three, a type only this step makes (generated schemas have floats,
  // unknowns, lists, maps and structs of their own, but no geometry, geography or variant).
  std::vector<const Wanted*> only_added;
  for (const Wanted* w : missing)
    if (w->type.id == TypeId::kGeometry || w->type.id == TypeId::kGeography ||
        w->type.id == TypeId::kVariant)
      only_added.push_back(w);
  if (!only_added.empty() && ctx.step.pick % 3 != 2) missing = only_added;
  const Wanted& w = *missing[static_cast<size_t>((ctx.step.pick / 3 + 5u) % missing.size())];
  AddColumn a;
  // A name the current schema does not have at the top level: a generated schema names
  // its own columns from the same stems (rec_4 may already be there).
  const Schema* schema = ctx.schema();
  const auto taken = [&](const std::string& name) {
    if (schema == nullptr) return false;
    for (const NestedField& f : schema->fields)
      if (f.name == name) return true;
    return false;
  };
  do {
    a.name = fmt::format("{}_{}", w.stem, ctx.counters.next_name++);
  } while (taken(a.name));
  a.type = w.type;
  if (a.type.id == TypeId::kStruct) {
    std::vector<NestedField> fields = a.type.fields;
    AssignFieldIds(fields, 1);
    a.type.fields = std::move(fields);
  }
  UpdateSchema u;
  u.changes.push_back(std::move(a));
  return Make(std::move(u), ctx.options.table, "update-schema/add-for-invalid-key",
              Intent::kOk, std::nullopt, {RuleId::kSchReferencedExist});
}

/// The invalid-constraint clauses of `g` that the implementation's capabilities can
/// express.
std::vector<InvalidTarget> UsableTargets(const Ctx& ctx, const ConstraintGenContext& g) {
  std::vector<InvalidTarget> usable;
  for (InvalidTarget& t : InvalidConstraintClauses(g)) {
    const RuleId r = t.rule;
    // Aim only where the capability exists to express the constraint.
    if ((r == RuleId::kKeyPkRequired || r == RuleId::kDefSinglePk) &&
        !ctx.caps().primary_key)
      continue;
    if ((r == RuleId::kExprIdReferences || r == RuleId::kExprWellTyped ||
         r == RuleId::kExprNoListMapElement || r == RuleId::kExprDeterministic) &&
        !ctx.caps().check)
      continue;
    usable.push_back(std::move(t));
  }
  return usable;
}

/// Which clause the step breaks, among the usable ones (not empty).
InvalidTarget ChooseTarget(const Ctx& ctx, const std::vector<InvalidTarget>& usable) {
  // Half of the time, a clause about a kind of key or referenced field (key.*,
  // expr.no-list-map-element): each needs a column type that few schemas have, and each
  // has a mutant that only such a step can catch.
  std::vector<InvalidTarget> favoured;
  for (const InvalidTarget& t : usable)
    if (t.clause.rfind("key.", 0) == 0 || t.rule == RuleId::kExprNoListMapElement)
      favoured.push_back(t);
  // Among them, a clause that needs a column of a rare type (one RenderColumnForClause
  // adds: float, double, geometry, geography, unknown, variant, a list, a map, an optional
  // struct) whenever the schema has one, so that each such column, once added, is used.
  std::vector<InvalidTarget> rare, only_added;
  for (const InvalidTarget& t : usable) {
    if (!IsRareColumnClause(t.clause)) continue;
    rare.push_back(t);
    if (t.clause == "key.no-geo/geometry" || t.clause == "key.no-geo/geography" ||
        t.clause == "key.primitive-only/variant")
      only_added.push_back(t);
  }
  // Half of those picks, a clause whose column only RenderColumnForClause makes.
  if (!only_added.empty() && (ctx.step.pick / 4) % 2 == 0) rare = only_added;
  // The other half, a clause of the definition itself (def.*, expr.*,
  // sch.referenced-exist): the key clauses have the first half, a rare column type in one
  // pick of four when the schema has one.
  std::vector<InvalidTarget> others;
  for (const InvalidTarget& t : usable)
    if (t.clause.rfind("key.", 0) != 0 && !IsRareColumnClause(t.clause)) others.push_back(t);
  // Half of those picks, a clause that only some states make reachable (a primary key or a
  // named constraint to clash with, a UDF that is not deterministic) whenever one is.
  std::vector<InvalidTarget> situational;
  for (const InvalidTarget& t : others)
    if (t.clause == "def.single-pk/whole" || t.clause == "def.name-unique/unique" ||
        t.clause == "expr.deterministic/whole")
      situational.push_back(t);
  const uint32_t quarter = ctx.step.pick % 4;
  const std::vector<InvalidTarget>& pool =
      !rare.empty() && quarter == 0                      ? rare
      : !favoured.empty() && quarter <= 1                ? favoured
      : !situational.empty() && quarter == 3             ? situational
      : !others.empty() && (quarter >= 2 || favoured.empty()) ? others
                                                         : usable;
  // The index comes from the pick without the quarter that chose the pool: pick % 4 fixed
  // would reach only some indices of a pool whose size shares a factor with 4.
  const InvalidTarget* chosen =
      &pool[static_cast<size_t>((ctx.step.pick / 4 + 11u * 7919u) % pool.size())];
  // One definition pick in eight is def.types (one clause among ~15 there, whose mutant
  // only a known type spelled in another case catches; GenInvalidConstraint).
  if (&pool == &others && (ctx.step.pick / 4) % 8 == 5)
    for (const InvalidTarget& t : others)
      if (t.clause == "def.types/whole") chosen = &t;
  return *chosen;
}

}  // namespace

std::optional<RenderedStep> RenderAddInvalidConstraint(const Ctx& ctx) {
  // On a v1-v3 table, two invalid steps in three upgrade it first (the precondition
  // repaired, as for add-constraint), so that the clauses of v4 tables are aimed at; the
  // third is refused for def.v4-only.
  if (ctx.md().format_version < 4 && ctx.caps().upgrade &&
      ctx.caps().format_versions.count(4) && ctx.step.pick % 3 != 0)
    return RenderUpgradeForConstraints(ctx);
  ConstraintGenContext g = GenContext(ctx, FreshName(ctx, "bad"));
  std::vector<InvalidTarget> usable = UsableTargets(ctx, g);
  // One invalid step in three whose schema lacks the column some clause needs (a float, a
  // geometry, a map, an optional struct, ...) adds that column first, so that every clause
  // is reachable in short histories (the precondition repaired, as for UDF checks).
  if (ctx.Flavour(3) == 0 && ctx.md().format_version >= 4 && ctx.caps().schema_evolution) {
    if (std::optional<RenderedStep> add = RenderColumnForClause(ctx, usable)) return add;
  }
  if (usable.empty()) return std::nullopt;
  const InvalidTarget target = ChooseTarget(ctx, usable);
  std::optional<Constraint> c =
      Sample(GenInvalidConstraint(g, target), ctx.Seed(2), ctx.step.size);
  // An invalid check made of undeclared operators is not sent (docs/protocol.md section
  // 9, "Finer declarations"): it would ask what the implementation said it lacks.
  if (!c || (c->expression && !ctx.caps().DeclaresOperators(*c->expression)))
    return std::nullopt;
  // The label names the clause, or the rule alone when the rule has one clause.
  const bool whole = target.clause.size() > 6 &&
                     target.clause.compare(target.clause.size() - 6, 6, "/whole") == 0;
  RenderedStep r = Make(AddConstraint{*c}, ctx.options.table,
                        fmt::format("add-invalid-constraint/{}",
                                    whole ? std::string(RuleIdName(target.rule))
                                          : target.clause),
                        Intent::kReject, target.rule);
  r.clauses = {target.clause};
  return r;
}

}  // namespace ictk::render_internal
