/// \file
/// The fixture corpus: replaying fixtures on an adapter (one case per fixture, the same
/// records `certify` writes), generating the committed corpus from histories run against
/// the model (`ictk fixtures generate`), and verifying it (`ictk fixtures verify`). The
/// fixtures layer decodes files and judges answers; this layer owns the adapter session,
/// the shrinking and the model's expectations.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "codec/result.h"
#include "fixtures/expectation_file.h"
#include "fixtures/fixture_file.h"
#include "model/rules/switches.h"
#include "properties/session.h"
#include "reports/report.h"

namespace ictk {

// --- replay ----------------------------------------------------------------------------

struct ReplayOptions {
  Switches switches;         ///< the run's; a fixture assuming others is skipped
  std::string adapter_spec;  ///< for the replay command in each record
  const ExpectationFile* expect = nullptr;
  /// Certification mode: expectation entries are not honoured; only fixtures needing a
  /// capability the adapter did not declare (or other switch settings) are skipped.
  bool strict = false;
};

/// Why `fixture` cannot run on an adapter with `capabilities` under `switches` ("" when
/// it can): a format version the fixture sends that the adapter's hello `format-versions`
/// (when given and not empty) lacks ("needs format version 4"), a request only a writer
/// answers when the adapter declared `profile` "reader" (`writer` false: "needs a
/// writer"), a missing capability, or a switch set otherwise.
std::string FixtureSkipReason(const Fixture& fixture,
                              const std::vector<std::string>& capabilities,
                              const Switches& switches,
                              const std::vector<int32_t>* format_versions = nullptr,
                              bool writer = true);

/// Replays one fixture on `session`: every request in order, each answer evaluated
/// (fixtures/evaluator.h) with the follow-up `load-table` and `scan` it needs, until a
/// failure, a `stop-if` or the last step. The record's ID is the fixture's ID; a failure
/// carries the step table, every broken expectation and the replay command.
CaseRecord ReplayFixture(AdapterSession& session, const Fixture& fixture,
                         const ReplayOptions& options, int64_t index);

/// Replays `fixtures` (skipping those FixtureSkipReason or a `skip` entry names), then
/// applies the expectation file: `xfail` turns a failure naming the entry's cause into
/// `xfail` and a pass into `xpass`. `index` numbers the records from `first_index`.
std::vector<CaseRecord> ReplayFixtures(AdapterSession& session,
                                       const std::vector<Fixture>& fixtures,
                                       const ReplayOptions& options,
                                       int64_t first_index = 0);

/// Applies `entry` (an xfail) to a finished case; a skip entry turns it into `skip`.
void ApplyExpectation(CaseRecord& record, const ExpectationEntry& entry);

/// Applies the expectation file to records that ran elsewhere (certify's random cases):
/// each record an entry matches gets ApplyExpectation (unless `strict`).
void ApplyExpectations(std::vector<CaseRecord>& records, const ExpectationFile& file,
                       bool strict);

/// One failing record per strictness breach of `file` over `records` (an entry matching
/// nothing, a glob over its max), ID "expectations/LINE".
std::vector<CaseRecord> ExpectationBreachRecords(const ExpectationFile& file,
                                                 const std::vector<CaseRecord>& records);
/// The same over the run's case IDs (a streamed report keeps the IDs, not the records).
std::vector<CaseRecord> ExpectationBreachRecords(const ExpectationFile& file,
                                                 const std::vector<std::string>& ids);

/// Whether a failing case names `cause` (a rule ID among its failed rules, or the error
/// kind the implementation answered at the failing step).
bool CaseNamesCause(const CaseRecord& record, const std::string& cause);

// --- the model's expectations ----------------------------------------------------------

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

// --- generation and verification -------------------------------------------------------

struct CorpusOptions {
  uint64_t seed = 1;
  int per_rule = 3;              ///< fixtures per rule and side (accept / reject)
  int64_t max_histories = 6000;  ///< random histories to look through, at most
  int max_steps = 12;            ///< plan steps per history
  std::string hand_dir;          ///< hand-written templates (fixtures/hand); "" = none
  std::string tool = "ictk";     ///< "ictk 0.1.0"
  Switches switches;
  /// Only rules whose ID starts with this (a subset, for tests); "" = all.
  std::string rule_prefix;
};

/// A generated corpus: every file's content by its path relative to the corpus folder
/// (`<rule>/<slug>-<hash8>.json`, `INDEX.json`, `VERSION`).
struct Corpus {
  std::map<std::string, std::string> files;
  std::vector<std::string> notes;  ///< rules left short of their counts, and why
};

/// The corpus version written to VERSION (the fixture format version and the corpus
/// revision).
inline constexpr const char* kCorpusVersion = "1.5";

/// Generates the corpus: deterministic in the options and the model (no timestamps or
/// durations in any file).
Result<Corpus> GenerateCorpus(const CorpusOptions& options);

/// Writes `corpus` under `dir`, removing `*.json` files there that it does not contain.
Result<void> WriteCorpus(const Corpus& corpus, const std::string& dir);

/// The problems `ictk fixtures verify` found (empty: the corpus is sound).
struct VerifyResult {
  int64_t files = 0;
  std::vector<std::string> problems;  ///< "FILE: ...", each naming the step for drift
  bool unreadable = false;            ///< a file could not be decoded (exit 2)
};

/// Verifies the corpus in `dir`: strict decoding, hashes, IDs and paths, INDEX.json, a
/// replay on the reference implementation, and each step's expectations against what
/// the model derives now.
VerifyResult VerifyCorpus(const std::string& dir, const Switches& switches);

}  // namespace ictk
