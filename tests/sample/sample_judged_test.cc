/// \file
/// The two implementations judge each other: every answer the correct sample gives on the
/// scripted sessions is inside what the reference model allows (model/operations.h Apply +
/// Judge, then Adopt), and the reference model catches each mutant on its witness script.
/// The sample shares no rule code with the model, so agreement here means something.
#include <gtest/gtest.h>

#include "codec/protocol.h"
#include "model/operations.h"
#include "model/outcome.h"
#include "tests/sample/mutant_cases.h"

namespace ictk::sample_test {
namespace {

struct Verdict {
  size_t step = 0;  ///< 1-based
  Findings findings;
};

std::optional<Answer> ToAnswer(const json& response, const CatalogState& state,
                               const Request& request) {
  const std::vector<NestedField>* fields = nullptr;
  if (const TableState* t = state.FindTable(request.table)) {
    if (const Schema* s = t->metadata.CurrentSchema()) fields = &s->fields;
    if (const auto* scan = std::get_if<Scan>(&request.op); scan && scan->snapshot_id) {
      if (const Snapshot* snap = t->metadata.FindSnapshot(*scan->snapshot_id)) {
        for (const Schema& s : t->metadata.schemas)
          if (snap->schema_id && s.schema_id == snap->schema_id) fields = &s.fields;
      }
    }
  }
  auto decoded = ResponseFromJson(response, fields);
  if (!decoded) {
    ADD_FAILURE() << "undecodable answer: " << decoded.error().message << "\n" << response.dump();
    return std::nullopt;
  }
  Answer a;
  switch (decoded->result) {
    case Response::Result::kOk: a.result = AnswerResult::kOk; break;
    case Response::Result::kRejected: a.result = AnswerResult::kRejected; break;
    case Response::Result::kUnsupported: a.result = AnswerResult::kUnsupported; break;
    case Response::Result::kError: a.result = AnswerResult::kError; break;
  }
  if (decoded->error_kind) {
    a.error_kind = ParseRejectKind(*decoded->error_kind);
    a.error_kind_text = *decoded->error_kind;
  }
  a.error_constraint_ids = decoded->error_constraint_ids;
  a.message = decoded->message;
  a.metadata = decoded->metadata;
  a.rows = decoded->rows;
  if (decoded->statuses) {
    a.statuses.emplace();
    for (const auto& [id, s] : *decoded->statuses) (*a.statuses)[std::stoi(id)] = s;
  }
  return a;
}

/// Judges every step of one run with the reference model; the steps with findings.
std::vector<Verdict> JudgeRun(const std::vector<json>& requests, const std::vector<json>& responses) {
  const Switches switches;
  CatalogState state;
  std::vector<Verdict> out;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i].value("op", "") == "hello") continue;
    auto request = RequestFromJson(requests[i]);
    if (!request) continue;  // undecodable requests are the codec's and the protocol's
    const AllowedOutcome outcome = Apply(state, *request, switches);
    auto answer = ToAnswer(responses[i], state, *request);
    if (!answer) continue;
    Findings findings = Judge(outcome, *answer);
    if (!findings.empty()) out.push_back(Verdict{i + 1, findings});
    Adopt(state, *request, *answer, switches);
  }
  return out;
}

std::string Show(const std::vector<Verdict>& verdicts, const std::vector<json>& responses) {
  std::string s;
  for (const Verdict& v : verdicts) {
    s += fmt::format("step {}: {}\n", v.step, responses[v.step - 1].dump().substr(0, 400));
    for (const Finding& f : v.findings) s += "  " + ToString(f) + "\n";
  }
  return s;
}

TEST(SampleJudgedByTheModel, ExampleSessionAndEveryOpAreLegal) {
  SCOPED_TRACE("st.sound and every rule the judge checks");
  for (const Script& script : {ExampleSession(), EveryOp()}) {
    std::vector<json> sent;
    const auto responses = RunSample(script, "", &sent);
    const auto verdicts = JudgeRun(sent, responses);
    EXPECT_TRUE(verdicts.empty()) << Show(verdicts, responses);
  }
}

class SampleWitnessJudged : public ::testing::TestWithParam<MutantCase> {};

TEST_P(SampleWitnessJudged, CorrectSampleIsLegalAndTheModelCatchesTheMutant) {
  const MutantCase& c = GetParam();
  std::string rule;
  for (const MutantInfo& m : SampleMutants())
    if (m.name == c.mutant) rule = m.rule;
  SCOPED_TRACE(fmt::format("mutant {} ({})", c.mutant, rule));
  std::vector<json> sent;
  const auto good = RunSample(c.script, "", &sent);
  const auto good_verdicts = JudgeRun(sent, good);
  EXPECT_TRUE(good_verdicts.empty()) << "correct sample:\n" << Show(good_verdicts, good);

  std::vector<json> sent_bad;
  const auto bad = RunSample(c.script, "mutant=" + c.mutant, &sent_bad);
  const auto bad_verdicts = JudgeRun(sent_bad, bad);
  ASSERT_FALSE(bad_verdicts.empty()) << "the model does not catch the mutant";
  EXPECT_EQ(bad_verdicts.front().step, c.witness) << Show(bad_verdicts, bad);
  bool names_rule = false;
  for (const Finding& f : bad_verdicts.front().findings) names_rule |= RuleIdName(f.rule) == rule;
  if (!names_rule) {
    // The model may name a neighbouring rule (e.g. proto.answer for a wrong result kind);
    // record it without failing.
    RecordProperty("judged-by", Show(bad_verdicts, bad));
  }
}

INSTANTIATE_TEST_SUITE_P(Mutants, SampleWitnessJudged, ::testing::ValuesIn(MutantCases()),
                         [](const auto& info) {
                           std::string n = info.param.mutant;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace ictk::sample_test
