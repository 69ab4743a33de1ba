/// \file
/// Scripted request sequences for the sample's tests: a script is a list of protocol
/// request lines; `RunScript` fills in what every line would repeat (`id` = its 1-based
/// position, `table` = "t" for ops on a table, `now-ms` = 1000 + position) and replaces
/// the string "$metadata" by the metadata of the latest answer that carried one, so that
/// a reader op can be handed a table the session wrote.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "sample/sample_adapter.h"

namespace ictk::sample_test {

using nlohmann::json;
using Script = std::vector<std::string>;

inline bool ActsOnTable(const std::string& op) {
  return op != "hello" && op != "define-function" && op != "read-statuses" &&
         op != "parse-metadata";
}

inline void Substitute(json& j, const json& metadata) {
  if (j.is_string() && j.get<std::string>() == "$metadata") {
    j = metadata;
  } else if (j.is_object() || j.is_array()) {
    for (auto& x : j) Substitute(x, metadata);
  }
}

/// The requests of `script`, completed.
inline std::vector<json> Requests(const Script& script) {
  std::vector<json> out;
  for (size_t i = 0; i < script.size(); ++i) {
    json r = json::parse(script[i]);
    const std::string op = r.value("op", "");
    if (!r.contains("id")) r["id"] = static_cast<int64_t>(i + 1);
    if (ActsOnTable(op) && !r.contains("table")) r["table"] = "t";
    if (op != "hello" && !r.contains("now-ms"))
      r["now-ms"] = static_cast<int64_t>(1000 + i + 1);
    out.push_back(std::move(r));
  }
  return out;
}

/// Runs `script` through `adapter`; one response per request (a transport failure is
/// recorded as {"transport-error": message}).
inline std::vector<json> RunScript(Adapter& adapter, const Script& script,
                                   std::vector<json>* sent = nullptr) {
  std::vector<json> responses;
  json metadata = json::object();
  for (json request : Requests(script)) {
    Substitute(request, metadata);
    if (sent != nullptr) sent->push_back(request);
    auto response = adapter.Call(request);
    if (!response) {
      responses.push_back(json{{"transport-error", response.error().message}});
      continue;
    }
    if (response->contains("metadata")) metadata = (*response)["metadata"];
    responses.push_back(std::move(*response));
  }
  return responses;
}

/// Runs `script` on a fresh builtin sample (query "" or "mutant=NAME").
inline std::vector<json> RunSample(const Script& script, const std::string& query = "",
                                   std::vector<json>* sent = nullptr) {
  auto adapter = MakeSampleAdapter(query);
  EXPECT_TRUE(adapter.has_value()) << query;
  if (!adapter) return {};
  return RunScript(**adapter, script, sent);
}

/// The current snapshot of an `ok` answer's metadata, or null.
inline json CurrentSnapshot(const json& response) {
  if (!response.contains("metadata")) return nullptr;
  const json& md = response["metadata"];
  if (!md.contains("current-snapshot-id")) return nullptr;
  for (const json& s : md.value("snapshots", json::array()))
    if (s["snapshot-id"] == md["current-snapshot-id"]) return s;
  return nullptr;
}

/// The current snapshot's constraint-statuses, or null.
inline json CurrentStatuses(const json& response) {
  json s = CurrentSnapshot(response);
  if (s.is_null() || !s.contains("constraint-statuses")) return nullptr;
  return s["constraint-statuses"];
}

/// The error kind of a rejected answer, "ok", or the result.
inline std::string Outcome(const json& response) {
  const std::string result = response.value("result", "?");
  if (result == "rejected") return response["error"].value("kind", "?");
  return result;
}

// Script pieces.

/// The schema most scripts use:
///  1 id long req, 2 qty int, 3 name string, 4 code string req, 5 s struct {6 a int req},
///  7 tags list<string> (element 8), 9 f double, 10 r struct req {11 b long req},
///  12 day date, 13 amount decimal(9,2), 14 geo geometry.
inline const char* kSchema = R"json({"type": "struct", "schema-id": 0, "fields": [
  {"id": 1, "name": "id", "required": true, "type": "long"},
  {"id": 2, "name": "qty", "required": false, "type": "int"},
  {"id": 3, "name": "name", "required": false, "type": "string"},
  {"id": 4, "name": "code", "required": true, "type": "string"},
  {"id": 5, "name": "s", "required": false, "type": {"type": "struct", "fields": [
    {"id": 6, "name": "a", "required": true, "type": "int"}]}},
  {"id": 7, "name": "tags", "required": false,
   "type": {"type": "list", "element-id": 8, "element-required": true, "element": "string"}},
  {"id": 9, "name": "f", "required": false, "type": "double"},
  {"id": 10, "name": "r", "required": true, "type": {"type": "struct", "fields": [
    {"id": 11, "name": "b", "required": true, "type": "long"}]}},
  {"id": 12, "name": "day", "required": false, "type": "date"},
  {"id": 13, "name": "amount", "required": false, "type": "decimal(9, 2)"},
  {"id": 14, "name": "geo", "required": false, "type": "geometry"}]})json";

/// kSchema without the v3 type (geometry), for v1 and v2 tables.
inline const char* kSchemaV2 = R"json({"type": "struct", "schema-id": 0, "fields": [
  {"id": 1, "name": "id", "required": true, "type": "long"},
  {"id": 2, "name": "qty", "required": false, "type": "int"},
  {"id": 3, "name": "name", "required": false, "type": "string"},
  {"id": 4, "name": "code", "required": true, "type": "string"},
  {"id": 10, "name": "r", "required": true, "type": {"type": "struct", "fields": [
    {"id": 11, "name": "b", "required": true, "type": "long"}]}}]})json";

inline std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

inline std::string Create(int format_version = 4, const std::string& schema = kSchema) {
  return fmt::format(R"({{"op": "create-table", "format-version": {}, "schema": {}}})",
                     format_version, OneLine(schema));
}

/// A schema with identifier-field-ids added.
inline std::string WithIdentifiers(const std::string& schema, const std::string& ids) {
  json j = json::parse(schema);
  j["identifier-field-ids"] = json::parse(ids);
  return j.dump();
}

inline std::string AddKey(const std::string& type, const std::string& name,
                          const std::string& ids, bool enforced) {
  return fmt::format(
      R"({{"op": "add-constraint", "constraint": {{"type": "{}", "name": "{}", "enforced": {}, "field-ids": {}}}}})",
      type, name, enforced ? "true" : "false", ids);
}
inline std::string AddPk(const std::string& ids, bool enforced = true,
                         const std::string& name = "pk") {
  return AddKey("primary-key", name, ids, enforced);
}
inline std::string AddUnique(const std::string& name, const std::string& ids,
                             bool enforced = true) {
  return AddKey("unique", name, ids, enforced);
}
inline std::string AddCheck(const std::string& name, const std::string& expression,
                            bool enforced) {
  return fmt::format(
      R"({{"op": "add-constraint", "constraint": {{"type": "check", "name": "{}", "enforced": {}, "expression": {}}}}})",
      name, enforced ? "true" : "false", expression);
}

/// `qty > 0 OR qty IS NULL`.
inline const char* kQtyPositive =
    R"({"type": "or", "left": {"type": "gt", "left": {"type": "reference", "id": 2}, "right": 0}, "right": {"type": "is-null", "child": {"type": "reference", "id": 2}}})";

/// A row of the common schema: id, qty (null when `qty` is "null"), and required fields.
inline std::string RowJson(const std::string& key, int64_t id,
                           const std::string& qty = "null",
                           const std::string& extra = "") {
  return fmt::format(
      R"({{"key": "{}", "values": {{"1": {}, "2": {}, "4": "c{}", "10": {{"11": 0}}{}}}}})",
      key, id, qty, id, extra.empty() ? "" : ", " + extra);
}

inline std::string Append(const std::vector<std::string>& rows,
                          const std::string& txn = "") {
  std::string list;
  for (const auto& r : rows) list += (list.empty() ? "" : ", ") + r;
  return fmt::format(R"({{"op": "commit", "operation": "append", "add": [{}]{}}})", list,
                     txn.empty() ? "" : fmt::format(R"(, "txn": "{}")", txn));
}

inline std::string Delete(const std::vector<std::string>& keys) {
  std::string list;
  for (const auto& k : keys) list += (list.empty() ? "\"" : ", \"") + k + "\"";
  return fmt::format(R"({{"op": "commit", "operation": "delete", "remove": [{}]}})",
                     list);
}

/// The example session of EXAMPLE-SESSION.md, verbatim.
inline Script ExampleSession() {
  return {
      R"({"op": "hello", "protocol-version": 1, "id": 1})",
      R"({"op": "create-table", "table": "orders", "now-ms": 1000, "format-version": 4, "schema": {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "order_id", "required": true, "type": "long"}, {"id": 2, "name": "qty", "required": false, "type": "int"}, {"id": 3, "name": "email", "required": false, "type": "string"}]}, "id": 2})",
      R"({"op": "add-constraint", "table": "orders", "now-ms": 1001, "constraint": {"type": "primary-key", "name": "pk", "enforced": true, "field-ids": [1]}, "id": 3})",
      R"({"op": "add-constraint", "table": "orders", "now-ms": 1002, "constraint": {"type": "check", "name": "qty_positive", "enforced": false, "expression": {"type": "or", "left": {"type": "gt", "left": {"type": "reference", "id": 2}, "right": 0}, "right": {"type": "is-null", "child": {"type": "reference", "id": 2}}}}, "id": 4})",
      R"({"op": "commit", "table": "orders", "now-ms": 1003, "operation": "append", "add": [{"key": "r1", "values": {"1": 1, "2": 5, "3": "a@x"}}, {"key": "r2", "values": {"1": 2, "2": -1, "3": null}}], "id": 5})",
      R"({"op": "commit", "table": "orders", "now-ms": 1004, "operation": "append", "add": [{"key": "r3", "values": {"1": 2, "2": 1}}], "id": 6})",
      R"({"op": "begin", "table": "orders", "now-ms": 1005, "txn": "w1", "id": 7})",
      R"({"op": "commit", "table": "orders", "now-ms": 1006, "txn": "w1", "operation": "append", "add": [{"key": "r4", "values": {"1": 3, "2": 2}}], "id": 8})",
      R"({"op": "commit", "table": "orders", "now-ms": 1007, "operation": "append", "add": [{"key": "r5", "values": {"1": 3, "2": 7}}], "id": 9})",
      R"({"op": "finish", "table": "orders", "now-ms": 1008, "txn": "w1", "id": 10})",
      R"({"op": "commit", "table": "orders", "now-ms": 1009, "operation": "delete", "remove": ["r2"], "id": 11})",
      R"({"op": "scan", "table": "orders", "id": 12})",
  };
}

/// A session that touches every op of the protocol.
inline Script EveryOp() {
  const char* udf =
      R"({"op": "define-function", "name": "pos", "deterministic": true, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})";
  const char* call =
      R"({"type": "eq", "left": {"type": "apply", "function": "pos", "arguments": [{"type": "reference", "id": 2}]}, "right": true})";
  return {
      R"({"op": "hello", "protocol-version": 1})",
      Create(3, WithIdentifiers(kSchema, "[1]")),
      Append({RowJson("r1", 1, "5"),
              RowJson("r2", 2, "-1", R"("3": "x", "12": "2017-11-16")")}),
      R"({"op": "upgrade", "format-version": 4})",
      AddCheck("c", kQtyPositive, false),
      AddUnique("u", "[3]"),
      udf,
      AddCheck("cu", call, false),
      R"({"op": "validate", "names": ["c", "pk"]})",
      R"({"op": "begin", "txn": "w"})",
      Append({RowJson("r3", 3, "7")}, "w"),
      Delete({"r2"}),
      R"({"op": "finish", "txn": "w"})",
      fmt::format(
          R"({{"op": "commit", "operation": "overwrite", "modify": [{}], "remove": ["r1"]}})",
          RowJson("r3", 3, "8")),
      R"({"op": "update-constraint", "name": "u", "set": {"name": "u2", "enforced": false}})",
      R"({"op": "update-schema", "changes": [{"action": "add-column", "name": "extra", "type": "int", "required": false}, {"action": "rename-column", "id": 3, "name": "nm"}]})",
      R"({"op": "remove-constraint", "name": "cu"})",
      R"({"op": "commit", "operation": "replace"})",
      R"({"op": "scan"})",
      R"({"op": "scan", "snapshot-id": 1})",
      R"({"op": "load-table"})",
      R"({"op": "read-statuses", "metadata": "$metadata"})",
      R"({"op": "parse-metadata", "metadata": "$metadata"})",
      Append({RowJson("r9", 3)}),
      R"({"op": "no-such-op"})",
  };
}

}  // namespace ictk::sample_test
