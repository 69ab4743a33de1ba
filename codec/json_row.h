/// \file
/// Rows of the adapter protocol (ARCHITECTURE.md): `{"key": "r1", "values":
/// {"<field-id>": <Appendix D value>, ...}}`, nested structs as objects keyed by field
/// ID.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "codec/result.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// Decodes a row against the schema's top-level fields. A member naming no field is an
/// error; absent fields stay absent and nulls stay null (ValueFitsType judges them).
Result<Row> RowFromJson(const nlohmann::json& json,
                        const std::vector<NestedField>& fields, std::string_view pointer);
nlohmann::json RowToJson(const Row& row, const std::vector<NestedField>& fields);

}  // namespace ictk
