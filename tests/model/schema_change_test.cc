/// \file
/// update-schema through the model (model/judge/schema_change.cc): how schema changes meet
/// constraints (sch.*) and Iceberg's own evolution rules (ice.schema-evolution,
/// ice.type-promotion, ice.required-needs-default).
#include <gtest/gtest.h>

#include "model/judge/operations.h"
#include "model/iceberg/schema.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT

/// 1 order_id long req, 2 qty int, 3 email string, 4 addr struct req {5 zip int req},
/// 6 day date req.
Schema Wide() {
  Schema s = OrdersSchema();
  s.fields.push_back(
      Col(4, "addr", true, Type::Struct({Col(5, "zip", true, P(TypeId::kInt))})));
  s.fields.push_back(Col(6, "day", true, P(TypeId::kDate)));
  return s;
}

Row WideRow(std::string key, int64_t id, int64_t qty, int64_t zip, int64_t day) {
  return MakeRow(std::move(key), {{1, Value::Long(id)},
                                  {2, Value::Long(qty)},
                                  {4, Value::Struct({5}, {Value::Long(zip)})},
                                  {6, Value::Long(day)}});
}

ModelSession WithConstraints(int32_t format_version = 4) {
  ModelSession m;
  m.Create(Wide(), format_version);
  m.Add(Pk("pk", true, {1}));
  m.Add(Check("qty_positive", true, PositiveOrNull(2)));
  m.Add(Unique("zip_unique", false, {5}));
  return m;
}

TEST(SchRenameReorder, RenamesAndMovesKeepConstraints) {
  SCOPED_TRACE("sch.rename-reorder");
  ModelSession m = WithConstraints();
  UpdateSchema u;
  u.changes = {RenameColumn{1, "id"}, MoveColumn{2, MoveColumn::Position::kFirst, 0}};
  AllowedOutcome o;
  Answer a = m.Canonical(u, &o);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Decides(o, RuleId::kSchRenameReorder));
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  // An answer that did not rename is caught.
  Answer unrenamed = a;
  unrenamed.metadata->schemas.back().fields[1].name = "order_id";
  EXPECT_TRUE(Names(Judge(o, unrenamed), RuleId::kSchRenameReorder));
  m.Step(u);
  EXPECT_EQ(m.metadata().CurrentSchema()->fields[0].name, "qty");
  EXPECT_EQ(m.IdOf("pk"), 1);
  EXPECT_TRUE(OnlyOk(m.Outcome(Append({WideRow("r1", 1, 1, 1, 1)}))));
}

TEST(SchRemoveReferenced, RemovingAReferencedFieldIsRejected) {
  SCOPED_TRACE("sch.remove-referenced");
  ModelSession m = WithConstraints();
  AllowedOutcome o = m.Outcome(Change(DeleteColumn{2}));
  EXPECT_TRUE(MustReject(o, RejectKind::kInvalidSchemaChange));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kSchRemoveReferenced));
  // "Removing a struct removes the fields in it": zip (5) is referenced by zip_unique.
  AllowedOutcome s = m.Outcome(Change(DeleteColumn{4}));
  EXPECT_TRUE(Names(s.reject_required_by, RuleId::kSchRemoveReferenced));
  // Unreferenced fields go freely.
  EXPECT_TRUE(OnlyOk(m.Outcome(Change(DeleteColumn{3}))));
}

TEST(SchRemoveReferenced, AllowedWhenTheConstraintGoesInTheSameChange) {
  SCOPED_TRACE("sch.remove-referenced");
  ModelSession m = WithConstraints();
  AllowedOutcome o;
  Answer a = m.Canonical(Change(DeleteColumn{4}, {"zip_unique"}), &o);
  EXPECT_TRUE(OnlyOk(o)) << ToString(o);
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  // An answer that kept the constraint is caught (and its field is gone).
  Answer kept = a;
  kept.metadata->constraints = m.metadata().constraints;
  const Findings f = Judge(o, kept);
  EXPECT_TRUE(Names(f, RuleId::kSchReferencedExist)) << Describe(f);
  m.Step(Change(DeleteColumn{4}, {"zip_unique"}));
  EXPECT_TRUE(m.table().removed_constraint_ids.count(3));
  EXPECT_EQ(m.metadata().constraints->size(), 2u);
}

TEST(SchReferencedExist, EveryReferencedFieldExistsInTheAnswer) {
  SCOPED_TRACE("sch.referenced-exist");
  ModelSession m = WithConstraints();
  AllowedOutcome o;
  Answer a = m.Canonical(Change(DeleteColumn{3}), &o);
  EXPECT_TRUE(Judge(o, a).empty());
  // An implementation that dropped qty (2) too leaves qty_positive dangling.
  auto& fields = a.metadata->schemas.back().fields;
  std::erase_if(fields, [](const NestedField& f) { return f.id == 2; });
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kSchReferencedExist));
}

TEST(SchCheckNoTypeChange, ACheckFieldKeepsItsType) {
  SCOPED_TRACE("sch.check-no-type-change");
  ModelSession m = WithConstraints();
  AllowedOutcome o = m.Outcome(Change(UpdateColumnType{2, P(TypeId::kLong)}));
  EXPECT_TRUE(MustReject(o, RejectKind::kInvalidSchemaChange));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kSchCheckNoTypeChange));
  // Open point: allowed when the check is removed in the same change.
  EXPECT_TRUE(
      OnlyOk(m.Outcome(Change(UpdateColumnType{2, P(TypeId::kLong)}, {"qty_positive"}))));
}

TEST(SchKeyPromotionOk, AKeyFieldMayBePromoted) {
  SCOPED_TRACE("sch.key-promotion-ok");
  ModelSession m = WithConstraints();
  m.Write(Append({WideRow("r1", 1, 1, 10, 1), WideRow("r2", 2, 1, 10, 1)}));
  AllowedOutcome o = m.Outcome(Change(UpdateColumnType{5, P(TypeId::kLong)}));
  EXPECT_TRUE(OnlyOk(o)) << ToString(o);
  EXPECT_TRUE(Decides(o, RuleId::kSchKeyPromotionOk));
  m.Step(Change(UpdateColumnType{5, P(TypeId::kLong)}));
  // The promoted key keeps equal values equal: the two zips of 10 still collide.
  const KeyIndex& index = m.table().key_indexes.at(m.IdOf("zip_unique"));
  EXPECT_EQ(index.fields()[0].type, P(TypeId::kLong));
  EXPECT_FALSE(index.Holds());
  // Not a promotion: ice.type-promotion.
  AllowedOutcome narrowing = m.Outcome(Change(UpdateColumnType{5, P(TypeId::kInt)}));
  EXPECT_TRUE(Names(narrowing.reject_required_by, RuleId::kIceTypePromotion));
}

TEST(IceTypePromotion, AnOlderSnapshotReadsAPromotedDateBackAsADate) {
  SCOPED_TRACE("ice.type-promotion, scan with snapshot-id");
  // Found by a 100,000-history soak (random/s1/63511): a date promoted to a timestamp is
  // held at midnight; a scan of a snapshot written under the date schema reads the date
  // back, also once the column is deleted from the current schema.
  ModelSession m;
  m.Create(Wide());
  m.Write(Append({WideRow("r1", 1, 1, 10, -25567)}));  // 1900-01-01
  const SnapshotId first = *m.table().metadata.current_snapshot_id;
  auto day_at_first = [&] {
    AllowedOutcome o = m.Outcome(Scan{first});
    EXPECT_TRUE(o.rows.has_value()) << ToString(o);
    const Value* day = o.rows ? o.rows->at("r1").FindField(6) : nullptr;
    return day != nullptr && day->kind == ValueKind::kLong ? day->as_long() : 0;
  };
  m.Step(Change(UpdateColumnType{6, P(TypeId::kTimestamp)}));
  EXPECT_EQ(-2208988800000000LL, m.table().rows.at("r1").FindField(6)->as_long());
  EXPECT_EQ(-25567, day_at_first());
  m.Step(Change(DeleteColumn{6}));
  EXPECT_EQ(-25567, day_at_first());
  // The current snapshot's rows no longer have the field.
  AllowedOutcome now = m.Outcome(Scan{});
  ASSERT_TRUE(now.rows.has_value());
  EXPECT_EQ(nullptr, now.rows->at("r1").FindField(6));
}

TEST(SchKeyPromotionOk, SwitchKeyPromotionsNoneRejects) {
  SCOPED_TRACE("sch.key-promotion-ok, key-promotions=none");
  ModelSession m = WithConstraints();
  m.switches().key_promotions = KeyPromotions::kNone;
  AllowedOutcome o = m.Outcome(Change(UpdateColumnType{5, P(TypeId::kLong)}));
  EXPECT_TRUE(MustReject(o, RejectKind::kInvalidSchemaChange));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kSchKeyPromotionOk));
}

TEST(SchKeyPromotionOk, APromotedDateKeyBecomesATimestamp) {
  SCOPED_TRACE("sch.key-promotion-ok: date -> timestamp in v3+");
  ModelSession m;
  m.Create(Wide());
  m.Add(Pk("pk", true, {6}));
  m.Write(Append({WideRow("r1", 1, 1, 1, 3)}));
  m.Step(Change(UpdateColumnType{6, P(TypeId::kTimestamp)}));
  EXPECT_EQ(m.table().rows.at("r1").FindField(6)->as_long(), 3LL * 86400 * 1000000);
  // Midnight of day 3 is the same key.
  Row same = WideRow("r2", 2, 1, 1, 0);
  same.values.children[3] = Value::Long(3LL * 86400 * 1000000);
  EXPECT_TRUE(MustReject(m.Outcome(Append({same})), RejectKind::kConstraintViolation));
}

TEST(IceTypePromotion, AScanOfAnOlderSnapshotReadsThePromotedDateAsADate) {
  SCOPED_TRACE("ice.type-promotion / sem.live-rows: scan with snapshot-id uses that "
               "snapshot's schema");
  ModelSession m;
  m.Create(Wide());
  m.Write(Append({WideRow("r1", 1, 1, 1, 3)}));
  const SnapshotId first = *m.metadata().current_snapshot_id;
  m.Write(Append({WideRow("r2", 2, 1, 1, -2)}));
  // r1 changes after the promotion, so the first snapshot's r1 comes from the row changes.
  m.Step(Change(UpdateColumnType{6, P(TypeId::kTimestamp)}));
  Row later = WideRow("r1", 1, 5, 1, 0);
  later.values.children[3] = Value::Long(7LL * 86400 * 1000000);
  m.Write(Overwrite({}, {}, {later}));
  AllowedOutcome old = m.Outcome(Scan{first});
  ASSERT_TRUE(old.rows.has_value());
  ASSERT_EQ(old.rows->size(), 1u);
  EXPECT_EQ(old.rows->at("r1").FindField(6)->as_long(), 3);  // days, as written
  AllowedOutcome now = m.Outcome(Scan{});
  ASSERT_TRUE(now.rows.has_value());
  EXPECT_EQ(now.rows->at("r1").FindField(6)->as_long(), 7LL * 86400 * 1000000);
  EXPECT_EQ(now.rows->at("r2").FindField(6)->as_long(), -2LL * 86400 * 1000000);
}

TEST(SchPkStaysRequired, APrimaryKeyFieldStaysRequired) {
  SCOPED_TRACE("sch.pk-stays-required");
  ModelSession m = WithConstraints();
  AllowedOutcome o = m.Outcome(Change(MakeOptional{1}));
  EXPECT_TRUE(MustReject(o, RejectKind::kInvalidSchemaChange));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kSchPkStaysRequired));
  EXPECT_TRUE(OnlyOk(m.Outcome(Change(MakeOptional{1}, {"pk"}))));
  // A unique key may become optional (key.unique-optional-ok).
  EXPECT_TRUE(OnlyOk(m.Outcome(Change(MakeOptional{5}))));
  // A primary key nested in a struct that becomes optional.
  ModelSession n;
  n.Create(Wide());
  n.Add(Pk("pk", true, {5}));
  AllowedOutcome nested = n.Outcome(Change(MakeOptional{4}));
  EXPECT_TRUE(Names(nested.reject_required_by, RuleId::kSchPkStaysRequired));
}

TEST(IceRequiredNeedsDefault, ARequiredColumnOnATableWithRowsNeedsADefault) {
  SCOPED_TRACE("ice.required-needs-default");
  ModelSession m;
  m.Create();
  AddColumn col;
  col.name = "region";
  col.type = P(TypeId::kString);
  col.required = true;
  EXPECT_TRUE(OnlyOk(m.Outcome(Change(col)))) << "no rows yet";
  m.Write(Append({Order("r1", 1, 1)}));
  AllowedOutcome o = m.Outcome(Change(col));
  EXPECT_TRUE(MustReject(o, RejectKind::kInvalidSchemaChange));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kIceRequiredNeedsDefault));
  col.initial_default_json = "\"eu\"";
  AllowedOutcome ok;
  Answer a = m.Canonical(Change(col), &ok);
  EXPECT_TRUE(OnlyOk(ok));
  EXPECT_TRUE(Judge(ok, a).empty()) << Describe(Judge(ok, a));
  m.Step(Change(col));
  // The existing row reads the initial default.
  AllowedOutcome scan = m.Outcome(Scan{});
  const Value& r1 = scan.rows->at("r1");
  ASSERT_NE(r1.FindField(4), nullptr);
  EXPECT_EQ(*r1.FindField(4), Value::String("eu"));
  // In a v2 table there are no defaults at all.
  ModelSession v2;
  v2.Create(OrdersSchema(), 2);
  v2.Write(Append({Order("r1", 1, 1)}));
  EXPECT_TRUE(Names(v2.Outcome(Change(col)).reject_required_by,
                    RuleId::kIceRequiredNeedsDefault));
}

TEST(IceSchemaEvolution, StructuralErrorsAreInvalidSchemaChanges) {
  SCOPED_TRACE("ice.schema-evolution");
  ModelSession m = WithConstraints();
  AddColumn dup;
  dup.name = "qty";
  dup.type = P(TypeId::kInt);
  EXPECT_TRUE(MustReject(m.Outcome(Change(dup)), RejectKind::kInvalidSchemaChange));
  EXPECT_TRUE(MustReject(m.Outcome(Change(RenameColumn{1, "email"})),
                         RejectKind::kInvalidSchemaChange));
  EXPECT_TRUE(
      MustReject(m.Outcome(Change(MoveColumn{1, MoveColumn::Position::kAfter, 5})),
                 RejectKind::kInvalidSchemaChange))
      << "5 is not a sibling of 1";
  EXPECT_TRUE(
      MustReject(m.Outcome(Change(DeleteColumn{99})), RejectKind::kInvalidSchemaChange));
  // A nested add: under the addr struct; the answer's new ID is matched by name.
  AddColumn nested;
  nested.parent_id = 4;
  nested.name = "city";
  nested.type = P(TypeId::kString);
  AllowedOutcome o;
  Answer a = m.Canonical(Change(nested), &o);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  Answer missing = a;
  missing.metadata->schemas.back().fields[3].type.fields.pop_back();
  EXPECT_TRUE(Names(Judge(o, missing), RuleId::kIceSchemaEvolution));
}

TEST(UpgNoIdentifiersInV4, ASchemaAddedToAV4TableCarriesNone) {
  SCOPED_TRACE("upg.no-identifiers-in-v4");
  ModelSession m = WithConstraints();
  AllowedOutcome o;
  Answer a = m.Canonical(Change(RenameColumn{3, "mail"}), &o);
  EXPECT_TRUE(Judge(o, a).empty());
  a.metadata->schemas.back().identifier_field_ids = std::vector<FieldId>{1};
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kUpgNoIdentifiersInV4));
}

}  // namespace
}  // namespace ictk
