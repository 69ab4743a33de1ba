/// \file
/// The conformance session of `ictk validate-adapter`: the handshake, then a scripted
/// session that touches every op the adapter declares, each response checked against the
/// protocol's message shapes (ResponseForOpFromJson, which agrees with the JSON Schemas
/// in docs/protocol/) and basic sanity (ids echoed, metadata parseable, the members an
/// answer must carry, `unsupported` only for what was not declared). It judges shapes,
/// not semantics: `ictk certify` judges what the answers mean.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "adapters/adapter.h"

namespace ictk {

/// How one step of the session went.
enum class StepVerdict {
  kOk,           ///< the answer conforms
  kFail,         ///< schema error, transport failure, or a wrong kind of answer
  kUnsupported,  ///< `unsupported` for a capability the adapter did not declare
  kSkipped,      ///< not run: its capability (or a step it needs) is missing
};
std::string_view ToString(StepVerdict verdict);

struct ConformanceStep {
  std::string op;          ///< the protocol op
  std::string what;        ///< what the step does, e.g. "append two rows"
  std::string capability;  ///< the capability it needs ("" for the core ops)
  std::string result;  ///< the answer's result (and error kind), or the failure verdict
  StepVerdict verdict = StepVerdict::kOk;
  std::string detail;  ///< the schema error with its JSON pointer, or why it failed
  nlohmann::json request;
  nlohmann::json response;  ///< null when there was none
};

struct ConformanceReport {
  nlohmann::json hello;  ///< the hello answer (null when it failed)
  std::vector<std::string> capabilities;
  std::vector<int32_t> format_versions;
  /// `hello`'s finer declarations (docs/protocol.md section 9, "Finer declarations").
  std::optional<std::vector<std::string>> constraint_ops, expression_operators;
  /// false for a reader profile (`hello`'s "profile": "reader"): the session is then
  /// the reader script (parse-metadata, read-statuses) instead of the writer session.
  bool writer = true;
  std::vector<ConformanceStep> steps;
  /// "v4 writer", "v1–v3 reader", ... (as Capabilities::ProfileName).
  std::string ProfileName() const;
  /// Whether everything the adapter declared conforms.
  bool ok() const;
};

/// Runs the session against `adapter` (a fresh one: it creates tables named
/// `ictk_validate_*`).
ConformanceReport RunConformanceSession(Adapter& adapter);

/// The report as text: a table of the steps, then one line per op.
std::string FormatConformanceReport(const ConformanceReport& report, bool verbose);

}  // namespace ictk
