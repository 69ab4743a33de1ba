/// \file
/// The sample's check compiler and evaluator. A check is compiled against the current
/// schema and UDF catalog each time it is used, the way an engine binds a predicate
/// before scanning: errors name the rule they break, and evaluation never fails on a
/// compiled tree.
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>

#include "sample/check_internal.h"
#include "sample/decode_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {

enum class Builtin {
  kNone,
  kIfElse,
  kIdentity,
  kYear,
  kMonth,
  kDay,
  kHour,
  kBucket,
  kTruncate
};

/// A compiled expression node. Predicates have `type` boolean.
struct CheckNode {
  enum class Kind {
    kTrue,
    kFalse,
    kNot,
    kAnd,
    kOr,
    kIsNull,
    kNotNull,
    kIsNan,
    kNotNan,
    kCompare,
    kStartsWith,
    kNotStartsWith,
    kIn,
    kNotIn,
    kTruth,
    kRef,
    kLit,
    kParam,
    kBuiltin,
    kUdf,
    kConvert,
  };
  Kind kind = Kind::kTrue;
  ExprOp op = ExprOp::kTrue;  ///< kCompare: which comparison
  Type type;                  ///< a term's type
  Domain domain = Domain::kNone;
  std::vector<CheckNode> kids;
  Value literal;                          ///< kLit
  std::vector<Comparable> set;            ///< kIn / kNotIn
  std::vector<FieldId> path;              ///< kRef
  bool unresolvable = false;              ///< kRef into a list/map (mutant): always null
  int param = -1;                         ///< kParam
  Builtin builtin = Builtin::kNone;       ///< kBuiltin
  int64_t width = 0;                      ///< bucket / truncate
  std::shared_ptr<const CheckNode> body;  ///< kUdf: the compiled body over its parameters
  bool udf_defined = true;                ///< kUdf
};

namespace {

using Kind = CheckNode::Kind;
constexpr int kMaxUdfDepth = 16;
constexpr std::string_view kIcebergFunctions = "iceberg_functions";
constexpr int64_t kMicrosPerDay = 86'400'000'000LL;
constexpr int64_t kMicrosPerHour = 3'600'000'000LL;

Builtin BuiltinNamed(std::string_view name) {
  if (name == "if_else") return Builtin::kIfElse;
  if (name == "identity") return Builtin::kIdentity;
  if (name == "year") return Builtin::kYear;
  if (name == "month") return Builtin::kMonth;
  if (name == "day") return Builtin::kDay;
  if (name == "hour") return Builtin::kHour;
  if (name == "bucket") return Builtin::kBucket;
  if (name == "truncate") return Builtin::kTruncate;
  return Builtin::kNone;
}

bool IsInteger(TypeId t) { return t == TypeId::kInt || t == TypeId::kLong; }
bool IsFloat(TypeId t) { return t == TypeId::kFloat || t == TypeId::kDouble; }
bool IsTimestamp(TypeId t) {
  return t == TypeId::kTimestamp || t == TypeId::kTimestampTz ||
         t == TypeId::kTimestampNs || t == TypeId::kTimestampTzNs;
}
bool IsNanoType(TypeId t) {
  return t == TypeId::kTimestampNs || t == TypeId::kTimestampTzNs;
}

bool IsNullLike(const Value& v) {
  return v.is_null() || (v.kind == ValueKind::kDouble && std::isnan(v.as_double()));
}

bool IsUntypedLiteral(const Expr& e) { return e.op == ExprOp::kLiteral && !e.data_type; }

Int128 Pow10(int n) {
  Int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// Parses "[-]digits[.digits]" exactly.
std::optional<Decimal> ParseDecimalText(std::string_view s) {
  Decimal d;
  bool neg = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  bool digits = false;
  bool dot = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.' && !dot) {
      dot = true;
      continue;
    }
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    if (d.unscaled > Pow10(37)) return std::nullopt;
    d.unscaled = d.unscaled * 10 + (s[i] - '0');
    digits = true;
    if (dot) ++d.scale;
  }
  if (!digits) return std::nullopt;
  if (neg) d.unscaled = -d.unscaled;
  return d;
}

/// The common domain and type of two operand types, when values of both compare safely.
std::optional<std::pair<Domain, Type>> Align(const Type& a, const Type& b) {
  if (a.id == TypeId::kUnknown && b.id == TypeId::kUnknown) {
    return std::pair{Domain::kBool, a};
  }
  if (a.id == TypeId::kUnknown) return Align(b, b);
  if (b.id == TypeId::kUnknown) return Align(a, a);
  const TypeId x = a.id, y = b.id;
  if (IsInteger(x) && IsInteger(y)) {
    return std::pair{
        Domain::kExact,
        Type::Primitive(x == TypeId::kLong || y == TypeId::kLong ? TypeId::kLong
                                                                 : TypeId::kInt)};
  }
  if ((x == TypeId::kDecimal || IsInteger(x)) &&
      (y == TypeId::kDecimal || IsInteger(y))) {
    const int32_t sa = x == TypeId::kDecimal ? a.scale : 0;
    const int32_t sb = y == TypeId::kDecimal ? b.scale : 0;
    return std::pair{Domain::kExact, Type::Decimal(38, std::max(sa, sb))};
  }
  if ((IsFloat(x) || IsInteger(x)) && (IsFloat(y) || IsInteger(y))) {
    return std::pair{
        Domain::kDouble,
        Type::Primitive(x == TypeId::kFloat && y == TypeId::kFloat ? TypeId::kFloat
                                                                   : TypeId::kDouble)};
  }
  if (x == y) {
    switch (x) {
      case TypeId::kBoolean:
        return std::pair{Domain::kBool, a};
      case TypeId::kDate:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs:
        return std::pair{Domain::kExact, a};
      case TypeId::kString:
      case TypeId::kUuid:
      case TypeId::kBinary:
        return std::pair{Domain::kBytes, a};
      case TypeId::kFixed:
        if (a.length == b.length) return std::pair{Domain::kBytes, a};
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }
  if (x == TypeId::kDate && (y == TypeId::kTimestamp || y == TypeId::kTimestampNs)) {
    return std::pair{Domain::kExact, b};
  }
  if (y == TypeId::kDate && (x == TypeId::kTimestamp || x == TypeId::kTimestampNs)) {
    return std::pair{Domain::kExact, a};
  }
  return std::nullopt;
}

std::optional<Value> FromText(const std::string& text, const Type& type) {
  return ValueOfText(type, text);
}

/// Binds an untyped literal compared with (or passed as) a value of `type`: the type it
/// takes and its value, trying `type` first and then the wider domains a safe comparison
/// allows (an int field against 5.5 compares as double; a date against a timestamp string
/// as a timestamp).
std::optional<std::pair<Type, Value>> BindLiteral(const Value& lit, const Type& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      if (lit.kind == ValueKind::kBoolean) return std::pair{type, lit};
      return std::nullopt;
    case TypeId::kInt:
    case TypeId::kLong:
      if (lit.kind == ValueKind::kLong) {
        const int64_t x = lit.as_long();
        const bool fits =
            type.id == TypeId::kLong || (x >= std::numeric_limits<int32_t>::min() &&
                                         x <= std::numeric_limits<int32_t>::max());
        return std::pair{fits ? type : Type::Primitive(TypeId::kLong), lit};
      }
      if (lit.kind == ValueKind::kDouble)
        return std::pair{Type::Primitive(TypeId::kDouble), lit};
      return std::nullopt;
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (lit.kind == ValueKind::kLong) {
        return std::pair{type, Value::Double(static_cast<double>(lit.as_long()))};
      }
      if (lit.kind == ValueKind::kDouble) return std::pair{type, lit};
      return std::nullopt;
    case TypeId::kDecimal: {
      std::optional<Decimal> d;
      if (lit.kind == ValueKind::kLong) d = Decimal{lit.as_long(), 0};
      if (lit.kind == ValueKind::kDecimal) d = lit.as_decimal();
      if (lit.kind == ValueKind::kString) d = ParseDecimalText(lit.as_string());
      if (lit.kind == ValueKind::kDouble && std::isfinite(lit.as_double())) {
        d = ParseDecimalText(fmt::format("{}", lit.as_double()));
      }
      if (!d) return std::nullopt;
      if (d->scale <= type.scale) {
        d->unscaled *= Pow10(type.scale - d->scale);
        d->scale = type.scale;
        return std::pair{type, Value::DecimalOf(d->unscaled, d->scale)};
      }
      return std::pair{Type::Decimal(38, d->scale),
                       Value::DecimalOf(d->unscaled, d->scale)};
    }
    case TypeId::kString:
      if (lit.kind == ValueKind::kString) return std::pair{type, lit};
      return std::nullopt;
    case TypeId::kDate:
      if (lit.kind != ValueKind::kString) return std::nullopt;
      if (auto v = FromText(lit.as_string(), type)) return std::pair{type, *v};
      for (TypeId wider : {TypeId::kTimestamp, TypeId::kTimestampNs}) {
        if (auto v = FromText(lit.as_string(), Type::Primitive(wider))) {
          return std::pair{Type::Primitive(wider), *v};
        }
      }
      return std::nullopt;
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (lit.kind != ValueKind::kString) return std::nullopt;
      if (auto v = FromText(lit.as_string(), type)) return std::pair{type, *v};
      return std::nullopt;
    case TypeId::kUnknown:
      switch (lit.kind) {
        case ValueKind::kBoolean:
          return std::pair{Type::Primitive(TypeId::kBoolean), lit};
        case ValueKind::kLong:
          return std::pair{Type::Primitive(TypeId::kLong), lit};
        case ValueKind::kDouble:
          return std::pair{Type::Primitive(TypeId::kDouble), lit};
        case ValueKind::kString:
          return std::pair{Type::Primitive(TypeId::kString), lit};
        default:
          return std::nullopt;
      }
    default:
      return std::nullopt;
  }
}

/// The type an untyped literal has on its own.
std::optional<Type> NaturalType(const Value& v) {
  auto bound = BindLiteral(v, Type::Primitive(TypeId::kUnknown));
  if (!bound) return std::nullopt;
  return bound->first;
}

/// `v` of type `from` as a value of the wider `to` (for if_else branches and UDF
/// arguments).
Value Widen(const Value& v, const Type& from, const Type& to) {
  if (v.is_null()) return v;
  if (IsInteger(from.id) && IsFloat(to.id))
    return Value::Double(static_cast<double>(v.as_long()));
  if (IsInteger(from.id) && to.id == TypeId::kDecimal) {
    return Value::DecimalOf(static_cast<Int128>(v.as_long()) * Pow10(to.scale), to.scale);
  }
  if (from.id == TypeId::kDecimal && to.id == TypeId::kDecimal && to.scale > from.scale) {
    return Value::DecimalOf(
        v.as_decimal().unscaled * Pow10(to.scale - v.as_decimal().scale), to.scale);
  }
  return PromoteValue(v, from, to);
}

class Compiler {
 public:
  struct Scope {
    const std::vector<std::pair<std::string, Type>>* params = nullptr;
    int depth = 0;
  };

  Compiler(const std::vector<NestedField>& fields, const UdfCatalog& udfs,
           const CheckOptions& options, CheckInfo& info)
      : fields_(fields),
        slots_(IndexFields(fields)),
        udfs_(udfs),
        options_(options),
        info_(info) {}

  std::optional<CheckNode> Predicate(const Expr& e, const Scope& scope) {
    if (e.legacy_form && !options_.accept_named_references) {
      return Fail("the expression uses the name-based form, not ID references",
                  "expr.id-references");
    }
    CheckNode n;
    n.type = Type::Primitive(TypeId::kBoolean);
    switch (e.op) {
      case ExprOp::kTrue:
        n.kind = Kind::kTrue;
        return n;
      case ExprOp::kFalse:
        n.kind = Kind::kFalse;
        return n;
      case ExprOp::kNot:
      case ExprOp::kAnd:
      case ExprOp::kOr: {
        const size_t arity = e.op == ExprOp::kNot ? 1 : 2;
        if (e.children.size() != arity) return Fail("wrong number of operands");
        n.kind = e.op == ExprOp::kNot ? Kind::kNot
                                      : (e.op == ExprOp::kAnd ? Kind::kAnd : Kind::kOr);
        for (const Expr& c : e.children) {
          auto k = Predicate(c, scope);
          if (!k) return std::nullopt;
          n.kids.push_back(std::move(*k));
        }
        return n;
      }
      case ExprOp::kIsNull:
      case ExprOp::kNotNull:
      case ExprOp::kIsNan:
      case ExprOp::kNotNan: {
        if (e.children.size() != 1) return Fail("wrong number of operands");
        auto k = Operand(e.children[0], scope);
        if (!k) return std::nullopt;
        const bool nan = e.op == ExprOp::kIsNan || e.op == ExprOp::kNotNan;
        if (nan && !IsFloat(k->type.id) && k->type.id != TypeId::kUnknown) {
          return Fail(fmt::format("{} needs a float or double, not {}", OpText(e.op),
                                  ToString(k->type)));
        }
        n.kind = e.op == ExprOp::kIsNull    ? Kind::kIsNull
                 : e.op == ExprOp::kNotNull ? Kind::kNotNull
                 : e.op == ExprOp::kIsNan   ? Kind::kIsNan
                                            : Kind::kNotNan;
        n.kids.push_back(std::move(*k));
        return n;
      }
      case ExprOp::kLt:
      case ExprOp::kLtEq:
      case ExprOp::kGt:
      case ExprOp::kGtEq:
      case ExprOp::kEq:
      case ExprOp::kNotEq:
      case ExprOp::kStartsWith:
      case ExprOp::kNotStartsWith:
        return Comparison(e, scope);
      case ExprOp::kIn:
      case ExprOp::kNotIn:
        return Set(e, scope);
      default:
        break;
    }
    // A term in predicate position must be boolean (e.g. a UDF returning boolean).
    auto t = Term(e, scope);
    if (!t) return std::nullopt;
    if (t->type.id != TypeId::kBoolean && t->type.id != TypeId::kUnknown) {
      return Fail(fmt::format("a {} term is not a predicate", ToString(t->type)));
    }
    n.kind = Kind::kTruth;
    n.kids.push_back(std::move(*t));
    return n;
  }

  /// A term, or an untyped literal on its own (typed by itself).
  std::optional<CheckNode> Operand(const Expr& e, const Scope& scope) {
    if (IsUntypedLiteral(e)) {
      if (e.values.empty()) return Fail("a literal without a value");
      CheckNode n;
      n.kind = Kind::kLit;
      n.literal = e.values[0];
      auto t = NaturalType(e.values[0]);
      n.type = t ? *t : Type::Primitive(TypeId::kUnknown);
      return n;
    }
    return Term(e, scope);
  }

  std::optional<CheckNode> Term(const Expr& e, const Scope& scope) {
    if (e.legacy_form && !options_.accept_named_references) {
      return Fail("the expression uses the name-based form, not ID references",
                  "expr.id-references");
    }
    CheckNode n;
    switch (e.op) {
      case ExprOp::kReference:
        return Reference(e.field_id, scope);
      case ExprOp::kNamedReference: {
        if (!options_.accept_named_references) {
          return Fail(fmt::format("column '{}' is referenced by name", e.name),
                      "expr.id-references");
        }
        for (const NestedField& f : fields_) {
          if (f.name == e.name) return Reference(f.id, scope);
        }
        return Fail(fmt::format("no column named '{}'", e.name));
      }
      case ExprOp::kLiteral: {
        if (e.values.empty()) return Fail("a literal without a value");
        n.kind = Kind::kLit;
        n.literal = e.values[0];
        if (e.data_type) {
          n.type = *e.data_type;
        } else {
          auto t = NaturalType(e.values[0]);
          n.type = t ? *t : Type::Primitive(TypeId::kUnknown);
        }
        return n;
      }
      case ExprOp::kParameter: {
        if (scope.params == nullptr) return Fail("a parameter outside a function body");
        for (size_t i = 0; i < scope.params->size(); ++i) {
          if ((*scope.params)[i].first == e.name) {
            n.kind = Kind::kParam;
            n.param = static_cast<int>(i);
            n.type = (*scope.params)[i].second;
            return n;
          }
        }
        return Fail(fmt::format("unknown parameter '{}'", e.name));
      }
      case ExprOp::kApply:
        return Apply(e, scope);
      default:
        break;
    }
    if (IsPredicateOp(e.op)) {
      // A predicate as a term (e.g. if_else's condition, or a boolean argument).
      return Predicate(e, scope);
    }
    return Fail("not a term");
  }

 private:
  std::nullopt_t Fail(std::string message, std::string rule = "expr.well-typed") {
    if (info_.error.empty()) {
      info_.error = std::move(message);
      info_.error_rule = std::move(rule);
    }
    return std::nullopt;
  }

  std::optional<CheckNode> Reference(FieldId id, const Scope& scope) {
    if (scope.params != nullptr) return Fail("a function body references a column");
    auto it = slots_.find(id);
    if (it == slots_.end()) {
      return Fail(
          fmt::format("reference to field {}, which the schema does not have", id),
          "sch.referenced-exist");
    }
    info_.referenced.insert(id);
    CheckNode n;
    n.kind = Kind::kRef;
    n.type = *it->second.type;
    if (it->second.in_repeated) {
      if (!(it->second.in_map ? options_.accept_map_references
                              : options_.accept_repeated_references)) {
        return Fail(fmt::format("field {} is inside a list or a map", id),
                    "expr.no-list-map-element");
      }
      n.unresolvable = true;
      return n;
    }
    n.path = it->second.path;
    return n;
  }

  /// Compiles the two operands of a comparison (or the branches of if_else) into one
  /// domain; `null_ok` lets a branch be a null literal.
  bool AlignOperands(const Expr& l, const Expr& r, const Scope& scope, CheckNode& out,
                     Type& common, bool direct_literals) {
    const bool lu = IsUntypedLiteral(l), ru = IsUntypedLiteral(r);
    if (direct_literals) {
      for (const Expr* side : {&l, &r}) {
        if (side->op == ExprOp::kLiteral && !side->values.empty() &&
            IsNullLike(side->values[0])) {
          Fail("a comparison operand must not be a null or NaN literal");
          return false;
        }
      }
    }
    std::optional<CheckNode> ln, rn;
    if (lu && ru) {
      ln = Operand(l, scope);
      if (!ln) return false;
      auto b = BindLiteral(r.values[0], ln->type);
      if (!b) return Fail(fmt::format("literals of different types")), false;
      rn = CheckNode{};
      rn->kind = Kind::kLit;
      rn->type = b->first;
      rn->literal = b->second;
    } else if (lu || ru) {
      const Expr& term = lu ? r : l;
      const Expr& lit = lu ? l : r;
      auto tn = Term(term, scope);
      if (!tn) return false;
      CheckNode litn;
      litn.kind = Kind::kLit;
      if (lit.values.empty()) return Fail("a literal without a value"), false;
      if (lit.values[0].is_null()) {
        litn.type = tn->type;  // if_else(c, null, x)
      } else {
        auto b = BindLiteral(lit.values[0], tn->type);
        // The one switch-off point of type alignment (expr.well-typed): the mutant binds
        // a literal that does not fit a string term as the string of its text.
        if (!b && options_.accept_ill_typed && tn->type.id == TypeId::kString) {
          b = std::pair{tn->type, Value::String(ToString(lit.values[0]))};
        }
        if (!b) {
          Fail(fmt::format("{} compared with literal {}", ToString(tn->type),
                           ToString(lit.values[0])));
          return false;
        }
        litn.type = b->first;
        litn.literal = b->second;
      }
      ln = lu ? litn : std::move(*tn);
      rn = lu ? std::move(*tn) : litn;
    } else {
      ln = Operand(l, scope);
      if (!ln) return false;
      rn = Operand(r, scope);
      if (!rn) return false;
    }
    auto aligned = Align(ln->type, rn->type);
    if (!aligned || aligned->first == Domain::kNone) {
      Fail(fmt::format("{} cannot be compared with {}", ToString(ln->type),
                       ToString(rn->type)));
      return false;
    }
    out.domain = aligned->first;
    common = aligned->second;
    out.kids.push_back(std::move(*ln));
    out.kids.push_back(std::move(*rn));
    return true;
  }

  std::optional<CheckNode> Comparison(const Expr& e, const Scope& scope) {
    if (e.children.size() != 2) return Fail("a comparison needs two operands");
    CheckNode n;
    n.type = Type::Primitive(TypeId::kBoolean);
    n.op = e.op;
    n.kind = e.op == ExprOp::kStartsWith      ? Kind::kStartsWith
             : e.op == ExprOp::kNotStartsWith ? Kind::kNotStartsWith
                                              : Kind::kCompare;
    Type common;
    if (!AlignOperands(e.children[0], e.children[1], scope, n, common, true)) {
      return std::nullopt;
    }
    if (n.kind != Kind::kCompare && common.id != TypeId::kString) {
      return Fail(fmt::format("{} takes strings", OpText(e.op)));
    }
    return n;
  }

  std::optional<CheckNode> Set(const Expr& e, const Scope& scope) {
    if (e.children.size() != 1) return Fail("in/not-in needs one term");
    auto t = Operand(e.children[0], scope);
    if (!t) return std::nullopt;
    CheckNode n;
    n.kind = e.op == ExprOp::kIn ? Kind::kIn : Kind::kNotIn;
    n.type = Type::Primitive(TypeId::kBoolean);
    std::optional<std::pair<Domain, Type>> aligned;
    for (const Value& v : e.values) {
      if (IsNullLike(v)) return Fail("in/not-in values must not be null or NaN");
      Type vt;
      Value bound;
      if (e.data_type) {
        vt = *e.data_type;
        bound = v;
      } else {
        auto b = BindLiteral(v, t->type);
        if (!b) {
          return Fail(fmt::format("{} compared with {}", ToString(t->type), ToString(v)));
        }
        vt = b->first;
        bound = b->second;
      }
      auto a = Align(t->type, vt);
      if (!a || a->first == Domain::kNone) {
        return Fail(fmt::format("{} compared with {}", ToString(t->type), ToString(vt)));
      }
      if (aligned && aligned->first != a->first)
        return Fail("in/not-in values of mixed types");
      aligned = a;
      if (IsNullLike(bound)) return Fail("in/not-in values must not be NaN");
      n.set.push_back(ToComparable(bound, vt, a->first));
    }
    if (!aligned) {
      auto a = Align(t->type, t->type);
      if (!a || a->first == Domain::kNone) {
        return Fail(
            fmt::format("values of type {} cannot be compared", ToString(t->type)));
      }
      aligned = a;
    }
    n.domain = aligned->first;
    n.kids.push_back(std::move(*t));
    return n;
  }

  std::optional<int64_t> Width(const Expr& e) {
    if (e.op != ExprOp::kLiteral || e.values.empty() ||
        e.values[0].kind != ValueKind::kLong || e.values[0].as_long() <= 0 ||
        e.values[0].as_long() > std::numeric_limits<int32_t>::max()) {
      return Fail("the width of bucket/truncate must be a positive integer literal"),
             std::nullopt;
    }
    return e.values[0].as_long();
  }

  std::optional<CheckNode> Apply(const Expr& e, const Scope& scope) {
    Builtin b = Builtin::kNone;
    const auto& path = e.function;
    if (e.catalog && *e.catalog == kIcebergFunctions && path.size() == 1) {
      b = BuiltinNamed(path[0]);
      if (b == Builtin::kNone)
        return Fail(fmt::format("iceberg_functions has no {}", path[0]));
    } else if (!e.catalog && path.size() == 2 && path[0] == kIcebergFunctions) {
      b = BuiltinNamed(path[1]);
      if (b == Builtin::kNone)
        return Fail(fmt::format("iceberg_functions has no {}", path[1]));
    } else if (!e.catalog && path.size() == 1) {
      b = BuiltinNamed(path[0]);
    }
    if (b != Builtin::kNone) return CallBuiltin(b, e, scope);
    std::string name;
    for (const std::string& p : path) name += (name.empty() ? "" : ".") + p;
    return CallUdf(name, e, scope);
  }

  std::optional<CheckNode> CallBuiltin(Builtin b, const Expr& e, const Scope& scope) {
    CheckNode n;
    n.kind = Kind::kBuiltin;
    n.builtin = b;
    const size_t arity = b == Builtin::kIfElse                                ? 3
                         : (b == Builtin::kBucket || b == Builtin::kTruncate) ? 2
                                                                              : 1;
    if (e.children.size() != arity)
      return Fail("wrong number of arguments to a built-in");
    switch (b) {
      case Builtin::kIfElse: {
        auto cond = Predicate(e.children[0], scope);
        if (!cond) return std::nullopt;
        CheckNode branches;
        Type common;
        if (!AlignOperands(e.children[1], e.children[2], scope, branches, common,
                           false)) {
          return std::nullopt;
        }
        n.type = common;
        n.kids.push_back(std::move(*cond));
        for (CheckNode& k : branches.kids) n.kids.push_back(std::move(k));
        return n;
      }
      case Builtin::kIdentity: {
        auto v = Operand(e.children[0], scope);
        if (!v) return std::nullopt;
        n.type = v->type;
        n.kids.push_back(std::move(*v));
        return n;
      }
      case Builtin::kYear:
      case Builtin::kMonth:
      case Builtin::kDay:
      case Builtin::kHour: {
        auto v = Term(e.children[0], scope);
        if (!v) return std::nullopt;
        const TypeId t = v->type.id;
        const bool ok = IsTimestamp(t) || (t == TypeId::kDate && b != Builtin::kHour);
        if (!ok)
          return Fail(
              fmt::format("this transform is not defined on {}", ToString(v->type)));
        n.type = Type::Primitive(TypeId::kInt);
        n.kids.push_back(std::move(*v));
        return n;
      }
      case Builtin::kBucket:
      case Builtin::kTruncate: {
        auto w = Width(e.children[0]);
        if (!w) return std::nullopt;
        auto v = Term(e.children[1], scope);
        if (!v) return std::nullopt;
        const TypeId t = v->type.id;
        bool ok = IsInteger(t) || t == TypeId::kDecimal || t == TypeId::kString ||
                  t == TypeId::kBinary;
        if (b == Builtin::kBucket) {
          ok = ok || t == TypeId::kDate || t == TypeId::kTime || IsTimestamp(t) ||
               t == TypeId::kUuid || t == TypeId::kFixed;
        }
        if (!ok)
          return Fail(
              fmt::format("this transform is not defined on {}", ToString(v->type)));
        n.width = *w;
        n.type = b == Builtin::kBucket ? Type::Primitive(TypeId::kInt) : v->type;
        n.kids.push_back(std::move(*v));
        return n;
      }
      case Builtin::kNone:
        break;
    }
    return Fail("unknown built-in");
  }

  std::optional<CheckNode> CallUdf(const std::string& name, const Expr& e,
                                   const Scope& scope) {
    info_.calls_udf = true;
    CheckNode n;
    n.kind = Kind::kUdf;
    auto it = udfs_.find(name);
    if (it == udfs_.end()) {
      info_.undefined_udfs.push_back(name);
      n.udf_defined = false;
      n.type = Type::Primitive(TypeId::kUnknown);
      for (const Expr& a : e.children) {
        // Still collect references (and their errors) from the arguments.
        if (!Operand(a, scope)) return std::nullopt;
      }
      return n;
    }
    const FunctionDefinition& def = it->second;
    if (!def.deterministic) info_.nondeterministic_udfs.push_back(name);
    if (scope.depth >= kMaxUdfDepth)
      return Fail(fmt::format("{} recurses too deeply", name));
    if (e.children.size() != def.parameters.size()) {
      return Fail(fmt::format("{} takes {} arguments, not {}", name,
                              def.parameters.size(), e.children.size()));
    }
    for (size_t i = 0; i < e.children.size(); ++i) {
      const Type& want = def.parameters[i].second;
      const Expr& a = e.children[i];
      if (IsUntypedLiteral(a)) {
        if (a.values.empty()) return Fail("a literal without a value");
        CheckNode lit;
        lit.kind = Kind::kLit;
        lit.type = want;
        if (!a.values[0].is_null()) {
          auto bnd = BindLiteral(a.values[0], want);
          if (!bnd || !SameTypeShape(bnd->first, want)) {
            return Fail(fmt::format("argument {} of {} is not a {}", i + 1, name,
                                    ToString(want)));
          }
          lit.literal = bnd->second;
        }
        n.kids.push_back(std::move(lit));
        continue;
      }
      auto k = Operand(a, scope);
      if (!k) return std::nullopt;
      if (!SameTypeShape(k->type, want) && k->type.id != TypeId::kUnknown) {
        auto aligned = Align(k->type, want);
        if (!aligned || !SameTypeShape(aligned->second, want)) {
          return Fail(fmt::format("argument {} of {} is a {}, not a {}", i + 1, name,
                                  ToString(k->type), ToString(want)));
        }
        CheckNode conv;
        conv.kind = Kind::kConvert;
        conv.type = want;
        conv.kids.push_back(std::move(*k));
        k = std::move(conv);
      }
      n.kids.push_back(std::move(*k));
    }
    Scope inner{&def.parameters, scope.depth + 1};
    const bool predicate_body = IsPredicateOp(def.body.op);
    auto body = predicate_body ? Predicate(def.body, inner) : Operand(def.body, inner);
    if (!body) return std::nullopt;
    if (!SameTypeShape(body->type, def.return_type) &&
        body->type.id != TypeId::kUnknown) {
      auto aligned = Align(body->type, def.return_type);
      if (!aligned || !SameTypeShape(aligned->second, def.return_type)) {
        return Fail(fmt::format("{} returns {}, but its body is a {}", name,
                                ToString(def.return_type), ToString(body->type)));
      }
      CheckNode conv;
      conv.kind = Kind::kConvert;
      conv.type = def.return_type;
      conv.kids.push_back(std::move(*body));
      body = std::move(conv);
    }
    n.type = def.return_type;
    n.body = std::make_shared<const CheckNode>(std::move(*body));
    return n;
  }

  const std::vector<NestedField>& fields_;
  std::map<FieldId, FieldSlot> slots_;
  const UdfCatalog& udfs_;
  const CheckOptions& options_;
  CheckInfo& info_;
};

/// Three-valued truth, used only by the three-valued-nulls mutant; the correct sample
/// never produces kUnknown.
enum class Truth { kFalse, kTrue, kUnknown };

Truth Of(bool b) { return b ? Truth::kTrue : Truth::kFalse; }

class Evaluator {
 public:
  explicit Evaluator(const CheckOptions& options) : options_(options) {}

  Truth Pred(const CheckNode& n, const Value& row, const std::vector<Value>* args) const {
    switch (n.kind) {
      case Kind::kTrue:
        return Truth::kTrue;
      case Kind::kFalse:
        return Truth::kFalse;
      case Kind::kNot: {
        Truth t = Pred(n.kids[0], row, args);
        return t == Truth::kUnknown ? t : Of(t == Truth::kFalse);
      }
      case Kind::kAnd: {
        Truth a = Pred(n.kids[0], row, args);
        if (a == Truth::kFalse) return a;
        Truth b = Pred(n.kids[1], row, args);
        if (b == Truth::kFalse) return b;
        return a == Truth::kTrue && b == Truth::kTrue ? Truth::kTrue : Truth::kUnknown;
      }
      case Kind::kOr: {
        Truth a = Pred(n.kids[0], row, args);
        if (a == Truth::kTrue) return a;
        Truth b = Pred(n.kids[1], row, args);
        if (b == Truth::kTrue) return b;
        return a == Truth::kFalse && b == Truth::kFalse ? Truth::kFalse : Truth::kUnknown;
      }
      case Kind::kIsNull:
      case Kind::kNotNull: {
        const bool null = TermValue(n.kids[0], row, args).is_null();
        return Of(null == (n.kind == Kind::kIsNull));
      }
      case Kind::kIsNan:
      case Kind::kNotNan: {
        Value v = TermValue(n.kids[0], row, args);
        if (v.is_null() && options_.three_valued) return Truth::kUnknown;
        const bool nan = v.kind == ValueKind::kDouble && std::isnan(v.as_double());
        return Of(nan == (n.kind == Kind::kIsNan));
      }
      case Kind::kCompare: {
        Value l = TermValue(n.kids[0], row, args);
        Value r = TermValue(n.kids[1], row, args);
        if (options_.three_valued && (IsNullLike(l) || IsNullLike(r)))
          return Truth::kUnknown;
        return Of(Compare(n.op, l, n.kids[0].type, r, n.kids[1].type, n.domain));
      }
      case Kind::kStartsWith:
      case Kind::kNotStartsWith: {
        Value l = TermValue(n.kids[0], row, args);
        Value r = TermValue(n.kids[1], row, args);
        if (options_.three_valued && (l.is_null() || r.is_null())) return Truth::kUnknown;
        bool starts = !l.is_null() && !r.is_null() &&
                      l.as_string().size() >= r.as_string().size() &&
                      l.as_string().compare(0, r.as_string().size(), r.as_string()) == 0;
        return Of(starts == (n.kind == Kind::kStartsWith));
      }
      case Kind::kIn:
      case Kind::kNotIn: {
        Value v = TermValue(n.kids[0], row, args);
        if (options_.three_valued && IsNullLike(v)) return Truth::kUnknown;
        bool found = false;
        if (!IsNullLike(v)) {
          const Comparable c = ToComparable(v, n.kids[0].type, n.domain);
          for (const Comparable& s : n.set) found = found || CompareComparable(c, s) == 0;
        }
        return Of(found == (n.kind == Kind::kIn));
      }
      case Kind::kTruth: {
        Value v = TermValue(n.kids[0], row, args);
        if (v.is_null() && options_.three_valued) return Truth::kUnknown;
        return Of(v.kind == ValueKind::kBoolean && v.as_bool());
      }
      default: {
        Value v = TermValue(n, row, args);
        return Of(v.kind == ValueKind::kBoolean && v.as_bool());
      }
    }
  }

  Value TermValue(const CheckNode& n, const Value& row,
                  const std::vector<Value>* args) const {
    switch (n.kind) {
      case Kind::kRef: {
        if (n.unresolvable) return Value::Null();
        const Value* cur = &row;
        for (FieldId id : n.path) {
          if (cur->kind != ValueKind::kStruct) return Value::Null();
          cur = cur->FindField(id);
          if (cur == nullptr) return Value::Null();
        }
        return *cur;
      }
      case Kind::kLit:
        return n.literal;
      case Kind::kParam:
        if (args == nullptr || n.param < 0 ||
            static_cast<size_t>(n.param) >= args->size()) {
          return Value::Null();
        }
        return (*args)[static_cast<size_t>(n.param)];
      case Kind::kConvert:
        return Widen(TermValue(n.kids[0], row, args), n.kids[0].type, n.type);
      case Kind::kBuiltin:
        return CallBuiltin(n, row, args);
      case Kind::kUdf: {
        if (!n.udf_defined || !n.body) return Value::Null();
        std::vector<Value> values;
        for (const CheckNode& k : n.kids) values.push_back(TermValue(k, row, args));
        if (n.body->type.id == TypeId::kBoolean && IsPredicateKind(n.body->kind)) {
          Truth t = Pred(*n.body, row, &values);
          if (t == Truth::kUnknown) return Value::Null();
          return Value::Boolean(t == Truth::kTrue);
        }
        return TermValue(*n.body, row, &values);
      }
      default: {
        Truth t = Pred(n, row, args);
        if (t == Truth::kUnknown) return Value::Null();
        return Value::Boolean(t == Truth::kTrue);
      }
    }
  }

 private:
  static bool IsPredicateKind(Kind k) {
    return k != Kind::kRef && k != Kind::kLit && k != Kind::kParam &&
           k != Kind::kBuiltin && k != Kind::kUdf && k != Kind::kConvert;
  }

  static bool Compare(ExprOp op, const Value& l, const Type& lt, const Value& r,
                      const Type& rt, Domain domain) {
    const bool ln = IsNullLike(l), rn = IsNullLike(r);
    bool eq;
    int order = 0;
    const bool ordered = !ln && !rn;
    if (!ordered) {
      // null = null and NaN = NaN; a null or NaN equals nothing else and orders nowhere.
      eq = (l.is_null() && r.is_null()) || (ln && rn && !l.is_null() && !r.is_null());
    } else {
      order = CompareComparable(ToComparable(l, lt, domain), ToComparable(r, rt, domain));
      eq = order == 0;
    }
    switch (op) {
      case ExprOp::kEq:
        return eq;
      case ExprOp::kNotEq:
        return !eq;
      case ExprOp::kLt:
        return ordered && order < 0;
      case ExprOp::kGt:
        return ordered && order > 0;
      case ExprOp::kLtEq:
        return eq || (ordered && order < 0);
      case ExprOp::kGtEq:
        return eq || (ordered && order > 0);
      default:
        return false;
    }
  }

  Value CallBuiltin(const CheckNode& n, const Value& row,
                    const std::vector<Value>* args) const {
    if (n.builtin == Builtin::kIfElse) {
      const bool c = Pred(n.kids[0], row, args) == Truth::kTrue;
      const CheckNode& branch = c ? n.kids[1] : n.kids[2];
      return Widen(TermValue(branch, row, args), branch.type, n.type);
    }
    const CheckNode& arg = n.kids[0];
    Value v = TermValue(arg, row, args);
    if (v.is_null()) return v;
    const TypeId t = arg.type.id;
    switch (n.builtin) {
      case Builtin::kIdentity:
        return v;
      case Builtin::kYear:
      case Builtin::kMonth:
      case Builtin::kDay:
      case Builtin::kHour: {
        int64_t micros = 0;
        if (t == TypeId::kDate) {
          micros = v.as_long() * kMicrosPerDay;
        } else {
          micros = IsNanoType(t) ? FloorDiv(v.as_long(), 1000) : v.as_long();
        }
        if (n.builtin == Builtin::kHour)
          return Value::Long(FloorDiv(micros, kMicrosPerHour));
        const int64_t days = FloorDiv(micros, kMicrosPerDay);
        if (n.builtin == Builtin::kDay) return Value::Long(days);
        const CivilDay civil = CivilOf(days);
        if (n.builtin == Builtin::kYear) return Value::Long(civil.year - 1970);
        return Value::Long((civil.year - 1970) * 12 + (civil.month - 1));
      }
      case Builtin::kBucket: {
        int32_t hash = 0;
        if (options_.wrong_bucket_hash) {
          hash = static_cast<int32_t>(KeyValueHash(v));
        } else {
          auto h = IcebergBucketHash(v, arg.type);
          if (!h) return Value::Null();
          hash = *h;
        }
        return Value::Long((hash & std::numeric_limits<int32_t>::max()) % n.width);
      }
      case Builtin::kTruncate: {
        const int64_t w = n.width;
        if (IsInteger(t)) {
          const int64_t x = v.as_long();
          return Value::Long(x - (((x % w) + w) % w));
        }
        if (t == TypeId::kDecimal) {
          const Int128 x = v.as_decimal().unscaled;
          return Value::DecimalOf(x - (((x % w) + w) % w), v.as_decimal().scale);
        }
        if (t == TypeId::kString) {
          // The first w code points (UTF-8).
          const std::string& s = v.as_string();
          size_t i = 0;
          int64_t points = 0;
          while (i < s.size() && points < w) {
            const auto c = static_cast<unsigned char>(s[i]);
            i += c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
            ++points;
          }
          return Value::String(s.substr(0, std::min(i, s.size())));
        }
        if (t == TypeId::kBinary) {
          return Value::Bytes(v.as_string().substr(0, static_cast<size_t>(w)));
        }
        return v;
      }
      default:
        return Value::Null();
    }
  }

  const CheckOptions& options_;
};

void CollectReferences(const Expr& e, std::set<FieldId>& out) {
  if (e.op == ExprOp::kReference) out.insert(e.field_id);
  for (const Expr& c : e.children) CollectReferences(c, out);
}

}  // namespace

CompiledCheck::CompiledCheck(const Expr& expr, const std::vector<NestedField>& fields,
                             const UdfCatalog& udfs, const CheckOptions& options)
    : options_(options) {
  Compiler compiler(fields, udfs, options_, info_);
  auto root = compiler.Predicate(expr, Compiler::Scope{});
  if (root && info_.error.empty()) root_ = std::make_unique<CheckNode>(std::move(*root));
}

CompiledCheck::~CompiledCheck() = default;
CompiledCheck::CompiledCheck(CompiledCheck&&) noexcept = default;
CompiledCheck& CompiledCheck::operator=(CompiledCheck&&) noexcept = default;

bool CompiledCheck::evaluable() const {
  return root_ != nullptr && info_.error.empty() && info_.undefined_udfs.empty() &&
         info_.nondeterministic_udfs.empty();
}

std::optional<bool> CompiledCheck::Holds(const Value& row) const {
  if (root_ == nullptr || !info_.undefined_udfs.empty()) return std::nullopt;
  Evaluator ev(options_);
  Truth t = ev.Pred(*root_, row, nullptr);
  // A SQL CHECK passes unless it is false; only the three-valued mutant gets here
  // unknown.
  return t != Truth::kFalse;
}

std::set<FieldId> ReferencedIds(const Expr& expr) {
  std::set<FieldId> out;
  CollectReferences(expr, out);
  return out;
}

}  // namespace ictk::sample
