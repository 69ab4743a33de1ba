/// \file
/// def.reader-preserves (model/rules/reader_preserves.h) and how parse-metadata judges a
/// reader's re-serialization with it; the reader ops on metadata that breaks a
/// surrounding Iceberg rule (ice.*: may reject, never must accept).
#include <gtest/gtest.h>

#include "model/judge/operations.h"
#include "model/rules/reader_preserves.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT

/// v4 metadata with a pk (1), a unique (2) and a check (3); two snapshots, the first
/// listing a removed constraint 9 and the second listing 1, 2, 3 in three lists.
TableMetadata Read() {
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", true, {1}));
  m.Add(Unique("u", false, {2}));
  m.Add(Check("qty_positive", false, PositiveOrNull(2)));
  m.Write(Append({Order("r1", 1, 5)}));
  m.Write(Append({Order("r2", 2, 6)}));
  TableMetadata md = m.metadata();
  EXPECT_EQ(md.snapshots.size(), 2u);
  ConstraintStatuses first;
  first.validated = std::vector<ConstraintId>{1, 9};
  md.snapshots.mutable_at(0).constraint_statuses = first;
  ConstraintStatuses second;
  second.validated = std::vector<ConstraintId>{1};
  second.valid = std::vector<ConstraintId>{2};
  second.unvalidated = std::vector<ConstraintId>{3};
  md.snapshots.mutable_at(1).constraint_statuses = second;
  md.last_constraint_id = 9;
  return md;
}

bool At(const Findings& findings, const std::string& pointer) {
  for (const Finding& f : findings)
    if (f.rule == RuleId::kDefReaderPreserves && f.pointer == pointer) return true;
  return false;
}

TEST(DefReaderPreserves, AFaithfulReaderPasses) {
  SCOPED_TRACE("def.reader-preserves");
  const TableMetadata md = Read();
  EXPECT_TRUE(CheckReaderPreserves(md, md).empty());
  // By meaning: constraint order, list order, an omitted empty list, field-ids order.
  TableMetadata same = md;
  std::reverse(same.constraints->begin(), same.constraints->end());
  same.snapshots.mutable_at(0).constraint_statuses->validated =
      std::vector<ConstraintId>{9, 1};
  same.snapshots.mutable_at(1).constraint_statuses->invalid = std::vector<ConstraintId>{};
  EXPECT_TRUE(CheckReaderPreserves(md, same).empty())
      << Describe(CheckReaderPreserves(md, same));
}

TEST(DefReaderPreserves, WhatADroppingReaderLosesIsNamedWithItsPointer) {
  SCOPED_TRACE("def.reader-preserves");
  const TableMetadata md = Read();
  // A reader that knows nothing of constraints: writes the metadata back without them.
  TableMetadata dropped = md;
  dropped.constraints.reset();
  dropped.last_constraint_id.reset();
  for (size_t i = 0; i < dropped.snapshots.size(); ++i)
    dropped.snapshots.mutable_at(i).constraint_statuses.reset();
  const Findings f = CheckReaderPreserves(md, dropped);
  EXPECT_TRUE(At(f, "/constraints")) << Describe(f);
  EXPECT_TRUE(At(f, "/last-constraint-id")) << Describe(f);
  EXPECT_TRUE(At(f, "/snapshots/0/constraint-statuses")) << Describe(f);
  EXPECT_TRUE(At(f, "/snapshots/1/constraint-statuses")) << Describe(f);
  for (const Finding& x : f) EXPECT_EQ(x.rule, RuleId::kDefReaderPreserves);

  TableMetadata one = md;
  one.constraints->erase(one.constraints->begin() + 1);
  EXPECT_TRUE(At(CheckReaderPreserves(md, one), "/constraints/1"));
  TableMetadata changed = md;
  (*changed.constraints)[2].enforced = true;
  EXPECT_TRUE(At(CheckReaderPreserves(md, changed), "/constraints/2/enforced"));
  TableMetadata added = md;
  added.constraints->push_back(Unique("extra", false, {1}));
  added.constraints->back().id = 10;
  EXPECT_TRUE(At(CheckReaderPreserves(md, added), "/constraints"));
  TableMetadata lost_removed = md;  // the removed constraint's ID 9 is dropped
  lost_removed.snapshots.mutable_at(0).constraint_statuses->validated =
      std::vector<ConstraintId>{1};
  EXPECT_TRUE(At(CheckReaderPreserves(md, lost_removed),
                 "/snapshots/0/constraint-statuses/validated"));
  TableMetadata last = md;
  last.last_constraint_id = 3;
  EXPECT_TRUE(At(CheckReaderPreserves(md, last), "/last-constraint-id"));
}

TEST(DefReaderPreserves, V3FieldsMayBeDroppedOnlyWhenTheReaderMayIgnoreThem) {
  SCOPED_TRACE("def.reader-preserves, def.v4-only");
  TableMetadata md = Read();
  md.format_version = 3;
  TableMetadata dropped = md;
  dropped.constraints.reset();
  dropped.last_constraint_id.reset();
  for (size_t i = 0; i < dropped.snapshots.size(); ++i)
    dropped.snapshots.mutable_at(i).constraint_statuses.reset();
  EXPECT_TRUE(CheckReaderPreserves(md, dropped, /*may_drop=*/true).empty());
  EXPECT_FALSE(CheckReaderPreserves(md, dropped, /*may_drop=*/false).empty());
  // Kept, they are compared.
  TableMetadata mangled = md;
  mangled.last_constraint_id = 4;
  EXPECT_TRUE(At(CheckReaderPreserves(md, mangled, true), "/last-constraint-id"));
}

TEST(DefReaderPreserves, TwoConstraintsSharingAnIdAreKeptByDefinition) {
  TableMetadata md = Read();
  (*md.constraints)[1].id = (*md.constraints)[0].id;  // def.id-unique broken
  EXPECT_TRUE(CheckReaderPreserves(md, md).empty());
  TableMetadata one = md;
  one.constraints->erase(one.constraints->begin() + 1);
  const Findings f = CheckReaderPreserves(md, one);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front().pointer.rfind("/constraints/1", 0), 0u) << Describe(f);
}

TEST(DefReaderPreserves, ParseMetadataFilesTheLossUnderTheRuleNotTheProtocol) {
  SCOPED_TRACE("def.reader-preserves via Judge");
  ModelSession m;
  const TableMetadata md = Read();
  const AllowedOutcome o = m.Outcome(ParseMetadata{md}, "");
  EXPECT_TRUE(OnlyOk(o)) << ToString(o);
  EXPECT_TRUE(Decides(o, RuleId::kDefReaderPreserves));
  EXPECT_TRUE(Judge(o, Answer::Ok(md)).empty());
  TableMetadata dropped = md;
  dropped.constraints.reset();
  dropped.last_constraint_id.reset();
  for (size_t i = 0; i < dropped.snapshots.size(); ++i)
    dropped.snapshots.mutable_at(i).constraint_statuses.reset();
  const Findings f = Judge(o, Answer::Ok(dropped));
  ASSERT_FALSE(f.empty());
  for (const Finding& x : f) {
    EXPECT_EQ(x.rule, RuleId::kDefReaderPreserves) << ToString(x);
    EXPECT_FALSE(x.pointer.empty()) << ToString(x);
  }
  // A snapshot that goes missing is the protocol's.
  TableMetadata lost = md;
  lost.snapshots.erase(lost.snapshots.begin());
  EXPECT_TRUE(Names(Judge(o, Answer::Ok(lost)), RuleId::kProtoAnswer));
}

TEST(ReaderOps, BrokenIcebergMetadataMayBeRefusedNeverMustBeAccepted) {
  SCOPED_TRACE("ice.* on read");
  ModelSession m;
  TableMetadata md = Read();
  md.current_schema_id = 99;
  for (const Operation& op :
       {Operation(ParseMetadata{md}), Operation(ReadStatuses{md, std::nullopt})}) {
    const AllowedOutcome o = m.Outcome(op, "");
    EXPECT_TRUE(o.ok_allowed && o.reject_allowed) << ToString(o);
    EXPECT_TRUE(o.reject_kinds.count(RejectKind::kInvalidMetadata));
    EXPECT_TRUE(Decides(o, RuleId::kIceCurrentSchemaExists)) << ToString(o);
  }
  ModelSession w;
  w.Create(OrdersSchema(), 2);
  w.Write(Append({Order("r1", 1, 5)}));
  TableMetadata v2 = w.metadata();
  EXPECT_TRUE(OnlyOk(m.Outcome(ParseMetadata{v2}, "")))
      << ToString(m.Outcome(ParseMetadata{v2}, ""));
  v2.last_partition_id.reset();  // TableMetadataV2MissingLastPartitionId.json
  const AllowedOutcome missing = m.Outcome(ParseMetadata{v2}, "");
  EXPECT_TRUE(missing.ok_allowed && missing.reject_allowed);
  EXPECT_TRUE(Decides(missing, RuleId::kIceMetadataRequired));
}

}  // namespace
}  // namespace ictk
