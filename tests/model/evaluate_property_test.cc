// Tests of model/iceberg/evaluate.h: a RapidCheck property against a naive evaluator of the same
// two-valued null-safe semantics. The other evaluate_*_test.cc test each aspect alone.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "model/iceberg/evaluate.h"
#include "tests/model/evaluate_test_util_internal.h"

namespace ictk::evaluate_test {
namespace {


// ---- property: agreement with a naive evaluator

/// Fields of the generated rows: 1 int, 2 long, 3 string, 4 double, all optional.
std::vector<NestedField> PropSchema() {
  return {Field(1, false, P(TypeId::kInt)), Field(2, false, P(TypeId::kLong)),
          Field(3, false, P(TypeId::kString)), Field(4, false, P(TypeId::kDouble))};
}

using Scalar = std::variant<std::monostate, int64_t, double, std::string>;

Scalar ToScalar(const Value& v) {
  switch (v.kind) {
    case ValueKind::kLong:
      return v.as_long();
    case ValueKind::kDouble:
      return v.as_double();
    case ValueKind::kString:
      return v.as_string();
    default:
      return std::monostate{};
  }
}

/// The naive reading of SURROUNDINGS.md, written independently of the evaluator: null and
/// NaN are "absent-like"; equal only to their own kind; never ordered.
struct Naive {
  static bool IsNull(const Scalar& s) {
    return std::holds_alternative<std::monostate>(s);
  }
  static bool IsNan(const Scalar& s) {
    return std::holds_alternative<double>(s) && std::isnan(std::get<double>(s));
  }
  /// -1/0/1 for two ordinary values (numbers as doubles when either is a double).
  static int Order(const Scalar& a, const Scalar& b) {
    if (std::holds_alternative<std::string>(a)) {
      const auto& x = std::get<std::string>(a);
      const auto& y = std::get<std::string>(b);
      return x < y ? -1 : (x == y ? 0 : 1);
    }
    if (std::holds_alternative<int64_t>(a) && std::holds_alternative<int64_t>(b)) {
      const int64_t x = std::get<int64_t>(a), y = std::get<int64_t>(b);
      return x < y ? -1 : (x == y ? 0 : 1);
    }
    auto d = [](const Scalar& s) {
      return std::holds_alternative<double>(s)
                 ? std::get<double>(s)
                 : static_cast<double>(std::get<int64_t>(s));
    };
    const double x = d(a), y = d(b);
    return x < y ? -1 : (x == y ? 0 : 1);
  }
  static bool Eq(const Scalar& a, const Scalar& b) {
    if (IsNull(a) || IsNull(b)) return IsNull(a) && IsNull(b);
    if (IsNan(a) || IsNan(b)) return IsNan(a) && IsNan(b);
    return Order(a, b) == 0;
  }
  static bool Lt(const Scalar& a, const Scalar& b) {
    if (IsNull(a) || IsNull(b) || IsNan(a) || IsNan(b)) return false;
    return Order(a, b) < 0;
  }

  const Value& row;
  Scalar Term(const Expr& e) const {
    if (e.op == ExprOp::kLiteral) return ToScalar(e.values[0]);
    const Value* v = row.FindField(e.field_id);
    return v ? ToScalar(*v) : Scalar{};
  }
  bool operator()(const Expr& e) const {
    switch (e.op) {
      case ExprOp::kTrue:
        return true;
      case ExprOp::kFalse:
        return false;
      case ExprOp::kNot:
        return !(*this)(e.children[0]);
      case ExprOp::kAnd:
        return (*this)(e.children[0]) && (*this)(e.children[1]);
      case ExprOp::kOr:
        return (*this)(e.children[0]) || (*this)(e.children[1]);
      case ExprOp::kIsNull:
        return IsNull(Term(e.children[0]));
      case ExprOp::kNotNull:
        return !IsNull(Term(e.children[0]));
      case ExprOp::kIn:
      case ExprOp::kNotIn: {
        const Scalar x = Term(e.children[0]);
        bool found = false;
        for (const Value& v : e.values) found = found || Eq(x, ToScalar(v));
        return found == (e.op == ExprOp::kIn);
      }
      default:
        break;
    }
    const Scalar l = Term(e.children[0]);
    const Scalar r = Term(e.children[1]);
    switch (e.op) {
      case ExprOp::kEq:
        return Eq(l, r);
      case ExprOp::kNotEq:
        return !Eq(l, r);
      case ExprOp::kLt:
        return Lt(l, r);
      case ExprOp::kLtEq:
        return Lt(l, r) || Eq(l, r);
      case ExprOp::kGt:
        return Lt(r, l);
      case ExprOp::kGtEq:
        return Lt(r, l) || Eq(l, r);
      case ExprOp::kStartsWith:
      case ExprOp::kNotStartsWith: {
        bool starts = false;
        if (!IsNull(l) && !IsNull(r)) {
          starts = std::get<std::string>(l).starts_with(std::get<std::string>(r));
        }
        return starts == (e.op == ExprOp::kStartsWith);
      }
      default:
        return false;
    }
  }
};

/// A non-null literal value fitting field `id` (ints sometimes as doubles, to exercise
/// alignment).
rc::Gen<Value> GenLiteral(FieldId id) {
  auto longs =
      rc::gen::map(rc::gen::inRange(-3, 4), [](int x) { return Value::Long(x); });
  auto doubles = rc::gen::map(rc::gen::element(-1.5, 0.0, 2.0, -0.0),
                              [](double x) { return Value::Double(x); });
  switch (id) {
    case 1:
      return rc::gen::weightedOneOf<Value>({{3, longs}, {1, doubles}});
    case 2:
      return longs;
    case 3:
      return rc::gen::map(rc::gen::element<std::string>("", "a", "ab", "b"),
                          [](std::string s) { return Value::String(std::move(s)); });
    default:
      return rc::gen::weightedOneOf<Value>({{3, doubles}, {1, longs}});
  }
}

rc::Gen<Expr> GenLeaf() {
  const auto field = rc::gen::inRange<FieldId>(1, 5);
  auto comparison = rc::gen::mapcat(field, [](FieldId f) {
    return rc::gen::apply(
        [f](ExprOp op, Value lit, bool flip) {
          return flip ? Cmp(op, Lit(std::move(lit)), Expr::Ref(f))
                      : Cmp(op, Expr::Ref(f), Lit(std::move(lit)));
        },
        rc::gen::element(ExprOp::kLt, ExprOp::kLtEq, ExprOp::kGt, ExprOp::kGtEq,
                         ExprOp::kEq, ExprOp::kNotEq),
        GenLiteral(f), rc::gen::arbitrary<bool>());
  });
  // Field against field of a comparable type: int vs long, long vs long, double vs
  // double.
  auto pair = rc::gen::apply(
      [](ExprOp op, std::pair<FieldId, FieldId> fs) {
        return Cmp(op, Expr::Ref(fs.first), Expr::Ref(fs.second));
      },
      rc::gen::element(ExprOp::kLt, ExprOp::kLtEq, ExprOp::kEq, ExprOp::kNotEq,
                       ExprOp::kGtEq),
      rc::gen::element(
          std::pair<FieldId, FieldId>{1, 2}, std::pair<FieldId, FieldId>{2, 1},
          std::pair<FieldId, FieldId>{4, 4}, std::pair<FieldId, FieldId>{3, 3},
          std::pair<FieldId, FieldId>{1, 4}));
  auto null_test =
      rc::gen::apply([](ExprOp op, FieldId f) { return Expr::Unary(op, Expr::Ref(f)); },
                     rc::gen::element(ExprOp::kIsNull, ExprOp::kNotNull), field);
  // Set values of one kind per field (longs for the int and long fields).
  auto in = rc::gen::mapcat(field, [](FieldId f) {
    rc::Gen<Value> element = f == 4
                                 ? rc::gen::map(rc::gen::element(-1.5, 0.0, 2.0),
                                                [](double x) { return Value::Double(x); })
                                 : (f == 3 ? GenLiteral(3) : GenLiteral(2));
    return rc::gen::apply(
        [f](ExprOp op, std::vector<Value> vs) {
          return Expr::Set(op, Expr::Ref(f), std::move(vs));
        },
        rc::gen::element(ExprOp::kIn, ExprOp::kNotIn),
        rc::gen::mapcat(rc::gen::inRange(0, 4), [element](int n) {
          return rc::gen::container<std::vector<Value>>(static_cast<size_t>(n), element);
        }));
  });
  auto starts = rc::gen::apply(
      [](ExprOp op, std::string s) { return Cmp(op, Expr::Ref(3), LitS(std::move(s))); },
      rc::gen::element(ExprOp::kStartsWith, ExprOp::kNotStartsWith),
      rc::gen::element<std::string>("", "a", "ab"));
  auto constant = rc::gen::element(Expr::True(), Expr::False());
  return rc::gen::weightedOneOf<Expr>(
      {{4, comparison}, {2, pair}, {2, null_test}, {2, in}, {1, starts}, {1, constant}});
}

rc::Gen<Expr> GenPredicate(int depth) {
  if (depth == 0) return GenLeaf();
  auto sub = GenPredicate(depth - 1);
  return rc::gen::weightedOneOf<Expr>({
      {3, GenLeaf()},
      {1,
       rc::gen::map(sub, [](Expr e) { return Expr::Unary(ExprOp::kNot, std::move(e)); })},
      {2, rc::gen::apply([](Expr l, Expr r) { return Expr::Binary(ExprOp::kAnd, l, r); },
                         sub, sub)},
      {2, rc::gen::apply([](Expr l, Expr r) { return Expr::Binary(ExprOp::kOr, l, r); },
                         sub, sub)},
  });
}

rc::Gen<Value> GenRow() {
  auto opt = [](rc::Gen<Value> g) {
    return rc::gen::weightedOneOf<Value>({{1, rc::gen::just(Value::Null())}, {4, g}});
  };
  return rc::gen::apply(
      [](Value i, Value l, Value s, Value d) {
        return Row({{1, i}, {2, l}, {3, s}, {4, d}});
      },
      opt(rc::gen::map(rc::gen::inRange(-3, 4), [](int x) { return Value::Long(x); })),
      opt(rc::gen::map(rc::gen::inRange(-3, 4), [](int x) { return Value::Long(x); })),
      opt(rc::gen::map(rc::gen::element<std::string>("", "a", "ab", "abc", "b"),
                       [](std::string s) { return Value::String(std::move(s)); })),
      opt(rc::gen::map(rc::gen::element(kNaN, -0.0, 0.0, -1.5, 2.0, 3.0),
                       [](double x) { return Value::Double(x); })));
}

RC_GTEST_PROP(EvaluateCheckProperty, AgreesWithNaiveEvaluator, ()) {
  const Expr e = *GenPredicate(3);
  const Value row = *GenRow();
  const BindResult bound = BindCheckExpression(e, PropSchema(), {});
  RC_ASSERT(bound.ok());
  const std::optional<bool> got = EvaluateCheck(e, PropSchema(), row, {});
  RC_ASSERT(got.has_value());
  const bool expected = Naive{row}(e);
  RC_TAG(expected);
  RC_ASSERT(*got == expected);
  const CompiledCheck compiled(e, PropSchema(), {});
  RC_ASSERT(compiled.ok());
  RC_ASSERT(compiled.Evaluate(row) == got);
}

}  // namespace
}  // namespace ictk::evaluate_test
