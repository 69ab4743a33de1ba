/// \file
/// Check expressions read from JSON (json_expression.h ExpressionFromJson, TermFromJson):
/// the current form and the older `term` form, with a JSON pointer in every error.
#include "codec/json_expression.h"

#include <limits>
#include <optional>
#include <string>

#include "codec/json_expression_internal.h"
#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_type.h"
#include "codec/json_value.h"

namespace ictk {
namespace {

using namespace codec_internal;  // NOLINT: the codec's own helpers
using namespace expression_internal;  // NOLINT: the operator names
using nlohmann::json;

Result<Expr> Predicate(const json& j, std::string_view pointer);
Result<Expr> Term(const json& j, std::string_view pointer);

Result<Expr> Member(const json& j, std::string_view key, std::string_view pointer,
                    bool term) {
  auto m = Require(j, key, pointer);
  if (!m) return tl::unexpected(m.error());
  return term ? Term(**m, Child(pointer, key)) : Predicate(**m, Child(pointer, key));
}

/// A literal object `{"type":"literal","value":V,"data-type"?:T}`.
Result<Expr> LiteralObject(const json& j, std::string_view pointer) {
  auto v = Require(j, keys::kValue, pointer);
  if (!v) return tl::unexpected(v.error());
  const std::string vp = Child(pointer, keys::kValue);
  Expr e;
  e.op = ExprOp::kLiteral;
  if (const json* dt = Find(j, keys::kDataType)) {
    auto type = TypeFromJson(*dt, Child(pointer, keys::kDataType));
    if (!type) return tl::unexpected(type.error());
    auto value = ValueFromJson(**v, *type, vp);
    if (!value) return tl::unexpected(value.error());
    e.values.push_back(std::move(*value));
    e.data_type = std::move(*type);
  } else {
    auto value = UntypedValueFromJson(**v, vp);
    if (!value) return tl::unexpected(value.error());
    e.values.push_back(std::move(*value));
  }
  return e;
}

/// A literal in a value position: a bare JSON scalar or a literal object. Never null: "a
/// direct literal operand ... must not be null" and a null literal has no type.
Result<Expr> Literal(const json& j, std::string_view pointer) {
  if (j.is_null()) return ParseError(pointer, "a literal must not be null");
  if (j.is_object()) {
    auto type = Find(j, keys::kType);
    if (type != nullptr && type->is_string() && *type == keys::kLiteral)
      return LiteralObject(j, pointer);
    return Expected(pointer, "a literal value or {\"type\": \"literal\", ...}", j);
  }
  auto value = UntypedValueFromJson(j, pointer);
  if (!value) return tl::unexpected(value.error());
  return Expr::Lit(std::move(*value));
}

/// A literal set: `[LITERAL...]` or
/// `{"type":"literals","values":[VALUE...],"data-type":T}`. Fills `e.values` and
/// `e.data_type`.
Result<bool> LiteralSet(const json& j, std::string_view pointer, Expr& e) {
  if (j.is_object()) {
    auto type_name = RequireString(j, keys::kType, pointer);
    if (!type_name) return tl::unexpected(type_name.error());
    if (*type_name != keys::kLiterals)
      return Expected(pointer, "an array of literals or {\"type\": \"literals\", ...}",
                      j);
    auto dt = Require(j, keys::kDataType, pointer);
    if (!dt) return tl::unexpected(dt.error());
    auto type = TypeFromJson(**dt, Child(pointer, keys::kDataType));
    if (!type) return tl::unexpected(type.error());
    auto vs = Require(j, keys::kValues, pointer);
    if (!vs) return tl::unexpected(vs.error());
    const std::string vp = Child(pointer, keys::kValues);
    if (!(*vs)->is_array()) return Expected(vp, "an array of values", **vs);
    for (size_t i = 0; i < (*vs)->size(); ++i) {
      if ((**vs)[i].is_null())
        return ParseError(Child(vp, i), "a set literal must not be null");
      auto v = ValueFromJson((**vs)[i], *type, Child(vp, i));
      if (!v) return tl::unexpected(v.error());
      e.values.push_back(std::move(*v));
    }
    e.data_type = std::move(*type);
    return true;
  }
  if (!j.is_array()) return Expected(pointer, "an array of literals", j);
  std::optional<std::optional<Type>> common;  // outer: seen any; inner: its data type
  for (size_t i = 0; i < j.size(); ++i) {
    auto lit = Literal(j[i], Child(pointer, i));
    if (!lit) return tl::unexpected(lit.error());
    if (common && *common != lit->data_type)
      return ParseError(Child(pointer, i),
                        "the literals of a set must share one data-type");
    common = lit->data_type;
    e.values.push_back(std::move(lit->values[0]));
  }
  if (common) e.data_type = *common;
  return true;
}

/// `"bucket[16]"` etc. -> kApply of iceberg_functions with (width, term) or (term).
Result<Expr> TransformTerm(const json& j, std::string_view pointer) {
  auto spec = RequireString(j, keys::kTransform, pointer);
  if (!spec) return tl::unexpected(spec.error());
  auto term_json = Require(j, keys::kTerm, pointer);
  if (!term_json) return tl::unexpected(term_json.error());
  auto term = TermFromJson(**term_json, Child(pointer, keys::kTerm));
  if (!term) return tl::unexpected(term.error());
  const std::string tp = Child(pointer, keys::kTransform);
  const std::string text = Lower(*spec);
  Expr e;
  e.op = ExprOp::kApply;
  e.catalog = std::string(keys::kIcebergFunctions);
  e.legacy_form = true;
  for (auto name : kPlainTransforms) {
    if (text == name) {
      e.function = {std::string(name)};
      e.children.push_back(std::move(*term));
      return e;
    }
  }
  const size_t open = text.find('[');
  if (open != std::string::npos && text.back() == ']') {
    const std::string name = text.substr(0, open);
    const std::string arg = text.substr(open + 1, text.size() - open - 2);
    for (auto known : kWidthTransforms) {
      if (name != known) continue;
      int64_t width = 0;
      bool digits = !arg.empty() && arg.size() <= 10;
      for (char c : arg) {
        digits = digits && c >= '0' && c <= '9';
        if (digits) width = width * 10 + (c - '0');
      }
      if (!digits || width < 1 || width > std::numeric_limits<int32_t>::max())
        return ParseError(tp, "cannot parse transform term \"" + *spec +
                                  "\": the width must be a positive int");
      e.function = {std::string(known)};
      e.children.push_back(Expr::Lit(Value::Long(width)));
      e.children.push_back(std::move(*term));
      return e;
    }
  }
  return ParseError(tp, "unknown transform in expression term: \"" + *spec + "\"");
}

/// FUNC: NAME | [NAME...] | {"identifier":[NAME...]} |
/// {"catalog":NAME,"identifier":[...]}.
Result<bool> FunctionName(const json& j, std::string_view pointer, Expr& e) {
  auto names = [&](const json& list, std::string_view p) -> Result<bool> {
    if (!list.is_array() || list.empty())
      return Expected(p, "a non-empty array of names", list);
    for (size_t i = 0; i < list.size(); ++i) {
      auto s = AsString(list[i], Child(p, i));
      if (!s) return tl::unexpected(s.error());
      e.function.push_back(std::move(*s));
    }
    return true;
  };
  if (j.is_string()) {
    e.function = {j.get<std::string>()};
    return true;
  }
  if (j.is_array()) return names(j, pointer);
  if (j.is_object()) {
    auto catalog = OptString(j, keys::kCatalog, pointer);
    if (!catalog) return tl::unexpected(catalog.error());
    e.catalog = std::move(*catalog);
    auto id = Require(j, keys::kIdentifier, pointer);
    if (!id) return tl::unexpected(id.error());
    return names(**id, Child(pointer, keys::kIdentifier));
  }
  return Expected(pointer, "a function name, a name path or {\"identifier\": [...]}", j);
}

/// An `apply` argument: a predicate object (if_else's condition) or an EXPR.
Result<Expr> Argument(const json& j, std::string_view pointer) {
  if (j.is_object()) {
    const json* type = Find(j, keys::kType);
    if (type != nullptr && type->is_string() && PredicateOp(type->get<std::string>()))
      return Predicate(j, pointer);
  }
  return Term(j, pointer);
}

/// EXPR: LITERAL | reference | apply | parameter | transform (and literal objects).
Result<Expr> Term(const json& j, std::string_view pointer) {
  if (TooDeep(pointer)) return TooDeepError(pointer);
  if (!j.is_object()) return Literal(j, pointer);
  auto type_name = RequireString(j, keys::kType, pointer);
  if (!type_name) return tl::unexpected(type_name.error());
  const std::string& t = *type_name;
  if (t == keys::kReference) {
    if (const json* id = Find(j, keys::kId)) {
      auto v = AsInt32(*id, Child(pointer, keys::kId));
      if (!v) return tl::unexpected(v.error());
      return Expr::Ref(*v);
    }
    if (const json* term = Find(j, keys::kTerm)) {
      auto name = AsString(*term, Child(pointer, keys::kTerm));
      if (!name) {
        return ParseError(Child(pointer, keys::kTerm),
                          "expected string for named reference, got " + KindName(*term));
      }
      Expr e;
      e.op = ExprOp::kNamedReference;
      e.name = std::move(*name);
      return e;
    }
    return ParseError(pointer, "a reference needs \"id\" (or the older \"term\")");
  }
  if (t == keys::kLiteral) return LiteralObject(j, pointer);
  if (t == keys::kTransform) return TransformTerm(j, pointer);
  if (t == keys::kParameter) {
    auto name = RequireString(j, keys::kName, pointer);
    if (!name) return tl::unexpected(name.error());
    Expr e;
    e.op = ExprOp::kParameter;
    e.name = std::move(*name);
    return e;
  }
  if (t == keys::kApply) {
    Expr e;
    e.op = ExprOp::kApply;
    auto f = Require(j, keys::kFunction, pointer);
    if (!f) return tl::unexpected(f.error());
    auto ok = FunctionName(**f, Child(pointer, keys::kFunction), e);
    if (!ok) return tl::unexpected(ok.error());
    auto args = Require(j, keys::kArguments, pointer);
    if (!args) return tl::unexpected(args.error());
    const std::string ap = Child(pointer, keys::kArguments);
    if (!(*args)->is_array()) return Expected(ap, "an array of arguments", **args);
    for (size_t i = 0; i < (*args)->size(); ++i) {
      auto a = Argument((**args)[i], Child(ap, i));
      if (!a) return tl::unexpected(a.error());
      e.children.push_back(std::move(*a));
    }
    return e;
  }
  if (PredicateOp(t))
    return ParseError(pointer,
                      "expected a term (reference, apply or literal), got the "
                      "predicate \"" +
                          t + "\"");
  return ParseError(Child(pointer, keys::kType), "unknown term type \"" + t + "\"");
}

Result<Expr> LegacyTerm(const json& j, std::string_view pointer) {
  if (j.is_string()) {
    Expr e;
    e.op = ExprOp::kNamedReference;
    e.name = j.get<std::string>();
    return e;
  }
  if (j.is_object()) {
    auto term = Term(j, pointer);
    if (!term) return term;
    if (term->op == ExprOp::kLiteral)
      return ParseError(pointer,
                        "expected a term (a column name or a term object), got a "
                        "literal");
    return term;
  }
  return ParseError(pointer,
                    "cannot parse reference (requires string or object): expected "
                    "a term (a column name or a term object), got " +
                        KindName(j));
}

/// `not`, `and` or `or` when `j` is such a predicate object, else nullopt.
[[gnu::noinline]] std::optional<ExprOp> LogicalOp(const json& j) {
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find(keys::kType);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  const std::optional<ExprOp> op = PredicateOp(it->get_ref<const std::string&>());
  if (op == ExprOp::kNot || op == ExprOp::kAnd || op == ExprOp::kOr) return op;
  return std::nullopt;
}

/// Every predicate but `not`, `and` and `or`. Out of line, so that the frames of the
/// recursion through the logical operators (Predicate, Member) stay small: a document
/// nested to the depth limit must not exhaust the stack, even under a sanitizer.
[[gnu::noinline]] Result<Expr> NonLogicalPredicate(const json& j,
                                                   std::string_view pointer);

Result<Expr> Predicate(const json& j, std::string_view pointer) {
  if (TooDeep(pointer)) return TooDeepError(pointer);
  const std::optional<ExprOp> logical = LogicalOp(j);
  if (!logical) return NonLogicalPredicate(j, pointer);
  if (*logical == ExprOp::kNot) {
    auto child = Member(j, keys::kChild, pointer, /*term=*/false);
    if (!child) return child;
    return Expr::Unary(ExprOp::kNot, std::move(*child));
  }
  auto left = Member(j, keys::kLeft, pointer, false);
  if (!left) return left;
  auto right = Member(j, keys::kRight, pointer, false);
  if (!right) return right;
  return Expr::Binary(*logical, std::move(*left), std::move(*right));
}

/// A unary predicate (is-null, not-null, is-nan, not-nan) on its `child`, or on the
/// older `term` when `term` is not null.
Result<Expr> UnaryPredicate(const json& j, std::string_view pointer, ExprOp op,
                            const std::string& name, const json* term) {
  if (j.contains(keys::kValue))
    return ParseError(pointer, name + " has an invalid 'value' field");
  if (j.contains(keys::kValues))
    return ParseError(pointer, name + " has an invalid 'values' field");
  Expr e;
  e.op = op;
  if (term != nullptr) {
    auto t_expr = LegacyTerm(*term, Child(pointer, keys::kTerm));
    if (!t_expr) return t_expr;
    e.children.push_back(std::move(*t_expr));
    e.legacy_form = true;
    return e;
  }
  if (!j.contains(keys::kChild))
    return ParseError(pointer, name + " is missing 'child' (or the older 'term')");
  auto child = Member(j, keys::kChild, pointer, /*term=*/true);
  if (!child) return child;
  e.children.push_back(std::move(*child));
  return e;
}

/// A comparison or starts-with on `left` and `right`, or on the older `term` and `value`.
Result<Expr> BinaryPredicate(const json& j, std::string_view pointer, ExprOp op,
                             const std::string& name, const json* term) {
  const bool has_value = j.contains(keys::kValue);
  const bool has_values = j.contains(keys::kValues);
  if (term != nullptr) {
    if (has_values) return ParseError(pointer, name + " has an invalid 'values' field");
    if (!has_value) return ParseError(pointer, name + " is missing 'value'");
    auto t_expr = LegacyTerm(*term, Child(pointer, keys::kTerm));
    if (!t_expr) return t_expr;
    auto lit = Literal(j[std::string(keys::kValue)], Child(pointer, keys::kValue));
    if (!lit) return lit;
    Expr e = Expr::Binary(op, std::move(*t_expr), std::move(*lit));
    e.legacy_form = true;
    return e;
  }
  if (has_value || has_values)
    return ParseError(pointer, name + " is missing 'term' for its 'value'");
  if (!j.contains(keys::kLeft) || !j.contains(keys::kRight))
    return ParseError(pointer, name + " is missing 'left' or 'right' (or 'term' and 'value')");
  auto left = Member(j, keys::kLeft, pointer, /*term=*/true);
  if (!left) return left;
  auto right = Member(j, keys::kRight, pointer, /*term=*/true);
  if (!right) return right;
  return Expr::Binary(op, std::move(*left), std::move(*right));
}

/// in / not-in: a `child` (or the older `term`) and its `values`.
Result<Expr> SetPredicate(const json& j, std::string_view pointer, ExprOp op,
                          const std::string& name, const json* term) {
  if (j.contains(keys::kValue))
    return ParseError(pointer, name + " has an invalid 'value' field");
  if (!j.contains(keys::kValues)) return ParseError(pointer, name + " is missing 'values'");
  Expr e;
  e.op = op;
  if (term != nullptr) {
    auto t_expr = LegacyTerm(*term, Child(pointer, keys::kTerm));
    if (!t_expr) return t_expr;
    e.children.push_back(std::move(*t_expr));
    e.legacy_form = true;
  } else {
    if (!j.contains(keys::kChild))
      return ParseError(pointer, name + " is missing 'child' (or the older 'term')");
    auto child = Member(j, keys::kChild, pointer, /*term=*/true);
    if (!child) return child;
    e.children.push_back(std::move(*child));
  }
  auto ok = LiteralSet(j[std::string(keys::kValues)], Child(pointer, keys::kValues), e);
  if (!ok) return tl::unexpected(ok.error());
  return e;
}

Result<Expr> NonLogicalPredicate(const json& j, std::string_view pointer) {
  if (j.is_boolean()) return j.get<bool>() ? Expr::True() : Expr::False();
  if (j.is_string()) {
    // iceberg-cpp reads "true"/"false" strings in any letter case as the constants.
    const std::string s = Lower(j.get<std::string>());
    if (s == "true") return Expr::True();
    if (s == "false") return Expr::False();
  }
  if (!j.is_object())
    return Expected(pointer, "a predicate: true, false or an object with a 'type'", j);
  auto type_name = RequireString(j, keys::kType, pointer);
  if (!type_name) return tl::unexpected(type_name.error());
  const std::string& t = *type_name;
  if (t == keys::kLiteral) {
    auto lit = LiteralObject(j, pointer);
    if (!lit) return lit;
    if (lit->values[0].kind != ValueKind::kBoolean)
      return ParseError(Child(pointer, keys::kValue),
                        "a literal predicate must be true or false");
    return lit->values[0].as_bool() ? Expr::True() : Expr::False();
  }
  auto op = PredicateOp(t);
  if (!op) {
    if (t == keys::kReference || t == keys::kApply || t == keys::kTransform ||
        t == keys::kParameter)
      return ParseError(pointer, "expected a predicate, got the term \"" + t + "\"");
    return ParseError(Child(pointer, keys::kType),
                      "unknown expression operation \"" + t + "\"");
  }
  const std::string name(t);
  const json* term = Find(j, keys::kTerm, /*null_is_absent=*/false);
  if (IsUnary(*op)) return UnaryPredicate(j, pointer, *op, name, term);
  if (IsBinary(*op)) return BinaryPredicate(j, pointer, *op, name, term);
  return SetPredicate(j, pointer, *op, name, term);
}

}  // namespace

Result<Expr> ExpressionFromJson(const json& j, std::string_view pointer) {
  try {
    return Predicate(j, pointer);
  } catch (const std::exception& e) {
    return ParseError(pointer, std::string("cannot decode expression: ") + e.what());
  }
}

Result<Expr> TermFromJson(const json& j, std::string_view pointer) {
  try {
    return LegacyTerm(j, pointer);
  } catch (const std::exception& e) {
    return ParseError(pointer, std::string("cannot decode term: ") + e.what());
  }
}
}  // namespace ictk
