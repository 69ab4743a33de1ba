/// \file
/// The public API of evaluate.h: binding a check expression (BindCheckExpression, with
/// the names, determinism and references it uses), evaluating it over a row
/// (EvaluateCheck, CompiledCheck). Its parts share evaluate_internal.h: the built-ins and
/// transforms (builtins.cc), the alignment of operand types (type_alignment.cc), binding
/// (bind.cc, bind_function.cc) and evaluation (evaluation.cc).
#include "model/iceberg/evaluate.h"

#include <fmt/format.h>

#include "model/iceberg/evaluate_internal.h"

namespace ictk {

namespace {

using internal::Builtin;
using internal::Compile;
using internal::EvaluateBound;
using internal::kMaxCallDepth;
using internal::NamesIcebergCatalog;
using internal::ResolveBuiltin;
using internal::UdfName;

/// Names, determinism and references, collected over the whole tree (also where binding
/// fails), for BindResult. UDF bodies are followed for determinism only.
void Survey(const Expr& e, const FunctionCatalog& functions, BindResult& out,
            bool in_body, int depth) {
  if (e.op == ExprOp::kReference && !in_body)
    out.referenced_field_ids.push_back(e.field_id);
  if (e.op == ExprOp::kApply && ResolveBuiltin(e) == Builtin::kNone &&
      !NamesIcebergCatalog(e)) {
    if (!in_body) out.calls_udf = true;
    out.called_functions.insert(UdfName(e));
    auto it = functions.find(UdfName(e));
    if (it != functions.end()) {
      if (!it->second.deterministic) out.calls_nondeterministic = true;
      if (depth < kMaxCallDepth) {
        Survey(it->second.body, functions, out, true, depth + 1);
      } else {
        out.calls_beyond_depth = true;
      }
    }
  }
  for (const Expr& c : e.children) Survey(c, functions, out, in_body, depth);
}

}  // namespace

CompiledCheck::CompiledCheck(const Expr& expr, const std::vector<NestedField>& fields,
                             const FunctionCatalog& functions)
    : bound_(std::make_shared<const internal::BoundCheck>(
          Compile(expr, fields, functions))) {}

bool CompiledCheck::ok() const { return bound_->evaluable(); }

std::optional<bool> CompiledCheck::Evaluate(const Value& row) const {
  return EvaluateBound(*bound_, row);
}

std::string CompiledCheck::Explain(const Value& row) const {
  return internal::ExplainBound(*bound_, row);
}

BindResult SurveyCalls(const Expr& expr, const FunctionCatalog& functions) {
  BindResult result;
  Survey(expr, functions, result, /*in_body=*/false, 0);
  return result;
}

BindResult BindCheckExpression(const Expr& expr, const std::vector<NestedField>& fields,
                               const FunctionCatalog& functions) {
  BindResult result;
  Survey(expr, functions, result, /*in_body=*/false, 0);
  internal::BoundCheck c = Compile(expr, fields, functions);
  result.undefined_functions = c.diag.undefined;
  if (!c.diag.first_error.empty()) {
    result.error = c.diag.first_error;
  } else if (!c.diag.undefined.empty()) {
    result.error = fmt::format("unknown function {}", c.diag.undefined.front());
  } else if (!c.root) {
    result.error = "cannot bind expression";
  }
  return result;
}

std::optional<bool> EvaluateCheck(const Expr& expr,
                                  const std::vector<NestedField>& fields,
                                  const Value& row, const FunctionCatalog& functions) {
  return EvaluateBound(Compile(expr, fields, functions), row);
}

}  // namespace ictk
