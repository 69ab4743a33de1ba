// `hello`'s finer declarations (docs/protocol.md section 9, "Finer declarations"):
// `constraint-ops` and `expression-operators` decode with errors naming the member, the
// generators send nothing they leave out, fixtures record what they need of them and a
// runner skips what an adapter left out, and the verdict's scope says what was left out.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "codec/protocol.h"
#include "generators/capabilities.h"
#include "model/judge/capability.h"
#include "model/judge/rule_catalogue.h"
#include "properties/fixture.h"
#include "reports/report.h"
#include "tests/generators/model_walk_internal.h"

namespace ictk {
namespace {

using nlohmann::json;

json Hello() {
  return {{"id", 1},
          {"result", "ok"},
          {"protocol-version", 1},
          {"implementation", {{"name", "x"}, {"version", "1"}, {"language", "python"}}},
          {"format-versions", {4}},
          {"capabilities", {"check", "unique"}}};
}

const std::vector<std::string> kSubset = {"not",   "and",   "or", "is-null", "not-null",
                                          "lt",    "lt-eq", "gt", "gt-eq",   "eq",
                                          "not-eq"};

TEST(FinerDeclarations, HelloMembersRoundTripAndAbsentMeansAll) {
  auto plain = ResponseFromJson(Hello());
  ASSERT_TRUE(plain.has_value());
  EXPECT_FALSE(plain->hello->constraint_ops);
  EXPECT_FALSE(plain->hello->expression_operators);
  EXPECT_FALSE(ResponseToJson(*plain).contains("constraint-ops"));

  json j = Hello();
  j["constraint-ops"] = {"add-constraint"};
  j["expression-operators"] = kSubset;
  auto narrowed = ResponseFromJson(j);
  ASSERT_TRUE(narrowed.has_value()) << narrowed.error().message;
  EXPECT_EQ(*narrowed->hello->constraint_ops, std::vector<std::string>{"add-constraint"});
  EXPECT_EQ(*narrowed->hello->expression_operators, kSubset);
  EXPECT_EQ(ResponseToJson(*narrowed).at("expression-operators"), json(kSubset));
}

TEST(FinerDeclarations, BadListsAreRefusedNamingTheMember) {
  const std::map<std::string, std::pair<json, std::string>> cases = {
      {"unknown op", {{{"constraint-ops", {"add-constraint", "rename"}}}, "/constraint-ops/1"}},
      {"twice", {{{"constraint-ops", {"add-constraint", "add-constraint"}}}, "/constraint-ops/1"}},
      {"not a list", {{{"constraint-ops", "add-constraint"}}, "/constraint-ops"}},
      {"unknown operator",
       {{{"expression-operators", {"not-null", "between"}}}, "/expression-operators/1"}},
      {"no last resort", {{{"expression-operators", {"eq", "lt"}}}, "/expression-operators"}},
  };
  for (const auto& [what, c] : cases) {
    json j = Hello();
    j.update(c.first);
    const auto r = ResponseFromJson(j);
    ASSERT_FALSE(r.has_value()) << what;
    EXPECT_NE(r.error().message.find(c.second), std::string::npos)
        << what << ": " << r.error().message;
  }
}

TEST(FinerDeclarations, OperatorsOfAnExpressionAreItsPredicatesOnly) {
  const Expr e = Expr::Unary(
      ExprOp::kNot, Expr::Binary(ExprOp::kOr,
                                 Expr::Binary(ExprOp::kLt, Expr::Apply("bucket", {Expr::Ref(1)}),
                                              Expr::Lit(Value::Long(3))),
                                 Expr::Unary(ExprOp::kIsNull, Expr::Ref(1))));
  EXPECT_EQ(OperatorsOf(e), (std::set<std::string>{"is-null", "lt", "not", "or"}));
  Capabilities c = Capabilities::All();
  EXPECT_TRUE(c.DeclaresOperators(e));
  c.expression_operators = std::set<std::string>{"not", "or", "is-null", "not-null"};
  EXPECT_FALSE(c.DeclaresOperators(e));
  c.expression_operators->insert("lt");
  EXPECT_TRUE(c.DeclaresOperators(e));
}

// Over 300 histories on the model, with check + unique, add-constraint only and a subset
// of operators: no update-constraint or remove-constraint is sent, every check (valid or
// invalid) is made of declared operators, and checks and unique constraints are still
// sent (the narrowing keeps the rest of the generators at work).
TEST(FinerDeclarations, TheGeneratorsSendNothingTheDeclarationsLeaveOut) {
  HistoryGenConfig config;
  config.max_steps = 20;
  config.capabilities = Capabilities::FromHello({"check", "unique"}, {4});
  config.capabilities.constraint_ops = std::set<std::string>{"add-constraint"};
  config.capabilities.expression_operators =
      std::set<std::string>(kSubset.begin(), kSubset.end());
  std::map<std::string, int> ops;
  int checks = 0;
  WalkOnTheModel(config, 300, [&](uint64_t, const CatalogState&, const RenderedStep& step,
                                  const AllowedOutcome&) {
    ++ops[std::string(OpName(step.request.op))];
    const DeclarationNeeds needs = RequiredDeclarations({step.request});
    for (const std::string& op : needs.operators) {
      EXPECT_TRUE(config.capabilities.expression_operators->count(op))
          << op << " sent in " << step.label;
    }
    if (const auto* add = std::get_if<AddConstraint>(&step.request.op);
        add && add->constraint.expression)
      ++checks;
  });
  EXPECT_EQ(ops["update-constraint"], 0);
  EXPECT_EQ(ops["remove-constraint"], 0);
  EXPECT_EQ(ops["define-function"], 0);
  EXPECT_GT(ops["add-constraint"], 100);
  EXPECT_GT(checks, 30);
}

TEST(FinerDeclarations, AFixtureRecordsTheOpsAndOperatorsItNeeds) {
  Constraint c;
  c.type = ConstraintType::kCheck;
  c.name = "c";
  c.expression = Expr::Binary(ExprOp::kStartsWith, Expr::Ref(2), Expr::Lit(Value::String("a")));
  Request add{"t", 1, AddConstraint{c}};
  Request update{"t", 2, UpdateConstraint{"c", {}}};
  Request scan{"t", 3, Scan{}};
  const DeclarationNeeds needs = RequiredDeclarations({scan, update, add});
  EXPECT_EQ(needs.constraint_ops,
            (std::vector<std::string>{"add-constraint", "update-constraint"}));
  EXPECT_EQ(needs.operators, std::vector<std::string>{"starts-with"});
  EXPECT_TRUE(RequiredDeclarations({scan}).constraint_ops.empty());
}

TEST(FinerDeclarations, TheScopeNamesWhatTheDeclarationsLeaveOut) {
  EXPECT_EQ(NarrowingText(std::nullopt, std::nullopt), "");
  std::vector<std::string> every(ExpressionOperatorNames().begin(),
                                 ExpressionOperatorNames().end());
  EXPECT_EQ(NarrowingText(std::vector<std::string>{"add-constraint", "update-constraint",
                                                   "remove-constraint"},
                          every),
            "");
  EXPECT_EQ(NarrowingText(std::vector<std::string>{"add-constraint"}, std::nullopt),
            "add-constraint only");
  every.erase(std::find(every.begin(), every.end(), "is-nan"));
  EXPECT_EQ(NarrowingText(std::nullopt, every), "18 of 19 operators: no is-nan");

  // A rule only update-constraint reaches is out of the profile's reach without it.
  RunHeader header;
  header.profile = "v4 writer";
  header.capabilities = {"check", "unique"};
  header.format_versions = {4};
  header.hello = Hello();
  const RuleInfo& upd = FindRule(RuleId::kUpdTimestamp);
  EXPECT_EQ(OutOfReachReason(header, upd), "");
  header.hello["constraint-ops"] = {"add-constraint"};
  EXPECT_EQ(OutOfReachReason(header, upd), "constraint op not declared");
  EXPECT_EQ(HelloNarrowing(header.hello), "add-constraint only");
}

}  // namespace
}  // namespace ictk
