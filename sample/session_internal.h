/// \file
/// One sample session: the engine behind the protocol's JSON. Every transport (builtin,
/// exec, lib) goes through `Call` (objects) or `CallLine` (text), so that all three
/// answer the same bytes for the same requests.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "model/judge/requests.h"
#include "sample/divergent_internal.h"
#include "sample/mutants_internal.h"
#include "sample/reader_profile_internal.h"

namespace ictk::sample {

class Engine;

class Session {
 public:
  explicit Session(Mutant mutant, Style style = Style::kCanonical,
                   Profile profile = Profile::kWriter);
  ~Session();

  /// Answers one request object.
  nlohmann::json Call(const nlohmann::json& request);
  /// Answers one request line (a line that is not JSON is answered with "id": null and
  /// `invalid-request`); the answer is one line of compact JSON without the newline.
  std::string CallLine(std::string_view line);

  Mutant mutant() const { return mutant_; }
  Style style() const { return style_; }

 private:
  /// The answer with the table's whole metadata.
  nlohmann::json CallWhole(const nlohmann::json& request);
  nlohmann::json CallUnchecked(const nlohmann::json& request);
  /// An `ok` answer's whole metadata on a table replaced by what changed since the last
  /// metadata answered on that table, when the harness offered it (protocol section 7).
  void AnswerDelta(const nlohmann::json& request, nlohmann::json& answer);
  /// The request decoded (throws Malformed / UnknownOp), a commit's rows typed by the
  /// schema it writes under.
  Request Decode(const nlohmann::json& request) const;
  /// The divergent style's rewriting of an answer that changes no meaning: other orders
  /// of the lists whose order means nothing, unknown extra members.
  void Diverge(nlohmann::json& answer, uint64_t seed) const;

  Mutant mutant_;
  Style style_;
  Profile profile_ = Profile::kWriter;
  uint64_t seed_ = 0;  ///< the current request's seed (divergent)
  std::unique_ptr<Engine> engine_;
  /// Whether the harness's hello offered `metadata-delta` answers.
  bool delta_offered_ = false;
  /// The last metadata answered on each of the latest tables (most recent last) and the
  /// `id` of the request it answered: the base of the next delta.
  struct Sent {
    std::string table;
    int64_t id = 0;
    nlohmann::json metadata;
  };
  std::vector<Sent> sent_;
};

/// Parses the query of `builtin:sample?QUERY`: "" or `&`-separated `mutant=NAME`,
/// `style=canonical|divergent` and `profile=writer|v3-reader|v4-reader`, each at most once,
/// in any order; an error message, or "" with `mutant`, `style` and `profile` set.
std::string ParseSampleQuery(const std::string& query, Mutant& mutant, Style& style,
                             Profile& profile);

}  // namespace ictk::sample
