/// \file
/// `ictk review`: one document for the authors of a spec change (docs/spec-review.md):
///
/// - the trace of the text (review/trace.h): untraced sentences, stale rules, sentences
///   that quotes cover only in part;
/// - every interpretation switch (model/rules/switches.h), each alternative against the default
///   and, where the default is `either`, each side against the other: how many generated
///   histories disagree (spec_diff.h) and the shortest disagreeing history, minimized
///   (properties/minimize.h), with the sentences that decide it;
/// - every open point of docs/interpretations.md (OpenPoints()) with a generated history
///   on which the model leaves the choice open, where a generator step reaches it;
/// - with a base text: the sentences added, removed and changed, the rules they touch,
///   and how the fingerprint (fingerprint.h) moves under the switches those rules decide.
///
/// Every history is also a fixture (FIXTURES.md), so an implementer can replay it.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/result.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/rule_id.h"
#include "model/rules/switches.h"
#include "review/spec_diff.h"
#include "review/spec_text.h"
#include "review/trace.h"

namespace ictk {

/// The rules whose sentences decide a switch (docs/interpretations.md quotes them).
std::vector<RuleId> SwitchRules(std::string_view switch_name);

/// The step kinds' weights (GenWeights::Parse, on top of the defaults) that aim a switch's
/// histories at the situation it decides ("" = the default mix): a compaction for
/// `compaction-counts-as-added`, schema changes for `key-promotions`, ...
std::string_view SwitchWeights(std::string_view switch_name);

/// A history written for the review where generated histories do not reach a switch or
/// an open point (review/histories.cc): requests as JSON text without `table` (it is
/// `t`) and `now-ms` (one second apart), on a table of plainly named columns. A request
/// whose `metadata` is `"@"` gets table `t`'s metadata as the model holds it before the
/// request, changed by `edit`.
struct ReviewHistory {
  std::string_view name;
  /// Switches both readings of a switch comparison share ("status-carry=must"), "" =
  /// the defaults: a switch whose difference shows only under another switch's reading.
  std::string_view shared;
  std::vector<std::string_view> requests;
  std::function<void(nlohmann::json&)> edit;
};

/// The written histories of a switch (tried in order when no generated history
/// disagrees), and of an open point (by its title; the last request shows it).
std::vector<ReviewHistory> SwitchHistories(std::string_view switch_name);
std::vector<ReviewHistory> OpenPointHistories(std::string_view title);

/// The requests of `history`, each `"@"` metadata taken from the model's state after the
/// requests before it (every request answered with the model's canonical answer under
/// `switches`); an error names the history and the request that does not decode.
Result<std::vector<Request>> BuildHistory(const ReviewHistory& history,
                                          const Switches& switches);

/// The comparisons `review` makes for one switch: (default, v) for every other value v,
/// and, when the default is `either`, (v, w) for every two other values.
std::vector<std::pair<std::string, std::string>> SwitchComparisons(const SwitchInfo& info);

/// One open point of docs/interpretations.md ("Open points and what the model does"):
/// its title (the table's first cell, verbatim) and how a generated history shows it.
struct OpenPoint {
  std::string_view title;
  /// A rendered step whose label starts with this shows the point ("" = not shown by a
  /// generated history: `not_shown` says why).
  std::string_view label;
  /// An earlier step of the history must carry this label (e.g. a redefinition), "" =
  /// none.
  std::string_view after_label;
  /// The model must leave the step's outcome open: `ok` and a rejection both allowed, or
  /// a status set of more than one member. Otherwise any step with the label shows it.
  bool open_outcome = true;
  std::string_view not_shown;
  /// Generated as a reader profile's histories (GenReaderPlan): the writer steps prepare
  /// the metadata the reader steps read.
  bool reader = false;
  /// With an open outcome: the rejection the model allows must be of this kind
  /// ("unverifiable-constraint"), "" = any.
  std::string_view reject_kind;
  /// Where the model decides the point (no outcome left open), what it decides: the
  /// written history (OpenPointHistories) shows it at its last request.
  std::string_view decided;
  /// The rule the point is about, for its fixture when no rule decides the shown step (an
  /// `ok` the model allows without a deciding rule); "" = filed under the deciding rule.
  std::string_view rule;
};

/// Every open point, in the order of docs/interpretations.md's table.
const std::vector<OpenPoint>& OpenPoints();

struct ReviewOptions {
  std::string spec_name;  ///< as named on the command line
  SpecSection spec;
  std::optional<std::string> base_name;
  std::optional<SpecSection> base;
  int histories = 200;  ///< per comparison and for the open points
  uint64_t seed = 1;
  int max_steps = 12;
  int max_reported = 2;  ///< kinds of disagreement shrunk per comparison
  int shrink_budget = 2000;
  int fingerprint_steps = 3;  ///< with a base text
  std::string tool = "ictk";
};

struct SwitchReview {
  std::string name;
  std::string kind;  ///< "reading" | "proposed change"
  std::string a_value, b_value;
  std::vector<RuleId> rules;  ///< SwitchRules
  std::string weights;        ///< SwitchWeights
  SpecDiffResult result;
  /// When no generated history disagrees: the first written history (SwitchHistories)
  /// that does, under `shared` on both sides; `result.disagreements` then holds it.
  std::string written;
  std::string shared;
};

struct OpenPointReview {
  const OpenPoint* point = nullptr;
  std::optional<int64_t> case_index;  ///< the generated history that showed it
  std::string written;  ///< or the written history (OpenPointHistories) that shows it
  std::string error;    ///< a written history that does not build or show the point
  int original_requests = 0;
  int step = 0;  ///< 1-based, the step that shows it
  std::string allowed;
  std::vector<Request> requests;
  nlohmann::json fixture;
  std::string fixture_path;
  Plan plan;
};

struct SentenceChange {
  std::string kind;  ///< "added", "removed", "changed"
  std::string before, after;
  std::vector<RuleId> rules;
};

struct BaseReview {
  std::string base_name;
  std::vector<SentenceChange> changes;
  std::vector<std::string> switches;  ///< switches whose rules the changes touch
  /// Per touched switch and alternative value: the fingerprint's differences from the
  /// defaults ("name=value" -> lines).
  std::vector<std::pair<std::string, std::vector<std::string>>> fingerprint_moves;
};

struct ReviewResult {
  std::string spec_name;
  int histories = 0;
  uint64_t seed = 1;
  TraceResult trace;
  std::vector<SwitchReview> switches;
  std::vector<OpenPointReview> open_points;
  std::optional<BaseReview> base;
  /// Every fixture the document cites: path -> document.
  std::vector<std::pair<std::string, nlohmann::json>> fixtures;
};

ReviewResult RunReview(const ReviewOptions& options);

/// The sentence changes from `base` to `now`: sentences of `now` not in `base` are added,
/// of `base` not in `now` removed; an added and a removed sentence in the same subsection
/// with most words in common are one change.
std::vector<SentenceChange> DiffSentences(const SpecSection& base, const SpecSection& now);

/// review.md: fits a pull-request comment or a CI step summary (no timings, no paths of
/// the machine: the same input gives the same bytes).
std::string RenderReviewMarkdown(const ReviewResult& review);
/// review.html: the same content as one HTML page.
std::string RenderReviewHtml(const ReviewResult& review);

}  // namespace ictk
