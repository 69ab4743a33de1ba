// Judging reported statuses and the status-list rules (model/rules/status_rules.h).
#include "model/rules/status_rules.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "tests/model/constraint_test_util_internal.h"

namespace ictk {
namespace {

using testing_util::Has;
using S = ConstraintStatus;

StatusContext Holds(S parent = S::kUnvalidated) {
  StatusContext c;
  c.holds_on_new_snapshot = true;
  c.parent_status = parent;
  return c;
}

StatusContext Violated(S parent = S::kUnvalidated) {
  StatusContext c;
  c.holds_on_new_snapshot = false;
  c.parent_status = parent;
  return c;
}

Switches Must() {
  Switches s;
  s.status_carry = StatusCarry::kMust;
  return s;
}

std::vector<S> V(std::initializer_list<S> s) { return s; }

TEST(StValidated, AllowedWhenTheConstraintHolds) {  // st.validated
  EXPECT_TRUE(ValidatedAllowed(Holds()));
  EXPECT_EQ(AllowedStatuses(Holds(), Switches{}), V({S::kValidated, S::kUnvalidated}));
}

TEST(StValidated, RejectedWhenARowViolates) {  // st.validated
  EXPECT_FALSE(ValidatedAllowed(Violated(S::kValidated)));
  EXPECT_FALSE(JudgeStatus(Violated(S::kValidated), Switches{}).Allows(S::kValidated));
}

TEST(StValid, AllowedAfterValidatedOrValidParent) {  // st.valid
  EXPECT_TRUE(ValidAllowed(Holds(S::kValidated)));
  EXPECT_TRUE(ValidAllowed(Holds(S::kValid)));
  EXPECT_EQ(AllowedStatuses(Holds(S::kValid), Switches{}),
            V({S::kValidated, S::kValid, S::kUnvalidated}));
}

TEST(StValid, RejectedAfterUnvalidatedOrInvalidParentOrWhenViolated) {  // st.valid
  EXPECT_FALSE(ValidAllowed(Holds(S::kUnvalidated)));
  EXPECT_FALSE(ValidAllowed(Holds(S::kInvalid)));
  EXPECT_FALSE(ValidAllowed(Violated(S::kValid)));
}

TEST(StInvalid, AllowedWhenARowViolates) {  // st.invalid
  EXPECT_TRUE(InvalidAllowed(Violated()));
  EXPECT_EQ(AllowedStatuses(Violated(S::kValid), Switches{}),
            V({S::kInvalid, S::kUnvalidated}));
}

TEST(StInvalid, RejectedWhenItHoldsOrCannotBeEvaluated) {  // st.invalid
  EXPECT_FALSE(InvalidAllowed(Holds(S::kInvalid)));
  StatusContext unevaluable = Violated();
  unevaluable.violated_on_new_snapshot = false;  // e.g. an undefined UDF
  EXPECT_FALSE(InvalidAllowed(unevaluable));
  EXPECT_EQ(AllowedStatuses(unevaluable, Switches{}), V({S::kUnvalidated}));
}

TEST(StUnvalidated, AlwaysAllowedUnderStatusCarryMay) {  // st.unvalidated
  for (S parent : kAllStatuses) {
    EXPECT_TRUE(UnvalidatedAllowed(Holds(parent), Switches{}));
    EXPECT_TRUE(UnvalidatedAllowed(Violated(parent), Switches{}));
  }
}

TEST(StUnvalidated, NotAllowedUnderMustWhenACarryIsDerivable) {  // st.unvalidated
  // A delete after `validated`: under status-carry=must the status carries over.
  StatusContext c = Holds(S::kValidated);
  c.commit_removed_rows = true;
  EXPECT_FALSE(UnvalidatedAllowed(c, Must()));
  EXPECT_EQ(AllowedStatuses(c, Must()), V({S::kValidated, S::kValid}));
  // An append without verification: nothing carries, unvalidated stays allowed.
  StatusContext append = Holds(S::kValidated);
  append.commit_added_rows = true;
  EXPECT_TRUE(UnvalidatedAllowed(append, Must()));
  // parent invalid, nothing removed: invalid carries.
  StatusContext still_invalid = Violated(S::kInvalid);
  still_invalid.commit_added_rows = true;
  EXPECT_EQ(AllowedStatuses(still_invalid, Must()), V({S::kInvalid}));
}

TEST(StNoAddCarry, CarriesValidatedOrValidWhenNoRowsAdded) {  // st.no-add-carry
  StatusContext del = Holds(S::kValidated);
  del.commit_removed_rows = true;
  EXPECT_EQ(CarriedStatus(del, Switches{}), S::kValidated);
  EXPECT_EQ(PreciseStatus(del, Switches{}), S::kValidated);
  StatusContext compaction = Holds(S::kValid);
  EXPECT_EQ(CarriedStatus(compaction, Switches{}), S::kValid);
  EXPECT_EQ(PreciseStatus(compaction, Switches{}), S::kValid);
}

TEST(StNoAddCarry, NothingCarriesWhenRowsAdded) {  // st.no-add-carry
  StatusContext append = Holds(S::kValidated);
  append.commit_added_rows = true;
  EXPECT_EQ(CarriedStatus(append, Switches{}), std::nullopt);
  EXPECT_EQ(PreciseStatus(append, Switches{}), S::kUnvalidated);
  // ... unless the writer verified what it added (an enforced constraint): valid.
  append.writer_verified_added = true;
  EXPECT_EQ(PreciseStatus(append, Switches{}), S::kValid);
}

TEST(StInvalid, CarriesWhenNothingRemoved) {  // st.invalid
  StatusContext append = Violated(S::kInvalid);
  append.commit_added_rows = true;
  EXPECT_EQ(CarriedStatus(append, Switches{}), S::kInvalid);
  EXPECT_EQ(PreciseStatus(append, Switches{}), S::kInvalid);
  StatusContext del = Violated(S::kInvalid);
  del.commit_removed_rows = true;
  EXPECT_EQ(CarriedStatus(del, Switches{}), std::nullopt);
  EXPECT_EQ(PreciseStatus(del, Switches{}), S::kUnvalidated);
}

TEST(ExprUdfStatus, NeverValidAndNoCarry) {  // expr.udf-status
  StatusContext c = Holds(S::kValidated);
  c.calls_udf = true;
  EXPECT_FALSE(ValidAllowed(c));
  EXPECT_EQ(CarriedStatus(c, Switches{}), std::nullopt);
  EXPECT_EQ(PreciseStatus(c, Switches{}), S::kUnvalidated);
  EXPECT_EQ(AllowedStatuses(c, Switches{}), V({S::kValidated, S::kUnvalidated}));
  EXPECT_TRUE(UnvalidatedAllowed(c, Must())) << "nothing may carry, so nothing must";
  EXPECT_FALSE(UdfStatusPermits(c, S::kValid, false, Switches{}));
}

TEST(ExprUdfStatus, ValidatedAfterFullValidation) {  // expr.udf-status
  StatusContext c = Holds(S::kUnvalidated);
  c.calls_udf = true;
  c.full_validation = true;
  EXPECT_EQ(PreciseStatus(c, Switches{}), S::kValidated);
  EXPECT_TRUE(UdfStatusPermits(c, S::kValidated, false, Switches{}));
}

TEST(ExprUdfStatus, SwitchUdfCheckCarriesInvalid) {  // expr.udf-status
  StatusContext c = Violated(S::kInvalid);
  c.calls_udf = true;
  EXPECT_EQ(PreciseStatus(c, Switches{}), S::kUnvalidated);
  Switches carries;
  carries.udf_check_carries_invalid = true;
  EXPECT_EQ(PreciseStatus(c, carries), S::kInvalid);
  EXPECT_EQ(CarriedStatus(c, carries), S::kInvalid);
}

TEST(StSound, PrecisionTableOfSpec) {  // st.sound
  // after a full validation -> validated or invalid
  StatusContext v = Violated(S::kValid);
  v.full_validation = true;
  EXPECT_EQ(JudgeStatus(v, Switches{}).precise, S::kInvalid);
  // the writer found an added row that breaks a constraint that is not enforced
  StatusContext found = Violated(S::kValidated);
  found.commit_added_rows = true;
  found.writer_found_violation = true;
  EXPECT_EQ(JudgeStatus(found, Switches{}).precise, S::kInvalid);
  // a carried status that is not true (a modification not counted as added) is not
  // precise
  StatusContext untrue = Violated(S::kValidated);
  EXPECT_EQ(JudgeStatus(untrue, Switches{}).precise, S::kUnvalidated);
  EXPECT_EQ(JudgeStatus(untrue, Must()).allowed, V({S::kInvalid, S::kUnvalidated}));
}

/// st.sound: over every context and switch setting, the allowed set is never empty, holds
/// exactly the statuses whose description is true, and contains the precise status.
RC_GTEST_PROP(StSound, AllowedSetIsTruthAndHoldsPrecise, ()) {
  StatusContext c;
  c.holds_on_new_snapshot = *rc::gen::arbitrary<bool>();
  if (!c.holds_on_new_snapshot && *rc::gen::arbitrary<bool>()) {
    c.violated_on_new_snapshot = false;
  }
  c.parent_status = *rc::gen::elementOf(
      std::vector<S>(std::begin(kAllStatuses), std::end(kAllStatuses)));
  c.commit_added_rows = *rc::gen::arbitrary<bool>();
  c.commit_removed_rows = *rc::gen::arbitrary<bool>();
  c.calls_udf = *rc::gen::arbitrary<bool>();
  c.writer_verified_added = *rc::gen::arbitrary<bool>();
  c.writer_found_violation = *rc::gen::arbitrary<bool>();
  c.full_validation = *rc::gen::arbitrary<bool>();
  Switches s;
  s.status_carry = *rc::gen::arbitrary<bool>() ? StatusCarry::kMust : StatusCarry::kMay;
  s.udf_check_carries_invalid = *rc::gen::arbitrary<bool>();

  const StatusJudgement j = JudgeStatus(c, s);
  RC_ASSERT(!j.allowed.empty());
  RC_ASSERT(j.Allows(j.precise));
  RC_ASSERT(j.Allows(S::kValidated) == c.holds_on_new_snapshot);
  RC_ASSERT(!(j.Allows(S::kValidated) && j.Allows(S::kInvalid)));
  if (j.Allows(S::kValid)) {
    RC_ASSERT(c.parent_status == S::kValidated || c.parent_status == S::kValid);
    RC_ASSERT(!c.calls_udf);
  }
  if (s.status_carry == StatusCarry::kMay) RC_ASSERT(j.Allows(S::kUnvalidated));
}

// ---- the four lists

TEST(StExactlyOneList, AcceptsEachIdOnce) {  // st.exactly-one-list
  ConstraintStatuses st =
      MakeStatuses({{1, S::kValidated}, {2, S::kValid}, {3, S::kInvalid}});
  EXPECT_TRUE(CheckListedOnce(st).empty());
  EXPECT_TRUE(CheckEveryExistingListed(st, {1, 2, 3}).empty());
  EXPECT_FALSE(st.unvalidated.has_value()) << "a list with no constraints may be omitted";
}

TEST(StExactlyOneList, RejectsIdInTwoListsOrTwiceInOne) {  // st.exactly-one-list
  ConstraintStatuses st;
  st.validated = std::vector<ConstraintId>{1, 2};
  st.invalid = std::vector<ConstraintId>{2};
  st.unvalidated = std::vector<ConstraintId>{3, 3};
  Findings f = CheckListedOnce(st, "/snapshots/0/constraint-statuses");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].rule, RuleId::kStExactlyOneList);
  EXPECT_EQ(f[0].pointer, "/snapshots/0/constraint-statuses/invalid/0");
  EXPECT_EQ(f[1].pointer, "/snapshots/0/constraint-statuses/unvalidated/1");
}

TEST(StExactlyOneList, RejectsExistingConstraintInNoList) {  // st.exactly-one-list
  ConstraintStatuses st = MakeStatuses({{1, S::kValidated}});
  Findings f = CheckEveryExistingListed(st, {1, 4});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].constraint_id, 4);
}

TEST(StExactlyOneList, StaleIdsFollowTheSwitch) {  // st.exactly-one-list
  ConstraintStatuses st = MakeStatuses({{1, S::kValidated}, {7, S::kUnvalidated}});
  EXPECT_TRUE(Has(CheckNoStaleIds(st, {1}, Switches{}), RuleId::kStExactlyOneList));
  Switches allow;
  allow.stale_ids_in_new_snapshot = StaleIds::kAllow;
  EXPECT_TRUE(CheckNoStaleIds(st, {1}, allow).empty());
  EXPECT_TRUE(CheckNoStaleIds(st, {1, 7}, Switches{}).empty());
}

TEST(StEverySnapshot, AcceptsRecordedOrNoConstraints) {  // st.every-snapshot
  EXPECT_TRUE(CheckStatusesRecorded(ConstraintStatuses{}, true).empty());
  EXPECT_TRUE(CheckStatusesRecorded(std::nullopt, false).empty());
}

TEST(StEverySnapshot, RejectsMissingStatuses) {  // st.every-snapshot
  Findings f = CheckNewSnapshotStatuses(std::nullopt, {1}, Switches{}, "/snapshots/2");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, RuleId::kStEverySnapshot);
  EXPECT_EQ(f[0].pointer, "/snapshots/2/constraint-statuses");
}

TEST(StExactlyOneList, NewSnapshotCombinesTheListRules) {  // st.exactly-one-list
  ConstraintStatuses st =
      MakeStatuses({{1, S::kValidated}, {1, S::kValid}, {9, S::kValid}});
  Findings f = CheckNewSnapshotStatuses(st, {1, 2}, Switches{}, "/snapshots/0");
  // 1 twice, 2 missing, 9 stale
  EXPECT_EQ(testing_util::Count(f, RuleId::kStExactlyOneList), 3u);
}

TEST(StReaderLookup, ListedIdHasItsStatus) {  // st.reader-lookup
  ConstraintStatuses st = MakeStatuses({{1, S::kValid}, {2, S::kInvalid}});
  EXPECT_EQ(ReaderStatus(&st, 1), S::kValid);
  EXPECT_EQ(ReaderStatus(&st, 2), S::kInvalid);
}

TEST(StReaderLookup, UnlistedOrNoStatusesIsUnvalidated) {  // st.reader-lookup
  ConstraintStatuses st = MakeStatuses({{1, S::kValidated}});
  EXPECT_EQ(ReaderStatus(&st, 5), S::kUnvalidated);
  EXPECT_EQ(ReaderStatus(nullptr, 1), S::kUnvalidated);
  // id.readers-tolerate-missing: an ID not among the constraints is simply read.
  ConstraintStatuses stale = MakeStatuses({{42, S::kValidated}});
  EXPECT_EQ(ReaderStatus(&stale, 42), S::kValidated);
}

}  // namespace
}  // namespace ictk
