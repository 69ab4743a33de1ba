// The metadata lint (model/rules/metadata_rules.h) on table metadata built in code.
#include "model/rules/metadata_rules.h"

#include <gtest/gtest.h>

#include "model/rules/status_rules.h"
#include "tests/model/constraint_test_util_internal.h"

namespace ictk {
namespace {

using namespace testing_util;
using S = ConstraintStatus;

/// A valid v4 table with the test schema, a pk (1) and a unique (2), and one snapshot.
TableMetadata V4Table() {
  TableMetadata md;
  md.format_version = 4;
  md.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  md.location = "s3://bucket/table";
  md.last_sequence_number = 1;
  md.last_updated_ms = 2000;
  md.last_column_id = 22;
  md.schemas = {TestSchema()};
  md.current_schema_id = 0;
  md.partition_specs = {PartitionSpec{0, {}}};
  md.default_spec_id = 0;
  md.last_partition_id = 999;
  md.sort_orders = {SortOrder{0, {}}};
  md.default_sort_order_id = 0;
  md.next_row_id = 0;
  md.constraints = std::vector<Constraint>{Pk(1, "pk", {1}), Unique(2, "u", {2})};
  md.last_constraint_id = 2;
  Snapshot s;
  s.snapshot_id = 100;
  s.sequence_number = 1;
  s.timestamp_ms = 1500;
  s.summary = {{"operation", "append"}};
  s.schema_id = 0;
  s.manifest_list = "s3://bucket/table/metadata/snap-100.avro";
  s.first_row_id = 0;
  s.added_rows = 0;
  s.constraint_statuses = MakeStatuses({{1, S::kValidated}, {2, S::kUnvalidated}});
  md.snapshots = {s};
  md.current_snapshot_id = 100;
  md.refs = {{"main", SnapshotRef{100, "branch", {}}}};
  return md;
}

Snapshot Child(const Snapshot& parent, SnapshotId id, ConstraintStatuses statuses) {
  Snapshot s = parent;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent.snapshot_id;
  s.sequence_number = parent.sequence_number.value_or(0) + 1;
  s.timestamp_ms = parent.timestamp_ms + 1;
  s.constraint_statuses = std::move(statuses);
  return s;
}

void AddSnapshot(TableMetadata& md, Snapshot s) {
  md.last_sequence_number =
      std::max(md.last_sequence_number.value_or(0), s.sequence_number.value_or(0));
  md.current_snapshot_id = s.snapshot_id;
  md.refs["main"].snapshot_id = s.snapshot_id;
  md.snapshots.push_back(std::move(s));
}

Findings Lint(const TableMetadata& md, const Switches& switches = {}) {
  return LintMetadata(md, FunctionCatalog{}, switches);
}

TEST(LintMetadata, ValidV4TableHasNoFindings) {
  Findings f = Lint(V4Table());
  EXPECT_TRUE(f.empty()) << ::testing::PrintToString(f);
}

// ---- def.v4-only

TEST(DefV4Only, AcceptsV3WithoutConstraintFields) {  // def.v4-only
  TableMetadata md = V4Table();
  md.format_version = 3;
  md.constraints.reset();
  md.last_constraint_id.reset();
  md.snapshots.mutable_at(0).constraint_statuses.reset();
  EXPECT_FALSE(Has(Lint(md), RuleId::kDefV4Only));
}

TEST(DefV4Only, RejectsV3CarryingConstraintFields) {  // def.v4-only
  TableMetadata md = V4Table();
  md.format_version = 3;
  Findings f = Lint(md);
  ASSERT_EQ(Count(f, RuleId::kDefV4Only), 3u) << ::testing::PrintToString(f);
  std::vector<std::string> pointers;
  for (const Finding& x : f)
    if (x.rule == RuleId::kDefV4Only) pointers.push_back(x.pointer);
  EXPECT_EQ(pointers, (std::vector<std::string>{"/constraints", "/last-constraint-id",
                                                "/snapshots/0/constraint-statuses"}));
}

// ---- definitions and the set

TEST(DefSinglePk, MetadataWithTwoPrimaryKeysIsReported) {  // def.single-pk
  TableMetadata md = V4Table();
  md.constraints->push_back(Pk(3, "pk2", {16}));
  md.last_constraint_id = 3;
  md.snapshots.mutable_at(0).constraint_statuses->unvalidated->push_back(3);
  Findings f = Lint(md);
  ASSERT_EQ(f.size(), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(f[0].rule, RuleId::kDefSinglePk);
  EXPECT_EQ(f[0].pointer, "/constraints/2/type");
  EXPECT_EQ(f[0].constraint_id, 3);
}

TEST(DefNameUnique, MetadataWithRepeatedNameIsReported) {  // def.name-unique
  TableMetadata md = V4Table();
  (*md.constraints)[1].name = "pk";
  EXPECT_TRUE(Has(Lint(md), RuleId::kDefNameUnique));
}

TEST(KeyNoFloatDouble, MetadataPointerNamesTheField) {  // key.no-float-double
  TableMetadata md = V4Table();
  (*md.constraints)[1].field_ids = std::vector<FieldId>{3};
  Findings f = Lint(md);
  ASSERT_EQ(f.size(), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(f[0].rule, RuleId::kKeyNoFloatDouble);
  EXPECT_EQ(f[0].pointer, "/constraints/1/field-ids/0");
}

TEST(SchReferencedExist, MetadataFieldOnlyInAnOlderSchema) {  // sch.referenced-exist
  TableMetadata md = V4Table();
  Schema current = TestSchema();
  current.schema_id = 1;
  current.fields.erase(current.fields.begin() + 1);  // drop field 2, which `u` uses
  md.schemas.push_back(current);
  md.current_schema_id = 1;
  Findings f = Lint(md);
  ASSERT_TRUE(Has(f, RuleId::kSchReferencedExist)) << ::testing::PrintToString(f);
  EXPECT_EQ(First(f, RuleId::kSchReferencedExist)->pointer, "/constraints/1/field-ids/0");
}

TEST(DefRequiredFields, MetadataConstraintWithoutTimestamp) {  // def.required-fields
  TableMetadata md = V4Table();
  (*md.constraints)[0].timestamp_ms.reset();
  Findings f = Lint(md);
  ASSERT_TRUE(Has(f, RuleId::kDefRequiredFields));
  EXPECT_EQ(First(f, RuleId::kDefRequiredFields)->pointer, "/constraints/0/timestamp-ms");
}

TEST(DefTimestampInformational, LintIgnoresConstraintTimestamps) {
  // def.timestamp-informational: a constraint stamped after every snapshot (or before the
  // epoch) is judged exactly as one stamped before them.
  TableMetadata early = V4Table();
  TableMetadata late = V4Table();
  (*late.constraints)[0].timestamp_ms = 99'000'000'000'000;
  (*late.constraints)[1].timestamp_ms = -5;
  EXPECT_EQ(Lint(early), Lint(late));
  EXPECT_TRUE(Lint(late).empty()) << ::testing::PrintToString(Lint(late));
  EXPECT_EQ(ReaderStatus(&*late.snapshots[0].constraint_statuses, 1), S::kValidated);
}

// ---- IDs

TEST(IdAboveLast, AcceptsPositiveIdsUpToLast) {  // id.above-last
  EXPECT_TRUE(CheckConstraintIdsBelowLast(V4Table()).empty());
}

TEST(IdAboveLast, RejectsIdZero) {  // id.above-last
  TableMetadata md = V4Table();
  (*md.constraints)[1].id = 0;
  Findings f = CheckConstraintIdsBelowLast(md);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, RuleId::kIdAboveLast);
  EXPECT_EQ(f[0].pointer, "/constraints/1/constraint-id");
}

TEST(IdUpdateLast, RejectsIdAboveLastConstraintId) {  // id.update-last
  TableMetadata md = V4Table();
  md.last_constraint_id = 1;
  Findings f = Lint(md);
  ASSERT_TRUE(Has(f, RuleId::kIdUpdateLast)) << ::testing::PrintToString(f);
  EXPECT_EQ(First(f, RuleId::kIdUpdateLast)->constraint_id, 2);
}

TEST(IdLastDefaultZero, AbsentLastConstraintIdIsZero) {  // id.last-default-zero
  TableMetadata md = V4Table();
  md.last_constraint_id.reset();
  EXPECT_EQ(Count(CheckConstraintIdsBelowLast(md), RuleId::kIdUpdateLast), 2u);
  md.constraints->clear();
  md.snapshots.mutable_at(0).constraint_statuses = ConstraintStatuses{};
  EXPECT_TRUE(Lint(md).empty()) << ::testing::PrintToString(Lint(md));
}

// ---- statuses

TEST(StExactlyOneList, MetadataIdInTwoLists) {  // st.exactly-one-list
  TableMetadata md = V4Table();
  md.snapshots.mutable_at(0).constraint_statuses->invalid = std::vector<ConstraintId>{1};
  Findings f = Lint(md);
  ASSERT_EQ(Count(f, RuleId::kStExactlyOneList), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(First(f, RuleId::kStExactlyOneList)->pointer,
            "/snapshots/0/constraint-statuses/invalid/0");
}

TEST(StExactlyOneList, MetadataOlderConstraintMissingFromList) {  // st.exactly-one-list
  // Constraint 2 is listed, so constraint 1 (older, still present) existed then too.
  TableMetadata md = V4Table();
  md.snapshots.mutable_at(0).constraint_statuses = MakeStatuses({{2, S::kUnvalidated}});
  Findings f = Lint(md);
  ASSERT_EQ(Count(f, RuleId::kStExactlyOneList), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(First(f, RuleId::kStExactlyOneList)->constraint_id, 1);
  // Listing only the older one proves nothing: 2 may have been added afterwards.
  md.snapshots.mutable_at(0).constraint_statuses = MakeStatuses({{1, S::kValidated}});
  EXPECT_TRUE(Lint(md).empty()) << ::testing::PrintToString(Lint(md));
}

TEST(StExactlyOneList, MetadataIdThatNeverExistedFollowsStaleIdsSwitch) {
  // st.exactly-one-list, switch stale-ids-in-new-snapshot
  TableMetadata md = V4Table();
  // above last (2)
  md.snapshots.mutable_at(0).constraint_statuses->unvalidated->push_back(7);
  EXPECT_TRUE(Has(Lint(md), RuleId::kStExactlyOneList));
  Switches allow;
  allow.stale_ids_in_new_snapshot = StaleIds::kAllow;
  EXPECT_TRUE(Lint(md, allow).empty());
}

TEST(StValid, MetadataValidAfterValidatedParentIsAccepted) {  // st.valid
  TableMetadata md = V4Table();
  AddSnapshot(md, Child(md.snapshots[0], 101,
                        MakeStatuses({{1, S::kValid}, {2, S::kUnvalidated}})));
  EXPECT_TRUE(Lint(md).empty()) << ::testing::PrintToString(Lint(md));
}

TEST(StValid, MetadataValidAfterUnvalidatedParentIsReported) {  // st.valid
  TableMetadata md = V4Table();
  AddSnapshot(
      md, Child(md.snapshots[0], 101, MakeStatuses({{1, S::kValid}, {2, S::kValid}})));
  Findings f = Lint(md);
  ASSERT_EQ(Count(f, RuleId::kStValid), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(First(f, RuleId::kStValid)->pointer,
            "/snapshots/1/constraint-statuses/valid/1");
  // A first snapshot has no parent: its parent status is unvalidated.
  TableMetadata first = V4Table();
  first.snapshots.mutable_at(0).constraint_statuses =
      MakeStatuses({{1, S::kValid}, {2, S::kValid}});
  EXPECT_EQ(Count(Lint(first), RuleId::kStValid), 2u);
}

TEST(StValid, MetadataExpiredParentIsNotJudged) {  // st.valid
  TableMetadata md = V4Table();
  Snapshot child =
      Child(md.snapshots[0], 101, MakeStatuses({{1, S::kValid}, {2, S::kValid}}));
  md.snapshots.clear();
  md.snapshots.push_back(child);
  md.current_snapshot_id = 101;
  md.refs["main"].snapshot_id = 101;
  EXPECT_FALSE(Has(Lint(md), RuleId::kStValid));
}

TEST(ExprUdfStatus, MetadataValidForCheckCallingUdfIsReported) {  // expr.udf-status
  TableMetadata md = V4Table();
  md.constraints->push_back(
      Check(3, "c",
            Expr::Binary(ExprOp::kLt, Expr::Apply("my_udf", {Expr::Ref(1)}),
                         Expr::Lit(Value::Long(10)))));
  md.last_constraint_id = 3;
  md.snapshots.mutable_at(0).constraint_statuses->validated->push_back(3);
  EXPECT_FALSE(Has(Lint(md), RuleId::kExprUdfStatus)) << "validated may be true";
  AddSnapshot(
      md, Child(md.snapshots[0], 101,
                MakeStatuses({{1, S::kValid}, {2, S::kUnvalidated}, {3, S::kValid}})));
  Findings f = Lint(md);
  ASSERT_EQ(Count(f, RuleId::kExprUdfStatus), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(First(f, RuleId::kExprUdfStatus)->constraint_id, 3);
}

// ---- upg.no-identifiers-in-v4

TEST(UpgNoIdentifiersInV4, AcceptsIdentifiersOnSchemasBeforeTheUpgrade) {
  // upg.no-identifiers-in-v4 / upg.readers-ignore-identifiers: the schema current at the
  // first v4 snapshot, and any before it, may keep identifier-field-ids.
  TableMetadata md = V4Table();
  md.schemas[0].identifier_field_ids = std::vector<FieldId>{1};
  Schema next = TestSchema();
  next.schema_id = 1;
  next.identifier_field_ids = std::vector<FieldId>{1};
  md.schemas.push_back(next);
  md.current_schema_id = 1;
  md.snapshots.mutable_at(0).schema_id = 1;
  EXPECT_FALSE(Has(Lint(md), RuleId::kUpgNoIdentifiersInV4));
}

TEST(UpgNoIdentifiersInV4, RejectsIdentifiersOnSchemaAddedAfterAV4Snapshot) {
  // upg.no-identifiers-in-v4
  TableMetadata md = V4Table();
  md.schemas[0].identifier_field_ids = std::vector<FieldId>{1};
  Schema added = TestSchema();
  added.schema_id = 1;
  added.identifier_field_ids = std::vector<FieldId>{1};
  md.schemas.push_back(added);
  md.current_schema_id = 1;
  Findings f = Lint(md);
  ASSERT_EQ(Count(f, RuleId::kUpgNoIdentifiersInV4), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(First(f, RuleId::kUpgNoIdentifiersInV4)->pointer,
            "/schemas/1/identifier-field-ids");
  added.identifier_field_ids = std::vector<FieldId>{};
  md.schemas[1] = added;
  EXPECT_FALSE(Has(Lint(md), RuleId::kUpgNoIdentifiersInV4)) << "an empty list sets none";
}

}  // namespace
}  // namespace ictk
