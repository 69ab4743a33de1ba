/// \file
/// Constraints and table metadata from JSON (decode_internal.h), after the Iceberg spec's
/// "Table Metadata Fields" (v1-v4) and the seed's "Constraint Fields": members the sample
/// does not interpret (logs, statistics, unknown keys) are kept as JSON text in `extra`
/// so that a reader writes them back; a v1 `schema`/`partition-spec` stands for the lists.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>

#include "sample/decode_internal.h"

namespace ictk::sample {
namespace {

/// Every member of `object` not in `known`, as JSON text.
ExtraFields Unread(const Slot& object, std::initializer_list<std::string_view> known) {
  ExtraFields out;
  for (const auto& [key, value] : object.json().items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      out[key] = WriteJsonText(value);
  return out;
}

std::vector<int32_t> Ints(const Slot& list) {
  if (!list.IsArray()) list.Expect("an array of integers");
  std::vector<int32_t> out;
  for (size_t i = 0; i < list.Size(); ++i) out.push_back(list.At(i).Int());
  return out;
}

/// An object whose values are kept as strings (non-strings as their JSON text).
std::map<std::string, std::string> Strings(const Slot& object) {
  if (!object.IsObject()) object.Expect("an object of strings");
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : object.json().items())
    out[key] = value.is_string() ? value.get<std::string>() : WriteJsonText(value);
  return out;
}

/// The elements of the array member `key` (absent: none), each read by `read`.
template <typename T, typename Read>
std::vector<T> ListOf(const Slot& parent, std::string_view key, Read read) {
  std::vector<T> out;
  std::optional<Slot> list = parent.Get(key);
  if (!list) return out;
  if (!list->IsArray()) list->Expect("an array");
  for (size_t i = 0; i < list->Size(); ++i) out.push_back(read(list->At(i)));
  return out;
}

/// `source-id`, or the first of v3's `source-ids` when only those are given.
int32_t SourceOf(const Slot& field) {
  if (!field.Get("source-id")) {
    std::optional<Slot> ids = field.Get("source-ids");
    if (ids && ids->IsArray() && ids->Size() > 0) return ids->At(0).Int();
  }
  return field.Need("source-id").Int();
}

PartitionField PartitionFieldOf(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a partition field object");
  PartitionField f;
  f.source_id = SourceOf(slot);
  if (auto id = slot.Get("field-id")) f.field_id = id->Int();
  f.name = slot.Need("name").Text();
  f.transform = slot.Need("transform").Text();
  f.extra = Unread(slot, {"source-id", "field-id", "name", "transform"});
  return f;
}

std::vector<PartitionField> PartitionFieldsOf(const Slot& slot) {
  if (!slot.IsArray()) slot.Expect("an array of partition fields");
  std::vector<PartitionField> out;
  for (size_t i = 0; i < slot.Size(); ++i) out.push_back(PartitionFieldOf(slot.At(i)));
  return out;
}

PartitionSpec SpecOf(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a partition spec object");
  PartitionSpec spec;
  spec.spec_id = slot.Need("spec-id").Int();
  spec.fields = PartitionFieldsOf(slot.Need("fields"));
  return spec;
}

SortOrder OrderOf(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a sort order object");
  SortOrder order;
  order.order_id = slot.Need("order-id").Int();
  const Slot fields = slot.Need("fields");
  if (!fields.IsArray()) fields.Expect("an array of sort fields");
  for (size_t i = 0; i < fields.Size(); ++i) {
    const Slot f = fields.At(i);
    if (!f.IsObject()) f.Expect("a sort field object");
    SortField field;
    field.transform = f.Need("transform").Text();
    field.source_id = SourceOf(f);
    field.direction = f.Need("direction").Text();
    field.null_order = f.Need("null-order").Text();
    field.extra = Unread(f, {"transform", "source-id", "direction", "null-order"});
    order.fields.push_back(std::move(field));
  }
  return order;
}

ConstraintStatuses StatusesOf(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a constraint-statuses object");
  ConstraintStatuses out;
  for (const auto& [key, value] : slot.json().items()) {
    const Slot list(value, PointerTo(slot.where(), key));
    std::optional<std::vector<ConstraintId>>* target = nullptr;
    if (key == "validated") target = &out.validated;
    else if (key == "valid") target = &out.valid;
    else if (key == "invalid") target = &out.invalid;
    else if (key == "unvalidated") target = &out.unvalidated;
    else list.Fail("not a status list (validated, valid, invalid, unvalidated)");
    if (!list.IsNull()) *target = Ints(list);
  }
  return out;
}

Snapshot SnapshotOf(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a snapshot object");
  Snapshot s;
  s.snapshot_id = slot.Need("snapshot-id").Long();
  if (auto p = slot.Get("parent-snapshot-id")) s.parent_snapshot_id = p->Long();
  if (auto n = slot.Get("sequence-number")) s.sequence_number = n->Long();
  s.timestamp_ms = slot.Need("timestamp-ms").Long();
  if (auto summary = slot.Get("summary")) s.summary = Strings(*summary);
  if (auto id = slot.Get("schema-id")) s.schema_id = id->Int();
  if (auto list = slot.Get("manifest-list")) s.manifest_list = list->Text();
  if (auto first = slot.Get("first-row-id")) s.first_row_id = first->Long();
  if (auto added = slot.Get("added-rows")) s.added_rows = added->Long();
  if (auto st = slot.Get("constraint-statuses")) s.constraint_statuses = StatusesOf(*st);
  s.extra = Unread(slot, {"snapshot-id", "parent-snapshot-id", "sequence-number",
                          "timestamp-ms", "summary", "schema-id", "manifest-list",
                          "first-row-id", "added-rows", "constraint-statuses"});
  return s;
}

SnapshotRef RefOf(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a snapshot reference object");
  SnapshotRef ref;
  ref.snapshot_id = slot.Need("snapshot-id").Long();
  ref.type = slot.Need("type").Text();
  ref.extra = Unread(slot, {"snapshot-id", "type"});
  return ref;
}

/// A member v2 and later require.
void RequiredSince2(const Slot& slot, int version, std::string_view key) {
  if (version >= 2 && !slot.Get(key))
    slot.Fail(fmt::format("format v{} requires \"{}\"", version, key));
}

/// The schemas: `schemas` and `current-schema-id`, or v1's single `schema`.
void SchemasOf(const Slot& slot, TableMetadata& md) {
  RequiredSince2(slot, md.format_version, "schemas");
  const bool listed = slot.Get("schemas").has_value();
  md.schemas = ListOf<Schema>(slot, "schemas", DecodeSchema);
  if (auto id = slot.Get("current-schema-id")) md.current_schema_id = id->Int();
  std::optional<Slot> single = slot.Get("schema");
  if (!single) return;
  Schema schema = DecodeSchema(*single);
  md.has_legacy_schema = true;
  if (!listed) {
    if (!md.current_schema_id) md.current_schema_id = schema.schema_id;
    md.schemas.push_back(std::move(schema));
    return;
  }
  if (md.current_schema_id) return;
  for (const Schema& s : md.schemas) {
    if (s.fields == schema.fields && (!schema.schema_id || s.schema_id == schema.schema_id)) {
      md.current_schema_id = s.schema_id;
      return;
    }
  }
  single->Fail("without current-schema-id, \"schema\" must be one of \"schemas\"");
}

/// The partition specs: `partition-specs` and `default-spec-id`, or v1's fields.
void SpecsOf(const Slot& slot, TableMetadata& md) {
  RequiredSince2(slot, md.format_version, "partition-specs");
  const bool listed = slot.Get("partition-specs").has_value();
  md.partition_specs = ListOf<PartitionSpec>(slot, "partition-specs", SpecOf);
  if (auto id = slot.Get("default-spec-id")) md.default_spec_id = id->Int();
  if (std::optional<Slot> single = slot.Get("partition-spec")) {
    std::vector<PartitionField> fields = PartitionFieldsOf(*single);
    md.has_legacy_partition_spec = true;
    if (!listed) md.partition_specs.push_back({md.default_spec_id.value_or(0), std::move(fields)});
  }
  if (auto id = slot.Get("last-partition-id")) md.last_partition_id = id->Int();
}

void SnapshotsAndRefsOf(const Slot& slot, TableMetadata& md) {
  if (auto id = slot.Get("current-snapshot-id")) md.current_snapshot_id = id->Long();
  md.snapshots = ListOf<Snapshot>(slot, "snapshots", SnapshotOf);
  if (std::optional<Slot> refs = slot.Get("refs")) {
    if (!refs->IsObject()) refs->Expect("an object of snapshot references");
    for (const auto& [name, ref] : refs->json().items())
      md.refs[name] = RefOf(Slot(ref, PointerTo(refs->where(), name)));
  }
}

}  // namespace

Constraint DecodeConstraint(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a constraint object");
  Constraint c;
  if (auto id = slot.Get("constraint-id")) c.id = id->Int();
  if (auto type = slot.Get("type")) {
    c.raw_type = type->Text();
    if (c.raw_type == "check") c.type = ConstraintType::kCheck;
    if (c.raw_type == "unique") c.type = ConstraintType::kUnique;
    if (c.raw_type == "primary-key") c.type = ConstraintType::kPrimaryKey;
  }
  if (auto name = slot.Get("name")) c.name = name->Text();
  if (auto enforced = slot.Get("enforced")) c.enforced = enforced->Bool();
  if (auto ts = slot.Get("timestamp-ms")) c.timestamp_ms = ts->Long();
  if (auto e = slot.Get("expression")) c.expression = DecodePredicate(*e);
  if (auto ids = slot.Get("field-ids")) c.field_ids = Ints(*ids);
  return c;
}

TableMetadata DecodeMetadata(const Slot& slot) {
  if (!slot.IsObject()) slot.Expect("a table metadata object");
  TableMetadata md;
  md.format_version = slot.Need("format-version").Int();
  if (auto uuid = slot.Get("table-uuid")) md.table_uuid = uuid->Text();
  if (auto location = slot.Get("location")) md.location = location->Text();
  if (auto n = slot.Get("last-sequence-number")) md.last_sequence_number = n->Long();
  md.last_updated_ms = slot.Need("last-updated-ms").Long();
  md.last_column_id = slot.Need("last-column-id").Int();
  SchemasOf(slot, md);
  SpecsOf(slot, md);
  RequiredSince2(slot, md.format_version, "sort-orders");
  md.sort_orders = ListOf<SortOrder>(slot, "sort-orders", OrderOf);
  if (auto id = slot.Get("default-sort-order-id")) md.default_sort_order_id = id->Int();
  if (auto id = slot.Get("next-row-id")) md.next_row_id = id->Long();
  if (auto props = slot.Get("properties")) md.properties = Strings(*props);
  SnapshotsAndRefsOf(slot, md);
  if (auto id = slot.Get("last-constraint-id")) md.last_constraint_id = id->Int();
  if (slot.Get("constraints"))
    md.constraints = ListOf<Constraint>(slot, "constraints", DecodeConstraint);
  md.extra = Unread(slot, {"format-version", "table-uuid", "location",
                           "last-sequence-number", "last-updated-ms", "last-column-id",
                           "schemas", "schema", "current-schema-id", "partition-specs",
                           "partition-spec", "default-spec-id", "last-partition-id",
                           "sort-orders", "default-sort-order-id", "next-row-id",
                           "properties", "current-snapshot-id", "snapshots", "refs",
                           "last-constraint-id", "constraints"});
  std::erase_if(md.extra, [](const auto& member) { return member.second == "null"; });
  return md;
}

}  // namespace ictk::sample
