/// \file
/// Commits through the model (model/judge/commit*.cc): enforcement (enf.*), what "holds" means
/// (sem.*), the allowed statuses of the new snapshot, retries after begin/finish,
/// validate, and existing rows when a constraint becomes enforced. Each test names its
/// rule.
#include <gtest/gtest.h>

#include "model/judge/operations.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT


/// orders with an enforced pk on order_id and a check qty > 0 OR qty IS NULL.
ModelSession Orders(bool check_enforced, Switches switches = {}) {
  ModelSession m(switches);
  m.Create();
  m.Add(Pk("pk", true, {1}));
  m.Add(Check("qty_positive", check_enforced, PositiveOrNull(2)));
  return m;
}

Commit Staged(Commit c, std::string txn) {
  c.txn = std::move(txn);
  return c;
}

FunctionDefinition Udf(std::string name, Expr body, bool deterministic = true) {
  FunctionDefinition f;
  f.name = std::move(name);
  f.parameters = {{"x", P(TypeId::kLong)}};
  f.return_type = P(TypeId::kBoolean);
  f.body = std::move(body);
  f.deterministic = deterministic;
  return f;
}
Expr ParamX() {
  Expr e;
  e.op = ExprOp::kParameter;
  e.name = "x";
  return e;
}
/// f(x) = x > 0
FunctionDefinition IsPositive() {
  return Udf("is_positive",
             Expr::Binary(ExprOp::kGt, ParamX(), Expr::Lit(Value::Long(0))));
}

// --- enf.enforced / enf.not-enforced --------------------------------------------------

TEST(EnfEnforced, AddedRowBreakingAnEnforcedCheckIsRejected) {
  SCOPED_TRACE("enf.enforced");
  ModelSession m = Orders(/*check_enforced=*/true);
  AllowedOutcome o = m.Outcome(Append({Order("r1", 1, -1)}));
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfEnforced));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kSemCheck));
  EXPECT_EQ(o.ConstraintIdsOf(RejectKind::kConstraintViolation), (std::set<ConstraintId>{m.IdOf("qty_positive")}));
  EXPECT_FALSE(Judge(o, Answer::Ok(m.metadata())).empty());
}

TEST(EnfEnforced, ConformingRowsAreAccepted) {
  SCOPED_TRACE("enf.enforced");
  ModelSession m = Orders(true);
  AllowedOutcome o = m.Outcome(Append({Order("r1", 1, 5), Order("r2", 2, std::nullopt)}));
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Decides(o, RuleId::kEnfEnforced));
  const Findings f = Judge(o, Answer::Rejected(RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(f, RuleId::kEnfEnforced)) << Describe(f);
}

TEST(EnfNotEnforced, BreakingRowsOfAnUnenforcedConstraintAreAccepted) {
  SCOPED_TRACE("enf.not-enforced");
  ModelSession m = Orders(false);
  AllowedOutcome o = m.Outcome(Append({Order("r1", 1, -1)}));
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Decides(o, RuleId::kEnfNotEnforced));
  EXPECT_TRUE(Names(Judge(o, Answer::Rejected(RejectKind::kConstraintViolation)),
                    RuleId::kEnfNotEnforced));
}

TEST(EnfNotEnforced, SwitchUnenforcedMayRejectAllowsARejection) {
  SCOPED_TRACE("enf.not-enforced, unenforced-may-reject=true");
  Switches sw;
  sw.unenforced_may_reject = true;
  ModelSession m = Orders(false, sw);
  AllowedOutcome o = m.Outcome(Append({Order("r1", 1, -1)}));
  EXPECT_TRUE(o.ok_allowed);
  EXPECT_TRUE(o.reject_allowed);
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kConstraintViolation));
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kConstraintViolation)).empty());
  // Rows that conform are never rejected.
  EXPECT_TRUE(OnlyOk(m.Outcome(Append({Order("r1", 1, 1)}))));
}

// --- enf.modified-row -----------------------------------------------------------------

TEST(EnfModifiedRow, AModifiedRowCountsAsAnAddedRow) {
  SCOPED_TRACE("enf.modified-row");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5), Order("r2", 2, 5)}));
  AllowedOutcome o = m.Outcome(Overwrite({}, {}, {Order("r1", 1, -5)}));
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfModifiedRow));
  // Modifying r2 onto r1's key breaks the primary key the same way.
  o = m.Outcome(Overwrite({}, {}, {Order("r2", 1, 5)}));
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kSemPrimaryKey));
  // A modification that keeps its key and satisfies the check is fine.
  EXPECT_TRUE(OnlyOk(m.Outcome(Overwrite({}, {}, {Order("r1", 1, 6, "new@x")}))));
}

TEST(EnfModifiedRow, SwitchModifiedCountsAsAddedFalseMayAccept) {
  SCOPED_TRACE("enf.modified-row, modified-counts-as-added=false");
  Switches sw;
  sw.modified_counts_as_added = false;
  ModelSession m = Orders(true, sw);
  m.Write(Append({Order("r1", 1, 5)}));
  AllowedOutcome o = m.Outcome(Overwrite({}, {}, {Order("r1", 1, -5)}));
  EXPECT_TRUE(o.ok_allowed);
  EXPECT_TRUE(o.reject_allowed);
  EXPECT_TRUE(Decides(o, RuleId::kEnfModifiedRow));
  // A brand-new row is still checked.
  EXPECT_TRUE(MustReject(m.Outcome(Append({Order("r2", 2, -5)})),
                         RejectKind::kConstraintViolation));
}

TEST(EnfModifiedRow, ModifyOnlyCommitAddsRowsForStatusCarry) {
  SCOPED_TRACE("enf.modified-row with status-carry=must");
  for (bool counts : {true, false}) {
    Switches sw;
    sw.status_carry = StatusCarry::kMust;
    sw.modified_counts_as_added = counts;
    ModelSession m = Orders(true, sw);
    m.Write(Append({Order("r1", 1, 5)}));  // pk, check: validated
    AllowedOutcome o = m.Outcome(Overwrite({}, {}, {Order("r1", 1, 6)}));
    ASSERT_TRUE(o.ok_allowed);
    // Counted as added, the commit carries nothing, so unvalidated is allowed; counted as
    // a mere modification, the carry is required.
    EXPECT_EQ(StatusesOf(o, "pk").Contains(kUnvalidated), counts) << counts;
  }
}

// --- enf.keys-against-remaining, sem.* ------------------------------------------------

TEST(EnfKeysAgainstRemaining, AKeyRemovedInTheSameCommitMayBeAddedAgain) {
  SCOPED_TRACE("enf.keys-against-remaining: rows remaining after the commit's removals");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5)}));
  AllowedOutcome o = m.Outcome(Overwrite({Order("r2", 1, 6)}, {"r1"}, {}));
  EXPECT_TRUE(OnlyOk(o)) << ToString(o);
  EXPECT_EQ(StatusesOf(o, "pk"), (StatusSet{kValidated, kValid, kUnvalidated}));
}

TEST(EnfKeysAgainstRemaining, AddedRowsMustBeDistinctAndNotConflict) {
  SCOPED_TRACE("enf.keys-against-remaining");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5)}));
  AllowedOutcome among = m.Outcome(Append({Order("r2", 7, 1), Order("r3", 7, 2)}));
  EXPECT_TRUE(MustReject(among, RejectKind::kConstraintViolation)) << "among themselves";
  AllowedOutcome remaining = m.Outcome(Append({Order("r2", 1, 1)}));
  EXPECT_TRUE(MustReject(remaining, RejectKind::kConstraintViolation))
      << "with remaining";
  // The rejection names this rule first (the general enf.enforced after it).
  ASSERT_FALSE(among.reject_required_by.empty());
  EXPECT_EQ(among.reject_required_by.front().rule, RuleId::kEnfKeysAgainstRemaining);
  EXPECT_TRUE(Names(remaining.reject_required_by, RuleId::kEnfEnforced));
  AllowedOutcome fine = m.Outcome(Append({Order("r2", 2, 1), Order("r3", 3, 2)}));
  EXPECT_TRUE(OnlyOk(fine));
  EXPECT_TRUE(Decides(fine, RuleId::kEnfKeysAgainstRemaining)) << ToString(fine);
}

TEST(SemUnique, RowsWithANullKeyAreNotCompared) {
  SCOPED_TRACE("sem.unique");
  ModelSession m;
  m.Create();
  m.Add(Unique("email_unique", true, {3}));
  AllowedOutcome nulls = m.Outcome(Append({Order("r1", 1, 1), Order("r2", 2, 1)}));
  EXPECT_TRUE(OnlyOk(nulls)) << "two null emails are not compared";
  m.Write(Append({Order("r1", 1, 1, "a@x"), Order("r2", 2, 1)}));
  AllowedOutcome dup = m.Outcome(Append({Order("r3", 3, 1, "a@x")}));
  EXPECT_TRUE(MustReject(dup, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(dup.reject_required_by, RuleId::kSemUnique));
}

TEST(SemPrimaryKey, KeysMustBeDistinctAndNotNull) {
  SCOPED_TRACE("sem.primary-key");
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", true, {1}));
  m.Write(Append({Order("r1", 1, 1)}));
  EXPECT_TRUE(MustReject(m.Outcome(Append({Order("r2", 1, 2)})),
                         RejectKind::kConstraintViolation));
  EXPECT_TRUE(OnlyOk(m.Outcome(Append({Order("r2", 2, 2)}))));
  // The key field is required, so a null key never reaches the constraint: the row is an
  // invalid request.
  EXPECT_TRUE(MustReject(m.Outcome(Append({MakeRow("r3", {{2, Value::Long(1)}})})),
                         RejectKind::kInvalidRequest));
}

TEST(SemCheck, ThePredicateMustBeTrueForEveryRow) {
  SCOPED_TRACE("sem.check");
  ModelSession m;
  m.Create();
  // Without `OR qty IS NULL`, a null qty makes `qty > 0` false (two-valued comparisons).
  m.Add(Check("strict", true,
              Expr::Binary(ExprOp::kGt, Expr::Ref(2), Expr::Lit(Value::Long(0)))));
  EXPECT_TRUE(MustReject(m.Outcome(Append({Order("r1", 1, std::nullopt)})),
                         RejectKind::kConstraintViolation));
  EXPECT_TRUE(OnlyOk(m.Outcome(Append({Order("r1", 1, 3)}))));
}

TEST(SemLiveRows, RemovedRowsNoLongerCount) {
  SCOPED_TRACE("sem.live-rows");
  ModelSession m = Orders(false);
  m.Write(Append({Order("r1", 1, 5), Order("r2", 2, -1)}));
  AllowedOutcome o = m.Outcome(Delete({"r2"}));
  EXPECT_EQ(StatusesOf(o, "qty_positive"), (StatusSet{kValidated, kUnvalidated}));
  m.Write(Delete({"r1"}));
  // r1's key is free again.
  EXPECT_TRUE(OnlyOk(m.Outcome(Append({Order("r3", 1, 1)}))));
}

// --- statuses -------------------------------------------------------------------------

TEST(StNoAddCarry, ADeleteMayCarryValidatedOrValid) {
  SCOPED_TRACE("st.no-add-carry");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5), Order("r2", 2, 5)}));
  AllowedOutcome o = m.Outcome(Delete({"r1"}));
  EXPECT_EQ(StatusesOf(o, "pk"), (StatusSet{kValidated, kValid, kUnvalidated}));
  EXPECT_EQ(PreciseOf(o, "pk"), kValidated);
}

TEST(StValid, AddedRowsOnAValidatedParent) {
  SCOPED_TRACE("st.valid");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5)}));
  AllowedOutcome o = m.Outcome(Append({Order("r2", 2, 5)}));
  EXPECT_EQ(StatusesOf(o, "pk"), (StatusSet{kValidated, kValid, kUnvalidated}));
  EXPECT_EQ(PreciseOf(o, "pk"), kValid);
}

TEST(StInvalid, AnInvalidParentStaysInvalidWhileTheViolatorLives) {
  SCOPED_TRACE("st.invalid");
  ModelSession m = Orders(false);
  m.Write(Append({Order("r1", 1, -5)}));
  AllowedOutcome o = m.Outcome(Append({Order("r2", 2, 5)}));
  EXPECT_EQ(StatusesOf(o, "qty_positive"), (StatusSet{kInvalid, kUnvalidated}));
  EXPECT_EQ(PreciseOf(o, "qty_positive"), kInvalid);
  Answer a = m.Canonical(Append({Order("r2", 2, 5)}));
  ConstraintStatuses st;
  st.validated = std::vector<ConstraintId>{m.IdOf("pk"), m.IdOf("qty_positive")};
  SetStatuses(*a.metadata, st);
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kStValidated));  // "st.validated" is false
}

TEST(StatusCarryMust, UnvalidatedIsNotAllowedWhereACarryIsDerivable) {
  SCOPED_TRACE("st.no-add-carry, status-carry=must");
  Switches sw;
  sw.status_carry = StatusCarry::kMust;
  ModelSession m = Orders(true, sw);
  m.Write(Append({Order("r1", 1, 5), Order("r2", 2, 5)}));
  AllowedOutcome o = m.Outcome(Delete({"r1"}));
  EXPECT_FALSE(StatusesOf(o, "pk").Contains(kUnvalidated));
  EXPECT_TRUE(StatusesOf(o, "pk").Contains(kValidated));
}

TEST(ExprUdfStatus, ACheckCallingAUdfIsNeverValidNorCarried) {
  SCOPED_TRACE("expr.udf-status");
  ModelSession m;
  m.Create();
  m.Step(DefineFunction{IsPositive()});
  m.Add(Check("udf_check", false, Expr::Apply("is_positive", {Expr::Ref(1)})));
  m.Write(Append({Order("r1", 1, 5)}));
  ASSERT_EQ(ReaderStatus(&*m.metadata().CurrentSnapshot()->constraint_statuses,
                         m.IdOf("udf_check")),
            kValidated);
  AllowedOutcome o = m.Outcome(Append({Order("r2", 2, 5)}));
  EXPECT_FALSE(StatusesOf(o, "udf_check").Contains(kValid));
  EXPECT_EQ(PreciseOf(o, "udf_check"), kUnvalidated);
  Answer a = m.Canonical(Append({Order("r2", 2, 5)}));
  ConstraintStatuses st;
  st.valid = std::vector<ConstraintId>{m.IdOf("udf_check")};
  SetStatuses(*a.metadata, st);
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kExprUdfStatus));
  // A redefinition makes the recorded truth change: "holds" uses the current definition.
  m.Step(DefineFunction{Udf(
      "is_positive", Expr::Binary(ExprOp::kLt, ParamX(), Expr::Lit(Value::Long(0))))});
  o = m.Outcome(Delete({}));
  EXPECT_TRUE(StatusesOf(o, "udf_check").Contains(kInvalid));
  EXPECT_FALSE(StatusesOf(o, "udf_check").Contains(kValidated));
}

TEST(StExactlyOneList, EveryConstraintIsListedOnce) {
  SCOPED_TRACE("st.exactly-one-list, st.every-snapshot");
  ModelSession m = Orders(true);
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("r1", 1, 5)}), &o);
  EXPECT_TRUE(Judge(o, a).empty());
  Answer omitted = a;
  ConstraintStatuses only_pk;
  only_pk.validated = std::vector<ConstraintId>{m.IdOf("pk")};
  SetStatuses(*omitted.metadata, only_pk);
  EXPECT_TRUE(Names(Judge(o, omitted), RuleId::kStExactlyOneList));
  Answer twice = a;
  ConstraintStatuses both = only_pk;
  both.unvalidated = std::vector<ConstraintId>{m.IdOf("pk"), m.IdOf("qty_positive")};
  SetStatuses(*twice.metadata, both);
  EXPECT_TRUE(Names(Judge(o, twice), RuleId::kStExactlyOneList));
  Answer none = a;
  none.metadata->snapshots.mutable_back().constraint_statuses.reset();
  EXPECT_TRUE(Names(Judge(o, none), RuleId::kStEverySnapshot));
  Answer stale = a;
  stale.metadata->snapshots.mutable_back().constraint_statuses->unvalidated =
      std::vector<ConstraintId>{99};
  EXPECT_TRUE(Names(Judge(o, stale), RuleId::kStExactlyOneList)) << "stale-ids=reject";
  Switches allow;
  allow.stale_ids_in_new_snapshot = StaleIds::kAllow;
  ModelSession n = Orders(true, allow);
  AllowedOutcome p;
  Answer b = n.Canonical(Append({Order("r1", 1, 5)}), &p);
  b.metadata->snapshots.mutable_back().constraint_statuses->unvalidated =
      std::vector<ConstraintId>{99};
  EXPECT_TRUE(Judge(p, b).empty()) << Describe(Judge(p, b));
}

TEST(DefTimestampInformational, ALaterTimestampDoesNotExemptAConstraint) {
  SCOPED_TRACE("def.timestamp-informational");
  ModelSession m;
  m.Create();
  Answer a = m.Canonical(AddConstraint{Pk("pk", true, {1})});
  a.metadata->constraints->back().timestamp_ms =
      9'999'999'999'999;  // far after any commit
  // Not the request's now-ms: the protocol's convention fails, and nothing else; the
  // answer is adopted all the same.
  const Findings added = m.StepWith(AddConstraint{Pk("pk", true, {1})}, a);
  ASSERT_EQ(added.size(), 1u) << Describe(added);
  EXPECT_EQ(added[0].rule, RuleId::kProtoTimestampFromNow);
  AllowedOutcome o;
  Answer commit = m.Canonical(Append({Order("r1", 1, 5)}), &o);
  ASSERT_EQ(o.metadata->new_snapshot->statuses.size(), 1u) << "the constraint applies";
  EXPECT_TRUE(Judge(o, commit).empty());
  commit.metadata->snapshots.mutable_back().constraint_statuses = ConstraintStatuses{};
  EXPECT_TRUE(Names(Judge(o, commit), RuleId::kStExactlyOneList));
}

TEST(IceV4SnapshotTimestamps, ASnapshotIsLaterThanItsParent) {
  SCOPED_TRACE("ice.v4-snapshot-timestamps");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5)}));
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("r2", 2, 5)}), &o);
  EXPECT_TRUE(Judge(o, a).empty());
  a.metadata->snapshots.mutable_back().timestamp_ms =
      m.metadata().CurrentSnapshot()->timestamp_ms;
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kIceV4SnapshotTimestamps));
}

// --- retries --------------------------------------------------------------------------

TEST(EnfRetryEnforced, ARetryThatStillConformsMustSucceed) {
  SCOPED_TRACE("enf.retry-enforced");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5)}));
  m.Step(Begin{"w"});
  m.Step(Staged(Append({Order("r2", 2, 5)}), "w"));
  m.Write(Append({Order("r3", 3, 5)}));
  AllowedOutcome o = m.Outcome(Finish{"w"});
  EXPECT_TRUE(OnlyOk(o)) << ToString(o);
  EXPECT_TRUE(Names(Judge(o, Answer::Rejected(RejectKind::kCommitConflict)),
                    RuleId::kEnfRetryEnforced));
  m.Step(Finish{"w"});
  EXPECT_EQ(m.table().rows.size(), 3u);
  EXPECT_EQ(m.metadata().CurrentSnapshot()->timestamp_ms, m.now() - 1)
      << "finish's snapshot takes finish's now-ms";
}

TEST(EnfRetryKeysNewParent, KeysAreCheckedAgainstTheNewParent) {
  SCOPED_TRACE("enf.retry-keys-new-parent");
  ModelSession m = Orders(true);
  m.Step(Begin{"w"});
  EXPECT_TRUE(OnlyOk(m.Step(Staged(Append({Order("r2", 2, 5)}), "w"))));
  m.Write(Append({Order("r3", 2, 5)}));  // a concurrent row with the same key
  AllowedOutcome o = m.Outcome(Finish{"w"});
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfRetryKeysNewParent));
  // A staged commit after a concurrent one is still checked against its base.
  m.Step(Finish{"w"});
  m.Step(Begin{"v"});
  m.Write(Append({Order("r4", 4, 5)}));
  AllowedOutcome staged = m.Outcome(Staged(Append({Order("r5", 4, 5)}), "v"));
  EXPECT_TRUE(OnlyOk(staged)) << "key 4 is not in the base";
}

TEST(EnfRetryNewConstraints, AConstraintAddedConcurrentlyIsVerified) {
  SCOPED_TRACE("enf.retry-new-constraints");
  ModelSession m;
  m.Create();
  m.Step(Begin{"w"});
  m.Step(Staged(Append({Order("r1", 1, -5)}), "w"));
  m.Add(Check("qty_positive", true, PositiveOrNull(2)));
  AllowedOutcome o = m.Outcome(Finish{"w"});
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfRetryNewConstraints));
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kCommitConflict))
      << "the constraints changed concurrently: commit-conflict is allowed too";
  // Rows that satisfy the new constraint may land (or the writer gives up).
  ModelSession n;
  n.Create();
  n.Step(Begin{"w"});
  n.Step(Staged(Append({Order("r1", 1, 5)}), "w"));
  n.Add(Check("qty_positive", true, PositiveOrNull(2)));
  AllowedOutcome p = n.Outcome(Finish{"w"});
  EXPECT_TRUE(p.ok_allowed);
  EXPECT_TRUE(p.reject_kinds.count(RejectKind::kCommitConflict));
  // "changed to enforced" counts the same.
  ModelSession q = Orders(false);
  q.Step(Begin{"w"});
  q.Step(Staged(Append({Order("r1", 1, -5)}), "w"));
  ConstraintUpdate set;
  set.enforced = true;
  q.Step(UpdateConstraint{"qty_positive", set});
  AllowedOutcome r = q.Outcome(Finish{"w"});
  EXPECT_TRUE(MustReject(r, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(r.reject_required_by, RuleId::kEnfRetryNewConstraints));
}

TEST(EnfRetryCheck, ACheckResultDoesNotChangeOnRetry) {
  SCOPED_TRACE("enf.retry-check");
  ModelSession m;
  m.Create();
  m.Step(DefineFunction{IsPositive()});
  m.Add(Check("udf_check", true, Expr::Apply("is_positive", {Expr::Ref(2)})));
  m.Step(Begin{"w"});
  m.Step(Staged(Append({Order("r1", 1, 5)}), "w"));
  m.Write(Append({Order("r2", 2, 6)}));
  EXPECT_TRUE(OnlyOk(m.Outcome(Finish{"w"}))) << "a row that passed still passes";
  // Only a changed function definition can change a check's result on retry.
  m.Step(DefineFunction{Udf(
      "is_positive", Expr::Binary(ExprOp::kLt, ParamX(), Expr::Lit(Value::Long(0))))});
  AllowedOutcome o = m.Outcome(Finish{"w"});
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfRetryCheck));
}

TEST(EnfRetryRecomputeStatuses, StatusesAreJudgedFromTheNewParent) {
  SCOPED_TRACE("enf.retry-recompute-statuses");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5)}));  // pk validated
  m.Step(Begin{"w"});
  AllowedOutcome staged = m.Step(Staged(Append({Order("r2", 2, 5)}), "w"));
  EXPECT_TRUE(StatusesOf(staged, "pk").Contains(kValid)) << "on the base";
  // The concurrent commit records pk unvalidated (a legal, weaker choice).
  Answer weak = m.Canonical(Append({Order("r3", 3, 5)}));
  ConstraintStatuses st;
  st.unvalidated = std::vector<ConstraintId>{m.IdOf("pk"), m.IdOf("qty_positive")};
  SetStatuses(*weak.metadata, st);
  ASSERT_TRUE(m.StepWith(Append({Order("r3", 3, 5)}), weak).empty());
  AllowedOutcome o;
  Answer a = m.Canonical(Finish{"w"}, &o);
  EXPECT_FALSE(StatusesOf(o, "pk").Contains(kValid));
  EXPECT_TRUE(Judge(o, a).empty()) << Describe(Judge(o, a));
  ConstraintStatuses carried;
  carried.valid = std::vector<ConstraintId>{m.IdOf("pk"), m.IdOf("qty_positive")};
  SetStatuses(*a.metadata, carried);
  EXPECT_TRUE(Names(Judge(o, a), RuleId::kEnfRetryRecomputeStatuses));
}

TEST(EnfRetryEnforced, ARowDeletedConcurrentlyMayConflict) {
  SCOPED_TRACE("enf.retry-enforced: a retry whose removed row was deleted concurrently");
  ModelSession m = Orders(true);
  m.Write(Append({Order("r1", 1, 5), Order("r2", 2, 5)}));
  m.Step(Begin{"w"});
  m.Step(Staged(Delete({"r1"}), "w"));
  m.Write(Delete({"r1"}));
  AllowedOutcome o = m.Outcome(Finish{"w"});
  EXPECT_TRUE(o.ok_allowed);
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kCommitConflict));
  m.Step(Finish{"w"});
  EXPECT_EQ(m.table().rows.size(), 1u);
  // A modification of a row deleted concurrently cannot be applied.
  m.Step(Begin{"v"});
  m.Step(Staged(Overwrite({}, {}, {Order("r2", 2, 6)}), "v"));
  m.Write(Delete({"r2"}));
  EXPECT_TRUE(MustReject(m.Outcome(Finish{"v"}), RejectKind::kCommitConflict));
}

// --- validate, existing rows ----------------------------------------------------------

TEST(Validate, NamedConstraintsAreCheckedAgainstEveryRow) {
  SCOPED_TRACE("validate: a commit that adds no rows, with full validation");
  ModelSession m = Orders(false);
  m.Write(Append({Order("r1", 1, 5), Order("r2", 2, -5)}));
  m.Write(Delete({"r2"}));  // check: unvalidated (canonical), holds now
  AllowedOutcome o = m.Outcome(Validate{{"qty_positive"}});
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_EQ(PreciseOf(o, "qty_positive"), kValidated);
  EXPECT_EQ(StatusesOf(o, "qty_positive"), (StatusSet{kValidated, kUnvalidated}));
  m.Step(Validate{{"qty_positive"}});
  EXPECT_EQ(ReaderStatus(&*m.metadata().CurrentSnapshot()->constraint_statuses,
                         m.IdOf("qty_positive")),
            kValidated);
  EXPECT_EQ(m.table().rows.size(), 1u);
}

TEST(Validate, AnEnforcedCheckThatCannotBeEvaluatedIsUnverifiable) {
  SCOPED_TRACE("validate: unverifiable-constraint");
  for (bool enforced : {true, false}) {
    ModelSession m;
    m.Create();
    m.Step(DefineFunction{IsPositive()});
    m.Add(Check("udf_check", enforced, Expr::Apply("is_positive", {Expr::Ref(1)})));
    m.Write(Append({Order("r1", 1, 5)}));
    // Redefined to recurse forever: it can no longer be evaluated.
    m.Step(DefineFunction{Udf("is_positive", Expr::Apply("is_positive", {ParamX()}))});
    AllowedOutcome o = m.Outcome(Validate{{"udf_check"}});
    if (enforced) {
      EXPECT_TRUE(MustReject(o, RejectKind::kUnverifiableConstraint)) << ToString(o);
      EXPECT_TRUE(MustReject(m.Outcome(Append({Order("r2", 2, 5)})),
                             RejectKind::kUnverifiableConstraint));
    } else {
      EXPECT_TRUE(OnlyOk(o));
      EXPECT_EQ(StatusesOf(o, "udf_check"), (StatusSet{kUnvalidated}));
    }
  }
}

TEST(ExistingRowsOnEnforce, SwitchDecidesExistingViolations) {
  SCOPED_TRACE("enf.enforced, existing-rows-on-enforce");
  for (ExistingRowsOnEnforce mode :
       {ExistingRowsOnEnforce::kEither, ExistingRowsOnEnforce::kReject,
        ExistingRowsOnEnforce::kAccept}) {
    Switches sw;
    sw.existing_rows_on_enforce = mode;
    ModelSession m(sw);
    m.Create();
    m.Write(Append({Order("r1", 1, 5), Order("r2", 1, -5)}));
    AllowedOutcome add = m.Outcome(AddConstraint{Pk("pk", true, {1})});
    m.Add(Check("qty_positive", false, PositiveOrNull(2)));
    ConstraintUpdate set;
    set.enforced = true;
    AllowedOutcome update = m.Outcome(UpdateConstraint{"qty_positive", set});
    for (const AllowedOutcome* o : {&add, &update}) {
      EXPECT_EQ(o->ok_allowed, mode != ExistingRowsOnEnforce::kReject);
      EXPECT_EQ(o->reject_allowed, mode != ExistingRowsOnEnforce::kAccept);
      if (o->reject_allowed) {
        EXPECT_TRUE(o->reject_kinds.count(RejectKind::kConstraintViolation));
      }
    }
    // No violation: always accepted.
    EXPECT_TRUE(OnlyOk(m.Outcome(AddConstraint{Unique("u", true, {3})})));
  }
}

}  // namespace
}  // namespace ictk
