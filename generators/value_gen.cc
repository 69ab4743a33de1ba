/// \file
/// Value and row generators (value_gen.h).
#include "generators/value_gen.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "generators/gen_internal.h"
#include "model/iceberg/value_parse.h"

namespace ictk {
namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000LL;
constexpr int64_t kMaxTimestampMicros =
    253'402'300'799'999'999LL;                              // 9999-12-31T23:59:59.999999
constexpr int64_t kMaxDateDays = 2'932'896;                 // 9999-12-31
constexpr int64_t kMaxNanos = 4'102'444'800'000'000'000LL;  // 2100-01-01

Int128 Pow10(int n) {
  Int128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

std::string Bytes(size_t n, uint64_t seed) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    out += static_cast<char>(seed >> 56);
  }
  return out;
}

double AsFloat(double d) { return static_cast<double>(static_cast<float>(d)); }

/// An ordinary (non-edge) typed primitive value.
rc::Gen<Value> GenOrdinary(const Type& type, bool small) {
  switch (type.id) {
    case TypeId::kBoolean:
      return rc::gen::map(rc::gen::arbitrary<bool>(), &Value::Boolean);
    case TypeId::kInt:
      if (small) return rc::gen::map(Uniform<int64_t>(0, 4), &Value::Long);
      return rc::gen::map(rc::gen::arbitrary<int32_t>(),
                          [](int32_t x) { return Value::Long(x); });
    case TypeId::kLong:
      if (small) return rc::gen::map(Uniform<int64_t>(0, 4), &Value::Long);
      return rc::gen::map(rc::gen::arbitrary<int64_t>(), &Value::Long);
    case TypeId::kFloat:
      return rc::gen::map(rc::gen::inRange<int>(-1000, 1000),
                          [](int x) { return Value::Double(AsFloat(x / 8.0)); });
    case TypeId::kDouble:
      return rc::gen::map(rc::gen::arbitrary<int64_t>(), [](int64_t x) {
        return Value::Double(static_cast<double>(x) / 1024.0);
      });
    case TypeId::kDecimal: {
      const int p = std::min(type.precision, 18);
      const int64_t bound = static_cast<int64_t>(Pow10(p)) - 1;
      const int32_t scale = type.scale;
      if (small)
        return rc::gen::map(Uniform<int64_t>(0, 4),
                            [scale](int64_t x) { return Value::DecimalOf(x, scale); });
      return rc::gen::map(rc::gen::inRange<int64_t>(-bound, bound + 1),
                          [scale](int64_t x) { return Value::DecimalOf(x, scale); });
    }
    case TypeId::kDate:
      if (small) return rc::gen::map(Uniform<int64_t>(17000, 17004), &Value::Long);
      return rc::gen::map(rc::gen::inRange<int64_t>(-25567, kMaxDateDays + 1),
                          &Value::Long);
    case TypeId::kTime:
      return rc::gen::map(rc::gen::inRange<int64_t>(0, kMicrosPerDay), &Value::Long);
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      if (small)
        return rc::gen::map(Uniform<int64_t>(0, 4), [](int64_t x) {
          return Value::Long(1'500'000'000'000'000LL + x * 1'000'000LL);
        });
      return rc::gen::map(
          rc::gen::inRange<int64_t>(-2'208'988'800'000'000LL, kMaxTimestampMicros),
          &Value::Long);
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return rc::gen::map(rc::gen::inRange<int64_t>(-kMaxNanos, kMaxNanos), &Value::Long);
    case TypeId::kString:
      if (small)
        return rc::gen::map(rc::gen::element<std::string>("a", "b", "A", "ab"),
                            &Value::String);
      return rc::gen::map(
          rc::gen::container<std::string>(rc::gen::inRange<char>('a', 'z' + 1)),
          &Value::String);
    case TypeId::kUuid:
      if (small)
        return rc::gen::map(Uniform<uint64_t>(0, 3),
                            [](uint64_t x) { return Value::Bytes(Bytes(16, x)); });
      return rc::gen::map(rc::gen::arbitrary<uint64_t>(),
                          [](uint64_t x) { return Value::Bytes(Bytes(16, x)); });
    case TypeId::kFixed: {
      const size_t n = static_cast<size_t>(type.length);
      return rc::gen::map(rc::gen::inRange<uint64_t>(0, small ? 3 : 1u << 30),
                          [n](uint64_t x) { return Value::Bytes(Bytes(n, x)); });
    }
    case TypeId::kBinary:
      return rc::gen::map(
          rc::gen::pair(rc::gen::inRange<size_t>(0, 9), rc::gen::arbitrary<uint64_t>()),
          [](std::pair<size_t, uint64_t> p) {
            return Value::Bytes(Bytes(p.first, p.second));
          });
    default:
      return rc::gen::just(Value::Null());
  }
}

}  // namespace

std::vector<Value> EdgeValues(const Type& type) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (type.id) {
    case TypeId::kBoolean:
      return {Value::Boolean(false), Value::Boolean(true)};
    case TypeId::kInt:
      return {Value::Long(0), Value::Long(-1),
              Value::Long(std::numeric_limits<int32_t>::min()),
              Value::Long(std::numeric_limits<int32_t>::max())};
    case TypeId::kLong:
      return {Value::Long(0),
              Value::Long(-1),
              Value::Long(std::numeric_limits<int64_t>::min()),
              Value::Long(std::numeric_limits<int64_t>::max()),
              Value::Long(int64_t{1} << 53),
              Value::Long((int64_t{1} << 53) + 1)};
    case TypeId::kFloat:
      return {Value::Double(0.0),
              Value::Double(-0.0),
              Value::Double(nan),
              Value::Double(inf),
              Value::Double(-inf),
              Value::Double(std::numeric_limits<float>::max()),
              Value::Double(std::numeric_limits<float>::denorm_min())};
    case TypeId::kDouble:
      return {Value::Double(0.0),
              Value::Double(-0.0),
              Value::Double(nan),
              Value::Double(inf),
              Value::Double(-inf),
              Value::Double(std::numeric_limits<double>::max()),
              Value::Double(std::numeric_limits<double>::denorm_min())};
    case TypeId::kDecimal: {
      const Int128 max = Pow10(type.precision) - 1;
      return {Value::DecimalOf(0, type.scale), Value::DecimalOf(max, type.scale),
              Value::DecimalOf(-max, type.scale), Value::DecimalOf(1, type.scale)};
    }
    case TypeId::kDate:
      return {Value::Long(0), Value::Long(-1), Value::Long(kMaxDateDays)};
    case TypeId::kTime:
      return {Value::Long(0), Value::Long(kMicrosPerDay - 1), Value::Long(1)};
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return {Value::Long(0), Value::Long(-1), Value::Long(999'999),
              Value::Long(1'000'000), Value::Long(kMaxTimestampMicros)};
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return {Value::Long(0),    Value::Long(-1),          Value::Long(999),
              Value::Long(1000), Value::Long(999'999'999), Value::Long(kMaxNanos)};
    case TypeId::kString:
      return {Value::String(""),
              Value::String("\xc3\xbc\x6e\xc3\xaf\x63\xc3\xb8\x64\xc3\xa9"),
              Value::String("\xf0\x9f\xa7\x8a"),
              Value::String(std::string(300, 'x')),
              Value::String("a\"b\\c\n"),
              Value::String("A")};
    case TypeId::kUuid:
      return {Value::Bytes(std::string(16, '\0')), Value::Bytes(std::string(16, '\xff'))};
    case TypeId::kFixed:
      return {Value::Bytes(std::string(static_cast<size_t>(type.length), '\0')),
              Value::Bytes(std::string(static_cast<size_t>(type.length), '\xff'))};
    case TypeId::kBinary:
      return {Value::Bytes(""), Value::Bytes(std::string(1, '\0'))};
    default:
      return {Value::Null()};
  }
}

rc::Gen<Value> GenTypedValue(const Type& type, bool required,
                             const ValueGenOptions& options) {
  return rc::gen::exec([type, required, options]() -> Value {
    const bool can_be_null = !required || type.id == TypeId::kUnknown ||
                             type.id == TypeId::kGeometry ||
                             type.id == TypeId::kGeography || type.id == TypeId::kVariant;
    if (type.id == TypeId::kUnknown || type.id == TypeId::kGeometry ||
        type.id == TypeId::kGeography || type.id == TypeId::kVariant)
      return Value::Null();
    if (can_be_null && *Uniform<int>(0, 100) < options.null_percent) return Value::Null();
    switch (type.id) {
      case TypeId::kStruct: {
        std::vector<FieldId> ids;
        std::vector<Value> values;
        for (const NestedField& f : type.fields) {
          ids.push_back(f.id);
          values.push_back(*GenTypedValue(f.type, f.required, options));
        }
        return Value::Struct(std::move(ids), std::move(values));
      }
      case TypeId::kList: {
        const int n = *Uniform<int>(0, 4);
        std::vector<Value> elements;
        for (int i = 0; i < n; ++i)
          elements.push_back(
              *GenTypedValue(type.element(), type.element_required, options));
        return Value::List(std::move(elements));
      }
      case TypeId::kMap: {
        const int n = *Uniform<int>(0, 4);
        std::vector<Value> keys, values;
        for (int i = 0; i < n; ++i) {
          Value k = *GenTypedValue(type.key(), true, options);
          bool dup = false;
          for (const Value& seen : keys) dup = dup || seen == k;
          if (dup) continue;
          keys.push_back(std::move(k));
          values.push_back(*GenTypedValue(type.value(), type.value_required, options));
        }
        return Value::Map(std::move(keys), std::move(values));
      }
      default:
        break;
    }
    if (*Uniform<int>(0, 100) < options.edge_percent) {
      std::vector<Value> edges = EdgeValues(type);
      if (!edges.empty()) return *rc::gen::elementOf(edges);
    }
    return *GenOrdinary(type, options.small_domain);
  });
}

Value ToRequestForm(const Value& typed, const Type& type, bool respell) {
  if (typed.is_null()) return typed;
  switch (type.id) {
    case TypeId::kStruct: {
      std::vector<FieldId> ids;
      std::vector<Value> values;
      for (size_t i = 0; i < typed.field_ids.size(); ++i) {
        const NestedField* field = nullptr;
        for (const NestedField& f : type.fields)
          if (f.id == typed.field_ids[i]) field = &f;
        ids.push_back(typed.field_ids[i]);
        values.push_back(field ? ToRequestForm(typed.children[i], field->type, respell)
                               : typed.children[i]);
      }
      return Value::Struct(std::move(ids), std::move(values));
    }
    case TypeId::kList: {
      std::vector<Value> elements;
      for (const Value& e : typed.children)
        elements.push_back(ToRequestForm(e, type.element(), respell));
      return Value::List(std::move(elements));
    }
    case TypeId::kMap: {
      const size_t n = typed.children.size() / 2;
      std::vector<Value> keys, values;
      for (size_t i = 0; i < n; ++i) {
        keys.push_back(ToRequestForm(typed.children[i], type.key(), respell));
        values.push_back(ToRequestForm(typed.children[n + i], type.value(), respell));
      }
      return Value::Map(std::move(keys), std::move(values));
    }
    case TypeId::kBoolean:
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kFloat:
    case TypeId::kDouble:
      return typed;
    case TypeId::kTimestampTz:
    case TypeId::kTimestampTzNs:
      if (respell && typed.kind == ValueKind::kLong) {
        // The same instant written in local time at +01:00.
        const int64_t hour =
            type.id == TypeId::kTimestampTz ? 3'600'000'000LL : 3'600'000'000'000LL;
        if (typed.as_long() < std::numeric_limits<int64_t>::max() - hour) {
          std::optional<std::string> text =
              FormatValueString(type, Value::Long(typed.as_long() + hour));
          if (text && text->size() > 6 && text->substr(text->size() - 6) == "+00:00")
            return Value::String(text->substr(0, text->size() - 6) + "+01:00");
        }
      }
      [[fallthrough]];
    default: {
      std::optional<std::string> text = FormatValueString(type, typed);
      if (text) return Value::String(*text);
      return typed;
    }
  }
}

rc::Gen<Value> GenValue(const Type& type, bool required, const ValueGenOptions& options) {
  return rc::gen::exec([type, required, options]() {
    Value typed = *GenTypedValue(type, required, options);
    const bool respell = options.respell && *Uniform<int>(0, 4) == 0;
    return ToRequestForm(typed, type, respell);
  });
}

rc::Gen<Value> GenRowValues(const std::vector<NestedField>& fields,
                            const ValueGenOptions& options) {
  return GenValue(Type::Struct(fields), true, options);
}

}  // namespace ictk
