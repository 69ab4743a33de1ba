/// \file
/// Iceberg schemas as JSON: a struct type object plus `schema-id` and
/// `identifier-field-ids`. Structural decoding only; the schema rules (unique field IDs,
/// identifier fields, types by format version) are in model/rules/iceberg_rules.h.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "codec/result.h"
#include "model/iceberg/types.h"

namespace ictk {

/// `{"type": "struct", "schema-id"?: N, "identifier-field-ids"?: [..], "fields": [..]}`.
/// `"type": "struct"` and `fields` are required.
Result<Schema> SchemaFromJson(const nlohmann::json& json, std::string_view pointer);
nlohmann::json SchemaToJson(const Schema& schema);

}  // namespace ictk
