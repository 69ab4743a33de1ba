#include "codec/json_table_metadata.h"

#include <algorithm>
#include <initializer_list>
#include <memory>

#include "codec/decode_memo.h"
#include "codec/json_constraint.h"
#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_schema.h"

namespace ictk {
namespace {

using namespace codec_internal;  // NOLINT: the codec's own helpers
using nlohmann::json;

/// Every member of `obj` not in `known`, as raw JSON text.
ExtraFields CollectExtra(const json& obj, std::initializer_list<std::string_view> known) {
  ExtraFields extra;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      extra[it.key()] = Dump(*it);
  }
  return extra;
}

void WriteExtra(const ExtraFields& extra, json& j) {
  for (const auto& [k, v] : extra) j[k] = Undump(v);
}

/// A string -> string map (`properties`, `summary`). Non-string values are kept as their
/// JSON text, as lenient readers do.
Result<std::map<std::string, std::string>> StringMap(const json& j,
                                                     std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "an object of strings", j);
  std::map<std::string, std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it)
    out[it.key()] = it->is_string() ? it->get<std::string>() : Dump(*it);
  return out;
}

/// `source-id`, or the first of the v3 multi-argument `source-ids` when only that is
/// given.
Result<int32_t> SourceId(const json& j, std::string_view pointer) {
  if (Find(j, keys::kSourceId) == nullptr) {
    if (const json* ids = Find(j, keys::kSourceIds);
        ids != nullptr && ids->is_array() && !ids->empty()) {
      return AsInt32((*ids)[0], Child(Child(pointer, keys::kSourceIds), size_t{0}));
    }
  }
  return RequireInt32(j, keys::kSourceId, pointer);
}

Result<PartitionField> PartitionFieldFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a partition field object", j);
  PartitionField f;
  auto source = SourceId(j, pointer);
  if (!source) return tl::unexpected(source.error());
  f.source_id = *source;
  auto field_id = OptInt32(j, keys::kFieldId, pointer);
  if (!field_id) return tl::unexpected(field_id.error());
  f.field_id = *field_id;
  auto name = RequireString(j, keys::kName, pointer);
  if (!name) return tl::unexpected(name.error());
  f.name = std::move(*name);
  auto transform = RequireString(j, keys::kTransform, pointer);
  if (!transform) return tl::unexpected(transform.error());
  f.transform = std::move(*transform);
  f.extra =
      CollectExtra(j, {keys::kSourceId, keys::kFieldId, keys::kName, keys::kTransform});
  return f;
}

json PartitionFieldToJson(const PartitionField& f) {
  json j = json::object();
  WriteExtra(f.extra, j);
  j[keys::kSourceId] = f.source_id;
  if (f.field_id) j[keys::kFieldId] = *f.field_id;
  j[keys::kName] = f.name;
  j[keys::kTransform] = f.transform;
  return j;
}

Result<std::vector<PartitionField>> PartitionFieldsFromJson(const json& j,
                                                            std::string_view pointer) {
  if (!j.is_array()) return Expected(pointer, "an array of partition fields", j);
  std::vector<PartitionField> out;
  for (size_t i = 0; i < j.size(); ++i) {
    auto f = PartitionFieldFromJson(j[i], Child(pointer, i));
    if (!f) return tl::unexpected(f.error());
    out.push_back(std::move(*f));
  }
  return out;
}

json PartitionFieldsToJson(const std::vector<PartitionField>& fields) {
  json out = json::array();
  for (const auto& f : fields) out.push_back(PartitionFieldToJson(f));
  return out;
}

Result<PartitionSpec> PartitionSpecFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a partition spec object", j);
  PartitionSpec spec;
  auto id = RequireInt32(j, keys::kSpecId, pointer);
  if (!id) return tl::unexpected(id.error());
  spec.spec_id = *id;
  auto fields = Require(j, keys::kFields, pointer);
  if (!fields) return tl::unexpected(fields.error());
  auto parsed = PartitionFieldsFromJson(**fields, Child(pointer, keys::kFields));
  if (!parsed) return tl::unexpected(parsed.error());
  spec.fields = std::move(*parsed);
  return spec;
}

Result<SortField> SortFieldFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a sort field object", j);
  SortField f;
  auto transform = RequireString(j, keys::kTransform, pointer);
  if (!transform) return tl::unexpected(transform.error());
  f.transform = std::move(*transform);
  auto source = SourceId(j, pointer);
  if (!source) return tl::unexpected(source.error());
  f.source_id = *source;
  auto direction = RequireString(j, keys::kDirection, pointer);
  if (!direction) return tl::unexpected(direction.error());
  f.direction = std::move(*direction);
  auto null_order = RequireString(j, keys::kNullOrder, pointer);
  if (!null_order) return tl::unexpected(null_order.error());
  f.null_order = std::move(*null_order);
  f.extra = CollectExtra(
      j, {keys::kTransform, keys::kSourceId, keys::kDirection, keys::kNullOrder});
  return f;
}

Result<SortOrder> SortOrderFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a sort order object", j);
  SortOrder order;
  auto id = RequireInt32(j, keys::kOrderId, pointer);
  if (!id) return tl::unexpected(id.error());
  order.order_id = *id;
  auto fields = Require(j, keys::kFields, pointer);
  if (!fields) return tl::unexpected(fields.error());
  const std::string fp = Child(pointer, keys::kFields);
  if (!(*fields)->is_array()) return Expected(fp, "an array of sort fields", **fields);
  for (size_t i = 0; i < (*fields)->size(); ++i) {
    auto f = SortFieldFromJson((**fields)[i], Child(fp, i));
    if (!f) return tl::unexpected(f.error());
    order.fields.push_back(std::move(*f));
  }
  return order;
}

json SortOrderToJson(const SortOrder& order) {
  json fields = json::array();
  for (const auto& f : order.fields) {
    json jf = json::object();
    WriteExtra(f.extra, jf);
    jf[keys::kTransform] = f.transform;
    jf[keys::kSourceId] = f.source_id;
    jf[keys::kDirection] = f.direction;
    jf[keys::kNullOrder] = f.null_order;
    fields.push_back(std::move(jf));
  }
  return json{{keys::kOrderId, order.order_id}, {keys::kFields, std::move(fields)}};
}

Result<SnapshotRef> RefFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a snapshot reference object", j);
  SnapshotRef ref;
  auto id = RequireInt64(j, keys::kSnapshotId, pointer);
  if (!id) return tl::unexpected(id.error());
  ref.snapshot_id = *id;
  auto type = RequireString(j, keys::kType, pointer);
  if (!type) return tl::unexpected(type.error());
  ref.type = std::move(*type);
  ref.extra = CollectExtra(j, {keys::kSnapshotId, keys::kType});
  return ref;
}

/// Decodes an array member with `decode` per element, handing each to `add` in order;
/// absent or null gives no element.
template <typename F, typename Add>
Result<void> EachOf(const json& parent, std::string_view key, std::string_view pointer,
                    F decode, Add add) {
  const json* a = Find(parent, key);
  if (a == nullptr) return {};
  const std::string ap = Child(pointer, key);
  if (!a->is_array()) return Expected(ap, "an array", *a);
  for (size_t i = 0; i < a->size(); ++i) {
    auto v = decode((*a)[i], Child(ap, i));
    if (!v) return tl::unexpected(v.error());
    add(std::move(*v));
  }
  return {};
}

/// Decodes an array member with `decode` per element; absent or null gives an empty list.
template <typename T, typename F>
Result<std::vector<T>> ArrayOf(const json& parent, std::string_view key,
                               std::string_view pointer, F decode) {
  std::vector<T> out;
  auto ok = EachOf(parent, key, pointer, decode,
                   [&out](T&& v) { out.push_back(std::move(v)); });
  if (!ok) return tl::unexpected(ok.error());
  return out;
}

tl::unexpected<Error> MissingForVersion(std::string_view pointer, std::string_view key,
                                        int version) {
  return ParseError(pointer, "missing required member '" + std::string(key) +
                                 "' (format v" + std::to_string(version) + ")");
}

/// The table's identity and counters (after format-version).
Result<void> DecodeScalars(const json& j, std::string_view pointer, TableMetadata& md) {
  auto uuid = OptString(j, keys::kTableUuid, pointer);
  if (!uuid) return tl::unexpected(uuid.error());
  md.table_uuid = std::move(*uuid);
  auto location = OptString(j, keys::kLocation, pointer);
  if (!location) return tl::unexpected(location.error());
  md.location = std::move(*location);
  auto lsn = OptInt64(j, keys::kLastSequenceNumber, pointer);
  if (!lsn) return tl::unexpected(lsn.error());
  md.last_sequence_number = *lsn;
  auto updated = RequireInt64(j, keys::kLastUpdatedMs, pointer);
  if (!updated) return tl::unexpected(updated.error());
  md.last_updated_ms = *updated;
  auto last_column = RequireInt32(j, keys::kLastColumnId, pointer);
  if (!last_column) return tl::unexpected(last_column.error());
  md.last_column_id = *last_column;

  return {};
}

/// `schemas` and `current-schema-id`, or the v1 `schema`.
Result<void> DecodeSchemas(const json& j, std::string_view pointer, TableMetadata& md,
                           MetadataDecodeMemo* memo) {
  auto schema_of = [memo](const json& e, std::string_view p) {
    return memo ? memo->DecodeSchema(e, p) : SchemaFromJson(e, p);
  };
  const int v = md.format_version;
  const bool has_schemas = Find(j, keys::kSchemas) != nullptr;
  if (!has_schemas && v >= 2) return MissingForVersion(pointer, keys::kSchemas, v);
  auto schemas = ArrayOf<Schema>(j, keys::kSchemas, pointer, schema_of);
  if (!schemas) return tl::unexpected(schemas.error());
  md.schemas = std::move(*schemas);
  auto current_schema = OptInt32(j, keys::kCurrentSchemaId, pointer);
  if (!current_schema) return tl::unexpected(current_schema.error());
  md.current_schema_id = *current_schema;
  if (const json* legacy = Find(j, keys::kSchema)) {
    const std::string lp = Child(pointer, keys::kSchema);
    auto schema = SchemaFromJson(*legacy, lp);
    if (!schema) return tl::unexpected(schema.error());
    md.has_legacy_schema = true;
    if (!has_schemas) {
      if (!md.current_schema_id) md.current_schema_id = schema->schema_id;
      md.schemas.push_back(std::move(*schema));
    } else if (!md.current_schema_id) {
      const Schema* match = nullptr;
      for (const auto& s : md.schemas) {
        if (s.fields == schema->fields &&
            (!schema->schema_id || s.schema_id == schema->schema_id)) {
          match = &s;
          break;
        }
      }
      if (match == nullptr)
        return ParseError(lp,
                          "current-schema-id is absent and 'schema' matches none of "
                          "'schemas'");
      md.current_schema_id = match->schema_id;
    }
  }

  return {};
}

/// `partition-specs` and `default-spec-id`, or the v1 `partition-spec`;
/// `last-partition-id`.
Result<void> DecodePartitionSpecs(const json& j, std::string_view pointer,
                                  TableMetadata& md) {
  const int v = md.format_version;
  const bool has_specs = Find(j, keys::kPartitionSpecs) != nullptr;
  if (!has_specs && v >= 2) return MissingForVersion(pointer, keys::kPartitionSpecs, v);
  auto specs =
      ArrayOf<PartitionSpec>(j, keys::kPartitionSpecs, pointer, PartitionSpecFromJson);
  if (!specs) return tl::unexpected(specs.error());
  md.partition_specs = std::move(*specs);
  auto default_spec = OptInt32(j, keys::kDefaultSpecId, pointer);
  if (!default_spec) return tl::unexpected(default_spec.error());
  md.default_spec_id = *default_spec;
  if (const json* legacy = Find(j, keys::kPartitionSpec)) {
    auto fields = PartitionFieldsFromJson(*legacy, Child(pointer, keys::kPartitionSpec));
    if (!fields) return tl::unexpected(fields.error());
    md.has_legacy_partition_spec = true;
    if (!has_specs) {
      PartitionSpec spec;
      spec.spec_id = md.default_spec_id.value_or(0);
      spec.fields = std::move(*fields);
      md.partition_specs.push_back(std::move(spec));
    }
  }
  auto last_partition = OptInt32(j, keys::kLastPartitionId, pointer);
  if (!last_partition) return tl::unexpected(last_partition.error());
  md.last_partition_id = *last_partition;

  return {};
}

/// `sort-orders` and `default-sort-order-id`.
Result<void> DecodeSortOrders(const json& j, std::string_view pointer,
                              TableMetadata& md) {
  const int v = md.format_version;
  if (Find(j, keys::kSortOrders) == nullptr && v >= 2)
    return MissingForVersion(pointer, keys::kSortOrders, v);
  auto orders = ArrayOf<SortOrder>(j, keys::kSortOrders, pointer, SortOrderFromJson);
  if (!orders) return tl::unexpected(orders.error());
  md.sort_orders = std::move(*orders);
  auto default_order = OptInt32(j, keys::kDefaultSortOrderId, pointer);
  if (!default_order) return tl::unexpected(default_order.error());
  md.default_sort_order_id = *default_order;

  return {};
}

/// `next-row-id`, `properties`, the snapshots and their references.
Result<void> DecodeSnapshots(const json& j, std::string_view pointer, TableMetadata& md,
                             MetadataDecodeMemo* memo) {
  // Each snapshot as a shared object: the memo's own, so that a snapshot repeating the
  // last answer's is shared with it rather than copied.
  using Shared = std::shared_ptr<const Snapshot>;
  auto snapshot_of = [memo](const json& e, std::string_view p) -> Result<Shared> {
    if (memo) return memo->DecodeSnapshot(e, p);
    auto s = SnapshotFromJson(e, p);
    if (!s) return tl::unexpected(s.error());
    return std::make_shared<const Snapshot>(std::move(*s));
  };
  auto next_row_id = OptInt64(j, keys::kNextRowId, pointer);
  if (!next_row_id) return tl::unexpected(next_row_id.error());
  md.next_row_id = *next_row_id;
  if (const json* props = Find(j, keys::kProperties)) {
    auto map = StringMap(*props, Child(pointer, keys::kProperties));
    if (!map) return tl::unexpected(map.error());
    md.properties = std::move(*map);
  }
  auto current_snapshot = OptInt64(j, keys::kCurrentSnapshotId, pointer);
  if (!current_snapshot) return tl::unexpected(current_snapshot.error());
  md.current_snapshot_id = *current_snapshot;
  SharedVector<Snapshot> snapshots;
  auto listed =
      EachOf(j, keys::kSnapshots, pointer, snapshot_of,
             [&snapshots](Shared&& s) { snapshots.push_back_shared(std::move(s)); });
  if (!listed) return tl::unexpected(listed.error());
  md.snapshots = std::move(snapshots);
  if (const json* refs = Find(j, keys::kRefs)) {
    const std::string rp = Child(pointer, keys::kRefs);
    if (!refs->is_object())
      return Expected(rp, "an object of snapshot references", *refs);
    for (auto it = refs->begin(); it != refs->end(); ++it) {
      auto ref = RefFromJson(*it, Child(rp, it.key()));
      if (!ref) return tl::unexpected(ref.error());
      md.refs[it.key()] = std::move(*ref);
    }
  }
  return {};
}

/// `last-constraint-id` and `constraints` (v4).
Result<void> DecodeConstraints(const json& j, std::string_view pointer, TableMetadata& md,
                               MetadataDecodeMemo* memo) {
  auto constraint_of = [memo](const json& e, std::string_view p) {
    return memo ? memo->DecodeConstraint(e, p) : ConstraintFromJson(e, p);
  };
  auto last_constraint = OptInt32(j, keys::kLastConstraintId, pointer);
  if (!last_constraint) return tl::unexpected(last_constraint.error());
  md.last_constraint_id = *last_constraint;
  if (Find(j, keys::kConstraints) != nullptr) {
    auto constraints = ArrayOf<Constraint>(j, keys::kConstraints, pointer, constraint_of);
    if (!constraints) return tl::unexpected(constraints.error());
    md.constraints = std::move(*constraints);
  }
  return {};
}

/// Every member the decoders above do not read, kept as it was given.
void KeepExtra(const json& j, TableMetadata& md) {
  md.extra = CollectExtra(j, {keys::kFormatVersion,
                              keys::kTableUuid,
                              keys::kLocation,
                              keys::kLastSequenceNumber,
                              keys::kLastUpdatedMs,
                              keys::kLastColumnId,
                              keys::kSchemas,
                              keys::kSchema,
                              keys::kCurrentSchemaId,
                              keys::kPartitionSpecs,
                              keys::kPartitionSpec,
                              keys::kDefaultSpecId,
                              keys::kLastPartitionId,
                              keys::kSortOrders,
                              keys::kDefaultSortOrderId,
                              keys::kNextRowId,
                              keys::kProperties,
                              keys::kCurrentSnapshotId,
                              keys::kSnapshots,
                              keys::kRefs,
                              keys::kLastConstraintId,
                              keys::kConstraints});
  // Members given as null were read as absent; keep them out of `extra` too.
  for (auto it = md.extra.begin(); it != md.extra.end();) {
    if (it->second == "null") {
      it = md.extra.erase(it);
    } else {
      ++it;
    }
  }
}

Result<TableMetadata> Decode(const json& j, std::string_view pointer,
                             MetadataDecodeMemo* memo) {
  // The element decoders are the memo's, which reuse what the previous answer decoded,
  // or the plain ones.
  if (!j.is_object()) return Expected(pointer, "a table metadata object", j);
  TableMetadata md;
  auto fv = RequireInt32(j, keys::kFormatVersion, pointer);
  if (!fv) return tl::unexpected(fv.error());
  md.format_version = *fv;
  if (auto ok = DecodeScalars(j, pointer, md); !ok) return tl::unexpected(ok.error());
  if (auto ok = DecodeSchemas(j, pointer, md, memo); !ok)
    return tl::unexpected(ok.error());
  if (auto ok = DecodePartitionSpecs(j, pointer, md); !ok)
    return tl::unexpected(ok.error());
  if (auto ok = DecodeSortOrders(j, pointer, md); !ok) return tl::unexpected(ok.error());
  if (auto ok = DecodeSnapshots(j, pointer, md, memo); !ok)
    return tl::unexpected(ok.error());
  if (auto ok = DecodeConstraints(j, pointer, md, memo); !ok)
    return tl::unexpected(ok.error());
  KeepExtra(j, md);
  return md;
}

}  // namespace

Result<Snapshot> SnapshotFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a snapshot object", j);
  Snapshot s;
  auto id = RequireInt64(j, keys::kSnapshotId, pointer);
  if (!id) return tl::unexpected(id.error());
  s.snapshot_id = *id;
  auto parent = OptInt64(j, keys::kParentSnapshotId, pointer);
  if (!parent) return tl::unexpected(parent.error());
  s.parent_snapshot_id = *parent;
  auto seq = OptInt64(j, keys::kSequenceNumber, pointer);
  if (!seq) return tl::unexpected(seq.error());
  s.sequence_number = *seq;
  auto ts = RequireInt64(j, keys::kTimestampMs, pointer);
  if (!ts) return tl::unexpected(ts.error());
  s.timestamp_ms = *ts;
  if (const json* summary = Find(j, keys::kSummary)) {
    auto map = StringMap(*summary, Child(pointer, keys::kSummary));
    if (!map) return tl::unexpected(map.error());
    s.summary = std::move(*map);
  }
  auto schema_id = OptInt32(j, keys::kSchemaId, pointer);
  if (!schema_id) return tl::unexpected(schema_id.error());
  s.schema_id = *schema_id;
  auto manifest_list = OptString(j, keys::kManifestList, pointer);
  if (!manifest_list) return tl::unexpected(manifest_list.error());
  s.manifest_list = std::move(*manifest_list);
  auto first_row_id = OptInt64(j, keys::kFirstRowId, pointer);
  if (!first_row_id) return tl::unexpected(first_row_id.error());
  s.first_row_id = *first_row_id;
  auto added_rows = OptInt64(j, keys::kAddedRows, pointer);
  if (!added_rows) return tl::unexpected(added_rows.error());
  s.added_rows = *added_rows;
  if (const json* statuses = Find(j, keys::kConstraintStatuses)) {
    auto st =
        ConstraintStatusesFromJson(*statuses, Child(pointer, keys::kConstraintStatuses));
    if (!st) return tl::unexpected(st.error());
    s.constraint_statuses = std::move(*st);
  }
  s.extra = CollectExtra(
      j, {keys::kSnapshotId, keys::kParentSnapshotId, keys::kSequenceNumber,
          keys::kTimestampMs, keys::kSummary, keys::kSchemaId, keys::kManifestList,
          keys::kFirstRowId, keys::kAddedRows, keys::kConstraintStatuses});
  return s;
}

json SnapshotToJson(const Snapshot& s) {
  json j = json::object();
  WriteExtra(s.extra, j);
  j[keys::kSnapshotId] = s.snapshot_id;
  if (s.parent_snapshot_id) j[keys::kParentSnapshotId] = *s.parent_snapshot_id;
  if (s.sequence_number) j[keys::kSequenceNumber] = *s.sequence_number;
  j[keys::kTimestampMs] = s.timestamp_ms;
  if (!s.summary.empty()) j[keys::kSummary] = s.summary;
  if (s.schema_id) j[keys::kSchemaId] = *s.schema_id;
  if (s.manifest_list) j[keys::kManifestList] = *s.manifest_list;
  if (s.first_row_id) j[keys::kFirstRowId] = *s.first_row_id;
  if (s.added_rows) j[keys::kAddedRows] = *s.added_rows;
  if (s.constraint_statuses)
    j[keys::kConstraintStatuses] = ConstraintStatusesToJson(*s.constraint_statuses);
  return j;
}

Result<TableMetadata> TableMetadataFromJson(const json& j, std::string_view pointer) {
  return TableMetadataFromJson(j, pointer, nullptr);
}

Result<TableMetadata> TableMetadataFromJson(const json& j, std::string_view pointer,
                                            MetadataDecodeMemo* memo) {
  try {
    return Decode(j, pointer, memo);
  } catch (const std::exception& e) {
    return ParseError(pointer, std::string("cannot decode table metadata: ") + e.what());
  }
}

json TableMetadataToJson(const TableMetadata& md) {
  return TableMetadataToJson(md, nullptr);
}

json TableMetadataToJson(const TableMetadata& md, MetadataEncodeMemo* memo) {
  json j = TableMetadataMembersToJson(md);
  json schemas = json::array();
  for (size_t i = 0; i < md.schemas.size(); ++i)
    schemas.push_back(memo ? memo->EncodeSchema(md.schemas[i], i)
                           : SchemaToJson(md.schemas[i]));
  j[keys::kSchemas] = std::move(schemas);
  json snapshots = json::array();
  for (size_t i = 0; i < md.snapshots.size(); ++i)
    snapshots.push_back(memo ? memo->EncodeSnapshot(md.snapshots.shared(i), i)
                             : SnapshotToJson(md.snapshots[i]));
  j[keys::kSnapshots] = std::move(snapshots);
  return j;
}

json TableMetadataMembersToJson(const TableMetadata& md, bool with_constraints) {
  json j = json::object();
  WriteExtra(md.extra, j);
  j[keys::kFormatVersion] = md.format_version;
  if (md.table_uuid) j[keys::kTableUuid] = *md.table_uuid;
  if (md.location) j[keys::kLocation] = *md.location;
  if (md.last_sequence_number) j[keys::kLastSequenceNumber] = *md.last_sequence_number;
  j[keys::kLastUpdatedMs] = md.last_updated_ms;
  j[keys::kLastColumnId] = md.last_column_id;
  if (md.current_schema_id) j[keys::kCurrentSchemaId] = *md.current_schema_id;
  if (md.has_legacy_schema) {
    const Schema* current = md.CurrentSchema();
    if (current == nullptr && !md.schemas.empty()) current = &md.schemas.front();
    if (current != nullptr) j[keys::kSchema] = SchemaToJson(*current);
  }
  json specs = json::array();
  for (const auto& spec : md.partition_specs) {
    specs.push_back(json{{keys::kSpecId, spec.spec_id},
                         {keys::kFields, PartitionFieldsToJson(spec.fields)}});
  }
  j[keys::kPartitionSpecs] = std::move(specs);
  if (md.has_legacy_partition_spec) {
    const PartitionSpec* def = nullptr;
    for (const auto& spec : md.partition_specs)
      if (spec.spec_id == md.default_spec_id.value_or(0)) def = &spec;
    if (def == nullptr && !md.partition_specs.empty()) def = &md.partition_specs.front();
    j[keys::kPartitionSpec] =
        def != nullptr ? PartitionFieldsToJson(def->fields) : json::array();
  }
  if (md.default_spec_id) j[keys::kDefaultSpecId] = *md.default_spec_id;
  if (md.last_partition_id) j[keys::kLastPartitionId] = *md.last_partition_id;
  json orders = json::array();
  for (const auto& o : md.sort_orders) orders.push_back(SortOrderToJson(o));
  j[keys::kSortOrders] = std::move(orders);
  if (md.default_sort_order_id) j[keys::kDefaultSortOrderId] = *md.default_sort_order_id;
  if (md.next_row_id) j[keys::kNextRowId] = *md.next_row_id;
  if (!md.properties.empty()) j[keys::kProperties] = md.properties;
  if (md.current_snapshot_id) j[keys::kCurrentSnapshotId] = *md.current_snapshot_id;
  if (!md.refs.empty()) {
    json refs = json::object();
    for (const auto& [name, ref] : md.refs) {
      json r = json::object();
      WriteExtra(ref.extra, r);
      r[keys::kSnapshotId] = ref.snapshot_id;
      r[keys::kType] = ref.type;
      refs[name] = std::move(r);
    }
    j[keys::kRefs] = std::move(refs);
  }
  if (md.last_constraint_id) j[keys::kLastConstraintId] = *md.last_constraint_id;
  if (md.constraints && with_constraints) {
    json constraints = json::array();
    for (const auto& c : *md.constraints) constraints.push_back(ConstraintToJson(c));
    j[keys::kConstraints] = std::move(constraints);
  }
  return j;
}

}  // namespace ictk
