/// \file
/// What a reader is fed: the metadata of `parse-metadata` and `read-statuses` requests
/// comes from the reference model's own writer histories, so that a reader-only
/// implementation is handed what v4 writers write — constraints of every type, statuses
/// in every list, removed constraints' IDs still listed by old snapshots, constraints
/// added after a snapshot (absent from its lists), upgraded tables with their `pk` and
/// the identifier fields left in their old schemas — and the reader cases of the rules:
/// v1-v3 metadata carrying the v4-only keys (def.v4-only, switch v3-constraint-fields)
/// and metadata that breaks one definition, key, ID or surrounding Iceberg rule (which a
/// reader may refuse, never must accept... nor must refuse).
///
/// Everything is a pure function of the plan step (its seed, size, flavour and pick) and
/// the capabilities, so a history renders the same request on every run, and shrinking
/// the step's `size` shrinks the writer history behind it. The caller holds
/// RapidCheckMutex() (HistoryRenderer::Next does).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators/capabilities.h"
#include "generators/history.h"
#include "model/rules/rule_id.h"
#include "model/rules/switches.h"
#include "model/iceberg/table_metadata.h"

namespace ictk {

/// Where a reader request's metadata comes from.
enum class ReaderSource {
  kOwn,             ///< the implementation's own table (writer profiles)
  kModel,           ///< a model-written table (v4 when the reader declares 4)
  kModelUpgraded,   ///< a v1-v3 table with identifier fields, upgraded to v4 by the model
  kV3WithV4Keys,    ///< model-written v1-v3 metadata carrying v4-only keys (def.v4-only)
  kBrokenDefinition,  ///< model-written v4 metadata breaking a def./key./id. rule
  kBrokenIceberg,   ///< model-written metadata breaking a surrounding Iceberg rule (ice.*)
};

/// A reader request's metadata and what it aims at.
struct ReaderInput {
  ReaderSource source = ReaderSource::kModel;
  TableMetadata metadata;
  std::optional<SnapshotId> snapshot_id;  ///< read-statuses: an older snapshot
  std::string label;                      ///< "model-v4", "v3-with-v4-keys/constraints", ...
  std::vector<RuleId> tags;               ///< rules the request means to exercise
  Intent intent = Intent::kAny;           ///< kReject only for an unknown format version
  std::optional<RuleId> aimed_at;
  /// read-statuses of an older snapshot that lists a constraint dated after it
  /// (`DatedAfterSnapshot`): the request provokes def.timestamp-informational/applies.
  bool dated_after_snapshot = false;
};

/// The table a writer history of `seed` leaves on the reference model (create, then up
/// to `2 + size / 10` plan steps of row commits, constraint changes, validation,
/// transactions and schema changes, every request answered with the model's canonical
/// answer), in format `format_version` (1-4); with `upgrade`, a v1-v3 table with
/// identifier fields that the history upgrades to v4 half-way. nullopt when the history
/// creates no table (a schema the generator cannot draw).
std::optional<TableMetadata> ModelWrittenMetadata(uint64_t seed, int size,
                                                  int32_t format_version, bool upgrade,
                                                  const Switches& switches);

/// Which source a reader step draws from: mostly model-written v4 metadata (v1-v3 when
/// the reader does not declare 4), the implementation's own table now and then when it
/// has one (`have_own`), and the v4-only, broken-definition (parse-metadata only) and
/// broken-Iceberg cases.
ReaderSource ChooseReaderSource(const PlanStep& step, const Capabilities& capabilities,
                                bool have_own, bool parse_metadata);

/// The metadata of a reader step from `source` (not kOwn). nullopt when no table could be
/// written for it.
std::optional<ReaderInput> MakeReaderInput(ReaderSource source, const PlanStep& step,
                                           const Capabilities& capabilities,
                                           const Switches& switches, bool parse_metadata);

std::string_view ToString(ReaderSource source);

}  // namespace ictk
