/// \file
/// The surrounding Iceberg rules (ice.*). The quotes are from apache/iceberg
/// `format/spec.md` ("Table Metadata Fields", "Schemas", "Sorting", "Snapshots",
/// "Identifier Field IDs"), restated in SURROUNDINGS.md; where a reader implementation is
/// the source, the comment names it.
#include "model/rules/iceberg_rules.h"
#include "model/iceberg/kinds.h"
#include "model/rules/clause.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ictk {
namespace {

/// One field of a schema as the walk sees it, with what encloses it.
struct WalkedField {
  FieldId id = 0;
  std::string name;
  const Type* type = nullptr;
  bool required = false;
  bool in_list_or_map = false;
  bool under_optional_struct = false;
  std::string
      pointer;  ///< of the field object (or of the element-id / key-id / value-id)
};

void WalkType(const Type& type, const std::string& type_pointer, bool in_list_or_map,
              bool under_optional, std::vector<WalkedField>& out);

void WalkFields(const std::vector<NestedField>& fields, const std::string& pointer,
                bool in_list_or_map, bool under_optional, std::vector<WalkedField>& out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    const NestedField& f = fields[i];
    const std::string p = pointer + "/fields/" + std::to_string(i);
    out.push_back({f.id, f.name, &f.type, f.required, in_list_or_map, under_optional, p});
    WalkType(f.type, p + "/type", in_list_or_map, under_optional || !f.required, out);
  }
}

void WalkType(const Type& type, const std::string& type_pointer, bool in_list_or_map,
              bool under_optional, std::vector<WalkedField>& out) {
  switch (type.id) {
    case TypeId::kStruct:
      WalkFields(type.fields, type_pointer, in_list_or_map, under_optional, out);
      break;
    case TypeId::kList:
      if (type.children.size() != 1) break;
      out.push_back({type.element_id, "element", &type.element(), type.element_required,
                     true, under_optional, type_pointer + "/element-id"});
      WalkType(type.element(), type_pointer + "/element", true, under_optional, out);
      break;
    case TypeId::kMap:
      if (type.children.size() != 2) break;
      out.push_back({type.key_id, "key", &type.key(), true, true, under_optional,
                     type_pointer + "/key-id"});
      out.push_back({type.value_id, "value", &type.value(), type.value_required, true,
                     under_optional, type_pointer + "/value-id"});
      WalkType(type.key(), type_pointer + "/key", true, under_optional, out);
      WalkType(type.value(), type_pointer + "/value", true, under_optional, out);
      break;
    default:
      break;
  }
}

std::vector<WalkedField> Walk(const Schema& schema, const std::string& pointer) {
  std::vector<WalkedField> out;
  WalkFields(schema.fields, pointer, false, false, out);
  return out;
}

std::string SchemaPointer(size_t index) { return "/schemas/" + std::to_string(index); }

bool IsUuid(const std::string& s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                 (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

bool IsV3Type(TypeId id) {
  return id == TypeId::kUnknown || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs || id == TypeId::kGeometry ||
         id == TypeId::kGeography || id == TypeId::kVariant;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Metadata rules

/// "Readers reject a format-version they do not support" (SURROUNDINGS.md "Table metadata
/// JSON"; Java: "Cannot read unsupported version") (ice.format-version-known).
Findings CheckFormatVersionKnown(const TableMetadata& md) {
  Findings out;
  Require(out, md.format_version >= 1 && md.format_version <= kMaxFormatVersion,
          RuleId::kIceFormatVersionKnown,
          "format-version " + std::to_string(md.format_version) +
              " is not a known format version (1 to " +
              std::to_string(kMaxFormatVersion) + ")",
          std::nullopt, "/format-version");
  return out;
}

/// "Required: `format-version`, `table-uuid`, `last-sequence-number` (v2+),
/// `last-updated-ms`, `last-column-id`, `schemas`, `current-schema-id`,
/// `partition-specs`, `default-spec-id`, `last-partition-id`, `sort-orders`,
/// `default-sort-order-id`, `next-row-id` (v3+). Optional: `location` (required before
/// v4) ... v1 metadata has `schema` / `partition-spec` instead of the lists"
/// (SURROUNDINGS.md; the spec's field table: table-uuid is optional in v1)
/// (ice.metadata-required).
Findings CheckMetadataRequired(const TableMetadata& md) {
  Findings out;
  const int v = md.format_version;
  auto need = [&](bool present, const char* key, int since, int until = 99) {
    if (v < since || v > until) return;
    Require(out, present, RuleId::kIceMetadataRequired,
            std::string("missing required member '") + key + "' (format v" +
                std::to_string(v) + ")",
            std::nullopt, std::string("/") + key);
  };
  need(md.table_uuid.has_value(), "table-uuid", 2);
  need(md.location.has_value(), "location", 1, 3);
  need(md.last_sequence_number.has_value(), "last-sequence-number", 2);
  need(md.current_schema_id.has_value(), "current-schema-id", 2);
  need(md.default_spec_id.has_value(), "default-spec-id", 2);
  need(md.last_partition_id.has_value(), "last-partition-id", 2);
  need(md.default_sort_order_id.has_value(), "default-sort-order-id", 2);
  need(md.next_row_id.has_value(), "next-row-id", 3);
  if (v == 1) {
    // v1: `schema` is required unless `schemas` and `current-schema-id` are both given.
    Require(out, md.has_legacy_schema || (md.current_schema_id && !md.schemas.empty()),
            RuleId::kIceMetadataRequired,
            "v1 metadata needs 'schema', or 'schemas' with 'current-schema-id'",
            std::nullopt, "/schema");
    Require(out, !md.partition_specs.empty(), RuleId::kIceMetadataRequired,
            "v1 metadata needs 'partition-spec' or 'partition-specs'", std::nullopt,
            "/partition-spec");
  }
  return out;
}

/// "`table-uuid`: A UUID that identifies the table" (spec "Table Metadata Fields")
/// (ice.table-uuid).
Findings CheckTableUuid(const TableMetadata& md) {
  Findings out;
  if (md.table_uuid)
    Require(out, IsUuid(*md.table_uuid), clauses::kIceTableUuidIsUuid,
            "table-uuid \"" + *md.table_uuid + "\" is not a UUID", std::nullopt,
            "/table-uuid");
  return out;
}

/// The spec's field table lists `next-row-id` and `encryption-keys` from v3 and
/// `last-sequence-number` from v2; iceberg-go rejects them in earlier versions
/// (TestRejectFieldsBeyondVersion) (ice.fields-by-version).
Findings CheckFieldsByVersion(const TableMetadata& md) {
  Findings out;
  const int v = md.format_version;
  if (v < 3) {
    Require(out, !md.next_row_id, clauses::kIceV3Members,
            "next-row-id is a v3 field, not allowed in format v" + std::to_string(v),
            std::nullopt, "/next-row-id");
    Require(out, md.extra.count("encryption-keys") == 0, clauses::kIceV3Members,
            "encryption-keys is a v3 field, not allowed in format v" + std::to_string(v),
            std::nullopt, "/encryption-keys");
  }
  if (v == 1) {
    Require(out, !md.last_sequence_number, clauses::kIceV1SequenceNumber,
            "last-sequence-number is a v2 field, not allowed in format v1", std::nullopt,
            "/last-sequence-number");
  }
  return out;
}

/// "`current-schema-id`: ID of the table's current schema" — it must name one of
/// `schemas` (Java: "Cannot find schema with current-schema-id")
/// (ice.current-schema-exists).
Findings CheckCurrentSchemaExists(const TableMetadata& md) {
  Findings out;
  if (md.current_schema_id)
    Require(out, md.CurrentSchema() != nullptr, RuleId::kIceCurrentSchemaExists,
            "current-schema-id " + std::to_string(*md.current_schema_id) +
                " names no schema in schemas",
            std::nullopt, "/current-schema-id");
  return out;
}

/// "`default-spec-id`: ID of the 'current' spec that writers should use by default" — it
/// must name one of `partition-specs`. Spec 0 with an empty `partition-specs` is the
/// implied unpartitioned spec (iceberg-rust reads its update_table_response.json so)
/// (ice.default-spec-exists).
Findings CheckDefaultSpecExists(const TableMetadata& md) {
  Findings out;
  if (!md.default_spec_id) return out;
  if (*md.default_spec_id == 0 && md.partition_specs.empty()) return out;
  bool found = false;
  for (const auto& s : md.partition_specs)
    found = found || s.spec_id == *md.default_spec_id;
  Require(out, found, RuleId::kIceDefaultSpecExists,
          "default-spec-id " + std::to_string(*md.default_spec_id) +
              " names no spec in partition-specs",
          std::nullopt, "/default-spec-id");
  return out;
}

/// "`default-sort-order-id`: Default sort order id of the table" — it must name one of
/// `sort-orders`; "A sort order ID of 0 is reserved for the unsorted order", which may be
/// left out of the list (iceberg-go TestSortOrderUnsorted)
/// (ice.default-sort-order-exists).
Findings CheckDefaultSortOrderExists(const TableMetadata& md) {
  Findings out;
  if (!md.default_sort_order_id || *md.default_sort_order_id == 0) return out;
  bool found = false;
  for (const auto& o : md.sort_orders)
    found = found || o.order_id == *md.default_sort_order_id;
  Require(out, found, RuleId::kIceDefaultSortOrderExists,
          "default-sort-order-id " + std::to_string(*md.default_sort_order_id) +
              " names no sort order in sort-orders",
          std::nullopt, "/default-sort-order-id");
  return out;
}

/// "A sort order ID of 0 is reserved for the unsorted order" (spec "Sorting"): order 0
/// has no fields (ice.sort-order-zero-unsorted).
Findings CheckSortOrderZeroUnsorted(const TableMetadata& md) {
  Findings out;
  for (size_t i = 0; i < md.sort_orders.size(); ++i) {
    const SortOrder& o = md.sort_orders[i];
    if (o.order_id == 0)
      Require(out, o.fields.empty(), RuleId::kIceSortOrderZeroUnsorted,
              "sort order ID 0 is reserved for the unsorted order and cannot have fields",
              std::nullopt, "/sort-orders/" + std::to_string(i) + "/fields");
  }
  return out;
}

/// "`current-snapshot-id`: ID of the current table snapshot" — unless -1 (none), a
/// snapshot in `snapshots` (ice.current-snapshot-exists).
Findings CheckCurrentSnapshotExists(const TableMetadata& md) {
  Findings out;
  if (md.current_snapshot_id && *md.current_snapshot_id != -1)
    Require(out, md.FindSnapshot(*md.current_snapshot_id) != nullptr,
            RuleId::kIceCurrentSnapshotExists,
            "current-snapshot-id " + std::to_string(*md.current_snapshot_id) +
                " names no snapshot in snapshots",
            std::nullopt, "/current-snapshot-id");
  return out;
}

/// "`refs`: A map of snapshot references. The map keys are the unique snapshot reference
/// names in the table, and the map values are snapshot reference objects" whose
/// `snapshot-id` is "A reference's snapshot ID" — a snapshot that exists
/// (iceberg-go / -rust: "snapshot ref foo with ID 2 does not exist")
/// (ice.refs-snapshot-exist).
Findings CheckRefsSnapshotExist(const TableMetadata& md) {
  Findings out;
  for (const auto& [name, ref] : md.refs)
    Require(out, md.FindSnapshot(ref.snapshot_id) != nullptr,
            RuleId::kIceRefsSnapshotExist,
            "ref \"" + name + "\" names snapshot " + std::to_string(ref.snapshot_id) +
                ", which is not in snapshots",
            std::nullopt, "/refs/" + name + "/snapshot-id");
  return out;
}

/// "There is always a `main` branch reference pointing to the `current-snapshot-id` even
/// if the `refs` map is null" (spec "Table Metadata Fields"): when `refs` has `main`, it
/// and `current-snapshot-id` name the same snapshot (iceberg-rust: "Current snapshot id
/// does not match main branch", "Current snapshot is not set, but main branch exists")
/// (ice.current-snapshot-main).
Findings CheckCurrentSnapshotMain(const TableMetadata& md) {
  Findings out;
  auto main = md.refs.find("main");
  if (main == md.refs.end()) return out;
  const bool has_current = md.current_snapshot_id && *md.current_snapshot_id != -1;
  if (!Require(out, has_current, RuleId::kIceCurrentSnapshotMain,
               "the main branch names snapshot " +
                   std::to_string(main->second.snapshot_id) +
                   " but current-snapshot-id is not set",
               std::nullopt, "/current-snapshot-id"))
    return out;
  Require(out, *md.current_snapshot_id == main->second.snapshot_id,
          RuleId::kIceCurrentSnapshotMain,
          "current-snapshot-id " + std::to_string(*md.current_snapshot_id) +
              " does not match the main branch's snapshot " +
              std::to_string(main->second.snapshot_id),
          std::nullopt, "/refs/main/snapshot-id");
  return out;
}

/// "`last-sequence-number`: The table's highest assigned sequence number" — so no
/// snapshot's `sequence-number` is above it (iceberg-rust: "sequence number ... greater
/// than last sequence number") (ice.sequence-number-bound).
Findings CheckSequenceNumberBound(const TableMetadata& md) {
  Findings out;
  if (md.format_version < 2 || !md.last_sequence_number) return out;
  for (size_t i = 0; i < md.snapshots.size(); ++i) {
    const Snapshot& s = md.snapshots[i];
    if (s.sequence_number)
      Require(out, *s.sequence_number <= *md.last_sequence_number,
              RuleId::kIceSequenceNumberBound,
              "snapshot " + std::to_string(s.snapshot_id) + " has sequence number " +
                  std::to_string(*s.sequence_number) + ", above last-sequence-number " +
                  std::to_string(*md.last_sequence_number),
              std::nullopt, "/snapshots/" + std::to_string(i) + "/sequence-number");
  }
  return out;
}

bool SnapshotTimestampAfterParent(int32_t format_version, int64_t timestamp_ms,
                                  int64_t parent_timestamp_ms) {
  return format_version < 4 || timestamp_ms > parent_timestamp_ms;
}

/// "v4 also requires each snapshot's `timestamp-ms` to be strictly greater than its
/// parent's" (SURROUNDINGS.md) (ice.v4-snapshot-timestamps).
Findings CheckV4SnapshotTimestamps(const TableMetadata& md) {
  Findings out;
  if (md.format_version < 4) return out;
  // Each snapshot by its ID, the first of equal IDs as FindSnapshot finds it: one pass,
  // not a search per snapshot (a long history's metadata holds hundreds of snapshots, and
  // this runs on every answer).
  std::unordered_map<SnapshotId, const Snapshot*> by_id;
  by_id.reserve(md.snapshots.size());
  for (const Snapshot& s : md.snapshots) by_id.emplace(s.snapshot_id, &s);
  for (size_t i = 0; i < md.snapshots.size(); ++i) {
    const Snapshot& s = md.snapshots[i];
    if (!s.parent_snapshot_id) continue;
    const auto found = by_id.find(*s.parent_snapshot_id);
    if (found == by_id.end()) continue;
    const Snapshot* parent = found->second;
    Require(out,
            SnapshotTimestampAfterParent(md.format_version, s.timestamp_ms,
                                         parent->timestamp_ms),
            RuleId::kIceV4SnapshotTimestamps,
            "snapshot " + std::to_string(s.snapshot_id) + " has timestamp-ms " +
                std::to_string(s.timestamp_ms) + ", not after its parent's " +
                std::to_string(parent->timestamp_ms),
            std::nullopt, "/snapshots/" + std::to_string(i) + "/timestamp-ms");
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Schema rules

/// "Every field ID, including list element and map key/value IDs, is unique in a schema"
/// (SURROUNDINGS.md; spec "Schemas": "Fields ... identified by a unique field ID")
/// (ice.field-ids-unique).
Findings CheckFieldIdsUnique(const Schema& schema, const std::string& pointer) {
  Findings out;
  std::map<FieldId, std::string> seen;  // id -> name of its first field
  for (const WalkedField& f : Walk(schema, pointer)) {
    auto [it, inserted] = seen.emplace(f.id, f.name);
    Require(out, inserted, RuleId::kIceFieldIdsUnique,
            "multiple fields for id " + std::to_string(f.id) + ": " + it->second +
                " and " + f.name,
            std::nullopt, f.pointer);
  }
  return out;
}

/// "`unknown` fields must be optional with null defaults" (SURROUNDINGS.md; spec
/// "Primitive Types": unknown "Default or null value ... Must be optional with null
/// defaults"). Elements and map values of type unknown must be optional too; map keys are
/// always required, so they cannot be unknown (ice.unknown-optional).
Findings CheckUnknownOptional(const Schema& schema, const std::string& pointer) {
  Findings out;
  for (const WalkedField& f : Walk(schema, pointer)) {
    if (f.type->id != TypeId::kUnknown) continue;
    Require(out, !f.required, RuleId::kIceUnknownOptional,
            "field " + std::to_string(f.id) + " (" + f.name +
                ") has type unknown and must be optional",
            std::nullopt, f.pointer);
  }
  return out;
}

/// The spec's "Primitive Types" table: `unknown`, `timestamp_ns`, `timestamptz_ns`,
/// `geometry`, `geography` and `variant` are "Added in v3" (iceberg-cpp: "unknown is not
/// supported until v3") (ice.types-by-version).
Findings CheckTypesByVersion(const Schema& schema, int format_version,
                             const std::string& pointer) {
  Findings out;
  if (format_version >= 3) return out;
  for (const WalkedField& f : Walk(schema, pointer)) {
    Require(out, !IsV3Type(f.type->id), RuleId::kIceTypesByVersion,
            "field " + std::to_string(f.id) + " (" + f.name + "): type " +
                ToString(f.type->id) + " is not supported until v3 (format v" +
                std::to_string(format_version) + ")",
            std::nullopt, f.pointer);
  }
  return out;
}

/// "Identifier fields (v1-v3): primitive, not float or double, required, may sit in
/// structs but not in a list or map, not under an optional struct" (SURROUNDINGS.md; spec
/// "Identifier Field IDs"); each ID names a field of the schema (ice.identifier-fields).
Findings CheckIdentifierFields(const Schema& schema, const std::string& pointer) {
  Findings out;
  if (!schema.identifier_field_ids) return out;
  const std::vector<WalkedField> fields = Walk(schema, pointer);
  const auto& ids = *schema.identifier_field_ids;
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::string p = pointer + "/identifier-field-ids/" + std::to_string(i);
    const WalkedField* f = nullptr;
    for (const auto& w : fields)
      if (w.id == ids[i]) f = &w;
    if (!Require(out, f != nullptr, clauses::kIceIdentifiersExist,
                 "identifier field " + std::to_string(ids[i]) + " is not in the schema",
                 std::nullopt, p))
      continue;
    const std::string what =
        "identifier field " + std::to_string(f->id) + " (" + f->name + ")";
    const TypeId t = f->type->id;
    Require(out, IsPrimitive(t), clauses::kIceIdentifiersPrimitive,
            what + " must be a primitive type, not " + ToString(t), std::nullopt, p);
    Require(out, t != TypeId::kFloat && t != TypeId::kDouble,
            clauses::kIceIdentifiersNotFloatDouble, what + " must not be float or double",
            std::nullopt, p);
    Require(out, f->required, clauses::kIceIdentifiersRequired, what + " must be required",
            std::nullopt, p);
    Require(out, !f->in_list_or_map, clauses::kIceIdentifiersNotInListMap,
            what + " must not be nested in a list or map", std::nullopt, p);
    Require(out, !f->under_optional_struct, clauses::kIceIdentifiersNotUnderOptional,
            what + " must not be nested in an optional struct", std::nullopt, p);
  }
  return out;
}

// ---------------------------------------------------------------------------------------

std::vector<RuleId> IcebergSchemaRules(std::optional<int> format_version) {
  std::vector<RuleId> out = {RuleId::kIceFieldIdsUnique, RuleId::kIceUnknownOptional};
  if (format_version) out.push_back(RuleId::kIceTypesByVersion);
  // "readers must ignore identifier-field-ids in a v4 table"
  // (upg.readers-ignore-identifiers).
  if (!format_version || *format_version < 4) out.push_back(RuleId::kIceIdentifierFields);
  return out;
}

Findings CheckIcebergSchema(const Schema& schema, std::optional<int> format_version,
                            const std::string& pointer) {
  Findings out;
  auto add = [&out](Findings f) { out.insert(out.end(), f.begin(), f.end()); };
  for (RuleId rule : IcebergSchemaRules(format_version)) {
    switch (rule) {
      case RuleId::kIceFieldIdsUnique: add(CheckFieldIdsUnique(schema, pointer)); break;
      case RuleId::kIceUnknownOptional: add(CheckUnknownOptional(schema, pointer)); break;
      case RuleId::kIceTypesByVersion:
        add(CheckTypesByVersion(schema, *format_version, pointer));
        break;
      case RuleId::kIceIdentifierFields: add(CheckIdentifierFields(schema, pointer)); break;
      default: break;
    }
  }
  return out;
}

namespace {

/// The metadata-level checks of CheckIcebergMetadata, each with its rule: the one list
/// the function runs and IcebergMetadataRules names.
struct MetadataCheck {
  RuleId rule;
  Findings (*check)(const TableMetadata&);
};
constexpr MetadataCheck kMetadataChecks[] = {
    {RuleId::kIceFormatVersionKnown, CheckFormatVersionKnown},
    {RuleId::kIceMetadataRequired, CheckMetadataRequired},
    {RuleId::kIceTableUuid, CheckTableUuid},
    {RuleId::kIceFieldsByVersion, CheckFieldsByVersion},
    {RuleId::kIceCurrentSchemaExists, CheckCurrentSchemaExists},
    {RuleId::kIceDefaultSpecExists, CheckDefaultSpecExists},
    {RuleId::kIceDefaultSortOrderExists, CheckDefaultSortOrderExists},
    {RuleId::kIceSortOrderZeroUnsorted, CheckSortOrderZeroUnsorted},
    {RuleId::kIceCurrentSnapshotExists, CheckCurrentSnapshotExists},
    {RuleId::kIceRefsSnapshotExist, CheckRefsSnapshotExist},
    {RuleId::kIceCurrentSnapshotMain, CheckCurrentSnapshotMain},
    {RuleId::kIceSequenceNumberBound, CheckSequenceNumberBound},
    {RuleId::kIceV4SnapshotTimestamps, CheckV4SnapshotTimestamps},
};

}  // namespace

Findings CheckTableUuidKept(const std::optional<std::string>& before,
                            const TableMetadata& md) {
  if (!before || !md.table_uuid || *md.table_uuid == *before) return {};
  const Clause clause = clauses::kIceTableUuidIdentifies;
  return {Finding{clause.rule, std::nullopt, "/table-uuid",
                  fmt::format("table-uuid changed from {} to {}: it identifies the table",
                              *before, *md.table_uuid),
                  clause.name}};
}

Findings CheckIcebergMetadata(const TableMetadata& md) {
  Findings out;
  auto add = [&out](Findings f) { out.insert(out.end(), f.begin(), f.end()); };
  for (const MetadataCheck& c : kMetadataChecks) add(c.check(md));
  for (size_t i = 0; i < md.schemas.size(); ++i)
    add(CheckIcebergSchema(md.schemas[i], md.format_version, SchemaPointer(i)));
  return out;
}

std::vector<RuleId> IcebergMetadataRules(int format_version) {
  std::vector<RuleId> out;
  for (const MetadataCheck& c : kMetadataChecks) out.push_back(c.rule);
  for (RuleId rule : IcebergSchemaRules(format_version)) out.push_back(rule);
  return out;
}

}  // namespace ictk
