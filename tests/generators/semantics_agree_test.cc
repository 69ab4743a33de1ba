// The model's incremental reading of sem.check, sem.unique and sem.primary-key (the key
// indexes and check tallies a commit updates) agrees, after every step of random
// histories, with the plain reading of the sentences (`HoldsOnLiveRows`, model/rules/semantics.h)
// over the table's live rows.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "generators/history.h"
#include "model/judge/operations.h"
#include "model/rules/semantics.h"

namespace ictk {
namespace {

struct Agreement {
  int keys = 0;
  int checks = 0;
  int broken = 0;  ///< constraints found not to hold
};

void ExpectAgreement(const CatalogState& state, const std::string& label, Agreement& seen) {
  for (const auto& [name, table] : state.tables) {
    const Schema* schema = table.metadata.CurrentSchema();
    if (schema == nullptr) continue;
    std::vector<Value> live;
    live.reserve(table.rows.size());
    for (const auto& [key, row] : table.rows) live.push_back(row);
    for (const Constraint& c : ConstraintsOf(table.metadata)) {
      if (!c.id) continue;
      bool incremental = true;
      if (auto k = table.key_indexes.find(*c.id); k != table.key_indexes.end()) {
        incremental = k->second.Holds();
        ++seen.keys;
      } else if (auto t = table.check_tallies.find(*c.id); t != table.check_tallies.end()) {
        incremental = t->second.holds();
        ++seen.checks;
      } else {
        continue;
      }
      const std::optional<bool> plain = HoldsOnLiveRows(c, *schema, live, state.functions);
      RC_ASSERT(plain.has_value());
      if (*plain != incremental)
        RC_FAIL(label + ": constraint " + c.name.value_or("?") + " of " + name +
                " holds by the sentences: " + (*plain ? "yes" : "no") +
                ", by the incremental index: " + (incremental ? "yes" : "no") + " (" +
                std::to_string(live.size()) + " live rows)");
      seen.broken += !*plain;
    }
  }
}

RC_GTEST_PROP(Semantics, IncrementalIndexesAgreeWithThePlainReading, ()) {
  HistoryGenConfig config;
  config.max_steps = 20;
  const Plan plan = *GenPlan(config);
  RenderOptions options;
  options.table = "t";
  options.function_prefix = "t_";
  options.capabilities = config.capabilities;
  CatalogState state;
  HistoryRenderer renderer(plan, options);
  Agreement seen;
  while (std::optional<RenderedStep> step = renderer.Next(state)) {
    const AllowedOutcome outcome = Apply(state, step->request, options.switches);
    const Answer answer = CanonicalAnswer(state, step->request, outcome, options.switches);
    Adopt(state, step->request, answer, options.switches);
    ExpectAgreement(state, step->label, seen);
  }
  RC_TAG(seen.keys > 0 ? "keys judged" : "no key judged");
  RC_TAG(seen.checks > 0 ? "checks judged" : "no check judged");
  RC_CLASSIFY(seen.broken > 0, "some constraint broken");
}

// The plain reading on its own, from the sentences' words.
TEST(Semantics, PlainReadingFollowsTheSentences) {
  Schema schema;
  schema.schema_id = 0;
  schema.fields = {NestedField{1, "a", false, Type::Primitive(TypeId::kInt), {}, {}, {}},
                   NestedField{2, "b", false, Type::Primitive(TypeId::kString), {}, {}, {}}};
  auto row = [](std::optional<int64_t> a, std::optional<std::string> b) {
    return Value::Struct({1, 2}, {a ? Value::Long(*a) : Value::Null(),
                                  b ? Value::String(*b) : Value::Null()});
  };
  Constraint unique;
  unique.id = 1;
  unique.type = ConstraintType::kUnique;
  unique.field_ids = std::vector<FieldId>{1, 2};
  Constraint pk = unique;
  pk.type = ConstraintType::kPrimaryKey;
  const FunctionCatalog functions;
  // "a row in which any field in the set is null is not compared, so more than one such
  // row may exist"
  const std::vector<Value> nulls = {row(1, std::nullopt), row(1, std::nullopt)};
  EXPECT_EQ(HoldsOnLiveRows(unique, schema, nulls, functions), true);
  // "must not be null"
  EXPECT_EQ(HoldsOnLiveRows(pk, schema, nulls, functions), false);
  // "must be distinct"
  const std::vector<Value> dup = {row(1, "x"), row(2, "x"), row(1, "x")};
  EXPECT_EQ(HoldsOnLiveRows(unique, schema, dup, functions), false);
  EXPECT_EQ(HoldsOnLiveRows(pk, schema, dup, functions), false);
  const std::vector<Value> distinct = {row(1, "x"), row(2, "x"), row(1, "y")};
  EXPECT_EQ(HoldsOnLiveRows(unique, schema, distinct, functions), true);
  EXPECT_EQ(HoldsOnLiveRows(pk, schema, distinct, functions), true);
  // A key field the schema lacks: the constraint cannot be read.
  Constraint missing = unique;
  missing.field_ids = std::vector<FieldId>{7};
  EXPECT_EQ(HoldsOnLiveRows(missing, schema, distinct, functions), std::nullopt);
}

}  // namespace
}  // namespace ictk
