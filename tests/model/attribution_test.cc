/// \file
/// Attribution (issue 12 item 2): a failure names the rule the answer broke, never one it
/// obeyed. Each test takes the model's canonical answer, breaks it as one sample mutant
/// does, and checks which rules Judge's findings name.
#include <gtest/gtest.h>

#include "model/judge/operations.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT

Snapshot* Current(TableMetadata& md) {
  for (size_t i = 0; i < md.snapshots.size(); ++i)
    if (md.current_snapshot_id && md.snapshots[i].snapshot_id == *md.current_snapshot_id)
      return &md.snapshots.mutable_at(i);
  return nullptr;
}

/// Lists `id` as `status` alone in the answer's current snapshot (out of every list).
void Record(Answer& a, ConstraintId id, ConstraintStatus status) {
  Snapshot* s = Current(*a.metadata);
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->constraint_statuses.has_value());
  for (ConstraintStatus each : kAllStatuses) {
    auto& list = s->constraint_statuses->List(each);
    if (list) list->erase(std::remove(list->begin(), list->end(), id), list->end());
  }
  auto& list = s->constraint_statuses->List(status);
  if (!list) list.emplace();
  list->push_back(id);
}

// current-snapshot-id-off-by-one: a commit whose current-snapshot-id names no snapshot
// breaks ice.current-snapshot-exists, and that is the rule named, not proto.answer ("the
// answer has no current snapshot" is kept for an answer without any current-snapshot-id).
TEST(Attribution, ACurrentSnapshotIdNamingNoSnapshotIsTheIcebergRule) {
  ModelSession m;
  m.Create();
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("a", 1, 1)}), &o);
  ASSERT_TRUE(Judge(o, a).empty());
  Answer off = a;
  SnapshotId highest = 0;
  for (const Snapshot& s : off.metadata->snapshots) highest = std::max(highest, s.snapshot_id);
  off.metadata->current_snapshot_id = highest + 1;
  const Findings f = Judge(o, off);
  EXPECT_TRUE(Names(f, RuleId::kIceCurrentSnapshotExists)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kProtoAnswer)) << Describe(f);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front().rule, RuleId::kIceCurrentSnapshotExists) << Describe(f);
  Answer none = a;
  none.metadata->current_snapshot_id.reset();
  EXPECT_TRUE(Names(Judge(o, none), RuleId::kProtoAnswer)) << Describe(Judge(o, none));
}

// current-schema-id-off-by-one: an update-schema answer whose current-schema-id names no
// schema breaks ice.current-schema-exists; without a current schema, "every field
// referenced by a constraint must exist in the current schema" (sch.referenced-exist) and
// the fields the change asked for (ice.schema-evolution) are not what it broke.
TEST(Attribution, ACurrentSchemaIdNamingNoSchemaIsTheIcebergRule) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", false, {2}));
  AddColumn add;
  add.name = "note";
  add.type = P(TypeId::kString);
  AllowedOutcome o;
  Answer a = m.Canonical(UpdateSchema{{add}, {}}, &o);
  ASSERT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  int32_t highest = 0;
  for (const Schema& s : a.metadata->schemas) highest = std::max(highest, s.schema_id.value_or(0));
  a.metadata->current_schema_id = highest + 1;
  const Findings f = Judge(o, a);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front().rule, RuleId::kIceCurrentSchemaExists) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kSchReferencedExist)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kIceSchemaEvolution)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kProtoAnswer)) << Describe(f);
}

// upgrade-keeps-ineligible-pk: "If any of those fields cannot be used in a primary-key
// constraint ... no constraint is created" — a primary key the upgrade makes anyway is
// filed under upg.skip-ineligible, first, not under proto.answer or an ID rule.
TEST(Attribution, APrimaryKeyFromIneligibleIdentifiersIsUpgSkipIneligible) {
  Schema s = OrdersSchema();
  s.fields.push_back(Col(4, "shape", true, P(TypeId::kGeometry)));
  s.identifier_field_ids = std::vector<FieldId>{1, 4};
  ModelSession m;
  m.Create(s, 3);
  AllowedOutcome o;
  Answer a = m.Canonical(Upgrade{4}, &o);
  ASSERT_TRUE(Judge(o, a).empty());
  a.metadata->constraints->push_back(Pk("pk", false, {1, 4}));
  a.metadata->constraints->back().id = 1;
  a.metadata->constraints->back().timestamp_ms = 1;
  a.metadata->last_constraint_id = 1;
  const Findings f = Judge(o, a);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front().rule, RuleId::kUpgSkipIneligible) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kProtoAnswer)) << Describe(f);
  // Elsewhere an unexpected constraint stays the protocol's finding.
  ModelSession plain;
  plain.Create();
  AllowedOutcome po;
  Answer pa = plain.Canonical(Append({Order("a", 1, 1)}), &po);
  Constraint extra = Unique("extra", false, {1});
  extra.id = 7;
  extra.timestamp_ms = 1;
  pa.metadata->constraints = std::vector<Constraint>{extra};
  EXPECT_TRUE(Names(Judge(po, pa), RuleId::kProtoAnswer)) << Describe(Judge(po, pa));
}

// keys-only-among-added: a unique that is not enforced, validated, then an append whose
// key collides with a remaining row recorded `valid`: the status is false (st.valid), and
// it shows the writer did not verify the added keys against the remaining rows
// (enf.keys-against-remaining), so both are named.
TEST(Attribution, AValidStatusOverACollidingAddNamesKeysAgainstRemaining) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", false, {2}));
  m.Write(Append({Order("a", 1, 1), Order("b", 2, 2)}));
  m.Step(Validate{{"u"}});
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("c", 3, 1)}), &o);
  ASSERT_TRUE(Judge(o, a).empty());
  Record(a, m.IdOf("u"), ConstraintStatus::kValid);
  const Findings f = Judge(o, a);
  EXPECT_TRUE(Names(f, RuleId::kStValid)) << Describe(f);
  EXPECT_TRUE(Names(f, RuleId::kEnfKeysAgainstRemaining)) << Describe(f);
  // A key that holds after the append: `valid` is allowed, nothing is named.
  AllowedOutcome fine;
  Answer b = m.Canonical(Append({Order("d", 4, 9)}), &fine);
  Record(b, m.IdOf("u"), ConstraintStatus::kValid);
  EXPECT_TRUE(Judge(fine, b).empty()) << Describe(Judge(fine, b));
}

// modified-not-rechecked: a modified row counts as an added one (enf.modified-row); a
// modification that makes two keys collide recorded `valid` names that rule beside
// st.valid.
TEST(Attribution, AValidStatusOverABreakingModificationNamesModifiedRow) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", false, {2}));
  m.Write(Append({Order("a", 1, 1), Order("b", 2, 2)}));
  m.Step(Validate{{"u"}});
  AllowedOutcome o;
  Answer a = m.Canonical(Overwrite({}, {}, {Order("b", 2, 1)}), &o);
  ASSERT_TRUE(Judge(o, a).empty());
  Record(a, m.IdOf("u"), ConstraintStatus::kValid);
  const Findings f = Judge(o, a);
  EXPECT_TRUE(Names(f, RuleId::kStValid)) << Describe(f);
  EXPECT_TRUE(Names(f, RuleId::kEnfModifiedRow)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kEnfKeysAgainstRemaining)) << Describe(f);
}

/// `x IS NULL OR x > threshold` on an int, as the generators' UDFs.
FunctionDefinition GreaterThan(std::string name, int64_t threshold) {
  FunctionDefinition f;
  f.name = std::move(name);
  f.parameters = {{"x", P(TypeId::kInt)}};
  f.return_type = P(TypeId::kBoolean);
  Expr x;
  x.op = ExprOp::kParameter;
  x.name = "x";
  f.body = Expr::Binary(ExprOp::kOr, Expr::Unary(ExprOp::kIsNull, x),
                        Expr::Binary(ExprOp::kGt, x, Expr::Lit(Value::Long(threshold))));
  return f;
}

// udf-check-keeps-valid: a check calling a UDF recorded `invalid`, its function then
// redefined so that every row holds; a commit that adds rows and keeps the parent's
// `invalid` records a false status (st.invalid) and keeps the parent's status, which "a
// writer must not" do for such a check (expr.udf-status, at the default
// udf-check-carries-invalid = false).
TEST(Attribution, AKeptFalseInvalidOfAUdfCheckNamesUdfStatus) {
  ModelSession m;
  m.Create();
  m.Step(DefineFunction{GreaterThan("f", 5)});
  m.Add(Check("c", false,
              Expr::Binary(ExprOp::kEq, Expr::Apply("f", {Expr::Ref(2)}),
                           Expr::Lit(Value::Boolean(true)))));
  m.Write(Append({Order("a", 1, 1)}));
  m.Step(DefineFunction{GreaterThan("f", -100)});
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("b", 2, 2)}), &o);
  ASSERT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  Record(a, m.IdOf("c"), ConstraintStatus::kInvalid);
  const Findings f = Judge(o, a);
  EXPECT_TRUE(Names(f, RuleId::kStInvalid)) << Describe(f);
  EXPECT_TRUE(Names(f, RuleId::kExprUdfStatus)) << Describe(f);
}

}  // namespace
}  // namespace ictk
