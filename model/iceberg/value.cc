/// \file
/// The readable form of a value for messages and counterexamples (not the JSON form):
/// `null`, `true`, `5`, `5.5`, `NaN`, decimals as `14.20`, strings quoted, bytes as
/// `0x0a0b`, structs as `{1: v, 2: v}`, lists as `[a, b]`, maps as `{k => v}`.
#include "model/iceberg/value.h"

#include <fmt/format.h>

#include <cmath>
#include <ostream>

#include "model/iceberg/decimal_internal.h"

namespace ictk {

namespace {

std::string DoubleToString(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  std::string s = fmt::format("{}", d);
  // Keep a double recognisable as one ("5.0", not "5").
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string QuoteString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string ToString(const Value& value) {
  switch (value.kind) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kBoolean:
      return value.as_bool() ? "true" : "false";
    case ValueKind::kLong:
      return fmt::format("{}", value.as_long());
    case ValueKind::kDouble:
      return DoubleToString(value.as_double());
    case ValueKind::kDecimal:
      return internal::DecimalToString(value.as_decimal());
    case ValueKind::kString:
      return QuoteString(value.as_string());
    case ValueKind::kBytes: {
      std::string out = "0x";
      for (char c : value.as_string())
        out += fmt::format("{:02x}", static_cast<unsigned char>(c));
      return out;
    }
    case ValueKind::kStruct: {
      std::string out = "{";
      for (size_t i = 0; i < value.children.size(); ++i) {
        if (i > 0) out += ", ";
        const std::string id =
            i < value.field_ids.size() ? fmt::format("{}", value.field_ids[i]) : "?";
        out += id + ": " + ToString(value.children[i]);
      }
      return out + "}";
    }
    case ValueKind::kList: {
      std::string out = "[";
      for (size_t i = 0; i < value.children.size(); ++i) {
        if (i > 0) out += ", ";
        out += ToString(value.children[i]);
      }
      return out + "]";
    }
    case ValueKind::kMap: {
      const size_t n = value.children.size() / 2;
      std::string out = "{";
      for (size_t i = 0; i < n; ++i) {
        if (i > 0) out += ", ";
        out += ToString(value.children[i]) + " => " + ToString(value.children[n + i]);
      }
      return out + "}";
    }
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, const Value& value) {
  return os << ToString(value);
}

}  // namespace ictk
