// RapidCheck properties: encoding then decoding is the identity on generated table
// metadata (schemas with nested types, constraints with ID-form and legacy expressions,
// snapshots with constraint statuses, unmodeled members) and on generated check
// expressions.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "codec/json_expression.h"
#include "codec/json_table_metadata.h"
#include "codec/json_text.h"
#include "tests/codec/roundtrip_gen_internal.h"

namespace ictk::roundtrip_test {
namespace {

using nlohmann::json;

// ---- constraints, snapshots, metadata ----

Constraint GenConstraint() {
  Constraint c;
  c.id = Maybe(gen::inRange(0, 100));
  c.raw_type =
      *gen::element<std::string>("check", "unique", "primary-key", "foreign-key", "");
  c.type = ParseConstraintType(c.raw_type);
  c.name = Maybe(Name());
  c.enforced = Maybe(gen::arbitrary<bool>());
  c.timestamp_ms = Maybe(gen::arbitrary<int64_t>());
  if (*gen::arbitrary<bool>()) c.expression = GenPredicate(3);
  c.field_ids = Maybe(gen::container<std::vector<FieldId>>(gen::inRange(-1, 20)));
  return c;
}

ConstraintStatuses GenStatuses() {
  ConstraintStatuses s;
  for (ConstraintStatus st : kAllStatuses)
    s.List(st) = Maybe(gen::container<std::vector<ConstraintId>>(gen::inRange(0, 10)));
  return s;
}

ExtraFields GenExtra(std::vector<std::string> keys) {
  ExtraFields extra;
  for (const auto& k : keys) {
    if (*gen::inRange(0, 3) != 0) continue;
    extra[k] = *gen::element<std::string>("[]", "[1,2]", "{\"a\":\"b\"}", "\"s\"", "7",
                                          "true", "{\"n\":{\"m\":[null,1.5]}}");
  }
  return extra;
}

std::map<std::string, std::string> GenStringMap(std::vector<std::string> keys) {
  std::map<std::string, std::string> m;
  for (const auto& k : keys)
    if (*gen::arbitrary<bool>()) m[k] = *Name();
  return m;
}

Snapshot GenSnapshot(SnapshotId id) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = Maybe(gen::inRange<int64_t>(1, 5));
  s.sequence_number = Maybe(gen::inRange<int64_t>(0, 10));
  s.timestamp_ms = *gen::arbitrary<int64_t>();
  s.summary = GenStringMap({"operation", "added-records", "spark.app.id"});
  s.schema_id = Maybe(gen::inRange(0, 4));
  s.manifest_list = Maybe(gen::element<std::string>("s3://b/m.avro", ""));
  s.first_row_id = Maybe(gen::inRange<int64_t>(0, 100));
  s.added_rows = Maybe(gen::inRange<int64_t>(0, 100));
  if (*gen::arbitrary<bool>()) s.constraint_statuses = GenStatuses();
  s.extra = GenExtra({"manifests", "key-id", "root-manifest"});
  return s;
}

TableMetadata GenMetadata() {
  TableMetadata md;
  md.format_version = *gen::inRange(1, 5);
  md.table_uuid =
      Maybe(gen::element<std::string>("9c12d441-03fe-4693-9a96-a0705ddf69c1", "x"));
  md.location = Maybe(gen::element<std::string>("s3://bucket/t", ""));
  md.last_sequence_number = Maybe(gen::inRange<int64_t>(0, 100));
  md.last_updated_ms = *gen::arbitrary<int64_t>();
  md.last_column_id = *gen::arbitrary<int32_t>();
  const int n_schemas = *gen::inRange(0, 3);
  for (int i = 0; i < n_schemas; ++i) md.schemas.push_back(GenSchema());
  md.current_schema_id = Maybe(gen::inRange(0, 4));
  const int n_specs = *gen::inRange(0, 3);
  for (int i = 0; i < n_specs; ++i) {
    PartitionSpec spec;
    spec.spec_id = i;
    const int n = *gen::inRange(0, 3);
    for (int k = 0; k < n; ++k) {
      PartitionField f;
      f.source_id = *gen::inRange(1, 10);
      f.field_id = Maybe(gen::inRange(1000, 1010));
      f.name = *Name();
      f.transform = *gen::element<std::string>("identity", "bucket[4]", "day", "void");
      f.extra = GenExtra({"source-ids"});
      spec.fields.push_back(std::move(f));
    }
    md.partition_specs.push_back(std::move(spec));
  }
  md.default_spec_id = Maybe(gen::inRange(0, 3));
  md.last_partition_id = Maybe(gen::inRange(999, 1010));
  const int n_orders = *gen::inRange(0, 3);
  for (int i = 0; i < n_orders; ++i) {
    SortOrder o;
    o.order_id = i;
    const int n = *gen::inRange(0, 3);
    for (int k = 0; k < n; ++k) {
      SortField f;
      f.transform = *gen::element<std::string>("identity", "bucket[4]");
      f.source_id = *gen::inRange(1, 10);
      f.direction = *gen::element<std::string>("asc", "desc");
      f.null_order = *gen::element<std::string>("nulls-first", "nulls-last");
      f.extra = GenExtra({"source-ids"});
      o.fields.push_back(std::move(f));
    }
    md.sort_orders.push_back(std::move(o));
  }
  md.default_sort_order_id = Maybe(gen::inRange(0, 3));
  md.next_row_id = Maybe(gen::inRange<int64_t>(0, 1000));
  md.properties = GenStringMap({"owner", "write.format.default", "a.b"});
  md.current_snapshot_id = Maybe(gen::inRange<int64_t>(-1, 5));
  const int n_snapshots = *gen::inRange(0, 4);
  for (int i = 0; i < n_snapshots; ++i) md.snapshots.push_back(GenSnapshot(i + 1));
  for (const char* name : {"main", "b1", "t1"}) {
    if (*gen::arbitrary<bool>()) continue;
    SnapshotRef ref;
    ref.snapshot_id = *gen::inRange<int64_t>(1, 5);
    ref.type = *gen::element<std::string>("branch", "tag");
    ref.extra = GenExtra({"max-ref-age-ms", "min-snapshots-to-keep"});
    md.refs[name] = std::move(ref);
  }
  md.last_constraint_id = Maybe(gen::inRange(0, 100));
  if (*gen::arbitrary<bool>()) {
    md.constraints.emplace();
    const int n = *gen::inRange(0, 4);
    for (int i = 0; i < n; ++i) md.constraints->push_back(GenConstraint());
  }
  // v1's legacy members, in the shapes the decoder produces them: `schema` beside a
  // current-schema-id (without one, decoding derives it).
  if (md.format_version == 1) {
    md.has_legacy_schema =
        !md.schemas.empty() && md.current_schema_id && *gen::arbitrary<bool>();
    md.has_legacy_partition_spec = *gen::arbitrary<bool>();
  }
  md.extra = GenExtra({"metadata-log", "snapshot-log", "statistics", "x-unknown"});
  return md;
}

RC_GTEST_PROP(TableMetadataRoundTrip, EncodeThenDecodeIsIdentity, ()) {
  // Full size from the first case: inRange otherwise scales with RapidCheck's size.
  const TableMetadata md = *gen::resize(100, gen::exec(GenMetadata));
  const json encoded = TableMetadataToJson(md);
  RC_LOG() << DumpJson(encoded, 1) << "\n";
  auto decoded = TableMetadataFromJson(encoded);
  RC_ASSERT(decoded.has_value());
  RC_ASSERT(*decoded == md);
  // Through the text form as well, and the text is deterministic.
  auto reparsed = ParseJsonText(DumpJson(encoded), "encoded");
  RC_ASSERT(reparsed.has_value());
  auto again = TableMetadataFromJson(*reparsed);
  RC_ASSERT(again.has_value());
  RC_ASSERT(*again == md);
  RC_ASSERT(DumpJson(TableMetadataToJson(*again)) == DumpJson(encoded));
}

RC_GTEST_PROP(ExpressionRoundTrip, EncodeThenDecodeIsIdentity, ()) {
  const Expr e = *gen::resize(100, gen::exec([] { return GenPredicate(4); }));
  const json encoded = ExpressionToJson(e);
  RC_LOG() << DumpJson(encoded) << "\n";
  auto decoded = ExpressionFromJson(encoded, "");
  RC_ASSERT(decoded.has_value());
  RC_ASSERT(*decoded == e);
}

}  // namespace
}  // namespace ictk::roundtrip_test
