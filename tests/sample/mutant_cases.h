/// \file
/// The witness scripts of the sample's mutants (sample_mutants_test.cc runs them against
/// the correct sample, sample_judged_test.cc against the reference model): for each
/// mutant, a script on which it first answers differently from the correct sample at
/// `witness`, and what the correct sample answers there.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/sample/script_util.h"

namespace ictk::sample_test {

struct MutantCase {
  std::string mutant;
  Script script;
  size_t witness;  ///< the 1-based step where the mutant first answers differently
  /// What the correct sample answers at the witness step.
  std::function<void(const json&)> expect;
};

inline auto IsOutcome(std::string outcome) {
  return [outcome](const json& r) { EXPECT_EQ(Outcome(r), outcome) << r.dump(); };
}
inline auto IsStatuses(std::string statuses) {
  return [statuses](const json& r) {
    EXPECT_EQ(CurrentStatuses(r), json::parse(statuses)) << r.dump();
  };
}
inline auto IsAt(std::string pointer, std::string value) {
  return [pointer, value](const json& r) {
    EXPECT_EQ(r.value(json::json_pointer(pointer), json()), json::parse(value))
        << r.dump();
  };
}

inline const char* kUdfPositive =
    R"({"op": "define-function", "name": "pos", "deterministic": true, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})";
inline const char* kUdfCallsPos =
    R"({"type": "eq", "left": {"type": "apply", "function": "pos", "arguments": [{"type": "reference", "id": 2}]}, "right": true})";

inline std::vector<MutantCase> MutantCases() {
  const std::string geo_schema = R"({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "g", "required": true, "type": "geometry"}]})";
  return {
      // id.no-reuse
      {"reuse-removed-id",
       {Create(), AddUnique("u1", "[3]"), AddUnique("u2", "[4]"),
        R"({"op": "remove-constraint", "name": "u2"})", AddUnique("u3", "[4]")},
       5,
       IsAt("/metadata/constraints/1/constraint-id", "3")},
      // id.above-last
      {"id-not-above-last",
       {Create(), AddUnique("u1", "[3]")},
       2,
       IsAt("/metadata/constraints/0/constraint-id", "1")},
      // id.update-last
      {"last-id-not-updated",
       {Create(), AddUnique("u1", "[3]")},
       2,
       IsAt("/metadata/last-constraint-id", "1")},
      // def.v4-only
      {"constraints-on-v3",
       {Create(3), AddUnique("u1", "[3]")},
       2,
       IsOutcome("unsupported-format-version")},
      // def.single-pk
      {"two-pks-accepted",
       {Create(), AddPk("[1]"), AddPk("[4]", true, "pk2")},
       3,
       IsOutcome("invalid-constraint")},
      // def.name-unique
      {"duplicate-name-accepted",
       {Create(), AddUnique("u", "[3]"), AddUnique("u", "[4]")},
       3,
       IsOutcome("invalid-constraint")},
      // key.no-float-double
      {"float-key-accepted",
       {Create(), AddUnique("u", "[9]")},
       2,
       IsOutcome("invalid-constraint")},
      // key.no-geo
      {"geo-key-accepted",
       {Create(), AddUnique("u", "[14]")},
       2,
       IsOutcome("invalid-constraint")},
      // key.pk-required
      {"pk-allows-optional",
       {Create(), AddPk("[6]")},
       2,
       IsOutcome("invalid-constraint")},
      // key.not-in-list-map
      {"list-key-accepted",
       {Create(), AddUnique("u", "[8]")},
       2,
       IsOutcome("invalid-constraint")},
      // expr.id-references
      {"name-reference-accepted",
       {Create(), AddCheck("c", R"({"type": "gt", "term": "qty", "value": 0})", false)},
       2,
       IsOutcome("invalid-constraint")},
      // expr.no-list-map-element
      {"list-element-reference-accepted",
       {Create(),
        AddCheck(
            "c",
            R"({"type": "eq", "left": {"type": "reference", "id": 8}, "right": "x"})",
            false)},
       2,
       IsOutcome("invalid-constraint")},
      // expr.deterministic
      {"nondeterministic-udf-accepted",
       {Create(),
        R"({"op": "define-function", "name": "pos", "deterministic": false, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})",
        AddCheck("c", kUdfCallsPos, false)},
       3,
       IsOutcome("invalid-constraint")},
      // expr.udf-status
      {"udf-check-keeps-valid",
       {Create(), kUdfPositive, AddCheck("c", kUdfCallsPos, false),
        Append({RowJson("r1", 1, "5")}), Append({RowJson("r2", 2, "6")})},
       5,
       IsStatuses(R"({"unvalidated": [1]})")},
      // sem.unique
      {"unique-compares-nulls",
       {Create(), AddUnique("u", "[3]"), Append({RowJson("r1", 1), RowJson("r2", 2)})},
       3,
       IsOutcome("ok")},
      // sem.check
      {"three-valued-nulls",
       {Create(),
        AddCheck("c",
                 R"({"type": "gt", "left": {"type": "reference", "id": 2}, "right": 0})",
                 true),
        Append({RowJson("r1", 1)})},
       3,
       IsOutcome("constraint-violation")},
      // sem.check (bucket[16] of the long 34 is 3 by Iceberg's Murmur3)
      {"bucket-wrong-hash",
       {Create(),
        AddCheck(
            "c",
            R"({"type": "eq", "left": {"type": "apply", "function": "bucket", "catalog": "iceberg_functions", "arguments": [16, {"type": "reference", "id": 1}]}, "right": 3})",
            true),
        Append({RowJson("r1", 34)})},
       3,
       IsOutcome("ok")},
      // enf.keys-against-remaining
      {"keys-only-among-added",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1)}), Append({RowJson("r2", 1)})},
       4,
       IsOutcome("constraint-violation")},
      // enf.keys-against-remaining
      {"keys-before-removals",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1)}),
        fmt::format(
            R"({{"op": "commit", "operation": "overwrite", "remove": ["r1"], "add": [{}]}})",
            RowJson("r2", 1))},
       4,
       IsOutcome("ok")},
      // enf.modified-row
      {"modified-not-rechecked",
       {Create(), AddCheck("c", kQtyPositive, true), Append({RowJson("r1", 1, "5")}),
        fmt::format(R"({{"op": "commit", "operation": "overwrite", "modify": [{}]}})",
                    RowJson("r1", 1, "-1"))},
       4,
       IsOutcome("constraint-violation")},
      // enf.not-enforced
      {"unenforced-rejects",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "-1")})},
       3,
       IsOutcome("ok")},
      // enf.retry-keys-new-parent
      {"retry-against-original-parent",
       {Create(), AddPk("[1]"), R"({"op": "begin", "txn": "w"})",
        Append({RowJson("r1", 1)}, "w"), Append({RowJson("r2", 1)}),
        R"({"op": "finish", "txn": "w"})"},
       6,
       IsOutcome("constraint-violation")},
      // enf.retry-new-constraints
      {"retry-misses-new-enforced",
       {Create(), R"({"op": "begin", "txn": "w"})", Append({RowJson("r1", 1, "-1")}, "w"),
        AddCheck("c", kQtyPositive, true), R"({"op": "finish", "txn": "w"})"},
       5,
       IsOutcome("constraint-violation")},
      // enf.retry-recompute-statuses
      {"statuses-not-recomputed-on-retry",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "begin", "txn": "w"})", Append({RowJson("r2", 2, "6")}, "w"),
        Append({RowJson("r3", 3, "-1")}), R"({"op": "finish", "txn": "w"})"},
       7,
       IsStatuses(R"({"invalid": [1]})")},
      // st.valid
      {"valid-after-unverified-adds",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        Append({RowJson("r2", 2, "-1")})},
       4,
       IsStatuses(R"({"invalid": [1]})")},
      // st.valid
      {"unlisted-parent-validated",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.invalid
      {"invalid-kept-after-delete",
       {Create(), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r1", 1, "-1"), RowJson("r2", 2, "5")}), Delete({"r1"})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.exactly-one-list
      {"status-list-missing-constraint",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.exactly-one-list
      {"stale-id-listed",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "remove-constraint", "name": "c"})", Append({RowJson("r2", 2, "6")})},
       5,
       IsStatuses("{}")},
      // st.reader-lookup
      {"reader-unlisted-validated",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        R"({"op": "read-statuses", "metadata": "$metadata"})"},
       4,
       IsAt("/statuses", R"({"1": "unvalidated"})")},
      // upg.pk-from-identifiers
      {"upgrade-pk-enforced",
       {Create(3, WithIdentifiers(kSchema, "[1]")),
        R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/constraints/0/enforced", "false")},
      // upg.skip-ineligible
      {"upgrade-fails-on-ineligible",
       {Create(3, WithIdentifiers(geo_schema, "[2]")),
        R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/constraints", "[]")},
      // upg.no-identifiers-in-v4
      {"v4-schema-keeps-identifiers",
       {Create(3, WithIdentifiers(kSchema, "[1]")),
        R"({"op": "upgrade", "format-version": 4})",
        R"({"op": "update-schema", "changes": [{"action": "add-column", "name": "extra", "type": "int", "required": false}]})"},
       3,
       [](const json& r) {
         EXPECT_EQ(Outcome(r), "ok");
         EXPECT_FALSE(r["metadata"]["schemas"][1].contains("identifier-field-ids"))
             << r.dump();
       }},
      // sch.remove-referenced
      {"referenced-column-deletable",
       {Create(), AddCheck("c", kQtyPositive, false),
        R"({"op": "update-schema", "changes": [{"action": "delete-column", "id": 2}]})"},
       3,
       IsOutcome("invalid-schema-change")},
      // sch.check-no-type-change
      {"check-field-promotable",
       {Create(), AddCheck("c", kQtyPositive, false),
        R"({"op": "update-schema", "changes": [{"action": "update-column-type", "id": 2, "type": "long"}]})"},
       3,
       IsOutcome("invalid-schema-change")},
      // sch.pk-stays-required
      {"pk-field-made-optional",
       {Create(), AddPk("[1]"),
        R"({"op": "update-schema", "changes": [{"action": "make-optional", "id": 1}]})"},
       3,
       IsOutcome("invalid-schema-change")},
      // upd.definition-immutable
      {"field-ids-updatable",
       {Create(), AddUnique("u", "[3]"),
        R"({"op": "update-constraint", "name": "u", "set": {"field-ids": [4]}})"},
       3,
       IsOutcome("invalid-constraint-update")},
      // upd.timestamp
      {"timestamp-not-updated",
       {Create(), AddUnique("u", "[3]"),
        R"({"op": "update-constraint", "name": "u", "set": {"enforced": false}})"},
       3,
       IsAt("/metadata/constraints/0/timestamp-ms", "1003")},
      // ice.v4-snapshot-timestamps
      {"snapshot-timestamp-not-increasing",
       {Create(), R"({"op": "begin", "txn": "w"})", Append({RowJson("r1", 1)}, "w"),
        Append({RowJson("r2", 2)}), R"({"op": "finish", "txn": "w"})"},
       5,
       [](const json& r) {
         json s = CurrentSnapshot(r);
         ASSERT_FALSE(s.is_null()) << r.dump();
         EXPECT_EQ(s["timestamp-ms"], 1005) << r.dump();
       }},
      // def.reader-preserves
      {"reader-drops-constraints",
       {Create(), AddUnique("u1", "[3]"), Append({RowJson("r1", 1)}),
        R"({"op": "parse-metadata", "metadata": "$metadata"})"},
       4,
       IsAt("/metadata/constraints/0/constraint-id", "1")},
  };
}

}  // namespace ictk::sample_test
