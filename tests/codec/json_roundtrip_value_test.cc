// RapidCheck property: encoding then decoding is the identity on generated values of
// generated types (docs Appendix D's single-value forms).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "codec/json_text.h"
#include "codec/json_type.h"
#include "codec/json_value.h"
#include "tests/codec/roundtrip_gen_internal.h"

namespace ictk::roundtrip_test {
namespace {

using nlohmann::json;

// ---- values of generated types ----

Value GenValue(const Type& t, bool allow_null);

Value GenPrimitiveValue(const Type& t) {
  switch (t.id) {
    case TypeId::kBoolean:
      return Value::Boolean(*gen::arbitrary<bool>());
    case TypeId::kInt:
      return Value::Long(*gen::arbitrary<int32_t>());
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Value::Long(*gen::arbitrary<int64_t>());
    case TypeId::kFloat:
      return Value::Double(static_cast<double>(
          static_cast<float>(*gen::inRange(-100000000, 100000000) / 128.0)));
    case TypeId::kDouble: {
      switch (*gen::inRange(0, 6)) {
        case 0:
          return Value::Double(std::numeric_limits<double>::infinity());
        case 1:
          return Value::Double(-std::numeric_limits<double>::infinity());
        case 2:
          return Value::Double(std::numeric_limits<double>::max());
        case 3:
          return Value::Double(std::numeric_limits<double>::denorm_min());
        default:
          return Value::Double(*gen::arbitrary<int64_t>() / 1024.0);
      }
    }
    case TypeId::kDecimal: {
      // Up to `precision` digits, built from two 18-digit halves.
      Int128 v = *gen::inRange<int64_t>(0, 1000000000000000000);
      v = v * 1000000000000000000 + *gen::inRange<int64_t>(0, 1000000000000000000);
      Int128 limit = 1;
      for (int i = 0; i < t.precision; ++i) limit *= 10;
      v %= limit;
      if (*gen::arbitrary<bool>()) v = -v;
      return Value::DecimalOf(v, t.scale);
    }
    case TypeId::kDate:
      // Days within the supported years -999999..999999 (about +-364.5 million days; a
      // wider range made this property fail now and then on a date with no text form).
      return Value::Long(*gen::inRange(-364000000, 364000000));
    case TypeId::kTime:
      return Value::Long(*gen::inRange<int64_t>(0, int64_t{86400} * 1000000));
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Value::String(*Text());
    case TypeId::kUuid:
      return Value::Bytes(*gen::container<std::string>(16, gen::arbitrary<char>()));
    case TypeId::kFixed:
      return Value::Bytes(*gen::container<std::string>(static_cast<size_t>(t.length),
                                                       gen::arbitrary<char>()));
    case TypeId::kBinary:
      return Value::Bytes(*gen::arbitrary<std::string>());
    default:
      return Value::Null();  // unknown, variant: only null
  }
}

Value GenValue(const Type& t, bool allow_null) {
  if (allow_null && *gen::inRange(0, 5) == 0) return Value::Null();
  switch (t.id) {
    case TypeId::kStruct: {
      std::vector<FieldId> ids;
      std::vector<Value> values;
      for (const auto& f : t.fields) {
        if (*gen::inRange(0, 4) == 0) continue;  // absent
        ids.push_back(f.id);
        values.push_back(GenValue(f.type, true));
      }
      return Value::Struct(std::move(ids), std::move(values));
    }
    case TypeId::kList: {
      std::vector<Value> elements;
      const int n = *gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) elements.push_back(GenValue(t.element(), true));
      return Value::List(std::move(elements));
    }
    case TypeId::kMap: {
      std::vector<Value> ks, vs;
      const int n = *gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) {
        ks.push_back(GenValue(t.key(), false));
        vs.push_back(GenValue(t.value(), true));
      }
      return Value::Map(std::move(ks), std::move(vs));
    }
    default:
      return GenPrimitiveValue(t);
  }
}

RC_GTEST_PROP(ValueRoundTrip, AppendixDEncodeThenDecodeIsIdentity, ()) {
  Type type = *gen::resize(100, gen::exec([] {
                             Type t = Type::Struct(GenFields(3, 5));  // a row's shape
                             FieldId next = 1;
                             AssignIds(t, next);
                             return t;
                           }));
  const Value v = *gen::resize(100, gen::exec([&type] { return GenValue(type, true); }));
  const json encoded = ValueToJson(v, type);
  RC_LOG() << DumpJson(TypeToJson(type)) << " : " << DumpJson(encoded) << "\n";
  auto decoded = ValueFromJson(encoded, type, "");
  RC_ASSERT(decoded.has_value());
  RC_ASSERT(*decoded == v);
  auto text = ParseJsonText(DumpJson(encoded), "value");
  RC_ASSERT(text.has_value());
  auto again = ValueFromJson(*text, type, "");
  RC_ASSERT(again.has_value());
  RC_ASSERT(*again == v);
}

}  // namespace
}  // namespace ictk::roundtrip_test
