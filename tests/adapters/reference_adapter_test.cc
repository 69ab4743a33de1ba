/// \file
/// `builtin:reference` answers every op of the protocol: the example session of
/// EXAMPLE-SESSION.md with its canonical answers (lowest new ID, precise statuses), then
/// the ops that session does not touch, the conventions (unknown op, missing protocol
/// version, unknown table), and every answer conforms to the protocol's shapes.
#include "adapters/reference_adapter.h"

#include <gtest/gtest.h>

#include "codec/json_text.h"
#include "codec/protocol.h"

namespace ictk {
namespace {

using nlohmann::json;

class ReferenceAdapterTest : public ::testing::Test {
 protected:
  /// Sends `request` (a JSON text) with the next id and checks the answer's shape.
  json Send(const std::string& text) {
    json request = json::parse(text);
    request["id"] = ++id_;
    auto r = adapter_->Call(request);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
    if (!r) return json();
    EXPECT_EQ((*r)["id"], id_);
    // The shapes are those of whole answers; a metadata delta is rebuilt first (the
    // session's work, tested in tests/properties/metadata_delta_test.cc).
    if (r->contains("metadata-delta")) return *r;
    auto shape = ResponseForOpFromJson(RequestOpName(request), *r);
    EXPECT_TRUE(shape.has_value()) << text << "\n -> " << DumpJson(*r) << "\n"
                                   << (shape ? "" : shape.error().message);
    return *r;
  }
  static std::string Result(const json& r) { return r.value("result", ""); }
  static std::string Kind(const json& r) {
    return r.contains("error") ? r["error"].value("kind", "") : "";
  }
  static json Statuses(const json& r) {
    const json& m = r["metadata"];
    for (const auto& s : m["snapshots"])
      if (s["snapshot-id"] == m["current-snapshot-id"]) return s["constraint-statuses"];
    return nullptr;
  }

  std::unique_ptr<Adapter> adapter_ = MakeReferenceAdapter();
  int id_ = 0;
};

TEST_F(ReferenceAdapterTest, HelloDeclaresEverything) {
  json h = Send(R"({"op": "hello", "protocol-version": 1})");
  EXPECT_EQ(Result(h), "ok");
  EXPECT_EQ(h["protocol-version"], 1);
  EXPECT_EQ(h["format-versions"], json({1, 2, 3, 4}));
  EXPECT_EQ(h["capabilities"].size(), AllCapabilities().size());
  EXPECT_EQ(Result(Send(R"({"op": "hello", "protocol-version": 2})")), "unsupported");
  json missing = Send(R"({"op": "hello"})");
  EXPECT_EQ(Result(missing), "rejected");
  EXPECT_EQ(Kind(missing), "invalid-request");
  EXPECT_EQ(Result(Send(R"({"op": "frobnicate", "table": "t"})")), "unsupported");
  json no_op = Send(R"({"table": "t"})");
  EXPECT_EQ(Kind(no_op), "invalid-request");
  EXPECT_EQ(adapter_->Describe(), "builtin:reference");
}

// Metadata deltas (protocol section 7) only when offered: hello declares them then,
// and the answers on a table after its first carry `metadata-delta` based on the
// latest request on that table whose answer carried metadata.
TEST_F(ReferenceAdapterTest, MetadataDeltasOnlyWhenOffered) {
  json plain = Send(R"({"op": "hello", "protocol-version": 1})");
  EXPECT_FALSE(plain.contains("metadata-delta"));
  const std::string create = R"({"op": "create-table", "table": "t", "now-ms": 1000,
      "format-version": 4, "schema": {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "k", "required": true, "type": "long"}]}})";
  Send(create);
  EXPECT_TRUE(Send(R"({"op": "load-table", "table": "t"})").contains("metadata"));

  adapter_ = MakeReferenceAdapter();
  json offered = Send(R"({"op": "hello", "protocol-version": 1, "metadata-delta": true})");
  EXPECT_EQ(offered["metadata-delta"], true);
  json created = Send(create);
  ASSERT_TRUE(created.contains("metadata"));  // the first on a table is whole
  const int created_id = id_;
  json rejected = Send(R"({"op": "remove-constraint", "table": "t", "now-ms": 1001,
      "name": "nope"})");
  EXPECT_EQ(Result(rejected), "rejected");
  json committed = Send(R"({"op": "commit", "table": "t", "now-ms": 1002,
      "operation": "append", "add": [{"key": "r1", "values": {"1": 1}}]})");
  ASSERT_TRUE(committed.contains("metadata-delta")) << committed;
  EXPECT_FALSE(committed.contains("metadata"));
  const json& delta = committed["metadata-delta"];
  EXPECT_EQ(delta["base"], created_id);  // the rejection carried no metadata
  EXPECT_EQ(delta["splice"]["snapshots"]["keep"], 0);
  EXPECT_EQ(delta["splice"]["snapshots"]["add"].size(), 1u);
  json loaded = Send(R"({"op": "load-table", "table": "t"})");
  ASSERT_TRUE(loaded.contains("metadata-delta"));
  EXPECT_EQ(loaded["metadata-delta"], json({{"base", id_ - 1}}));  // nothing changed
  // parse-metadata names no table: whole.
  json reread = Send(R"({"op": "parse-metadata", "metadata": {"format-version": 2,
      "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "s3://b/t",
      "last-sequence-number": 0, "last-updated-ms": 1, "last-column-id": 1,
      "current-schema-id": 0, "schemas": [{"type": "struct", "schema-id": 0,
      "fields": [{"id": 1, "name": "k", "required": true, "type": "long"}]}],
      "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}],
      "last-partition-id": 999, "default-sort-order-id": 0,
      "sort-orders": [{"order-id": 0, "fields": []}]}})");
  EXPECT_TRUE(reread.contains("metadata")) << reread;
}

TEST_F(ReferenceAdapterTest, TheExampleSession) {
  SCOPED_TRACE("EXAMPLE-SESSION.md, steps 2-12");
  json created = Send(R"({"op": "create-table", "table": "orders", "now-ms": 1000,
      "format-version": 4, "schema": {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "order_id", "required": true, "type": "long"},
      {"id": 2, "name": "qty", "required": false, "type": "int"},
      {"id": 3, "name": "email", "required": false, "type": "string"}]}})");
  ASSERT_EQ(Result(created), "ok") << DumpJson(created);
  EXPECT_EQ(created["metadata"]["format-version"], 4);

  json pk = Send(R"({"op": "add-constraint", "table": "orders", "now-ms": 1001,
      "constraint": {"type": "primary-key", "name": "pk", "enforced": true, "field-ids": [1]}})");
  ASSERT_EQ(Result(pk), "ok") << DumpJson(pk);
  EXPECT_EQ(pk["metadata"]["last-constraint-id"], 1);  // id.above-last, lowest legal

  json check = Send(R"({"op": "add-constraint", "table": "orders", "now-ms": 1002,
      "constraint": {"type": "check", "name": "qty_positive", "enforced": false,
      "expression": {"type": "or", "left": {"type": "gt", "left": {"type": "reference", "id": 2},
      "right": 0}, "right": {"type": "is-null", "child": {"type": "reference", "id": 2}}}}})");
  ASSERT_EQ(Result(check), "ok") << DumpJson(check);
  EXPECT_EQ(check["metadata"]["last-constraint-id"], 2);

  json first = Send(R"({"op": "commit", "table": "orders", "now-ms": 1003,
      "operation": "append", "add": [{"key": "r1", "values": {"1": 1, "2": 5, "3": "a@x"}},
      {"key": "r2", "values": {"1": 2, "2": -1, "3": null}}]})");
  ASSERT_EQ(Result(first), "ok") << DumpJson(first);
  EXPECT_EQ(Statuses(first)["validated"], json({1}));  // most precise (st.validated)
  EXPECT_EQ(Statuses(first)["invalid"], json({2}));    // st.invalid

  json dup = Send(R"({"op": "commit", "table": "orders", "now-ms": 1004,
      "operation": "append", "add": [{"key": "r3", "values": {"1": 2, "2": 1}}]})");
  EXPECT_EQ(Result(dup), "rejected");
  EXPECT_EQ(Kind(dup), "constraint-violation");  // enf.enforced, sem.primary-key

  EXPECT_EQ(
      Result(Send(R"({"op": "begin", "table": "orders", "now-ms": 1005, "txn": "w1"})")),
      "ok");
  json staged = Send(R"({"op": "commit", "table": "orders", "now-ms": 1006, "txn": "w1",
      "operation": "append", "add": [{"key": "r4", "values": {"1": 3, "2": 2}}]})");
  EXPECT_EQ(Result(staged), "ok") << DumpJson(staged);
  json concurrent = Send(R"({"op": "commit", "table": "orders", "now-ms": 1007,
      "operation": "append", "add": [{"key": "r5", "values": {"1": 3, "2": 7}}]})");
  EXPECT_EQ(Result(concurrent), "ok") << DumpJson(concurrent);
  json retry =
      Send(R"({"op": "finish", "table": "orders", "now-ms": 1008, "txn": "w1"})");
  EXPECT_EQ(Result(retry), "rejected");  // enf.retry-keys-new-parent
  EXPECT_EQ(Kind(retry), "constraint-violation");

  json del = Send(R"({"op": "commit", "table": "orders", "now-ms": 1009,
      "operation": "delete", "remove": ["r2"]})");
  ASSERT_EQ(Result(del), "ok") << DumpJson(del);
  EXPECT_EQ(Statuses(del)["valid"], json({1}));  // st.no-add-carry

  json scan = Send(R"({"op": "scan", "table": "orders"})");
  ASSERT_EQ(Result(scan), "ok");
  std::set<std::string> keys;
  for (const auto& row : scan["rows"]) keys.insert(row["key"].get<std::string>());
  EXPECT_EQ(keys, (std::set<std::string>{"r1", "r5"}));  // sem.live-rows

  json loaded = Send(R"({"op": "load-table", "table": "orders"})");
  EXPECT_EQ(loaded["metadata"], del["metadata"]);
}

TEST_F(ReferenceAdapterTest, EveryOtherOp) {
  json created = Send(R"({"op": "create-table", "table": "t", "now-ms": 10,
      "format-version": 3, "schema": {"type": "struct", "schema-id": 0,
      "identifier-field-ids": [1], "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "d", "required": false, "type": "date"}]}})");
  ASSERT_EQ(Result(created), "ok") << DumpJson(created);
  json v3_constraint = Send(R"({"op": "add-constraint", "table": "t", "now-ms": 11,
      "constraint": {"type": "unique", "name": "u", "enforced": false, "field-ids": [1]}})");
  EXPECT_EQ(Kind(v3_constraint), "unsupported-format-version");  // def.v4-only

  json up = Send(R"({"op": "upgrade", "table": "t", "now-ms": 12, "format-version": 4})");
  ASSERT_EQ(Result(up), "ok") << DumpJson(up);
  ASSERT_EQ(up["metadata"]["constraints"].size(), 1u);  // upg.pk-from-identifiers
  EXPECT_EQ(up["metadata"]["constraints"][0]["name"], "pk");
  EXPECT_EQ(up["metadata"]["constraints"][0]["enforced"], false);

  json rows = Send(R"({"op": "commit", "table": "t", "now-ms": 13, "operation": "append",
      "add": [{"key": "a", "values": {"1": 1, "2": "2024-02-29"}}]})");
  ASSERT_EQ(Result(rows), "ok") << DumpJson(rows);
  int64_t first_snapshot = rows["metadata"]["current-snapshot-id"].get<int64_t>();

  json fn = Send(R"({"op": "define-function", "now-ms": 14, "name": "t_positive",
      "deterministic": true, "parameters": [{"name": "x", "type": "long"}],
      "return-type": "boolean",
      "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})");
  EXPECT_EQ(Result(fn), "ok") << DumpJson(fn);

  json udf_check = Send(R"({"op": "add-constraint", "table": "t", "now-ms": 15,
      "constraint": {"type": "check", "name": "positive", "enforced": false,
      "expression": {"type": "eq", "left": {"type": "apply", "function": "t_positive",
      "arguments": [{"type": "reference", "id": 1}]}, "right": true}}})");
  EXPECT_EQ(Result(udf_check), "ok") << DumpJson(udf_check);

  json validate =
      Send(R"({"op": "validate", "table": "t", "now-ms": 16, "names": ["pk"]})");
  ASSERT_EQ(Result(validate), "ok") << DumpJson(validate);

  json schema = Send(R"({"op": "update-schema", "table": "t", "now-ms": 17, "changes": [
      {"action": "add-column", "name": "note", "type": "string", "required": false}]})");
  ASSERT_EQ(Result(schema), "ok") << DumpJson(schema);
  json refused = Send(R"({"op": "update-schema", "table": "t", "now-ms": 18, "changes": [
      {"action": "delete-column", "id": 1}]})");
  EXPECT_EQ(Kind(refused), "invalid-schema-change");  // sch.* : pk references field 1

  json renamed = Send(R"({"op": "update-constraint", "table": "t", "now-ms": 19,
      "name": "pk", "set": {"name": "pk_id"}})");
  EXPECT_EQ(Result(renamed), "ok") << DumpJson(renamed);
  json field_ids = Send(R"({"op": "update-constraint", "table": "t", "now-ms": 20,
      "name": "pk_id", "set": {"field-ids": [2]}})");
  EXPECT_EQ(Kind(field_ids), "invalid-constraint-update");

  json removed = Send(R"({"op": "remove-constraint", "table": "t", "now-ms": 21,
      "name": "positive"})");
  ASSERT_EQ(Result(removed), "ok") << DumpJson(removed);

  json scan_old = Send(R"({"op": "scan", "table": "t", "snapshot-id": )" +
                       std::to_string(first_snapshot) + "}");
  ASSERT_EQ(Result(scan_old), "ok") << DumpJson(scan_old);
  ASSERT_EQ(scan_old["rows"].size(), 1u);
  EXPECT_EQ(scan_old["rows"][0]["values"]["2"], "2024-02-29");  // typed: a date string

  json statuses = Send(R"({"op": "read-statuses", "metadata": )" +
                       DumpJson(removed["metadata"]) + "}");
  ASSERT_EQ(Result(statuses), "ok") << DumpJson(statuses);
  EXPECT_EQ(statuses["statuses"].size(), removed["metadata"]["constraints"].size());

  json parsed = Send(R"({"op": "parse-metadata", "metadata": )" +
                     DumpJson(removed["metadata"]) + "}");
  ASSERT_EQ(Result(parsed), "ok") << DumpJson(parsed);
  json future = removed["metadata"];
  future["format-version"] = 9;
  json unknown_version =
      Send(R"({"op": "parse-metadata", "metadata": )" + DumpJson(future) + "}");
  EXPECT_EQ(Kind(unknown_version), "unsupported-format-version");

  json no_table = Send(R"({"op": "load-table", "table": "nope"})");
  EXPECT_EQ(Kind(no_table), "invalid-request");
  json malformed = Send(R"({"op": "commit", "table": "t", "operation": "upsert"})");
  EXPECT_EQ(Kind(malformed), "invalid-request");
}

TEST(ReferenceAdapterFactory, TakesNoQuery) {
  EXPECT_TRUE(ReferenceAdapterFactory()("").has_value());
  auto bad = ReferenceAdapterFactory()("mutant=x");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().kind, ErrorKind::kUsage);
}

}  // namespace
}  // namespace ictk
