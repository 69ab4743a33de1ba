/// \file
/// The judge as wide as the spec (docs/protocol.md sections 7, 8 and 10): the constraints
/// each kind of rejection is about (proto.rejection-constraint-ids), a request with two
/// causes allowing the kind of either, a refusal of a legal single value filed under
/// ice.single-value, timestamps whose value is specified (upg.pk-from-identifiers,
/// proto.timestamp-from-now), and switch invalid-metadata-on-read.
#include <gtest/gtest.h>

#include <limits>

#include "model/judge/operations.h"
#include "model/iceberg/single_value.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT

using Ids = std::set<ConstraintId>;

/// orders with pk (1, enforced), qty_positive (2, enforced check on qty) and email_unique
/// (3, unique on email, not enforced).
ModelSession Orders() {
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", true, {1}));
  m.Add(Check("qty_positive", true, PositiveOrNull(2)));
  m.Add(Unique("email_unique", false, {3}));
  return m;
}

Findings OnlyRule(const Findings& all, RuleId rule) {
  Findings out;
  for (const Finding& f : all)
    if (f.rule == rule) out.push_back(f);
  return out;
}

// --- constraint-ids per error kind ------------------------------------------------------

TEST(RejectionConstraintIds, ASchemaChangeRejectionIsAboutTheBlockingConstraint) {
  SCOPED_TRACE("proto.rejection-constraint-ids");
  ModelSession m = Orders();
  // Deleting qty (referenced by qty_positive) and making order_id optional (the pk).
  for (const auto& [change, blocking] :
       std::vector<std::pair<SchemaChange, ConstraintId>>{
           {DeleteColumn{2}, 2}, {MakeOptional{1}, 1}, {DeleteColumn{3}, 3}}) {
    AllowedOutcome o = m.Outcome(Change(change));
    ASSERT_TRUE(MustReject(o, RejectKind::kInvalidSchemaChange)) << ToString(o);
    EXPECT_EQ(o.ConstraintIdsOf(RejectKind::kInvalidSchemaChange), Ids{blocking});
    // The blocking constraint, none, or an absent list all pass.
    EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kInvalidSchemaChange, {blocking}))
                    .empty())
        << Describe(
               Judge(o, Answer::Rejected(RejectKind::kInvalidSchemaChange, {blocking})));
    Answer empty_list = Answer::Rejected(RejectKind::kInvalidSchemaChange);
    empty_list.error_constraint_ids = std::vector<ConstraintId>{};
    EXPECT_TRUE(Judge(o, empty_list).empty());
    EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kInvalidSchemaChange)).empty());
  }
}

TEST(RejectionConstraintIds, AnUnrelatedConstraintFailsUnderTheConventionWithTheFinding) {
  SCOPED_TRACE("proto.rejection-constraint-ids");
  ModelSession m = Orders();
  AllowedOutcome o = m.Outcome(Change(DeleteColumn{2}));
  const Findings f = Judge(o, Answer::Rejected(RejectKind::kInvalidSchemaChange, {1, 2}));
  ASSERT_EQ(f.size(), 1u) << Describe(f);
  // Named under the convention, never under the rule the implementation obeyed.
  EXPECT_EQ(f[0].rule, RuleId::kProtoRejectionConstraintIds);
  EXPECT_FALSE(Names(f, RuleId::kSchRemoveReferenced));
  EXPECT_EQ(f[0].constraint_id, 1);
  EXPECT_EQ(f[0].detail,
            "the rejection names constraint 1, which this invalid-schema-change is not "
            "about (allowed: any subset of [2])");
}

TEST(RejectionConstraintIds, AnUpdateRejectionIsAboutTheUpdatedConstraint) {
  SCOPED_TRACE("proto.rejection-constraint-ids");
  ModelSession m = Orders();
  UpdateConstraint retype{"qty_positive", {}};
  retype.set.type = "unique";
  AllowedOutcome o = m.Outcome(retype);
  ASSERT_TRUE(MustReject(o, RejectKind::kInvalidConstraintUpdate)) << ToString(o);
  EXPECT_EQ(o.ConstraintIdsOf(RejectKind::kInvalidConstraintUpdate), Ids{2});
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kInvalidConstraintUpdate, {2})).empty());
  EXPECT_TRUE(Names(Judge(o, Answer::Rejected(RejectKind::kInvalidConstraintUpdate, {1})),
                    RuleId::kProtoRejectionConstraintIds));
  // A rename onto another constraint's name: about both, under either kind.
  UpdateConstraint rename{"qty_positive", {}};
  rename.set.name = "pk";
  AllowedOutcome r = m.Outcome(rename);
  EXPECT_EQ(r.ConstraintIdsOf(RejectKind::kInvalidConstraintUpdate), (Ids{1, 2}));
  EXPECT_EQ(r.ConstraintIdsOf(RejectKind::kInvalidConstraint), (Ids{1, 2}));
  EXPECT_TRUE(Judge(r, Answer::Rejected(RejectKind::kInvalidConstraint, {1})).empty());
}

TEST(RejectionConstraintIds, AnInvalidConstraintIsAboutTheExistingOneItClashesWith) {
  SCOPED_TRACE("proto.rejection-constraint-ids");
  ModelSession m = Orders();
  // A duplicate name: about email_unique (3), not the candidate's provisional ID 4.
  AllowedOutcome dup = m.Outcome(AddConstraint{Unique("email_unique", false, {2})});
  ASSERT_TRUE(MustReject(dup, RejectKind::kInvalidConstraint)) << ToString(dup);
  EXPECT_EQ(dup.ConstraintIdsOf(RejectKind::kInvalidConstraint), Ids{3});
  EXPECT_TRUE(Judge(dup, Answer::Rejected(RejectKind::kInvalidConstraint, {3})).empty());
  EXPECT_TRUE(Names(Judge(dup, Answer::Rejected(RejectKind::kInvalidConstraint, {4})),
                    RuleId::kProtoRejectionConstraintIds));
  // A second primary key: about the first.
  AllowedOutcome pk2 = m.Outcome(AddConstraint{Pk("pk2", false, {1})});
  ASSERT_TRUE(MustReject(pk2, RejectKind::kInvalidConstraint)) << ToString(pk2);
  EXPECT_EQ(pk2.ConstraintIdsOf(RejectKind::kInvalidConstraint), Ids{1});
  // A definition that breaks a key rule is about no existing constraint.
  Schema with_double = OrdersSchema();
  with_double.fields.push_back(Col(4, "price", false, P(TypeId::kDouble)));
  ModelSession d;
  d.Create(with_double);
  AllowedOutcome f = d.Outcome(AddConstraint{Unique("price_unique", false, {4})});
  ASSERT_TRUE(MustReject(f, RejectKind::kInvalidConstraint)) << ToString(f);
  EXPECT_TRUE(f.ConstraintIdsOf(RejectKind::kInvalidConstraint).empty());
  const Findings named = Judge(f, Answer::Rejected(RejectKind::kInvalidConstraint, {1}));
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].rule, RuleId::kProtoRejectionConstraintIds);
  EXPECT_NE(named[0].detail.find("it is about no constraint"), std::string::npos);
}

TEST(RejectionConstraintIds, AViolationIsAboutTheViolatedConstraintsOnly) {
  SCOPED_TRACE("proto.rejection-constraint-ids");
  ModelSession m = Orders();
  m.Write(Append({Order("r1", 1, 5)}));
  AllowedOutcome o = m.Outcome(Append({Order("r2", 2, -1)}));
  ASSERT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_EQ(o.ConstraintIdsOf(RejectKind::kConstraintViolation), Ids{2});
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kConstraintViolation, {2})).empty());
  const Findings f = Judge(o, Answer::Rejected(RejectKind::kConstraintViolation, {1}));
  ASSERT_EQ(f.size(), 1u) << Describe(f);
  EXPECT_EQ(f[0].rule, RuleId::kProtoRejectionConstraintIds);
  EXPECT_FALSE(Names(f, RuleId::kEnfEnforced));
}

TEST(RejectionConstraintIds, AnUnverifiableCheckIsWhatTheRejectionIsAbout) {
  SCOPED_TRACE("proto.rejection-constraint-ids");
  ModelSession m;
  m.Create();
  Expr x;
  x.op = ExprOp::kParameter;
  x.name = "x";
  FunctionDefinition f;
  f.name = "is_positive";
  f.parameters = {{"x", P(TypeId::kLong)}};
  f.return_type = P(TypeId::kBoolean);
  f.body = Expr::Binary(ExprOp::kGt, x, Expr::Lit(Value::Long(0)));
  f.deterministic = true;
  m.Step(DefineFunction{f});
  m.Add(Pk("pk", false, {1}));
  m.Add(Check("udf_check", true, Expr::Apply("is_positive", {Expr::Ref(1)})));
  // Redefined to recurse forever: it can no longer be evaluated.
  f.body = Expr::Apply("is_positive", {x});
  m.Step(DefineFunction{f});
  AllowedOutcome o = m.Outcome(Append({Order("r1", 1, 5)}));
  ASSERT_TRUE(MustReject(o, RejectKind::kUnverifiableConstraint)) << ToString(o);
  EXPECT_EQ(o.ConstraintIdsOf(RejectKind::kUnverifiableConstraint), Ids{m.IdOf("udf_check")});
  EXPECT_TRUE(Names(Judge(o, Answer::Rejected(RejectKind::kUnverifiableConstraint,
                                              {m.IdOf("pk")})),
                    RuleId::kProtoRejectionConstraintIds));
}

// --- two causes: the kind of either -----------------------------------------------------

TEST(TwoCauses, AMalformedCommitThatAlsoBreaksAnEnforcedConstraintAllowsBothKinds) {
  SCOPED_TRACE("proto.request + enf.enforced");
  ModelSession m = Orders();
  m.Write(Append({Order("r1", 1, 5)}));
  // r1 is already live (invalid-request); r2 breaks qty_positive (constraint-violation).
  AllowedOutcome o = m.Outcome(Append({Order("r1", 9, 1), Order("r2", 2, -1)}));
  EXPECT_TRUE(o.must_reject());
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kInvalidRequest)) << ToString(o);
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kConstraintViolation)) << ToString(o);
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kInvalidRequest)).empty());
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kConstraintViolation, {2})).empty());
  // Answered ok: both causes are named.
  const Findings ok = Judge(o, Answer::Ok(m.metadata()));
  EXPECT_TRUE(Names(ok, RuleId::kProtoRequest)) << Describe(ok);
  EXPECT_TRUE(Names(ok, RuleId::kEnfEnforced)) << Describe(ok);
  // A malformed commit whose rows break nothing allows invalid-request only.
  AllowedOutcome only = m.Outcome(Append({Order("r1", 9, 1)}));
  EXPECT_EQ(only.reject_kinds, std::set<RejectKind>{RejectKind::kInvalidRequest});
}

TEST(TwoCauses, AnInvalidConstraintOnAV3TableAllowsEitherKind) {
  SCOPED_TRACE("def.v4-only + key.no-float-double");
  Schema with_double = OrdersSchema();
  with_double.fields.push_back(Col(4, "price", false, P(TypeId::kDouble)));
  ModelSession m;
  m.Create(with_double, 3);
  AllowedOutcome o = m.Outcome(AddConstraint{Unique("price_unique", false, {4})});
  EXPECT_TRUE(o.must_reject());
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kUnsupportedFormatVersion));
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kInvalidConstraint)) << ToString(o);
}

// --- wrong kind: the finding says why --------------------------------------------------

TEST(Attribution, AWrongKindSaysWhichKindsTheCausesAllow) {
  ModelSession m = Orders();
  AllowedOutcome o = m.Outcome(Change(DeleteColumn{2}));
  const Findings f = Judge(o, Answer::Rejected(RejectKind::kInvalidConstraint));
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0].rule, RuleId::kSchRemoveReferenced);
  EXPECT_NE(f[0].detail.find("rejected with invalid-constraint, which no cause of this "
                             "request allows (allowed kinds: {invalid-schema-change})"),
            std::string::npos)
      << f[0].detail;
}

// --- ice.single-value -------------------------------------------------------------------

TEST(IceSingleValue, UnusualValuesAreRecognised) {
  const Type tz = P(TypeId::kTimestampTz);
  // The value of the issue: 9999-12-31T23:59:59.999999Z written at +01:00.
  const std::string why =
      UnusualSingleValue(Value::String("+10000-01-01T00:59:59.999999+01:00"), tz);
  EXPECT_NE(why.find("canonically"), std::string::npos) << why;
  EXPECT_NE(why.find("year 9999 or later"), std::string::npos) << why;
  EXPECT_EQ(UnusualSingleValue(Value::String("2017-11-16T22:31:08.123456+00:00"), tz), "");
  EXPECT_NE(UnusualSingleValue(Value::String("2017-11-16T23:31:08.123456+01:00"), tz), "");
  EXPECT_NE(UnusualSingleValue(Value::Long(std::numeric_limits<int64_t>::max()),
                               P(TypeId::kLong)),
            "");
  EXPECT_EQ(UnusualSingleValue(Value::Long(42), P(TypeId::kLong)), "");
  EXPECT_NE(UnusualSingleValue(Value::Long(std::numeric_limits<int32_t>::min()),
                               P(TypeId::kInt)),
            "");
  EXPECT_NE(UnusualSingleValue(Value::String("caf\xc3\xa9"), P(TypeId::kString)), "");
  EXPECT_EQ(UnusualSingleValue(Value::String("cafe"), P(TypeId::kString)), "");
  EXPECT_NE(UnusualSingleValue(Value::Double(-0.0), P(TypeId::kDouble)), "");
  // A value that does not bind is malformed, not unusual.
  EXPECT_EQ(UnusualSingleValue(Value::String("not a time"), tz), "");
}

TEST(IceSingleValue, RefusingALegalExtremeValueIsFiledApart) {
  SCOPED_TRACE("ice.single-value");
  Schema s = OrdersSchema();
  s.fields.push_back(Col(4, "at", false, P(TypeId::kTimestampTz)));
  ModelSession m;
  m.Create(s);
  const Row row = MakeRow(
      "r1", {{1, Value::Long(1)}, {4, Value::String("+10000-01-01T00:59:59.999999+01:00")}});
  AllowedOutcome o = m.Outcome(Append({row}));
  ASSERT_TRUE(OnlyOk(o)) << ToString(o);
  ASSERT_EQ(o.unusual_values.size(), 1u);
  EXPECT_NE(o.unusual_values[0].find("row r1 field 4"), std::string::npos);
  // invalid-request, error and unsupported are filed under ice.single-value only.
  Answer error;
  error.result = AnswerResult::kError;
  error.message = "cannot parse timestamp";
  for (const Answer& a : {Answer::Rejected(RejectKind::kInvalidRequest), error}) {
    const Findings f = Judge(o, a);
    ASSERT_EQ(f.size(), 1u) << Describe(f);
    EXPECT_EQ(f[0].rule, RuleId::kIceSingleValue);
    EXPECT_FALSE(Names(f, RuleId::kProtoAnswer));
  }
  // Another wrong answer is not a single-value problem.
  EXPECT_FALSE(
      Names(Judge(o, Answer::Rejected(RejectKind::kConstraintViolation)),
            RuleId::kIceSingleValue));
  // An ordinary row refused is still proto.answer.
  AllowedOutcome plain = m.Outcome(Append({Order("r2", 2, 1)}));
  EXPECT_TRUE(plain.unusual_values.empty());
  EXPECT_TRUE(Names(Judge(plain, error), RuleId::kProtoAnswer));
  // A malformed row makes invalid-request the answer: nothing unusual is recorded.
  const Row bad = MakeRow("r3", {{1, Value::String("x")}, {4, row.values.children[1]}});
  AllowedOutcome malformed = m.Outcome(Append({bad}));
  EXPECT_TRUE(malformed.unusual_values.empty());
  EXPECT_TRUE(Judge(malformed, Answer::Rejected(RejectKind::kInvalidRequest)).empty());
}

// --- timestamps whose value is specified -----------------------------------------------

TEST(Timestamps, TheUpgradePkCarriesTheTimeOfTheUpgrade) {
  SCOPED_TRACE("upg.pk-from-identifiers");
  Schema s = OrdersSchema();
  s.identifier_field_ids = std::vector<FieldId>{1};
  ModelSession m;
  m.Create(s, 2);
  AllowedOutcome o;
  Answer a = m.Canonical(Upgrade{4}, &o);
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  Answer early = a;
  early.metadata->constraints->front().timestamp_ms = 5;
  const Findings f = Judge(o, early);
  ASSERT_EQ(OnlyRule(f, RuleId::kUpgPkFromIdentifiers).size(), 1u) << Describe(f);
  EXPECT_NE(f[0].detail.find("the time of the upgrade"), std::string::npos);
}

TEST(Timestamps, AddedAndUpdatedConstraintsTakeNowMs) {
  SCOPED_TRACE("proto.timestamp-from-now");
  ModelSession m = Orders();
  AllowedOutcome o;
  Answer a = m.Canonical(AddConstraint{Unique("qty_unique", false, {2})}, &o);
  EXPECT_TRUE(Judge(o, a).empty());
  Answer other = a;
  other.metadata->constraints->back().timestamp_ms = 1;
  EXPECT_TRUE(Names(Judge(o, other), RuleId::kProtoTimestampFromNow));
  UpdateConstraint enforce{"email_unique", {}};
  enforce.set.enforced = true;
  AllowedOutcome u;
  Answer ua = m.Canonical(enforce, &u);
  EXPECT_TRUE(Judge(u, ua).empty()) << Describe(Judge(u, ua));
  Answer wrong = ua;
  for (Constraint& c : *wrong.metadata->constraints)
    if (c.name == "email_unique") c.timestamp_ms = 999'999;
  const Findings f = Judge(u, wrong);
  EXPECT_TRUE(Names(f, RuleId::kProtoTimestampFromNow)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kUpdTimestamp)) << "it did change";
  // Kept: reported once, under upd.timestamp.
  Answer kept = ua;
  for (Constraint& c : *kept.metadata->constraints)
    if (c.name == "email_unique") c.timestamp_ms = m.metadata().constraints->at(2).timestamp_ms;
  const Findings k = Judge(u, kept);
  EXPECT_TRUE(Names(k, RuleId::kUpdTimestamp)) << Describe(k);
  EXPECT_FALSE(Names(k, RuleId::kProtoTimestampFromNow)) << Describe(k);
}

// proto.timestamp-from-now/every-timestamp: the snapshot a request writes and the
// last-updated-ms of a change take the request's now-ms.
TEST(Timestamps, SnapshotsAndLastUpdatedTakeNowMs) {
  SCOPED_TRACE("proto.timestamp-from-now/every-timestamp");
  ModelSession m = Orders();
  m.Outcome(LoadTable{});  // the clock runs on: now-ms is ahead of last-updated-ms + 1
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("r1", 1, 5)}), &o);
  ASSERT_TRUE(o.metadata && o.metadata->new_snapshot);
  ASSERT_TRUE(o.metadata->new_snapshot->timestamp_must_be.has_value());
  EXPECT_EQ(o.metadata->last_updated_must_be, o.metadata->new_snapshot->timestamp_must_be);
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  // The table's clock (its last-updated-ms + 1) is above the parent but not now-ms.
  Answer clock = a;
  clock.metadata->snapshots.mutable_back().timestamp_ms =
      m.metadata().last_updated_ms + 1;
  Findings f = Judge(o, clock);
  ASSERT_EQ(OnlyRule(f, RuleId::kProtoTimestampFromNow).size(), 1u) << Describe(f);
  EXPECT_EQ(f.size(), 1u) << Describe(f);
  EXPECT_NE(f[0].detail.find("must be the request's now-ms"), std::string::npos);
  Answer stale = a;
  stale.metadata->last_updated_ms = m.metadata().last_updated_ms;
  f = Judge(o, stale);
  ASSERT_EQ(OnlyRule(f, RuleId::kProtoTimestampFromNow).size(), 1u) << Describe(f);
  EXPECT_EQ(f[0].pointer, "/last-updated-ms");
  // A snapshot not above its parent is reported once, under ice.v4-snapshot-timestamps.
  m.Write(Append({Order("r2", 2, 5)}));
  AllowedOutcome o2;
  Answer b = m.Canonical(Append({Order("r3", 3, 5)}), &o2);
  b.metadata->snapshots.mutable_back().timestamp_ms =
      m.metadata().snapshots.back().timestamp_ms;
  f = Judge(o2, b);
  EXPECT_TRUE(Names(f, RuleId::kIceV4SnapshotTimestamps)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kProtoTimestampFromNow)) << Describe(f);
}

TEST(Timestamps, OnlyWhatTheProtocolNamesIsJudged) {
  SCOPED_TRACE("proto.timestamp-from-now/every-timestamp");
  ModelSession m = Orders();
  // A request without now-ms demands nothing.
  {
    Request r{"t", std::nullopt, Append({Order("r1", 1, 5)})};
    AllowedOutcome o = Apply(m.state(), r, m.switches());
    ASSERT_TRUE(o.metadata && o.metadata->new_snapshot);
    EXPECT_FALSE(o.metadata->last_updated_must_be.has_value());
    EXPECT_FALSE(o.metadata->new_snapshot->timestamp_must_be.has_value());
  }
  // Nothing changes: load-table, begin; a staged commit's snapshot is not written.
  AllowedOutcome load = m.Outcome(LoadTable{});
  ASSERT_TRUE(load.metadata);
  EXPECT_FALSE(load.metadata->last_updated_must_be.has_value());
  m.Step(Begin{"w"});
  Commit in_txn = Append({Order("r1", 1, 5)});
  in_txn.txn = "w";
  AllowedOutcome staged = m.Outcome(in_txn);
  ASSERT_TRUE(staged.metadata);
  EXPECT_FALSE(staged.metadata->last_updated_must_be.has_value());
  if (staged.metadata->new_snapshot)
    EXPECT_FALSE(staged.metadata->new_snapshot->timestamp_must_be.has_value());
  // Changes: a constraint added or removed, a schema change.
  EXPECT_TRUE(m.Outcome(AddConstraint{Unique("qty_unique", false, {2})})
                  .metadata->last_updated_must_be.has_value());
  EXPECT_TRUE(
      m.Outcome(RemoveConstraint{"email_unique"}).metadata->last_updated_must_be.has_value());
}

// ice.single-value/writes: a scanned row wrong only in values at a type extreme.
TEST(IceSingleValue, AScanThatWritesAnExtremeValueWrongIsFiledApart) {
  SCOPED_TRACE("ice.single-value/writes");
  ModelSession m;
  m.Create();
  const int64_t big = (int64_t{1} << 53) + 1;
  m.Write(Append({MakeRow("r1", {{1, Value::Long(big)}, {2, Value::Long(7)}}),
                  MakeRow("r2", {{1, Value::Long(2)}, {2, Value::Long(8)}})}));
  AllowedOutcome o;
  Answer a = m.Canonical(Scan{}, &o);
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  // Written through a double: 2^53 + 1 comes back as 2^53.
  Answer rounded = a;
  for (Row& r : *rounded.rows)
    if (r.key == "r1")
      r.values = Value::Struct({1, 2}, {Value::Double(9007199254740992.0), Value::Long(7)});
  Findings f = Judge(o, rounded);
  ASSERT_EQ(f.size(), 1u) << Describe(f);
  EXPECT_EQ(f[0].rule, RuleId::kIceSingleValue);
  EXPECT_NE(f[0].detail.find("field 1 (order_id): written 9007199254740992"), std::string::npos)
      << f[0].detail;
  EXPECT_NE(f[0].detail.find("expected 9007199254740993"), std::string::npos) << f[0].detail;
  // Wrong also in an ordinary value: a wrong row.
  Answer both = rounded;
  for (Row& r : *both.rows)
    if (r.key == "r1")
      r.values = Value::Struct({1, 2}, {Value::Double(9007199254740992.0), Value::Long(6)});
  f = Judge(o, both);
  EXPECT_TRUE(Names(f, RuleId::kSemLiveRows)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kIceSingleValue)) << Describe(f);
  // An ordinary value wrong: a wrong row.
  Answer plain = a;
  for (Row& r : *plain.rows)
    if (r.key == "r2") r.values = Value::Struct({1, 2}, {Value::Long(3), Value::Long(8)});
  f = Judge(o, plain);
  EXPECT_TRUE(Names(f, RuleId::kSemLiveRows)) << Describe(f);
  EXPECT_FALSE(Names(f, RuleId::kIceSingleValue)) << Describe(f);
  EXPECT_FALSE(UnusualBoundValues(Value::Long(big), P(TypeId::kLong), "field 1").empty());
  EXPECT_TRUE(UnusualBoundValues(Value::Long(7), P(TypeId::kLong), "field 1").empty());
}

// --- switch invalid-metadata-on-read ----------------------------------------------------

TableMetadata TwoPrimaryKeys() {
  ModelSession m = Orders();
  TableMetadata md = m.metadata();
  Constraint second = md.constraints->at(2);
  second.type = ConstraintType::kPrimaryKey;
  second.raw_type = "primary-key";
  second.name = "pk2";
  second.field_ids = std::vector<FieldId>{1};
  second.id = 4;
  md.constraints->push_back(second);
  md.last_constraint_id = 4;
  return md;
}

TableMetadata TwoConstraintsWithOneId() {
  ModelSession m = Orders();
  TableMetadata md = m.metadata();
  md.constraints->at(2).id = 2;
  return md;
}

TEST(InvalidMetadataOnRead, EitherAcceptsOrRefusesRejectMustRefuse) {
  SCOPED_TRACE("switch invalid-metadata-on-read");
  for (const TableMetadata& md : {TwoPrimaryKeys(), TwoConstraintsWithOneId()}) {
    ModelSession either;
    AllowedOutcome e = either.Outcome(ParseMetadata{md}, "");
    EXPECT_TRUE(e.ok_allowed && e.reject_allowed) << ToString(e);
    EXPECT_TRUE(Judge(e, Answer::Ok(md)).empty()) << Describe(Judge(e, Answer::Ok(md)));
    EXPECT_TRUE(Judge(e, Answer::Rejected(RejectKind::kInvalidMetadata)).empty());

    Switches strict;
    ASSERT_EQ(SetSwitch(strict, "invalid-metadata-on-read", "reject"), "");
    ModelSession reject(strict);
    AllowedOutcome r = reject.Outcome(ParseMetadata{md}, "");
    EXPECT_TRUE(MustReject(r, RejectKind::kInvalidMetadata)) << ToString(r);
    const Findings accepted = Judge(r, Answer::Ok(md));
    EXPECT_FALSE(accepted.empty()) << "a reader that accepts it fails under reject";
    EXPECT_TRUE(Names(accepted, RuleId::kDefSinglePk) || Names(accepted, RuleId::kDefIdUnique))
        << Describe(accepted);
    EXPECT_TRUE(Judge(r, Answer::Rejected(RejectKind::kInvalidMetadata)).empty());
    // read-statuses follows the same switch.
    AllowedOutcome rs = reject.Outcome(ReadStatuses{md, std::nullopt}, "");
    EXPECT_TRUE(MustReject(rs, RejectKind::kInvalidMetadata)) << ToString(rs);
  }
  // Valid metadata is read under either value.
  Switches strict;
  SetSwitch(strict, "invalid-metadata-on-read", "reject");
  ModelSession reject(strict);
  ModelSession m = Orders();
  EXPECT_TRUE(OnlyOk(reject.Outcome(ParseMetadata{m.metadata()}, "")));
}

}  // namespace
}  // namespace ictk
