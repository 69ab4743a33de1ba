/// \file
/// Schema changes and schemas that Iceberg's rules must refuse: illegal promotions, a field
/// the schema lacks, a sibling's name, a move out of a struct, and a second table created
/// with broken identifier fields or a v3 type before v3.
#include <fmt/format.h>

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/render_internal.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/types.h"

namespace ictk::render_internal {

/// A second table's create-table whose schema breaks one clause of the Iceberg schema
/// rules alone: identifier fields (v1-v3) that are missing, not primitive, float or
/// double, optional, in a list, or under an optional struct (ice.identifier-fields), or a
/// v3 type in a v1-v2 schema (ice.types-by-version). It must be refused, and leaves the
/// history's own table alone.
std::optional<RenderedStep> RenderInvalidSchemaTable(const Ctx& ctx) {
  static constexpr std::string_view kIdentifierClauses[] = {
      "exist", "primitive", "not-float-double", "required", "not-in-list-map",
      "not-under-optional-struct"};
  const std::set<int32_t>& versions = ctx.caps().format_versions;
  const uint32_t variant = ctx.step.pick % 7;
  std::optional<int32_t> fv;
  if (variant == 6) {  // the oldest of v1-v2
    for (int32_t v : {1, 2})
      if (!fv && versions.count(v)) fv = v;
  } else {  // the newest of v1-v3
    for (int32_t v : {3, 2, 1})
      if (!fv && versions.count(v)) fv = v;
  }
  if (!fv) return std::nullopt;
  auto field = [](FieldId id, std::string name, bool required, Type type) {
    NestedField f;
    f.id = id;
    f.name = std::move(name);
    f.required = required;
    f.type = std::move(type);
    return f;
  };
  CreateTable c;
  c.format_version = *fv;
  c.schema.schema_id = 0;
  c.schema.fields = {
      field(1, "id", true, Type::Primitive(TypeId::kLong)),
      field(2, "ratio", true,
            Type::Primitive(ctx.step.pick % 2 == 0 ? TypeId::kDouble : TypeId::kFloat)),
      field(3, "point", true,
            Type::Struct({field(4, "x", true, Type::Primitive(TypeId::kInt))})),
      field(5, "tags", true, Type::List(6, true, Type::Primitive(TypeId::kInt))),
      field(7, "extra", false,
            Type::Struct({field(8, "y", true, Type::Primitive(TypeId::kInt))})),
      field(9, "note", false, Type::Primitive(TypeId::kInt)),
  };
  std::string clause;
  if (variant == 6) {
    static constexpr TypeId kV3Types[] = {TypeId::kTimestampNs, TypeId::kTimestampTzNs,
                                          TypeId::kUnknown, TypeId::kVariant,
                                          TypeId::kGeometry, TypeId::kGeography};
    c.schema.fields.push_back(
        field(10, "later", false, Type::Primitive(kV3Types[ctx.Pick(std::size(kV3Types), 1)])));
    clause = Clause(RuleId::kIceTypesByVersion, "whole");
  } else {
    static constexpr FieldId kBroken[] = {99, 3, 2, 9, 6, 8};
    c.schema.identifier_field_ids = std::vector<FieldId>{1, kBroken[variant]};
    clause = Clause(RuleId::kIceIdentifierFields, kIdentifierClauses[variant]);
  }
  const std::string table =
      fmt::format("{}_invalid_{}", ctx.options.table, ctx.counters.next_name++);
  const std::string label =
      variant == 6 ? "create-table/v3-type-before-v3"
                   : fmt::format("create-table/invalid-identifiers/{}",
                                 kIdentifierClauses[variant]);
  RenderedStep r = Make(std::move(c), table, label, Intent::kReject,
                        variant == 6 ? RuleId::kIceTypesByVersion : RuleId::kIceIdentifierFields);
  r.clauses = {clause};
  return r;
}

/// Flavour 10: an illegal type change (ice.type-promotion/legal-only). Narrowings Iceberg
/// does not allow, between types whose values read alike (so the rows stay readable):
/// long to int, double to float, int to date, decimal(P, S) to decimal(P-1, S). A field a
/// check references is left out: refusing its change for the check's sake
/// (sch.check-no-type-change) would hide the clause.
std::optional<RenderedStep> RenderIllegalPromotion(const Ctx& ctx, const References& refs) {
  struct Candidate {
    FieldId id;
    Type to;
  };
  std::vector<Candidate> pool;
  std::function<void(const std::vector<NestedField>&)> walk =
      [&](const std::vector<NestedField>& fields) {
        for (const NestedField& f : fields) {
          if (f.type.id == TypeId::kStruct) {
            walk(f.type.fields);
            continue;
          }
          if (refs.by_check.count(f.id)) continue;
          if (f.type.id == TypeId::kLong)
            pool.push_back({f.id, Type::Primitive(TypeId::kInt)});
          if (f.type.id == TypeId::kDouble)
            pool.push_back({f.id, Type::Primitive(TypeId::kFloat)});
          if (f.type.id == TypeId::kInt)
            pool.push_back({f.id, Type::Primitive(TypeId::kDate)});
          if (f.type.id == TypeId::kDecimal && f.type.precision > 1 &&
              f.type.scale < f.type.precision)
            pool.push_back({f.id, Type::Decimal(f.type.precision - 1, f.type.scale)});
        }
      };
  walk(ctx.schema()->fields);
  if (pool.empty()) return std::nullopt;
  const Candidate& c = pool[ctx.Pick(pool.size())];
  SchemaStep s;
  s.u.changes.push_back(UpdateColumnType{c.id, c.to});
  s.label = "update-schema/promote-illegal";
  s.intent = Intent::kReject;
  s.aimed = RuleId::kIceTypePromotion;
  s.clauses = {Clause(RuleId::kIceTypePromotion, "legal-only")};
  return s.Render(ctx);
}

/// Flavour 11: date to timestamp on a v1-v2 table (ice.type-promotion/by-version).
std::optional<RenderedStep> RenderDatePromotionBeforeV3(const Ctx& ctx,
                                                        const References& refs) {
  const Schema& schema = *ctx.schema();
  std::vector<FieldId> dates;
  std::function<void(const std::vector<NestedField>&)> walk =
      [&](const std::vector<NestedField>& fields) {
        for (const NestedField& f : fields) {
          if (f.type.id == TypeId::kStruct) walk(f.type.fields);
          if (f.type.id == TypeId::kDate && !refs.by_check.count(f.id)) dates.push_back(f.id);
        }
      };
  walk(schema.fields);
  SchemaStep s;
  if (dates.empty() || ctx.step.pick % 2 == 1) {
    // A date column added by the same change, then promoted.
    AddColumn a;
    a.name = fmt::format("added_{}", ctx.counters.next_name++);
    a.type = Type::Primitive(TypeId::kDate);
    FieldId next = ctx.md().last_column_id;
    for (FieldId id : AllFieldIds(schema.fields)) next = std::max(next, id);
    s.u.changes.push_back(std::move(a));
    s.u.changes.push_back(UpdateColumnType{next + 1, Type::Primitive(TypeId::kTimestamp)});
  } else {
    s.u.changes.push_back(
        UpdateColumnType{dates[ctx.Pick(dates.size())], Type::Primitive(TypeId::kTimestamp)});
  }
  s.label = "update-schema/promote-date-before-v3";
  s.intent = Intent::kReject;
  s.aimed = RuleId::kIceTypePromotion;
  s.clauses = {Clause(RuleId::kIceTypePromotion, "by-version")};
  return s.Render(ctx);
}

/// Flavour 12: a change naming a field the schema does not have.
std::optional<RenderedStep> RenderUnknownField(const Ctx& ctx) {
  const Schema& schema = *ctx.schema();
  FieldId ghost = ctx.md().last_column_id + 1000;
  while (FindField(schema, ghost)) ++ghost;
  SchemaStep s;
  switch (ctx.step.pick % 3) {
    case 0:
      s.u.changes.push_back(
          RenameColumn{ghost, fmt::format("renamed_{}", ctx.counters.next_name++)});
      break;
    case 1:
      s.u.changes.push_back(MakeOptional{ghost});
      break;
    default:
      s.u.changes.push_back(UpdateColumnType{ghost, Type::Primitive(TypeId::kLong)});
      break;
  }
  s.label = "update-schema/unknown-field";
  s.intent = Intent::kReject;
  s.aimed = RuleId::kIceSchemaEvolution;
  s.clauses = {Clause(RuleId::kIceSchemaEvolution, "existing-fields")};
  return s.Render(ctx);
}

/// Flavour 13: a field renamed, or a column added, to a sibling's name.
std::optional<RenderedStep> RenderSiblingName(const Ctx& ctx) {
  const Schema& schema = *ctx.schema();
  if (schema.fields.empty()) return std::nullopt;
  const NestedField& taken = schema.fields[ctx.Pick(schema.fields.size())];
  SchemaStep s;
  if (schema.fields.size() >= 2 && ctx.step.pick % 2 == 0) {
    const NestedField& other =
        schema.fields[(ctx.Pick(schema.fields.size()) + 1 +
                       ctx.Pick(schema.fields.size() - 1, 1)) %
                      schema.fields.size()];
    s.u.changes.push_back(RenameColumn{other.id, taken.name});
  } else {
    AddColumn a;
    a.name = taken.name;
    a.type = Type::Primitive(TypeId::kString);
    s.u.changes.push_back(std::move(a));
  }
  s.label = "update-schema/sibling-name";
  s.intent = Intent::kReject;
  s.aimed = RuleId::kIceSchemaEvolution;
  s.clauses = {Clause(RuleId::kIceSchemaEvolution, "unique-sibling-names")};
  return s.Render(ctx);
}

/// Flavour 14: a move beside a field that is not a sibling: a top-level field moved after
/// a field inside a struct, or a struct's field moved after a top-level field; either way
/// out of its struct.
std::optional<RenderedStep> RenderMoveOutOfStruct(const Ctx& ctx) {
  const Schema& schema = *ctx.schema();
  std::vector<std::pair<FieldId, FieldId>> moves;  // field, reference
  for (const NestedField& st : schema.fields) {
    if (st.type.id != TypeId::kStruct) continue;
    for (const NestedField& inner : st.type.fields)
      for (const NestedField& top : schema.fields) {
        if (top.id == st.id) continue;
        moves.emplace_back(top.id, inner.id);
        moves.emplace_back(inner.id, top.id);
      }
  }
  if (moves.empty()) return std::nullopt;
  const auto& [id, reference] = moves[ctx.Pick(moves.size())];
  MoveColumn m;
  m.id = id;
  m.position = MoveColumn::Position::kAfter;
  m.reference = reference;
  SchemaStep s;
  s.u.changes.push_back(m);
  s.label = "update-schema/move-out-of-struct";
  s.intent = Intent::kReject;
  s.aimed = RuleId::kIceSchemaEvolution;
  s.clauses = {Clause(RuleId::kIceSchemaEvolution, "moves-among-siblings")};
  return s.Render(ctx);
}

}  // namespace ictk::render_internal
