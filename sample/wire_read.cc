/// \file
/// Slot (wire_internal.h): reading one JSON value of a request as the shape the protocol
/// gives it, and the JSON text of a request line and of an answer.
#include <fmt/format.h>

#include <limits>

#include "sample/wire_internal.h"

namespace ictk::sample {

using nlohmann::json;

namespace {

/// How a JSON value is named in a message: its kind, and the number itself for numbers.
std::string Describe(const json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return "integer " + v.dump();
  if (v.is_number_float()) return "number " + v.dump();
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_string()) return "string";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  return "binary";
}

constexpr int kDeepest = 512;

/// Where the text nests deeper than kDeepest, or npos (brackets inside strings skipped).
size_t TooDeepAt(std::string_view text) {
  int open = 0;
  bool quoted = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    switch (c) {
      case '"': quoted = true; break;
      case '[': case '{': if (++open > kDeepest) return i; break;
      case ']': case '}': --open; break;
      default: break;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::string PointerTo(std::string_view base, std::string_view key) {
  std::string out(base);
  out += '/';
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string PointerTo(std::string_view base, size_t i) {
  return fmt::format("{}/{}", base, i);
}

void Slot::Expect(std::string_view what) const {
  throw Malformed(where_, fmt::format("expected {}, got {}", what, Describe(*value_)));
}

void Slot::Fail(const std::string& what) const { throw Malformed(where_, what); }

std::optional<Slot> Slot::GetEvenNull(std::string_view key) const {
  if (!value_->is_object()) return std::nullopt;
  auto it = value_->find(key);
  if (it == value_->end()) return std::nullopt;
  return Slot(*it, PointerTo(where_, key));
}

std::optional<Slot> Slot::Get(std::string_view key) const {
  std::optional<Slot> s = GetEvenNull(key);
  if (s && s->IsNull()) return std::nullopt;
  return s;
}

Slot Slot::Need(std::string_view key) const {
  if (!value_->is_object()) Expect("an object");
  std::optional<Slot> s = GetEvenNull(key);
  if (!s) Fail(fmt::format("missing \"{}\"", key));
  if (s->IsNull()) s->Fail("must not be null");
  return *s;
}

Slot Slot::At(size_t i) const { return Slot((*value_)[i], PointerTo(where_, i)); }

int64_t Slot::Long() const {
  if (value_->is_number_unsigned()) {
    const uint64_t u = value_->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      Fail(fmt::format("integer {} does not fit 64 bits", u));
    return static_cast<int64_t>(u);
  }
  if (value_->is_number_integer()) return value_->get<int64_t>();
  Expect("an integer");
}

int32_t Slot::Int() const {
  const int64_t v = Long();
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
    Fail(fmt::format("integer {} does not fit an int", v));
  return static_cast<int32_t>(v);
}

bool Slot::Bool() const {
  if (!value_->is_boolean()) Expect("a boolean");
  return value_->get<bool>();
}

std::string Slot::Text() const {
  if (!value_->is_string()) Expect("a string");
  return value_->get<std::string>();
}

std::string Slot::Dumped() const { return WriteJsonText(*value_); }

json ReadJsonText(std::string_view text) {
  if (text.find('\0') != std::string_view::npos)
    throw Malformed("request", "a NUL byte cannot appear in JSON text");
  if (size_t at = TooDeepAt(text); at != std::string_view::npos)
    throw Malformed("request", fmt::format("nested deeper than {} at byte {}", kDeepest, at));
  json parsed = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) throw Malformed("request", "not one JSON value");
  return parsed;
}

std::string WriteJsonText(const json& value) {
  try {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (...) {
    return "null";
  }
}

}  // namespace ictk::sample
