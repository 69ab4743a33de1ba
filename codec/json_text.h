/// \file
/// JSON text in and out: the one place where text becomes `nlohmann::json`. Parsing never
/// throws, reports "<source>:<line>:<column>: ..." for syntax errors, and refuses nesting
/// deeper than kMaxJsonDepth before nlohmann sees the text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "codec/result.h"

namespace ictk {

/// Arrays and objects nested deeper than this are rejected (no Iceberg document comes
/// close; a hostile one cannot exhaust the stack of any consumer).
inline constexpr int kMaxJsonDepth = 512;

/// Parses exactly one JSON document (trailing data is an error). `source_name` (a file
/// name, "stdin", "request") prefixes every message. Errors are ErrorKind::kParse.
Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view source_name);

/// Serializes without throwing (invalid UTF-8 in strings is replaced). `indent` < 0 gives
/// the compact one-line form; keys come out sorted, so the text is deterministic.
std::string DumpJson(const nlohmann::json& json, int indent = -1);

}  // namespace ictk
