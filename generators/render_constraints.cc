/// \file
/// Constraint steps: add-constraint (valid, possibly after repairing its precondition),
/// update-constraint, remove-constraint, define-function (the UDFs checks call) and validate.
#include <limits>
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generators/render_internal.h"
#include "model/judge/rule_catalogue.h"
#include "model/iceberg/schema.h"

namespace ictk::render_internal {

namespace {

FunctionCatalog HistoryFunctions(const Ctx& ctx) {
  FunctionCatalog out;
  for (const auto& [name, def] : ctx.state.functions)
    if (name.rfind(ctx.options.function_prefix, 0) == 0) out.emplace(name, def);
  return out;
}

}  // namespace

ConstraintGenContext GenContext(const Ctx& ctx, std::string name) {
  ConstraintGenContext g;
  g.schema = *ctx.schema();
  g.format_version = ctx.md().format_version;
  g.capabilities = ctx.caps();
  g.existing = ctx.constraints();
  g.functions = HistoryFunctions(ctx);
  g.name = std::move(name);
  return g;
}

std::string FreshName(const Ctx& ctx, std::string_view stem) {
  for (;;) {
    std::string name = fmt::format("{}{}", stem, ctx.counters.next_name++);
    if (FindConstraintByName(ctx.md(), name, true) == nullptr) return name;
  }
}

RenderedStep RenderUpgradeForConstraints(const Ctx& ctx) {
  return Make(Upgrade{4}, ctx.options.table,
              fmt::format("upgrade/v{}-to-v4-for-constraints", ctx.md().format_version),
              Intent::kOk, std::nullopt,
              {RuleId::kUpgPkFromIdentifiers, RuleId::kUpgSkipIneligible,
               RuleId::kIdLastDefaultZero});
}

namespace {

/// One add-constraint in five, while no constraint references a field inside a struct,
/// adds a not-enforced unique on one, and one in five, while the table has no primary
/// key, a primary key on one (inside a required struct), for the schema changes
/// constraints must refuse for nested fields.
std::optional<RenderedStep> RenderNestedKeyInstead(const Ctx& ctx) {
  if (ctx.md().format_version < 4 || !ctx.caps().schema_evolution ||
      !(ctx.step.pick % 5 == 4 || (ctx.step.pick % 5 == 3 && ctx.step.pick % 2 == 1)))
    return std::nullopt;
  bool nested_ref = false;
  for (const Constraint& c : ctx.constraints())
    for (FieldId id : ReferencedFieldIds(c))
      nested_ref = nested_ref || TopLevelOf(*ctx.schema(), id) != id;
  std::optional<RenderedStep> first;
  if (ctx.step.pick % 2 == 1) first = RenderNestedKeyFirst(ctx, true);
  if (!first && !nested_ref) first = RenderNestedKeyFirst(ctx, false);
  return first;
}

/// One add-constraint in four is about a UDF check (one in two while the table has
/// none, for expr.udf-status/no-carry): with no deterministic UDF of this
/// history defined yet, the step defines one first (the check comes with a later step).
/// Half of them while the table has no check calling a UDF yet. Returns the step that
/// repairs the precondition, if one is needed; otherwise sets `g` to prefer a UDF check
/// when this step is about one.
std::optional<RenderedStep> RenderUdfCheckPrecondition(const Ctx& ctx,
                                                       ConstraintGenContext& g) {
  bool has_udf_check = false;
  for (const Constraint& c : ctx.constraints())
    has_udf_check = has_udf_check || (c.type == ConstraintType::kCheck && c.expression &&
                                      CallsUserDefinedFunction(*c.expression));
  if (!(SendsUdfs(ctx.caps()) && ctx.caps().check && ctx.md().format_version >= 4 &&
        (ctx.Flavour(4) == 0 || (!has_udf_check && ctx.Flavour(4) == 2))))
    return std::nullopt;
  bool usable = false;
  for (const auto& [name, def] : g.functions) usable = usable || def.deterministic;
  // A UDF check calls its function on a top-level int column: a table without one gets
  // an optional int column first (the precondition repaired; without it most tables
  // never had a UDF check, and expr.udf-status/no-carry was never reached).
  const bool has_int =
      std::any_of(ctx.schema()->fields.begin(), ctx.schema()->fields.end(),
                  [](const NestedField& f) { return f.type.id == TypeId::kInt; });
  if (!has_int && ctx.caps().schema_evolution) {
    AddColumn a;
    a.name = fmt::format("added_{}", ctx.counters.next_name++);
    a.type = Type::Primitive(TypeId::kInt);
    UpdateSchema u;
    u.changes.push_back(std::move(a));
    return Make(std::move(u), ctx.options.table, "update-schema/add-int-for-udf-check",
                Intent::kOk, std::nullopt, {RuleId::kExprUdfStatus});
  }
  if (!usable)
    return Make(DefineFunction{UdfGreaterThan(
                    fmt::format("{}f{}", ctx.options.function_prefix, ctx.step.pick % 3),
                    static_cast<int64_t>(ctx.step.seed % 4), true)},
                "", "define-function/for-check", Intent::kOk, std::nullopt,
                {RuleId::kExprUdfStatus});
  g.prefer_udf_check = true;
  return std::nullopt;
}

/// The add-constraint step of a valid constraint `c` on a v4 table: its label, intent,
/// tags and clauses.
RenderedStep RenderValidConstraint(const Ctx& ctx, const Constraint& c) {
  std::vector<RuleId> tags = {RuleId::kIdAboveLast, RuleId::kIdUpdateLast,
                              RuleId::kDefByFieldId};
  std::string label = fmt::format("add-constraint/{}", ToString(*c.type));
  if (c.type == ConstraintType::kCheck && CallsUserDefinedFunction(*c.expression)) {
    label += "-udf";
    tags.push_back(RuleId::kExprUdfStatus);
  }
  if (c.type == ConstraintType::kUnique) tags.push_back(RuleId::kKeyUniqueOptionalOk);
  // A constraint that is not enforced never makes the request fail; an enforced one on
  // rows that break it may be rejected or accepted (existing-rows-on-enforce).
  const Intent intent = !c.enforced.value_or(false) ? Intent::kOk : Intent::kAny;
  RenderedStep r = Make(AddConstraint{c}, ctx.options.table, label, intent, std::nullopt, tags);
  r.clauses = {Clause(RuleId::kIdAboveLast, "whole"), Clause(RuleId::kIdUpdateLast, "whole")};
  if (c.type == ConstraintType::kUnique && c.field_ids) {
    // key.unique-optional-ok: a unique key on an optional field, or on a required one
    // under an optional struct.
    bool own = false, parent = false;
    for (const KeyCandidate& k : KeyCandidates(*ctx.schema(), true)) {
      if (std::find(c.field_ids->begin(), c.field_ids->end(), k.id) == c.field_ids->end())
        continue;
      own = own || !k.required;
      parent = parent || (k.required && !k.pk_eligible);
    }
    if (own) r.clauses.push_back(Clause(RuleId::kKeyUniqueOptionalOk, "own-flag"));
    if (parent) r.clauses.push_back(Clause(RuleId::kKeyUniqueOptionalOk, "optional-parent"));
  }
  return r;
}

}  // namespace

std::optional<RenderedStep> RenderAddConstraint(const Ctx& ctx) {
  if (!ctx.caps().check && !ctx.caps().unique && !ctx.caps().primary_key)
    return std::nullopt;
  // On a v1-v3 table, half of the add-constraint steps upgrade it first (the precondition
  // repaired); the other half are refused (def.v4-only).
  if (ctx.md().format_version < 4 && ctx.caps().upgrade &&
      ctx.caps().format_versions.count(4) && ctx.step.pick % 2 == 1)
    return RenderUpgradeForConstraints(ctx);
  if (std::optional<RenderedStep> first = RenderNestedKeyInstead(ctx)) return first;
  ConstraintGenContext g = GenContext(ctx, FreshName(ctx, "c"));
  if (std::optional<RenderedStep> first = RenderUdfCheckPrecondition(ctx, g)) return first;
  std::optional<Constraint> c = Sample(GenValidConstraint(g), ctx.Seed(1), ctx.step.size);
  if (!c) return std::nullopt;
  // Half of the primary keys go on a field inside a required struct when the table has
  // one (RenderNestedKeyFirst), so that making that struct optional can follow
  // (sch.pk-stays-required/optional-parent).
  if (c->type == ConstraintType::kPrimaryKey && ctx.step.pick % 4 >= 2 &&
      ctx.caps().schema_evolution)
    if (std::optional<RenderedStep> nested = RenderNestedKeyFirst(ctx, true)) return nested;
  if (c->type == ConstraintType::kPrimaryKey && ctx.step.pick % 2 == 0 &&
      FindConstraintByName(ctx.md(), "pk", true) == nullptr)
    c->name = "pk";
  if (ctx.md().format_version < 4) {
    return Make(AddConstraint{*c}, ctx.options.table, "add-constraint/v3-table",
                Intent::kReject, RuleId::kDefV4Only, {});
  }
  return RenderValidConstraint(ctx, *c);
}

namespace {

/// An update-constraint being drawn.
struct UpdateDraft {
  UpdateConstraint u;
  std::string label;
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  std::vector<RuleId> tags = {RuleId::kUpdTimestamp, RuleId::kUpdNameEnforcedOnly};
  std::vector<std::string> clauses;
};

/// Flavour 3: a change of the definition (upd.definition-immutable): half the time of a
/// check's expression, else of a key's field-ids, whichever constraint that is.
void UpdateDefinition(const Ctx& ctx, const Constraint& c, UpdateDraft& d) {
  const auto& cs = ctx.constraints();
  const Constraint* t = &c;
  const bool want_check = ctx.step.pick % 2 == 0;
  for (const Constraint& o : cs)
    if (o.name && (o.type == ConstraintType::kCheck) == want_check) {
      t = &o;
      break;
    }
  d.u.name = *t->name;
  if (t->type == ConstraintType::kCheck) {
    d.u.set.expression = Expr::Unary(ExprOp::kNotNull, Expr::Ref(1));
  } else {
    d.u.set.field_ids = std::vector<FieldId>{2};
  }
  d.label = "update-constraint/change-definition";
  d.intent = Intent::kReject;
  d.aimed = RuleId::kUpdDefinitionImmutable;
  if (t->expression && d.u.set.expression == t->expression) d.intent = Intent::kAny;
  if (t->field_ids && d.u.set.field_ids == t->field_ids) d.intent = Intent::kAny;
  if (d.intent == Intent::kReject)
    d.clauses = {Clause(RuleId::kUpdDefinitionImmutable,
                        t->type == ConstraintType::kCheck ? "expression" : "field-ids")};
}

/// Flavour 5: a rename to another constraint's name (def.name-unique), or a plain rename
/// when the table has one constraint.
void UpdateRenameToTaken(const Ctx& ctx, UpdateDraft& d) {
  const auto& cs = ctx.constraints();
  if (cs.size() < 2) {
    d.u.set.name = FreshName(ctx, "renamed");
    d.label = "update-constraint/rename";
    return;
  }
  const Constraint& other = cs[(ctx.Pick(cs.size()) + 1) % cs.size()];
  d.u.set.name = other.name;
  d.label = "update-constraint/rename-to-taken";
  d.intent = Intent::kReject;
  d.aimed = RuleId::kDefNameUnique;
}

}  // namespace

std::optional<RenderedStep> RenderUpdateConstraint(const Ctx& ctx) {
  const auto& cs = ctx.constraints();
  if (cs.empty()) return std::nullopt;
  const Constraint& c = cs[ctx.Pick(cs.size())];
  if (!c.name) return std::nullopt;
  UpdateDraft d;
  d.u.name = *c.name;
  switch (ctx.Flavour(8)) {
    case 0:
    default:
      d.u.set.name = FreshName(ctx, "renamed");
      d.label = "update-constraint/rename";
      break;
    case 1:
    case 2:
      d.u.set.enforced = !c.enforced.value_or(false);
      if (ctx.Flavour(8) == 2) d.u.set.name = FreshName(ctx, "renamed");
      d.label = *d.u.set.enforced ? "update-constraint/enforce"
                                  : "update-constraint/unenforce";
      if (*d.u.set.enforced) {
        d.intent = Intent::kAny;  // existing rows may break it (existing-rows-on-enforce)
        d.tags.push_back(RuleId::kEnfEnforced);
      }
      break;
    case 3:
      UpdateDefinition(ctx, c, d);
      break;
    case 4:
      d.u.set.type = c.type == ConstraintType::kUnique ? "primary-key" : "unique";
      d.label = "update-constraint/change-type";
      d.intent = Intent::kReject;
      d.aimed = RuleId::kUpdNameEnforcedOnly;
      break;
    case 5:
      UpdateRenameToTaken(ctx, d);
      break;
    case 6:  // restates the current definition (switch restated-definition)
      if (c.expression) d.u.set.expression = c.expression;
      if (c.field_ids) d.u.set.field_ids = c.field_ids;
      d.u.set.enforced = c.enforced;
      d.label = "update-constraint/restate";
      d.intent = Intent::kAny;
      d.tags = {RuleId::kUpdDefinitionImmutable};
      break;
    case 7:
      d.u.name = "no_such_constraint";
      d.u.set.name = FreshName(ctx, "renamed");
      d.label = "update-constraint/unknown-name";
      d.intent = Intent::kReject;
      d.aimed = RuleId::kProtoRequest;
      d.tags = {};
      break;
  }
  RenderedStep r = Make(std::move(d.u), ctx.options.table, d.label, d.intent, d.aimed, d.tags);
  r.clauses = std::move(d.clauses);
  return r;
}

std::optional<RenderedStep> RenderRemoveConstraint(const Ctx& ctx) {
  const auto& cs = ctx.constraints();
  if (cs.empty() || ctx.Flavour(6) == 5) {
    if (ctx.md().format_version < 4) return std::nullopt;
    return Make(RemoveConstraint{"no_such_constraint"}, ctx.options.table,
                "remove-constraint/unknown-name", Intent::kReject, RuleId::kProtoRequest);
  }
  const Constraint& c = cs[ctx.Pick(cs.size())];
  if (!c.name) return std::nullopt;
  return Make(RemoveConstraint{*c.name}, ctx.options.table, "remove-constraint",
              Intent::kOk, std::nullopt,
              {RuleId::kIdNoReuse, RuleId::kIdReadersTolerateMissing});
}

std::optional<RenderedStep> RenderDefineFunction(const Ctx& ctx) {
  const std::string name =
      fmt::format("{}f{}", ctx.options.function_prefix, ctx.step.pick % 3);
  const bool exists = ctx.state.functions.count(name) > 0;
  const uint32_t flavour = ctx.Flavour(5);
  const bool deterministic = flavour != 4;
  int64_t threshold = static_cast<int64_t>(ctx.step.seed % 4);
  std::string label = exists ? "define-function/redefine" : "define-function/define";
  // One redefinition in three raises the threshold to the int maximum, which no value is
  // above, so that rows a UDF check was validated on now break it: a later commit without adds that
  // keeps the parent's status for the check is then caught (expr.udf-status/no-carry).
  if (exists && deterministic && ctx.step.pick % 3 == 0) {
    threshold = std::numeric_limits<int32_t>::max();
    label += "-stricter";
  }
  if (!deterministic) label += "-nondeterministic";
  return Make(DefineFunction{UdfGreaterThan(name, threshold, deterministic)}, "", label,
              Intent::kOk, std::nullopt,
              {RuleId::kExprUdfStatus, RuleId::kExprDeterministic});
}

std::optional<RenderedStep> RenderValidate(const Ctx& ctx) {
  const auto& cs = ctx.constraints();
  if (cs.empty() || ctx.md().format_version < 4) return std::nullopt;
  Validate v;
  std::string label = "validate/all";
  Intent intent = Intent::kAny;
  std::optional<RuleId> aimed;
  switch (ctx.Flavour(5)) {
    case 0:
    case 1:
    case 2:
    default:
      for (const Constraint& c : cs)
        if (c.name) v.names.push_back(*c.name);
      break;
    case 3: {
      const Constraint& c = cs[ctx.Pick(cs.size())];
      if (c.name) v.names.push_back(*c.name);
      label = "validate/one";
      break;
    }
    case 4:
      v.names.push_back("no_such_constraint");
      label = "validate/unknown-name";
      intent = Intent::kReject;
      aimed = RuleId::kProtoRequest;
      break;
  }
  return Make(std::move(v), ctx.options.table, label, intent, aimed,
              {RuleId::kStValidated, RuleId::kStInvalid, RuleId::kExprUdfStatus});
}

}  // namespace ictk::render_internal
