// Minimal means minimal (properties/minimize.h): schema edits keep a schema well-formed,
// and a shrunk history (spec-diff's disagreements, certify's failures against a sample
// mutant) still shows the same disagreement while no single column, step or row can be
// removed from it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "adapters/session.h"
#include "generators/history.h"
#include "model/rules/switches.h"
#include "properties/minimize.h"
#include "properties/runner.h"
#include "review/spec_diff.h"
#include "sample/sample_adapter.h"
#include "tests/model/field_test_util_internal.h"

namespace ictk {
namespace {

constexpr auto F = testing_util::Field;

Schema Nested() {
  Schema s;
  s.schema_id = 0;
  s.fields.push_back(F(1, "id", true, Type::Primitive(TypeId::kLong)));
  s.fields.push_back(F(2, "s", false,
                       Type::Struct({F(4, "id", true, Type::Primitive(TypeId::kString)),
                                     F(5, "b", false, Type::Primitive(TypeId::kDate))})));
  s.fields.push_back(F(3, "k", true, Type::Primitive(TypeId::kString)));
  s.identifier_field_ids = std::vector<FieldId>{3};
  return s;
}

TEST(SchemaEdits, DropUnnestLowerAndRenumber) {
  Schema s = Nested();
  ApplySchemaEdits(s, {{SchemaEditKind::kUnnest, "s"}, {SchemaEditKind::kDrop, "id"}});
  ASSERT_EQ(s.fields.size(), 3u);
  // The struct's `id` collides with the top-level `id` when it is lifted.
  EXPECT_EQ(s.fields[0].name, "s_id");
  EXPECT_FALSE(s.fields[0].required) << "an optional struct's fields become optional";
  EXPECT_EQ(s.fields[1].name, "b");
  EXPECT_EQ(s.fields[2].name, "k");
  EXPECT_EQ(s.fields[0].id, 1);
  EXPECT_EQ(s.fields[2].id, 3);
  ASSERT_TRUE(s.identifier_field_ids);
  EXPECT_EQ(*s.identifier_field_ids, std::vector<FieldId>{3});

  ApplySchemaEdits(s, {{SchemaEditKind::kLower, "b"}});
  EXPECT_EQ(s.fields[1].type.id, TypeId::kInt);
}

TEST(SchemaEdits, PlainNamesFollowTheIdentifierFields) {
  Schema s = Nested();
  const SchemaEdit plain{SchemaEditKind::kPlainNames, ""};
  ASSERT_TRUE(EditApplies(s, plain));
  ApplySchemaEdits(s, {{SchemaEditKind::kLower, "id"}, plain});
  ASSERT_EQ(s.fields.size(), 3u);
  EXPECT_EQ(s.fields[0].name, "a") << "a lowered column does not keep its generated name";
  EXPECT_EQ(s.fields[0].type.id, TypeId::kInt);
  EXPECT_EQ(s.fields[1].name, "b");
  ASSERT_EQ(s.fields[1].type.fields.size(), 2u);
  EXPECT_EQ(s.fields[1].type.fields[0].name, "a");
  EXPECT_EQ(s.fields[1].type.fields[1].name, "b");
  EXPECT_EQ(s.fields[2].name, "id") << "the identifier field";
  ASSERT_TRUE(s.identifier_field_ids);
  EXPECT_EQ(*s.identifier_field_ids, std::vector<FieldId>{s.fields[2].id});
  EXPECT_FALSE(EditApplies(s, plain)) << "already plain";
  // An edit after the renaming names the plain column.
  ApplySchemaEdits(s, {{SchemaEditKind::kDrop, "a"}});
  ASSERT_EQ(s.fields.size(), 2u);
  EXPECT_EQ(s.fields[0].name, "b");
}

TEST(SchemaEdits, IdentifierFieldsAndMissingColumnsAreLeftAlone) {
  const Schema s = Nested();
  EXPECT_FALSE(EditApplies(s, {SchemaEditKind::kDrop, "k"}));
  EXPECT_FALSE(EditApplies(s, {SchemaEditKind::kLower, "k"}));
  EXPECT_FALSE(EditApplies(s, {SchemaEditKind::kDrop, "nope"}));
  EXPECT_FALSE(EditApplies(s, {SchemaEditKind::kUnnest, "id"}));
  EXPECT_TRUE(EditApplies(s, {SchemaEditKind::kLower, "id"}));
  Schema t = s;
  ApplySchemaEdits(t, {{SchemaEditKind::kDrop, "k"}, {SchemaEditKind::kDrop, "nope"}});
  EXPECT_EQ(t, s);
}

TEST(SchemaEdits, PlanSchemaAppliesThePlansEdits) {
  TablePlan table;
  table.schema_seed = 12345;
  table.schema_size = 60;
  const std::optional<Schema> before = PlanSchema(table);
  ASSERT_TRUE(before);
  ASSERT_GE(before->fields.size(), 4u);
  table.schema_edits = {{SchemaEditKind::kDrop, "score"}, {SchemaEditKind::kDrop, "name"}};
  const std::optional<Schema> after = PlanSchema(table);
  ASSERT_TRUE(after);
  EXPECT_EQ(after->fields.size(), before->fields.size() - 2);
  for (const NestedField& f : after->fields) {
    EXPECT_NE(f.name, "score");
    EXPECT_NE(f.name, "name");
  }
}

/// Every plan one removal away from `plan`: each column dropped, each step (and
/// concurrent step) removed, each step with one row fewer.
std::vector<std::pair<std::string, Plan>> OneRemovalAway(const Plan& plan) {
  std::vector<std::pair<std::string, Plan>> out;
  if (const std::optional<Schema> schema = PlanSchema(plan.table))
    for (const NestedField& f : schema->fields) {
      const SchemaEdit edit{SchemaEditKind::kDrop, f.name};
      if (!EditApplies(*schema, edit)) continue;
      Plan p = plan;
      p.table.schema_edits.push_back(edit);
      out.emplace_back("drop column " + f.name, std::move(p));
    }
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    Plan p = plan;
    p.steps.erase(p.steps.begin() + static_cast<std::ptrdiff_t>(i));
    out.emplace_back(fmt::format("remove step {}", i), std::move(p));
    for (size_t j = 0; j < plan.steps[i].concurrent.size(); ++j) {
      Plan q = plan;
      q.steps[i].concurrent.erase(q.steps[i].concurrent.begin() +
                                  static_cast<std::ptrdiff_t>(j));
      out.emplace_back(fmt::format("remove concurrent step {}.{}", i, j), std::move(q));
    }
    if (plan.steps[i].count > 1) {
      Plan r = plan;
      --r.steps[i].count;
      out.emplace_back(fmt::format("one row fewer in step {}", i), std::move(r));
    }
  }
  return out;
}

TEST(MinimizeProperty, SpecDiffHistoriesAreMinimal) {
  struct Pair {
    const char* name;
    const char* value;
  };
  int checked = 0;
  for (const Pair& p : {Pair{"status-carry", "must"},
                        Pair{"modified-counts-as-added", "false"},
                        Pair{"existing-rows-on-enforce", "reject"}}) {
    SCOPED_TRACE(p.name);
    SpecDiffOptions o;
    ASSERT_EQ(SetSwitch(o.b, p.name, p.value), "");
    // Enough histories that each reading shows a difference (each switch is checked
    // below to have one), whatever the generators' current mix of steps.
    o.histories = 100;
    o.max_reported = 2;
    const SpecDiffResult r = RunSpecDiff(o);
    for (const Disagreement& d : r.disagreements) {
      SCOPED_TRACE(ToString(d.plan));
      ASSERT_TRUE(d.minimal) << "the passes ran out of budget";
      std::vector<Request> requests;
      const std::optional<StepDisagreement> again =
          FirstDisagreement(d.plan, d.render, o.a, o.b, &requests);
      ASSERT_TRUE(again) << "the minimized plan no longer disagrees";
      EXPECT_EQ(again->aspect, d.at.aspect);
      EXPECT_EQ(again->op, d.at.op);
      EXPECT_EQ(requests.size(), d.requests.size());
      for (const auto& [what, smaller] : OneRemovalAway(d.plan)) {
        std::vector<Request> fewer;
        const std::optional<StepDisagreement> still =
            FirstDisagreement(smaller, d.render, o.a, o.b, &fewer);
        EXPECT_FALSE(still && still->aspect == d.at.aspect && still->op == d.at.op &&
                     fewer.size() <= requests.size())
            << what << " still disagrees the same way";
      }
      // The table is small: the bar is three columns where the difference allows.
      const std::optional<Schema> schema = PlanSchema(d.plan.table);
      ASSERT_TRUE(schema);
      EXPECT_LE(schema->fields.size(), 3u) << ToString(d.plan);
      // Plain names, as a person would write the table, in the requests too.
      EXPECT_FALSE(EditApplies(*schema, {SchemaEditKind::kPlainNames, ""}))
          << ToString(d.plan);
      const auto* create = std::get_if<CreateTable>(&d.request_values.front().op);
      ASSERT_NE(create, nullptr);
      for (const NestedField& f : create->schema.fields)
        EXPECT_TRUE(f.name == "id" || f.name.size() == 1) << f.name;
      ++checked;
    }
    EXPECT_FALSE(r.disagreements.empty()) << "no history shows where the readings differ";
  }
  EXPECT_GE(checked, 3);
}

TEST(MinimizeProperty, CertifyFailuresAreMinimal) {
  Result<std::unique_ptr<Adapter>> adapter = MakeSampleAdapter("mutant=keys-before-removals");
  ASSERT_TRUE(adapter.has_value());
  AdapterSession session(std::move(*adapter));
  ASSERT_TRUE(session.Handshake().has_value());
  CertifyOptions options;
  options.seed = 1;
  options.gen.max_steps = 20;
  options.adapter_spec = "builtin:test";
  options.shrink_budget = 400;
  std::optional<CaseResult> kill;
  int64_t index = 0;
  for (; index < 300 && !kill; ++index) {
    CaseResult r = CertifyCase(session, index, options);
    if (!IsConformant(r.record.verdict)) kill = std::move(r);
  }
  ASSERT_TRUE(kill) << "the mutant survived 300 histories";
  --index;
  ASSERT_TRUE(kill->minimized);
  const Plan& plan = *kill->minimized;
  SCOPED_TRACE(ToString(plan));
  int attempt = 100000;
  auto run = [&](const Plan& p) {
    return RunHistory(session, p,
                      CaseRenderOptions(options.seed, index, ++attempt,
                                        session.capabilities(), options.switches),
                      options.switches);
  };
  const HistoryRun again = run(plan);
  ASSERT_EQ(again.verdict, kill->record.verdict);
  ASSERT_TRUE(kill->record.failure);
  ASSERT_TRUE(again.primary_rule());
  EXPECT_EQ(std::string(RuleIdName(*again.primary_rule())), kill->record.failure->rule);
  for (const auto& [what, smaller] : OneRemovalAway(plan)) {
    const HistoryRun r = run(smaller);
    EXPECT_FALSE(r.verdict == again.verdict && r.primary_rule() == again.primary_rule())
        << what << " still fails the same way";
  }
}

}  // namespace
}  // namespace ictk
