/// \file
/// The expectations the model derives for a history of protocol requests (the `expect` of
/// each step of a fixture file, docs/fixtures.md), and the switches they depend on. The
/// corpus and certify's failure fixtures are both written with them, and
/// `ictk fixtures verify` checks the committed corpus against them.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "codec/result.h"
#include "model/rules/switches.h"

namespace ictk {

/// The expectations the model derives for `requests` (protocol requests without "id"),
/// answered by the reference implementation under `switches`, one per request; at most
/// as many as run before a `stop-if` ended the history. Errors name the request. With
/// `responses` (one recorded answer per request, e.g. of the implementation a failure was
/// found on), those answers take the reference implementation's place and are not judged.
Result<std::vector<nlohmann::json>> ModelExpectations(
    const std::vector<nlohmann::json>& requests, const Switches& switches,
    const std::vector<nlohmann::json>* responses = nullptr);

/// The switches a fixture of `requests` depends on (docs/fixtures.md section 6): those
/// for which some other value makes ModelExpectations (with `responses`, when given)
/// differ from its expectations under `switches`; every switch when the model cannot
/// derive them. The one decision both the corpus and certify's failure fixtures record
/// `switches` by, so a run under another value of any other switch still replays the
/// fixture and adding a switch changes no fixture's ID.
std::set<std::string> SwitchesThatMatter(const std::vector<nlohmann::json>& requests,
                                         const Switches& switches,
                                         const std::vector<nlohmann::json>* responses =
                                             nullptr);

}  // namespace ictk
