/// \file
/// Table metadata and rows as JSON (encode_internal.h). Optional members are written only
/// when present; lists always; the members kept in `extra` first, so that the spec's own
/// members win over a stray copy.
#include <fmt/format.h>

#include "sample/decode_internal.h"
#include "sample/encode_internal.h"
#include "sample/single_value_internal.h"
#include "sample/wire_internal.h"

namespace ictk::sample {

using nlohmann::json;

namespace {

json TypeJson(const Type& type);

/// Members kept as JSON text, back as JSON (text that is not JSON as a string).
void PutExtra(const ExtraFields& extra, json& out) {
  for (const auto& [key, text] : extra) {
    json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
    out[key] = value.is_discarded() ? json(text) : std::move(value);
  }
}

json FieldJson(const NestedField& f) {
  json out = {{"id", f.id}, {"name", f.name}, {"required", f.required}, {"type", TypeJson(f.type)}};
  if (f.doc) out["doc"] = *f.doc;
  ExtraFields defaults;
  if (f.initial_default_json) defaults["initial-default"] = *f.initial_default_json;
  if (f.write_default_json) defaults["write-default"] = *f.write_default_json;
  PutExtra(defaults, out);
  return out;
}

std::string PrimitiveText(const Type& type) {
  switch (type.id) {
    case TypeId::kDecimal:
      return fmt::format("decimal({}, {})", type.precision, type.scale);
    case TypeId::kFixed:
      return fmt::format("fixed[{}]", type.length);
    case TypeId::kGeometry:
      return fmt::format("geometry({})", type.crs.empty() ? "OGC:CRS84" : type.crs);
    case TypeId::kGeography:
      return fmt::format("geography({}, {})", type.crs.empty() ? "OGC:CRS84" : type.crs,
                         type.algorithm.empty() ? "spherical" : type.algorithm);
    default:
      return ToString(type.id);
  }
}

json TypeJson(const Type& type) {
  const size_t n = type.children.size();
  switch (type.id) {
    case TypeId::kStruct: {
      json fields = json::array();
      for (const NestedField& f : type.fields) fields.push_back(FieldJson(f));
      return {{"type", "struct"}, {"fields", std::move(fields)}};
    }
    case TypeId::kList:
      return {{"type", "list"},
              {"element-id", type.element_id},
              {"element-required", type.element_required},
              {"element", n == 0 ? json("unknown") : TypeJson(type.element())}};
    case TypeId::kMap:
      return {{"type", "map"},
              {"key-id", type.key_id},
              {"key", n < 2 ? json("unknown") : TypeJson(type.key())},
              {"value-id", type.value_id},
              {"value-required", type.value_required},
              {"value", n < 2 ? json("unknown") : TypeJson(type.value())}};
    default:
      return PrimitiveText(type);
  }
}

json SchemaJson(const Schema& schema) {
  json fields = json::array();
  for (const NestedField& f : schema.fields) fields.push_back(FieldJson(f));
  json out = {{"type", "struct"}, {"fields", std::move(fields)}};
  if (schema.schema_id) out["schema-id"] = *schema.schema_id;
  if (schema.identifier_field_ids) out["identifier-field-ids"] = *schema.identifier_field_ids;
  return out;
}

// --- expressions ---------------------------------------------------------------------

json ExprJson(const Expr& e);
json TermJson(const Expr& e);

bool Unary(ExprOp op) {
  return op == ExprOp::kIsNull || op == ExprOp::kNotNull || op == ExprOp::kIsNan ||
         op == ExprOp::kNotNan;
}
bool Comparison(ExprOp op) { return op >= ExprOp::kLt && op <= ExprOp::kNotStartsWith; }
bool SetOp(ExprOp op) { return op == ExprOp::kIn || op == ExprOp::kNotIn; }
bool TermOp(ExprOp op) { return op >= ExprOp::kReference; }

json LiteralJson(const Expr& e) {
  const Value v = e.values.empty() ? Value() : e.values[0];
  if (!e.data_type) return WriteUntyped(v);
  return {{"type", "literal"}, {"value", WriteTyped(v, *e.data_type)},
          {"data-type", TypeJson(*e.data_type)}};
}

/// A legacy term: a column name as a bare string.
json OlderTermJson(const Expr& e) {
  return e.op == ExprOp::kNamedReference ? json(e.name) : TermJson(e);
}

/// "bucket[16]" for an apply read from a legacy transform term.
std::optional<std::string> TransformName(const Expr& e) {
  if (e.op != ExprOp::kApply || !e.legacy_form || e.function.size() != 1) return std::nullopt;
  if (e.catalog && *e.catalog != "iceberg_functions") return std::nullopt;
  const std::string& f = e.function[0];
  if ((f == "identity" || f == "year" || f == "month" || f == "day" || f == "hour") &&
      e.children.size() == 1)
    return f;
  if ((f == "bucket" || f == "truncate") && e.children.size() == 2) {
    const Expr& w = e.children[0];
    if (w.op == ExprOp::kLiteral && !w.data_type && w.values.size() == 1 &&
        w.values[0].kind == ValueKind::kLong)
      return fmt::format("{}[{}]", f, w.values[0].as_long());
  }
  return std::nullopt;
}

json ApplyJson(const Expr& e) {
  if (std::optional<std::string> transform = TransformName(e))
    return {{"type", "transform"}, {"transform", *transform},
            {"term", OlderTermJson(e.children.back())}};
  json function;
  if (e.catalog) {
    function = {{"catalog", *e.catalog}, {"identifier", e.function}};
  } else if (e.function.size() == 1) {
    function = e.function[0];
  } else {
    function = e.function;
  }
  json args = json::array();
  for (const Expr& a : e.children) args.push_back(ExprJson(a));
  return {{"type", "apply"}, {"function", std::move(function)}, {"arguments", std::move(args)}};
}

json TermJson(const Expr& e) {
  switch (e.op) {
    case ExprOp::kReference:
      return {{"type", "reference"}, {"id", e.field_id}};
    case ExprOp::kNamedReference:
      return {{"type", "reference"}, {"term", e.name}};
    case ExprOp::kLiteral:
      return LiteralJson(e);
    case ExprOp::kParameter:
      return {{"type", "parameter"}, {"name", e.name}};
    case ExprOp::kApply:
      return ApplyJson(e);
    default:
      return ExprJson(e);
  }
}

json SetValuesJson(const Expr& e) {
  json values = json::array();
  for (const Value& v : e.values)
    values.push_back(e.data_type ? WriteTyped(v, *e.data_type) : WriteUntyped(v));
  if (!e.data_type) return values;
  return {{"type", "literals"}, {"values", std::move(values)},
          {"data-type", TypeJson(*e.data_type)}};
}

/// Whether a predicate read in the older `term`/`value` form is written in it again.
bool WritesOlderForm(const Expr& e) {
  if (!e.legacy_form || e.children.empty() || e.children[0].op == ExprOp::kLiteral)
    return false;
  if (Comparison(e.op)) return e.children.size() == 2 && e.children[1].op == ExprOp::kLiteral;
  return e.children.size() == 1;
}

json LeafJson(const Expr& e) {
  json out = {{"type", OpText(e.op)}};
  const bool older = WritesOlderForm(e);
  const size_t n = e.children.size();
  if (Comparison(e.op)) {
    if (n < 2) return out;
    if (older) {
      out["term"] = OlderTermJson(e.children[0]);
      out["value"] = LiteralJson(e.children[1]);
    } else {
      out["left"] = TermJson(e.children[0]);
      out["right"] = TermJson(e.children[1]);
    }
    return out;
  }
  if (n > 0) {
    if (older) {
      out["term"] = OlderTermJson(e.children[0]);
    } else {
      out["child"] = TermJson(e.children[0]);
    }
  }
  if (SetOp(e.op)) out["values"] = SetValuesJson(e);
  return out;
}

json ExprJson(const Expr& e) {
  const size_t n = e.children.size();
  switch (e.op) {
    case ExprOp::kTrue:
      return true;
    case ExprOp::kFalse:
      return false;
    case ExprOp::kNot:
      return {{"type", "not"}, {"child", n > 0 ? ExprJson(e.children[0]) : json(true)}};
    case ExprOp::kAnd:
    case ExprOp::kOr:
      return {{"type", e.op == ExprOp::kAnd ? "and" : "or"},
              {"left", n > 0 ? ExprJson(e.children[0]) : json(true)},
              {"right", n > 1 ? ExprJson(e.children[1]) : json(true)}};
    default:
      break;
  }
  if (TermOp(e.op)) return TermJson(e);
  if (Unary(e.op) || Comparison(e.op) || SetOp(e.op)) return LeafJson(e);
  return {{"type", OpText(e.op)}};
}

// --- metadata ------------------------------------------------------------------------

json ConstraintJson(const Constraint& c) {
  json out = json::object();
  if (c.id) out["constraint-id"] = *c.id;
  if (!c.raw_type.empty()) {
    out["type"] = c.raw_type;
  } else if (c.type) {
    out["type"] = std::string(ToString(*c.type));
  }
  if (c.name) out["name"] = *c.name;
  if (c.enforced) out["enforced"] = *c.enforced;
  if (c.timestamp_ms) out["timestamp-ms"] = *c.timestamp_ms;
  if (c.expression) out["expression"] = ExprJson(*c.expression);
  if (c.field_ids) out["field-ids"] = *c.field_ids;
  return out;
}

json StatusesJson(const ConstraintStatuses& s) {
  json out = json::object();
  if (s.validated) out["validated"] = *s.validated;
  if (s.valid) out["valid"] = *s.valid;
  if (s.invalid) out["invalid"] = *s.invalid;
  if (s.unvalidated) out["unvalidated"] = *s.unvalidated;
  return out;
}

json SnapshotJson(const Snapshot& s) {
  json out = json::object();
  PutExtra(s.extra, out);
  out["snapshot-id"] = s.snapshot_id;
  if (s.parent_snapshot_id) out["parent-snapshot-id"] = *s.parent_snapshot_id;
  if (s.sequence_number) out["sequence-number"] = *s.sequence_number;
  out["timestamp-ms"] = s.timestamp_ms;
  if (!s.summary.empty()) out["summary"] = s.summary;
  if (s.schema_id) out["schema-id"] = *s.schema_id;
  if (s.manifest_list) out["manifest-list"] = *s.manifest_list;
  if (s.first_row_id) out["first-row-id"] = *s.first_row_id;
  if (s.added_rows) out["added-rows"] = *s.added_rows;
  if (s.constraint_statuses) out["constraint-statuses"] = StatusesJson(*s.constraint_statuses);
  return out;
}

json PartitionFieldsJson(const std::vector<PartitionField>& fields) {
  json out = json::array();
  for (const PartitionField& f : fields) {
    json field = json::object();
    PutExtra(f.extra, field);
    field["source-id"] = f.source_id;
    if (f.field_id) field["field-id"] = *f.field_id;
    field["name"] = f.name;
    field["transform"] = f.transform;
    out.push_back(std::move(field));
  }
  return out;
}

json SortOrderJson(const SortOrder& order) {
  json fields = json::array();
  for (const SortField& f : order.fields) {
    json field = json::object();
    PutExtra(f.extra, field);
    field["transform"] = f.transform;
    field["source-id"] = f.source_id;
    field["direction"] = f.direction;
    field["null-order"] = f.null_order;
    fields.push_back(std::move(field));
  }
  return {{"order-id", order.order_id}, {"fields", std::move(fields)}};
}

void PutSchemasAndSpecs(const TableMetadata& md, json& out) {
  json schemas = json::array();
  for (const Schema& s : md.schemas) schemas.push_back(SchemaJson(s));
  out["schemas"] = std::move(schemas);
  if (md.current_schema_id) out["current-schema-id"] = *md.current_schema_id;
  if (md.has_legacy_schema) {
    const Schema* current = nullptr;
    for (const Schema& s : md.schemas)
      if (!current && s.schema_id.value_or(0) == md.current_schema_id.value_or(0)) current = &s;
    if (current == nullptr && !md.schemas.empty()) current = &md.schemas.front();
    if (current != nullptr) out["schema"] = SchemaJson(*current);
  }
  json specs = json::array();
  for (const PartitionSpec& spec : md.partition_specs)
    specs.push_back({{"spec-id", spec.spec_id}, {"fields", PartitionFieldsJson(spec.fields)}});
  out["partition-specs"] = std::move(specs);
  if (md.has_legacy_partition_spec) {
    const PartitionSpec* chosen = nullptr;
    for (const PartitionSpec& spec : md.partition_specs)
      if (spec.spec_id == md.default_spec_id.value_or(0)) chosen = &spec;
    if (chosen == nullptr && !md.partition_specs.empty()) chosen = &md.partition_specs.front();
    out["partition-spec"] = chosen ? PartitionFieldsJson(chosen->fields) : json::array();
  }
  if (md.default_spec_id) out["default-spec-id"] = *md.default_spec_id;
  if (md.last_partition_id) out["last-partition-id"] = *md.last_partition_id;
}

void PutSnapshotsAndConstraints(const TableMetadata& md, json& out) {
  if (md.current_snapshot_id) out["current-snapshot-id"] = *md.current_snapshot_id;
  json snapshots = json::array();
  for (const Snapshot& s : md.snapshots) snapshots.push_back(SnapshotJson(s));
  out["snapshots"] = std::move(snapshots);
  if (!md.refs.empty()) {
    json refs = json::object();
    for (const auto& [name, ref] : md.refs) {
      json r = json::object();
      PutExtra(ref.extra, r);
      r["snapshot-id"] = ref.snapshot_id;
      r["type"] = ref.type;
      refs[name] = std::move(r);
    }
    out["refs"] = std::move(refs);
  }
  if (md.last_constraint_id) out["last-constraint-id"] = *md.last_constraint_id;
  if (md.constraints) {
    json list = json::array();
    for (const Constraint& c : *md.constraints) list.push_back(ConstraintJson(c));
    out["constraints"] = std::move(list);
  }
}

}  // namespace

json MetadataJson(const TableMetadata& md) {
  json out = json::object();
  PutExtra(md.extra, out);
  out["format-version"] = md.format_version;
  if (md.table_uuid) out["table-uuid"] = *md.table_uuid;
  if (md.location) out["location"] = *md.location;
  if (md.last_sequence_number) out["last-sequence-number"] = *md.last_sequence_number;
  out["last-updated-ms"] = md.last_updated_ms;
  out["last-column-id"] = md.last_column_id;
  PutSchemasAndSpecs(md, out);
  json orders = json::array();
  for (const SortOrder& o : md.sort_orders) orders.push_back(SortOrderJson(o));
  out["sort-orders"] = std::move(orders);
  if (md.default_sort_order_id) out["default-sort-order-id"] = *md.default_sort_order_id;
  if (md.next_row_id) out["next-row-id"] = *md.next_row_id;
  if (!md.properties.empty()) out["properties"] = md.properties;
  PutSnapshotsAndConstraints(md, out);
  return out;
}

json RowJson(const Row& row, const std::vector<NestedField>& fields) {
  json values = WriteTyped(row.values, Type::Struct(fields));
  if (!values.is_object()) values = json::object();
  return {{"key", row.key}, {"values", std::move(values)}};
}

}  // namespace ictk::sample
