/// \file
/// The sample's check evaluator (check_node_internal.h EvaluateCheck): a compiled tree over
/// one row, two-valued and null-safe (null = null is true, 5 = null false, null < null
/// false, null <= null true; NaN behaves like null), the `iceberg_functions` built-ins and
/// UDF bodies over their arguments.
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>

#include "sample/check_internal.h"
#include "sample/check_node_internal.h"
#include "sample/decode_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {
namespace {

using Kind = CheckNode::Kind;
constexpr int64_t kMicrosPerHour = 3'600'000'000LL;

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

}  // namespace

bool EvaluateCheck(const CheckNode& root, const Value& row, const CheckOptions& options) {
  Evaluator ev(options);
  // A SQL CHECK passes unless it is false; only the three-valued mutant gets here
  // unknown.
  return ev.Pred(root, row, nullptr) != Truth::kFalse;
}

}  // namespace ictk::sample
