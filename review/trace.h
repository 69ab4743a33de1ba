/// \file
/// `ictk trace`: which sentences of a spec text the rule catalogue's quotes trace, and
/// how much evidence stands behind each rule (tests naming its ID, fixtures in the corpus
/// index, generator tags over a fixed sample of histories). A normative sentence that no
/// quote falls in is untraced; a rule whose quote is not in the text is stale.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/rules/rule_id.h"
#include "review/spec_text.h"

namespace ictk {

/// How often each rule is exercised, by kind of evidence.
struct RuleEvidence {
  int64_t tests = 0;     ///< mentions of the rule ID in tests/**/*_test.cc
  int64_t fixtures = 0;  ///< fixtures of fixtures/corpus/INDEX.json naming the rule
  int64_t tags = 0;      ///< generator rule tags over the sampled histories
  bool operator==(const RuleEvidence&) const = default;
};

/// Evidence for every rule, and where it came from.
struct TraceEvidence {
  std::map<RuleId, RuleEvidence> rules;
  std::string source_dir;  ///< "" when no source tree was found (tests, fixtures 0)
  int test_files = 0;
  bool fixture_index = false;  ///< fixtures/corpus/INDEX.json was found
  int histories = 0;           ///< histories rendered for the generator tags
  uint64_t seed = 0;
};

/// Mentions of `rule_id` ("st.valid") in `text` as a whole ID: not followed by a letter,
/// digit or `-` (so "st.valid" does not count "st.validated") nor preceded by one or a
/// `.`.
int64_t CountRuleMentions(std::string_view text, std::string_view rule_id);

/// The source tree: `given` when not empty, else the nearest directory from the working
/// directory upwards that holds model/judge/rule_catalogue.cc, else the tree the binary was
/// built from; "" when none exists.
std::string FindSourceDir(const std::string& given);

/// Counts the evidence: tests and the fixture index under `source_dir` ("" = none), and
/// the rule tags of `histories` generated histories (seed `seed`) on the model alone.
TraceEvidence CollectEvidence(const std::string& source_dir, int histories,
                              uint64_t seed);

/// A further sentence of the spec that a rule implements, beyond the rule catalogue's one
/// quote per rule (model/judge/rule_catalogue.h): the normative sentences that restate, explain
/// or extend a rule (the `enforced` field's description, the examples of non-row-local
/// expressions, ...). Verbatim from the seed after collapsing whitespace, like the
/// catalogue's quotes; trace matches and reports them the same way.
struct TraceAnchor {
  RuleId rule;
  std::string_view quote;
};

/// Every anchor, in rule order (review/trace_anchors.cc).
const std::vector<TraceAnchor>& TraceAnchors();

/// A quote no longer found in the text.
struct StaleQuote {
  RuleId rule;
  std::string quote;
  bool anchor = false;  ///< a TraceAnchor rather than the catalogue's quote
  bool operator==(const StaleQuote&) const = default;
};

/// One row of the matrix.
struct SentenceTrace {
  SpecSentence sentence;
  std::vector<RuleId> rules;  ///< in catalogue order
  /// How much of the sentence (its letters and digits) quotes and anchors cover, 0-100. A
  /// change in the part no quote covers goes unnoticed, so a reviewer reads that part.
  int quoted_percent = 0;
};

/// The trace of one spec text.
struct TraceResult {
  std::string source;  ///< the file as named on the command line
  SpecFormat format = SpecFormat::kPlain;
  bool maybe_partial = false;       ///< SpecSection::maybe_partial
  std::vector<SentenceTrace> rows;  ///< every normative or traced sentence, in text order
  std::vector<int> untraced;        ///< indexes into `rows`: normative, no rule
  std::vector<StaleQuote> stale;    ///< quotes (catalogue or anchor) not in the text
  std::vector<RuleId> unquoted;     ///< rules with no quote (derived, surroundings)
  TraceEvidence evidence;
  bool clean() const { return untraced.empty() && stale.empty(); }
};

/// Matches every quote of the catalogue and every anchor against `section`: a quote
/// (NormalizeQuote) found in the normalized text, at word boundaries, traces every
/// sentence it overlaps to its rule (a quote may span two sentences, a sentence may carry
/// several quotes).
TraceResult TraceSection(const SpecSection& section, std::string source,
                         TraceEvidence evidence);

/// The matrix, untraced sentences and stale rules as text, markdown or JSON.
std::string RenderTraceText(const TraceResult& trace);
std::string RenderTraceMarkdown(const TraceResult& trace);
std::string RenderTraceJson(const TraceResult& trace);

}  // namespace ictk
