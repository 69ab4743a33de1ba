/// \file
/// Evaluation of a bound check over one row: two-valued logic (null is not true),
/// null-safe comparisons in the aligned domain, the built-ins and UDF calls.
#include <optional>
#include <vector>

#include "model/iceberg/evaluate_internal.h"
#include "model/iceberg/value_compare.h"

namespace ictk::internal {

namespace {

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
  /// With `record`, the value of every node evaluated in the row's frame (not inside a
  /// UDF body) is kept there, for ExplainBound.
  explicit Evaluator(NodeValues* record = nullptr) : record_(record) {}

  std::optional<Value> Eval(const Bound& b, const Frame& f) {
    std::optional<Value> v = EvalNode(b, f);
    if (record_ != nullptr && f.row != nullptr && v) record_->insert_or_assign(&b, *v);
    return v;
  }

 private:
  NodeValues* record_ = nullptr;

  std::optional<Value> EvalNode(const Bound& b, const Frame& f) {
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
};

}  // namespace

std::optional<bool> EvaluateBound(const internal::BoundCheck& c, const Value& row,
                                  NodeValues* record) {
  if (!c.evaluable()) return std::nullopt;
  Evaluator ev(record);
  auto v = ev.Eval(*c.root, Frame{&row, nullptr});
  if (!v) return std::nullopt;
  return Truth(*v);
}

}  // namespace ictk::internal
