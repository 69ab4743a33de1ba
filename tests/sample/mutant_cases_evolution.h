/// \file
/// The sample mutants that get schema changes, upgrades, constraint updates and check
/// expressions wrong (sch.*, upg.*, upd.*, expr.*): for each mutant, a script on which it first answers differently from the
/// correct sample, and what the correct sample answers there (mutant_cases.h).
#pragma once

#include <string>
#include <vector>

#include "tests/sample/mutant_case_util.h"

namespace ictk::sample_test {
namespace mutant_cases {

/// sch.*: schema changes and constraints.
inline std::vector<MutantCase> SchCases() {
  return {
      // sch.referenced-exist/whole
      {"missing-key-field-accepted", {Create(), AddUnique("u", "[99]")}, 2,
       IsOutcome("invalid-constraint")},
      // sch.remove-referenced/nested: deleting s removes s.a
      {"nested-referenced-deletable",
       {Create(), AddUnique("u", "[6]"),
        UpdateSchemaRequest(R"({"action": "delete-column", "id": 5})")},
       3,
       IsOutcome("invalid-schema-change")},
      // sch.remove-referenced/unless-removed
      {"delete-with-constraints-rejected",
       {Create(), AddCheck("c", kQtyPositive, false),
        UpdateSchemaRequest(R"({"action": "delete-column", "id": 2})",
                      R"(, "remove-constraints": ["c"])")},
       3,
       IsOutcome("ok")},
      // sch.pk-stays-required/optional-parent: r.b is the key, r becomes optional
      {"pk-parent-made-optional",
       {Create(), AddPk("[11]"), UpdateSchemaRequest(R"({"action": "make-optional", "id": 10})")},
       3,
       IsOutcome("invalid-schema-change")},
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
      // sch.rename-reorder/rename
      {"referenced-rename-refused",
       {Create(), AddCheck("c", kQtyPositive, false),
        UpdateSchemaRequest(R"({"action": "rename-column", "id": 2, "name": "quantity"})")},
       3,
       IsOutcome("ok")},
      // sch.rename-reorder/reorder
      {"referenced-move-refused",
       {Create(), AddCheck("c", kQtyPositive, false),
        UpdateSchemaRequest(R"({"action": "move-column", "id": 2, "first": true})")},
       3,
       IsOutcome("ok")},
  };
}

/// upg.*: the upgrade to v4.
inline std::vector<MutantCase> UpgCases() {
  return {
      // upg.pk-from-identifiers/single-pk
      {"upgrade-creates-no-pk",
       {Create(3, WithIdentifiers(kSchema, "[1]")),
        R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/constraints/0/field-ids", "[1]")},
      // upg.skip-ineligible/no-constraint
      {"upgrade-keeps-ineligible-pk",
       {Create(3, WithIdentifiers(kGeoSchema, "[2]")),
        R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/constraints", "[]")},
      // upg.pk-from-identifiers
      {"upgrade-pk-enforced",
       {Create(3, WithIdentifiers(kSchema, "[1]")),
        R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/constraints/0/enforced", "false")},
      // upg.skip-ineligible
      {"upgrade-fails-on-ineligible",
       {Create(3, WithIdentifiers(kGeoSchema, "[2]")),
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
      // upg.readers-ignore-identifiers/whole
      {"reader-refuses-v4-identifiers",
       {ReaderRequest("read-statuses",
                      SampleMetadataAfter({Create(3, WithIdentifiers(kSchema, "[1]")),
                                           R"({"op": "upgrade", "format-version": 4})"}))},
       1,
       IsOutcome("ok")},
  };
}

/// upd.*: updating a constraint.
inline std::vector<MutantCase> UpdCases() {
  return {
      // upd.name-enforced-only/whole
      {"type-updatable",
       {Create(), AddUnique("u", "[1]"),
        R"({"op": "update-constraint", "name": "u", "set": {"type": "primary-key"}})"},
       3,
       IsOutcome("invalid-constraint-update")},
      // upd.definition-immutable/expression
      {"expression-updatable",
       {Create(), AddCheck("c", kQtyPositive, false),
        R"({"op": "update-constraint", "name": "c", "set": {"expression": {"type": "not-null", "child": {"type": "reference", "id": 1}}}})"},
       3,
       IsOutcome("invalid-constraint-update")},
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
  };
}

/// expr.*: check expressions.
inline std::vector<MutantCase> ExprCases() {
  return {
      // expr.udf-status/no-carry
      // (pos is redefined as x > 10, so the status carried over the delete is false)
      {"udf-check-carries-status",
       {Create(), kUdfPositive, AddCheck("c", kUdfCallsPos, false),
        Append({RowJson("r1", 1, "5"), RowJson("r2", 2, "6")}),
        R"({"op": "define-function", "name": "pos", "deterministic": true, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 10}})",
        Delete({"r1"})},
       6,
       IsStatuses(R"({"unvalidated": [1]})")},
      // expr.no-list-map-element/map (8 is the map's key)
      {"map-element-reference-accepted",
       {Create(4, kMoreTypes),
        AddCheck(
            "c",
            R"({"type": "eq", "left": {"type": "reference", "id": 8}, "right": "x"})",
            false)},
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
      // expr.well-typed (name is a string)
      {"ill-typed-check-accepted",
       {Create(), AddCheck("c", R"({"type": "gt", "left": {"type": "reference", "id": 3}, "right": 5})", false)},
       2,
       IsOutcome("invalid-constraint")},
  };
}

}  // namespace mutant_cases

inline std::vector<MutantCase> EvolutionMutantCases() {
  std::vector<MutantCase> out;
  for (auto group : {mutant_cases::SchCases, mutant_cases::UpgCases, mutant_cases::UpdCases, mutant_cases::ExprCases})
    for (MutantCase& c : group()) out.push_back(std::move(c));
  return out;
}

}  // namespace ictk::sample_test
