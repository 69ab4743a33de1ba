/// \file
/// The one step loop (docs/rules.md, "One step loop"): for each request, the
/// model's allowed outcome (Apply), the answer decoded once, judged (Judge and the
/// invariants of returned metadata), filed by the clause it broke (BlameByClause), and
/// adopted (Adopt). Certify (properties/runner.cc), the re-judging of a replayed fixture
/// (fixtures/replay.cc) and the model's expectations of a history
/// (properties/model_expectations.cc) all drive this class, so a step is judged the same
/// way whoever sends it; what differs between them is only who answers (an adapter, the
/// reference, recorded answers) and what they keep of the step.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "codec/answer.h"
#include "codec/decode_memo.h"
#include "codec/protocol.h"
#include "model/judge/blame.h"
#include "model/judge/outcome.h"
#include "model/judge/requests.h"
#include "model/judge/table_state.h"
#include "model/rules/finding.h"
#include "model/rules/switches.h"

namespace ictk {

class StepLoop {
 public:
  explicit StepLoop(const Switches& switches) : switches_(switches) {}

  /// Step 1: what the model allows for `request` in the adopted state. `request` must
  /// outlive the step (until the next Begin).
  const AllowedOutcome& Begin(const Request& request);

  /// Step 2: the answer, decoded once against the rows schema of the outcome (the
  /// metadata moved into the answer, never copied). `rebuilt` and `lineage` are what the
  /// session knows of a `metadata-delta` answer (CallResult); the memo reuses what repeats.
  Result<Answer> Decode(const nlohmann::json& response, const nlohmann::json* rebuilt = nullptr,
                        const MetadataLineage* lineage = nullptr);

  /// A follow-up `load-table` of the step (no rows), decoded through the same memo.
  Result<Response> DecodeFollowUp(const nlohmann::json& response,
                                  const nlohmann::json* rebuilt = nullptr,
                                  const MetadataLineage* lineage = nullptr) {
    return memo_.DecodeResponse(response, nullptr, rebuilt, lineage);
  }

  /// Step 3: what the model finds wrong with the decoded answer: Judge, and for metadata
  /// a writer returned (not a re-read `parse-metadata`) the invariants of returned
  /// metadata, against the table's history unless the commit was staged.
  Findings Check(const Answer& answer) const;

  /// Step 3, continued: `findings` (from Check) filed by the clause the answer broke.
  BlameResult Blame(const Answer& answer, Findings findings) const;

  /// Step 4: the answer's legal choices adopted; findings when the adoption breaks a rule.
  Findings Adopt(const Answer& answer);

  const CatalogState& state() const { return state_; }
  const AllowedOutcome& outcome() const { return outcome_; }

 private:
  const Switches& switches_;
  CatalogState state_;
  const Request* request_ = nullptr;
  AllowedOutcome outcome_;
  // The answers' snapshots, schemas and constraints that repeat the previous answer's are
  // recognised by their JSON and not decoded again (codec/decode_memo.h).
  MetadataDecodeMemo memo_;
};

}  // namespace ictk
