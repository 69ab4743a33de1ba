/// \file
/// Steps that stand in for a planned one to repair the precondition of a rare clause: the
/// chain that catches a UDF check's status carried wrongly (expr.udf-status/no-carry) and a
/// primary key's struct made optional (sch.pk-stays-required/optional-parent).
#include <limits>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "generators/render_internal.h"
#include "generators/value_gen.h"
#include "model/iceberg/expression.h"
#include "model/iceberg/schema.h"

namespace ictk::render_internal {
namespace {

/// The name of the first function a check expression applies, or "".
std::string FirstAppliedFunction(const Expr& e) {
  if (e.op == ExprOp::kApply && e.function.size() == 1) return e.function.front();
  for (const Expr& child : e.children)
    if (std::string name = FirstAppliedFunction(child); !name.empty()) return name;
  return "";
}

/// Which links of the UDF status chain (RenderUdfCarryChain) a step may stand in for.
struct ChainLinks {
  bool lenient = false;   ///< 1: redefine the function to accept every value
  bool validate = false;  ///< 2: validate every constraint
  bool stricter = false;  ///< 3: redefine the function above every generated value
  bool remove = false;    ///< 4: delete a row, leaving a breaking one live
};

/// The links this step may stand in for; nullopt when it stands in for none. The steps a
/// link may stand in for: row commits, validate, the reads of the table and constraint
/// updates (never an add-constraint, an invalid one, a schema change or an append that
/// collides with a live key, whose clauses are rare enough). The pick decides, so that
/// most steps of each kind stay what the plan says.
std::optional<ChainLinks> LinksOfStep(const Ctx& ctx) {
  const StepKind kind = ctx.step.kind;
  const bool adds = kind == StepKind::kAppend || kind == StepKind::kOverwrite ||
                    kind == StepKind::kModify || kind == StepKind::kValidate ||
                    kind == StepKind::kReplace || kind == StepKind::kDelete ||
                    kind == StepKind::kScan || kind == StepKind::kLoadTable ||
                    kind == StepKind::kUpdateConstraint;
  if (!adds && kind != StepKind::kDefineFunction) return std::nullopt;
  if (kind == StepKind::kAppend && ctx.Flavour(7) == 1) return std::nullopt;  // collide-live
  if (!SendsUdfs(ctx.caps()) || ctx.md().format_version < 4 || ctx.schema() == nullptr ||
      ctx.table->rows.empty())
    return std::nullopt;
  const bool define = kind == StepKind::kDefineFunction && ctx.step.pick % 4 != 0;
  ChainLinks links;
  links.lenient = define || (adds && ctx.step.pick % 4 == 1);
  links.validate = (kind == StepKind::kValidate && ctx.step.pick % 4 != 0) ||
                   (adds && ctx.step.pick % 4 >= 2);
  links.stricter = define || (adds && ctx.step.pick % 4 != 0);
  links.remove = adds && ctx.step.pick % 4 != 0;
  return links;
}

/// Whether check `c` is listed `validated` (or `valid`) in the current snapshot.
bool ListedValidated(const Ctx& ctx, const Constraint& c) {
  const Snapshot* snapshot = ctx.md().CurrentSnapshot();
  bool validated = false;
  if (snapshot != nullptr && snapshot->constraint_statuses)
    for (ConstraintStatus s : {ConstraintStatus::kValidated, ConstraintStatus::kValid}) {
      const auto& list = snapshot->constraint_statuses->List(s);
      validated = validated ||
                  (list && std::find(list->begin(), list->end(), *c.id) != list->end());
    }
  return validated;
}

/// The next link of the chain for check `c` calling `function`, when this step may
/// stand in for it.
std::optional<RenderedStep> NextLink(const Ctx& ctx, const ChainLinks& links,
                                     const Constraint& c, const std::string& function) {
  const bool validated = ListedValidated(ctx, c);
  const std::vector<std::string> violators = Violators(ctx, c);
  // Thresholds are ints, as the parameter (constraint_gen.h): every value is at or above
  // the minimum (lenient), none is above the maximum (stricter).
  const auto redefine = [&](int64_t threshold, const char* label, bool or_equal = false) {
    return Make(DefineFunction{UdfGreaterThan(function, threshold, true, or_equal)}, "", label,
                Intent::kOk, std::nullopt,
                {RuleId::kExprUdfStatus, RuleId::kExprDeterministic});
  };
  if (!validated && !violators.empty()) {  // 1
    if (links.lenient)
      return redefine(std::numeric_limits<int32_t>::min(), "define-function/redefine-lenient",
                      /*or_equal=*/true);
    return std::nullopt;
  }
  if (!validated) {  // 2
    if (!links.validate) return std::nullopt;
    Validate v;
    for (const Constraint& each : ctx.constraints())
      if (each.name) v.names.push_back(*each.name);
    return Make(std::move(v), ctx.options.table, "validate/udf-check", Intent::kAny,
                std::nullopt, {RuleId::kStValidated, RuleId::kExprUdfStatus});
  }
  if (!violators.empty()) {  // 4
    if (!links.remove) return std::nullopt;
    std::vector<std::string> others;
    for (const std::string& k : SortedKeys(ctx.table->rows))
      if (k != violators.front()) others.push_back(k);
    if (others.empty()) return std::nullopt;
    Commit commit = MakeCommit(CommitOperation::kDelete);
    commit.remove.push_back(others[ctx.Pick(others.size())]);
    return Make(std::move(commit), ctx.options.table, "delete/after-stricter-udf",
                Intent::kOk, std::nullopt, {RuleId::kExprUdfStatus, RuleId::kStNoAddCarry});
  }
  if (!links.stricter) return std::nullopt;  // 3
  FunctionCatalog functions = ctx.state.functions;
  functions[function] = UdfGreaterThan(function, std::numeric_limits<int32_t>::max(), true);
  bool would_break = false;
  for (const auto& [key, row] : ctx.table->rows)
    would_break = would_break || BreaksCheck(c, row, *ctx.schema(), functions);
  if (would_break)
    return redefine(std::numeric_limits<int32_t>::max(), "define-function/redefine-stricter");
  return std::nullopt;
}

}  // namespace

/// expr.udf-status/no-carry is caught only by a history that, in order, has a check
/// calling a UDF recorded `validated`, a stricter redefinition of that function (so rows
/// the check was validated on now break it) and then a commit that adds no rows (a
/// writer that keeps the parent's status records a `validated` that no longer holds).
/// Each link is rare on its own (a UDF check holds on every live row only when each
/// value is above the function's threshold), so while the table has a check calling one
/// of the history's functions the renderer repairs the next link in place of some steps
/// (define-function: three in four; a row commit, validate, scan, load-table or
/// update-constraint: one in four for link 1, one in two for link 2, three in four for
/// links 3 and 4):
///
/// 1. a live row breaks the check and it is not listed `validated`: the function is
///    redefined to accept every value (`define-function/redefine-lenient`);
/// 2. every live row holds it and it is not listed `validated`: a `validate` of every
///    constraint (`validate/udf-check`), which records it `validated`;
/// 3. it is listed `validated` and every live row holds it: the function is redefined
///    above every generated value (`define-function/redefine-stricter`), when some live
///    row would then break it;
/// 4. it is listed `validated` and a live row breaks it: a delete of one row that leaves
///    a breaking row live (`delete/after-stricter-udf`).
std::optional<RenderedStep> RenderUdfCarryChain(const Ctx& ctx) {
  const std::optional<ChainLinks> links = LinksOfStep(ctx);
  if (!links) return std::nullopt;
  for (const Constraint& c : ctx.constraints()) {
    if (c.type != ConstraintType::kCheck || !c.expression || !c.id ||
        !CallsUserDefinedFunction(*c.expression))
      continue;
    const std::string function = FirstAppliedFunction(*c.expression);
    if (function.rfind(ctx.options.function_prefix, 0) != 0 ||
        !ctx.state.functions.count(function))
      continue;
    if (std::optional<RenderedStep> r = NextLink(ctx, *links, c, function)) return r;
  }
  return std::nullopt;
}

/// sch.pk-stays-required/optional-parent is caught only after a primary key on a field
/// inside a required struct (RenderNestedKeyFirst), by a step that makes the struct
/// optional; update-schema steps are few, so while such a key exists one append (not a
/// collide-live one) or overwrite in four makes its struct optional instead
/// (`update-schema/pk-field-optional`, which must be refused).
std::optional<RenderedStep> RenderPkParentOptional(const Ctx& ctx) {
  if ((ctx.step.kind != StepKind::kAppend && ctx.step.kind != StepKind::kOverwrite) ||
      ctx.step.pick % 4 != 2 || !ctx.caps().schema_evolution ||
      (ctx.step.kind == StepKind::kAppend && ctx.Flavour(7) == 1) ||  // collide-live
      ctx.md().format_version < 4 || ctx.schema() == nullptr)
    return std::nullopt;
  const Schema& schema = *ctx.schema();
  const std::vector<FieldId> identifiers =
      schema.identifier_field_ids.value_or(std::vector<FieldId>{});
  for (const Constraint& c : ctx.constraints()) {
    if (c.type != ConstraintType::kPrimaryKey || !c.field_ids) continue;
    for (FieldId id : *c.field_ids) {
      const FieldId top = TopLevelOf(schema, id);
      std::optional<FieldLocation> outer = FindField(schema, top);
      if (top == id || !outer || !outer->field.required) continue;
      if (std::any_of(identifiers.begin(), identifiers.end(),
                      [&](FieldId i) { return TopLevelOf(schema, i) == top; }))
        continue;
      UpdateSchema u;
      u.changes.push_back(MakeOptional{top});
      RenderedStep r = Make(std::move(u), ctx.options.table, "update-schema/pk-field-optional",
                            Intent::kReject, RuleId::kSchPkStaysRequired);
      r.clauses = {Clause(RuleId::kSchPkStaysRequired, "optional-parent")};
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace ictk::render_internal
