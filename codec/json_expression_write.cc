/// \file
/// Check expressions written as JSON (json_expression.h ExpressionToJson, TermToJson):
/// the current form, or the older `term` form where the expression was read in it.
#include <optional>
#include <string>

#include "codec/json_expression.h"
#include "codec/json_expression_internal.h"
#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_type.h"
#include "codec/json_value.h"
#include "model/iceberg/kinds.h"

namespace ictk {
namespace {

using namespace expression_internal;  // NOLINT: the operator names
using nlohmann::json;

json TermJson(const Expr& e);

json FunctionJson(const Expr& e) {
  if (e.catalog)
    return json{{keys::kCatalog, *e.catalog}, {keys::kIdentifier, e.function}};
  if (e.function.size() == 1) return e.function[0];
  return json(e.function);
}

/// The transform text of a legacy transform kApply ("bucket[16]"), or nullopt when the
/// apply is not one.
std::optional<std::string> TransformText(const Expr& e) {
  if (e.op != ExprOp::kApply || !e.legacy_form || e.function.size() != 1)
    return std::nullopt;
  if (e.catalog && *e.catalog != keys::kIcebergFunctions) return std::nullopt;
  const std::string& f = e.function[0];
  for (auto name : kPlainTransforms)
    if (f == name && e.children.size() == 1) return f;
  for (auto name : kWidthTransforms) {
    if (f == name && e.children.size() == 2 && e.children[0].op == ExprOp::kLiteral &&
        !e.children[0].data_type && e.children[0].values.size() == 1 &&
        e.children[0].values[0].kind == ValueKind::kLong)
      return f + "[" + std::to_string(e.children[0].values[0].as_long()) + "]";
  }
  return std::nullopt;
}

/// A term in the older `term` position (a bare name for a named reference).
json LegacyTermJson(const Expr& e) {
  if (e.op == ExprOp::kNamedReference) return e.name;
  return TermJson(e);
}

json LiteralJson(const Expr& e) {
  const Value& v = e.values.empty() ? Value() : e.values[0];
  if (e.data_type) {
    return json{{keys::kType, keys::kLiteral},
                {keys::kValue, ValueToJson(v, *e.data_type)},
                {keys::kDataType, TypeToJson(*e.data_type)}};
  }
  return UntypedValueToJson(v);
}

json TermJson(const Expr& e) {
  switch (e.op) {
    case ExprOp::kReference:
      return json{{keys::kType, keys::kReference}, {keys::kId, e.field_id}};
    case ExprOp::kNamedReference:
      return json{{keys::kType, keys::kReference}, {keys::kTerm, e.name}};
    case ExprOp::kLiteral:
      return LiteralJson(e);
    case ExprOp::kParameter:
      return json{{keys::kType, keys::kParameter}, {keys::kName, e.name}};
    case ExprOp::kApply: {
      if (auto transform = TransformText(e)) {
        return json{{keys::kType, keys::kTransform},
                    {keys::kTransform, *transform},
                    {keys::kTerm, LegacyTermJson(e.children.back())}};
      }
      json args = json::array();
      for (const auto& a : e.children) args.push_back(ExpressionToJson(a));
      return json{{keys::kType, keys::kApply},
                  {keys::kFunction, FunctionJson(e)},
                  {keys::kArguments, std::move(args)}};
    }
    default:
      return ExpressionToJson(e);
  }
}

json SetJson(const Expr& e) {
  if (e.data_type) {
    json values = json::array();
    for (const auto& v : e.values) values.push_back(ValueToJson(v, *e.data_type));
    return json{{keys::kType, keys::kLiterals},
                {keys::kValues, std::move(values)},
                {keys::kDataType, TypeToJson(*e.data_type)}};
  }
  json values = json::array();
  for (const auto& v : e.values) values.push_back(UntypedValueToJson(v));
  return values;
}

/// Whether `e` (a leaf predicate) can be written in the older `term` form.
bool WriteLegacy(const Expr& e) {
  if (!e.legacy_form || e.children.empty()) return false;
  if (IsTerm(e.children[0].op) && e.children[0].op == ExprOp::kLiteral) return false;
  if (IsBinary(e.op))
    return e.children.size() == 2 && e.children[1].op == ExprOp::kLiteral;
  return e.children.size() == 1;
}

}  // namespace

json TermToJson(const Expr& term) { return LegacyTermJson(term); }

json ExpressionToJson(const Expr& e) {
  switch (e.op) {
    case ExprOp::kTrue:
      return true;
    case ExprOp::kFalse:
      return false;
    case ExprOp::kNot:
      return json{{keys::kType, NameOf(e.op)},
                  {keys::kChild,
                   e.children.empty() ? json(true) : ExpressionToJson(e.children[0])}};
    case ExprOp::kAnd:
    case ExprOp::kOr:
      return json{{keys::kType, NameOf(e.op)},
                  {keys::kLeft,
                   e.children.size() > 0 ? ExpressionToJson(e.children[0]) : json(true)},
                  {keys::kRight,
                   e.children.size() > 1 ? ExpressionToJson(e.children[1]) : json(true)}};
    default:
      break;
  }
  if (IsTerm(e.op)) return TermJson(e);
  json j{{keys::kType, NameOf(e.op)}};
  const bool legacy = WriteLegacy(e);
  if (IsUnary(e.op)) {
    if (e.children.empty()) return j;
    if (legacy) {
      j[keys::kTerm] = LegacyTermJson(e.children[0]);
    } else {
      j[keys::kChild] = TermJson(e.children[0]);
    }
  } else if (IsBinary(e.op)) {
    if (e.children.size() < 2) return j;
    if (legacy) {
      j[keys::kTerm] = LegacyTermJson(e.children[0]);
      j[keys::kValue] = LiteralJson(e.children[1]);
    } else {
      j[keys::kLeft] = TermJson(e.children[0]);
      j[keys::kRight] = TermJson(e.children[1]);
    }
  } else if (IsSet(e.op)) {
    if (!e.children.empty()) {
      if (legacy) {
        j[keys::kTerm] = LegacyTermJson(e.children[0]);
      } else {
        j[keys::kChild] = TermJson(e.children[0]);
      }
    }
    j[keys::kValues] = SetJson(e);
  }
  return j;
}

}  // namespace ictk
