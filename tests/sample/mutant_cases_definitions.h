/// \file
/// The sample mutants that get constraint definitions, key fields and constraint IDs wrong
/// (def.*, key.*, id.*): for each mutant, a script on which it first answers differently from the
/// correct sample, and what the correct sample answers there (mutant_cases.h).
#pragma once

#include <string>
#include <vector>

#include "tests/sample/mutant_case_util.h"

namespace ictk::sample_test {
namespace mutant_cases {

/// def.*: constraint definitions and their fields.
inline std::vector<MutantCase> DefCases() {
  return {
      // def.types/whole
      {"type-name-case-insensitive",
       {Create(),
        AddRaw(R"({"type": "Unique", "name": "u", "enforced": true, "field-ids": [3]})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.required-fields/name
      {"missing-name-generated",
       {Create(), AddRaw(R"({"type": "unique", "enforced": true, "field-ids": [3]})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.required-fields/enforced
      {"missing-enforced-defaults-false",
       {Create(), AddRaw(R"({"type": "unique", "name": "u", "field-ids": [3]})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.name-unique/not-identifier
      {"rename-reassigns-id",
       {Create(), AddUnique("u", "[3]"),
        R"({"op": "update-constraint", "name": "u", "set": {"name": "v"}})"},
       3,
       IsAt("/metadata/constraints/0/constraint-id", "1")},
      // def.check-expression/required-for-check
      {"check-without-expression-accepted",
       {Create(), AddRaw(R"({"type": "check", "name": "c", "enforced": false})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.check-expression/absent-for-others
      {"key-expression-accepted",
       {Create(), AddRaw(fmt::format(
                      R"({{"type": "unique", "name": "u", "enforced": true, "field-ids": [3], "expression": {}}})",
                      kQtyPositive))},
       2,
       IsOutcome("invalid-constraint")},
      // def.key-field-ids/at-least-one
      {"empty-key-accepted", {Create(), AddUnique("u", "[]")}, 2,
       IsOutcome("invalid-constraint")},
      // def.key-field-ids/no-duplicates
      {"duplicate-key-field-accepted", {Create(), AddUnique("u", "[3, 3]")}, 2,
       IsOutcome("invalid-constraint")},
      // def.key-field-ids/required-for-keys
      {"absent-key-fields-accepted",
       {Create(), AddRaw(R"({"type": "unique", "name": "u", "enforced": true})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.key-field-ids/absent-for-check
      {"check-field-ids-accepted",
       {Create(), AddRaw(fmt::format(
                      R"({{"type": "check", "name": "c", "enforced": false, "field-ids": [2], "expression": {}}})",
                      kQtyPositive))},
       2,
       IsOutcome("invalid-constraint")},
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
      // def.reader-preserves
      {"reader-drops-constraints",
       {Create(), AddUnique("u1", "[3]"), Append({RowJson("r1", 1)}),
        R"({"op": "parse-metadata", "metadata": "$metadata"})"},
       4,
       IsAt("/metadata/constraints/0/constraint-id", "1")},
      // def.required-fields/type
      {"missing-type-inferred",
       {Create(), AddRaw(R"({"name": "u", "enforced": true, "field-ids": [3]})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.id-unique/whole, under invalid-metadata-on-read=reject
      {"reader-accepts-duplicate-ids",
       {ReaderRequest("parse-metadata", [] {
         json md = SampleMetadataAfter({Create(), AddUnique("u1", "[3]"), AddUnique("u2", "[4]")});
         md["constraints"][1]["constraint-id"] = md["constraints"][0]["constraint-id"];
         return md;
       }())},
       1,
       IsOutcome("invalid-metadata")},
      // def.required-fields/stored-id-and-timestamp, under invalid-metadata-on-read=reject
      {"reader-accepts-missing-id-or-timestamp",
       {ReaderRequest("parse-metadata", [] {
         json md = SampleMetadataAfter({Create(), AddUnique("u1", "[3]")});
         md["constraints"][0].erase("timestamp-ms");
         return md;
       }())},
       1,
       IsOutcome("invalid-metadata")},
  };
}

/// key.*: the fields a key may use.
inline std::vector<MutantCase> KeyCases() {
  return {
      // key.primitive-only/struct (s is a struct)
      {"struct-key-accepted", {Create(), AddUnique("u", "[5]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.primitive-only/list-or-map (tags is a list)
      {"collection-key-accepted", {Create(), AddUnique("u", "[7]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.not-in-list-map/map (8 is the map's key)
      {"map-key-accepted", {Create(4, kMoreTypes), AddUnique("u", "[8]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.no-float-double/double (f is a double)
      {"double-key-accepted", {Create(), AddUnique("u", "[9]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.no-geo/geography
      {"geography-key-accepted", {Create(4, kMoreTypes), AddUnique("u", "[5]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.no-unknown/whole
      {"unknown-key-accepted", {Create(4, kMoreTypes), AddUnique("u", "[6]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.pk-required/optional-parent (s.a is required, s is optional)
      {"pk-allows-optional-parent", {Create(), AddPk("[6]")}, 2,
       IsOutcome("invalid-constraint")},
      // key.unique-optional-ok/own-flag (name is optional)
      {"unique-rejects-optional", {Create(), AddUnique("u", "[3]")}, 2, IsOutcome("ok")},
      // key.unique-optional-ok/optional-parent (s.a is required, s is optional)
      {"unique-rejects-optional-parent", {Create(), AddUnique("u", "[6]")}, 2,
       IsOutcome("ok")},
      // key.no-float-double/float
      {"float-key-accepted",
       {Create(4, kMoreTypes), AddUnique("u", "[3]")},
       2,
       IsOutcome("invalid-constraint")},
      // key.no-geo
      {"geo-key-accepted",
       {Create(), AddUnique("u", "[14]")},
       2,
       IsOutcome("invalid-constraint")},
      // key.pk-required/own-flag (qty is optional)
      {"pk-allows-optional",
       {Create(), AddPk("[2]")},
       2,
       IsOutcome("invalid-constraint")},
      // key.not-in-list-map
      {"list-key-accepted",
       {Create(), AddUnique("u", "[8]")},
       2,
       IsOutcome("invalid-constraint")},
      // key.primitive-only/variant
      {"variant-key-accepted",
       {Create(4, R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "v", "required": false, "type": "variant"}]})"),
        AddUnique("u", "[2]")},
       2,
       IsOutcome("invalid-constraint")},
  };
}

/// id.*: constraint IDs.
inline std::vector<MutantCase> IdCases() {
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
      // id.last-default-zero (v3 metadata has no last-constraint-id; no identifier fields)
      {"absent-last-id-one",
       {Create(3), R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/last-constraint-id", "0")},
      // id.readers-tolerate-missing/whole
      {"reader-refuses-missing-constraint",
       {ReaderRequest("read-statuses", [] {
         json md = SampleMetadataAfter({Create(), AddUnique("u1", "[3]"), Append({RowJson("r1", 1)})});
         md["constraints"] = json::array();
         return md;
       }())},
       1,
       IsAt("/statuses", "{}")},
  };
}

}  // namespace mutant_cases

inline std::vector<MutantCase> DefinitionMutantCases() {
  std::vector<MutantCase> out;
  for (auto group : {mutant_cases::DefCases, mutant_cases::KeyCases, mutant_cases::IdCases})
    for (MutantCase& c : group()) out.push_back(std::move(c));
  return out;
}

}  // namespace ictk::sample_test
