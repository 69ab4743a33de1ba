/// \file
/// Types, fields and schemas from JSON (decode_internal.h), after the Iceberg spec's
/// "Schemas" appendix: primitive types by name, case-insensitive, with their parameters
/// (`decimal(P, S)`, `fixed[L]`, `geometry(C)`, `geography(C, A)`); struct, list and map
/// as objects with their field IDs.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "sample/decode_internal.h"
#include "sample/single_value_internal.h"

namespace ictk::sample {
namespace {

constexpr std::string_view kCrs84 = "OGC:CRS84";
constexpr std::string_view kSpherical = "spherical";

bool Blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Stripped(std::string_view s) {
  while (!s.empty() && Blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && Blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string LoweredName(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
  return out;
}

/// 'x' or "x" without its quotes.
std::string_view Unquoted(std::string_view s) {
  if (s.size() >= 2 && s.front() == s.back() && (s.front() == '\'' || s.front() == '"'))
    return s.substr(1, s.size() - 2);
  return s;
}

/// A type parameter: decimal digits (at most ten), at most 2^31 - 1.
std::optional<int64_t> Count(std::string_view s) {
  s = Stripped(s);
  if (s.empty() || s.size() > 10) return std::nullopt;
  int64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n > 2147483647) return std::nullopt;
  return n;
}

/// A CRS "authority:code": a colon, not at either end; blanks only next to the colon.
bool CrsWellFormed(std::string_view crs) {
  const size_t colon = crs.find(':');
  if (crs.empty() || colon == std::string_view::npos || crs.front() == ':' ||
      crs.back() == ':')
    return false;
  size_t i = 0;
  while (i < crs.size()) {
    if (!Blank(crs[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < crs.size() && Blank(crs[end])) ++end;
    const bool colon_before = i > 0 && crs[i - 1] == ':';
    const bool colon_after = end < crs.size() && crs[end] == ':';
    if (!colon_before && !colon_after) return false;
    i = end;
  }
  return true;
}

std::optional<TypeId> PrimitiveNamed(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, TypeId>, 18> kNames{{
      {"boolean", TypeId::kBoolean},       {"int", TypeId::kInt},
      {"long", TypeId::kLong},             {"float", TypeId::kFloat},
      {"double", TypeId::kDouble},         {"date", TypeId::kDate},
      {"time", TypeId::kTime},             {"timestamp", TypeId::kTimestamp},
      {"timestamptz", TypeId::kTimestampTz}, {"timestamp_ns", TypeId::kTimestampNs},
      {"timestamptz_ns", TypeId::kTimestampTzNs}, {"string", TypeId::kString},
      {"uuid", TypeId::kUuid},             {"binary", TypeId::kBinary},
      {"unknown", TypeId::kUnknown},       {"variant", TypeId::kVariant},
      {"geometry", TypeId::kGeometry},     {"geography", TypeId::kGeography},
  }};
  for (const auto& [n, id] : kNames)
    if (n == name) return id;
  return std::nullopt;
}

std::vector<std::string_view> Arguments(std::string_view inner) {
  std::vector<std::string_view> out;
  size_t from = 0;
  while (true) {
    const size_t comma = inner.find(',', from);
    out.push_back(Stripped(inner.substr(from, comma == std::string_view::npos
                                                  ? std::string_view::npos
                                                  : comma - from)));
    if (comma == std::string_view::npos) return out;
    from = comma + 1;
  }
}

Type GeoType(const Slot& slot, bool geography, const std::vector<std::string_view>& args) {
  if (args.size() > (geography ? 2u : 1u))
    slot.Fail(geography ? "expected geography(C) or geography(C, A)" : "expected geometry(C)");
  const std::string_view crs = Stripped(Unquoted(args[0]));
  if (!CrsWellFormed(crs)) slot.Fail("expected a CRS such as srid:4326 or OGC:CRS84");
  Type t = Type::Primitive(geography ? TypeId::kGeography : TypeId::kGeometry);
  if (crs != kCrs84) t.crs = std::string(crs);
  if (args.size() == 2) {
    const std::string algorithm = LoweredName(Stripped(Unquoted(args[1])));
    static constexpr std::string_view kKnown[] = {"spherical", "vincenty", "thomas",
                                                  "andoyer", "karney"};
    if (std::find(std::begin(kKnown), std::end(kKnown), algorithm) == std::end(kKnown))
      slot.Fail(fmt::format("\"{}\" is not an edge interpolation algorithm", algorithm));
    if (algorithm != kSpherical) t.algorithm = algorithm;
  }
  return t;
}

Type NamedType(const Slot& slot) {
  const std::string text = slot.Text();
  const size_t open = text.find_first_of("([");
  if (open == std::string::npos) {
    std::optional<TypeId> id = PrimitiveNamed(LoweredName(text));
    if (!id) slot.Fail(fmt::format("\"{}\" is not a type", text));
    return Type::Primitive(*id);
  }
  const std::string head = LoweredName(std::string_view(text).substr(0, open));
  const char close = text[open] == '(' ? ')' : ']';
  if (text.back() != close) slot.Fail(fmt::format("\"{}\" does not end with {}", text, close));
  const std::string_view inner =
      std::string_view(text).substr(open + 1, text.size() - open - 2);
  if (close == ']') {
    std::optional<int64_t> length = Count(inner);
    if (head != "fixed" || !length || *length < 1)
      slot.Fail(fmt::format("\"{}\" is not fixed[L] with a positive length", text));
    return Type::Fixed(*length);
  }
  const std::vector<std::string_view> args = Arguments(inner);
  if (head == "decimal") {
    std::optional<int64_t> p, s;
    if (args.size() == 2) p = Count(args[0]), s = Count(args[1]);
    if (!p || !s || *p < 1 || *p > 38 || *s > *p)
      slot.Fail(fmt::format("\"{}\" is not decimal(P, S) with 1 <= P <= 38, S <= P", text));
    return Type::Decimal(static_cast<int32_t>(*p), static_cast<int32_t>(*s));
  }
  if (head == "geometry" || head == "geography") return GeoType(slot, head == "geography", args);
  slot.Fail(fmt::format("\"{}\" takes no parameters", head));
}

Type ObjectType(const Slot& slot) {
  const std::string kind = LoweredName(slot.Need("type").Text());
  if (kind == "struct") {
    const Slot fields = slot.Need("fields");
    if (!fields.IsArray()) fields.Expect("an array of fields");
    std::vector<NestedField> out;
    for (size_t i = 0; i < fields.Size(); ++i) out.push_back(DecodeField(fields.At(i)));
    return Type::Struct(std::move(out));
  }
  if (kind == "list") {
    const FieldId element_id = slot.Need("element-id").Int();
    const bool element_required = slot.Need("element-required").Bool();
    return Type::List(element_id, element_required, DecodeType(slot.Need("element")));
  }
  if (kind == "map") {
    const FieldId key_id = slot.Need("key-id").Int();
    Type key = DecodeType(slot.Need("key"));
    const FieldId value_id = slot.Need("value-id").Int();
    const bool value_required = slot.Need("value-required").Bool();
    return Type::Map(key_id, std::move(key), value_id, value_required,
                     DecodeType(slot.Need("value")));
  }
  slot.Need("type").Fail("expected struct, list or map");
}

/// A field's default: kept as its JSON text, once it has been read as a value of `type`.
std::optional<std::string> DefaultOf(const Slot& field, std::string_view key,
                                     const Type& type) {
  std::optional<Slot> d = field.Get(key);
  if (!d) return std::nullopt;
  ReadTyped(*d, type, /*utc_only=*/true);
  return d->Dumped();
}

}  // namespace

Type DecodeType(const Slot& slot) {
  if (slot.IsString()) return NamedType(slot);
  if (slot.IsObject()) return ObjectType(slot);
  slot.Expect("a type name or a type object");
}

NestedField DecodeField(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a field object");
  NestedField f;
  f.id = slot.Need("id").Int();
  f.name = slot.Need("name").Text();
  f.required = slot.Need("required").Bool();
  f.type = DecodeType(slot.Need("type"));
  if (auto doc = slot.Get("doc")) f.doc = doc->Text();
  f.initial_default_json = DefaultOf(slot, "initial-default", f.type);
  f.write_default_json = DefaultOf(slot, "write-default", f.type);
  return f;
}

Schema DecodeSchema(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a schema object");
  const Slot type = slot.Need("type");
  if (LoweredName(type.Text()) != "struct") type.Fail("a schema is a struct");
  Schema schema;
  if (auto id = slot.Get("schema-id")) schema.schema_id = id->Int();
  if (auto ids = slot.Get("identifier-field-ids")) {
    if (!ids->IsArray()) ids->Expect("an array of field IDs");
    schema.identifier_field_ids.emplace();
    for (size_t i = 0; i < ids->Size(); ++i)
      schema.identifier_field_ids->push_back(ids->At(i).Int());
  }
  const Slot fields = slot.Need("fields");
  if (!fields.IsArray()) fields.Expect("an array of fields");
  for (size_t i = 0; i < fields.Size(); ++i) schema.fields.push_back(DecodeField(fields.At(i)));
  return schema;
}

}  // namespace ictk::sample
