/// \file
/// Findings that show the evaluation (model/iceberg/evaluate.h ExplainCheck,
/// model/judge/explain_rows.h ExplainRows): a check's evaluation on a row, step by step,
/// from the one evaluator, and a failure's constraint on the rows a commit writes.
#include <gtest/gtest.h>

#include <string>

#include "model/iceberg/evaluate.h"
#include "model/judge/blame.h"
#include "model/judge/explain_rows.h"
#include "model/judge/operations.h"
#include "model/judge/outcome_internal.h"
#include "tests/model/evaluate_test_util_internal.h"
#include "tests/model/operations_test_util_internal.h"

namespace ictk {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ExplainCheck, ShowsEachLevelOfATwoValuedEvaluation) {
  using namespace evaluate_test;  // NOLINT
  // not(#2 < 1) with #2 null: the comparison with null is false, so the check holds
  // (the bug a three-valued writer has: it finds not(unknown) and rejects).
  const Expr e = Expr::Unary(ExprOp::kNot, Cmp(ExprOp::kLt, Expr::Ref(2), LitL(1)));
  const std::string text = ExplainCheck(e, TestSchema(), evaluate_test::Row({{2, Value::Null()}}), {});
  EXPECT_EQ(text, "not(null < 1) = not(false) = true");
  EXPECT_EQ(ExplainCheck(e, TestSchema(), evaluate_test::Row({{2, Value::Long(0)}}), {}),
            "not(0 < 1) = not(true) = false");
}

TEST(ExplainCheck, LeavesTheUnevaluatedSideOfAShortCircuitAsWritten) {
  using namespace evaluate_test;  // NOLINT
  const Expr e = Expr::Binary(ExprOp::kOr, Expr::Unary(ExprOp::kIsNull, Expr::Ref(1)),
                              Cmp(ExprOp::kGt, Expr::Ref(2), LitL(0)));
  const std::string text = ExplainCheck(e, TestSchema(), evaluate_test::Row({{2, Value::Long(5)}}), {});
  // #1 is null: the right side is never evaluated, and the result is true.
  EXPECT_EQ(text, "(null is null or #2 > 0) = (true or #2 > 0) = true");
}

TEST(ExplainCheck, SaysWhenTheCheckCannotBeEvaluated) {
  using namespace evaluate_test;  // NOLINT
  const Expr e = Call("missing_udf", {Expr::Ref(1)});
  const std::string text = ExplainCheck(e, TestSchema(), evaluate_test::Row({{1, Value::Long(1)}}), {});
  EXPECT_TRUE(Has(text, "cannot be evaluated: undefined function missing_udf")) << text;
}

using namespace ops_test;  // NOLINT

TEST(ExplainRows, AViolatingRowOfACheckComesFirstWithItsValues) {
  ModelSession m;
  m.Create();
  m.Add(Check("c", true, PositiveOrNull(2)));
  const Request r = m.Req(Append({Order("a", 1, 3), Order("b", 2, -1)}));
  const std::string text = ExplainRows(m.state(), r, 1);
  EXPECT_TRUE(Has(text, "check c (ID 1): ")) << text;
  EXPECT_TRUE(Has(text, "row b with qty (#2) = -1: (-1 > 0 or -1 is null) = (false or "
                        "false) = false; row a"))
      << text;
}

TEST(ExplainRows, AKeyCollisionNamesBothRowsAndTheKey) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", true, {2}));
  m.Write(Append({Order("a", 1, 7)}));
  EXPECT_EQ(ExplainRows(m.state(), m.Req(Append({Order("b", 2, 7)})), 1),
            "unique u (ID 1): written row b and remaining row a both carry key (qty (#2) = 7)");
  EXPECT_EQ(ExplainRows(m.state(), m.Req(Append({Order("b", 2, 8), Order("c", 3, 8)})), 1),
            "unique u (ID 1): written rows b and c both carry key (qty (#2) = 8)");
}

TEST(ExplainRows, DistinctKeysNameTheRemovalAndTheNullsNotCompared) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", false, {2}));
  m.Write(Append({Order("a", 1, 7)}));
  const std::string text = ExplainRows(
      m.state(), m.Req(Overwrite({Order("b", 2, 7), Order("c", 3, std::nullopt)}, {"a"}, {})), 1);
  EXPECT_TRUE(Has(text, "unique u (ID 1, not enforced): the written keys are distinct "
                        "among themselves and from the 0 remaining rows: row b (qty (#2) = "
                        "7), the key of row a, which the commit removes"))
      << text;
  EXPECT_TRUE(Has(text, "not compared, a key field is null (sem.unique): row c (qty (#2) = "
                        "null)"))
      << text;
}

TEST(ExplainRows, OnlyACommitsWrittenRowsAreExplained) {
  ModelSession m;
  m.Create();
  m.Add(Unique("u", true, {2}));
  EXPECT_EQ(ExplainRows(m.state(), m.Req(Delete({"a"})), 1), "");
  EXPECT_EQ(ExplainRows(m.state(), m.Req(Append({Order("a", 1, 1)})), 9), "");
}

TEST(ExplainRows, TheBlamedFindingCarriesIt) {
  ModelSession m;
  m.Create();
  m.Add(Check("c", true, PositiveOrNull(2)));
  const Request r = m.Req(Append({Order("a", 1, -1)}));
  const AllowedOutcome o = Apply(m.state(), r, m.switches());
  const Answer accepted = Answer::Ok(m.state().FindTable("t")->metadata);
  const Findings judged = Judge(o, accepted);
  ASSERT_FALSE(judged.empty());
  const BlameResult b = BlameByClause(m.state(), r, m.switches(), o, accepted, judged);
  ASSERT_FALSE(b.findings.empty());
  EXPECT_TRUE(Has(b.findings.front().evaluation, "row a with qty (#2) = -1"))
      << b.findings.front().evaluation;
}

}  // namespace
}  // namespace ictk
