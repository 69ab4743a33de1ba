/// \file
/// The model's operations as pure functions over the catalog state (table_state.h):
/// `Apply` says what the spec allows as the answer to a request (outcome.h), `Adopt`
/// takes an implementation's legal answer (its constraint IDs, statuses, snapshot IDs) as
/// the new state, and `CanonicalAnswer` builds the answer the reference implementation
/// gives: the lowest legal new ID (`last-constraint-id` + 1), the most precise statuses,
/// timestamps from `now-ms`. The request structs are in requests.h.
#pragma once

#include <optional>

#include "model/rules/finding.h"
#include "model/rules/iceberg_rules.h"
#include "model/judge/outcome.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/switches.h"
#include "model/iceberg/table_metadata.h"
#include "model/judge/table_state.h"

namespace ictk {

/// What the spec allows as the answer to `request` in `state`. Pure; cost proportional to
/// the rows the request touches (a commit), or to the table for requests that must look
/// at every row (add-constraint, validate, scan).
AllowedOutcome Apply(const CatalogState& state, const Request& request,
                     const Switches& switches);

/// "every timestamp the implementation writes comes from" the request's `now-ms`
/// (proto.timestamp-from-now/every-timestamp, docs/protocol.md section 10): sets on an
/// `ok` outcome the values the judge then demands, only for a request that carries
/// `now-ms` and only where the protocol names the value. The snapshot a commit outside a
/// transaction, a `validate` or a `finish` creates takes that request's `now-ms` ("The
/// snapshot `finish` writes takes `finish`'s `now-ms`"; a staged commit's snapshot is not
/// written, so it is not judged); `last-updated-ms` is the `now-ms` of a request that
/// changes the table (create-table, an upgrade to another version, add- and
/// remove-constraint, an update-constraint that changes the constraint, an update-schema
/// with changes or removals, and those that create a snapshot). Nothing is demanded where
/// the clock does not run ahead of the table (a `now-ms` not above the table's
/// `last-updated-ms`, or for a v4 snapshot not above its parent's `timestamp-ms`): the
/// protocol's "strictly increases" does not hold there, and ice.v4-snapshot-timestamps
/// decides. Apply calls it on every outcome.
void ExpectTimestampsFromNow(const CatalogState& state, const Request& request,
                             AllowedOutcome& outcome);

/// Takes `answer` to `request` as the new state: for `ok`, the answered metadata becomes
/// the table's (with the model's own rows, indexes and tallies updated to match); for a
/// rejection nothing changes, except that a rejected staged commit or finish leaves
/// nothing staged. Returns findings when the answer cannot be adopted (e.g. a metadata
/// answer without metadata, or without the snapshot a commit must create); the state is
/// then unchanged.
Findings Adopt(CatalogState& state, const Request& request, const Answer& answer,
               const Switches& switches);
/// Adopt of an `ok` answer carrying `answered`.
Findings Adopt(CatalogState& state, const Request& request, const TableMetadata& answered,
               const Switches& switches);

/// The reference implementation's answer to `request`, one member of `outcome` (computed
/// by Apply for the same state and request): `ok` whenever ok is allowed, with the lowest
/// legal new constraint ID, the most precise status of each constraint, the next snapshot
/// ID and timestamps from `now-ms`; otherwise a rejection of the first allowed kind.
Answer CanonicalAnswer(const CatalogState& state, const Request& request,
                       const AllowedOutcome& outcome, const Switches& switches);

}  // namespace ictk
