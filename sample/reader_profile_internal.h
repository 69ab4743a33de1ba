/// \file
/// The sample's profiles (docs/protocol.md section 9): the full v4 writer (the default),
/// and two readers that write nothing — a careful **v1-v3 reader** (`v3-reader`:
/// `format-versions` [1,2,3]; refuses v4 metadata with `unsupported-format-version`, and
/// refuses v1-v3 metadata that carries the v4-only keys as `invalid-metadata`, which both
/// readings of switch v3-constraint-fields allow) and a **v4 reader** (`v4-reader`:
/// versions 1-4; keeps constraints, `last-constraint-id` and `constraint-statuses` when it
/// re-serializes v4 metadata; echoes v1-v3 metadata as given, keys and all, which only
/// v3-constraint-fields=either allows). Selected by `builtin:sample?profile=NAME`,
/// `ictk-sample-adapter --profile NAME` and, for the shared library, the environment
/// variable ICTK_SAMPLE_PROFILE. The engine is the same; the profile decides what
/// `hello` says and which ops a reader answers before the engine sees them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "model/judge/requests.h"
#include "sample/engine_internal.h"
#include "sample/mutants_internal.h"

namespace ictk::sample {

enum class Profile { kWriter, kV3Reader, kV4Reader };

/// "writer", "v3-reader", "v4-reader".
std::string_view ToString(Profile profile);
std::optional<Profile> ParseProfile(std::string_view name);

/// Sets the `hello` answer's `profile`, `format-versions` and `capabilities` for a reader
/// profile (a writer's answer is left as it is).
void ProfileHello(Profile profile, nlohmann::json& hello);

/// A reader profile's own answer to request `op` (nullopt: the engine answers): an op a
/// reader does not do is `unsupported`; the v1-v3 reader's refusals; the v4 reader's echo
/// of v1-v3 metadata.
std::optional<nlohmann::json> ProfileAnswer(Profile profile, std::string_view op,
                                            const nlohmann::json& request,
                                            const nlohmann::json& id);

/// The reader mutants, applied to the engine's reply (reader-drops-constraints: a v4
/// reader that writes metadata back without its constraint fields).
void ApplyReaderMutants(Mutant mutant, const Request& request, Reply& reply);

/// The mutants that refuse a request before the engine sees it (answer_mutants.cc):
/// long-beyond-2p53-refused refuses a commit whose rows carry an integer beyond +-2^53.
/// nullopt: the request goes on.
std::optional<nlohmann::json> RefuseAsMutant(Mutant mutant, std::string_view op,
                                             const nlohmann::json& request,
                                             const nlohmann::json& id);

/// The mutants that write the answer's table metadata wrong (answer_mutants.cc): a
/// current-schema-id, default-spec-id, default-sort-order-id, current-snapshot-id or
/// main ref naming nothing, a stale last-sequence-number, a table-uuid without dashes
/// or regenerated, v3 members before v3, a required member dropped, a member in the
/// wrong JSON form, an answer without its metadata.
void ApplyAnswerMutants(Mutant mutant, std::string_view op, const nlohmann::json& request,
                        nlohmann::json& answer);

}  // namespace ictk::sample
