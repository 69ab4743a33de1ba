/// \file
/// Every mutant of the sample is real: for each, a hand-written script on which the mutant
/// answers differently from the correct sample, first at a named step (the answers before
/// it agree), where the correct sample's answer is the legal one the rule demands. The
/// rule ID of each case is the mutant's (SampleMutants), printed in the test name's trace.
#include <functional>
#include <set>

#include <gtest/gtest.h>

#include "sample/sample_adapter.h"
#include "tests/sample/script_util.h"

namespace ictk::sample_test {
namespace {

struct MutantCase {
  std::string mutant;
  Script script;
  size_t witness;  ///< the 1-based step where the mutant first answers differently
  /// What the correct sample answers at the witness step.
  std::function<void(const json&)> expect;
};

auto IsOutcome(std::string outcome) {
  return [outcome](const json& r) { EXPECT_EQ(Outcome(r), outcome) << r.dump(); };
}
auto IsStatuses(std::string statuses) {
  return [statuses](const json& r) {
    EXPECT_EQ(CurrentStatuses(r), json::parse(statuses)) << r.dump();
  };
}
auto IsAt(std::string pointer, std::string value) {
  return [pointer, value](const json& r) {
    EXPECT_EQ(r.value(json::json_pointer(pointer), json()), json::parse(value)) << r.dump();
  };
}

const char* kUdfPositive =
    R"({"op": "define-function", "name": "pos", "deterministic": true, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})";
const char* kUdfCallsPos =
    R"({"type": "eq", "left": {"type": "apply", "function": "pos", "arguments": [{"type": "reference", "id": 2}]}, "right": true})";

std::vector<MutantCase> Cases() {
  const std::string geo_schema = R"({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "g", "required": true, "type": "geometry"}]})";
  return {
      // id.no-reuse
      {"reuse-removed-id",
       {Create(), AddUnique("u1", "[3]"), AddUnique("u2", "[4]"),
        R"({"op": "remove-constraint", "name": "u2"})", AddUnique("u3", "[4]")},
       5, IsAt("/metadata/constraints/1/constraint-id", "3")},
      // id.above-last
      {"id-not-above-last", {Create(), AddUnique("u1", "[3]")}, 2,
       IsAt("/metadata/constraints/0/constraint-id", "1")},
      // id.update-last
      {"last-id-not-updated", {Create(), AddUnique("u1", "[3]")}, 2,
       IsAt("/metadata/last-constraint-id", "1")},
      // def.v4-only
      {"constraints-on-v3", {Create(3), AddUnique("u1", "[3]")}, 2,
       IsOutcome("unsupported-format-version")},
      // def.single-pk
      {"two-pks-accepted", {Create(), AddPk("[1]"), AddPk("[4]", true, "pk2")}, 3,
       IsOutcome("invalid-constraint")},
      // def.name-unique
      {"duplicate-name-accepted", {Create(), AddUnique("u", "[3]"), AddUnique("u", "[4]")}, 3,
       IsOutcome("invalid-constraint")},
      // key.no-float-double
      {"float-key-accepted", {Create(), AddUnique("u", "[9]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.no-geo
      {"geo-key-accepted", {Create(), AddUnique("u", "[14]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.pk-required
      {"pk-allows-optional", {Create(), AddPk("[6]")}, 2, IsOutcome("invalid-constraint")},
      // key.not-in-list-map
      {"list-key-accepted", {Create(), AddUnique("u", "[8]")}, 2,
       IsOutcome("invalid-constraint")},
      // expr.id-references
      {"name-reference-accepted",
       {Create(), AddCheck("c", R"({"type": "gt", "term": "qty", "value": 0})", false)}, 2,
       IsOutcome("invalid-constraint")},
      // expr.no-list-map-element
      {"list-element-reference-accepted",
       {Create(),
        AddCheck("c", R"({"type": "eq", "left": {"type": "reference", "id": 8}, "right": "x"})",
                 false)},
       2, IsOutcome("invalid-constraint")},
      // expr.deterministic
      {"nondeterministic-udf-accepted",
       {Create(),
        R"({"op": "define-function", "name": "pos", "deterministic": false, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})",
        AddCheck("c", kUdfCallsPos, false)},
       3, IsOutcome("invalid-constraint")},
      // expr.udf-status
      {"udf-check-keeps-valid",
       {Create(), kUdfPositive, AddCheck("c", kUdfCallsPos, false), Append({RowJson("r1", 1, "5")}),
        Append({RowJson("r2", 2, "6")})},
       5, IsStatuses(R"({"unvalidated": [1]})")},
      // sem.unique
      {"unique-compares-nulls",
       {Create(), AddUnique("u", "[3]"), Append({RowJson("r1", 1), RowJson("r2", 2)})}, 3,
       IsOutcome("ok")},
      // sem.check
      {"three-valued-nulls",
       {Create(),
        AddCheck("c", R"({"type": "gt", "left": {"type": "reference", "id": 2}, "right": 0})",
                 true),
        Append({RowJson("r1", 1)})},
       3, IsOutcome("constraint-violation")},
      // sem.check (bucket[16] of the long 34 is 3 by Iceberg's Murmur3)
      {"bucket-wrong-hash",
       {Create(),
        AddCheck("c", R"({"type": "eq", "left": {"type": "apply", "function": "bucket", "catalog": "iceberg_functions", "arguments": [16, {"type": "reference", "id": 1}]}, "right": 3})",
                 true),
        Append({RowJson("r1", 34)})},
       3, IsOutcome("ok")},
      // enf.keys-against-remaining
      {"keys-only-among-added",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1)}), Append({RowJson("r2", 1)})}, 4,
       IsOutcome("constraint-violation")},
      // enf.keys-against-remaining
      {"keys-before-removals",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1)}),
        fmt::format(R"({{"op": "commit", "operation": "overwrite", "remove": ["r1"], "add": [{}]}})",
                    RowJson("r2", 1))},
       4, IsOutcome("ok")},
      // enf.modified-row
      {"modified-not-rechecked",
       {Create(), AddCheck("c", kQtyPositive, true), Append({RowJson("r1", 1, "5")}),
        fmt::format(R"({{"op": "commit", "operation": "overwrite", "modify": [{}]}})",
                    RowJson("r1", 1, "-1"))},
       4, IsOutcome("constraint-violation")},
      // enf.not-enforced
      {"unenforced-rejects",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "-1")})}, 3,
       IsOutcome("ok")},
      // enf.retry-keys-new-parent
      {"retry-against-original-parent",
       {Create(), AddPk("[1]"), R"({"op": "begin", "txn": "w"})",
        Append({RowJson("r1", 1)}, "w"), Append({RowJson("r2", 1)}),
        R"({"op": "finish", "txn": "w"})"},
       6, IsOutcome("constraint-violation")},
      // enf.retry-new-constraints
      {"retry-misses-new-enforced",
       {Create(), R"({"op": "begin", "txn": "w"})", Append({RowJson("r1", 1, "-1")}, "w"),
        AddCheck("c", kQtyPositive, true), R"({"op": "finish", "txn": "w"})"},
       5, IsOutcome("constraint-violation")},
      // enf.retry-recompute-statuses
      {"statuses-not-recomputed-on-retry",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "begin", "txn": "w"})", Append({RowJson("r2", 2, "6")}, "w"),
        Append({RowJson("r3", 3, "-1")}), R"({"op": "finish", "txn": "w"})"},
       7, IsStatuses(R"({"invalid": [1]})")},
      // st.valid
      {"valid-after-unverified-adds",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        Append({RowJson("r2", 2, "-1")})},
       4, IsStatuses(R"({"invalid": [1]})")},
      // st.valid
      {"unlisted-parent-validated",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4, IsStatuses(R"({"unvalidated": [1]})")},
      // st.invalid
      {"invalid-kept-after-delete",
       {Create(), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r1", 1, "-1"), RowJson("r2", 2, "5")}), Delete({"r1"})},
       4, IsStatuses(R"({"unvalidated": [1]})")},
      // st.exactly-one-list
      {"status-list-missing-constraint",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4, IsStatuses(R"({"unvalidated": [1]})")},
      // st.exactly-one-list
      {"stale-id-listed",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "remove-constraint", "name": "c"})", Append({RowJson("r2", 2, "6")})},
       5, IsStatuses("{}")},
      // st.reader-lookup
      {"reader-unlisted-validated",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        R"({"op": "read-statuses", "metadata": "$metadata"})"},
       4, IsAt("/statuses", R"({"1": "unvalidated"})")},
      // upg.pk-from-identifiers
      {"upgrade-pk-enforced",
       {Create(3, WithIdentifiers(kSchema, "[1]")), R"({"op": "upgrade", "format-version": 4})"},
       2, IsAt("/metadata/constraints/0/enforced", "false")},
      // upg.skip-ineligible
      {"upgrade-fails-on-ineligible",
       {Create(3, WithIdentifiers(geo_schema, "[2]")), R"({"op": "upgrade", "format-version": 4})"},
       2, IsAt("/metadata/constraints", "[]")},
      // upg.no-identifiers-in-v4
      {"v4-schema-keeps-identifiers",
       {Create(3, WithIdentifiers(kSchema, "[1]")), R"({"op": "upgrade", "format-version": 4})",
        R"({"op": "update-schema", "changes": [{"action": "add-column", "name": "extra", "type": "int", "required": false}]})"},
       3, [](const json& r) {
         EXPECT_EQ(Outcome(r), "ok");
         EXPECT_FALSE(r["metadata"]["schemas"][1].contains("identifier-field-ids")) << r.dump();
       }},
      // sch.remove-referenced
      {"referenced-column-deletable",
       {Create(), AddCheck("c", kQtyPositive, false),
        R"({"op": "update-schema", "changes": [{"action": "delete-column", "id": 2}]})"},
       3, IsOutcome("invalid-schema-change")},
      // sch.check-no-type-change
      {"check-field-promotable",
       {Create(), AddCheck("c", kQtyPositive, false),
        R"({"op": "update-schema", "changes": [{"action": "update-column-type", "id": 2, "type": "long"}]})"},
       3, IsOutcome("invalid-schema-change")},
      // sch.pk-stays-required
      {"pk-field-made-optional",
       {Create(), AddPk("[1]"),
        R"({"op": "update-schema", "changes": [{"action": "make-optional", "id": 1}]})"},
       3, IsOutcome("invalid-schema-change")},
      // upd.definition-immutable
      {"field-ids-updatable",
       {Create(), AddUnique("u", "[3]"),
        R"({"op": "update-constraint", "name": "u", "set": {"field-ids": [4]}})"},
       3, IsOutcome("invalid-constraint-update")},
      // upd.timestamp
      {"timestamp-not-updated",
       {Create(), AddUnique("u", "[3]"),
        R"({"op": "update-constraint", "name": "u", "set": {"enforced": false}})"},
       3, IsAt("/metadata/constraints/0/timestamp-ms", "1003")},
      // ice.v4-snapshot-timestamps
      {"snapshot-timestamp-not-increasing",
       {Create(), R"({"op": "begin", "txn": "w"})", Append({RowJson("r1", 1)}, "w"),
        Append({RowJson("r2", 2)}), R"({"op": "finish", "txn": "w"})"},
       5, [](const json& r) {
         json s = CurrentSnapshot(r);
         ASSERT_FALSE(s.is_null()) << r.dump();
         EXPECT_EQ(s["timestamp-ms"], 1005) << r.dump();
       }},
  };
}

class SampleMutantTest : public ::testing::TestWithParam<MutantCase> {};

TEST_P(SampleMutantTest, DiffersFromTheCorrectSampleAtTheWitnessStep) {
  const MutantCase& c = GetParam();
  std::string rule;
  for (const MutantInfo& m : SampleMutants())
    if (m.name == c.mutant) rule = m.rule;
  ASSERT_FALSE(rule.empty()) << "no mutant named " << c.mutant;
  SCOPED_TRACE(fmt::format("mutant {} ({})", c.mutant, rule));
  const std::vector<json> good = RunSample(c.script);
  const std::vector<json> bad = RunSample(c.script, "mutant=" + c.mutant);
  ASSERT_EQ(good.size(), c.script.size());
  ASSERT_EQ(bad.size(), c.script.size());
  size_t first = 0;
  for (size_t i = 0; i < good.size() && first == 0; ++i)
    if (good[i] != bad[i]) first = i + 1;
  ASSERT_NE(first, 0u) << "the mutant answers every step like the correct sample";
  EXPECT_EQ(first, c.witness) << "correct: " << good[first - 1].dump()
                              << "\nmutant: " << bad[first - 1].dump();
  c.expect(good[c.witness - 1]);
}

INSTANTIATE_TEST_SUITE_P(Mutants, SampleMutantTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) {
                           std::string n = info.param.mutant;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

TEST(SampleMutants, EveryMutantHasAWitnessAndARule) {
  std::set<std::string> witnessed;
  for (const MutantCase& c : Cases()) witnessed.insert(c.mutant);
  ASSERT_GE(SampleMutants().size(), 25u);
  std::set<std::string> names;
  for (const MutantInfo& m : SampleMutants()) {
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate mutant " << m.name;
    EXPECT_NE(m.rule.find('.'), std::string::npos) << m.name;
    EXPECT_FALSE(m.description.empty()) << m.name;
    EXPECT_EQ(witnessed.count(m.name), 1u) << "mutant " << m.name << " has no witness script";
  }
}

TEST(SampleMutants, UnknownMutantIsAUsageError) {
  auto a = MakeSampleAdapter("mutant=no-such-bug");
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kUsage);
  EXPECT_FALSE(MakeSampleAdapter("colour=red").has_value());
  EXPECT_TRUE(MakeSampleAdapter("").has_value());
}

}  // namespace
}  // namespace ictk::sample_test
