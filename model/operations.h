/// \file
/// The model's operations as pure functions over the catalog state (table_state.h):
/// `Apply` says what the spec allows as the answer to a request (outcome.h), `Adopt`
/// takes an implementation's legal answer (its constraint IDs, statuses, snapshot IDs) as
/// the new state, and `CanonicalAnswer` builds the answer the reference implementation
/// gives: the lowest legal new ID (`last-constraint-id` + 1), the most precise statuses,
/// timestamps from `now-ms`. The request structs are in requests.h.
#pragma once

#include <optional>

#include "model/finding.h"
#include "model/iceberg_rules.h"
#include "model/outcome.h"
#include "model/requests.h"
#include "model/switches.h"
#include "model/table_metadata.h"
#include "model/table_state.h"

namespace ictk {

/// What the spec allows as the answer to `request` in `state`. Pure; cost proportional to
/// the rows the request touches (a commit), or to the table for requests that must look
/// at every row (add-constraint, validate, scan).
AllowedOutcome Apply(const CatalogState& state, const Request& request,
                     const Switches& switches);

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
