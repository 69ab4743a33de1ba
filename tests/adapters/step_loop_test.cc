/// \file
/// The one step loop (adapters/step_loop.h): the reference's answers are each allowed and
/// adopted; an answer outside the allowed outcome is found, filed by the clause it broke,
/// and not adopted; and the invariants of returned metadata are judged by the loop itself,
/// so certify and the re-judging of a replayed fixture both see them.
#include "adapters/step_loop.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "adapters/reference_adapter.h"
#include "adapters/session.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "model/rules/rule_id.h"

namespace ictk {
namespace {

using nlohmann::json;

/// A v4 table with an enforced check `qty > 0`, then a commit of a row that breaks it.
std::vector<json> History() {
  return {
      json::parse(R"({"op": "create-table", "table": "t", "format-version": 4,
        "now-ms": 1700000000000,
        "schema": {"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "id", "required": true, "type": "long"},
          {"id": 2, "name": "qty", "required": false, "type": "int"}]}})"),
      json::parse(R"({"op": "add-constraint", "table": "t", "now-ms": 1700000001000,
        "constraint": {"name": "positive", "type": "check", "enforced": true,
          "expression": {"type": "gt", "left": {"type": "reference", "id": 2},
                         "right": 0}}})"),
      json::parse(R"({"op": "commit", "table": "t", "operation": "append",
        "now-ms": 1700000002000,
        "add": [{"key": "r1", "values": {"1": 1, "2": -1}}]})"),
  };
}

/// The reference's answers to `requests`.
std::vector<json> ReferenceAnswers(const std::vector<json>& requests) {
  AdapterSession session(MakeReferenceAdapter(Switches{}));
  EXPECT_TRUE(session.Handshake().has_value());
  std::vector<json> out;
  for (const json& r : requests) {
    CallResult call = session.CallWhole(r);
    EXPECT_FALSE(call.failure.has_value());
    out.push_back(call.response.value_or(json()));
  }
  return out;
}

/// What the loop found of one recorded step, driven as certify drives it.
struct StepRuling {
  std::optional<Answer> answer;  ///< nullopt: it did not decode (`decode_error`)
  std::string decode_error;
  BlameResult blamed;  ///< empty findings: allowed, and adopted (`adopt`)
  Findings adopt;
};

StepRuling RunStep(StepLoop& loop, const Request& request, const json& response) {
  StepRuling ruling;
  loop.Begin(request);
  Result<Answer> answer = loop.Decode(response);
  if (!answer) {
    ruling.decode_error = answer.error().message;
    return ruling;
  }
  ruling.answer = std::move(*answer);
  if (Findings found = loop.Check(*ruling.answer); !found.empty())
    ruling.blamed = loop.Blame(*ruling.answer, std::move(found));
  else
    ruling.adopt = loop.Adopt(*ruling.answer);
  return ruling;
}

TEST(StepLoop, AdoptsEveryAllowedAnswerAndFilesAWrongOneByTheClauseItBroke) {
  const std::vector<json> requests = History();
  const std::vector<json> answers = ReferenceAnswers(requests);
  ASSERT_EQ(answers[2].value("result", ""), "rejected") << DumpJson(answers[2]);
  const Switches switches;
  StepLoop loop(switches);
  for (size_t i = 0; i < requests.size(); ++i) {
    Result<Request> request = RequestFromJson(requests[i]);
    ASSERT_TRUE(request.has_value()) << request.error().message;
    if (i + 1 < requests.size()) {
      StepRuling ruling = RunStep(loop, *request, answers[i]);
      ASSERT_TRUE(ruling.answer.has_value()) << ruling.decode_error;
      EXPECT_TRUE(ruling.blamed.findings.empty()) << ToString(ruling.blamed.findings.front());
      EXPECT_TRUE(ruling.adopt.empty());
      continue;
    }
    // The last step answered ok, with the metadata of the step before: the row breaks
    // the enforced check, so the commit must fail.
    json wrong = {{"id", answers[2]["id"]}, {"result", "ok"}, {"metadata", answers[1]["metadata"]}};
    const TableMetadata before = loop.state().FindTable("t")->metadata;
    StepRuling ruling = RunStep(loop, *request, wrong);
    ASSERT_TRUE(ruling.answer.has_value()) << ruling.decode_error;
    ASSERT_FALSE(ruling.blamed.findings.empty());
    EXPECT_TRUE(loop.outcome().must_reject());
    // Filed by the clause broken: the row's value breaks the check's meaning
    // (sem.check), the clause whose knock-out admits the answer.
    EXPECT_EQ(ruling.blamed.findings.front().rule, RuleId::kSemCheck)
        << ToString(ruling.blamed.findings.front());
    EXPECT_EQ(ruling.blamed.clause.rfind("sem.check/", 0), 0u) << ruling.blamed.clause;
    // Not adopted: the table is as it was.
    EXPECT_TRUE(loop.state().FindTable("t")->metadata == before);
    // The same answer with the reference's rejection is allowed.
    StepLoop again(switches);
    for (size_t k = 0; k < requests.size(); ++k) {
      Result<Request> r = RequestFromJson(requests[k]);
      StepRuling ok = RunStep(again, *r, answers[k]);
      EXPECT_TRUE(ok.blamed.findings.empty()) << k;
    }
  }
}

TEST(StepLoop, JudgesTheInvariantsOfReturnedMetadata) {
  const std::vector<json> requests = History();
  const std::vector<json> answers = ReferenceAnswers(requests);
  const Switches switches;
  StepLoop loop(switches);
  Result<Request> create = RequestFromJson(requests[0]);
  ASSERT_TRUE(RunStep(loop, *create, answers[0]).blamed.findings.empty());
  Result<Request> add = RequestFromJson(requests[1]);
  // The constraint's ID above last-constraint-id: an invariant of every returned
  // metadata (id.update-last), which Judge alone does not check.
  json wrong = answers[1];
  wrong["metadata"]["last-constraint-id"] = 0;
  loop.Begin(*add);
  Result<Answer> answer = loop.Decode(wrong);
  ASSERT_TRUE(answer.has_value()) << answer.error().message;
  const Findings found = loop.Check(*answer);
  ASSERT_FALSE(found.empty());
  bool update_last = false;
  for (const Finding& f : found) update_last |= f.rule == RuleId::kIdUpdateLast;
  EXPECT_TRUE(update_last) << ToString(found.front());
}

}  // namespace
}  // namespace ictk
