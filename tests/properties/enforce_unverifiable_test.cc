// Setting `enforced` on a check whose UDF is no longer deterministic, over existing rows:
// the writer cannot verify the rows (expr.deterministic), so the update may be refused as
// unverifiable-constraint (protocol section 8), as a commit writing rows may be. The judge
// allowed only constraint-violation or ok here; the divergent sample found it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "codec/protocol.h"
#include "model/judge/operations.h"

namespace ictk {
namespace {

using json = nlohmann::json;

/// Applies `text` to `state` and adopts the reference's canonical answer; the outcome.
AllowedOutcome Step(CatalogState& state, const std::string& text) {
  Result<Request> request = RequestFromJson(json::parse(text));
  EXPECT_TRUE(request.has_value()) << text;
  const Switches switches;
  AllowedOutcome o = Apply(state, *request, switches);
  Adopt(state, *request, CanonicalAnswer(state, *request, o, switches), switches);
  return o;
}

TEST(EnforceUnverifiable, ACheckOnANondeterministicUdfMayBeRefusedWhenEnforced) {
  CatalogState state;
  const std::string udf =
      R"({"op": "define-function", "name": "f", "deterministic": DET, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 3}})";
  auto define = [&](bool deterministic) {
    std::string t = udf;
    t.replace(t.find("DET"), 3, deterministic ? "true" : "false");
    Step(state, t);
  };
  Step(state,
       R"({"op": "create-table", "table": "t", "now-ms": 1, "format-version": 4, "schema": {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}, {"id": 2, "name": "qty", "required": false, "type": "int"}]}})");
  define(true);
  Step(state,
       R"({"op": "add-constraint", "table": "t", "now-ms": 2, "constraint": {"type": "check", "name": "c", "enforced": false, "expression": {"type": "eq", "left": {"type": "apply", "function": "f", "arguments": [{"type": "reference", "id": 2}]}, "right": true}}})");
  Step(state,
       R"({"op": "commit", "table": "t", "now-ms": 3, "operation": "append", "add": [{"key": "r1", "values": {"1": 1, "2": 5}}]})");
  const char* enforce =
      R"({"op": "update-constraint", "table": "t", "now-ms": 5, "name": "c", "set": {"enforced": true}})";
  {
    CatalogState deterministic = state;
    const AllowedOutcome o = Step(deterministic, enforce);
    EXPECT_TRUE(o.ok_allowed);
    EXPECT_FALSE(o.reject_kinds.count(RejectKind::kUnverifiableConstraint));
  }
  define(false);
  const AllowedOutcome o = Step(state, enforce);
  EXPECT_TRUE(o.ok_allowed);
  EXPECT_TRUE(o.reject_allowed);
  EXPECT_TRUE(o.reject_kinds.count(RejectKind::kUnverifiableConstraint));
  EXPECT_TRUE(Judge(o, Answer::Rejected(RejectKind::kUnverifiableConstraint)).empty());
}

}  // namespace
}  // namespace ictk
