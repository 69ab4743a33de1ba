/// \file
/// The model's operations end to end: the twelve steps of EXAMPLE-SESSION.md replayed
/// through Apply / Judge / Adopt with the example's own answers, the protocol conventions
/// (proto.request: invalid-request), "a rejected request changes nothing" (proto.answer),
/// and a property that the incremental indexes and tallies of a table equal ones rebuilt
/// from its rows after any sequence of commits.
#include "model/judge/operations.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

using namespace ops_test;  // NOLINT


ConstraintStatuses Statuses(std::vector<ConstraintId> validated,
                            std::vector<ConstraintId> valid,
                            std::vector<ConstraintId> invalid,
                            std::vector<ConstraintId> unvalidated) {
  ConstraintStatuses s;
  if (!validated.empty()) s.validated = validated;
  if (!valid.empty()) s.valid = valid;
  if (!invalid.empty()) s.invalid = invalid;
  if (!unvalidated.empty()) s.unvalidated = unvalidated;
  return s;
}

/// The example's answers: the canonical metadata with the example's snapshot ID and
/// statuses (the example's engine numbers snapshots 1, 2, 3, 4 — the staged one
/// included).
Answer ExampleAnswer(Answer canonical, SnapshotId id, std::optional<SnapshotId> parent,
                     ConstraintStatuses statuses) {
  TableMetadata& md = *canonical.metadata;
  Snapshot& s = md.snapshots.mutable_back();
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.constraint_statuses = std::move(statuses);
  md.current_snapshot_id = id;
  md.refs["main"].snapshot_id = id;
  return canonical;
}

// EXAMPLE-SESSION.md, steps 2-12 (step 1, hello, concerns the adapter).
TEST(ExampleSession, ReplaysEveryStep) {
  ModelSession m;
  // 2. A v4 table.
  Answer a;
  AllowedOutcome o = m.Step(CreateTable{4, OrdersSchema()}, &a);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_EQ(LastConstraintId(*a.metadata), 0);

  // 3. An enforced primary key: any ID above last-constraint-id (id.above-last), and
  // last-constraint-id updated (id.update-last).
  o = m.Step(AddConstraint{Pk("pk", true, {1})}, &a);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_EQ(m.IdOf("pk"), 1);
  {
    // An implementation that picks 7 is as right; one that keeps last-constraint-id is
    // not.
    Answer seven = a;
    seven.metadata->constraints->back().id = 7;
    seven.metadata->last_constraint_id = 7;
    EXPECT_TRUE(Judge(o, seven).empty()) << Describe(Judge(o, seven));
    Answer stale = a;
    stale.metadata->last_constraint_id = 0;
    EXPECT_TRUE(Names(Judge(o, stale), RuleId::kIdUpdateLast));  // "id.update-last"
  }

  // 4. A check that is not enforced, with ID references.
  o = m.Step(AddConstraint{Check("qty_positive", false, PositiveOrNull(2))}, &a);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_EQ(m.IdOf("qty_positive"), 2);
  EXPECT_EQ(LastConstraintId(m.metadata()), 2);

  // 5. The first snapshot: pk holds -> validated; r2 breaks the check, which is not
  // enforced, so the commit succeeds (enf.not-enforced) and the check is invalid. Also
  // allowed: unvalidated for either; not allowed: valid (no parent).
  const Commit step5 = Append({Order("r1", 1, 5, "a@x"), Order("r2", 2, -1)});
  Answer canonical = m.Canonical(step5, &o);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(Decides(o, RuleId::kEnfNotEnforced));
  EXPECT_EQ(StatusesOf(o, "pk"), (StatusSet{kValidated, kUnvalidated}));
  EXPECT_EQ(StatusesOf(o, "qty_positive"), (StatusSet{kInvalid, kUnvalidated}));
  EXPECT_EQ(PreciseOf(o, "pk"), kValidated);
  EXPECT_EQ(PreciseOf(o, "qty_positive"), kInvalid);
  {
    Answer valid = ExampleAnswer(canonical, 1, std::nullopt, Statuses({}, {1}, {2}, {}));
    EXPECT_TRUE(Names(Judge(o, valid), RuleId::kStValid));  // "st.valid": no parent
  }
  a = ExampleAnswer(canonical, 1, std::nullopt, Statuses({1}, {}, {2}, {}));
  ASSERT_TRUE(m.StepWith(step5, a).empty());
  EXPECT_EQ(m.table().rows.size(), 2u);

  // 6. A duplicate key under an enforced primary key is rejected (enf.enforced,
  // sem.primary-key); constraint-ids, when given, name pk.
  o = m.Outcome(Append({MakeRow("r3", {{1, Value::Long(2)}, {2, Value::Long(1)}})}));
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_EQ(o.reject_kinds, (std::set<RejectKind>{RejectKind::kConstraintViolation}));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfEnforced));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kSemPrimaryKey));
  EXPECT_EQ(o.ConstraintIdsOf(RejectKind::kConstraintViolation), (std::set<ConstraintId>{1}));
  EXPECT_TRUE(
      m.StepWith(Append({MakeRow("r3", {{1, Value::Long(2)}, {2, Value::Long(1)}})}),
                 Answer::Rejected(RejectKind::kConstraintViolation, {1}))
          .empty());
  EXPECT_FALSE(m.StepWith(Append({MakeRow("r3", {{1, Value::Long(2)}})}),
                          Answer::Rejected(RejectKind::kConstraintViolation, {2}))
                   .empty())
      << "constraint-ids must name the broken constraint";
  EXPECT_EQ(m.table().rows.size(), 2u);

  // 7. A writer starts a transaction: the base is snapshot 1.
  o = m.Step(Begin{"w1"});
  EXPECT_TRUE(OnlyOk(o));

  // 8. The staged commit is checked against the base.
  const Commit step8 = [] {
    Commit c = Append({MakeRow("r4", {{1, Value::Long(3)}, {2, Value::Long(2)}})});
    c.txn = "w1";
    return c;
  }();
  canonical = m.Canonical(step8, &o);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_TRUE(StatusesOf(o, "pk").Contains(kValid));
  EXPECT_EQ(StatusesOf(o, "qty_positive"), (StatusSet{kInvalid, kUnvalidated}));
  a = ExampleAnswer(canonical, 2, 1, Statuses({}, {1}, {2}, {}));
  ASSERT_TRUE(m.StepWith(step8, a).empty());
  EXPECT_EQ(m.table().rows.size(), 2u) << "a staged commit changes no rows yet";

  // 9. Meanwhile another writer commits key 3.
  const Commit step9 =
      Append({MakeRow("r5", {{1, Value::Long(3)}, {2, Value::Long(7)}})});
  canonical = m.Canonical(step9, &o);
  EXPECT_TRUE(OnlyOk(o));
  a = ExampleAnswer(canonical, 3, 1, Statuses({}, {1}, {2}, {}));
  ASSERT_TRUE(m.StepWith(step9, a).empty());

  // 10. The retry runs against the new parent (snapshot 3), where key 3 now exists: it
  // must fail (enf.retry-keys-new-parent).
  o = m.Outcome(Finish{"w1"});
  EXPECT_TRUE(MustReject(o, RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfRetryKeysNewParent));
  EXPECT_TRUE(Names(o.reject_required_by, RuleId::kEnfRetryEnforced));
  EXPECT_EQ(o.reject_kinds, (std::set<RejectKind>{RejectKind::kConstraintViolation}));
  ASSERT_TRUE(
      m.StepWith(Finish{"w1"}, Answer::Rejected(RejectKind::kConstraintViolation, {1}))
          .empty());
  EXPECT_TRUE(m.table().transactions.empty());

  // 11. A delete adds no rows: pk may carry valid (st.no-add-carry). r2 was the only
  // violating row, so invalid is no longer allowed for the check; validated is.
  const Commit step11 = Delete({"r2"});
  canonical = m.Canonical(step11, &o);
  EXPECT_TRUE(OnlyOk(o));
  EXPECT_EQ(StatusesOf(o, "pk"), (StatusSet{kValidated, kValid, kUnvalidated}));
  EXPECT_EQ(StatusesOf(o, "qty_positive"), (StatusSet{kValidated, kUnvalidated}));
  {
    Answer invalid = ExampleAnswer(canonical, 4, 3, Statuses({}, {1}, {2}, {}));
    EXPECT_TRUE(Names(Judge(o, invalid), RuleId::kStInvalid));  // "st.invalid"
  }
  a = ExampleAnswer(canonical, 4, 3, Statuses({}, {1}, {}, {2}));
  ASSERT_TRUE(m.StepWith(step11, a).empty());

  // 12. scan shows the live rows by key.
  o = m.Outcome(Scan{});
  ASSERT_TRUE(o.rows.has_value());
  EXPECT_EQ(o.rows->size(), 2u);
  EXPECT_TRUE(o.rows->count("r1"));
  EXPECT_TRUE(o.rows->count("r5"));
  Answer scan;
  scan.rows = std::vector<Row>{Order("r1", 1, 5, "a@x"),
                               MakeRow("r5", {{1, Value::Long(3)}, {2, Value::Long(7)}})};
  EXPECT_TRUE(Judge(o, scan).empty()) << Describe(Judge(o, scan));
  scan.rows->pop_back();
  EXPECT_TRUE(Names(Judge(o, scan), RuleId::kSemLiveRows));  // "sem.live-rows"
  // The scan of snapshot 1 still sees r1 and r2.
  o = m.Outcome(Scan{1});
  ASSERT_TRUE(o.rows.has_value());
  EXPECT_EQ(o.rows->size(), 2u);
  EXPECT_TRUE(o.rows->count("r2"));
}

// proto.request: the ARCHITECTURE.md conventions answered invalid-request.
TEST(ProtoRequest, ConventionsAreInvalidRequests) {
  SCOPED_TRACE("proto.request");
  ModelSession m;
  EXPECT_TRUE(MustReject(m.Outcome(Append({Order("r1", 1, 1)}), "nope"),
                         RejectKind::kInvalidRequest))
      << "unknown table";
  m.Create();
  m.Add(Pk("pk", true, {1}));
  m.Write(Append({Order("r1", 1, 1)}));
  const auto invalid = [&](Operation op) {
    AllowedOutcome o = m.Outcome(std::move(op));
    return MustReject(o, RejectKind::kInvalidRequest) &&
           o.reject_kinds == std::set<RejectKind>{RejectKind::kInvalidRequest};
  };
  EXPECT_TRUE(invalid(Delete({"r9"}))) << "remove of a key that is not live";
  EXPECT_TRUE(invalid(Overwrite({}, {}, {Order("r9", 9, 1)})))
      << "modify of a non-live key";
  EXPECT_TRUE(invalid(Append({Order("r1", 2, 1)}))) << "add of a live key";
  EXPECT_TRUE(invalid(Append({Order("r2", 2, 1), Order("r2", 3, 1)}))) << "a key twice";
  Commit mixed = Append({Order("r2", 2, 1)});
  mixed.remove = {"r1"};
  EXPECT_TRUE(invalid(mixed)) << "append carries only add";
  Commit replace;
  replace.operation = CommitOperation::kReplace;
  replace.add = {Order("r2", 2, 1)};
  EXPECT_TRUE(invalid(replace)) << "replace carries no rows";
  EXPECT_TRUE(
      invalid(Append({MakeRow("r2", {{1, Value::Long(2)}, {9, Value::Long(1)}})})))
      << "an unknown field ID";
  EXPECT_TRUE(invalid(Append({MakeRow("r2", {{2, Value::Long(1)}})})))
      << "a null in a required field";
  EXPECT_TRUE(invalid(Append({MakeRow("r2", {{1, Value::String("x")}})})))
      << "a value of the wrong type";
  EXPECT_TRUE(invalid(Finish{"w"})) << "finish without a transaction";
  m.Step(Begin{"w"});
  EXPECT_TRUE(invalid(Begin{"w"})) << "a transaction opened twice";
  EXPECT_TRUE(invalid(Finish{"w"})) << "finish without a staged commit";
  EXPECT_TRUE(invalid(RemoveConstraint{"nope"})) << "unknown constraint";
  EXPECT_TRUE(invalid(UpdateConstraint{"nope", {}})) << "unknown constraint";
  EXPECT_TRUE(invalid(Validate{{"nope"}})) << "unknown constraint";
  EXPECT_TRUE(invalid(Scan{42})) << "unknown snapshot";
  ReadStatuses rs;
  rs.metadata = m.metadata();
  rs.snapshot_id = 42;
  EXPECT_TRUE(invalid(rs)) << "unknown snapshot";
  EXPECT_TRUE(invalid(CreateTable{4, OrdersSchema()})) << "the table exists";
  // And the requests that are fine.
  EXPECT_TRUE(OnlyOk(m.Outcome(Overwrite({Order("r2", 2, 1)}, {"r1"}, {}))));
  EXPECT_TRUE(OnlyOk(m.Outcome(Delete({"r1"}))));
}

// proto.answer: "after a rejected request it must equal the state before it".
TEST(ProtoAnswer, RejectedRequestChangesNothing) {
  SCOPED_TRACE("proto.answer");
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", true, {1}));
  m.Write(Append({Order("r1", 1, 1)}));
  const TableMetadata before = m.metadata();
  const size_t rows = m.table().rows.size();
  const ChangeVersions versions = m.table().versions;
  AllowedOutcome o;
  const Findings f = m.StepWith(Append({Order("r2", 1, 1)}),
                                Answer::Rejected(RejectKind::kConstraintViolation), &o);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(m.metadata(), before);
  EXPECT_EQ(m.table().rows.size(), rows);
  EXPECT_EQ(m.table().versions, versions);
  // load-table must then answer the same metadata: a changed one is a finding.
  o = m.Outcome(LoadTable{});
  EXPECT_TRUE(Judge(o, Answer::Ok(before)).empty());
  TableMetadata moved = before;
  moved.constraints->front().enforced = false;
  EXPECT_FALSE(Judge(o, Answer::Ok(moved)).empty());
  // A rejection of a request that must succeed names the rule that decided.
  o = m.Outcome(Append({Order("r2", 2, 1)}));
  const Findings wrong = Judge(o, Answer::Rejected(RejectKind::kConstraintViolation));
  EXPECT_TRUE(Names(wrong, RuleId::kEnfEnforced)) << Describe(wrong);
}

// A history of commits leaves the model's derived structures equal to a rebuild.
RC_GTEST_PROP(TableStateProperty, IncrementalIndexesEqualRebuilt, ()) {
  ModelSession m;
  m.Create();
  m.Add(Pk("pk", false, {1}));
  m.Add(Unique("email_unique", false, {3}));
  m.Add(Check("qty_positive", false, PositiveOrNull(2)));
  std::vector<std::string> live;
  int next = 0;
  const auto gen_row = [&](std::string key) {
    const int64_t id = *rc::gen::inRange<int64_t>(0, 6);
    const int qty = *rc::gen::inRange(-2, 3);    // -2: null
    const int email = *rc::gen::inRange(-1, 3);  // -1: null
    return Order(
        std::move(key), id, qty == -2 ? std::nullopt : std::optional<int64_t>(qty),
        email < 0 ? std::nullopt : std::optional<std::string>(fmt::format("e{}", email)));
  };
  const int steps = *rc::gen::inRange(1, 12);
  for (int i = 0; i < steps; ++i) {
    std::vector<Row> add, modify;
    std::vector<std::string> remove;
    std::vector<std::string> untouched = live;
    const int n_add = *rc::gen::inRange(0, 3);
    for (int j = 0; j < n_add; ++j) add.push_back(gen_row(fmt::format("r{}", next++)));
    const int n_change = untouched.empty() ? 0 : *rc::gen::inRange(0, 3);
    for (int j = 0; j < n_change && !untouched.empty(); ++j) {
      const size_t pick = *rc::gen::inRange<size_t>(0, untouched.size());
      const std::string key = untouched[pick];
      untouched.erase(untouched.begin() + static_cast<std::ptrdiff_t>(pick));
      if (*rc::gen::arbitrary<bool>()) {
        remove.push_back(key);
      } else {
        modify.push_back(gen_row(key));
      }
    }
    m.Write(Overwrite(add, remove, modify));
    live = untouched;
    for (const Row& r : modify) live.push_back(r.key);
    for (const Row& r : add) live.push_back(r.key);
  }
  const TableState& t = m.table();
  RC_ASSERT(t.rows.size() == live.size());
  TableState rebuilt = t;
  RebuildDerived(rebuilt, m.state().functions);
  for (const auto& [id, index] : t.key_indexes)
    RC_ASSERT(index.Equivalent(rebuilt.key_indexes.at(id)));
  RC_ASSERT(t.check_tallies == rebuilt.check_tallies);
}

}  // namespace
}  // namespace ictk
