/// \file
/// Blame by the clause broken (model/judge/blame.h, docs/rules.md "Blame by the clause
/// broken"): an answer outside what the model allows is filed under the clause whose
/// knock-out admits it, the most specific first; without one, a constraint claimed broken
/// that every row the writer checked satisfies is the clause of what it means; otherwise
/// the findings stay as Judge gave them. Each test builds the answer of a writer that
/// ignores one clause (the model's own answer with that clause knocked out, or a rejection
/// written by hand) and checks the clause it is filed under.
#include <gtest/gtest.h>

#include "model/judge/blame.h"
#include "model/judge/operations.h"
#include "model/judge/outcome_internal.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT

/// Judges `answer` to `op` now under the full rules and blames it; the step is not
/// adopted.
BlameResult BlameOf(ModelSession& m, Operation op, const Answer& answer,
                    Findings* judged = nullptr) {
  const Request r = m.Req(std::move(op));
  const AllowedOutcome o = Apply(m.state(), r, m.switches());
  const Findings f = Judge(o, answer);
  EXPECT_FALSE(f.empty()) << "the answer is allowed";
  if (judged) *judged = f;
  return BlameByClause(m.state(), r, m.switches(), o, answer, f);
}

/// The answer of a writer without clause `k`: the reference's canonical answer to `op`
/// judged with `k` knocked out; then blamed under the full rules.
BlameResult BlameKnocked(ModelSession& m, Operation op, KnockOut k) {
  const Request r{"t", m.now(), op};
  Switches knocked = m.switches();
  knocked.knock_out = k;
  const AllowedOutcome ko = Apply(m.state(), r, knocked);
  const Answer a = CanonicalAnswer(m.state(), r, ko, knocked);
  return BlameOf(m, std::move(op), a);
}

Answer RejectFor(ConstraintId id) {
  return Answer::Rejected(RejectKind::kConstraintViolation, {id});
}

TEST(Blame, ARejectionForAnUnenforcedConstraintIsEnfNotEnforced) {
  ModelSession m;
  m.Create();
  m.Add(Check("c", false, PositiveOrNull(2)));
  const BlameResult b = BlameOf(m, Append({Order("a", 1, -1)}), RejectFor(1));
  EXPECT_EQ(b.clause, "enf.not-enforced/whole");
  EXPECT_EQ(b.knock_out, KnockOut::kEnfNotEnforced);
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings.front().rule, RuleId::kEnfNotEnforced) << Describe(b.findings);
  EXPECT_EQ(b.findings.front().constraint_id, std::optional<ConstraintId>(1));
  // The finding names the constraint that is not enforced, not one the rows conform to.
  EXPECT_NE(b.findings.front().detail.find("enf.not-enforced/whole"), std::string::npos)
      << b.findings.front().detail;
}

TEST(Blame, NullKeysTakenAsCollidingAreSemUnique) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", true, {2}));
  const BlameResult b =
      BlameOf(m, Append({Order("a", 1, std::nullopt), Order("b", 2, std::nullopt)}),
              RejectFor(1));
  EXPECT_EQ(b.clause, "sem.unique/nulls-not-compared");
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings.front().rule, RuleId::kSemUnique) << Describe(b.findings);
}

TEST(Blame, AKeyReplacingARemovedRowRejectedIsKeysAfterRemovals) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", true, {2}));
  m.Write(Append({Order("a", 1, 1)}));
  const BlameResult b =
      BlameOf(m, Overwrite({Order("c", 3, 1)}, {"a"}, {}), RejectFor(1));
  EXPECT_EQ(b.clause, "enf.keys-against-remaining/after-removals");
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings.front().rule, RuleId::kEnfKeysAgainstRemaining);
}

TEST(Blame, CollidingAddedKeysAcceptedAreAmongAdded) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", true, {2}));
  const BlameResult b = BlameKnocked(m, Append({Order("a", 1, 1), Order("b", 2, 1)}),
                                     KnockOut::kEnfKeysAmongAdded);
  EXPECT_EQ(b.clause, "enf.keys-against-remaining/among-added");
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings.front().rule, RuleId::kEnfKeysAgainstRemaining)
      << Describe(b.findings);
}

TEST(Blame, AKeyCollidingWithARemainingRowAcceptedIsAgainstRemaining) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", true, {2}));
  m.Write(Append({Order("a", 1, 1)}));
  const BlameResult b =
      BlameKnocked(m, Append({Order("b", 2, 1)}), KnockOut::kEnfKeysAgainstRemaining);
  EXPECT_EQ(b.clause, "enf.keys-against-remaining/against-remaining");
}

TEST(Blame, ABreakingModificationAcceptedIsModifiedRow) {
  ModelSession m;
  m.Create();
  m.Add(Check("c", true, PositiveOrNull(2)));
  m.Write(Append({Order("a", 1, 1)}));
  const BlameResult b = BlameKnocked(m, Overwrite({}, {}, {Order("a", 1, -1)}),
                                     KnockOut::kEnfModifiedRow);
  EXPECT_EQ(b.clause, "enf.modified-row/whole");
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings.front().rule, RuleId::kEnfModifiedRow) << Describe(b.findings);
}

/// A staged append of a key colliding with `a`, then `concurrent`, then the finish.
void StageCollidingAppend(ModelSession& m) {
  m.Step(Begin{"w"});
  Commit c = Append({Order("b", 2, 1)});
  c.txn = "w";
  m.Step(c);
}

// A retry that ignores a constraint a concurrent commit changed to enforced also ignores
// its keys against the remaining rows; the retry's clause is the more specific one.
TEST(Blame, ARetryIgnoringAConcurrentlyEnforcedConstraintIsRetryNewConstraints) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", false, {2}));
  m.Write(Append({Order("a", 1, 1)}));
  StageCollidingAppend(m);
  ConstraintUpdate enforce;
  enforce.enforced = true;
  m.Step(UpdateConstraint{"u", enforce});
  const BlameResult b =
      BlameKnocked(m, Finish{"w"}, KnockOut::kEnfRetryNewChangedToEnforced);
  EXPECT_EQ(b.clause, "enf.retry-new-constraints/changed-to-enforced");
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings.front().rule, RuleId::kEnfRetryNewConstraints)
      << Describe(b.findings);
  EXPECT_EQ(b.findings.front().constraint_id, std::optional<ConstraintId>(m.IdOf("u")));
}

TEST(Blame, ARetryIgnoringAConcurrentlyAddedConstraintIsRetryNewConstraints) {
  ModelSession m;
  m.Create();
  m.Write(Append({Order("a", 1, 1)}));
  StageCollidingAppend(m);
  m.Add(Unique("u", true, {2}));
  const BlameResult b = BlameKnocked(m, Finish{"w"}, KnockOut::kEnfRetryNewAdded);
  EXPECT_EQ(b.clause, "enf.retry-new-constraints/added");
}

TEST(Blame, ARetryCheckingKeysAgainstTheOriginalParentIsRetryKeysNewParent) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", true, {2}));
  m.Step(Begin{"w"});
  Commit staged = Append({Order("b", 2, 1)});
  staged.txn = "w";
  m.Step(staged);
  m.Write(Append({Order("a", 1, 1)}));  // concurrent: a key the staged row collides with
  const BlameResult b = BlameKnocked(m, Finish{"w"}, KnockOut::kEnfRetryKeysNewParent);
  EXPECT_EQ(b.clause, "enf.retry-keys-new-parent/whole");
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings.front().rule, RuleId::kEnfRetryKeysNewParent)
      << Describe(b.findings);
}

// A false `invalid` where the commit wrote every row: the writer checked them all and
// evaluated the check wrongly (sem.check). Where rows remain that the commit did not
// write, a writer that listed `invalid` without checking them explains it as well, and
// the status rule stays.
TEST(Blame, AFalseInvalidIsTheMeaningOnlyWhereEveryRowWasChecked) {
  ModelSession m;
  m.Create();
  m.Add(Check("c", false, PositiveOrNull(2)));
  AllowedOutcome o;
  Answer a = m.Canonical(Append({Order("a", 1, 1)}), &o);
  ASSERT_TRUE(a.metadata.has_value());
  const auto record_invalid = [&](Answer& answer) {
    TableMetadata& md = *answer.metadata;
    for (size_t i = 0; i < md.snapshots.size(); ++i)
      if (md.current_snapshot_id && md.snapshots[i].snapshot_id == *md.current_snapshot_id)
        md.snapshots.mutable_at(i).constraint_statuses = MakeStatuses({{1, kInvalid}});
  };
  record_invalid(a);
  const BlameResult all_written = BlameOf(m, Append({Order("a", 1, 1)}), a);
  EXPECT_EQ(all_written.clause, "sem.check/whole");
  ASSERT_FALSE(all_written.findings.empty());
  EXPECT_EQ(all_written.findings.front().rule, RuleId::kSemCheck);

  ModelSession n;
  n.Create();
  n.Add(Check("c", false, PositiveOrNull(2)));
  n.Write(Append({Order("a", 1, 1)}));
  Answer b = n.Canonical(Append({Order("b", 2, 2)}));
  record_invalid(b);
  const BlameResult some_old = BlameOf(n, Append({Order("b", 2, 2)}), b);
  // Not re-filed under what the check means: filed under the st.invalid clause the
  // writer relied on, "because the constraint was checked" (it did not check row a).
  EXPECT_EQ(some_old.clause, "st.invalid/checked");
  ASSERT_FALSE(some_old.findings.empty());
  EXPECT_EQ(some_old.findings.front().rule, RuleId::kStInvalid)
      << Describe(some_old.findings);
}

// No clause's absence admits a rejection of the wrong kind: the findings stay as Judge
// gave them, the most specific first.
TEST(Blame, AnAnswerNoKnockOutAdmitsKeepsItsFindings) {
  ModelSession m;
  m.Create();
  Findings judged;
  const BlameResult b = BlameOf(m, Append({Order("a", 1, 1)}),
                                Answer::Rejected(RejectKind::kCommitConflict), &judged);
  EXPECT_EQ(b.clause, "");
  EXPECT_EQ(b.knock_out, KnockOut::kNone);
  Findings ordered = judged;
  OrderBySpecificity(ordered);
  EXPECT_EQ(b.findings, ordered);
}

TEST(Blame, EveryKnockOutNamesAClauseOfItsOwnRule) {
  for (const KnockOutInfo& k : KnockOuts()) {
    SCOPED_TRACE(k.clause);
    EXPECT_EQ(k.clause.rfind(std::string(RuleIdName(k.rule)) + "/", 0), 0u);
    EXPECT_EQ(&KnockOutOf(k.knock_out), &k);
    EXPECT_GE(k.specificity, 1);
    EXPECT_LE(k.specificity, 3);
    EXPECT_FALSE(k.without.empty());
    EXPECT_FALSE(k.requires_.empty());
  }
}

TEST(Blame, OrderBySpecificityPutsTheRefiningRuleFirst) {
  Findings f = {internal::MakeFinding(RuleId::kProtoAnswer, "p"),
                internal::MakeFinding(RuleId::kEnfEnforced, "e"),
                internal::MakeFinding(RuleId::kSemUnique, "s"),
                internal::MakeFinding(RuleId::kStValid, "v")};
  OrderBySpecificity(f);
  ASSERT_EQ(f.size(), 4u);
  // sem.unique refines enf.enforced; every rule refines proto.answer; st.valid is
  // unrelated to the first two and keeps its place after them.
  EXPECT_EQ(f[0].rule, RuleId::kSemUnique);
  EXPECT_EQ(f[1].rule, RuleId::kEnfEnforced);
  EXPECT_EQ(f[2].rule, RuleId::kStValid);
  EXPECT_EQ(f[3].rule, RuleId::kProtoAnswer);
  EXPECT_TRUE(Refines(RuleId::kIdNoReuse, RuleId::kIdAboveLast));
  EXPECT_FALSE(Refines(RuleId::kIdAboveLast, RuleId::kIdNoReuse));
  EXPECT_FALSE(Refines(RuleId::kProtoAnswer, RuleId::kProtoAnswer));
}

}  // namespace
}  // namespace ictk
