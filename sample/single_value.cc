/// \file
/// Appendix D's JSON forms (single_value_internal.h): booleans, integers and floating
/// point numbers as JSON numbers (NaN and the infinities as strings), the other primitives
/// as strings, structs as objects keyed by field ID, lists as arrays, maps as
/// {"keys": [...], "values": [...]}.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "sample/single_value_internal.h"

namespace ictk::sample {

using nlohmann::json;

namespace {

double NumberOf(const Slot& slot) {
  const json& j = slot.json();
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (!std::isfinite(d)) slot.Fail("the number is not finite");
    return d;
  }
  if (j.is_number_unsigned()) return static_cast<double>(j.get<uint64_t>());
  if (j.is_number_integer()) return static_cast<double>(j.get<int64_t>());
  slot.Expect("a number");
}

Value FromText(const Slot& slot, const Type& type, std::string_view form) {
  if (!slot.IsString()) slot.Expect(form);
  const std::string text = slot.Text();
  std::optional<Value> v = ValueOfText(type, text);
  if (!v) slot.Fail(fmt::format("\"{}\" is not a {} value (expected {})", text, ToString(type), form));
  return std::move(*v);
}

Value FloatingOf(const Slot& slot, const Type& type) {
  if (slot.IsString()) return FromText(slot, type, "a number, \"NaN\" or an infinity");
  const double d = NumberOf(slot);
  if (type.id == TypeId::kDouble) return Value::Double(d);
  if (std::fabs(d) > std::numeric_limits<float>::max())
    slot.Fail(fmt::format("{} is beyond the range of a float", slot.Dumped()));
  return Value::Double(static_cast<float>(d));
}

Value StructOf(const Slot& slot, const Type& type, bool utc_only) {
  if (!slot.IsObject()) slot.Expect("an object keyed by field ID");
  for (const auto& [key, member] : slot.json().items()) {
    bool named = false;
    for (const NestedField& f : type.fields) named = named || fmt::format("{}", f.id) == key;
    if (!named) Slot(member, PointerTo(slot.where(), key)).Fail("this struct has no such field ID");
  }
  std::vector<FieldId> ids;
  std::vector<Value> values;
  for (const NestedField& f : type.fields) {
    std::optional<Slot> member = slot.GetEvenNull(fmt::format("{}", f.id));
    if (!member) continue;
    ids.push_back(f.id);
    values.push_back(ReadTyped(*member, f.type, utc_only));
  }
  return Value::Struct(std::move(ids), std::move(values));
}

Value MapOf(const Slot& slot, const Type& type, bool utc_only) {
  if (!slot.IsObject()) slot.Expect("an object of \"keys\" and \"values\"");
  if (type.children.size() < 2) slot.Fail("the map type has no key and value types");
  const Slot keys = slot.Need("keys");
  const Slot values = slot.Need("values");
  if (!keys.IsArray()) keys.Expect("an array");
  if (!values.IsArray()) values.Expect("an array");
  if (keys.Size() != values.Size()) slot.Fail("\"keys\" and \"values\" differ in length");
  std::vector<Value> ks, vs;
  for (size_t i = 0; i < keys.Size(); ++i) {
    ks.push_back(ReadTyped(keys.At(i), type.key(), utc_only));
    vs.push_back(ReadTyped(values.At(i), type.value(), utc_only));
  }
  return Value::Map(std::move(ks), std::move(vs));
}

Value ZonedOf(const Slot& slot, const Type& type, bool utc_only) {
  if (utc_only && slot.IsString()) {
    const std::string text = slot.Text();
    if (text.size() < 6 || text.substr(text.size() - 6) != "+00:00")
      slot.Fail(fmt::format("\"{}\": a timestamptz is written with the offset +00:00", text));
  }
  return FromText(slot, type, "a timestamp string with a zone offset");
}

json MapJson(std::vector<json> keys, std::vector<json> values) {
  return json{{"keys", std::move(keys)}, {"values", std::move(values)}};
}

}  // namespace

Value ReadTyped(const Slot& slot, const Type& type, bool utc_only) {
  if (slot.IsNull()) return Value::Null();
  switch (type.id) {
    case TypeId::kBoolean:
      return Value::Boolean(slot.Bool());
    case TypeId::kInt:
      return Value::Long(slot.Int());
    case TypeId::kLong:
      return Value::Long(slot.Long());
    case TypeId::kFloat:
    case TypeId::kDouble:
      return FloatingOf(slot, type);
    case TypeId::kString:
      return Value::String(slot.Text());
    case TypeId::kTimestampTz:
    case TypeId::kTimestampTzNs:
      return ZonedOf(slot, type, utc_only);
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNs:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return FromText(slot, type, fmt::format("the text of a {} value", ToString(type)));
    case TypeId::kUnknown:
      slot.Expect("null (a value of type unknown is always null)");
    case TypeId::kVariant:
      slot.Fail("a variant value has no JSON single-value form");
    case TypeId::kStruct:
      return StructOf(slot, type, utc_only);
    case TypeId::kList: {
      if (!slot.IsArray()) slot.Expect("an array");
      if (type.children.empty()) slot.Fail("the list type has no element type");
      std::vector<Value> elements;
      for (size_t i = 0; i < slot.Size(); ++i)
        elements.push_back(ReadTyped(slot.At(i), type.element(), utc_only));
      return Value::List(std::move(elements));
    }
    case TypeId::kMap:
      return MapOf(slot, type, utc_only);
  }
  slot.Fail("a type the sample does not know");
}

Value ReadUntyped(const Slot& slot) {
  const json& j = slot.json();
  if (j.is_null()) return Value::Null();
  if (j.is_boolean()) return Value::Boolean(j.get<bool>());
  if (j.is_number_integer() || j.is_number_unsigned()) return Value::Long(slot.Long());
  if (j.is_number_float()) return Value::Double(NumberOf(slot));
  if (j.is_string()) return Value::String(j.get<std::string>());
  slot.Expect("a literal (a boolean, a number or a string)");
}

Value ReadUntypedNested(const Slot& slot) {
  const json& j = slot.json();
  if (j.is_array()) {
    std::vector<Value> elements;
    for (size_t i = 0; i < slot.Size(); ++i) elements.push_back(ReadUntypedNested(slot.At(i)));
    return Value::List(std::move(elements));
  }
  if (!j.is_object()) return ReadUntyped(slot);
  if (j.size() == 2 && j.contains("keys") && j.contains("values")) {
    const Slot keys = *slot.GetEvenNull("keys");
    const Slot values = *slot.GetEvenNull("values");
    if (!keys.IsArray()) keys.Expect("an array of map keys");
    if (!values.IsArray()) values.Expect("an array of map values");
    if (keys.Size() != values.Size()) slot.Fail("a map has as many values as keys");
    std::vector<Value> ks, vs;
    for (size_t i = 0; i < keys.Size(); ++i) {
      ks.push_back(ReadUntypedNested(keys.At(i)));
      vs.push_back(ReadUntypedNested(values.At(i)));
    }
    return Value::Map(std::move(ks), std::move(vs));
  }
  std::vector<std::pair<FieldId, Value>> by_id;
  for (const auto& [key, member] : j.items()) {
    const Slot m(member, PointerTo(slot.where(), key));
    FieldId id = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
    if (key.empty() || ec != std::errc() || end != key.data() + key.size())
      m.Fail(fmt::format("\"{}\" is not a field ID", key));
    by_id.emplace_back(id, ReadUntypedNested(m));
  }
  std::stable_sort(by_id.begin(), by_id.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<FieldId> ids;
  std::vector<Value> values;
  for (auto& [id, v] : by_id) {
    ids.push_back(id);
    values.push_back(std::move(v));
  }
  return Value::Struct(std::move(ids), std::move(values));
}

std::optional<Value> ValueOfJsonText(const std::string& text, const Type& type,
                                     bool utc_only) {
  try {
    const json parsed = ReadJsonText(text);
    return ReadTyped(Slot(parsed, ""), type, utc_only);
  } catch (const Malformed&) {
    return std::nullopt;
  }
}

json WriteTyped(const Value& value, const Type& type) {
  if (value.is_null()) return nullptr;
  const ValueKind k = value.kind;
  switch (type.id) {
    case TypeId::kBoolean:
      if (k == ValueKind::kBoolean) return value.as_bool();
      break;
    case TypeId::kInt:
    case TypeId::kLong:
      if (k == ValueKind::kLong) return value.as_long();
      break;
    case TypeId::kStruct: {
      if (k != ValueKind::kStruct) break;
      json out = json::object();
      for (size_t i = 0; i < value.field_ids.size() && i < value.children.size(); ++i) {
        const NestedField* field = nullptr;
        for (const NestedField& f : type.fields)
          if (f.id == value.field_ids[i]) field = &f;
        out[fmt::format("{}", value.field_ids[i])] =
            field != nullptr ? WriteTyped(value.children[i], field->type)
                             : WriteUntyped(value.children[i]);
      }
      return out;
    }
    case TypeId::kList: {
      if (k != ValueKind::kList || type.children.empty()) break;
      json out = json::array();
      for (const Value& e : value.children) out.push_back(WriteTyped(e, type.element()));
      return out;
    }
    case TypeId::kMap: {
      if (k != ValueKind::kMap || type.children.size() < 2) break;
      const size_t half = value.children.size() / 2;
      std::vector<json> ks, vs;
      for (size_t i = 0; i < half; ++i) {
        ks.push_back(WriteTyped(value.children[i], type.key()));
        vs.push_back(WriteTyped(value.children[half + i], type.value()));
      }
      return MapJson(std::move(ks), std::move(vs));
    }
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (k != ValueKind::kDouble) break;
      if (auto text = TextOfValue(type, value)) return *text;
      return value.as_double();
    default:
      if (auto text = TextOfValue(type, value)) return *text;
      break;
  }
  return WriteUntyped(value);
}

json WriteUntyped(const Value& value) {
  switch (value.kind) {
    case ValueKind::kNull:
      return nullptr;
    case ValueKind::kBoolean:
      return value.as_bool();
    case ValueKind::kLong:
      return value.as_long();
    case ValueKind::kDouble: {
      const double d = value.as_double();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return d;
    }
    case ValueKind::kDecimal: {
      const Decimal& d = value.as_decimal();
      auto fitted = Rescaled(d, 38, std::max(d.scale, 0));
      if (!fitted) return nullptr;
      return DecimalText(*fitted);
    }
    case ValueKind::kString:
      return value.as_string();
    case ValueKind::kBytes:
      return HexText(value.as_string());
    case ValueKind::kStruct: {
      json out = json::object();
      for (size_t i = 0; i < value.field_ids.size() && i < value.children.size(); ++i)
        out[fmt::format("{}", value.field_ids[i])] = WriteUntyped(value.children[i]);
      return out;
    }
    case ValueKind::kList: {
      json out = json::array();
      for (const Value& e : value.children) out.push_back(WriteUntyped(e));
      return out;
    }
    case ValueKind::kMap: {
      const size_t half = value.children.size() / 2;
      std::vector<json> ks, vs;
      for (size_t i = 0; i < half; ++i) {
        ks.push_back(WriteUntyped(value.children[i]));
        vs.push_back(WriteUntyped(value.children[half + i]));
      }
      return MapJson(std::move(ks), std::move(vs));
    }
  }
  return nullptr;
}

}  // namespace ictk::sample
