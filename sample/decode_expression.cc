/// \file
/// Check expressions from JSON (decode_internal.h), after the Iceberg expression JSON: the
/// logical operators over `left`/`right`/`child`; unary, comparison and set predicates in
/// the current form (`child`, `left` and `right` terms) and in the older one (`term` plus
/// `value`/`values`, kept as `legacy_form` for expr.id-references to judge); terms are
/// references, literals, transforms, `apply` and UDF `parameter`s.
#include <fmt/format.h>

#include <array>
#include <limits>

#include "sample/decode_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {
namespace {

Expr Term(const Slot& slot);

/// The operators a JSON predicate names (not `true`/`false`, which are literals).
std::optional<ExprOp> PredicateNamed(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, ExprOp>, 17> kOps{{
      {"not", ExprOp::kNot},         {"and", ExprOp::kAnd},
      {"or", ExprOp::kOr},           {"is-null", ExprOp::kIsNull},
      {"not-null", ExprOp::kNotNull}, {"is-nan", ExprOp::kIsNan},
      {"not-nan", ExprOp::kNotNan},  {"lt", ExprOp::kLt},
      {"lt-eq", ExprOp::kLtEq},      {"gt", ExprOp::kGt},
      {"gt-eq", ExprOp::kGtEq},      {"eq", ExprOp::kEq},
      {"not-eq", ExprOp::kNotEq},    {"starts-with", ExprOp::kStartsWith},
      {"not-starts-with", ExprOp::kNotStartsWith}, {"in", ExprOp::kIn},
      {"not-in", ExprOp::kNotIn},
  }};
  for (const auto& [n, op] : kOps)
    if (n == name) return op;
  return std::nullopt;
}

enum class Arity { kLogical, kUnary, kComparison, kSet };

Arity ArityOf(ExprOp op) {
  switch (op) {
    case ExprOp::kNot: case ExprOp::kAnd: case ExprOp::kOr:
      return Arity::kLogical;
    case ExprOp::kIsNull: case ExprOp::kNotNull: case ExprOp::kIsNan: case ExprOp::kNotNan:
      return Arity::kUnary;
    case ExprOp::kIn: case ExprOp::kNotIn:
      return Arity::kSet;
    default:
      return Arity::kComparison;
  }
}

/// The `type` string of an object, when it has one.
std::optional<std::string> TypeName(const Slot& slot) {
  if (!slot.IsObject()) return std::nullopt;
  std::optional<Slot> t = slot.GetEvenNull("type");
  if (!t || !t->IsString()) return std::nullopt;
  return t->Text();
}

std::string Lowered(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

/// `{"type": "literal", "value": ..., "data-type"?: ...}`.
Expr LiteralObject(const Slot& slot) {
  const Slot value = slot.Need("value");
  Expr e;
  e.op = ExprOp::kLiteral;
  if (std::optional<Slot> dt = slot.Get("data-type")) {
    Type type = DecodeType(*dt);
    e.values.push_back(ReadTyped(value, type));
    e.data_type = std::move(type);
  } else {
    e.values.push_back(ReadUntyped(value));
  }
  return e;
}

/// A literal operand: a bare JSON scalar or a literal object.
Expr Literal(const Slot& slot) {
  if (slot.IsNull()) slot.Fail("a literal is not null");
  if (!slot.IsObject()) return Expr::Lit(ReadUntyped(slot));
  if (TypeName(slot) != "literal") slot.Expect("a literal or {\"type\": \"literal\"}");
  return LiteralObject(slot);
}

/// The `values` of in / not-in: an array of literals sharing one data-type, or
/// `{"type": "literals", "data-type": ..., "values": [...]}`.
void LiteralSet(const Slot& slot, Expr& e) {
  if (slot.IsObject()) {
    if (slot.Need("type").Text() != "literals")
      slot.Expect("an array of literals or {\"type\": \"literals\"}");
    Type type = DecodeType(slot.Need("data-type"));
    const Slot values = slot.Need("values");
    if (!values.IsArray()) values.Expect("an array of values");
    for (size_t i = 0; i < values.Size(); ++i) {
      if (values.At(i).IsNull()) values.At(i).Fail("a set holds no null");
      e.values.push_back(ReadTyped(values.At(i), type));
    }
    e.data_type = std::move(type);
    return;
  }
  if (!slot.IsArray()) slot.Expect("an array of literals");
  for (size_t i = 0; i < slot.Size(); ++i) {
    Expr lit = Literal(slot.At(i));
    if (i > 0 && lit.data_type != e.data_type)
      slot.At(i).Fail("the literals of a set have one data-type");
    e.data_type = lit.data_type;
    e.values.push_back(std::move(lit.values[0]));
  }
}

/// `{"type": "transform", "transform": "bucket[16]", "term": ...}` as an apply of the
/// iceberg_functions built-in (the width first).
Expr TransformTerm(const Slot& slot) {
  const Slot spec = slot.Need("transform");
  const std::string text = Lowered(spec.Text());
  Expr inner = DecodeBodyTerm(slot.Need("term"));
  Expr e;
  e.op = ExprOp::kApply;
  e.catalog = "iceberg_functions";
  e.legacy_form = true;
  for (std::string_view plain : {"identity", "year", "month", "day", "hour"}) {
    if (text != plain) continue;
    e.function = {text};
    e.children.push_back(std::move(inner));
    return e;
  }
  const size_t open = text.find('[');
  if (open != std::string::npos && text.back() == ']') {
    const std::string name = text.substr(0, open);
    const std::string width = text.substr(open + 1, text.size() - open - 2);
    if (name == "bucket" || name == "truncate") {
      int64_t w = 0;
      bool ok = !width.empty() && width.size() <= 10;
      for (char c : width) {
        ok = ok && c >= '0' && c <= '9';
        if (ok) w = w * 10 + (c - '0');
      }
      if (!ok || w < 1 || w > std::numeric_limits<int32_t>::max())
        spec.Fail(fmt::format("\"{}\": the width is a positive int", spec.Text()));
      e.function = {name};
      e.children.push_back(Expr::Lit(Value::Long(w)));
      e.children.push_back(std::move(inner));
      return e;
    }
  }
  spec.Fail(fmt::format("\"{}\" is not a transform", spec.Text()));
}

/// An apply's `function`: a name, a name path, or {"catalog"?, "identifier": [...]}.
void FunctionOf(const Slot& slot, Expr& e) {
  auto path = [&e](const Slot& list) {
    if (!list.IsArray() || list.Size() == 0) list.Expect("a non-empty array of names");
    for (size_t i = 0; i < list.Size(); ++i) e.function.push_back(list.At(i).Text());
  };
  if (slot.IsString()) {
    e.function = {slot.Text()};
  } else if (slot.IsArray()) {
    path(slot);
  } else if (slot.IsObject()) {
    if (std::optional<Slot> catalog = slot.Get("catalog")) e.catalog = catalog->Text();
    path(slot.Need("identifier"));
  } else {
    slot.Expect("a function name, a name path or {\"identifier\": [...]}");
  }
}

Expr Apply(const Slot& slot) {
  Expr e;
  e.op = ExprOp::kApply;
  FunctionOf(slot.Need("function"), e);
  const Slot args = slot.Need("arguments");
  if (!args.IsArray()) args.Expect("an array of arguments");
  for (size_t i = 0; i < args.Size(); ++i) {
    const Slot a = args.At(i);
    const std::optional<std::string> t = TypeName(a);
    e.children.push_back(t && PredicateNamed(*t) ? DecodePredicate(a) : Term(a));
  }
  return e;
}

Expr Reference(const Slot& slot) {
  if (std::optional<Slot> id = slot.Get("id")) return Expr::Ref(id->Int());
  if (std::optional<Slot> name = slot.Get("term")) {
    if (!name->IsString()) name->Expect("a column name");
    Expr e;
    e.op = ExprOp::kNamedReference;
    e.name = name->Text();
    return e;
  }
  slot.Fail("a reference has an \"id\" (or the older \"term\")");
}

/// A term in the current form: an object with a `type`, or a bare literal.
Expr Term(const Slot& slot) {
  if (!slot.IsObject()) return Literal(slot);
  const Slot type = slot.Need("type");
  const std::string t = type.Text();
  if (t == "reference") return Reference(slot);
  if (t == "literal") return LiteralObject(slot);
  if (t == "transform") return TransformTerm(slot);
  if (t == "apply") return Apply(slot);
  if (t == "parameter") {
    Expr e;
    e.op = ExprOp::kParameter;
    e.name = slot.Need("name").Text();
    return e;
  }
  if (PredicateNamed(t)) slot.Fail(fmt::format("expected a term, got the predicate \"{}\"", t));
  type.Fail(fmt::format("\"{}\" is not a term", t));
}

/// The operand of `is-null`, `in`, ... given as `child`, or as the older `term`.
Expr Operand(const Slot& slot, const std::optional<Slot>& legacy, std::string_view op,
             Expr& e) {
  if (legacy) {
    e.legacy_form = true;
    return DecodeBodyTerm(*legacy);
  }
  std::optional<Slot> child = slot.GetEvenNull("child");
  if (!child) slot.Fail(fmt::format("{} has no \"child\" (or the older \"term\")", op));
  return Term(slot.Need("child"));
}

Expr Comparison(const Slot& slot, ExprOp op, const std::string& name,
                const std::optional<Slot>& legacy) {
  const bool value = slot.GetEvenNull("value").has_value();
  const bool values = slot.GetEvenNull("values").has_value();
  if (legacy) {
    if (values) slot.Fail(name + " takes no \"values\"");
    if (!value) slot.Fail(name + " has no \"value\"");
    Expr term = DecodeBodyTerm(*legacy);
    Expr e = Expr::Binary(op, std::move(term), Literal(*slot.GetEvenNull("value")));
    e.legacy_form = true;
    return e;
  }
  if (value || values) slot.Fail(name + " has a value but no \"term\"");
  if (!slot.GetEvenNull("left") || !slot.GetEvenNull("right"))
    slot.Fail(name + " has no \"left\" or \"right\"");
  Expr left = Term(slot.Need("left"));
  return Expr::Binary(op, std::move(left), Term(slot.Need("right")));
}

Expr Leaf(const Slot& slot, ExprOp op, const std::string& name) {
  const std::optional<Slot> legacy = slot.GetEvenNull("term");
  const Arity arity = ArityOf(op);
  if (arity == Arity::kComparison) return Comparison(slot, op, name, legacy);
  if (slot.GetEvenNull("value")) slot.Fail(name + " takes no \"value\"");
  Expr e;
  e.op = op;
  if (arity == Arity::kUnary) {
    if (slot.GetEvenNull("values")) slot.Fail(name + " takes no \"values\"");
    e.children.push_back(Operand(slot, legacy, name, e));
    return e;
  }
  if (!slot.GetEvenNull("values")) slot.Fail(name + " has no \"values\"");
  e.children.push_back(Operand(slot, legacy, name, e));
  LiteralSet(*slot.GetEvenNull("values"), e);
  return e;
}

/// `true`, `false` (booleans, any-case strings, or boolean literal objects).
std::optional<Expr> Constant(const Slot& slot) {
  if (slot.json().is_boolean()) return slot.Bool() ? Expr::True() : Expr::False();
  if (slot.IsString()) {
    const std::string s = Lowered(slot.Text());
    if (s == "true") return Expr::True();
    if (s == "false") return Expr::False();
  }
  return std::nullopt;
}

}  // namespace

std::string_view OpText(ExprOp op) {
  switch (op) {
    case ExprOp::kTrue: return "true";
    case ExprOp::kFalse: return "false";
    case ExprOp::kReference: case ExprOp::kNamedReference: return "reference";
    case ExprOp::kLiteral: return "literal";
    case ExprOp::kApply: return "apply";
    case ExprOp::kParameter: return "parameter";
    default: break;
  }
  for (std::string_view name :
       {"not", "and", "or", "is-null", "not-null", "is-nan", "not-nan", "lt", "lt-eq", "gt",
        "gt-eq", "eq", "not-eq", "starts-with", "not-starts-with", "in", "not-in"})
    if (PredicateNamed(name) == op) return name;
  return "?";
}

bool IsPredicateOp(ExprOp op) {
  switch (op) {
    case ExprOp::kReference:
    case ExprOp::kNamedReference:
    case ExprOp::kLiteral:
    case ExprOp::kApply:
    case ExprOp::kParameter:
      return false;
    default:
      return true;
  }
}

Expr DecodePredicate(const Slot& slot) {
  if (std::optional<Expr> c = Constant(slot)) return *c;
  if (!slot.IsObject()) slot.Expect("a predicate (true, false or an object with a type)");
  const std::string t = slot.Need("type").Text();
  if (t == "literal") {
    Expr lit = LiteralObject(slot);
    if (lit.values[0].kind != ValueKind::kBoolean)
      slot.Need("value").Fail("a literal predicate is true or false");
    return lit.values[0].as_bool() ? Expr::True() : Expr::False();
  }
  std::optional<ExprOp> op = PredicateNamed(t);
  if (!op) {
    if (t == "reference" || t == "apply" || t == "transform" || t == "parameter")
      slot.Fail(fmt::format("expected a predicate, got the term \"{}\"", t));
    slot.Need("type").Fail(fmt::format("\"{}\" is not an expression", t));
  }
  if (*op == ExprOp::kNot) return Expr::Unary(ExprOp::kNot, DecodePredicate(slot.Need("child")));
  if (*op == ExprOp::kAnd || *op == ExprOp::kOr) {
    Expr left = DecodePredicate(slot.Need("left"));
    return Expr::Binary(*op, std::move(left), DecodePredicate(slot.Need("right")));
  }
  return Leaf(slot, *op, t);
}

Expr DecodeBodyTerm(const Slot& slot) {
  if (slot.IsString()) {
    Expr e;
    e.op = ExprOp::kNamedReference;
    e.name = slot.Text();
    return e;
  }
  if (!slot.IsObject()) slot.Expect("a column name or a term object");
  Expr e = Term(slot);
  if (e.op == ExprOp::kLiteral) slot.Fail("expected a term (a column name or a term object), got a literal");
  return e;
}

}  // namespace ictk::sample
