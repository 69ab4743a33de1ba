/// \file
/// The model's expectations of a history and the switches they depend on
/// (model_expectations.h).
#include "properties/model_expectations.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "adapters/reference_adapter.h"
#include "adapters/step_loop.h"
#include "adapters/session.h"
#include "codec/protocol.h"
#include "model/judge/operations.h"
#include "properties/fixture.h"

namespace ictk {

using json = nlohmann::json;

std::set<std::string> SwitchesThatMatter(const std::vector<json>& requests,
                                         const Switches& switches,
                                         const std::vector<json>* responses) {
  std::set<std::string> out;
  const std::map<std::string, std::string> current = SwitchValues(switches);
  Result<std::vector<json>> expects = ModelExpectations(requests, switches, responses);
  for (const SwitchInfo& info : AllSwitches()) {
    const std::string name(info.name);
    // Expectations the model cannot derive here depend on everything: pin every switch.
    if (!expects) {
      out.insert(name);
      continue;
    }
    for (std::string_view value : info.values) {
      if (current.count(name) && current.at(name) == value) continue;
      Switches other = switches;
      SetSwitch(other, name, value);
      Result<std::vector<json>> alt = ModelExpectations(requests, other, responses);
      if (!alt || *alt != *expects) {
        out.insert(name);
        break;
      }
    }
  }
  return out;
}

Result<std::vector<json>> ModelExpectations(const std::vector<json>& requests,
                                            const Switches& switches,
                                            const std::vector<json>* responses) {
  std::optional<AdapterSession> session;
  if (responses == nullptr) {
    session.emplace(MakeReferenceAdapter(switches));
    if (Result<HelloInfo> hello = session->Handshake(); !hello)
      return tl::unexpected(hello.error());
  }
  StepLoop loop(switches);
  std::vector<json> out;
  std::map<std::string, std::set<std::string>> removed_names;  ///< table -> names
  for (size_t i = 0; i < requests.size(); ++i) {
    Result<Request> request = RequestFromJson(requests[i]);
    if (!request)
      return MakeError(ErrorKind::kParse,
                       fmt::format("request {}: {}", i + 1, request.error().message));
    const AllowedOutcome& outcome = loop.Begin(*request);
    json answered;
    if (responses != nullptr) {
      if (i >= responses->size() || !(*responses)[i].is_object())
        return MakeError(ErrorKind::kAdapter, fmt::format("request {}: no answer", i + 1));
      answered = (*responses)[i];
    } else {
      CallResult call = session->CallWhole(requests[i]);
      if (call.failure)
        return MakeError(ErrorKind::kAdapter,
                         fmt::format("request {}: {}", i + 1, call.failure->message));
      answered = *call.response;
    }
    Result<Answer> decoded = loop.Decode(answered);
    if (!decoded)
      return MakeError(ErrorKind::kAdapter,
                       fmt::format("request {}: {}", i + 1, decoded.error().message));
    const Answer& answer = *decoded;
    // The reference implementation must keep to the model; recorded answers (a failure
    // found by certify) need not, and are not judged.
    if (Findings f = responses == nullptr ? loop.Check(answer) : Findings{}; !f.empty())
      return MakeError(ErrorKind::kInternal,
                       fmt::format("request {}: the reference implementation's answer "
                                   "breaks the model: {}",
                                   i + 1, ToString(f.front())));
    json expect = FixtureExpectation(outcome, loop.state(), *request, answer);
    // A constraint removed earlier must not be listed in a later snapshot
    // (stale-ids-in-new-snapshot=reject): `unlisted`, by the name it had.
    std::set<std::string>& gone = removed_names[request->table];
    if (switches.stale_ids_in_new_snapshot == StaleIds::kReject && !gone.empty() &&
        expect.contains("statuses")) {
      json unlisted = json::array();
      for (const std::string& name : gone)
        if (!expect["statuses"].contains(name)) unlisted.push_back(name);
      if (!unlisted.empty()) expect["unlisted"] = unlisted;
    }
    if (answer.result == AnswerResult::kOk) {
      if (const auto* r = std::get_if<RemoveConstraint>(&request->op))
        gone.insert(r->name);
      if (const auto* u = std::get_if<UpdateSchema>(&request->op))
        gone.insert(u->remove_constraints.begin(), u->remove_constraints.end());
      if (const auto* a = std::get_if<AddConstraint>(&request->op);
          a && a->constraint.name)
        gone.erase(*a->constraint.name);
      if (const auto* u = std::get_if<UpdateConstraint>(&request->op); u && u->set.name)
        gone.erase(*u->set.name);
    }
    loop.Adopt(answer);
    const bool stop = expect.contains("stop-if") &&
                      std::find(expect["stop-if"].begin(), expect["stop-if"].end(),
                                answer.result == AnswerResult::kOk ? "ok" : "rejected") !=
                          expect["stop-if"].end();
    out.push_back(std::move(expect));
    if (stop) break;
  }
  return out;
}

}  // namespace ictk
