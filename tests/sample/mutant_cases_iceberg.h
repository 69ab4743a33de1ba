/// \file
/// The sample mutants that get the surrounding Iceberg rules and the protocol wrong (ice.*,
/// proto.*): for each mutant, a script on which it first answers differently from the
/// correct sample, and what the correct sample answers there (mutant_cases.h).
#pragma once

#include <string>
#include <vector>

#include "tests/sample/mutant_case_util.h"

namespace ictk::sample_test {
namespace mutant_cases {

/// ice.*: schemas, their evolution and format versions.
inline std::vector<MutantCase> IceSchemaCases() {
  return {
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
       {Create(), UpdateSchemaRequest(R"({"action": "add-column", "name": "extra", "type": "int", "required": false})")},
       2,
       IsAt("/metadata/last-column-id", "15")},
      // ice.schema-evolution/new-ids-above-last
      {"added-field-id-not-above-last",
       {Create(), UpdateSchemaRequest(R"({"action": "delete-column", "id": 14})"),
        UpdateSchemaRequest(R"({"action": "add-column", "name": "extra", "type": "int", "required": false})")},
       3,
       IsAt("/metadata/last-column-id", "15")},
      // ice.unknown-optional/whole
      {"unknown-column-required",
       {Create(), UpdateSchemaRequest(R"({"action": "add-column", "name": "nothing", "type": "unknown", "required": false})")},
       2,
       IsAt("/metadata/schemas/1/fields/11/required", "false")},
      // ice.required-needs-default/whole
      {"required-column-without-default",
       {Create(), Append({RowJson("r1", 1)}),
        UpdateSchemaRequest(R"({"action": "add-column", "name": "extra", "type": "long", "required": true})")},
       3,
       IsOutcome("invalid-schema-change")},
      // ice.type-promotion/legal-only: long to int
      {"illegal-promotion-accepted",
       {Create(), UpdateSchemaRequest(R"({"action": "update-column-type", "id": 1, "type": "int"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.type-promotion/by-version: date to timestamp on a v2 table
      {"date-promotion-before-v3",
       {Create(2, R"({"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "day", "required": false, "type": "date"}]})"),
        UpdateSchemaRequest(R"({"action": "update-column-type", "id": 2, "type": "timestamp"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.schema-evolution/existing-fields
      {"unknown-field-change-skipped",
       {Create(), UpdateSchemaRequest(R"({"action": "rename-column", "id": 99, "name": "ghost"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.schema-evolution/unique-sibling-names
      {"sibling-name-reused",
       {Create(), UpdateSchemaRequest(R"({"action": "rename-column", "id": 2, "name": "name"})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.schema-evolution/moves-among-siblings: a top-level field after a nested one
      {"move-beside-non-sibling",
       {Create(), UpdateSchemaRequest(R"({"action": "move-column", "id": 2, "after": 6})")},
       2,
       IsOutcome("invalid-schema-change")},
      // ice.format-version-known/whole
      {"reader-accepts-unknown-version",
       {ReaderRequest("parse-metadata", [] {
         json md = SampleMetadataAfter({Create()});
         md["format-version"] = 5;
         return md;
       }())},
       1,
       IsOutcome("unsupported-format-version")},
  };
}

/// ice.*: identifier fields and the types of each format version.
inline std::vector<MutantCase> IceIdentifierCases() {
  return {
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
  };
}

/// ice.*: the other members of table metadata.
inline std::vector<MutantCase> IceMetadataCases() {
  return {
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
      // ice.current-schema-exists/whole
      {"current-schema-id-off-by-one",
       {Create(), UpdateSchemaRequest(R"({"action": "add-column", "name": "extra", "type": "int", "required": false})")},
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
      // ice.single-value/writes
      {"long-beyond-2p53-written-as-double",
       {Create(), Append({RowJson("r1", 9007199254740993)}), R"({"op": "scan"})"},
       3,
       IsAt("/rows/0/values/1", "9007199254740993")},
  };
}

/// proto.*: the protocol.
inline std::vector<MutantCase> ProtoCases() {
  return {
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
      // proto.request/unknown-table
      {"unknown-table-scans-empty",
       {Create(), R"({"op": "scan", "table": "nope"})"},
       2,
       IsOutcome("invalid-request")},
      // proto.timestamp-from-now/every-timestamp: the append's now-ms is 1003, the table's
      // last-updated-ms 1001.
      {"snapshot-timestamp-from-table-clock",
       {Create(), R"({"op": "load-table"})", Append({RowJson("r1", 1)})},
       3,
       IsAt("/metadata/snapshots/0/timestamp-ms", "1003")},
  };
}

}  // namespace mutant_cases

inline std::vector<MutantCase> IcebergMutantCases() {
  std::vector<MutantCase> out;
  for (auto group : {mutant_cases::IceSchemaCases, mutant_cases::IceIdentifierCases,
                     mutant_cases::IceMetadataCases, mutant_cases::ProtoCases})
    for (MutantCase& c : group()) out.push_back(std::move(c));
  return out;
}

}  // namespace ictk::sample_test
