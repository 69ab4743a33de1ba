/// \file
/// One sample session: the engine behind the protocol's JSON. Every transport (builtin,
/// exec, lib) goes through `Call` (objects) or `CallLine` (text), so that all three
/// answer the same bytes for the same requests.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sample/mutants_internal.h"
#include "sample/reader_profile_internal.h"

namespace ictk::sample {

class Engine;

class Session {
 public:
  explicit Session(Mutant mutant, Profile profile = Profile::kWriter);
  ~Session();

  /// Answers one request object.
  nlohmann::json Call(const nlohmann::json& request);
  /// Answers one request line (a line that is not JSON is answered with "id": null and
  /// `invalid-request`); the answer is one line of compact JSON without the newline.
  std::string CallLine(std::string_view line);

  Mutant mutant() const { return mutant_; }

 private:
  nlohmann::json CallUnchecked(const nlohmann::json& request);

  Mutant mutant_;
  Profile profile_ = Profile::kWriter;
  std::unique_ptr<Engine> engine_;
};

/// Parses the query of `builtin:sample?QUERY` ("", "mutant=NAME", "profile=NAME", or
/// both joined by '&'); an error message, or "" with `mutant` (and `profile`) set.
std::string ParseSampleQuery(const std::string& query, Mutant& mutant);
std::string ParseSampleQuery(const std::string& query, Mutant& mutant, Profile& profile);

}  // namespace ictk::sample
