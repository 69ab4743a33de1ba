/// \file
/// Creating and upgrading tables (model/judge/upgrade.cc) and adding, updating and removing
/// constraints (model/judge/constraint_ops.cc): ice.format-version-up, upg.*, def.v4-only and
/// the ID rules an answer must follow (id.*).
#include <gtest/gtest.h>

#include "model/judge/operations.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT

Schema WithIdentifiers(std::vector<FieldId> ids) {
  Schema s = OrdersSchema();
  s.identifier_field_ids = std::move(ids);
  return s;
}

// --- ice.format-version-up ------------------------------------------------------------

TEST(IceFormatVersionUp, VersionsOnlyGoUp) {
  SCOPED_TRACE("ice.format-version-up");
  ModelSession m;
  m.Create(OrdersSchema(), 2);
  EXPECT_TRUE(OnlyOk(m.Outcome(Upgrade{3})));
  AllowedOutcome o;
  Answer a = m.Canonical(Upgrade{4}, &o);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  Answer stuck = a;
  stuck.metadata->format_version = 3;
  stuck.metadata->constraints.reset();
  stuck.metadata->last_constraint_id.reset();
  EXPECT_TRUE(Names(Judge(o, stuck), RuleId::kIceFormatVersionUp));
  m.Step(Upgrade{4});
  EXPECT_TRUE(MustReject(m.Outcome(Upgrade{2}), RejectKind::kUnsupportedFormatVersion));
  EXPECT_TRUE(MustReject(m.Outcome(Upgrade{5}), RejectKind::kUnsupportedFormatVersion));
  AllowedOutcome same = m.Outcome(Upgrade{4});
  EXPECT_TRUE(same.ok_allowed && same.reject_allowed) << "not an upgrade: either";
  EXPECT_TRUE(MustReject(m.Outcome(CreateTable{7, OrdersSchema()}, "u"),
                         RejectKind::kUnsupportedFormatVersion));
}

// --- upg.* ----------------------------------------------------------------------------

TEST(UpgPkFromIdentifiers, IdentifierFieldsBecomeAnUnenforcedPrimaryKey) {
  SCOPED_TRACE("upg.pk-from-identifiers");
  ModelSession m;
  m.Create(WithIdentifiers({1}), 2);
  m.Write(Append({Order("r1", 1, 1)}));
  AllowedOutcome o;
  Answer a = m.Canonical(Upgrade{4}, &o);
  EXPECT_TRUE(Decides(o, RuleId::kUpgPkFromIdentifiers));
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  ASSERT_EQ(a.metadata->constraints->size(), 1u);
  const Constraint& pk = a.metadata->constraints->front();
  EXPECT_EQ(pk.name, "pk");
  EXPECT_EQ(pk.enforced, false);
  EXPECT_EQ(pk.id, 1);
  EXPECT_EQ(pk.timestamp_ms, m.now()) << "the time of the upgrade";  // Canonical: no tick
  Answer none = a;
  none.metadata->constraints->clear();
  none.metadata->last_constraint_id = 0;
  EXPECT_TRUE(Names(Judge(o, none), RuleId::kUpgPkFromIdentifiers));
  Answer enforced = a;
  enforced.metadata->constraints->front().enforced = true;
  EXPECT_TRUE(Names(Judge(o, enforced), RuleId::kUpgPkFromIdentifiers));
  m.Step(Upgrade{4});
  // The generated key is indexed like any other and judged in the next snapshot.
  AllowedOutcome next = m.Outcome(Append({Order("r2", 1, 1)}));
  EXPECT_TRUE(OnlyOk(next)) << "not enforced";
  EXPECT_TRUE(StatusesOf(next, "pk").Contains(ConstraintStatus::kInvalid));
  // The pre-upgrade schema may keep its identifier-field-ids (readers ignore them).
  EXPECT_TRUE(m.metadata().CurrentSchema()->identifier_field_ids.has_value());
}

TEST(UpgSkipIneligible, IneligibleIdentifierFieldsGiveNoConstraint) {
  SCOPED_TRACE("upg.skip-ineligible");
  Schema s = OrdersSchema();
  s.fields.push_back(Col(4, "shape", true, P(TypeId::kGeometry)));
  s.identifier_field_ids = std::vector<FieldId>{1, 4};
  ModelSession m;
  m.Create(s, 3);
  AllowedOutcome o;
  Answer a = m.Canonical(Upgrade{4}, &o);
  EXPECT_TRUE(Decides(o, RuleId::kUpgSkipIneligible)) << ToString(o);
  EXPECT_TRUE(a.metadata->constraints->empty());
  EXPECT_TRUE(Judge(o, a).empty());
  Answer with_pk = a;
  with_pk.metadata->constraints->push_back(Pk("pk", false, {1, 4}));
  with_pk.metadata->constraints->back().id = 1;
  with_pk.metadata->constraints->back().timestamp_ms = 1;
  with_pk.metadata->last_constraint_id = 1;
  EXPECT_FALSE(Judge(o, with_pk).empty());
}

TEST(UpgNoIdentifiersInV4, CreatingAV4TableWithIdentifiers) {
  SCOPED_TRACE("upg.no-identifiers-in-v4");
  ModelSession m;
  AllowedOutcome o;
  Answer a = m.Canonical(CreateTable{4, WithIdentifiers({1})}, &o);
  EXPECT_TRUE(o.ok_allowed && o.reject_allowed) << "rejected, or accepted without them";
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  EXPECT_FALSE(a.metadata->schemas[0].identifier_field_ids.has_value());
  Answer without_pk = a;
  without_pk.metadata->constraints->clear();
  without_pk.metadata->last_constraint_id = 0;
  EXPECT_TRUE(Judge(o, without_pk).empty()) << "with or without a generated pk";
  Answer kept = a;
  kept.metadata->schemas[0].identifier_field_ids = std::vector<FieldId>{1};
  EXPECT_TRUE(Names(Judge(o, kept), RuleId::kUpgNoIdentifiersInV4));
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kInvalidSchemaChange)).empty());
}

// --- def.v4-only ----------------------------------------------------------------------

TEST(DefV4Only, ConstraintsNeedAV4Table) {
  SCOPED_TRACE("def.v4-only");
  ModelSession m;
  m.Create(OrdersSchema(), 3);
  AllowedOutcome o = m.Outcome(AddConstraint{Pk("pk", true, {1})});
  EXPECT_TRUE(MustReject(o, RejectKind::kUnsupportedFormatVersion));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kDefV4Only));
  // A v3 answer must not carry the v4 fields.
  AllowedOutcome c;
  Answer a = m.Canonical(Append({Order("r1", 1, 1)}), &c);
  EXPECT_TRUE(Judge(c, a).empty()) << Describe(Judge(c, a));
  a.metadata->last_constraint_id = 0;
  EXPECT_TRUE(Names(Judge(c, a), RuleId::kDefV4Only));
  ModelSession v4;
  v4.Create();
  EXPECT_TRUE(OnlyOk(v4.Outcome(AddConstraint{Pk("pk", true, {1})})));
}

TEST(DefinitionRules, AnInvalidDefinitionIsAnInvalidConstraint) {
  SCOPED_TRACE("def.* through constraint_rules.h");
  ModelSession m;
  m.Create();
  EXPECT_TRUE(MustReject(m.Outcome(AddConstraint{Pk("pk", true, {2})}),
                         RejectKind::kInvalidConstraint))
      << "key.pk-required: qty is optional";
  m.Add(Pk("pk", true, {1}));
  EXPECT_TRUE(MustReject(m.Outcome(AddConstraint{Pk("pk2", true, {1})}),
                         RejectKind::kInvalidConstraint))
      << "def.single-pk";
  EXPECT_TRUE(MustReject(m.Outcome(AddConstraint{Unique("pk", true, {3})}),
                         RejectKind::kInvalidConstraint))
      << "def.name-unique";
}

// --- id.* -----------------------------------------------------------------------------

TEST(IdLastDefaultZero, AnAbsentLastConstraintIdIsZero) {
  SCOPED_TRACE("id.last-default-zero");
  ModelSession m;
  Answer created = m.Canonical(CreateTable{4, OrdersSchema()});
  created.metadata->last_constraint_id.reset();
  ASSERT_TRUE(m.StepWith(CreateTable{4, OrdersSchema()}, created).empty());
  AllowedOutcome o;
  Answer a = m.Canonical(AddConstraint{Pk("pk", true, {1})}, &o);
  EXPECT_EQ(o.metadata->base_last_constraint_id, 0);
  EXPECT_EQ(a.metadata->constraints->front().id, 1);
  EXPECT_TRUE(Judge(o, a).empty());
  a.metadata->constraints->front().id = 0;
  a.metadata->last_constraint_id = 0;
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kIdAboveLast));
}

TEST(IdAboveLast, ANewIdIsAboveLastConstraintId) {
  SCOPED_TRACE("id.above-last");
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", true, {1}));
  AllowedOutcome o;
  Answer a = m.Canonical(AddConstraint{Unique("u", true, {3})}, &o);
  EXPECT_TRUE(Judge(o, a).empty());
  Answer high = a;
  high.metadata->constraints->back().id = 40;
  high.metadata->last_constraint_id = 40;
  EXPECT_TRUE(Judge(o, high).empty()) << "any ID above last";
  Answer at_last = a;
  at_last.metadata->constraints->back().id = 1;
  at_last.metadata->last_constraint_id = 1;
  EXPECT_TRUE(Names(Judge(o, at_last), RuleId::kIdAboveLast));
}

TEST(IdUpdateLast, LastConstraintIdIsTheHighestAssigned) {
  SCOPED_TRACE("id.update-last");
  ModelSession m;
  m.Create();
  AllowedOutcome o;
  Answer a = m.Canonical(AddConstraint{Pk("pk", true, {1})}, &o);
  EXPECT_TRUE(Judge(o, a).empty());
  a.metadata->last_constraint_id = 5;
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kIdUpdateLast));
  // A removal keeps last-constraint-id.
  m.Add(Pk("pk", true, {1}));
  AllowedOutcome r;
  Answer removed = m.Canonical(RemoveConstraint{"pk"}, &r);
  EXPECT_TRUE(Judge(r, removed).empty());
  EXPECT_EQ(LastConstraintId(*removed.metadata), 1);
  removed.metadata->last_constraint_id = 0;
  EXPECT_TRUE(Names(Judge(r, removed), RuleId::kIdUpdateLast));
}

TEST(IdNoReuse, ARemovedIdIsNotAssignedAgain) {
  SCOPED_TRACE("id.no-reuse");
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", true, {1}));
  // An implementation that lowered last-constraint-id on removal (itself a failure)...
  Answer lowered = m.Canonical(RemoveConstraint{"pk"});
  lowered.metadata->last_constraint_id = 0;
  EXPECT_TRUE(Names(m.StepWith(RemoveConstraint{"pk"}, lowered), RuleId::kIdUpdateLast));
  EXPECT_TRUE(m.table().removed_constraint_ids.count(1));
  // ... and then hands out ID 1 again: above its last-constraint-id, but reused.
  AllowedOutcome o;
  Answer a = m.Canonical(AddConstraint{Pk("pk", true, {1})}, &o);
  EXPECT_EQ(a.metadata->constraints->front().id, 1);
  const Findings f = Judge(o, a);
  EXPECT_TRUE(Names(f, RuleId::kIdNoReuse)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kIdAboveLast));
  a.metadata->constraints->front().id = 2;
  a.metadata->last_constraint_id = 2;
  EXPECT_TRUE(Judge(o, a).empty());
}

TEST(UpdateConstraint, OnlyNameAndEnforcedChangeWithANewTimestamp) {
  SCOPED_TRACE("upd.timestamp, upd.definition-immutable");
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", false, {1}));
  ConstraintUpdate set;
  set.name = "primary";
  set.enforced = true;
  AllowedOutcome o;
  Answer a = m.Canonical(UpdateConstraint{"pk", set}, &o);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  Answer stale = a;
  stale.metadata->constraints->front().timestamp_ms =
      m.metadata().constraints->front().timestamp_ms;
  EXPECT_TRUE(Names(Judge(o, stale), RuleId::kUpdTimestamp));
  Answer changed = a;
  changed.metadata->constraints->front().field_ids = std::vector<FieldId>{1, 3};
  EXPECT_TRUE(Names(Judge(o, changed), RuleId::kUpdDefinitionImmutable));
  ConstraintUpdate bad;
  bad.field_ids = std::vector<FieldId>{3};
  EXPECT_TRUE(MustReject(m.Outcome(UpdateConstraint{"pk", bad}),
                         RejectKind::kInvalidConstraintUpdate));
  m.Step(UpdateConstraint{"pk", set});
  EXPECT_EQ(m.IdOf("primary"), 1);
}

TEST(UpdDefinitionImmutable, SwitchRestatedDefinition) {
  SCOPED_TRACE("upd.definition-immutable, restated-definition");
  for (RestatedDefinition mode :
       {RestatedDefinition::kEither, RestatedDefinition::kReject,
        RestatedDefinition::kAccept}) {
    ModelSession m;
    m.switches().restated_definition = mode;
    m.Create();
    m.Add(Pk("pk", false, {1}));
    ConstraintUpdate set;
    set.enforced = true;
    set.field_ids = std::vector<FieldId>{1};  // the current field-ids, restated
    AllowedOutcome o = m.Outcome(UpdateConstraint{"pk", set});
    EXPECT_EQ(o.ok_allowed, mode != RestatedDefinition::kReject);
    EXPECT_EQ(o.reject_allowed, mode != RestatedDefinition::kAccept);
  }
}

}  // namespace
}  // namespace ictk
