#include "codec/json_type.h"

#include <cctype>
#include <limits>
#include <vector>

#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_value.h"

namespace ictk {
namespace {

using namespace codec_internal;  // NOLINT: the codec's own helpers
using nlohmann::json;

constexpr std::string_view kDefaultCrs = "OGC:CRS84";
constexpr std::string_view kDefaultAlgorithm = "spherical";
/// The edge-interpolation algorithms of the Iceberg spec (a closed set).
constexpr std::string_view kAlgorithms[] = {"spherical", "vincenty", "thomas", "andoyer",
                                            "karney"};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

/// pyiceberg writes geo arguments single-quoted: geometry('EPSG:4326').
std::string_view Unquote(std::string_view s) {
  if (s.size() >= 2 && ((s.front() == '\'' && s.back() == '\'') ||
                        (s.front() == '"' && s.back() == '"'))) {
    s.remove_prefix(1);
    s.remove_suffix(1);
  }
  return s;
}

std::optional<int64_t> ParseCount(std::string_view s) {
  s = Trim(s);
  if (s.empty() || s.size() > 10) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v > std::numeric_limits<int32_t>::max()) return std::nullopt;
  return v;
}

std::vector<std::string_view> SplitArgs(std::string_view inner) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    if (i == inner.size() || inner[i] == ',') {
      out.push_back(Trim(inner.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

/// A CRS is "<authority>:<code>" (srid:4326, projjson:name, OGC:CRS84, EPSG:4326). Blanks
/// may only sit next to the colon ("srid: 3857", as iceberg-cpp accepts); elsewhere they
/// mean a missing comma ("srid:4269 karney").
bool ValidCrs(std::string_view crs) {
  if (crs.empty() || crs.find(':') == std::string_view::npos) return false;
  if (crs.front() == ':' || crs.back() == ':') return false;
  for (size_t i = 0; i < crs.size(); ++i) {
    if (!IsSpace(crs[i])) continue;
    size_t l = i, r = i;
    while (l > 0 && IsSpace(crs[l - 1])) --l;
    while (r + 1 < crs.size() && IsSpace(crs[r + 1])) ++r;
    const bool next_to_colon =
        (l > 0 && crs[l - 1] == ':') || (r + 1 < crs.size() && crs[r + 1] == ':');
    if (!next_to_colon) return false;
  }
  return true;
}

std::string NormalizeCrs(std::string_view crs) {
  return crs == kDefaultCrs ? std::string() : std::string(crs);
}

tl::unexpected<Error> BadType(std::string_view text, std::string_view why) {
  return MakeError(ErrorKind::kParse, "cannot parse type string \"" + std::string(text) +
                                          "\": " + std::string(why));
}

std::optional<TypeId> SimpleType(std::string_view lower) {
  static const std::pair<std::string_view, TypeId> kNames[] = {
      {"boolean", TypeId::kBoolean},
      {"int", TypeId::kInt},
      {"long", TypeId::kLong},
      {"float", TypeId::kFloat},
      {"double", TypeId::kDouble},
      {"date", TypeId::kDate},
      {"time", TypeId::kTime},
      {"timestamp", TypeId::kTimestamp},
      {"timestamptz", TypeId::kTimestampTz},
      {"timestamp_ns", TypeId::kTimestampNs},
      {"timestamptz_ns", TypeId::kTimestampTzNs},
      {"string", TypeId::kString},
      {"uuid", TypeId::kUuid},
      {"binary", TypeId::kBinary},
      {"unknown", TypeId::kUnknown},
      {"variant", TypeId::kVariant},
      {"geometry", TypeId::kGeometry},
      {"geography", TypeId::kGeography},
  };
  for (const auto& [name, id] : kNames)
    if (name == lower) return id;
  return std::nullopt;
}

Result<Type> NestedTypeFromJson(const json& j, std::string_view pointer) {
  if (TooDeep(pointer)) return TooDeepError(pointer);
  auto type_name = RequireString(j, keys::kType, pointer);
  if (!type_name) return tl::unexpected(type_name.error());
  const std::string kind = Lower(*type_name);
  if (kind == keys::kStruct) {
    auto fields = Require(j, keys::kFields, pointer);
    if (!fields) return tl::unexpected(fields.error());
    const std::string fields_ptr = Child(pointer, keys::kFields);
    if (!(*fields)->is_array())
      return Expected(fields_ptr, "an array of fields", **fields);
    std::vector<NestedField> out;
    for (size_t i = 0; i < (*fields)->size(); ++i) {
      auto f = FieldFromJson((**fields)[i], Child(fields_ptr, i));
      if (!f) return tl::unexpected(f.error());
      out.push_back(std::move(*f));
    }
    return Type::Struct(std::move(out));
  }
  if (kind == keys::kList) {
    auto element_id = RequireInt32(j, keys::kElementId, pointer);
    if (!element_id) return tl::unexpected(element_id.error());
    auto element_required = RequireBool(j, keys::kElementRequired, pointer);
    if (!element_required) return tl::unexpected(element_required.error());
    auto element = Require(j, keys::kElement, pointer);
    if (!element) return tl::unexpected(element.error());
    auto element_type = TypeFromJson(**element, Child(pointer, keys::kElement));
    if (!element_type) return tl::unexpected(element_type.error());
    return Type::List(*element_id, *element_required, std::move(*element_type));
  }
  if (kind == keys::kMap) {
    auto key_id = RequireInt32(j, keys::kKeyId, pointer);
    if (!key_id) return tl::unexpected(key_id.error());
    auto key = Require(j, keys::kKey, pointer);
    if (!key) return tl::unexpected(key.error());
    auto key_type = TypeFromJson(**key, Child(pointer, keys::kKey));
    if (!key_type) return tl::unexpected(key_type.error());
    auto value_id = RequireInt32(j, keys::kValueId, pointer);
    if (!value_id) return tl::unexpected(value_id.error());
    auto value_required = RequireBool(j, keys::kValueRequired, pointer);
    if (!value_required) return tl::unexpected(value_required.error());
    auto value = Require(j, keys::kValue, pointer);
    if (!value) return tl::unexpected(value.error());
    auto value_type = TypeFromJson(**value, Child(pointer, keys::kValue));
    if (!value_type) return tl::unexpected(value_type.error());
    return Type::Map(*key_id, std::move(*key_type), *value_id, *value_required,
                     std::move(*value_type));
  }
  return ParseError(
      Child(pointer, keys::kType),
      "expected \"struct\", \"list\" or \"map\", got \"" + *type_name + "\"");
}

/// Checks a default value against the field's type (Appendix D) and keeps its text.
Result<std::optional<std::string>> DefaultFromJson(const json& field,
                                                   std::string_view key, const Type& type,
                                                   std::string_view pointer) {
  const json* d = Find(field, key);
  if (d == nullptr) return std::optional<std::string>();
  ValueDecodeOptions options;
  options.require_utc_offset = true;
  auto v = ValueFromJson(*d, type, Child(pointer, key), options);
  if (!v) return tl::unexpected(v.error());
  return std::optional<std::string>(Dump(*d));
}

}  // namespace

Result<Type> TypeFromString(std::string_view text) {
  const size_t open = text.find_first_of("([");
  if (open == std::string_view::npos) {
    auto id = SimpleType(Lower(text));
    if (!id) return BadType(text, "not a type name");
    return Type::Primitive(*id);
  }
  const std::string head = Lower(text.substr(0, open));
  const char close = text[open] == '(' ? ')' : ']';
  if (text.back() != close)
    return BadType(text, std::string("expected it to end with ") + close);
  const std::string_view inner = text.substr(open + 1, text.size() - open - 2);
  if (close == ']') {
    if (head != "fixed") return BadType(text, "only fixed[L] takes a length");
    auto length = ParseCount(inner);
    if (!length || *length < 1) return BadType(text, "the length must be a positive int");
    return Type::Fixed(*length);
  }
  const std::vector<std::string_view> args = SplitArgs(inner);
  if (head == "decimal") {
    if (args.size() != 2) return BadType(text, "expected decimal(P, S)");
    auto p = ParseCount(args[0]);
    auto s = ParseCount(args[1]);
    if (!p || !s)
      return BadType(text, "precision and scale must be non-negative integers");
    if (*p < 1 || *p > 38) return BadType(text, "precision must be between 1 and 38");
    if (*s > *p) return BadType(text, "scale must not exceed precision");
    return Type::Decimal(static_cast<int32_t>(*p), static_cast<int32_t>(*s));
  }
  if (head == "geometry" || head == "geography") {
    const bool geography = head == "geography";
    if (args.empty() || args.size() > (geography ? 2u : 1u))
      return BadType(text, geography ? "expected geography(C) or geography(C, A)"
                                     : "expected geometry(C)");
    std::string_view crs = Trim(Unquote(args[0]));
    if (!ValidCrs(crs))
      return BadType(text, "expected a CRS such as srid:4326 or OGC:CRS84");
    Type t = Type::Primitive(geography ? TypeId::kGeography : TypeId::kGeometry);
    t.crs = NormalizeCrs(crs);
    if (args.size() == 2) {
      const std::string algorithm = Lower(Trim(Unquote(args[1])));
      bool known = false;
      for (auto a : kAlgorithms) known = known || a == algorithm;
      if (!known) return BadType(text, "invalid edge interpolation algorithm");
      t.algorithm = algorithm == kDefaultAlgorithm ? std::string() : algorithm;
    }
    return t;
  }
  return BadType(text, "\"" + head + "\" takes no parameters");
}

std::string TypeToString(const Type& type) {
  // The parameterized types are spelled here; every other name is the model's TypeId name.
  switch (type.id) {
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(type.precision) + ", " +
             std::to_string(type.scale) + ")";
    case TypeId::kFixed:
      return "fixed[" + std::to_string(type.length) + "]";
    case TypeId::kGeometry:
      return "geometry(" + (type.crs.empty() ? std::string(kDefaultCrs) : type.crs) + ")";
    case TypeId::kGeography:
      return "geography(" + (type.crs.empty() ? std::string(kDefaultCrs) : type.crs) +
             ", " +
             (type.algorithm.empty() ? std::string(kDefaultAlgorithm) : type.algorithm) +
             ")";
    default:
      return ToString(type.id);
  }
}

Result<Type> TypeFromJson(const json& j, std::string_view pointer) {
  if (j.is_string()) {
    auto t = TypeFromString(j.get_ref<const std::string&>());
    if (!t) return ParseError(pointer, t.error().message);
    return t;
  }
  if (j.is_object()) return NestedTypeFromJson(j, pointer);
  return Expected(pointer, "a type string or object", j);
}

json TypeToJson(const Type& type) {
  switch (type.id) {
    case TypeId::kStruct: {
      json fields = json::array();
      for (const auto& f : type.fields) fields.push_back(FieldToJson(f));
      return json{{keys::kType, keys::kStruct}, {keys::kFields, std::move(fields)}};
    }
    case TypeId::kList:
      return json{{keys::kType, keys::kList},
                  {keys::kElementId, type.element_id},
                  {keys::kElementRequired, type.element_required},
                  {keys::kElement,
                   type.children.empty() ? json("unknown") : TypeToJson(type.element())}};
    case TypeId::kMap:
      return json{{keys::kType, keys::kMap},
                  {keys::kKeyId, type.key_id},
                  {keys::kKey,
                   type.children.size() < 2 ? json("unknown") : TypeToJson(type.key())},
                  {keys::kValueId, type.value_id},
                  {keys::kValueRequired, type.value_required},
                  {keys::kValue, type.children.size() < 2 ? json("unknown")
                                                          : TypeToJson(type.value())}};
    default:
      return TypeToString(type);
  }
}

Result<NestedField> FieldFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a field object", j);
  NestedField f;
  auto id = RequireInt32(j, keys::kId, pointer);
  if (!id) return tl::unexpected(id.error());
  f.id = *id;
  auto name = RequireString(j, keys::kName, pointer);
  if (!name) return tl::unexpected(name.error());
  f.name = std::move(*name);
  auto required = RequireBool(j, keys::kRequired, pointer);
  if (!required) return tl::unexpected(required.error());
  f.required = *required;
  auto type = Require(j, keys::kType, pointer);
  if (!type) return tl::unexpected(type.error());
  auto t = TypeFromJson(**type, Child(pointer, keys::kType));
  if (!t) return tl::unexpected(t.error());
  f.type = std::move(*t);
  auto doc = OptString(j, keys::kDoc, pointer);
  if (!doc) return tl::unexpected(doc.error());
  f.doc = std::move(*doc);
  auto initial = DefaultFromJson(j, keys::kInitialDefault, f.type, pointer);
  if (!initial) return tl::unexpected(initial.error());
  f.initial_default_json = std::move(*initial);
  auto write = DefaultFromJson(j, keys::kWriteDefault, f.type, pointer);
  if (!write) return tl::unexpected(write.error());
  f.write_default_json = std::move(*write);
  return f;
}

json FieldToJson(const NestedField& field) {
  json j{{keys::kId, field.id},
         {keys::kName, field.name},
         {keys::kRequired, field.required},
         {keys::kType, TypeToJson(field.type)}};
  if (field.doc) j[keys::kDoc] = *field.doc;
  if (field.initial_default_json)
    j[keys::kInitialDefault] = Undump(*field.initial_default_json);
  if (field.write_default_json)
    j[keys::kWriteDefault] = Undump(*field.write_default_json);
  return j;
}

}  // namespace ictk
