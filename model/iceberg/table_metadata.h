/// \file
/// Iceberg table metadata, v1-v4 (SURROUNDINGS.md "Table metadata JSON"), with the v4
/// constraint fields. What the constraint rules never read (logs, statistics, encryption
/// keys, unknown keys) is kept as raw JSON text in `extra` so that the codec round-trips it;
/// the model does not parse it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/shared_vector.h"
#include "model/iceberg/types.h"

namespace ictk {

/// Key -> raw JSON text of the value, for members the model does not interpret.
using ExtraFields = std::map<std::string, std::string>;

struct PartitionField {
  int32_t source_id = 0;
  std::optional<int32_t> field_id;  ///< absent in some v1 metadata
  std::string name;
  std::string transform;
  ExtraFields extra;  ///< e.g. `source-ids`
  bool operator==(const PartitionField&) const = default;
};

struct PartitionSpec {
  int32_t spec_id = 0;
  std::vector<PartitionField> fields;
  bool operator==(const PartitionSpec&) const = default;
};

struct SortField {
  std::string transform;
  int32_t source_id = 0;
  std::string direction;
  std::string null_order;
  ExtraFields extra;
  bool operator==(const SortField&) const = default;
};

struct SortOrder {
  int32_t order_id = 0;
  std::vector<SortField> fields;
  bool operator==(const SortOrder&) const = default;
};

struct Snapshot {
  SnapshotId snapshot_id = 0;
  std::optional<SnapshotId> parent_snapshot_id;
  std::optional<int64_t> sequence_number;
  int64_t timestamp_ms = 0;
  std::map<std::string, std::string> summary;  ///< includes "operation"
  std::optional<int32_t> schema_id;
  std::optional<std::string> manifest_list;
  std::optional<int64_t> first_row_id;
  std::optional<int64_t> added_rows;
  std::optional<ConstraintStatuses> constraint_statuses;
  ExtraFields extra;  ///< `manifests` (v1), `root-manifest` (v4), `key-id`, ...

  bool operator==(const Snapshot&) const = default;
  std::string operation() const {
    auto it = summary.find("operation");
    return it == summary.end() ? std::string() : it->second;
  }
};

struct SnapshotRef {
  SnapshotId snapshot_id = 0;
  std::string type;  ///< "branch" | "tag"
  ExtraFields extra;
  bool operator==(const SnapshotRef&) const = default;
};

struct TableMetadata {
  int32_t format_version = 0;
  std::optional<std::string> table_uuid;
  std::optional<std::string> location;
  std::optional<int64_t> last_sequence_number;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<Schema> schemas;
  std::optional<int32_t> current_schema_id;
  std::vector<PartitionSpec> partition_specs;
  std::optional<int32_t> default_spec_id;
  std::optional<int32_t> last_partition_id;
  std::vector<SortOrder> sort_orders;
  std::optional<int32_t> default_sort_order_id;
  std::optional<int64_t> next_row_id;
  std::map<std::string, std::string> properties;
  std::optional<SnapshotId> current_snapshot_id;
  /// Shared between copies of the metadata: a long history's metadata holds hundreds of
  /// snapshots, almost all unchanged from one step to the next, and is copied at every
  /// step (the model's state, the canonical answer, each decoded answer). Read it as a
  /// vector; change a snapshot through `mutable_at` / `mutable_back`, which copy it first
  /// when another metadata still holds it.
  SharedVector<Snapshot> snapshots;
  std::map<std::string, SnapshotRef> refs;
  std::optional<ConstraintId> last_constraint_id;
  std::optional<std::vector<Constraint>> constraints;
  /// v1 wrote `schema` / `partition-spec` (instead of, or beside, the lists). Kept so the
  /// encoder writes what it read.
  bool has_legacy_schema = false;
  bool has_legacy_partition_spec = false;
  ExtraFields extra;

  bool operator==(const TableMetadata&) const = default;

  /// The current schema, or nullptr when `current_schema_id` names none.
  const Schema* CurrentSchema() const {
    for (const auto& s : schemas)
      if (s.schema_id.value_or(0) == current_schema_id.value_or(0)) return &s;
    return nullptr;
  }
  const Snapshot* FindSnapshot(SnapshotId id) const {
    for (const auto& s : snapshots)
      if (s.snapshot_id == id) return &s;
    return nullptr;
  }
  const Snapshot* CurrentSnapshot() const {
    if (!current_snapshot_id || *current_snapshot_id == -1) return nullptr;
    return FindSnapshot(*current_snapshot_id);
  }
};

/// The constraints of a metadata (empty when absent).
inline const std::vector<Constraint>& ConstraintsOf(const TableMetadata& metadata) {
  static const std::vector<Constraint> kNone;
  return metadata.constraints ? *metadata.constraints : kNone;
}

/// The constraint whose `constraint-id` is `id`, or nullptr.
inline const Constraint* FindConstraintById(const TableMetadata& metadata, ConstraintId id) {
  for (const Constraint& c : ConstraintsOf(metadata))
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace ictk
