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

/// The metadata the correct sample answers last on `script`.
inline json SampleMetadataAfter(const Script& script) {
  json md = json::object();
  for (const json& r : RunSample(script))
    if (r.contains("metadata")) md = r["metadata"];
  return md;
}

/// A reader request (`op` parse-metadata or read-statuses) on `metadata`.
inline std::string ReaderRequest(const std::string& op, const json& metadata) {
  return json{{"op", op}, {"metadata", metadata}}.dump();
}

inline std::vector<MutantCase> MutantCases() {
  const std::string geo_schema = R"({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "g", "required": true, "type": "geometry"}]})";
  // More types than kSchema: float, geography, unknown, a map, a list of int, an optional
  // struct with required members, a required struct.
  const std::string kMoreTypes = R"({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "qty", "required": false, "type": "int"},
    {"id": 3, "name": "fl", "required": false, "type": "float"},
    {"id": 4, "name": "dbl", "required": false, "type": "double"},
    {"id": 5, "name": "geog", "required": false, "type": "geography"},
    {"id": 6, "name": "nothing", "required": false, "type": "unknown"},
    {"id": 7, "name": "props", "required": false, "type": {"type": "map", "key-id": 8,
     "key": "string", "value-id": 9, "value-required": false, "value": "int"}}]})";
  auto update_schema = [](const std::string& changes, const std::string& extra = "") {
    return fmt::format(R"({{"op": "update-schema", "changes": [{}]{}}})", changes, extra);
  };
  auto add_raw = [](const std::string& constraint) {
    return fmt::format(R"({{"op": "add-constraint", "constraint": {}}})", constraint);
  };
  return {
      // def.types/whole
      {"type-name-case-insensitive",
       {Create(),
        add_raw(R"({"type": "Unique", "name": "u", "enforced": true, "field-ids": [3]})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.required-fields/name
      {"missing-name-generated",
       {Create(), add_raw(R"({"type": "unique", "enforced": true, "field-ids": [3]})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.required-fields/enforced
      {"missing-enforced-defaults-false",
       {Create(), add_raw(R"({"type": "unique", "name": "u", "field-ids": [3]})")},
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
       {Create(), add_raw(R"({"type": "check", "name": "c", "enforced": false})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.check-expression/absent-for-others
      {"key-expression-accepted",
       {Create(), add_raw(fmt::format(
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
       {Create(), add_raw(R"({"type": "unique", "name": "u", "enforced": true})")},
       2,
       IsOutcome("invalid-constraint")},
      // def.key-field-ids/absent-for-check
      {"check-field-ids-accepted",
       {Create(), add_raw(fmt::format(
                      R"({{"type": "check", "name": "c", "enforced": false, "field-ids": [2], "expression": {}}})",
                      kQtyPositive))},
       2,
       IsOutcome("invalid-constraint")},
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
      // sch.referenced-exist/whole
      {"missing-key-field-accepted", {Create(), AddUnique("u", "[99]")}, 2,
       IsOutcome("invalid-constraint")},
      // sem.unique/distinct: (1, 5) and (1, 6) are distinct keys
      {"unique-first-field-only",
       {Create(), AddUnique("u", "[1, 2]"),
        Append({RowJson("r1", 1, "5"), RowJson("r2", 1, "6")})},
       3,
       IsOutcome("ok")},
      // sem.primary-key/distinct: ("c1", 1) and ("c1", 2) are distinct keys
      {"pk-first-field-only",
       {Create(), AddPk("[4, 1]"),
        Append({RowJson("r1", 1),
                R"({"key": "r2", "values": {"1": 2, "4": "c1", "10": {"11": 0}}})"})},
       3,
       IsOutcome("ok")},
      // enf.keys-against-remaining/among-added
      {"added-keys-not-compared",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1), RowJson("r2", 1)})},
       3,
       IsOutcome("constraint-violation")},
      // enf.retry-new-constraints/changed-to-enforced
      {"retry-misses-enforce-change",
       {Create(), AddCheck("c", kQtyPositive, false), R"({"op": "begin", "txn": "w"})",
        Append({RowJson("r1", 1, "-1")}, "w"),
        R"({"op": "update-constraint", "name": "c", "set": {"enforced": true}})",
        R"({"op": "finish", "txn": "w"})"},
       6,
       IsOutcome("constraint-violation")},
      // upg.pk-from-identifiers/single-pk
      {"upgrade-creates-no-pk",
       {Create(3, WithIdentifiers(kSchema, "[1]")),
        R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/constraints/0/field-ids", "[1]")},
      // upg.skip-ineligible/no-constraint
      {"upgrade-keeps-ineligible-pk",
       {Create(3, WithIdentifiers(geo_schema, "[2]")),
        R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/constraints", "[]")},
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
      // sch.remove-referenced/nested: deleting s removes s.a
      {"nested-referenced-deletable",
       {Create(), AddUnique("u", "[6]"),
        update_schema(R"({"action": "delete-column", "id": 5})")},
       3,
       IsOutcome("invalid-schema-change")},
      // sch.remove-referenced/unless-removed
      {"delete-with-constraints-rejected",
       {Create(), AddCheck("c", kQtyPositive, false),
        update_schema(R"({"action": "delete-column", "id": 2})",
                      R"(, "remove-constraints": ["c"])")},
       3,
       IsOutcome("ok")},
      // sch.pk-stays-required/optional-parent: r.b is the key, r becomes optional
      {"pk-parent-made-optional",
       {Create(), AddPk("[11]"), update_schema(R"({"action": "make-optional", "id": 10})")},
       3,
       IsOutcome("invalid-schema-change")},
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
      // st.validated/checked-holds: the parent's row still breaks the check
      {"validated-after-partial-check",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "-1")}),
        Append({RowJson("r2", 2, "5")})},
       4,
       IsStatuses(R"({"invalid": [1]})")},
      // st.exactly-one-list/one-list
      {"id-in-two-lists",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "-1")})},
       3,
       IsStatuses(R"({"invalid": [1]})")},
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
      // def.required-fields/type
      {"missing-type-inferred",
       {Create(), add_raw(R"({"name": "u", "enforced": true, "field-ids": [3]})")},
       2,
       IsOutcome("invalid-constraint")},
      // id.last-default-zero (v3 metadata has no last-constraint-id; no identifier fields)
      {"absent-last-id-one",
       {Create(3), R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsAt("/metadata/last-constraint-id", "0")},
      // expr.well-typed (name is a string)
      {"ill-typed-check-accepted",
       {Create(), AddCheck("c", R"({"type": "gt", "left": {"type": "reference", "id": 3}, "right": 5})", false)},
       2,
       IsOutcome("invalid-constraint")},
      // sch.rename-reorder/rename
      {"referenced-rename-refused",
       {Create(), AddCheck("c", kQtyPositive, false),
        update_schema(R"({"action": "rename-column", "id": 2, "name": "quantity"})")},
       3,
       IsOutcome("ok")},
      // sch.rename-reorder/reorder
      {"referenced-move-refused",
       {Create(), AddCheck("c", kQtyPositive, false),
        update_schema(R"({"action": "move-column", "id": 2, "first": true})")},
       3,
       IsOutcome("ok")},
      // st.validated/carried (the commit adds a row that breaks the check)
      {"validated-carried-over-adds",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        Append({RowJson("r2", 2, "-1")})},
       4,
       IsStatuses(R"({"invalid": [1]})")},
      // st.invalid/checked (r1 was never checked: c came after it)
      {"unchecked-recorded-invalid",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.every-snapshot
      {"statuses-omitted-without-adds",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        Delete({"r1"})},
       4,
       IsStatuses(R"({"validated": [1]})")},
      // key.primitive-only/variant
      {"variant-key-accepted",
       {Create(4, R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "v", "required": false, "type": "variant"}]})"),
        AddUnique("u", "[2]")},
       2,
       IsOutcome("invalid-constraint")},
      // The surrounding Iceberg rules and protocol conventions.
      // ice.format-version-up/up
      {"downgrade-accepted",
       {Create(3), R"({"op": "upgrade", "format-version": 2})"},
       2,
       IsOutcome("unsupported-format-version")},
      // ice.format-version-up/known-target
      {"unknown-version-ignored",
       {Create(), R"({"op": "upgrade", "format-version": 5})"},
       2,
       IsOutcome("unsupported-format-version")},
      // ice.field-ids-unique/whole
      {"added-field-id-reused",
       {Create(), update_schema(R"({"action": "add-column", "name": "extra", "type": "int", "required": false})")},
       2,
       IsAt("/metadata/last-column-id", "15")},
      // ice.schema-evolution/new-ids-above-last
      {"added-field-id-not-above-last",
       {Create(), update_schema(R"({"action": "delete-column", "id": 14})"),
        update_schema(R"({"action": "add-column", "name": "extra", "type": "int", "required": false})")},
       3,
       IsAt("/metadata/last-column-id", "15")},
      // ice.unknown-optional/whole
      {"unknown-column-required",
       {Create(), update_schema(R"({"action": "add-column", "name": "nothing", "type": "unknown", "required": false})")},
       2,
       IsAt("/metadata/schemas/1/fields/11/required", "false")},
      // ice.required-needs-default/whole
      {"required-column-without-default",
       {Create(), Append({RowJson("r1", 1)}),
        update_schema(R"({"action": "add-column", "name": "extra", "type": "long", "required": true})")},
       3,
       IsOutcome("invalid-schema-change")},
      // ice.current-schema-exists/whole
      {"current-schema-id-off-by-one",
       {Create(), update_schema(R"({"action": "add-column", "name": "extra", "type": "int", "required": false})")},
       2,
       IsAt("/metadata/current-schema-id", "1")},
      // ice.default-spec-exists/whole
      {"default-spec-id-dangling", {Create()}, 1, IsAt("/metadata/default-spec-id", "0")},
      // ice.default-sort-order-exists/whole
      {"default-sort-order-dangling",
       {Create()},
       1,
       IsAt("/metadata/default-sort-order-id", "0")},
      // ice.sort-order-zero-unsorted/whole
      {"sort-order-zero-sorted",
       {Create()},
       1,
       IsAt("/metadata/sort-orders/0/fields", "[]")},
      // ice.current-snapshot-exists/whole
      {"current-snapshot-id-off-by-one",
       {Create(), Append({RowJson("r1", 1)})},
       2,
       IsAt("/metadata/current-snapshot-id", "1")},
      // ice.refs-snapshot-exist/whole
      {"main-ref-off-by-one",
       {Create(), Append({RowJson("r1", 1)})},
       2,
       IsAt("/metadata/refs/main/snapshot-id", "1")},
      // ice.current-snapshot-main/whole
      {"current-snapshot-id-lags",
       {Create(), Append({RowJson("r1", 1)}), Append({RowJson("r2", 2)})},
       3,
       IsAt("/metadata/current-snapshot-id", "2")},
      // ice.sequence-number-bound/whole
      {"last-sequence-number-stale",
       {Create(), Append({RowJson("r1", 1)})},
       2,
       IsAt("/metadata/last-sequence-number", "1")},
      // ice.table-uuid/is-uuid
      {"table-uuid-without-dashes", {Create()}, 1, IsOutcome("ok")},
      // ice.table-uuid/identifies-the-table
      {"table-uuid-regenerated",
       {Create(3), R"({"op": "upgrade", "format-version": 4})"},
       2,
       IsOutcome("ok")},
      // ice.fields-by-version/v3-members
      {"next-row-id-before-v3",
       {Create(2, kSchemaV2)},
       1,
       [](const json& r) { EXPECT_FALSE(r["metadata"].contains("next-row-id")) << r.dump(); }},
      // ice.fields-by-version/v1-sequence-number
      {"sequence-number-in-v1",
       {Create(1, kSchemaV2)},
       1,
       [](const json& r) {
         EXPECT_FALSE(r["metadata"].contains("last-sequence-number")) << r.dump();
       }},
      // ice.metadata-required/whole
      {"last-partition-id-dropped",
       {Create(), R"({"op": "load-table"})"},
       2,
       [](const json& r) { EXPECT_TRUE(r["metadata"].contains("last-partition-id")) << r.dump(); }},
      // ice.metadata-shape/whole
      {"last-updated-ms-as-string",
       {Create(), R"({"op": "load-table"})"},
       2,
       IsAt("/metadata/last-updated-ms", "1001")},
      // ice.single-value/reads
      {"long-beyond-2p53-refused",
       {Create(), Append({RowJson("r1", 9007199254740993)})},
       2,
       IsOutcome("ok")},
      // proto.rejection-constraint-ids/only-about
      {"rejection-names-all-constraints",
       {Create(), AddUnique("u", "[3]"), Delete({"nope"})},
       3,
       [](const json& r) {
         EXPECT_EQ(Outcome(r), "invalid-request") << r.dump();
         EXPECT_FALSE(r["error"].contains("constraint-ids")) << r.dump();
       }},
      // proto.timestamp-from-now/constraint-added-or-updated
      {"constraint-timestamp-from-table-clock",
       {Create(), AddUnique("u", "[3]")},
       2,
       IsAt("/metadata/constraints/0/timestamp-ms", "1002")},
      // proto.request/malformed
      {"not-live-removal-ignored", {Create(), Delete({"nope"})}, 2, IsOutcome("invalid-request")},
      // proto.request/unknown-constraint
      {"unknown-constraint-removal-ignored",
       {Create(), R"({"op": "remove-constraint", "name": "nope"})"},
       2,
       IsOutcome("invalid-request")},
      // proto.request/unknown-snapshot
      {"unknown-snapshot-scans-current",
       {Create(), Append({RowJson("r1", 1)}), R"({"op": "scan", "snapshot-id": 99})"},
       3,
       IsOutcome("invalid-request")},
      // proto.answer/carries-what-was-asked
      {"load-answer-without-metadata",
       {Create(), R"({"op": "load-table"})"},
       2,
       IsAt("/metadata/format-version", "4")},
      // proto.answer/rejected-changes-nothing
      {"rejection-touches-table",
       {Create(3), AddUnique("u", "[3]"), R"({"op": "load-table"})"},
       3,
       [](const json& r) {
         EXPECT_FALSE(r["metadata"].contains("last-constraint-id")) << r.dump();
       }},
      // ice.type-promotion/legal-only: long to int
      {"illegal-promotion-accepted",
       {Create(), update_schema(R"({"action": "update-column-type", "id": 1, "type": "int"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.type-promotion/by-version: date to timestamp on a v2 table
      {"date-promotion-before-v3",
       {Create(2, R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "day", "required": false, "type": "date"}]})"),
        update_schema(R"({"action": "update-column-type", "id": 2, "type": "timestamp"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.schema-evolution/existing-fields
      {"unknown-field-change-skipped",
       {Create(), update_schema(R"({"action": "rename-column", "id": 99, "name": "ghost"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.schema-evolution/unique-sibling-names
      {"sibling-name-reused",
       {Create(), update_schema(R"({"action": "rename-column", "id": 2, "name": "name"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.schema-evolution/moves-among-siblings: a top-level field after a nested one
      {"move-beside-non-sibling",
       {Create(), update_schema(R"({"action": "move-column", "id": 2, "after": 6})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.types-by-version/whole
      {"v3-type-before-v3",
       {Create(2, R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "ts", "required": false, "type": "timestamp_ns"}]})")},
       1,
       IsOutcome("invalid-schema-change")},
      // ice.identifier-fields/exist
      {"missing-identifier-accepted",
       {Create(3, WithIdentifiers(kSchemaV2, "[1, 99]"))},
       1,
       IsOutcome("invalid-schema-change")},
      // ice.identifier-fields/primitive
      {"non-primitive-identifier-accepted",
       {Create(3, WithIdentifiers(kSchemaV2, "[1, 10]"))},
       1,
       IsOutcome("invalid-schema-change")},
      // ice.identifier-fields/not-float-double
      {"float-identifier-accepted",
       {Create(3, WithIdentifiers(R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "ratio", "required": true, "type": "double"}]})", "[1, 2]"))},
       1,
       IsOutcome("invalid-schema-change")},
      // ice.identifier-fields/required
      {"optional-identifier-accepted",
       {Create(3, WithIdentifiers(kSchemaV2, "[1, 2]"))},
       1,
       IsOutcome("invalid-schema-change")},
      // ice.identifier-fields/not-in-list-map: a required list's element
      {"repeated-identifier-accepted",
       {Create(3, WithIdentifiers(R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "tags", "required": true,
           "type": {"type": "list", "element-id": 3, "element-required": true, "element": "int"}}]})",
                                  "[1, 3]"))},
       1,
       IsOutcome("invalid-schema-change")},
      // ice.identifier-fields/not-under-optional-struct
      {"identifier-under-optional-accepted",
       {Create(3, WithIdentifiers(R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "s", "required": false, "type": {"type": "struct", "fields": [
            {"id": 3, "name": "a", "required": true, "type": "int"}]}}]})", "[1, 3]"))},
       1,
       IsOutcome("invalid-schema-change")},
      // proto.request/unknown-table
      {"unknown-table-scans-empty",
       {Create(), R"({"op": "scan", "table": "nope"})"},
       2,
       IsOutcome("invalid-request")},
      // Reader-side clauses (each mutant's profile and switches: SampleMutants).
      // def.id-unique/whole, under invalid-metadata-on-read=reject
      {"reader-accepts-duplicate-ids",
       {ReaderRequest("parse-metadata", [] {
         json md = SampleMetadataAfter({Create(), AddUnique("u1", "[3]"), AddUnique("u2", "[4]")});
         md["constraints"][1]["constraint-id"] = md["constraints"][0]["constraint-id"];
         return md;
       }())},
       1,
       IsOutcome("invalid-metadata")},
      // id.readers-tolerate-missing/whole
      {"reader-refuses-missing-constraint",
       {ReaderRequest("read-statuses", [] {
         json md = SampleMetadataAfter({Create(), AddUnique("u1", "[3]"), Append({RowJson("r1", 1)})});
         md["constraints"] = json::array();
         return md;
       }())},
       1,
       IsAt("/statuses", "{}")},
      // upg.readers-ignore-identifiers/whole
      {"reader-refuses-v4-identifiers",
       {ReaderRequest("read-statuses",
                      SampleMetadataAfter({Create(3, WithIdentifiers(kSchema, "[1]")),
                                           R"({"op": "upgrade", "format-version": 4})"}))},
       1,
       IsOutcome("ok")},
      // ice.format-version-known/whole
      {"reader-accepts-unknown-version",
       {ReaderRequest("parse-metadata", [] {
         json md = SampleMetadataAfter({Create()});
         md["format-version"] = 5;
         return md;
       }())},
       1,
       IsOutcome("unsupported-format-version")},
      // The last clause gaps of issue 12.
      // def.required-fields/stored-id-and-timestamp, under invalid-metadata-on-read=reject
      {"reader-accepts-missing-id-or-timestamp",
       {ReaderRequest("parse-metadata", [] {
         json md = SampleMetadataAfter({Create(), AddUnique("u1", "[3]")});
         md["constraints"][0].erase("timestamp-ms");
         return md;
       }())},
       1,
       IsOutcome("invalid-metadata")},
      // ice.single-value/writes
      {"long-beyond-2p53-written-as-double",
       {Create(), Append({RowJson("r1", 9007199254740993)}), R"({"op": "scan"})"},
       3,
       IsAt("/rows/0/values/1", "9007199254740993")},
      // proto.timestamp-from-now/every-timestamp: the append's now-ms is 1003, the table's
      // last-updated-ms 1001.
      {"snapshot-timestamp-from-table-clock",
       {Create(), R"({"op": "load-table"})", Append({RowJson("r1", 1)})},
       3,
       IsAt("/metadata/snapshots/0/timestamp-ms", "1003")},
  };
}

}  // namespace ictk::sample_test
