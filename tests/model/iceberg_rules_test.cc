// The surrounding Iceberg rules (ice.*, model/rules/iceberg_rules.h): each rule passes on valid
// metadata and fires, with its rule ID and pointer, on metadata that breaks it.
#include "model/rules/iceberg_rules.h"
#include "tests/model/field_test_util_internal.h"

#include <gtest/gtest.h>

namespace ictk {
namespace {

using testing_util::Field;

/// A valid v2 table: schema 0 {1: id long required, 2: data string}, one snapshot on
/// main.
TableMetadata Valid(int format_version = 2) {
  TableMetadata md;
  md.format_version = format_version;
  md.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  md.location = "s3://bucket/t";
  md.last_sequence_number = 1;
  md.last_updated_ms = 1700000000000;
  md.last_column_id = 2;
  Schema s;
  s.schema_id = 0;
  s.fields = {Field(1, "id", true, Type::Primitive(TypeId::kLong)),
              Field(2, "data", false, Type::Primitive(TypeId::kString))};
  md.schemas = {s};
  md.current_schema_id = 0;
  md.partition_specs = {PartitionSpec{0, {}}};
  md.default_spec_id = 0;
  md.last_partition_id = 999;
  md.sort_orders = {SortOrder{0, {}}};
  md.default_sort_order_id = 0;
  if (format_version >= 3) md.next_row_id = 0;
  Snapshot snap;
  snap.snapshot_id = 10;
  snap.sequence_number = 1;
  snap.timestamp_ms = 1700000000000;
  snap.summary = {{"operation", "append"}};
  md.snapshots = {snap};
  md.current_snapshot_id = 10;
  md.refs["main"] = SnapshotRef{10, "branch", {}};
  return md;
}

/// The rules that fired, as dotted IDs.
std::vector<std::string> Rules(const Findings& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.emplace_back(RuleIdName(f.rule));
  return out;
}

using Ids = std::vector<std::string>;

TEST(IcebergRules, ValidMetadataOfEveryVersionPasses) {
  for (int v = 1; v <= 4; ++v) {
    TableMetadata md = Valid(v);
    if (v == 1) {
      md.table_uuid.reset();
      md.last_sequence_number.reset();
    }
    EXPECT_EQ(Rules(CheckIcebergMetadata(md)), Ids{}) << "v" << v;
  }
}

TEST(IceFormatVersionKnown, UnknownVersionsAreRejected) {
  SCOPED_TRACE("ice.format-version-known");
  for (int v : {0, -1, 5, 42}) {
    TableMetadata md = Valid();
    md.format_version = v;
    Findings f = CheckFormatVersionKnown(md);
    ASSERT_EQ(Rules(f), Ids{"ice.format-version-known"}) << v;
    EXPECT_EQ(f[0].pointer, "/format-version");
  }
}

TEST(IceMetadataRequired, MembersRequiredByVersion) {
  SCOPED_TRACE("ice.metadata-required");
  TableMetadata md = Valid(2);
  md.last_partition_id.reset();
  Findings f = CheckMetadataRequired(md);
  ASSERT_EQ(Rules(f), Ids{"ice.metadata-required"});
  EXPECT_EQ(f[0].pointer, "/last-partition-id");
  // next-row-id from v3; location only before v4.
  md = Valid(3);
  md.next_row_id.reset();
  EXPECT_EQ(Rules(CheckMetadataRequired(md)), Ids{"ice.metadata-required"});
  md = Valid(4);
  md.location.reset();
  EXPECT_EQ(Rules(CheckMetadataRequired(md)), Ids{});
  md = Valid(3);
  md.location.reset();
  EXPECT_EQ(Rules(CheckMetadataRequired(md)), Ids{"ice.metadata-required"});
  // v1: table-uuid optional; `schema` or `schemas` + `current-schema-id`.
  md = Valid(1);
  md.table_uuid.reset();
  md.last_sequence_number.reset();
  md.last_partition_id.reset();
  EXPECT_EQ(Rules(CheckMetadataRequired(md)), Ids{});
  md.current_schema_id.reset();
  EXPECT_EQ(Rules(CheckMetadataRequired(md)), Ids{"ice.metadata-required"});
  md.has_legacy_schema = true;
  EXPECT_EQ(Rules(CheckMetadataRequired(md)), Ids{});
}

TEST(IceTableUuid, MustBeAUuid) {
  SCOPED_TRACE("ice.table-uuid");
  TableMetadata md = Valid();
  EXPECT_EQ(Rules(CheckTableUuid(md)), Ids{});
  md.table_uuid = "test-uuid-1234";
  EXPECT_EQ(Rules(CheckTableUuid(md)), Ids{"ice.table-uuid"});
}

TEST(IceFieldsByVersion, V3MembersNotBeforeV3) {
  SCOPED_TRACE("ice.fields-by-version");
  TableMetadata md = Valid(2);
  md.extra["encryption-keys"] = "[]";
  md.next_row_id = 5;
  EXPECT_EQ(Rules(CheckFieldsByVersion(md)),
            (Ids{"ice.fields-by-version", "ice.fields-by-version"}));
  md.format_version = 3;
  EXPECT_EQ(Rules(CheckFieldsByVersion(md)), Ids{});
  md = Valid(1);
  EXPECT_EQ(Rules(CheckFieldsByVersion(md)), Ids{"ice.fields-by-version"});  // lsn in v1
}

TEST(IceCurrentSchemaExists, CurrentSchemaIdNamesASchema) {
  SCOPED_TRACE("ice.current-schema-exists");
  TableMetadata md = Valid();
  md.current_schema_id = 2;
  Findings f = CheckCurrentSchemaExists(md);
  ASSERT_EQ(Rules(f), Ids{"ice.current-schema-exists"});
  EXPECT_EQ(f[0].pointer, "/current-schema-id");
}

TEST(IceDefaultSpecExists, DefaultSpecIdNamesASpec) {
  SCOPED_TRACE("ice.default-spec-exists");
  TableMetadata md = Valid();
  md.default_spec_id = 1;
  EXPECT_EQ(Rules(CheckDefaultSpecExists(md)), Ids{"ice.default-spec-exists"});
  // Spec 0 with no specs listed is the implied unpartitioned spec.
  md.default_spec_id = 0;
  md.partition_specs.clear();
  EXPECT_EQ(Rules(CheckDefaultSpecExists(md)), Ids{});
}

TEST(IceDefaultSortOrderExists, DefaultOrderNamesAnOrderExceptUnsorted) {
  SCOPED_TRACE("ice.default-sort-order-exists");
  TableMetadata md = Valid();
  md.default_sort_order_id = 4;
  EXPECT_EQ(Rules(CheckDefaultSortOrderExists(md)), Ids{"ice.default-sort-order-exists"});
  md.default_sort_order_id = 0;
  md.sort_orders.clear();
  EXPECT_EQ(Rules(CheckDefaultSortOrderExists(md)), Ids{});
}

TEST(IceSortOrderZeroUnsorted, OrderZeroHasNoFields) {
  SCOPED_TRACE("ice.sort-order-zero-unsorted");
  TableMetadata md = Valid();
  md.sort_orders[0].fields.push_back(SortField{"identity", 1, "asc", "nulls-first", {}});
  Findings f = CheckSortOrderZeroUnsorted(md);
  ASSERT_EQ(Rules(f), Ids{"ice.sort-order-zero-unsorted"});
  EXPECT_EQ(f[0].pointer, "/sort-orders/0/fields");
  md.sort_orders[0].order_id = 1;
  EXPECT_EQ(Rules(CheckSortOrderZeroUnsorted(md)), Ids{});
}

TEST(IceCurrentSnapshotExists, CurrentSnapshotIdNamesASnapshot) {
  SCOPED_TRACE("ice.current-snapshot-exists");
  TableMetadata md = Valid();
  md.current_snapshot_id = -1;  // none
  EXPECT_EQ(Rules(CheckCurrentSnapshotExists(md)), Ids{});
  md.current_snapshot_id = 11;
  EXPECT_EQ(Rules(CheckCurrentSnapshotExists(md)), Ids{"ice.current-snapshot-exists"});
}

TEST(IceRefsSnapshotExist, RefsNameSnapshots) {
  SCOPED_TRACE("ice.refs-snapshot-exist");
  TableMetadata md = Valid();
  md.refs["foo"] = SnapshotRef{2, "branch", {}};
  Findings f = CheckRefsSnapshotExist(md);
  ASSERT_EQ(Rules(f), Ids{"ice.refs-snapshot-exist"});
  EXPECT_EQ(f[0].pointer, "/refs/foo/snapshot-id");
}

TEST(IceCurrentSnapshotMain, MainAndCurrentAgree) {
  SCOPED_TRACE("ice.current-snapshot-main");
  TableMetadata md = Valid();
  Snapshot other = md.snapshots[0];
  other.snapshot_id = 11;
  md.snapshots.push_back(other);
  md.current_snapshot_id = 11;
  EXPECT_EQ(Rules(CheckCurrentSnapshotMain(md)), Ids{"ice.current-snapshot-main"});
  md.current_snapshot_id.reset();
  EXPECT_EQ(Rules(CheckCurrentSnapshotMain(md)), Ids{"ice.current-snapshot-main"});
  md.refs.clear();
  EXPECT_EQ(Rules(CheckCurrentSnapshotMain(md)), Ids{});
}

TEST(IceSequenceNumberBound, SnapshotsNotAboveLastSequenceNumber) {
  SCOPED_TRACE("ice.sequence-number-bound");
  TableMetadata md = Valid();
  md.snapshots.mutable_at(0).sequence_number = 4;
  EXPECT_EQ(Rules(CheckSequenceNumberBound(md)), Ids{"ice.sequence-number-bound"});
  md.last_sequence_number = 4;
  EXPECT_EQ(Rules(CheckSequenceNumberBound(md)), Ids{});
}

TEST(IceV4SnapshotTimestamps, StrictlyAfterTheParentInV4) {
  SCOPED_TRACE("ice.v4-snapshot-timestamps");
  TableMetadata md = Valid(4);
  Snapshot child = md.snapshots[0];
  child.snapshot_id = 11;
  child.parent_snapshot_id = 10;
  child.timestamp_ms = md.snapshots[0].timestamp_ms;  // equal: not strictly greater
  md.snapshots.push_back(child);
  Findings f = CheckV4SnapshotTimestamps(md);
  ASSERT_EQ(Rules(f), Ids{"ice.v4-snapshot-timestamps"});
  EXPECT_EQ(f[0].pointer, "/snapshots/1/timestamp-ms");
  md.format_version = 3;  // only v4 requires it
  EXPECT_EQ(Rules(CheckV4SnapshotTimestamps(md)), Ids{});
  md.format_version = 4;
  md.snapshots.mutable_at(1).timestamp_ms += 1;
  EXPECT_EQ(Rules(CheckV4SnapshotTimestamps(md)), Ids{});
}

// ---- schema rules ----

Schema Nested() {
  // 1 id, 2 s: struct<3 a>, 4 l: list<5: int>, 6 m: map<7: string, 8: long>
  Schema s;
  s.fields = {Field(1, "id", true, Type::Primitive(TypeId::kLong)),
              Field(2, "s", false,
                    Type::Struct({Field(3, "a", true, Type::Primitive(TypeId::kInt))})),
              Field(4, "l", false, Type::List(5, false, Type::Primitive(TypeId::kInt))),
              Field(6, "m", false,
                    Type::Map(7, Type::Primitive(TypeId::kString), 8, false,
                              Type::Primitive(TypeId::kLong)))};
  return s;
}

TEST(IceFieldIdsUnique, EveryIdOnceIncludingElementsKeysValues) {
  SCOPED_TRACE("ice.field-ids-unique");
  Schema s = Nested();
  EXPECT_EQ(Rules(CheckFieldIdsUnique(s)), Ids{});
  s.fields[2].type.element_id = 1;
  Findings f = CheckFieldIdsUnique(s, "/schemas/0");
  ASSERT_EQ(Rules(f), Ids{"ice.field-ids-unique"});
  EXPECT_EQ(f[0].pointer, "/schemas/0/fields/2/type/element-id");
  EXPECT_EQ(f[0].detail, "multiple fields for id 1: id and element");
  s = Nested();
  s.fields[1].type.fields[0].id = 8;  // a nested field against a map value ID
  EXPECT_EQ(Rules(CheckFieldIdsUnique(s)), Ids{"ice.field-ids-unique"});
}

TEST(IceUnknownOptional, UnknownFieldsElementsAndValuesAreOptional) {
  SCOPED_TRACE("ice.unknown-optional");
  Schema s;
  s.fields = {Field(1, "u", true, Type::Primitive(TypeId::kUnknown))};
  EXPECT_EQ(Rules(CheckUnknownOptional(s)), Ids{"ice.unknown-optional"});
  s.fields[0].required = false;
  EXPECT_EQ(Rules(CheckUnknownOptional(s)), Ids{});
  s.fields = {
      Field(1, "l", false, Type::List(2, true, Type::Primitive(TypeId::kUnknown)))};
  EXPECT_EQ(Rules(CheckUnknownOptional(s)), Ids{"ice.unknown-optional"});
  s.fields = {Field(1, "m", false,
                    Type::Map(2, Type::Primitive(TypeId::kUnknown), 3, false,
                              Type::Primitive(TypeId::kUnknown)))};
  EXPECT_EQ(Rules(CheckUnknownOptional(s)), Ids{"ice.unknown-optional"});  // the key only
}

TEST(IceTypesByVersion, V3TypesOnlyFromV3) {
  SCOPED_TRACE("ice.types-by-version");
  Schema s;
  s.fields = {
      Field(1, "mystery", false, Type::Primitive(TypeId::kUnknown)),
      Field(2, "l", false, Type::List(3, false, Type::Primitive(TypeId::kTimestampNs)))};
  EXPECT_EQ(Rules(CheckTypesByVersion(s, 2)),
            (Ids{"ice.types-by-version", "ice.types-by-version"}));
  EXPECT_EQ(Rules(CheckTypesByVersion(s, 3)), Ids{});
  TableMetadata md = Valid(2);
  md.schemas[0].fields.push_back(
      Field(3, "g", false, Type::Primitive(TypeId::kGeometry)));
  Findings f = CheckIcebergMetadata(md);
  ASSERT_EQ(Rules(f), Ids{"ice.types-by-version"});
  EXPECT_EQ(f[0].pointer, "/schemas/0/fields/2");
}

TEST(IceIdentifierFields, PrimitiveRequiredNotInListMapOrOptionalStruct) {
  SCOPED_TRACE("ice.identifier-fields");
  Schema s = Nested();
  s.identifier_field_ids = std::vector<FieldId>{1};
  EXPECT_EQ(Rules(CheckIdentifierFields(s)), Ids{});
  for (FieldId bad :
       {99, 2, 3, 5, 7}) {  // missing, struct, under optional struct, element, key
    s.identifier_field_ids = std::vector<FieldId>{bad};
    EXPECT_FALSE(CheckIdentifierFields(s).empty()) << bad;
  }
  s.fields.push_back(Field(9, "score", true, Type::Primitive(TypeId::kDouble)));
  s.identifier_field_ids = std::vector<FieldId>{9};
  EXPECT_EQ(Rules(CheckIdentifierFields(s)), Ids{"ice.identifier-fields"});
  // Readers ignore identifier fields in v4 (upg.readers-ignore-identifiers).
  EXPECT_EQ(Rules(CheckIcebergSchema(s, 4)), Ids{});
  EXPECT_EQ(Rules(CheckIcebergSchema(s, 3)), Ids{"ice.identifier-fields"});
}

}  // namespace
}  // namespace ictk
