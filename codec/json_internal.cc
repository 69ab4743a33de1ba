#include "codec/json_internal.h"

#include <cmath>
#include <limits>

#include "codec/json_text.h"

namespace ictk::codec_internal {

std::string Child(std::string_view base, std::string_view key) {
  std::string out(base);
  out.push_back('/');
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string Child(std::string_view base, size_t index) {
  return std::string(base) + "/" + std::to_string(index);
}

std::string ShowPointer(std::string_view pointer) {
  return pointer.empty() ? std::string("(root)") : std::string(pointer);
}

std::string KindName(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer";
    case json::value_t::number_float:
      return "number";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "binary";
  }
}

tl::unexpected<Error> ParseError(std::string_view pointer, std::string_view detail) {
  return MakeError(ErrorKind::kParse, ShowPointer(pointer) + ": " + std::string(detail));
}

tl::unexpected<Error> Expected(std::string_view pointer, std::string_view what,
                               const json& j) {
  std::string got = KindName(j);
  if (j.is_number_float() || j.is_number_integer()) got += " " + Dump(j);
  return ParseError(pointer, "expected " + std::string(what) + ", got " + got);
}

const json* Find(const json& obj, std::string_view key, bool null_is_absent) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end()) return nullptr;
  if (null_is_absent && it->is_null()) return nullptr;
  return &*it;
}

Result<const json*> AsObject(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "an object", j);
  return &j;
}

Result<int64_t> AsInt64(const json& j, std::string_view pointer) {
  if (j.is_number_unsigned()) {
    auto v = j.get<uint64_t>();
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return ParseError(pointer, "integer " + Dump(j) + " is out of the 64-bit range");
    return static_cast<int64_t>(v);
  }
  if (j.is_number_integer()) return j.get<int64_t>();
  if (j.is_number_float())
    return ParseError(pointer, "expected an integer, got number " + Dump(j) +
                                   " (not an integer, or out of the 64-bit range)");
  return Expected(pointer, "an integer", j);
}

Result<int32_t> AsInt32(const json& j, std::string_view pointer) {
  auto v = AsInt64(j, pointer);
  if (!v) return tl::unexpected(v.error());
  if (*v < std::numeric_limits<int32_t>::min() ||
      *v > std::numeric_limits<int32_t>::max())
    return ParseError(pointer,
                      "integer " + std::to_string(*v) + " is out of the int range");
  return static_cast<int32_t>(*v);
}

Result<bool> AsBool(const json& j, std::string_view pointer) {
  if (!j.is_boolean()) return Expected(pointer, "a boolean", j);
  return j.get<bool>();
}

Result<std::string> AsString(const json& j, std::string_view pointer) {
  if (!j.is_string()) return Expected(pointer, "a string", j);
  return j.get<std::string>();
}

Result<const json*> Require(const json& obj, std::string_view key,
                            std::string_view pointer) {
  if (!obj.is_object()) return Expected(pointer, "an object", obj);
  auto it = obj.find(key);
  if (it == obj.end())
    return ParseError(pointer, "missing required member '" + std::string(key) + "'");
  if (it->is_null()) return ParseError(Child(pointer, key), "required member is null");
  return &*it;
}

Result<int64_t> RequireInt64(const json& obj, std::string_view key,
                             std::string_view pointer) {
  auto m = Require(obj, key, pointer);
  if (!m) return tl::unexpected(m.error());
  return AsInt64(**m, Child(pointer, key));
}

Result<int32_t> RequireInt32(const json& obj, std::string_view key,
                             std::string_view pointer) {
  auto m = Require(obj, key, pointer);
  if (!m) return tl::unexpected(m.error());
  return AsInt32(**m, Child(pointer, key));
}

Result<bool> RequireBool(const json& obj, std::string_view key,
                         std::string_view pointer) {
  auto m = Require(obj, key, pointer);
  if (!m) return tl::unexpected(m.error());
  return AsBool(**m, Child(pointer, key));
}

Result<std::string> RequireString(const json& obj, std::string_view key,
                                  std::string_view pointer) {
  auto m = Require(obj, key, pointer);
  if (!m) return tl::unexpected(m.error());
  return AsString(**m, Child(pointer, key));
}

namespace {
template <typename T, typename F>
Result<std::optional<T>> Opt(const json& obj, std::string_view key,
                             std::string_view pointer, F as) {
  const json* m = Find(obj, key);
  if (m == nullptr) return std::optional<T>();
  auto v = as(*m, Child(pointer, key));
  if (!v) return tl::unexpected(v.error());
  return std::optional<T>(std::move(*v));
}
}  // namespace

Result<std::optional<int64_t>> OptInt64(const json& obj, std::string_view key,
                                        std::string_view pointer) {
  return Opt<int64_t>(obj, key, pointer, AsInt64);
}
Result<std::optional<int32_t>> OptInt32(const json& obj, std::string_view key,
                                        std::string_view pointer) {
  return Opt<int32_t>(obj, key, pointer, AsInt32);
}
Result<std::optional<bool>> OptBool(const json& obj, std::string_view key,
                                    std::string_view pointer) {
  return Opt<bool>(obj, key, pointer, AsBool);
}
Result<std::optional<std::string>> OptString(const json& obj, std::string_view key,
                                             std::string_view pointer) {
  return Opt<std::string>(obj, key, pointer, AsString);
}

bool TooDeep(std::string_view pointer) {
  // Each level adds one '/'; callers' prefixes add a few more.
  constexpr size_t kLimit = kMaxJsonDepth + 64;
  if (pointer.size() <= kLimit) return false;
  size_t levels = 0;
  for (char c : pointer) levels += c == '/';
  return levels > kLimit;
}

tl::unexpected<Error> TooDeepError(std::string_view pointer) {
  return ParseError(pointer.substr(0, 64), "nested too deeply (more than 512 levels)");
}

std::string Dump(const json& j) {
  try {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const json::exception&) {
    return "null";
  }
}

json Undump(const std::string& text) {
  try {
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) return j;
  } catch (const json::exception&) {
  }
  return json(text);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace ictk::codec_internal
