/// \file
/// The sample's own writing of its answers' JSON (docs/protocol.md section 5): Iceberg
/// table metadata with the v4 constraint fields (types, schemas, check expressions in the
/// Iceberg expression JSON, snapshots with their constraint-statuses) and the rows of a
/// scan, keyed by field ID as Appendix D writes a struct. Written for the sample alone.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "model/iceberg/table_metadata.h"
#include "model/iceberg/value.h"

namespace ictk::sample {

/// The table metadata JSON of `md` (what it was read with and kept in `extra` included).
nlohmann::json MetadataJson(const TableMetadata& md);
/// `{"key": ..., "values": {...}}` of a row of a table whose top-level fields are `fields`.
nlohmann::json RowJson(const Row& row, const std::vector<NestedField>& fields);

}  // namespace ictk::sample
