/// \file
/// What every transport checks on a response before handing it on: one JSON object whose
/// `id` echoes the request's and whose `result` is one of the protocol's four. Anything
/// else is a protocol error (ARCHITECTURE.md "Reports": `protocol-error`). The full shape
/// of each answer is checked by the codec (ResponseFromJson) and `ictk validate-adapter`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ictk {

/// "" when `response` is a valid envelope for `request`, otherwise what is wrong with it
/// (e.g. "response id 7 does not match request id 5").
std::string EnvelopeProblem(const nlohmann::json& request,
                            const nlohmann::json& response);

/// A short, printable excerpt of `text` for messages (at most `max` bytes, control
/// characters escaped, "..." when cut).
std::string Excerpt(std::string_view text, size_t max = 80);

}  // namespace ictk
