/// \file
/// Binding and evaluation of check expressions (SURROUNDINGS.md "Expressions JSON"), the
/// `iceberg_functions` built-ins and user-defined functions.
///
/// Binding turns an `Expr` into a `Bound` tree: every node gets its result type,
/// comparison operands get one aligned "domain" type (by the promotions that cannot lose
/// a comparison's meaning, never by an unsafe cast), literals are converted to that
/// domain with BindLiteral, references get their path through nested structs and UDF
/// calls get their body bound against the parameters. Evaluation walks the bound tree
/// over one row.
#include "model/iceberg/evaluate.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <limits>
#include <string_view>

#include "model/iceberg/murmur3_internal.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/value_compare.h"
#include "model/iceberg/value_parse.h"

namespace ictk {

namespace {

constexpr std::string_view kIcebergFunctions = "iceberg_functions";
/// UDF bodies may call UDFs; deeper nesting than this is treated as unbounded recursion.
constexpr int kMaxCallDepth = 16;

constexpr int64_t kMicrosPerHour = int64_t{3'600'000'000};
constexpr int64_t kMicrosPerDay = int64_t{86'400'000'000};
constexpr int64_t kNanosPerMicro = 1000;

// ---------------------------------------------------------------------------------------
// Built-in functions

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

Builtin BuiltinByName(std::string_view name) {
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

/// The built-in an `apply` names: a bare name (no catalog), the catalog
/// `iceberg_functions`, or the path {"iceberg_functions", name}. kNone for anything else.
Builtin ResolveBuiltin(const Expr& apply) {
  if (apply.op != ExprOp::kApply) return Builtin::kNone;
  const auto& path = apply.function;
  if (apply.catalog && *apply.catalog != kIcebergFunctions) return Builtin::kNone;
  if (path.size() == 1) return BuiltinByName(path[0]);
  if (path.size() == 2 && !apply.catalog && path[0] == kIcebergFunctions) {
    return BuiltinByName(path[1]);
  }
  return Builtin::kNone;
}

/// Whether the apply names the iceberg_functions catalog explicitly (so an unknown name
/// in it is an error, not a UDF).
bool NamesIcebergCatalog(const Expr& apply) {
  if (apply.catalog) return *apply.catalog == kIcebergFunctions;
  return apply.function.size() == 2 && apply.function[0] == kIcebergFunctions;
}

/// The catalog key of a UDF: its identifier path joined with ".".
std::string UdfName(const Expr& apply) {
  std::string name;
  for (size_t i = 0; i < apply.function.size(); ++i) {
    if (i > 0) name += ".";
    name += apply.function[i];
  }
  return name;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// Year and month (1-12) of a day count from 1970-01-01 (proleptic Gregorian, after
/// H. Hinnant's public-domain civil_from_days).
void YearMonthFromDays(int64_t z, int64_t& y, int64_t& m) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

bool IsNanos(TypeId id) {
  return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs;
}

/// Days from 1970-01-01 of a date or timestamp value (floor for instants before the
/// epoch).
int64_t DaysOf(int64_t v, TypeId type) {
  if (type == TypeId::kDate) return v;
  if (IsNanos(type)) v = FloorDiv(v, kNanosPerMicro);
  return FloorDiv(v, kMicrosPerDay);
}

/// Iceberg's minimal big-endian two's-complement form of an unscaled decimal (as Java's
/// BigInteger.toByteArray).
std::string MinimalTwosComplement(Int128 v) {
  const auto u = static_cast<unsigned __int128>(v);
  std::string bytes(16, '\0');
  for (int i = 0; i < 16; ++i) bytes[15 - i] = static_cast<char>((u >> (8 * i)) & 0xff);
  size_t start = 0;
  while (start < 15) {
    const auto b0 = static_cast<unsigned char>(bytes[start]);
    const auto b1 = static_cast<unsigned char>(bytes[start + 1]);
    if ((b0 == 0x00 && (b1 & 0x80) == 0) || (b0 == 0xff && (b1 & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return bytes.substr(start);
}

std::string LittleEndianLong(int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((u >> (8 * i)) & 0xff);
  return out;
}

int32_t HashLong(int64_t v) { return internal::Murmur3X86_32(LittleEndianLong(v)); }

/// The first `width` Unicode code points of UTF-8 `s` (Iceberg truncate for strings).
std::string TruncateUtf8(const std::string& s, int64_t width) {
  size_t pos = 0;
  int64_t count = 0;
  while (pos < s.size() && count < width) {
    const auto lead = static_cast<unsigned char>(s[pos]);
    size_t len = 1;
    if (lead >= 0xf0) {
      len = 4;
    } else if (lead >= 0xe0) {
      len = 3;
    } else if (lead >= 0xc0) {
      len = 2;
    }
    pos += len;
    ++count;
  }
  return s.substr(0, std::min(pos, s.size()));
}

// ---------------------------------------------------------------------------------------
// Types and alignment

/// Structural type equality that ignores field IDs, names, docs and requiredness (a UDF's
/// `list<int>` parameter accepts any list of ints).
bool SameShape(const Type& a, const Type& b) {
  if (a.id != b.id) return false;
  switch (a.id) {
    case TypeId::kDecimal:
      return a.precision == b.precision && a.scale == b.scale;
    case TypeId::kFixed:
      return a.length == b.length;
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return a.crs == b.crs && a.algorithm == b.algorithm;
    case TypeId::kStruct:
      if (a.fields.size() != b.fields.size()) return false;
      for (size_t i = 0; i < a.fields.size(); ++i) {
        if (!SameShape(a.fields[i].type, b.fields[i].type)) return false;
      }
      return true;
    case TypeId::kList:
    case TypeId::kMap:
      if (a.children.size() != b.children.size()) return false;
      for (size_t i = 0; i < a.children.size(); ++i) {
        if (!SameShape(a.children[i], b.children[i])) return false;
      }
      return true;
    default:
      return true;
  }
}

bool IsIntegral(TypeId id) { return id == TypeId::kInt || id == TypeId::kLong; }
bool IsFloating(TypeId id) { return id == TypeId::kFloat || id == TypeId::kDouble; }

/// How a value of one type is converted to the aligned type.
enum class Conv { kNone, kToDouble, kToDecimal, kDateToMicros, kDateToNanos, kToNull };

/// Whether a value of `from` converts to `to` without changing what comparisons mean, and
/// how: equal types; int -> long; int/long/float -> double (an int field against 5.0 is
/// compared as a float); int/long -> decimal; decimal -> any decimal (compared by value);
/// date -> timestamp/timestamp_ns (Iceberg promotions); unknown -> anything (always
/// null).
std::optional<Conv> Widening(const Type& from, const Type& to) {
  if (SameShape(from, to)) return Conv::kNone;
  if (from.id == TypeId::kUnknown) return Conv::kToNull;
  if (from.id == TypeId::kInt && to.id == TypeId::kLong) return Conv::kNone;
  if ((IsIntegral(from.id) || from.id == TypeId::kFloat) && to.id == TypeId::kDouble) {
    return IsIntegral(from.id) ? Conv::kToDouble : Conv::kNone;
  }
  if (IsIntegral(from.id) && to.id == TypeId::kDecimal) return Conv::kToDecimal;
  if (from.id == TypeId::kDecimal && to.id == TypeId::kDecimal) return Conv::kNone;
  if (from.id == TypeId::kDate && to.id == TypeId::kTimestamp) return Conv::kDateToMicros;
  if (from.id == TypeId::kDate && to.id == TypeId::kTimestampNs)
    return Conv::kDateToNanos;
  return std::nullopt;
}

/// The type both operands of a comparison are compared as, when there is one.
std::optional<Type> AlignTypes(const Type& a, const Type& b) {
  if (a.id == TypeId::kUnknown) return b;
  if (b.id == TypeId::kUnknown) return a;
  if (a.id == TypeId::kDecimal && b.id == TypeId::kDecimal) {
    return Type::Decimal(38, std::max(a.scale, b.scale));
  }
  if (Widening(a, b)) return b;
  if (Widening(b, a)) return a;
  if ((IsIntegral(a.id) || IsFloating(a.id)) && (IsIntegral(b.id) || IsFloating(b.id))) {
    return Type::Primitive(TypeId::kDouble);  // e.g. long vs float
  }
  return std::nullopt;
}

/// The types a literal compared with a `type` operand may be bound as, most exact first.
std::vector<Type> LiteralDomains(const Type& type) {
  std::vector<Type> out{type};
  switch (type.id) {
    case TypeId::kInt:
      out.push_back(Type::Primitive(TypeId::kLong));
      out.push_back(Type::Primitive(TypeId::kDouble));
      break;
    case TypeId::kLong:
    case TypeId::kFloat:
      out.push_back(Type::Primitive(TypeId::kDouble));
      break;
    case TypeId::kDecimal:
      // A literal with more fractional digits than the field is compared by value.
      for (int32_t s = std::max(type.scale, 0); s <= 38; ++s)
        out.push_back(Type::Decimal(38, s));
      break;
    case TypeId::kDate:
      out.push_back(Type::Primitive(TypeId::kTimestamp));
      out.push_back(Type::Primitive(TypeId::kTimestampNs));
      break;
    default:
      break;
  }
  return out;
}

/// The type of an untyped literal on its own.
std::optional<Type> NaturalType(const Value& v) {
  switch (v.kind) {
    case ValueKind::kBoolean:
      return Type::Primitive(TypeId::kBoolean);
    case ValueKind::kLong:
      return Type::Primitive(TypeId::kLong);
    case ValueKind::kDouble:
      return Type::Primitive(TypeId::kDouble);
    case ValueKind::kDecimal: {
      const int32_t s = std::clamp(v.as_decimal().scale, 0, 38);
      return Type::Decimal(38, s);
    }
    case ValueKind::kString:
      return Type::Primitive(TypeId::kString);
    case ValueKind::kBytes:
      return Type::Primitive(TypeId::kBinary);
    default:
      return std::nullopt;
  }
}

bool IsNanValue(const Value& v) {
  return v.kind == ValueKind::kDouble && std::isnan(v.as_double());
}

/// Whether ordering comparisons are defined for values of this type.
bool IsComparable(const Type& t) {
  return IsPrimitive(t.id) && t.id != TypeId::kGeometry && t.id != TypeId::kGeography;
}

// ---------------------------------------------------------------------------------------
// The bound tree

struct Bound {
  ExprOp op = ExprOp::kTrue;
  Type type;  ///< result type (boolean for predicates)
  std::vector<Bound> kids;
  std::vector<Conv>
      convs;      ///< per kid: conversion to `domain` (comparisons, in, UDF args)
  Type domain;    ///< comparisons / in: the aligned operand type
  Value literal;  ///< kLiteral, converted to its bound type
  std::vector<Value> set;     ///< kIn / kNotIn, bound to `domain`
  std::vector<FieldId> path;  ///< kReference: IDs from the top level down
  bool per_element = false;   ///< kReference inside a list or map: no single row value
  int param_index = -1;       ///< kParameter
  Builtin builtin = Builtin::kNone;
  int64_t width = 0;                 ///< bucket N / truncate W
  TypeId source = TypeId::kUnknown;  ///< transforms: the argument's type
  std::vector<Bound> body;           ///< UDF call: the bound body (empty when undefined)
  Conv result_conv = Conv::kNone;    ///< UDF call: body result to return type
  bool undefined = false;            ///< UDF call to a function not in the catalog
};

/// What a binder may resolve: the row's fields (a check) or a UDF's parameters (a body).
struct Scope {
  const std::vector<NestedField>* fields = nullptr;
  const std::vector<std::pair<std::string, Type>>* params = nullptr;
  const FunctionCatalog* functions = nullptr;
  int depth = 0;
};

/// Collects the first type error, and separately the names of undefined UDFs.
struct Diagnostics {
  std::string first_error;
  std::vector<std::string> undefined;
  bool Fail(std::string message) {
    if (first_error.empty()) first_error = std::move(message);
    return false;
  }
};

/// "string field 3", "5", "year(#8) (int)": how an operand is named in messages.
std::string Describe(const Expr& e, const Type& t) {
  if (e.op == ExprOp::kReference)
    return fmt::format("{} field {}", ToString(t), e.field_id);
  if (e.op == ExprOp::kLiteral) return ToString(e);
  return fmt::format("{} ({})", ToString(e), ToString(t));
}

class Binder {
 public:
  Binder(Scope scope, Diagnostics& diag) : scope_(scope), diag_(diag) {}

  /// Binds a predicate, or a boolean-typed term used as one.
  std::optional<Bound> BindPredicate(const Expr& e) {
    auto b = Bind(e);
    if (!b) return std::nullopt;
    if (b->type.id != TypeId::kBoolean && b->type.id != TypeId::kUnknown) {
      diag_.Fail(
          fmt::format("{} is not a predicate (type {})", ToString(e), ToString(b->type)));
      return std::nullopt;
    }
    return b;
  }

  std::optional<Bound> Bind(const Expr& e) {
    switch (e.op) {
      case ExprOp::kTrue:
      case ExprOp::kFalse:
        return Leaf(e.op, Type::Primitive(TypeId::kBoolean));
      case ExprOp::kNot:
      case ExprOp::kAnd:
      case ExprOp::kOr:
        return BindLogical(e);
      case ExprOp::kIsNull:
      case ExprOp::kNotNull:
      case ExprOp::kIsNan:
      case ExprOp::kNotNan:
        return BindUnaryTest(e);
      case ExprOp::kLt:
      case ExprOp::kLtEq:
      case ExprOp::kGt:
      case ExprOp::kGtEq:
      case ExprOp::kEq:
      case ExprOp::kNotEq:
      case ExprOp::kStartsWith:
      case ExprOp::kNotStartsWith:
        return BindComparison(e);
      case ExprOp::kIn:
      case ExprOp::kNotIn:
        return BindSet(e);
      case ExprOp::kReference:
        return BindReference(e);
      case ExprOp::kNamedReference:
        diag_.Fail(fmt::format(
            "name-based reference `{}` cannot be bound; use an ID reference", e.name));
        return std::nullopt;
      case ExprOp::kLiteral:
        return BindLiteralTerm(e);
      case ExprOp::kApply:
        return BindApply(e);
      case ExprOp::kParameter:
        return BindParameter(e);
    }
    diag_.Fail("unknown expression operator");
    return std::nullopt;
  }

 private:
  static Bound Leaf(ExprOp op, Type type) {
    Bound b;
    b.op = op;
    b.type = std::move(type);
    return b;
  }

  bool Arity(const Expr& e, size_t n) {
    if (e.children.size() == n) return true;
    return diag_.Fail(fmt::format("{} takes {} operand(s), got {}", ExprOpName(e.op), n,
                                  e.children.size()));
  }

  std::optional<Bound> BindLogical(const Expr& e) {
    if (!Arity(e, e.op == ExprOp::kNot ? 1 : 2)) return std::nullopt;
    Bound b = Leaf(e.op, Type::Primitive(TypeId::kBoolean));
    bool ok = true;
    for (const Expr& c : e.children) {
      auto k = BindPredicate(c);
      if (!k) {
        ok = false;
        continue;
      }
      b.kids.push_back(std::move(*k));
    }
    if (!ok) return std::nullopt;
    return b;
  }

  std::optional<Bound> BindUnaryTest(const Expr& e) {
    if (!Arity(e, 1)) return std::nullopt;
    auto k = Bind(e.children[0]);
    if (!k) return std::nullopt;
    if ((e.op == ExprOp::kIsNan || e.op == ExprOp::kNotNan) && !IsFloating(k->type.id) &&
        k->type.id != TypeId::kUnknown) {
      diag_.Fail(fmt::format("{} needs a float or double operand, got {}",
                             ExprOpName(e.op), Describe(e.children[0], k->type)));
      return std::nullopt;
    }
    Bound b = Leaf(e.op, Type::Primitive(TypeId::kBoolean));
    b.kids.push_back(std::move(*k));
    return b;
  }

  bool IsUntypedLiteral(const Expr& e) const {
    return e.op == ExprOp::kLiteral && !e.data_type && !e.values.empty();
  }

  /// Binds an untyped literal against an operand of type `other`: the first domain of
  /// LiteralDomains(other) the literal converts to exactly.
  std::optional<std::pair<Type, Value>> LiteralAgainst(const Value& lit,
                                                       const Type& other) {
    if (other.id == TypeId::kUnknown) {
      auto t = NaturalType(lit);
      if (!t) return std::nullopt;
      return std::pair{*t, lit};
    }
    for (const Type& d : LiteralDomains(other)) {
      if (auto v = BindLiteral(lit, d)) return std::pair{d, *v};
    }
    return std::nullopt;
  }

  /// Checks "a direct literal operand of a comparison must not be null or NaN".
  bool CheckDirectLiteral(const Expr& cmp, const Value& v) {
    if (v.is_null()) {
      return diag_.Fail(
          fmt::format("{}: a comparison operand must not be a null literal "
                      "(use is-null)",
                      ToString(cmp)));
    }
    if (IsNanValue(v)) {
      return diag_.Fail(
          fmt::format("{}: a comparison operand must not be a NaN literal "
                      "(use is-nan)",
                      ToString(cmp)));
    }
    return true;
  }

  /// Aligns two operands (terms or literals) into one domain: the shared logic of
  /// comparisons and if_else. Fills `b.kids`, `b.convs` and `b.domain`.
  bool AlignPair(const Expr& owner, const Expr& l, const Expr& r, Bound& b,
                 bool direct_literals) {
    const bool lu = IsUntypedLiteral(l);
    const bool ru = IsUntypedLiteral(r);
    if (direct_literals) {
      bool ok = true;
      if (l.op == ExprOp::kLiteral && !l.values.empty())
        ok &= CheckDirectLiteral(owner, l.values[0]);
      if (r.op == ExprOp::kLiteral && !r.values.empty())
        ok &= CheckDirectLiteral(owner, r.values[0]);
      if (!ok) return false;
    }
    if (lu && ru) {
      // Two untyped literals: the left one's own type decides.
      auto lt = NaturalType(l.values[0]);
      if (!lt)
        return diag_.Fail(
            fmt::format("{}: literal {} has no type", ToString(owner), ToString(l)));
      auto rb = LiteralAgainst(r.values[0], *lt);
      if (!rb) return MismatchLiteral(owner, l, *lt, r);
      Bound lk = Leaf(ExprOp::kLiteral, *lt);
      lk.literal = l.values[0];
      auto conv = Widening(*lt, rb->first);
      if (!conv) return MismatchLiteral(owner, l, *lt, r);
      Bound rk = Leaf(ExprOp::kLiteral, rb->first);
      rk.literal = rb->second;
      b.domain = rb->first;
      b.kids = {std::move(lk), std::move(rk)};
      b.convs = {*conv, Conv::kNone};
      return true;
    }
    if (lu || ru) {
      const Expr& term = lu ? r : l;
      const Expr& lit = lu ? l : r;
      auto tk = Bind(term);
      if (!tk) return false;
      if (lit.values[0].is_null()) {
        // if_else(c, null, x): a null branch takes the other branch's type.
        Bound lk = Leaf(ExprOp::kLiteral, tk->type);
        b.domain = tk->type;
        if (lu) {
          b.kids = {std::move(lk), std::move(*tk)};
        } else {
          b.kids = {std::move(*tk), std::move(lk)};
        }
        b.convs = {Conv::kNone, Conv::kNone};
        return true;
      }
      auto bound = LiteralAgainst(lit.values[0], tk->type);
      if (!bound) return MismatchLiteral(owner, term, tk->type, lit);
      auto conv = Widening(tk->type, bound->first);
      if (!conv) return MismatchLiteral(owner, term, tk->type, lit);
      Bound lk = Leaf(ExprOp::kLiteral, bound->first);
      lk.literal = bound->second;
      b.domain = bound->first;
      if (lu) {
        b.kids = {std::move(lk), std::move(*tk)};
        b.convs = {Conv::kNone, *conv};
      } else {
        b.kids = {std::move(*tk), std::move(lk)};
        b.convs = {*conv, Conv::kNone};
      }
      return true;
    }
    auto lk = Bind(l);
    auto rk = Bind(r);
    if (!lk || !rk) return false;
    auto domain = AlignTypes(lk->type, rk->type);
    std::optional<Conv> lc, rc;
    if (domain) {
      lc = Widening(lk->type, *domain);
      rc = Widening(rk->type, *domain);
    }
    if (!domain || !lc || !rc) {
      return diag_.Fail(fmt::format("{}: {} cannot be compared with {}", ToString(owner),
                                    Describe(l, lk->type), Describe(r, rk->type)));
    }
    b.domain = *domain;
    b.kids = {std::move(*lk), std::move(*rk)};
    b.convs = {*lc, *rc};
    return true;
  }

  bool MismatchLiteral(const Expr& owner, const Expr& term, const Type& type,
                       const Expr& lit) {
    return diag_.Fail(fmt::format("{}: {} compared with {}", ToString(owner),
                                  Describe(term, type), ToString(lit)));
  }

  std::optional<Bound> BindComparison(const Expr& e) {
    if (!Arity(e, 2)) return std::nullopt;
    Bound b = Leaf(e.op, Type::Primitive(TypeId::kBoolean));
    if (!AlignPair(e, e.children[0], e.children[1], b, /*direct_literals=*/true)) {
      return std::nullopt;
    }
    for (const Bound& k : b.kids) {
      if (k.op == ExprOp::kLiteral && !CheckDirectLiteral(e, k.literal))
        return std::nullopt;
    }
    const bool starts = e.op == ExprOp::kStartsWith || e.op == ExprOp::kNotStartsWith;
    if (starts && b.domain.id != TypeId::kString) {
      diag_.Fail(fmt::format("{}: {} takes strings, not {}", ToString(e),
                             ExprOpName(e.op), ToString(b.domain)));
      return std::nullopt;
    }
    if (!IsComparable(b.domain)) {
      diag_.Fail(fmt::format("{}: values of type {} cannot be compared", ToString(e),
                             ToString(b.domain)));
      return std::nullopt;
    }
    return b;
  }

  /// "`in`/`not-in` values are non-null, non-NaN literals of one type".
  std::optional<Bound> BindSet(const Expr& e) {
    if (!Arity(e, 1)) return std::nullopt;
    auto term = Bind(e.children[0]);
    if (!term) return std::nullopt;
    for (const Value& v : e.values) {
      if (v.is_null()) {
        diag_.Fail(
            fmt::format("{}: {} values must not be null", ToString(e), ExprOpName(e.op)));
        return std::nullopt;
      }
      if (IsNanValue(v)) {
        diag_.Fail(
            fmt::format("{}: {} values must not be NaN", ToString(e), ExprOpName(e.op)));
        return std::nullopt;
      }
      if (!e.data_type && v.kind != e.values[0].kind) {
        diag_.Fail(fmt::format("{}: {} values are not of one type", ToString(e),
                               ExprOpName(e.op)));
        return std::nullopt;
      }
    }
    Bound b = Leaf(e.op, Type::Primitive(TypeId::kBoolean));
    std::vector<Type> candidates;
    if (e.data_type) {
      auto d = AlignTypes(term->type, *e.data_type);
      if (d) candidates.push_back(*d);
    } else if (term->type.id == TypeId::kUnknown) {
      if (!e.values.empty()) {
        if (auto t = NaturalType(e.values[0])) candidates.push_back(*t);
      }
    } else {
      candidates = LiteralDomains(term->type);
    }
    for (const Type& d : candidates) {
      auto conv = Widening(term->type, d);
      if (!conv || !IsComparable(d)) continue;
      std::vector<Value> set;
      bool ok = true;
      for (const Value& v : e.values) {
        std::optional<Value> bv;
        if (e.data_type) {
          // Typed set: each value is first a value of the declared type.
          auto typed = BindLiteral(v, *e.data_type);
          if (typed) bv = ConvertTyped(*typed, *e.data_type, d);
        } else {
          bv = BindLiteral(v, d);
        }
        if (!bv || IsNanValue(*bv)) {
          ok = false;
          break;
        }
        set.push_back(std::move(*bv));
      }
      if (!ok) continue;
      b.domain = d;
      b.set = std::move(set);
      b.convs = {*conv};
      b.kids.push_back(std::move(*term));
      return b;
    }
    std::string values;
    for (size_t i = 0; i < e.values.size(); ++i) {
      values += (i > 0 ? ", " : "") + ToString(e.values[i]);
    }
    diag_.Fail(fmt::format("{}: {} compared with values ({})", ToString(e),
                           Describe(e.children[0], term->type), values));
    return std::nullopt;
  }

  /// A value of `from` converted to `to` (for typed literal sets), when Widening allows
  /// it.
  static std::optional<Value> ConvertTyped(const Value& v, const Type& from,
                                           const Type& to);

  std::optional<Bound> BindReference(const Expr& e) {
    if (scope_.fields == nullptr) {
      diag_.Fail(fmt::format("reference to field {} inside a function body", e.field_id));
      return std::nullopt;
    }
    auto loc = FindField(*scope_.fields, e.field_id);
    if (!loc) {
      diag_.Fail(fmt::format("reference to missing field {}", e.field_id));
      return std::nullopt;
    }
    Bound b = Leaf(ExprOp::kReference, loc->field.type);
    b.path = loc->path;
    b.per_element = loc->in_list_or_map;
    return b;
  }

  std::optional<Bound> BindParameter(const Expr& e) {
    if (scope_.params == nullptr) {
      diag_.Fail(fmt::format("parameter ${} outside a function body", e.name));
      return std::nullopt;
    }
    for (size_t i = 0; i < scope_.params->size(); ++i) {
      if ((*scope_.params)[i].first == e.name) {
        Bound b = Leaf(ExprOp::kParameter, (*scope_.params)[i].second);
        b.param_index = static_cast<int>(i);
        return b;
      }
    }
    diag_.Fail(fmt::format("unknown parameter ${}", e.name));
    return std::nullopt;
  }

  /// A literal as a term of its own (not a comparison operand): typed by `data-type`, or
  /// by its natural type.
  std::optional<Bound> BindLiteralTerm(const Expr& e) {
    if (e.values.empty()) {
      diag_.Fail("literal without a value");
      return std::nullopt;
    }
    const Value& v = e.values[0];
    if (e.data_type) {
      auto bv = BindLiteral(v, *e.data_type);
      if (!bv) {
        diag_.Fail(fmt::format("literal {} is not a value of type {}", ToString(v),
                               ToString(*e.data_type)));
        return std::nullopt;
      }
      Bound b = Leaf(ExprOp::kLiteral, *e.data_type);
      b.literal = *bv;
      return b;
    }
    if (v.is_null()) return Leaf(ExprOp::kLiteral, Type::Primitive(TypeId::kUnknown));
    auto t = NaturalType(v);
    if (!t) {
      diag_.Fail(fmt::format("literal {} has no type", ToString(v)));
      return std::nullopt;
    }
    Bound b = Leaf(ExprOp::kLiteral, *t);
    b.literal = v;
    return b;
  }

  std::optional<Bound> BindApply(const Expr& e) {
    const Builtin builtin = ResolveBuiltin(e);
    if (builtin != Builtin::kNone) return BindBuiltin(e, builtin);
    if (NamesIcebergCatalog(e)) {
      diag_.Fail(fmt::format("unknown function {} in {}", UdfName(e), kIcebergFunctions));
      return std::nullopt;
    }
    return BindUdf(e);
  }

  /// The integer literal parameter of bucket(N, v) / truncate(W, v): a positive int.
  std::optional<int64_t> WidthArgument(const Expr& e, const Expr& arg) {
    if (arg.op == ExprOp::kLiteral && !arg.values.empty() &&
        arg.values[0].kind == ValueKind::kLong && arg.values[0].as_long() > 0 &&
        arg.values[0].as_long() <= INT_MAX) {
      return arg.values[0].as_long();
    }
    diag_.Fail(fmt::format("{}: the first argument must be a positive int literal",
                           ToString(e)));
    return std::nullopt;
  }

  /// An argument of a transform: a term, or a literal typed by `data-type`, or an untyped
  /// literal bound as the first of `accepted` it converts to.
  std::optional<Bound> TransformArgument(const Expr& arg,
                                         const std::vector<TypeId>& accepted) {
    if (IsUntypedLiteral(arg) && !arg.values[0].is_null()) {
      // The literal's own type when the function takes it, else the first accepted type
      // it converts to (a date string for year()).
      if (auto t = NaturalType(arg.values[0]); t && Accepts(accepted, t->id)) {
        Bound b = Leaf(ExprOp::kLiteral, *t);
        b.literal = arg.values[0];
        return b;
      }
      for (TypeId id : accepted) {
        if (id == TypeId::kDecimal || id == TypeId::kFixed) continue;
        if (auto v = BindLiteral(arg.values[0], Type::Primitive(id))) {
          Bound b = Leaf(ExprOp::kLiteral, Type::Primitive(id));
          b.literal = *v;
          return b;
        }
      }
    }
    return Bind(arg);
  }

  bool Accepts(const std::vector<TypeId>& accepted, TypeId id) {
    return id == TypeId::kUnknown ||
           std::find(accepted.begin(), accepted.end(), id) != accepted.end();
  }

  std::optional<Bound> BindBuiltin(const Expr& e, Builtin builtin) {
    Bound b = Leaf(ExprOp::kApply, Type{});
    b.builtin = builtin;
    switch (builtin) {
      case Builtin::kIfElse: {
        if (!Arity(e, 3)) return std::nullopt;
        auto cond = BindPredicate(e.children[0]);
        Bound pair;
        const bool aligned =
            AlignPair(e, e.children[1], e.children[2], pair, /*direct_literals=*/false);
        if (!cond || !aligned) return std::nullopt;
        b.type = pair.domain;
        b.kids.push_back(std::move(*cond));
        for (auto& k : pair.kids) b.kids.push_back(std::move(k));
        b.convs = {Conv::kNone, pair.convs[0], pair.convs[1]};
        return b;
      }
      case Builtin::kIdentity: {
        if (!Arity(e, 1)) return std::nullopt;
        auto v = Bind(e.children[0]);
        if (!v) return std::nullopt;
        b.type = v->type;
        b.kids.push_back(std::move(*v));
        return b;
      }
      case Builtin::kYear:
      case Builtin::kMonth:
      case Builtin::kDay:
      case Builtin::kHour: {
        if (!Arity(e, 1)) return std::nullopt;
        std::vector<TypeId> accepted{TypeId::kTimestamp, TypeId::kTimestampTz,
                                     TypeId::kTimestampNs, TypeId::kTimestampTzNs};
        if (builtin != Builtin::kHour) accepted.insert(accepted.begin(), TypeId::kDate);
        auto v = TransformArgument(e.children[0], accepted);
        if (!v) return std::nullopt;
        if (!Accepts(accepted, v->type.id)) {
          diag_.Fail(fmt::format("{}: {} is not defined for {}", ToString(e), UdfName(e),
                                 Describe(e.children[0], v->type)));
          return std::nullopt;
        }
        b.type = Type::Primitive(TypeId::kInt);
        b.source = v->type.id;
        b.kids.push_back(std::move(*v));
        return b;
      }
      case Builtin::kBucket:
      case Builtin::kTruncate: {
        if (!Arity(e, 2)) return std::nullopt;
        auto width = WidthArgument(e, e.children[0]);
        if (!width) return std::nullopt;
        const std::vector<TypeId> accepted =
            builtin == Builtin::kBucket
                ? std::vector<TypeId>{TypeId::kInt,           TypeId::kLong,
                                      TypeId::kDecimal,       TypeId::kDate,
                                      TypeId::kTime,          TypeId::kTimestamp,
                                      TypeId::kTimestampTz,   TypeId::kTimestampNs,
                                      TypeId::kTimestampTzNs, TypeId::kString,
                                      TypeId::kUuid,          TypeId::kFixed,
                                      TypeId::kBinary}
                : std::vector<TypeId>{TypeId::kInt, TypeId::kLong, TypeId::kDecimal,
                                      TypeId::kString, TypeId::kBinary};
        auto v = TransformArgument(e.children[1], accepted);
        if (!v) return std::nullopt;
        if (!Accepts(accepted, v->type.id)) {
          diag_.Fail(fmt::format("{}: {} is not defined for {}", ToString(e), UdfName(e),
                                 Describe(e.children[1], v->type)));
          return std::nullopt;
        }
        b.type = builtin == Builtin::kBucket ? Type::Primitive(TypeId::kInt) : v->type;
        b.width = *width;
        b.source = v->type.id;
        b.kids.push_back(std::move(*v));
        return b;
      }
      case Builtin::kNone:
        break;
    }
    diag_.Fail("unknown built-in");
    return std::nullopt;
  }

  std::optional<Bound> BindUdf(const Expr& e) {
    const std::string name = UdfName(e);
    Bound b = Leaf(ExprOp::kApply, Type::Primitive(TypeId::kUnknown));
    const FunctionDefinition* def = nullptr;
    if (scope_.functions != nullptr) {
      auto it = scope_.functions->find(name);
      if (it != scope_.functions->end()) def = &it->second;
    }
    if (def == nullptr) {
      // Bind the arguments anyway so that their errors are reported; the call's type is
      // unknown, which aligns with anything.
      for (const Expr& a : e.children) {
        if (auto k = Bind(a)) b.kids.push_back(std::move(*k));
      }
      diag_.undefined.push_back(name);
      b.undefined = true;
      return b;
    }
    if (scope_.depth >= kMaxCallDepth) {
      diag_.Fail(
          fmt::format("{}: function calls nest deeper than {}", name, kMaxCallDepth));
      return std::nullopt;
    }
    if (e.children.size() != def->parameters.size()) {
      diag_.Fail(fmt::format("{} takes {} argument(s), got {}", name,
                             def->parameters.size(), e.children.size()));
      return std::nullopt;
    }
    bool ok = true;
    for (size_t i = 0; i < e.children.size(); ++i) {
      const Expr& a = e.children[i];
      const Type& p = def->parameters[i].second;
      if (IsUntypedLiteral(a)) {
        auto v = BindLiteral(a.values[0], p);
        if (!v) {
          ok = diag_.Fail(fmt::format("{}: argument {} is not a value of {}", name,
                                      ToString(a), ToString(p)));
          continue;
        }
        Bound k = Leaf(ExprOp::kLiteral, p);
        k.literal = *v;
        b.kids.push_back(std::move(k));
        b.convs.push_back(Conv::kNone);
        continue;
      }
      auto k = Bind(a);
      if (!k) {
        ok = false;
        continue;
      }
      auto conv = Widening(k->type, p);
      if (!conv) {
        ok = diag_.Fail(fmt::format("{}: argument {} does not match parameter {} {}",
                                    name, Describe(a, k->type), def->parameters[i].first,
                                    ToString(p)));
        continue;
      }
      b.kids.push_back(std::move(*k));
      b.convs.push_back(*conv);
    }
    // The body, bound against the parameters.
    Scope body_scope{nullptr, &def->parameters, scope_.functions, scope_.depth + 1};
    Binder body_binder(body_scope, diag_);
    std::optional<Bound> body;
    if (def->return_type.id == TypeId::kBoolean) {
      body = body_binder.BindPredicate(def->body);
    } else {
      body = body_binder.Bind(def->body);
    }
    if (!body) {
      diag_.Fail(fmt::format("the body of {} cannot be bound", name));
      return std::nullopt;
    }
    auto rconv = Widening(body->type, def->return_type);
    if (!rconv) {
      diag_.Fail(fmt::format("the body of {} is {}, not its return type {}", name,
                             ToString(body->type), ToString(def->return_type)));
      return std::nullopt;
    }
    if (!ok) return std::nullopt;
    b.type = def->return_type;
    b.result_conv = *rconv;
    b.body.push_back(std::move(*body));
    return b;
  }

  Scope scope_;
  Diagnostics& diag_;
};

// ---------------------------------------------------------------------------------------
// Evaluation

/// days * per_day, saturated at the int64 range: a date too far out for the timestamp
/// type still orders before or after every timestamp.
int64_t ScaleDays(int64_t days, int64_t per_day) {
  int64_t out = 0;
  if (__builtin_mul_overflow(days, per_day, &out)) {
    return days < 0 ? std::numeric_limits<int64_t>::min()
                    : std::numeric_limits<int64_t>::max();
  }
  return out;
}

Value Convert(const Value& v, Conv conv) {
  if (v.is_null()) return v;
  switch (conv) {
    case Conv::kNone:
      return v;
    case Conv::kToDouble:
      return v.kind == ValueKind::kLong ? Value::Double(static_cast<double>(v.as_long()))
                                        : v;
    case Conv::kToDecimal:
      return v.kind == ValueKind::kLong ? Value::DecimalOf(v.as_long(), 0) : v;
    case Conv::kDateToMicros:
      return v.kind == ValueKind::kLong
                 ? Value::Long(ScaleDays(v.as_long(), kMicrosPerDay))
                 : v;
    case Conv::kDateToNanos:
      return v.kind == ValueKind::kLong
                 ? Value::Long(ScaleDays(v.as_long(), kMicrosPerDay * kNanosPerMicro))
                 : v;
    case Conv::kToNull:
      return Value::Null();
  }
  return v;
}

std::optional<Value> Binder::ConvertTyped(const Value& v, const Type& from,
                                          const Type& to) {
  auto conv = Widening(from, to);
  if (!conv) return std::nullopt;
  return Convert(v, *conv);
}

/// Two-valued truth of a boolean value: null (or anything else) is false.
bool Truth(const Value& v) { return v.kind == ValueKind::kBoolean && v.as_bool(); }

struct Frame {
  const Value* row = nullptr;  ///< the row (a check) or nullptr (a UDF body)
  const std::vector<Value>* args = nullptr;  ///< the arguments (a UDF body)
};

/// Null-safe equality: null = null and NaN = NaN are true; a null or NaN against anything
/// else is false.
bool NullSafeEq(const Value& a, const Value& b, const Type& domain) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  const bool an = IsNanValue(a);
  const bool bn = IsNanValue(b);
  if (an || bn) return an && bn;
  auto c = CompareValues(a, b, domain);
  return c && *c == 0;
}

/// Strict order: false whenever either side is null or NaN.
bool NullSafeLess(const Value& a, const Value& b, const Type& domain) {
  auto c = CompareValues(a, b, domain);
  return c && *c < 0;
}

class Evaluator {
 public:
  std::optional<Value> Eval(const Bound& b, const Frame& f) {
    switch (b.op) {
      case ExprOp::kTrue:
        return Value::Boolean(true);
      case ExprOp::kFalse:
        return Value::Boolean(false);
      case ExprOp::kNot: {
        auto v = Eval(b.kids[0], f);
        if (!v) return std::nullopt;
        return Value::Boolean(!Truth(*v));
      }
      case ExprOp::kAnd:
      case ExprOp::kOr: {
        auto l = Eval(b.kids[0], f);
        if (!l) return std::nullopt;
        if (b.op == ExprOp::kAnd && !Truth(*l)) return Value::Boolean(false);
        if (b.op == ExprOp::kOr && Truth(*l)) return Value::Boolean(true);
        auto r = Eval(b.kids[1], f);
        if (!r) return std::nullopt;
        return Value::Boolean(Truth(*r));
      }
      case ExprOp::kIsNull:
      case ExprOp::kNotNull: {
        auto v = Eval(b.kids[0], f);
        if (!v) return std::nullopt;
        return Value::Boolean(v->is_null() == (b.op == ExprOp::kIsNull));
      }
      case ExprOp::kIsNan:
      case ExprOp::kNotNan: {
        auto v = Eval(b.kids[0], f);
        if (!v) return std::nullopt;
        return Value::Boolean(IsNanValue(*v) == (b.op == ExprOp::kIsNan));
      }
      case ExprOp::kLt:
      case ExprOp::kLtEq:
      case ExprOp::kGt:
      case ExprOp::kGtEq:
      case ExprOp::kEq:
      case ExprOp::kNotEq:
      case ExprOp::kStartsWith:
      case ExprOp::kNotStartsWith: {
        auto l = Eval(b.kids[0], f);
        if (!l) return std::nullopt;
        auto r = Eval(b.kids[1], f);
        if (!r) return std::nullopt;
        return Value::Boolean(
            Compare(b, Convert(*l, b.convs[0]), Convert(*r, b.convs[1])));
      }
      case ExprOp::kIn:
      case ExprOp::kNotIn: {
        auto v = Eval(b.kids[0], f);
        if (!v) return std::nullopt;
        const Value x = Convert(*v, b.convs[0]);
        bool found = false;
        for (const Value& s : b.set) found = found || NullSafeEq(x, s, b.domain);
        return Value::Boolean(found == (b.op == ExprOp::kIn));
      }
      case ExprOp::kReference:
        return Reference(b, f);
      case ExprOp::kNamedReference:
        return std::nullopt;
      case ExprOp::kLiteral:
        return b.literal;
      case ExprOp::kParameter:
        if (f.args == nullptr || b.param_index < 0 ||
            static_cast<size_t>(b.param_index) >= f.args->size()) {
          return std::nullopt;
        }
        return (*f.args)[static_cast<size_t>(b.param_index)];
      case ExprOp::kApply:
        return b.builtin != Builtin::kNone ? CallBuiltin(b, f) : CallUdf(b, f);
    }
    return std::nullopt;
  }

 private:
  static bool Compare(const Bound& b, const Value& l, const Value& r) {
    switch (b.op) {
      case ExprOp::kEq:
        return NullSafeEq(l, r, b.domain);
      case ExprOp::kNotEq:
        return !NullSafeEq(l, r, b.domain);
      case ExprOp::kLt:
        return NullSafeLess(l, r, b.domain);
      case ExprOp::kGt:
        return NullSafeLess(r, l, b.domain);
      case ExprOp::kLtEq:
        return NullSafeLess(l, r, b.domain) || NullSafeEq(l, r, b.domain);
      case ExprOp::kGtEq:
        return NullSafeLess(r, l, b.domain) || NullSafeEq(l, r, b.domain);
      case ExprOp::kStartsWith:
      case ExprOp::kNotStartsWith: {
        bool starts = false;
        if (l.kind == ValueKind::kString && r.kind == ValueKind::kString) {
          starts = l.as_string().compare(0, r.as_string().size(), r.as_string()) == 0 &&
                   l.as_string().size() >= r.as_string().size();
        }
        return starts == (b.op == ExprOp::kStartsWith);
      }
      default:
        return false;
    }
  }

  static std::optional<Value> Reference(const Bound& b, const Frame& f) {
    // A field inside a list or map has a value per element, not one per row.
    if (b.per_element || f.row == nullptr) return std::nullopt;
    const Value* cur = f.row;
    for (FieldId id : b.path) {
      if (cur->kind != ValueKind::kStruct) return Value::Null();
      cur = cur->FindField(id);
      if (cur == nullptr) return Value::Null();
    }
    return *cur;
  }

  std::optional<Value> CallBuiltin(const Bound& b, const Frame& f) {
    if (b.builtin == Builtin::kIfElse) {
      auto c = Eval(b.kids[0], f);
      if (!c) return std::nullopt;
      // A null condition is not true: the else branch is taken.
      const size_t pick = Truth(*c) ? 1 : 2;
      auto v = Eval(b.kids[pick], f);
      if (!v) return std::nullopt;
      return Convert(*v, b.convs[pick]);
    }
    auto v = Eval(b.kids[0], f);
    if (!v) return std::nullopt;
    if (v->is_null()) return Value::Null();  // null in, null out
    return ApplyTransform(b.builtin, b.width, b.kids[0].type, *v);
  }

  std::optional<Value> CallUdf(const Bound& b, const Frame& f) {
    if (b.undefined || b.body.empty()) return std::nullopt;
    std::vector<Value> args;
    args.reserve(b.kids.size());
    for (size_t i = 0; i < b.kids.size(); ++i) {
      auto v = Eval(b.kids[i], f);
      if (!v) return std::nullopt;
      args.push_back(Convert(*v, b.convs[i]));
    }
    Frame inner{nullptr, &args};
    auto r = Eval(b.body[0], inner);
    if (!r) return std::nullopt;
    return Convert(*r, b.result_conv);
  }

 public:
  static std::optional<Value> ApplyTransform(Builtin fn, int64_t width, const Type& type,
                                             const Value& v) {
    switch (fn) {
      case Builtin::kIdentity:
        return v;
      case Builtin::kYear:
      case Builtin::kMonth:
      case Builtin::kDay: {
        if (v.kind != ValueKind::kLong) return std::nullopt;
        const int64_t days = DaysOf(v.as_long(), type.id);
        if (fn == Builtin::kDay) return Value::Long(days);
        int64_t y = 0, m = 0;
        YearMonthFromDays(days, y, m);
        if (fn == Builtin::kYear) return Value::Long(y - 1970);
        return Value::Long((y - 1970) * 12 + (m - 1));
      }
      case Builtin::kHour: {
        if (v.kind != ValueKind::kLong) return std::nullopt;
        int64_t micros = v.as_long();
        if (IsNanos(type.id)) micros = FloorDiv(micros, kNanosPerMicro);
        return Value::Long(FloorDiv(micros, kMicrosPerHour));
      }
      case Builtin::kBucket: {
        const int32_t h = IcebergHash(v, type);
        return Value::Long((h & INT_MAX) % width);
      }
      case Builtin::kTruncate:
        return Truncate(width, type, v);
      default:
        return std::nullopt;
    }
  }

  /// Iceberg truncate(W): integers and decimals (unscaled) to `v - (((v % W) + W) % W)`,
  /// strings to their first W code points, binary to its first W bytes.
  static std::optional<Value> Truncate(int64_t w, const Type& type, const Value& v) {
    switch (type.id) {
      case TypeId::kInt:
      case TypeId::kLong: {
        if (v.kind != ValueKind::kLong) return std::nullopt;
        const Int128 x = v.as_long();
        const Int128 r = x - (((x % w) + w) % w);
        // Java wraps on overflow at the minimum value; so does this.
        return Value::Long(static_cast<int64_t>(
            static_cast<uint64_t>(static_cast<unsigned __int128>(r))));
      }
      case TypeId::kDecimal: {
        if (v.kind != ValueKind::kDecimal) return std::nullopt;
        const Int128 x = v.as_decimal().unscaled;
        const Int128 r = x - (((x % w) + w) % w);
        return Value::DecimalOf(r, v.as_decimal().scale);
      }
      case TypeId::kString:
        if (v.kind != ValueKind::kString) return std::nullopt;
        return Value::String(TruncateUtf8(v.as_string(), w));
      case TypeId::kBinary:
        if (v.kind != ValueKind::kBytes && v.kind != ValueKind::kString)
          return std::nullopt;
        return Value::Bytes(v.as_string().substr(0, static_cast<size_t>(w)));
      default:
        return std::nullopt;
    }
  }
};

/// Names, determinism and references, collected over the whole tree (also where binding
/// fails), for BindResult. UDF bodies are followed for determinism only.
void Survey(const Expr& e, const FunctionCatalog& functions, BindResult& out,
            bool in_body, int depth) {
  if (e.op == ExprOp::kReference && !in_body)
    out.referenced_field_ids.push_back(e.field_id);
  if (e.op == ExprOp::kApply && ResolveBuiltin(e) == Builtin::kNone &&
      !NamesIcebergCatalog(e)) {
    if (!in_body) out.calls_udf = true;
    auto it = functions.find(UdfName(e));
    if (it != functions.end()) {
      if (!it->second.deterministic) out.calls_nondeterministic = true;
      if (depth < kMaxCallDepth) Survey(it->second.body, functions, out, true, depth + 1);
    }
  }
  for (const Expr& c : e.children) Survey(c, functions, out, in_body, depth);
}

}  // namespace

namespace internal {

/// The bound tree of a check and what binding found.
struct BoundCheck {
  std::optional<Bound> root;
  Diagnostics diag;
  bool evaluable() const {
    return root && diag.first_error.empty() && diag.undefined.empty();
  }
};

}  // namespace internal

namespace {

internal::BoundCheck Compile(const Expr& expr, const std::vector<NestedField>& fields,
                             const FunctionCatalog& functions) {
  internal::BoundCheck c;
  Binder binder(Scope{&fields, nullptr, &functions, 0}, c.diag);
  c.root = binder.BindPredicate(expr);
  return c;
}

std::optional<bool> EvaluateBound(const internal::BoundCheck& c, const Value& row) {
  if (!c.evaluable()) return std::nullopt;
  Evaluator ev;
  auto v = ev.Eval(*c.root, Frame{&row, nullptr});
  if (!v) return std::nullopt;
  return Truth(*v);
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

bool IsBuiltinFunction(const Expr& apply) {
  return ResolveBuiltin(apply) != Builtin::kNone;
}

/// Iceberg spec Appendix B: int, long, date, time and timestamps hash as `hashLong`
/// (8 bytes little-endian), the _ns types after conversion to micros; decimals as the
/// minimal big-endian two's-complement bytes of the unscaled value; strings as UTF-8;
/// uuid, fixed and binary as their bytes; booleans as hashInt(0/1); floats and doubles as
/// hashLong(doubleToLongBits) of the value as a double, NaN and -0.0 canonicalized (the
/// spec's table for types that are not bucketed today). Null, and types Iceberg does not
/// hash, give 0.
int32_t IcebergHash(const Value& v, const Type& type) {
  if (v.is_null()) return 0;
  switch (type.id) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (v.kind != ValueKind::kLong) return 0;
      return HashLong(v.as_long());
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (v.kind != ValueKind::kLong) return 0;
      return HashLong(FloorDiv(v.as_long(), kNanosPerMicro));
    case TypeId::kBoolean:
      if (v.kind != ValueKind::kBoolean) return 0;
      return HashLong(v.as_bool() ? 1 : 0);
    case TypeId::kFloat:
    case TypeId::kDouble: {
      if (v.kind != ValueKind::kDouble && v.kind != ValueKind::kLong) return 0;
      const double d =
          v.kind == ValueKind::kLong ? static_cast<double>(v.as_long()) : v.as_double();
      // "All NaN bit patterns must be canonicalized to 0x7ff8000000000000L. Negative zero
      // (-0.0) must be canonicalized to positive zero (0.0)."
      if (std::isnan(d)) return HashLong(int64_t{0x7ff8000000000000});
      return HashLong(std::bit_cast<int64_t>(d == 0.0 ? 0.0 : d));
    }
    case TypeId::kDecimal: {
      if (v.kind != ValueKind::kDecimal && v.kind != ValueKind::kLong) return 0;
      const Decimal d =
          v.kind == ValueKind::kLong ? Decimal{v.as_long(), 0} : v.as_decimal();
      Int128 unscaled = d.unscaled;
      // Hash at the type's scale when the value carries a smaller one.
      for (int32_t s = d.scale; s < type.scale; ++s) unscaled *= 10;
      return internal::Murmur3X86_32(MinimalTwosComplement(unscaled));
    }
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (v.kind != ValueKind::kString && v.kind != ValueKind::kBytes) return 0;
      return internal::Murmur3X86_32(v.as_string());
    default:
      return 0;
  }
}

}  // namespace ictk
