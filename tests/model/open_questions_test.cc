// The questions docs/protocol.md section 10 answers with "either": each is judged with
// both answers, and both pass; and the conventions it states with one answer.
#include <gtest/gtest.h>

#include "tests/model/operations_test_util_internal.h"

namespace ictk::ops_test {
namespace {

// An invalid schema at create-table: `invalid-schema-change` or `invalid-request`.
TEST(OpenQuestions, AnInvalidSchemaAtCreateTableTakesEitherKind) {
  ModelSession m;
  Schema broken = OrdersSchema();
  broken.identifier_field_ids = std::vector<FieldId>{9};  // no such field
  const AllowedOutcome o = m.Outcome(CreateTable{2, broken});
  EXPECT_FALSE(o.ok_allowed);
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kInvalidSchemaChange)).empty());
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kInvalidRequest)).empty());
  EXPECT_FALSE(Judge(o, Answer::Rejected(RejectKind::kUnsupportedFormatVersion)).empty());
  EXPECT_FALSE(Judge(o, Answer::Ok(TableMetadata{})).empty());
}

// No current snapshot: `current-snapshot-id` absent or -1.
TEST(OpenQuestions, NoCurrentSnapshotIsAbsentOrMinusOne) {
  ModelSession m;
  m.Create();
  AllowedOutcome o;
  Answer a = m.Canonical(LoadTable{}, &o);
  ASSERT_TRUE(a.metadata);
  a.metadata->current_snapshot_id.reset();
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  a.metadata->current_snapshot_id = -1;
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  a.metadata->current_snapshot_id = 42;  // names no snapshot
  EXPECT_FALSE(Judge(o, a).empty());
}

// A snapshot's manifest list: `manifest-list`, `root-manifest`, or neither; not judged.
TEST(OpenQuestions, AManifestListUnderEitherNamePasses) {
  ModelSession m;
  m.Create();
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("r1", 1, 1)}), &o);
  ASSERT_TRUE(a.metadata && !a.metadata->snapshots.empty());
  Snapshot& s = a.metadata->snapshots.mutable_back();
  s.manifest_list.reset();
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  s.extra["root-manifest"] = "\"memory://root-1.avro\"";
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  s.manifest_list = "memory://snap-1.avro";
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
}

// Transactions are independent: a begin beside an open one succeeds; a finish ends its
// transaction whatever the answer, so finishing it again is an unknown transaction.
TEST(OpenQuestions, TransactionsAreIndependentAndEndAtFinish) {
  ModelSession m;
  m.Create();
  m.Write(Append({Order("r1", 1, 1)}));
  m.Step(Begin{"w1"});
  Commit staged = Append({Order("r2", 2, 1)});
  staged.txn = "w1";
  m.Step(staged);
  EXPECT_TRUE(OnlyOk(m.Outcome(Begin{"w2"}))) << "a second open transaction";
  m.Add(Unique("u", false, {3}));  // a concurrent constraint change: a conflict may be said
  EXPECT_TRUE(m.StepWith(Finish{"w1"}, Answer::Rejected(RejectKind::kCommitConflict)).empty());
  const AllowedOutcome again = m.Outcome(Finish{"w1"});
  EXPECT_TRUE(MustReject(again, RejectKind::kInvalidRequest)) << "w1 ended at its finish";
  EXPECT_TRUE(OnlyOk(m.Outcome(Begin{"w1"}))) << "its name is free again";
}

}  // namespace
}  // namespace ictk::ops_test
