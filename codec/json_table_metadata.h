/// \file
/// Iceberg table metadata JSON, v1-v4 (SURROUNDINGS.md "Table metadata JSON"), with the
/// v4 `constraints`, `last-constraint-id` and snapshot `constraint-statuses`. Members the
/// model does not interpret (logs, statistics, encryption keys, unknown keys, and unknown
/// members of partition fields, sort fields, snapshots and refs) are kept as raw JSON
/// text in `extra` and written back, so that metadata round-trips by meaning:
/// decode(encode(decode(x))) == decode(x).
///
/// What the decoder rejects (an error naming the JSON pointer) and what it leaves to
/// CheckIcebergMetadata (model/rules/iceberg_rules.h): members TableMetadata cannot represent
/// as absent are required here (`format-version`, `last-updated-ms`, `last-column-id`;
/// from v2 `schemas`, `partition-specs`, `sort-orders`), as is the right JSON kind of
/// every member; members kept as optionals are judged by ice.metadata-required. Any
/// integer `format-version` decodes (ice.format-version-known judges it), with the rules
/// of the nearest known version.
///
/// v1: `schema` and `partition-spec` are read when the lists are absent (and flagged so
/// the encoder writes them too). When `current-schema-id` is absent, the current schema
/// is the one in `schemas` equal to `schema` (the readers of iceberg-go and -rust do the
/// same).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "codec/result.h"
#include "model/iceberg/table_metadata.h"

namespace ictk {

Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& json,
                                            std::string_view pointer = {});
nlohmann::json TableMetadataToJson(const TableMetadata& metadata);
/// TableMetadataToJson without its two lists that grow with a table's history,
/// `schemas` and `snapshots` (a metadata delta writes those apart), and without
/// `constraints` unless `with_constraints` (the delta writer splices those too).
nlohmann::json TableMetadataMembersToJson(const TableMetadata& metadata,
                                          bool with_constraints = true);

/// One snapshot object (as found in `snapshots`).
Result<Snapshot> SnapshotFromJson(const nlohmann::json& json, std::string_view pointer);
nlohmann::json SnapshotToJson(const Snapshot& snapshot);

}  // namespace ictk
