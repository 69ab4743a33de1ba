/// \file
/// The correct sample gives legal, precise answers: the example session of
/// EXAMPLE-SESSION.md step by step, and scripted sessions for each capability (statuses,
/// validate, UDFs, transforms, nested keys, schema evolution, upgrade, readers,
/// parse-metadata on real Iceberg metadata). Each test names the rule it checks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "codec/json_table_metadata.h"
#include "tests/sample/script_util.h"

namespace ictk::sample_test {
namespace {

TEST(SampleExampleSession, ReplaysEveryStepLegally) {
  const auto r = RunSample(ExampleSession());
  ASSERT_EQ(r.size(), 12u);
  for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i]["id"], i + 1) << r[i].dump();
  // 1: the handshake declares every capability.
  EXPECT_EQ(r[0]["protocol-version"], 1);
  EXPECT_EQ(r[0]["capabilities"].size(), 13u);
  EXPECT_EQ(r[0]["format-versions"], json::parse("[1, 2, 3, 4]"));
  // 2: a v4 table without constraints.
  EXPECT_EQ(r[1]["metadata"]["last-constraint-id"], 0);
  EXPECT_EQ(r[1]["metadata"]["constraints"], json::array());
  // 3, 4: IDs above last-constraint-id, which follows (id.above-last, id.update-last).
  EXPECT_EQ(r[2]["metadata"]["constraints"][0]["constraint-id"], 1);
  EXPECT_EQ(r[2]["metadata"]["last-constraint-id"], 1);
  EXPECT_EQ(r[3]["metadata"]["constraints"][1]["constraint-id"], 2);
  EXPECT_EQ(r[3]["metadata"]["last-constraint-id"], 2);
  EXPECT_EQ(r[3]["metadata"]["constraints"][1]["timestamp-ms"], 1002);
  // 5: pk validated; the check invalid but not enforced (enf.not-enforced, st.invalid).
  EXPECT_EQ(CurrentStatuses(r[4]), json::parse(R"({"validated": [1], "invalid": [2]})"));
  EXPECT_EQ(CurrentSnapshot(r[4])["summary"]["operation"], "append");
  // 6: a duplicate primary key (enf.enforced, sem.primary-key).
  EXPECT_EQ(Outcome(r[5]), "constraint-violation");
  EXPECT_EQ(r[5]["error"]["constraint-ids"], json::parse("[1]"));
  // 7: begin answers the base.
  EXPECT_EQ(r[6]["metadata"], r[4]["metadata"]);
  // 8: the staged commit on the base: pk valid (parent validated, added rows verified).
  EXPECT_EQ(CurrentStatuses(r[7]), json::parse(R"({"valid": [1], "invalid": [2]})"));
  EXPECT_EQ(CurrentSnapshot(r[7])["parent-snapshot-id"], 1);
  // 9: a concurrent commit of key 3 lands on snapshot 1.
  EXPECT_EQ(CurrentStatuses(r[8]), json::parse(R"({"valid": [1], "invalid": [2]})"));
  EXPECT_EQ(CurrentSnapshot(r[8])["parent-snapshot-id"], 1);
  // 10: the retry is verified against the new parent (enf.retry-keys-new-parent).
  EXPECT_EQ(Outcome(r[9]), "constraint-violation");
  // 11: a delete adds no rows: pk carries valid (st.no-add-carry); the check's only
  // violating row is gone, so invalid may no longer be carried (st.invalid).
  EXPECT_EQ(CurrentStatuses(r[10]), json::parse(R"({"valid": [1], "unvalidated": [2]})"));
  EXPECT_EQ(CurrentSnapshot(r[10])["summary"]["operation"], "delete");
  // 12: the live rows.
  ASSERT_EQ(r[11]["rows"].size(), 2u);
  EXPECT_EQ(r[11]["rows"][0]["key"], "r1");
  EXPECT_EQ(r[11]["rows"][1]["key"], "r5");
  EXPECT_EQ(r[11]["rows"][1]["values"]["1"], 3);
}

TEST(SampleMetadata, EveryAnswerRoundTripsThroughTheCodec) {
  // ice.* metadata: the full table metadata decodes and encodes back to the same JSON.
  for (const json& response : RunSample(ExampleSession())) {
    if (!response.contains("metadata")) continue;
    auto md = TableMetadataFromJson(response["metadata"]);
    ASSERT_TRUE(md.has_value()) << md.error().message << "\n" << response.dump();
    EXPECT_EQ(TableMetadataToJson(*md), response["metadata"]);
    const json& m = response["metadata"];
    EXPECT_TRUE(m.contains("table-uuid"));
    EXPECT_TRUE(m.contains("location"));
    EXPECT_TRUE(m.contains("partition-specs"));
    EXPECT_TRUE(m.contains("sort-orders"));
  }
}

TEST(SampleMetadata, SnapshotTimestampsStrictlyIncreaseAndStatusesListEveryConstraint) {
  SCOPED_TRACE("ice.v4-snapshot-timestamps, st.exactly-one-list, st.every-snapshot");
  const auto r = RunSample(ExampleSession());
  const json& md = r[10]["metadata"];
  std::map<int64_t, int64_t> ts;
  for (const json& s : md["snapshots"]) ts[s["snapshot-id"]] = s["timestamp-ms"];
  for (const json& s : md["snapshots"]) {
    if (s.contains("parent-snapshot-id")) {
      EXPECT_GT(s["timestamp-ms"].get<int64_t>(), ts[s["parent-snapshot-id"]]);
    }
    std::multiset<int> listed;
    for (const auto& [status, ids] : s["constraint-statuses"].items())
      for (const json& id : ids) listed.insert(id.get<int>());
    EXPECT_EQ(listed, (std::multiset<int>{1, 2})) << s.dump();
  }
}

TEST(SampleTableUuid, IsDeterministicFromTheName) {
  const auto a = RunSample({Create()});
  const auto b = RunSample({Create()});
  const auto c = RunSample(
      {R"({"op": "create-table", "table": "u", "format-version": 4, "schema": {"type": "struct", "fields": []}})"});
  EXPECT_EQ(a[0]["metadata"]["table-uuid"], b[0]["metadata"]["table-uuid"]);
  EXPECT_NE(a[0]["metadata"]["table-uuid"], c[0]["metadata"]["table-uuid"]);
}

TEST(SampleRejection, LeavesTheTableAsItWas) {
  SCOPED_TRACE(
      "proto.answer: after a rejected request load-table equals the state before");
  const auto r = RunSample(
      {Create(), AddPk("[1]"), Append({RowJson("r1", 1)}), R"({"op": "load-table"})",
       Append({RowJson("r2", 2), RowJson("r3", 1)}),
       R"({"op": "update-schema", "changes": [{"action": "make-optional", "id": 1}]})",
       AddPk("[4]", true, "pk2"), R"({"op": "load-table"})"});
  EXPECT_EQ(Outcome(r[4]), "constraint-violation");
  EXPECT_EQ(Outcome(r[5]), "invalid-schema-change");
  EXPECT_EQ(Outcome(r[6]), "invalid-constraint");
  EXPECT_EQ(r[7]["metadata"], r[3]["metadata"]);
}

TEST(SampleRequests, MalformedRequestsAreInvalidRequests) {
  SCOPED_TRACE("proto.request");
  const auto r = RunSample(
      {Create(), R"({"op": "load-table", "table": "nope"})",
       R"({"op": "commit", "operation": "append", "remove": ["x"]})", Delete({"x"}),
       Append({RowJson("r1", 1), RowJson("r1", 2)}),
       R"({"op": "commit", "operation": "append", "add": [{"key": "r1", "values": {"1": 1}}]})",
       R"({"op": "hello"})", R"({"op": "hello", "protocol-version": 9})",
       R"({"op": "frobnicate"})", R"({"op": "finish", "txn": "none"})"});
  for (size_t i = 1; i <= 6; ++i) EXPECT_EQ(Outcome(r[i]), "invalid-request") << i;
  EXPECT_EQ(Outcome(r[7]), "unsupported");
  EXPECT_EQ(Outcome(r[8]), "unsupported");
  EXPECT_EQ(Outcome(r[9]), "invalid-request");
}

TEST(StValid, ValidAfterVerifiedAddsAndValidatedWhenEveryRowIsChecked) {
  SCOPED_TRACE("st.validated, st.valid, st.no-add-carry");
  const auto r = RunSample({Create(), AddUnique("u", "[3]", false),
                            AddCheck("c", kQtyPositive, false),
                            Append({RowJson("r1", 1, "5", R"("3": "a")")}),
                            Append({RowJson("r2", 2, "6", R"("3": "b")")}),
                            R"({"op": "commit", "operation": "replace"})", Delete({"r1"}),
                            Delete({"r2"}), Append({RowJson("r3", 3, "1")})});
  EXPECT_EQ(CurrentStatuses(r[3]), json::parse(R"({"validated": [1, 2]})"));
  EXPECT_EQ(CurrentStatuses(r[4]), json::parse(R"({"valid": [1, 2]})"));
  EXPECT_EQ(CurrentStatuses(r[5]), json::parse(R"({"valid": [1, 2]})"));
  EXPECT_EQ(CurrentSnapshot(r[5])["summary"]["operation"], "replace");
  EXPECT_EQ(CurrentStatuses(r[6]), json::parse(R"({"valid": [1, 2]})"));
  // Deleting every row leaves nothing unchecked.
  EXPECT_EQ(CurrentStatuses(r[7]), json::parse(R"({"validated": [1, 2]})"));
  EXPECT_EQ(CurrentStatuses(r[8]), json::parse(R"({"validated": [1, 2]})"));
}

TEST(StInvalid, CarriedWhileNothingIsRemoved) {
  SCOPED_TRACE("st.invalid");
  const auto r =
      RunSample({Create(), AddUnique("u", "[3]", false),
                 Append({RowJson("r1", 1, "5", R"("3": "a")"),
                         RowJson("r2", 2, "5", R"("3": "a")")}),
                 Append({RowJson("r3", 3, "5", R"("3": "b")")}),
                 R"({"op": "commit", "operation": "replace"})", Delete({"r3"})});
  EXPECT_EQ(CurrentStatuses(r[2]), json::parse(R"({"invalid": [1]})"));
  EXPECT_EQ(CurrentStatuses(r[3]), json::parse(R"({"invalid": [1]})"));
  EXPECT_EQ(CurrentStatuses(r[4]), json::parse(R"({"invalid": [1]})"));
  EXPECT_EQ(CurrentStatuses(r[5]), json::parse(R"({"unvalidated": [1]})"));
}

TEST(SemUnique, NullKeysAreNotComparedButPrimaryKeysAre) {
  SCOPED_TRACE("sem.unique, sem.primary-key, key.unique-optional-ok");
  const auto r =
      RunSample({Create(), AddUnique("u", "[3, 6]"),
                 Append({RowJson("r1", 1, "1", R"("3": "x")"),
                         RowJson("r2", 2, "1", R"("3": "x")")}),
                 Append({RowJson("r3", 3, "1", R"("3": "x", "5": {"6": 1})"),
                         RowJson("r4", 4, "1", R"("3": "x", "5": {"6": 2})")}),
                 Append({RowJson("r5", 5, "1", R"("3": "x", "5": {"6": 1})")})});
  EXPECT_EQ(Outcome(r[1]), "ok");  // a unique key may be nested in an optional struct
  EXPECT_EQ(Outcome(r[2]), "ok");  // s is null: not compared
  EXPECT_EQ(Outcome(r[3]), "ok");
  EXPECT_EQ(Outcome(r[4]), "constraint-violation");
}

TEST(EnfKeysAgainstRemaining, ModifyKeepingTheKeyAndSwappingKeysAreFine) {
  SCOPED_TRACE("enf.keys-against-remaining, enf.modified-row");
  const auto r = RunSample(
      {Create(), AddPk("[1]"), Append({RowJson("r1", 1), RowJson("r2", 2)}),
       fmt::format(R"({{"op": "commit", "operation": "overwrite", "modify": [{}]}})",
                   RowJson("r1", 1, "9")),
       fmt::format(R"({{"op": "commit", "operation": "overwrite", "modify": [{}, {}]}})",
                   RowJson("r1", 2), RowJson("r2", 1)),
       fmt::format(R"({{"op": "commit", "operation": "overwrite", "modify": [{}]}})",
                   RowJson("r1", 1))});
  EXPECT_EQ(Outcome(r[3]), "ok");
  EXPECT_EQ(Outcome(r[4]), "ok");
  EXPECT_EQ(Outcome(r[5]), "constraint-violation");  // r2 holds key 1 now
  // A modify counts as removing and adding: pk is valid, not carried validated; when
  // every live row was modified, every row was checked.
  EXPECT_EQ(CurrentStatuses(r[3]), json::parse(R"({"valid": [1]})"));
  EXPECT_EQ(CurrentStatuses(r[4]), json::parse(R"({"validated": [1]})"));
}

TEST(EnfRetry, ARetryThatStillHoldsSucceedsOnTheNewParent) {
  SCOPED_TRACE("enf.retry-enforced, enf.retry-recompute-statuses");
  const auto r =
      RunSample({Create(), AddPk("[1]"), Append({RowJson("r1", 1)}),
                 R"({"op": "begin", "txn": "w"})", Append({RowJson("r2", 2)}, "w"),
                 Append({RowJson("r3", 3)}), R"({"op": "finish", "txn": "w"})",
                 R"({"op": "scan"})", R"({"op": "finish", "txn": "w"})"});
  EXPECT_EQ(Outcome(r[6]), "ok");
  json snap = CurrentSnapshot(r[6]);
  EXPECT_EQ(snap["parent-snapshot-id"], CurrentSnapshot(r[5])["snapshot-id"]);
  EXPECT_EQ(snap["timestamp-ms"], 1007);
  EXPECT_EQ(CurrentStatuses(r[6]), json::parse(R"({"valid": [1]})"));
  EXPECT_EQ(r[7]["rows"].size(), 3u);
  EXPECT_EQ(Outcome(r[8]), "invalid-request");  // nothing staged any more
}

TEST(EnfRetry, ARemovedRowDeletedConcurrentlyIsACommitConflict) {
  const auto r = RunSample(
      {Create(), Append({RowJson("r1", 1)}), R"({"op": "begin", "txn": "w"})",
       fmt::format(
           R"({{"op": "commit", "txn": "w", "operation": "delete", "remove": ["r1"]}})"),
       Delete({"r1"}), R"({"op": "finish", "txn": "w"})"});
  EXPECT_EQ(Outcome(r[3]), "ok");
  EXPECT_EQ(Outcome(r[5]), "commit-conflict");
}

TEST(ExprUdfStatus, RedefinitionIsJudgedWithTheCurrentDefinition) {
  SCOPED_TRACE("expr.udf-status, expr.deterministic");
  const std::string redefine_negative =
      R"({"op": "define-function", "name": "pos", "deterministic": true, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "lt", "left": {"type": "parameter", "name": "x"}, "right": 0}})";
  const std::string nondeterministic =
      R"({"op": "define-function", "name": "pos", "deterministic": false, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "lt", "left": {"type": "parameter", "name": "x"}, "right": 0}})";
  const char* udf =
      R"({"op": "define-function", "name": "pos", "deterministic": true, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})";
  const char* call =
      R"({"type": "eq", "left": {"type": "apply", "function": "pos", "arguments": [{"type": "reference", "id": 2}]}, "right": true})";
  const auto r = RunSample(
      {Create(), udf, AddCheck("c", call, true), Append({RowJson("r1", 1, "5")}),
       Append({RowJson("r2", 2, "-5")}), R"({"op": "commit", "operation": "replace"})",
       redefine_negative, R"({"op": "validate", "names": ["c"]})", nondeterministic,
       Append({RowJson("r3", 3, "-1")}), R"({"op": "commit", "operation": "replace"})"});
  EXPECT_EQ(CurrentStatuses(r[3]), json::parse(R"({"validated": [1]})"));
  EXPECT_EQ(Outcome(r[4]), "constraint-violation");
  // No carry for a check that calls a UDF.
  EXPECT_EQ(CurrentStatuses(r[5]), json::parse(R"({"unvalidated": [1]})"));
  EXPECT_EQ(r[6]["result"], "ok");
  // Under the new definition r1 (qty 5) breaks the check.
  EXPECT_EQ(CurrentStatuses(r[7]), json::parse(R"({"invalid": [1]})"));
  EXPECT_EQ(Outcome(r[9]), "unverifiable-constraint");
  EXPECT_EQ(CurrentStatuses(r[10]), json::parse(R"({"unvalidated": [1]})"));
}

TEST(Validate, RecordsWhatAFullCheckFinds) {
  SCOPED_TRACE("st.validated, st.invalid via validate");
  const auto r = RunSample(
      {Create(), Append({RowJson("r1", 1, "5"), RowJson("r2", 2, "-5")}),
       AddCheck("c", kQtyPositive, false), AddUnique("u", "[1]", false),
       R"({"op": "validate", "names": ["c"]})", R"({"op": "validate", "names": ["u"]})",
       R"({"op": "validate", "names": ["nope"]})"});
  EXPECT_EQ(CurrentStatuses(r[4]),
            json::parse(R"({"invalid": [1], "unvalidated": [2]})"));
  EXPECT_EQ(CurrentSnapshot(r[4])["summary"]["operation"], "replace");
  EXPECT_EQ(CurrentStatuses(r[5]), json::parse(R"({"invalid": [1], "validated": [2]})"));
  EXPECT_EQ(Outcome(r[6]), "invalid-request");
}

TEST(Transforms, BucketTruncateAndDatesFollowTheIcebergSpec) {
  SCOPED_TRACE("sem.check with iceberg_functions");
  auto check = [](const std::string& fn, const std::string& args,
                  const std::string& value) {
    return fmt::format(
        R"({{"type": "eq", "left": {{"type": "apply", "function": "{}", "catalog": "iceberg_functions", "arguments": {}}}, "right": {}}})",
        fn, args, value);
  };
  const auto r = RunSample({
      Create(),
      // Iceberg's reference vectors: bucket[100](34L) = 79, bucket[100](14.20) = 59.
      AddCheck("b1", check("bucket", R"([100, {"type": "reference", "id": 1}])", "79"),
               true),
      AddCheck("b2", check("bucket", R"([100, {"type": "reference", "id": 13}])", "59"),
               true),
      AddCheck("t1", check("truncate", R"([10, {"type": "reference", "id": 2}])", "-10"),
               true),
      AddCheck("y1", check("year", R"([{"type": "reference", "id": 12}])", "47"), true),
      AddCheck("m1", check("month", R"([{"type": "reference", "id": 12}])", "574"), true),
      Append({RowJson("r1", 34, "-1", R"("13": "14.20", "12": "2017-11-16")")}),
      Append({RowJson("r2", 35, "-1", R"("13": "14.20", "12": "2017-11-16")")}),
  });
  for (size_t i = 1; i <= 5; ++i) EXPECT_EQ(Outcome(r[i]), "ok") << r[i].dump();
  EXPECT_EQ(Outcome(r[6]), "ok") << r[6].dump();
  EXPECT_EQ(Outcome(r[7]), "constraint-violation");
  EXPECT_EQ(r[7]["error"]["constraint-ids"], json::parse("[1]"));
}

TEST(ExprWellTyped, IllTypedChecksAreInvalidConstraints) {
  SCOPED_TRACE("expr.well-typed, def.check-expression, def.key-field-ids, def.types");
  const auto r = RunSample({
      Create(),
      AddCheck("c1",
               R"({"type": "lt", "left": {"type": "reference", "id": 3}, "right": 5})",
               false),
      AddCheck(
          "c2",
          R"({"type": "lt", "left": {"type": "reference", "id": 9}, "right": {"type": "literal", "value": "NaN", "data-type": "double"}})",
          false),
      AddCheck(
          "c3",
          R"({"type": "starts-with", "left": {"type": "reference", "id": 2}, "right": "x"})",
          false),
      AddCheck("c4",
               R"({"type": "lt", "left": {"type": "reference", "id": 99}, "right": 5})",
               false),
      AddUnique("u1", "[]"),
      AddUnique("u2", "[3, 3]"),
      R"({"op": "add-constraint", "constraint": {"type": "foreign-key", "name": "f", "enforced": false, "field-ids": [1]}})",
      AddCheck(
          "ok1",
          R"({"type": "lt-eq", "left": {"type": "reference", "id": 2}, "right": 5.5})",
          false),
      AddCheck(
          "ok2",
          R"({"type": "gt", "left": {"type": "reference", "id": 12}, "right": "2017-01-01"})",
          false),
      AddCheck(
          "ok3",
          R"({"type": "in", "child": {"type": "reference", "id": 13}, "values": ["1.50", "2"]})",
          false),
  });
  for (size_t i = 1; i <= 7; ++i)
    EXPECT_EQ(Outcome(r[i]), "invalid-constraint") << i << r[i].dump();
  for (size_t i = 8; i <= 10; ++i) EXPECT_EQ(Outcome(r[i]), "ok") << i << r[i].dump();
}

TEST(SemCheck, NullSafeTwoValuedComparisons) {
  SCOPED_TRACE(
      "sem.check: null = null true, 5 = null false, null < null false, null <= null "
      "true");
  auto cmp = [](const std::string& op) {
    return fmt::format(
        R"({{"type": "{}", "left": {{"type": "reference", "id": 2}}, "right": {{"type": "reference", "id": 9}}}})",
        op);
  };
  // qty (int) against f (double); rows: both null; qty 5 and f null.
  const auto r = RunSample(
      {Create(), AddCheck("eq", cmp("eq"), false), AddCheck("lt", cmp("lt"), false),
       AddCheck("le", cmp("lt-eq"), false), AddCheck("ne", cmp("not-eq"), false),
       Append({RowJson("r1", 1)}), Append({RowJson("r2", 2, "5")})});
  EXPECT_EQ(CurrentStatuses(r[5]),
            json::parse(R"({"validated": [1, 3], "invalid": [2, 4]})"));
  EXPECT_EQ(CurrentStatuses(r[6]), json::parse(R"({"invalid": [1, 2, 3, 4]})"));
}

TEST(SchemaEvolution, RenameReorderAndKeyPromotionAreAllowed) {
  SCOPED_TRACE("sch.rename-reorder, sch.key-promotion-ok, sch.referenced-exist");
  const auto r = RunSample(
      {Create(), AddUnique("u", "[2]"), AddCheck("c", kQtyPositive, false),
       Append({RowJson("r1", 1, "5")}),
       R"({"op": "update-schema", "changes": [{"action": "rename-column", "id": 2, "name": "quantity"}, {"action": "move-column", "id": 2, "first": true}]})",
       R"({"op": "update-schema", "changes": [{"action": "update-column-type", "id": 2, "type": "long"}], "remove-constraints": ["c"]})",
       Append({RowJson("r2", 2, "5")}),
       R"({"op": "update-schema", "changes": [{"action": "delete-column", "id": 2}], "remove-constraints": ["u"]})",
       R"({"op": "scan"})"});
  EXPECT_EQ(Outcome(r[4]), "ok");
  EXPECT_EQ(r[4]["metadata"]["schemas"][1]["fields"][0]["name"], "quantity");
  EXPECT_EQ(Outcome(r[5]), "ok") << r[5].dump();
  EXPECT_EQ(r[5]["metadata"]["constraints"].size(), 1u);
  // The promoted key still compares r2's 5 with r1's 5.
  EXPECT_EQ(Outcome(r[6]), "constraint-violation");
  EXPECT_EQ(Outcome(r[7]), "ok");
  EXPECT_EQ(r[8]["rows"][0]["values"].count("2"), 0u);
}

TEST(SchemaEvolution, RequiredColumnNeedsADefaultAndDefaultsFillOldRows) {
  SCOPED_TRACE("ice.required-needs-default");
  const auto r = RunSample(
      {Create(), Append({RowJson("r1", 1)}),
       R"({"op": "update-schema", "changes": [{"action": "add-column", "name": "n", "type": "int", "required": true}]})",
       R"({"op": "update-schema", "changes": [{"action": "add-column", "name": "n", "type": "int", "required": true, "initial-default": 7, "write-default": 8}]})",
       Append({RowJson("r2", 2)}), R"({"op": "scan"})",
       R"({"op": "scan", "snapshot-id": 1})"});
  EXPECT_EQ(Outcome(r[2]), "invalid-schema-change");
  EXPECT_EQ(Outcome(r[3]), "ok");
  EXPECT_EQ(r[3]["metadata"]["last-column-id"], 15);
  EXPECT_EQ(r[5]["rows"][0]["values"]["15"], 7);
  EXPECT_EQ(r[5]["rows"][1]["values"]["15"], 8);
  EXPECT_EQ(r[6]["rows"][0]["values"].count("15"), 0u);
}

TEST(UpgPkFromIdentifiers, UpgradeWritesAnUnenforcedPk) {
  SCOPED_TRACE("upg.pk-from-identifiers, id.last-default-zero, ice.format-version-up");
  const auto r = RunSample(
      {Create(2, WithIdentifiers(kSchemaV2, "[1, 4]")), Append({RowJson("r1", 1)}),
       R"({"op": "upgrade", "format-version": 4})",
       R"({"op": "upgrade", "format-version": 3})",
       R"({"op": "upgrade", "format-version": 5})", Append({RowJson("r2", 2)})});
  ASSERT_EQ(Outcome(r[2]), "ok");
  const json& pk = r[2]["metadata"]["constraints"][0];
  EXPECT_EQ(pk["name"], "pk");
  EXPECT_EQ(pk["type"], "primary-key");
  EXPECT_EQ(pk["enforced"], false);
  EXPECT_EQ(pk["constraint-id"], 1);
  EXPECT_EQ(pk["timestamp-ms"], 1003);
  EXPECT_EQ(pk["field-ids"], json::parse("[1, 4]"));
  EXPECT_EQ(r[2]["metadata"]["last-constraint-id"], 1);
  EXPECT_EQ(Outcome(r[3]), "unsupported-format-version");
  EXPECT_EQ(Outcome(r[4]), "unsupported-format-version");
  // The snapshot before the upgrade lists nothing: pk is unvalidated there.
  EXPECT_EQ(CurrentStatuses(r[5]), json::parse(R"({"unvalidated": [1]})"));
}

TEST(DefV4Only, V3MetadataCarriesNoConstraintFields) {
  SCOPED_TRACE("def.v4-only");
  const auto r = RunSample({Create(3), Append({RowJson("r1", 1)}), AddPk("[1]")});
  EXPECT_FALSE(r[1]["metadata"].contains("constraints"));
  EXPECT_FALSE(r[1]["metadata"].contains("last-constraint-id"));
  EXPECT_FALSE(CurrentSnapshot(r[1]).contains("constraint-statuses"));
  EXPECT_EQ(Outcome(r[2]), "unsupported-format-version");
}

TEST(StReaderLookup, ReadersTakeListedStatusesAndUnvalidatedOtherwise) {
  SCOPED_TRACE("st.reader-lookup, id.readers-tolerate-missing");
  const auto r = RunSample(
      {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
       AddUnique("u", "[3]", false),
       R"({"op": "read-statuses", "metadata": "$metadata"})",
       R"({"op": "read-statuses", "metadata": "$metadata", "snapshot-id": 42})"});
  EXPECT_EQ(r[4]["statuses"], json::parse(R"({"1": "validated", "2": "unvalidated"})"));
  EXPECT_EQ(Outcome(r[5]), "invalid-request");
}

TEST(ParseMetadata, RealIcebergMetadataIsAccepted) {
  SCOPED_TRACE("parse-metadata on tests/data/iceberg-real valid table metadata");
  const std::filesystem::path root =
      std::filesystem::path(ICTK_TEST_DATA_DIR) / "iceberg-real";
  std::ifstream manifest_in(root / "manifest.json");
  ASSERT_TRUE(manifest_in.good());
  const json manifest = json::parse(manifest_in);
  auto adapter = MakeSampleAdapter("");
  ASSERT_TRUE(adapter.has_value());
  int tried = 0;
  for (const json& f : manifest["files"]) {
    const std::string file = f["file"];
    if (f.value("kind", "") != "table-metadata" || file.find("metadata/valid/") != 0)
      continue;
    std::ifstream in(root / file);
    json md = json::parse(in, nullptr, false);
    if (md.is_discarded() || !TableMetadataFromJson(md).has_value())
      continue;  // codec exceptions
    ++tried;
    auto r =
        (*adapter)->Call(json{{"id", tried}, {"op", "parse-metadata"}, {"metadata", md}});
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(Outcome(*r), "ok") << file << ": " << r->dump().substr(0, 300);
    if (Outcome(*r) != "ok") continue;
    auto back = TableMetadataFromJson((*r)["metadata"]);
    ASSERT_TRUE(back.has_value()) << file;
    EXPECT_EQ(*back, *TableMetadataFromJson(md)) << file;
  }
  EXPECT_GE(tried, 40);
}

TEST(ParseMetadata, BrokenConstraintsAreInvalidMetadata) {
  SCOPED_TRACE("def.single-pk, def.name-unique in metadata given to a reader");
  const auto made = RunSample({Create(), AddPk("[1]"), AddUnique("u", "[3]")});
  json md = made[2]["metadata"];
  json two_pks = md;
  two_pks["constraints"][1]["type"] = "primary-key";
  two_pks["constraints"][1]["field-ids"] = json::parse("[4]");
  json same_name = md;
  same_name["constraints"][1]["name"] = "pk";
  json v9 = md;
  v9["format-version"] = 9;
  const auto r =
      RunSample({R"({"op": "parse-metadata", "metadata": )" + md.dump() + "}",
                 R"({"op": "parse-metadata", "metadata": )" + two_pks.dump() + "}",
                 R"({"op": "parse-metadata", "metadata": )" + same_name.dump() + "}",
                 R"({"op": "parse-metadata", "metadata": )" + v9.dump() + "}",
                 R"({"op": "parse-metadata", "metadata": {"format-version": 4}})"});
  EXPECT_EQ(Outcome(r[0]), "ok");
  EXPECT_EQ(r[0]["metadata"], md);
  EXPECT_EQ(Outcome(r[1]), "invalid-metadata");
  EXPECT_EQ(Outcome(r[2]), "invalid-metadata");
  EXPECT_EQ(Outcome(r[3]), "unsupported-format-version");
  EXPECT_EQ(Outcome(r[4]), "invalid-metadata");
}

}  // namespace
}  // namespace ictk::sample_test
