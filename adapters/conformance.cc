/// \file
/// The scripted conformance session (conformance.h). The requests are written out as JSON
/// so that the session doubles as an example of every message.
#include "adapters/conformance.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "adapters/envelope.h"
#include "adapters/session.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "model/judge/capability.h"

namespace ictk {
namespace {

using nlohmann::json;

constexpr const char* kTable = "ictk_validate_orders";
constexpr const char* kUpgradeTable = "ictk_validate_legacy";

json Parse(const char* text) { return json::parse(text); }

class Session {
 public:
  explicit Session(Adapter& adapter) : adapter_(adapter) {}

  ConformanceReport Run();

 private:
  /// The writer session: a table at the highest declared format version, its ops.
  ConformanceReport RunWriter();
  /// Its steps, in order: the table, constraints, commits, a transaction, functions and
  /// schema evolution, reads, the upgrade of an older table.
  bool WriterCreate();
  void WriterConstraints();
  std::optional<int64_t> WriterCommits();
  void WriterTransaction();
  void WriterFunctionsAndSchema();
  void WriterReads(std::optional<int64_t> first_snapshot);
  void WriterUpgrade();
  /// Keeps the metadata (and the current schema's fields) of an `ok` answer.
  void Remember(const std::optional<Response>& r);
  /// A request on kTable.
  nlohmann::json TableOp(const char* text) const;
  /// The reader script of a reader profile: parse-metadata and read-statuses only.
  ConformanceReport RunReader();
  bool DeclaresVersion(int32_t v) const;
  /// Fails the last step when it refused a declared `version` as
  /// unsupported-format-version (`what`: the request, in words).
  void RefusedDeclaredVersion(int32_t version, const std::string& what);
  bool Declared(const std::string& capability) const {
    // Required by a constraint type at v4, narrowed by hello's `constraint-ops`: what the
    // generators send (Capabilities::SendsConstraintOp).
    if (IsConstraintOp(capability)) return declared_.SendsConstraintOp(capability);
    return capability.empty() || Lists(report_.capabilities, capability);
  }
  static bool Lists(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  }
  static bool IsConstraintOp(const std::string& name) {
    const auto& ops = ConstraintOpNames();
    return std::find(ops.begin(), ops.end(), name) != ops.end();
  }
  /// Why an op of `capability` must be answered (validate-adapter names it).
  std::string WhyRequired(const std::string& capability) const {
    if (capability.empty()) return "every adapter must answer this op";
    if (!IsConstraintOp(capability))
      return fmt::format("capability `{}` is declared", capability);
    return report_.constraint_ops
               ? fmt::format("`constraint-ops` lists `{}`", capability)
               : "a constraint type (check, unique, primary-key) is declared and hello has "
                 "no `constraint-ops`, so every constraint op must be answered (declare "
                 "`constraint-ops` to narrow them; docs/protocol.md section 9)";
  }
  bool AnyDeclared(std::initializer_list<const char*> caps) const {
    for (const char* c : caps)
      if (Declared(c)) return true;
    return false;
  }

  /// Sends `request` (id and, for table ops, now-ms added) and records the step. Returns
  /// the decoded response when the step conforms and the answer is `ok`.
  std::optional<Response> Step(const std::string& what, const std::string& capability,
                               json request, bool must_be_unsupported = false);
  void Skip(const std::string& op, const std::string& what, const std::string& capability,
            const std::string& why) {
    ConformanceStep s;
    s.op = op;
    s.what = what;
    s.capability = capability;
    s.verdict = StepVerdict::kSkipped;
    s.detail = why;
    s.result = "-";
    report_.steps.push_back(std::move(s));
  }
  std::string Table(const char* name) const { return name; }

  Adapter& adapter_;
  ConformanceReport report_;
  int64_t next_id_ = 1;
  int64_t now_ms_ = 1700000000000;
  std::optional<json> last_metadata_;  ///< the latest metadata JSON of kTable
  std::vector<NestedField> fields_;    ///< its current schema's fields
  int32_t fv_ = 0;                     ///< the writer session's format version
  Capabilities declared_;              ///< what hello declared (CapabilitiesOf)
  struct {
    std::optional<std::string> check, key, extra;
  } names_;  ///< the constraints the writer session added (by their current names)
};

std::optional<Response> Session::Step(const std::string& what,
                                      const std::string& capability, json request,
                                      bool must_be_unsupported) {
  ConformanceStep s;
  s.op = RequestOpName(request);
  s.what = what;
  s.capability = capability;
  request["id"] = next_id_++;
  if (s.op != "hello") request["now-ms"] = now_ms_++;
  s.request = request;
  auto answer = adapter_.Call(request);
  if (!answer) {
    s.verdict = StepVerdict::kFail;
    auto failure = TransportFailureOf(answer.error());
    s.result = failure ? std::string(ToString(*failure)) : "failure";
    s.detail = answer.error().message;
    std::string tail = adapter_.StderrTail();
    if (!tail.empty())
      s.detail += fmt::format(" (stderr ends: \"{}\")",
                              Excerpt(std::string_view(tail).substr(
                                          tail.size() > 200 ? tail.size() - 200 : 0),
                                      200));
    s.response = nullptr;
    report_.steps.push_back(std::move(s));
    return std::nullopt;
  }
  s.response = *answer;
  std::string envelope = EnvelopeProblem(request, *answer);
  const std::vector<NestedField>* fields = fields_.empty() ? nullptr : &fields_;
  auto decoded = ResponseForOpFromJson(s.op, *answer, fields);
  if (!envelope.empty()) {
    s.verdict = StepVerdict::kFail;
    s.result = "protocol-error";
    s.detail = envelope;
  } else if (!decoded) {
    s.verdict = StepVerdict::kFail;
    s.result = answer->value("result", std::string("?"));
    s.detail = "schema error at " + decoded.error().message;
  } else {
    s.result = std::string(ToString(decoded->result));
    if (decoded->result == Response::Result::kRejected)
      s.result += " (" + decoded->error_kind.value_or("") + ")";
    switch (decoded->result) {
      case Response::Result::kUnsupported:
        if (must_be_unsupported) break;
        if (Declared(capability)) {
          s.verdict = StepVerdict::kFail;
          s.detail = "unsupported, but " + WhyRequired(capability);
        } else {
          s.verdict = StepVerdict::kUnsupported;
          s.detail = "not declared";
        }
        break;
      case Response::Result::kError:
        s.verdict = StepVerdict::kFail;
        s.detail = "the implementation answered error: " + decoded->message;
        break;
      case Response::Result::kOk:
      case Response::Result::kRejected:
        if (must_be_unsupported) {
          s.verdict = StepVerdict::kFail;
          s.detail = "expected `unsupported`";
        }
        break;
    }
  }
  bool ok = s.verdict == StepVerdict::kOk && decoded &&
            decoded->result == Response::Result::kOk;
  std::optional<Response> out;
  if (ok) out = *decoded;
  report_.steps.push_back(std::move(s));
  return out;
}

ConformanceReport Session::Run() {
  // 1. Handshake.
  auto hello = Step("handshake", "", Parse(R"({"op": "hello", "protocol-version": 1})"));
  if (!hello || !hello->hello) {
    if (!report_.steps.empty() && report_.steps.back().verdict == StepVerdict::kOk) {
      report_.steps.back().verdict = StepVerdict::kFail;
      report_.steps.back().detail = "hello must be answered ok";
    }
    return report_;
  }
  {
    ConformanceStep& s = report_.steps.back();
    report_.hello = s.response;
    report_.capabilities = hello->hello->capabilities;
    report_.format_versions = hello->hello->format_versions;
    report_.constraint_ops = hello->hello->constraint_ops;
    report_.expression_operators = hello->hello->expression_operators;
    declared_ = CapabilitiesOf(*hello->hello);
    std::vector<std::string> problems;
    if (hello->hello->protocol_version != kProtocolVersion)
      problems.push_back(fmt::format("/protocol-version: {} (expected {})",
                                     hello->hello->protocol_version, kProtocolVersion));
    const auto& known = AllCapabilities();
    std::set<std::string> seen;
    for (size_t i = 0; i < report_.capabilities.size(); ++i) {
      const std::string& c = report_.capabilities[i];
      if (std::find(known.begin(), known.end(), c) == known.end())
        problems.push_back(
            fmt::format("/capabilities/{}: unknown capability \"{}\"", i, c));
      if (!seen.insert(c).second)
        problems.push_back(fmt::format("/capabilities/{}: \"{}\" listed twice", i, c));
    }
    for (size_t i = 0; i < report_.format_versions.size(); ++i) {
      int32_t v = report_.format_versions[i];
      if (v < 1 || v > 4)
        problems.push_back(
            fmt::format("/format-versions/{}: unknown format version {}", i, v));
    }
    // An honest v1-v3 implementation lists no 4: that is a profile, not a fault
    // (docs/protocol.md section 9). Only a list without any known version is.
    if (std::none_of(report_.format_versions.begin(), report_.format_versions.end(),
                     [](int32_t v) { return v >= 1 && v <= 4; }))
      problems.push_back("/format-versions: no known format version (1-4) is listed");
    report_.writer = hello->hello->profile != kReaderProfile;
    if (!problems.empty()) {
      s.verdict = StepVerdict::kFail;
      s.detail = fmt::format("{}", fmt::join(problems, "; "));
    }
  }
  Step("an unsupported protocol version", "",
       Parse(R"({"op": "hello", "protocol-version": 99})"), /*must_be_unsupported=*/true);
  Step("an unknown op", "", Parse(R"({"op": "ictk-no-such-op", "table": "x"})"),
       /*must_be_unsupported=*/true);
  if (!report_.writer) return RunReader();
  return RunWriter();
}

bool Session::DeclaresVersion(int32_t v) const {
  return std::find(report_.format_versions.begin(), report_.format_versions.end(), v) !=
         report_.format_versions.end();
}

void Session::RefusedDeclaredVersion(int32_t version, const std::string& what) {
  ConformanceStep& s = report_.steps.back();
  if (s.verdict != StepVerdict::kOk ||
      s.result != "rejected (unsupported-format-version)")
    return;
  s.verdict = StepVerdict::kFail;
  s.detail = fmt::format(
      "format-versions lists {}, yet {} was refused as unsupported-format-version{}",
      version, what,
      version == 4 ? ": a false claim of format version 4 (drop 4 from format-versions "
                     "for a v1-v3 implementation)"
                   : "");
}

ConformanceReport Session::RunWriter() {
  // 2. A table at the highest declared format version: v4, or for a v1-v3 writer the
  // highest it has (never a version it did not declare).
  for (int32_t v : report_.format_versions)
    if (v >= 1 && v <= 4) fv_ = std::max(fv_, v);
  if (fv_ == 0) {
    for (const std::string& op : AllOps())
      if (op != "hello") Skip(op, "-", "", "no known format version declared");
    return report_;
  }
  if (!WriterCreate()) return report_;
  Remember(Step("the current metadata", "", TableOp(R"({"op": "load-table"})")));
  WriterConstraints();
  const std::optional<int64_t> first_snapshot = WriterCommits();
  WriterTransaction();
  WriterFunctionsAndSchema();
  WriterReads(first_snapshot);
  WriterUpgrade();
  return report_;
}

void Session::Remember(const std::optional<Response>& r) {
  if (!r || !r->metadata_json) return;
  last_metadata_ = *r->metadata_json;
  if (const Schema* s = r->metadata->CurrentSchema()) fields_ = s->fields;
}

json Session::TableOp(const char* text) const {
  json j = Parse(text);
  j["table"] = kTable;
  return j;
}

bool Session::WriterCreate() {
  json create = Parse(R"({"op": "create-table", "format-version": 4, "schema": {
      "type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "order_id", "required": true, "type": "long"},
        {"id": 2, "name": "qty", "required": false, "type": "int"},
        {"id": 3, "name": "email", "required": false, "type": "string"},
        {"id": 4, "name": "placed", "required": false, "type": "date"}]}})");
  create["table"] = kTable;
  create["format-version"] = fv_;
  auto created = Step(fmt::format("a v{} table", fv_), "", create);
  RefusedDeclaredVersion(fv_, fmt::format("a v{} create-table", fv_));
  Remember(created);
  if (!created) {
    for (const std::string& op : AllOps()) {
      if (op != "hello" && op != "create-table")
        Skip(op, "-", "", "create-table did not succeed");
    }
    return false;
  }
  return true;
}

void Session::WriterConstraints() {
  const bool v4 = fv_ == 4;
  // 3. Constraints (v4 only: a v1-v3 writer is sent none).
  if (!v4) {
    for (const char* op :
         {"add-constraint", "update-constraint", "remove-constraint", "validate"})
      Skip(op, "-", "", "format version 4 not declared (constraints are a v4 feature)");
  }
  const bool adds = v4 && Declared("add-constraint");
  if (v4 && !adds && AnyDeclared({"check", "unique", "primary-key"}))
    Skip("add-constraint", "-", "add-constraint", "not in constraint-ops");
  if (adds && Declared("primary-key")) {
    if (Step("an enforced primary key", "primary-key", TableOp(R"({"op": "add-constraint",
        "constraint": {"type": "primary-key", "name": "pk", "enforced": true,
                       "field-ids": [1]}})"))) {
      names_.key = "pk";
    }
  }
  if (adds && Declared("unique")) {
    auto r = Step("a unique constraint, not enforced", "unique",
                  TableOp(R"({"op": "add-constraint", "constraint": {"type": "unique",
                      "name": "email_unique", "enforced": false, "field-ids": [3]}})"));
    if (r) {
      Remember(r);
      (names_.key ? names_.extra : names_.key) = "email_unique";
    }
  }
  if (adds && Declared("check")) {
    json add = TableOp(R"({"op": "add-constraint", "constraint": {"type": "check",
        "name": "qty_positive", "enforced": false, "expression": {"type": "or",
        "left": {"type": "gt", "left": {"type": "reference", "id": 2}, "right": 0},
        "right": {"type": "is-null", "child": {"type": "reference", "id": 2}}}}})");
    // Only declared operators: else the check of last resort (kRequiredOperator).
    const auto& ops = report_.expression_operators;
    if (ops && !(Lists(*ops, "or") && Lists(*ops, "gt") && Lists(*ops, "is-null")))
      add["constraint"]["expression"] = {{"type", std::string(kRequiredOperator)},
                                         {"child", {{"type", "reference"}, {"id", 2}}}};
    auto r = Step("a check constraint, not enforced", "check", add);
    if (r) {
      Remember(r);
      names_.check = "qty_positive";
    }
  }
  if (v4 && !AnyDeclared({"check", "unique", "primary-key"})) {
    Skip("add-constraint", "-", "check|unique|primary-key",
         "no constraint type declared");
  }
  if (v4 && (names_.check || names_.key) && !Declared("update-constraint")) {
    Skip("update-constraint", "-", "update-constraint", "not in constraint-ops");
  } else if (v4 && (names_.check || names_.key)) {
    const std::string old_name = names_.check ? *names_.check : *names_.key;
    const std::string new_name = old_name + "_renamed";
    json update = TableOp(R"({"op": "update-constraint", "set": {}})");
    update["name"] = old_name;
    update["set"]["name"] = new_name;
    auto r = Step("rename a constraint", "update-constraint", update);
    if (r) {
      Remember(r);
      (names_.check ? names_.check : names_.key) = new_name;
    }
  } else if (v4) {
    Skip("update-constraint", "-", "check|unique|primary-key", "no constraint was added");
  }
}

std::optional<int64_t> Session::WriterCommits() {
  // 4. Commits.
  auto first =
      Step("append two rows", "", TableOp(R"({"op": "commit", "operation": "append",
      "add": [{"key": "r1", "values": {"1": 1, "2": 5, "3": "a@example.com", "4": "2024-01-31"}},
              {"key": "r2", "values": {"1": 2, "2": -1, "3": null}}]})"));
  Remember(first);
  std::optional<int64_t> first_snapshot;
  if (first && first->metadata) first_snapshot = first->metadata->current_snapshot_id;
  if (names_.key) {
    Remember(Step("append a duplicate key (may be rejected)", "",
                  TableOp(R"({"op": "commit", "operation": "append",
                      "add": [{"key": "r3", "values": {"1": 1, "2": 7}}]})")));
  }
  if (Declared("modify-rows")) {
    Remember(Step("modify a row", "modify-rows",
                  TableOp(R"({"op": "commit", "operation": "overwrite",
                      "modify": [{"key": "r1", "values": {"1": 1, "2": 6, "3": "a@example.com"}}]})")));
  } else {
    Skip("commit", "modify a row", "modify-rows", "not declared");
  }
  Remember(Step("delete a row", "", TableOp(R"({"op": "commit", "operation": "delete",
      "remove": ["r2"]})")));
  Remember(Step("rewrite data files", "",
                TableOp(R"({"op": "commit", "operation": "replace"})")));

  return first_snapshot;
}

void Session::WriterTransaction() {
  // 5. A transaction with a concurrent commit in between.
  if (Declared("concurrent-commits")) {
    Remember(Step("open a transaction", "concurrent-commits",
                  TableOp(R"({"op": "begin", "txn": "w1"})")));
    Step("stage a commit", "concurrent-commits",
         TableOp(R"({"op": "commit", "operation": "append", "txn": "w1",
             "add": [{"key": "r4", "values": {"1": 4, "2": 2}}]})"));
    Remember(Step("a concurrent commit", "", TableOp(R"({"op": "commit",
        "operation": "append", "add": [{"key": "r5", "values": {"1": 5, "2": 3}}]})")));
    Remember(Step("finish (retry on the new parent)", "concurrent-commits",
                  TableOp(R"({"op": "finish", "txn": "w1"})")));
  } else {
    Skip("begin", "-", "concurrent-commits", "not declared");
    Skip("finish", "-", "concurrent-commits", "not declared");
  }
}

void Session::WriterFunctionsAndSchema() {
  const bool v4 = fv_ == 4;
  // 6. Functions, validation, schema evolution.
  if (Declared("udf")) {
    Step("a deterministic UDF", "udf", Parse(R"({"op": "define-function",
        "name": "ictk_validate_positive", "deterministic": true,
        "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean",
        "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})"));
  } else {
    Skip("define-function", "-", "udf", "not declared");
  }
  if (v4 && Declared("validate") && (names_.check || names_.key)) {
    json v = TableOp(R"({"op": "validate", "names": []})");
    v["names"].push_back(names_.check ? *names_.check : *names_.key);
    Remember(Step("validate a constraint", "validate", v));
  } else if (v4) {
    Skip("validate", "-", "validate",
         Declared("validate") ? "no constraint was added" : "not declared");
  }
  if (Declared("schema-evolution")) {
    Remember(Step("add a column", "schema-evolution",
                  TableOp(R"({"op": "update-schema", "changes": [{"action": "add-column",
                      "name": "note", "type": "string", "required": false}]})")));
  } else {
    Skip("update-schema", "-", "schema-evolution", "not declared");
  }
}

void Session::WriterReads(std::optional<int64_t> first_snapshot) {
  const bool v4 = fv_ == 4;
  // 7. Reading.
  Step("the live rows", "", TableOp(R"({"op": "scan"})"));
  if (first_snapshot) {
    json scan = TableOp(R"({"op": "scan"})");
    scan["snapshot-id"] = *first_snapshot;
    // Rows of an older snapshot are typed by that snapshot's schema; the first four
    // fields are the same in every schema of this session.
    Step("the rows of the first snapshot", "", scan);
  }
  if (Declared("reader") && last_metadata_) {
    json r = Parse(R"({"op": "read-statuses"})");
    r["metadata"] = *last_metadata_;
    Step("a reader's statuses", "reader", r);
  } else {
    Skip("read-statuses", "-", "reader",
         Declared("reader") ? "no metadata" : "not declared");
  }
  if (Declared("parse-metadata") && last_metadata_) {
    json p = Parse(R"({"op": "parse-metadata"})");
    p["metadata"] = *last_metadata_;
    Step("re-serialize metadata", "parse-metadata", p);
  } else {
    Skip("parse-metadata", "-", "parse-metadata",
         Declared("parse-metadata") ? "no metadata" : "not declared");
  }
  if (v4 && (names_.check || names_.key) && !Declared("remove-constraint")) {
    Skip("remove-constraint", "-", "remove-constraint", "not in constraint-ops");
  } else if (v4 && (names_.extra || (names_.check && names_.key))) {
    json r = TableOp(R"({"op": "remove-constraint"})");
    r["name"] = names_.extra ? *names_.extra : *names_.check;
    Remember(Step("remove a constraint", "remove-constraint", r));
  } else if (v4 && (names_.check || names_.key)) {
    json r = TableOp(R"({"op": "remove-constraint"})");
    r["name"] = names_.check ? *names_.check : *names_.key;
    Remember(Step("remove a constraint", "remove-constraint", r));
  } else if (v4) {
    Skip("remove-constraint", "-", "check|unique|primary-key", "no constraint was added");
  }
  Step("an unknown table (may be rejected)", "",
       Parse(R"({"op": "load-table", "table": "ictk_validate_no_such_table"})"));
}

void Session::WriterUpgrade() {
  const bool v4 = fv_ == 4;
  const int32_t fv = fv_;
  // 8. Upgrade a v3 table with identifier fields (a v1-v3 writer: its lowest declared
  // version to its highest).
  bool v3 = DeclaresVersion(3);
  int32_t lowest = 5;
  for (int32_t v : report_.format_versions)
    if (v >= 1) lowest = std::min(lowest, v);
  if (Declared("upgrade") && !v4 && lowest < fv) {
    json legacy = Parse(R"({"op": "create-table", "schema": {
        "type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "v", "required": false, "type": "string"}]}})");
    legacy["table"] = kUpgradeTable;
    legacy["format-version"] = lowest;
    if (Step(fmt::format("a v{} table", lowest), "upgrade", legacy)) {
      json up = Parse(R"({"op": "upgrade"})");
      up["table"] = kUpgradeTable;
      up["format-version"] = fv;
      Step(fmt::format("upgrade it to v{}", fv), "upgrade", up);
      RefusedDeclaredVersion(fv, fmt::format("an upgrade to v{}", fv));
    }
  } else if (Declared("upgrade") && v4 && v3) {
    json legacy = Parse(R"({"op": "create-table", "format-version": 3, "schema": {
        "type": "struct", "schema-id": 0, "identifier-field-ids": [1], "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "v", "required": false, "type": "string"}]}})");
    legacy["table"] = kUpgradeTable;
    if (Step("a v3 table with identifier fields", "upgrade", legacy)) {
      json up = Parse(R"({"op": "upgrade", "format-version": 4})");
      up["table"] = kUpgradeTable;
      Step("upgrade it to v4", "upgrade", up);
      RefusedDeclaredVersion(4, "an upgrade to v4");
    }
  } else {
    Skip("upgrade", "-", "upgrade",
         !Declared("upgrade") ? "not declared"
         : v4                 ? "format version 3 not declared"
                              : "a single format version declared");
  }
}

namespace {

/// Table metadata at `version` that a reader is given: one table, three columns; from v4
/// with a primary key (not enforced) and a check, and a snapshot listing their statuses.
json ReaderMetadata(int32_t version) {
  json md = Parse(R"({"format-version": 3,
      "table-uuid": "00000000-0000-4000-8000-0000000c0ffe",
      "location": "memory://ictk_validate_reader", "last-updated-ms": 1700000001000,
      "last-column-id": 3, "current-schema-id": 0,
      "schemas": [{"type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "id", "required": true, "type": "long"},
        {"id": 2, "name": "qty", "required": false, "type": "int"},
        {"id": 3, "name": "name", "required": false, "type": "string"}]}],
      "partition-specs": [{"spec-id": 0, "fields": []}], "default-spec-id": 0,
      "last-partition-id": 999, "sort-orders": [{"order-id": 0, "fields": []}],
      "default-sort-order-id": 0, "snapshots": []})");
  md["format-version"] = version;
  if (version == 1) {
    md["schema"] = md["schemas"][0];
    md["partition-spec"] = json::array();
  }
  if (version >= 2) md["last-sequence-number"] = 1;
  if (version >= 3) md["next-row-id"] = 2;
  json snapshot = Parse(R"({"snapshot-id": 1, "timestamp-ms": 1700000001000,
      "manifest-list": "memory://snap-1.avro", "summary": {"operation": "append"},
      "schema-id": 0})");
  if (version >= 2) snapshot["sequence-number"] = 1;
  if (version >= 3) {
    snapshot["first-row-id"] = 0;
    snapshot["added-rows"] = 2;
  }
  if (version >= 4) {
    md["last-constraint-id"] = 2;
    md["constraints"] = Parse(R"([
        {"constraint-id": 1, "type": "primary-key", "name": "pk", "enforced": false,
         "field-ids": [1], "timestamp-ms": 1700000000000},
        {"constraint-id": 2, "type": "check", "name": "qty_positive", "enforced": false,
         "timestamp-ms": 1700000000000, "expression": {"type": "gt",
         "left": {"type": "reference", "id": 2}, "right": 0}}])");
    snapshot["constraint-statuses"] = Parse(R"({"validated": [1], "unvalidated": [2]})");
  }
  md["snapshots"].push_back(snapshot);
  md["current-snapshot-id"] = 1;
  md["refs"] = Parse(R"({"main": {"snapshot-id": 1, "type": "branch"}})");
  return md;
}

}  // namespace

ConformanceReport Session::RunReader() {
  // A reader profile is sent only parse-metadata and read-statuses (docs/protocol.md
  // section 9): metadata at every declared version must be read, and v4 metadata given
  // to a v1-v3 reader may be refused.
  if (!Declared("parse-metadata") && !Declared("reader")) {
    Skip("parse-metadata", "-", "parse-metadata", "not declared");
    Skip("read-statuses", "-", "reader", "not declared");
    return report_;
  }
  for (int32_t v = 1; v <= 4; ++v) {
    const bool declared = DeclaresVersion(v);
    // Undeclared versions below 4 are not tried; v4 metadata always is: a v1-v3 reader
    // must refuse it or read it safely.
    if (!declared && v != 4) continue;
    const json md = ReaderMetadata(v);
    const std::string what =
        fmt::format("v{} metadata{}", v, declared ? "" : " (may be refused)");
    if (Declared("parse-metadata")) {
      json p = Parse(R"({"op": "parse-metadata"})");
      p["metadata"] = md;
      Step("re-serialize " + what, "parse-metadata", p);
      if (declared) RefusedDeclaredVersion(v, fmt::format("v{} metadata", v));
    } else {
      Skip("parse-metadata", what, "parse-metadata", "not declared");
    }
    if (Declared("reader")) {
      json r = Parse(R"({"op": "read-statuses"})");
      r["metadata"] = md;
      Step("the statuses of " + what, "reader", r);
      if (declared) RefusedDeclaredVersion(v, fmt::format("v{} metadata", v));
    } else {
      Skip("read-statuses", what, "reader", "not declared");
    }
  }
  return report_;
}

}  // namespace

ConformanceReport RunConformanceSession(Adapter& adapter) {
  return Session(adapter).Run();
}

}  // namespace ictk
