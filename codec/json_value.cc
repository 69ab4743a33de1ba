#include "codec/json_value.h"

#include <cmath>
#include <limits>
#include <string>

#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_type.h"
#include "model/iceberg/value_parse.h"

namespace ictk {
namespace {

using namespace codec_internal;  // NOLINT: the codec's own helpers
using nlohmann::json;

/// A JSON number as a double (finite; integers beyond 2^53 are rounded as JSON readers
/// do).
Result<double> NumberAsDouble(const json& j, std::string_view pointer) {
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (!std::isfinite(d)) return ParseError(pointer, "number is not finite");
    return d;
  }
  if (j.is_number_unsigned()) return static_cast<double>(j.get<uint64_t>());
  if (j.is_number_integer()) return static_cast<double>(j.get<int64_t>());
  return Expected(pointer, "a number", j);
}

Result<Value> FromString(const json& j, const Type& type, std::string_view pointer,
                         std::string_view what) {
  if (!j.is_string()) return Expected(pointer, what, j);
  const auto& text = j.get_ref<const std::string&>();
  auto v = ParseValueString(type, text);
  if (!v)
    return ParseError(pointer, "\"" + text + "\" is not a valid " + TypeToString(type) +
                                   " value (expected " + std::string(what) + ")");
  return std::move(*v);
}

}  // namespace

namespace {

/// A struct: an object keyed by field ID, every member a field of the struct.
Result<Value> StructFromJson(const json& j, const Type& type, std::string_view pointer,
                             ValueDecodeOptions options) {
  if (!j.is_object()) return Expected(pointer, "an object keyed by field ID", j);
  // Every member must name a field of the struct.
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const auto& f : type.fields) known = known || std::to_string(f.id) == it.key();
    if (!known)
      return ParseError(Child(pointer, it.key()),
                        "no field with ID \"" + it.key() + "\" in this struct");
  }
  std::vector<FieldId> ids;
  std::vector<Value> values;
  for (const auto& f : type.fields) {
    const std::string key = std::to_string(f.id);
    auto it = j.find(key);
    if (it == j.end()) continue;
    auto v = ValueFromJson(*it, f.type, Child(pointer, key), options);
    if (!v) return tl::unexpected(v.error());
    ids.push_back(f.id);
    values.push_back(std::move(*v));
  }
  return Value::Struct(std::move(ids), std::move(values));
}

/// A list: an array of elements.
Result<Value> ListFromJson(const json& j, const Type& type, std::string_view pointer,
                           ValueDecodeOptions options) {
  if (!j.is_array()) return Expected(pointer, "an array", j);
  if (type.children.empty()) return ParseError(pointer, "list type has no element type");
  std::vector<Value> elements;
  for (size_t i = 0; i < j.size(); ++i) {
    auto v = ValueFromJson(j[i], type.element(), Child(pointer, i), options);
    if (!v) return tl::unexpected(v.error());
    elements.push_back(std::move(*v));
  }
  return Value::List(std::move(elements));
}

/// A map: {"keys": [..], "values": [..]} of the same length.
Result<Value> MapFromJson(const json& j, const Type& type, std::string_view pointer,
                          ValueDecodeOptions options) {
  if (!j.is_object())
    return Expected(pointer, "an object {\"keys\": [..], \"values\": [..]}", j);
  if (type.children.size() < 2)
    return ParseError(pointer, "map type lacks key/value types");
  auto ks = Require(j, keys::kKeys, pointer);
  if (!ks) return tl::unexpected(ks.error());
  auto vs = Require(j, keys::kValues, pointer);
  if (!vs) return tl::unexpected(vs.error());
  const std::string kp = Child(pointer, keys::kKeys);
  const std::string vp = Child(pointer, keys::kValues);
  if (!(*ks)->is_array()) return Expected(kp, "an array", **ks);
  if (!(*vs)->is_array()) return Expected(vp, "an array", **vs);
  if ((*ks)->size() != (*vs)->size())
    return ParseError(pointer, "\"keys\" and \"values\" differ in length");
  std::vector<Value> key_values, value_values;
  for (size_t i = 0; i < (*ks)->size(); ++i) {
    auto k = ValueFromJson((**ks)[i], type.key(), Child(kp, i), options);
    if (!k) return tl::unexpected(k.error());
    auto v = ValueFromJson((**vs)[i], type.value(), Child(vp, i), options);
    if (!v) return tl::unexpected(v.error());
    key_values.push_back(std::move(*k));
    value_values.push_back(std::move(*v));
  }
  return Value::Map(std::move(key_values), std::move(value_values));
}

/// A timestamptz or timestamptz_ns string, with the offset "+00:00" when required.
Result<Value> TimestampTzFromJson(const json& j, const Type& type,
                                  std::string_view pointer, ValueDecodeOptions options) {
  const char* example =
      type.id == TypeId::kTimestampTz
          ? "a timestamp string such as \"2017-11-16T22:31:08.123456+00:00\""
          : "a timestamp string such as "
            "\"2017-11-16T22:31:08.123456789+00:00\"";
  if (options.require_utc_offset && j.is_string()) {
    const auto& text = j.get_ref<const std::string&>();
    if (text.size() < 6 || text.compare(text.size() - 6, 6, "+00:00") != 0)
      return ParseError(pointer, "\"" + text +
                                     "\": a timestamptz value must carry the "
                                     "offset \"+00:00\" (Appendix D)");
  }
  return FromString(j, type, pointer, example);
}

}  // namespace

Result<Value> ValueFromJson(const json& j, const Type& type, std::string_view pointer,
                            ValueDecodeOptions options) {
  if (j.is_null()) return Value::Null();
  if (TooDeep(pointer)) return TooDeepError(pointer);
  switch (type.id) {
    case TypeId::kBoolean:
      if (!j.is_boolean()) return Expected(pointer, "a boolean", j);
      return Value::Boolean(j.get<bool>());
    case TypeId::kInt: {
      auto v = AsInt32(j, pointer);
      if (!v) return tl::unexpected(v.error());
      return Value::Long(*v);
    }
    case TypeId::kLong: {
      auto v = AsInt64(j, pointer);
      if (!v) return tl::unexpected(v.error());
      return Value::Long(*v);
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      if (j.is_string()) {
        return FromString(j, type, pointer,
                          "a number or \"NaN\", \"Infinity\", \"-Infinity\"");
      }
      auto d = NumberAsDouble(j, pointer);
      if (!d) return tl::unexpected(d.error());
      if (type.id == TypeId::kFloat) {
        if (std::fabs(*d) > std::numeric_limits<float>::max())
          return ParseError(pointer, "number " + Dump(j) + " is out of the float range");
        return Value::Double(static_cast<double>(static_cast<float>(*d)));
      }
      return Value::Double(*d);
    }
    case TypeId::kDecimal:
      return FromString(j, type, pointer, "a decimal string such as \"14.20\"");
    case TypeId::kDate:
      return FromString(j, type, pointer, "a date string such as \"2017-11-16\"");
    case TypeId::kTime:
      return FromString(j, type, pointer, "a time string such as \"22:31:08.123456\"");
    case TypeId::kTimestamp:
      return FromString(j, type, pointer,
                        "a timestamp string such as \"2017-11-16T22:31:08.123456\"");
    case TypeId::kTimestampNs:
      return FromString(j, type, pointer,
                        "a timestamp string such as \"2017-11-16T22:31:08.123456789\"");
    case TypeId::kTimestampTz:
    case TypeId::kTimestampTzNs:
      return TimestampTzFromJson(j, type, pointer, options);
    case TypeId::kString:
      if (!j.is_string()) return Expected(pointer, "a string", j);
      return Value::String(j.get<std::string>());
    case TypeId::kUuid:
      return FromString(j, type, pointer,
                        "a uuid string such as "
                        "\"f79c3e09-677c-4bbd-a479-3f349cb785e7\"");
    case TypeId::kFixed:
      return FromString(j, type, pointer,
                        "a hex string of " + std::to_string(type.length) + " bytes");
    case TypeId::kBinary:
      return FromString(j, type, pointer, "a hex string");
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return FromString(j, type, pointer, "a string");
    case TypeId::kUnknown:
      return Expected(pointer, "null (values of type unknown are always null)", j);
    case TypeId::kVariant:
      return ParseError(pointer, "variant values have no JSON single-value form");
    case TypeId::kStruct:
      return StructFromJson(j, type, pointer, options);
    case TypeId::kList:
      return ListFromJson(j, type, pointer, options);
    case TypeId::kMap:
      return MapFromJson(j, type, pointer, options);
  }
  return ParseError(pointer, "unsupported type");
}

json ValueToJson(const Value& value, const Type& type) {
  if (value.is_null()) return nullptr;
  switch (type.id) {
    case TypeId::kBoolean:
      if (value.kind == ValueKind::kBoolean) return value.as_bool();
      break;
    case TypeId::kInt:
    case TypeId::kLong:
      if (value.kind == ValueKind::kLong) return value.as_long();
      break;
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (value.kind == ValueKind::kDouble) {
        if (auto s = FormatValueString(type, value)) return *s;
        return value.as_double();
      }
      break;
    case TypeId::kStruct: {
      if (value.kind != ValueKind::kStruct) break;
      json out = json::object();
      for (size_t i = 0; i < value.field_ids.size() && i < value.children.size(); ++i) {
        const Type* child_type = nullptr;
        for (const auto& f : type.fields)
          if (f.id == value.field_ids[i]) child_type = &f.type;
        out[std::to_string(value.field_ids[i])] =
            child_type ? ValueToJson(value.children[i], *child_type)
                       : UntypedValueToJson(value.children[i]);
      }
      return out;
    }
    case TypeId::kList: {
      if (value.kind != ValueKind::kList || type.children.empty()) break;
      json out = json::array();
      for (const auto& e : value.children) out.push_back(ValueToJson(e, type.element()));
      return out;
    }
    case TypeId::kMap: {
      if (value.kind != ValueKind::kMap || type.children.size() < 2) break;
      json ks = json::array(), vs = json::array();
      const size_t n = value.children.size() / 2;
      for (size_t i = 0; i < n; ++i) {
        ks.push_back(ValueToJson(value.children[i], type.key()));
        vs.push_back(ValueToJson(value.children[n + i], type.value()));
      }
      return json{{keys::kKeys, std::move(ks)}, {keys::kValues, std::move(vs)}};
    }
    default:
      if (auto s = FormatValueString(type, value)) return *s;
      break;
  }
  return UntypedValueToJson(value);
}

Result<Value> UntypedValueFromJson(const json& j, std::string_view pointer) {
  if (j.is_null()) return Value::Null();
  if (j.is_boolean()) return Value::Boolean(j.get<bool>());
  if (j.is_number_integer() || j.is_number_unsigned()) {
    auto v = AsInt64(j, pointer);
    if (!v) return tl::unexpected(v.error());
    return Value::Long(*v);
  }
  if (j.is_number_float()) {
    auto d = NumberAsDouble(j, pointer);
    if (!d) return tl::unexpected(d.error());
    return Value::Double(*d);
  }
  if (j.is_string()) return Value::String(j.get<std::string>());
  return Expected(pointer, "a literal value (boolean, number or string)", j);
}

json UntypedValueToJson(const Value& value) {
  switch (value.kind) {
    case ValueKind::kNull:
      return nullptr;
    case ValueKind::kBoolean:
      return value.as_bool();
    case ValueKind::kLong:
      return value.as_long();
    case ValueKind::kDouble: {
      double d = value.as_double();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return d;
    }
    case ValueKind::kDecimal: {
      const Decimal& d = value.as_decimal();
      // Precision 38 holds every Int128 decimal this model makes; the scale is the
      // value's.
      Type t = Type::Decimal(38, d.scale < 0 ? 0 : d.scale);
      if (auto s = FormatValueString(t, value)) return *s;
      return nullptr;
    }
    case ValueKind::kString:
      return value.as_string();
    case ValueKind::kBytes: {
      if (auto s = FormatValueString(Type::Primitive(TypeId::kBinary), value)) return *s;
      return nullptr;
    }
    case ValueKind::kStruct: {
      json out = json::object();
      for (size_t i = 0; i < value.field_ids.size() && i < value.children.size(); ++i)
        out[std::to_string(value.field_ids[i])] = UntypedValueToJson(value.children[i]);
      return out;
    }
    case ValueKind::kList: {
      json out = json::array();
      for (const auto& e : value.children) out.push_back(UntypedValueToJson(e));
      return out;
    }
    case ValueKind::kMap: {
      json ks = json::array(), vs = json::array();
      const size_t n = value.children.size() / 2;
      for (size_t i = 0; i < n; ++i) {
        ks.push_back(UntypedValueToJson(value.children[i]));
        vs.push_back(UntypedValueToJson(value.children[n + i]));
      }
      return json{{keys::kKeys, std::move(ks)}, {keys::kValues, std::move(vs)}};
    }
  }
  return nullptr;
}

}  // namespace ictk
