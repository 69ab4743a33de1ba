/// \file
/// The one step loop (step_loop.h).
#include "adapters/step_loop.h"

#include <algorithm>
#include <variant>

#include "model/judge/operations.h"

namespace ictk {

const AllowedOutcome& StepLoop::Begin(const Request& request) {
  request_ = &request;
  outcome_ = Apply(state_, request, switches_);
  return outcome_;
}

Result<Answer> StepLoop::Decode(const nlohmann::json& response, const nlohmann::json* rebuilt,
                                const MetadataLineage* lineage) {
  const std::vector<NestedField>* fields =
      outcome_.rows_schema ? &outcome_.rows_schema->fields : nullptr;
  Result<Response> decoded = memo_.DecodeResponse(response, fields, rebuilt, lineage);
  if (!decoded) return tl::unexpected(decoded.error());
  // The decoded metadata is moved into the answer rather than copied with the rest.
  std::optional<TableMetadata> metadata = std::move(decoded->metadata);
  decoded->metadata.reset();
  Answer answer = ToAnswer(*decoded);
  answer.metadata = std::move(metadata);
  return answer;
}

Findings StepLoop::Check(const Answer& answer) const {
  Findings findings = Judge(outcome_, answer);
  // parse-metadata answers the reader's re-serialization of metadata it was given
  // (broken on purpose, now and then): JudgeParsed compares it with what was read, and
  // the invariants of metadata a writer produces do not apply.
  if (answer.result != AnswerResult::kOk || !answer.metadata ||
      std::holds_alternative<ParseMetadata>(request_->op))
    return findings;
  // A staged commit answers the metadata it would produce on the transaction's base, so
  // the history-dependent invariants (removed IDs, schemas added since) do not apply.
  const Commit* commit = std::get_if<Commit>(&request_->op);
  const bool staged = commit != nullptr && commit->txn.has_value();
  for (Finding& f : JudgeReturnedMetadata(
           *answer.metadata, staged ? nullptr : state_.FindTable(request_->table))) {
    const bool known = std::any_of(findings.begin(), findings.end(),
                                   [&](const Finding& g) { return g.rule == f.rule; });
    if (!known) findings.push_back(std::move(f));
  }
  return findings;
}

BlameResult StepLoop::Blame(const Answer& answer, Findings findings) const {
  return BlameByClause(state_, *request_, switches_, outcome_, answer, std::move(findings));
}

Findings StepLoop::Adopt(const Answer& answer) {
  return ictk::Adopt(state_, *request_, answer, switches_);
}

}  // namespace ictk
