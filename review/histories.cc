/// \file
/// The histories written for the review (review.h ReviewHistory): where generated
/// histories do not reach a switch or an open point, a history as short as a person would
/// write it, on a table of one to three plainly named columns.
#include <fmt/format.h>

#include "codec/json_table_metadata.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "model/judge/operations.h"
#include "review/review.h"

namespace ictk {
namespace {

using json = nlohmann::json;

// The requests the histories share.
constexpr std::string_view kCreateA =
    R"({"op":"create-table","format-version":4,"schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":false,"type":"int"}]}})";
constexpr std::string_view kCreateAB =
    R"({"op":"create-table","format-version":4,"schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":false,"type":"int"},{"id":2,"name":"b","required":false,"type":"string"}]}})";
constexpr std::string_view kUniqueA =
    R"({"op":"add-constraint","constraint":{"type":"unique","name":"c","enforced":true,"field-ids":[1]}})";
constexpr std::string_view kAppendA0 =
    R"({"op":"commit","operation":"append","add":[{"key":"r1","values":{"1":0}}]})";
constexpr std::string_view kAppendA1 =
    R"({"op":"commit","operation":"append","add":[{"key":"r2","values":{"1":1}}]})";
constexpr std::string_view kReplace = R"({"op":"commit","operation":"replace"})";
constexpr std::string_view kValidateC = R"({"op":"validate","names":["c"]})";
constexpr std::string_view kDefineF =
    R"({"op":"define-function","name":"f","parameters":[{"name":"x","type":"int"}],"return-type":"boolean","deterministic":true,"body":{"type":"gt","left":{"type":"parameter","name":"x"},"right":0}})";
constexpr std::string_view kCheckF =
    R"({"op":"add-constraint","constraint":{"type":"check","name":"c","enforced":false,"expression":{"type":"eq","left":{"type":"apply","function":"f","arguments":[{"type":"reference","id":1}]},"right":true}}})";
constexpr std::string_view kReadStatuses = R"({"op":"read-statuses","metadata":"@"})";
constexpr std::string_view kParseMetadata = R"({"op":"parse-metadata","metadata":"@"})";

/// The current snapshot of `metadata` (JSON), or nullptr.
json* CurrentSnapshot(json& metadata) {
  if (!metadata.contains("current-snapshot-id") || !metadata.contains("snapshots"))
    return nullptr;
  for (json& s : metadata["snapshots"])
    if (s["snapshot-id"] == metadata["current-snapshot-id"]) return &s;
  return nullptr;
}

/// Moves every ID of the current snapshot's status lists into `list`, listed `times`
/// times.
void ListAllIn(json& metadata, const char* list, int times) {
  json* s = CurrentSnapshot(metadata);
  if (!s || !s->contains("constraint-statuses")) return;
  json& st = (*s)["constraint-statuses"];
  json ids = json::array();
  for (auto& [name, l] : st.items())
    for (const json& id : l) ids.push_back(id);
  for (auto& [name, l] : st.items()) l = json::array();
  for (int i = 0; i < times; ++i)
    for (const json& id : ids) st[list].push_back(id);
}

}  // namespace

std::vector<ReviewHistory> SwitchHistories(std::string_view name) {
  std::vector<ReviewHistory> out;
  if (name == "name-case") {
    // Two constraints whose names differ only in case.
    out.push_back({"names-differ-in-case", "",
                   {kCreateA, kUniqueA,
                    R"({"op":"add-constraint","constraint":{"type":"check","name":"C","enforced":false,"expression":{"type":"not-null","child":{"type":"reference","id":1}}}})"},
                   nullptr});
  } else if (name == "key-promotions") {
    // A key field promoted from int to long.
    out.push_back(
        {"promote-key-field", "",
         {kCreateA, kUniqueA,
          R"({"op":"update-schema","changes":[{"action":"update-column-type","id":1,"type":"long"}]})"},
         nullptr});
  } else if (name == "compaction-counts-as-added") {
    // A compaction after an append checked against the enforced constraint: whether it
    // may carry the status shows only where a carry is required (status-carry=must).
    out.push_back({"compaction-after-append", "status-carry=must",
                   {kCreateA, kUniqueA, kAppendA0, kReplace},
                   nullptr});
  } else if (name == "udf-check-carries-invalid") {
    // A check calling a UDF, `invalid` after a row that breaks it; the validation that
    // follows removes no row.
    out.push_back({"udf-check-invalid-then-validate", "status-carry=must",
                   {kDefineF, kCreateA, kCheckF, kAppendA0, kValidateC},
                   nullptr});
  }
  return out;
}

std::vector<ReviewHistory> OpenPointHistories(std::string_view title) {
  std::vector<ReviewHistory> out;
  auto is = [&](std::string_view prefix) { return title.substr(0, prefix.size()) == prefix; };
  if (is("an ID listed twice")) {
    out.push_back({"id-listed-twice", "",
                   {kCreateA, kUniqueA, kAppendA0, kValidateC, kReadStatuses},
                   [](json& md) { ListAllIn(md, "validated", 2); }});
  } else if (is("constraint ID 0 or less")) {
    out.push_back({"constraint-id-above-last", "",
                   {kCreateA, kUniqueA, kAppendA0, kReadStatuses},
                   [](json& md) {
                     for (json& c : md["constraints"]) c["constraint-id"] = 7;
                     json* s = CurrentSnapshot(md);
                     if (s && s->contains("constraint-statuses"))
                       for (auto& [n, l] : (*s)["constraint-statuses"].items())
                         for (json& id : l) id = 7;
                   }});
  } else if (is("statuses that contradict")) {
    // The current snapshot says `valid` while its parent says `unvalidated`.
    out.push_back({"valid-after-unvalidated", "",
                   {kCreateA, kUniqueA, kAppendA0, kAppendA1, kParseMetadata},
                   [](json& md) {
                     json* s = CurrentSnapshot(md);
                     if (!s) return;
                     ListAllIn(md, "valid", 1);
                     for (json& p : md["snapshots"])
                       if (s->contains("parent-snapshot-id") &&
                           p["snapshot-id"] == (*s)["parent-snapshot-id"] &&
                           p.contains("constraint-statuses")) {
                         json ids = json::array();
                         for (auto& [n, l] : p["constraint-statuses"].items()) {
                           for (const json& id : l) ids.push_back(id);
                           l = json::array();
                         }
                         p["constraint-statuses"]["unvalidated"] = ids;
                       }
                   }});
  } else if (is("`valid` recorded for a check that calls a UDF")) {
    out.push_back({"udf-check-valid", "",
                   {kDefineF, kCreateA, kCheckF, kAppendA0, kParseMetadata},
                   [](json& md) { ListAllIn(md, "valid", 1); }});
  } else if (is("changing the type of a check-referenced field")) {
    out.push_back(
        {"retype-while-removing-check", "",
         {kCreateA,
          R"({"op":"add-constraint","constraint":{"type":"check","name":"c","enforced":false,"expression":{"type":"not-null","child":{"type":"reference","id":1}}}})",
          R"({"op":"update-schema","changes":[{"action":"update-column-type","id":1,"type":"long"}],"remove-constraints":["c"]})"},
         nullptr});
  } else if (is("a UDF redefined as not deterministic")) {
    out.push_back(
        {"udf-redefined-not-deterministic", "",
         {kDefineF, kCreateA,
          R"({"op":"add-constraint","constraint":{"type":"check","name":"c","enforced":true,"expression":{"type":"eq","left":{"type":"apply","function":"f","arguments":[{"type":"reference","id":1}]},"right":true}}})",
          R"({"op":"define-function","name":"f","parameters":[{"name":"x","type":"int"}],"return-type":"boolean","deterministic":false,"body":{"type":"gt","left":{"type":"parameter","name":"x"},"right":0}})",
          R"({"op":"commit","operation":"append","add":[{"key":"r1","values":{"1":1}}]})"},
         nullptr});
  } else if (is("a check calling a function the catalog does not define")) {
    out.push_back(
        {"check-calls-undefined-function", "",
         {kCreateA,
          R"({"op":"add-constraint","constraint":{"type":"check","name":"c","enforced":true,"expression":{"type":"eq","left":{"type":"apply","function":"g","arguments":[{"type":"reference","id":1}]},"right":true}}})"},
         nullptr});
  } else if (is("an expression that does not bind")) {
    out.push_back(
        {"compare-string-with-int", "",
         {kCreateAB,
          R"({"op":"add-constraint","constraint":{"type":"check","name":"c","enforced":true,"expression":{"type":"lt","left":{"type":"reference","id":2},"right":1}}})"},
         nullptr});
  } else if (is("def.by-field-id")) {
    out.push_back(
        {"reference-by-name", "",
         {kCreateA,
          R"({"op":"add-constraint","constraint":{"type":"check","name":"c","enforced":true,"expression":{"type":"not-null","child":{"type":"reference","term":"a"}}}})"},
         nullptr});
  } else if (is("`timestamp-ms` on an update that changes nothing")) {
    out.push_back({"update-to-the-same-values", "",
                   {kCreateA, kUniqueA,
                    R"({"op":"update-constraint","name":"c","set":{"name":"c","enforced":true}})"},
                   nullptr});
  } else if (is("the `name` and `enforced` of an `add-constraint` request")) {
    out.push_back(
        {"add-constraint-without-enforced", "",
         {kCreateA,
          R"({"op":"add-constraint","constraint":{"type":"unique","name":"c","field-ids":[1]}})"},
         nullptr});
  }
  return out;
}

Result<std::vector<Request>> BuildHistory(const ReviewHistory& history,
                                          const Switches& switches) {
  std::vector<Request> out;
  CatalogState state;
  int64_t now = 1'700'000'000'000;
  for (std::string_view text : history.requests) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return MakeError(ErrorKind::kParse,
                 fmt::format("history {}: not a JSON object: {}", history.name, text));
    const std::string op = j.value("op", "");
    if (op != "define-function" && op != "read-statuses" && op != "parse-metadata")
      j["table"] = "t";
    j["now-ms"] = now;
    now += 1000;
    if (j.contains("metadata") && j["metadata"] == "@") {
      const TableState* t = state.FindTable("t");
      if (t == nullptr)
        return MakeError(ErrorKind::kParse,
                   fmt::format("history {}: metadata before the table exists", history.name));
      j["metadata"] = TableMetadataToJson(t->metadata);
      if (history.edit) history.edit(j["metadata"]);
    }
    Result<Request> r = RequestFromJson(j);
    if (!r)
      return MakeError(ErrorKind::kParse, fmt::format("history {}: {}: {}", history.name,
                                                r.error().message, text));
    const AllowedOutcome o = Apply(state, *r, switches);
    const Answer a = CanonicalAnswer(state, *r, o, switches);
    Adopt(state, *r, a, switches);
    out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace ictk
