/// \file
/// Binding a check expression's predicates, comparisons, `in` sets and terms
/// (references, parameters, literals): every node gets its result type, comparison
/// operands get one aligned "domain" type (type_alignment.cc), literals are converted to
/// that domain with BindLiteral and references get their path through nested structs.
/// Calls are bound in bind_function.cc.
#include <fmt/format.h>

#include "model/iceberg/evaluate_internal.h"
#include "model/iceberg/value_parse.h"

namespace ictk::internal {

/// "string field 3", "5", "year(#8) (int)": how an operand is named in messages.
std::string Describe(const Expr& e, const Type& t) {
  if (e.op == ExprOp::kReference)
    return fmt::format("{} field {}", ToString(t), e.field_id);
  if (e.op == ExprOp::kLiteral) return ToString(e);
  return fmt::format("{} ({})", ToString(e), ToString(t));
}

/// Binds a predicate, or a boolean-typed term used as one.
std::optional<Bound> Binder::BindPredicate(const Expr& e) {
  auto b = Bind(e);
  if (!b) return std::nullopt;
  if (b->type.id != TypeId::kBoolean && b->type.id != TypeId::kUnknown) {
    diag_.Fail(
        fmt::format("{} is not a predicate (type {})", ToString(e), ToString(b->type)));
    return std::nullopt;
  }
  return b;
}

std::optional<Bound> Binder::Bind(const Expr& e) {
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

Bound Binder::Leaf(ExprOp op, Type type) {
  Bound b;
  b.op = op;
  b.type = std::move(type);
  return b;
}

bool Binder::Arity(const Expr& e, size_t n) {
  if (e.children.size() == n) return true;
  return diag_.Fail(fmt::format("{} takes {} operand(s), got {}", ExprOpName(e.op), n,
                                e.children.size()));
}

std::optional<Bound> Binder::BindLogical(const Expr& e) {
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

std::optional<Bound> Binder::BindUnaryTest(const Expr& e) {
  if (!Arity(e, 1)) return std::nullopt;
  auto k = Bind(e.children[0]);
  if (!k) return std::nullopt;
  if ((e.op == ExprOp::kIsNan || e.op == ExprOp::kNotNan) && !IsFloating(k->type.id) &&
      k->type.id != TypeId::kUnknown) {
    diag_.Fail(fmt::format("{} needs a float or double operand, got {}", ExprOpName(e.op),
                           Describe(e.children[0], k->type)));
    return std::nullopt;
  }
  Bound b = Leaf(e.op, Type::Primitive(TypeId::kBoolean));
  b.kids.push_back(std::move(*k));
  return b;
}

bool Binder::IsUntypedLiteral(const Expr& e) const {
  return e.op == ExprOp::kLiteral && !e.data_type && !e.values.empty();
}

/// Binds an untyped literal against an operand of type `other`: the first domain of
/// LiteralDomains(other) the literal converts to exactly.
std::optional<std::pair<Type, Value>> Binder::LiteralAgainst(const Value& lit,
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
bool Binder::CheckDirectLiteral(const Expr& cmp, const Value& v) {
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
bool Binder::AlignPair(const Expr& owner, const Expr& l, const Expr& r, Bound& b,
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
  if (lu && ru) return AlignLiterals(owner, l, r, b);
  if (lu || ru) return AlignLiteralWithTerm(owner, lu ? r : l, lu ? l : r, lu, b);
  return AlignTerms(owner, l, r, b);
}

/// Two untyped literals: the left one's own type decides.
bool Binder::AlignLiterals(const Expr& owner, const Expr& l, const Expr& r, Bound& b) {
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

/// An untyped literal `lit` against a term, `literal_left` when it is the left operand.
bool Binder::AlignLiteralWithTerm(const Expr& owner, const Expr& term, const Expr& lit,
                                  bool literal_left, Bound& b) {
  auto tk = Bind(term);
  if (!tk) return false;
  if (lit.values[0].is_null()) {
    // if_else(c, null, x): a null branch takes the other branch's type.
    Bound lk = Leaf(ExprOp::kLiteral, tk->type);
    b.domain = tk->type;
    if (literal_left) {
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
  if (literal_left) {
    b.kids = {std::move(lk), std::move(*tk)};
    b.convs = {Conv::kNone, *conv};
  } else {
    b.kids = {std::move(*tk), std::move(lk)};
    b.convs = {*conv, Conv::kNone};
  }
  return true;
}

/// Two terms (or typed literals), aligned by AlignTypes.
bool Binder::AlignTerms(const Expr& owner, const Expr& l, const Expr& r, Bound& b) {
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

bool Binder::MismatchLiteral(const Expr& owner, const Expr& term, const Type& type,
                             const Expr& lit) {
  return diag_.Fail(fmt::format("{}: {} compared with {}", ToString(owner),
                                Describe(term, type), ToString(lit)));
}

std::optional<Bound> Binder::BindComparison(const Expr& e) {
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
    diag_.Fail(fmt::format("{}: {} takes strings, not {}", ToString(e), ExprOpName(e.op),
                           ToString(b.domain)));
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
std::optional<Bound> Binder::BindSet(const Expr& e) {
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

std::optional<Value> Binder::ConvertTyped(const Value& v, const Type& from,
                                          const Type& to) {
  auto conv = Widening(from, to);
  if (!conv) return std::nullopt;
  return Convert(v, *conv);
}

std::optional<Bound> Binder::BindReference(const Expr& e) {
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

std::optional<Bound> Binder::BindParameter(const Expr& e) {
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
std::optional<Bound> Binder::BindLiteralTerm(const Expr& e) {
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

BoundCheck Compile(const Expr& expr, const std::vector<NestedField>& fields,
                   const FunctionCatalog& functions) {
  BoundCheck c;
  Binder binder(Scope{&fields, nullptr, &functions, 0}, c.diag);
  c.root = binder.BindPredicate(expr);
  return c;
}

}  // namespace ictk::internal
