/// \file
/// The sample's table metadata: what create-table writes, how a snapshot is appended, the
/// deterministic table UUID, and reading stored rows under a schema.
#include <fmt/format.h>

#include <cstdio>

#include "sample/engine_internal.h"
#include "sample/schema_internal.h"
#include "sample/single_value_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {
namespace {

uint64_t Fnv1a64(const std::string& s, uint64_t seed) {
  uint64_t h = 0xcbf29ce484222325ull ^ seed;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::optional<Value> DecodeDefault(const std::optional<std::string>& text,
                                   const Type& type) {
  if (!text) return std::nullopt;
  return ValueOfJsonText(*text, type);
}

const RowSet kNoRows;

}  // namespace

const RowSet& Table::live() const {
  if (!meta.current_snapshot_id) return kNoRows;
  auto it = rows_at.find(*meta.current_snapshot_id);
  return it == rows_at.end() ? kNoRows : *it->second;
}

std::string TableUuidFor(const std::string& name) {
  uint64_t hi = Fnv1a64(name, 0x69636b74u);        // "ickt"
  uint64_t lo = Fnv1a64(name, 0x73616d706c65ull);  // "sample"
  hi = (hi & ~0xf000ull) | 0x8000ull;              // version 8
  lo = (lo & ~(0xc0ull << 56)) | (0x80ull << 56);  // variant 10
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xffff,
                     hi & 0xffff, lo >> 48, lo & 0xffffffffffffull);
}

TableMetadata NewTableMetadata(const std::string& name, int32_t format_version,
                               Schema schema, int64_t now) {
  TableMetadata md;
  md.format_version = format_version;
  md.table_uuid = TableUuidFor(name);
  md.location = "memory://ictk-sample/" + name;
  if (format_version >= 2) md.last_sequence_number = 0;
  md.last_updated_ms = now;
  schema.schema_id = 0;
  md.last_column_id = HighestFieldId(schema.fields);
  md.schemas.push_back(std::move(schema));
  md.current_schema_id = 0;
  md.partition_specs.push_back(PartitionSpec{0, {}});
  md.default_spec_id = 0;
  md.last_partition_id = 999;  // unpartitioned: partition field IDs start at 1000
  md.sort_orders.push_back(SortOrder{0, {}});
  md.default_sort_order_id = 0;
  if (format_version >= 3) md.next_row_id = 0;
  if (format_version >= 4) {
    md.last_constraint_id = 0;
    md.constraints = std::vector<Constraint>{};
  }
  if (format_version == 1) {
    md.has_legacy_schema = true;
    md.has_legacy_partition_spec = true;
  }
  md.extra["snapshot-log"] = "[]";
  md.extra["metadata-log"] = "[]";
  return md;
}

void AddSnapshot(TableMetadata& meta, Snapshot snapshot) {
  const SnapshotId id = snapshot.snapshot_id;
  const int64_t ts = snapshot.timestamp_ms;
  if (snapshot.sequence_number) meta.last_sequence_number = snapshot.sequence_number;
  meta.snapshots.push_back(std::move(snapshot));
  meta.current_snapshot_id = id;
  meta.refs["main"] = SnapshotRef{id, "branch", {}};
  meta.last_updated_ms = std::max(meta.last_updated_ms, ts);
  std::string log = "[";
  for (const Snapshot& s : meta.snapshots) {
    log += fmt::format("{}{{\"snapshot-id\":{},\"timestamp-ms\":{}}}",
                       log.size() > 1 ? "," : "", s.snapshot_id, s.timestamp_ms);
  }
  meta.extra["snapshot-log"] = log + "]";
}

const Schema* SchemaById(const TableMetadata& meta, int32_t schema_id) {
  for (const Schema& s : meta.schemas)
    if (s.schema_id.value_or(0) == schema_id) return &s;
  return nullptr;
}

const Schema& CurrentSchemaOf(const TableMetadata& meta) {
  const Schema* s = SchemaById(meta, meta.current_schema_id.value_or(0));
  return s != nullptr ? *s : meta.schemas.front();
}

std::optional<ConstraintStatus> ListedStatus(const ConstraintStatuses& statuses,
                                             ConstraintId id) {
  for (ConstraintStatus s : kAllStatuses) {
    const auto& list = statuses.List(s);
    if (!list) continue;
    for (ConstraintId x : *list)
      if (x == id) return s;
  }
  return std::nullopt;
}

Value InitialDefaultOf(const NestedField& field) {
  return DecodeDefault(field.initial_default_json, field.type).value_or(Value::Null());
}

Value WriteDefaultOf(const NestedField& field) {
  return DecodeDefault(field.write_default_json, field.type).value_or(Value::Null());
}

Value ReadRow(const TableMetadata& meta, const StoredRow& row,
              const std::vector<NestedField>& fields) {
  const Schema* writer = SchemaById(meta, row.schema_id);
  if (writer == nullptr) return row.values;
  if (writer->schema_id == meta.current_schema_id && &writer->fields == &fields) {
    return row.values;
  }
  return ProjectStruct(row.values, writer->fields, fields, &InitialDefaultOf);
}

}  // namespace ictk::sample
