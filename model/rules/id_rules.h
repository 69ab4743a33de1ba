/// \file
/// The constraint-ID rules (seed, "Constraint IDs"), one predicate each over plain
/// numbers. The judge (outcome.cc), metadata lint (metadata_rules.cc), reader-side
/// checks (reader_ops.cc), the canonical answers (constraint_ops.cc, upgrade.cc) and the
/// catalogue's `checked_by` all name these.
#pragma once

#include <optional>
#include <set>

#include "model/iceberg/constraint.h"
#include "model/iceberg/table_metadata.h"
#include "model/rules/ruling.h"

namespace ictk {

/// id.last-default-zero: "Constraint IDs are assigned from the table's
/// `last-constraint-id`, which is treated as 0 when it is not present."
ConstraintId LastConstraintIdOrZero(const std::optional<ConstraintId>& last_constraint_id);

/// id.above-last: "Writers must assign a new constraint an ID that is higher than the
/// table's current `last-constraint-id`". In stored metadata, where the table's earlier
/// `last-constraint-id` is unknown, an ID must at least be above 0 (`last` = 0).
bool IdAboveLast(ConstraintId id, ConstraintId last);

/// The lowest ID id.above-last allows a writer: one above `last`.
ConstraintId LowestIdAboveLast(ConstraintId last);

/// id.update-last: "and must update `last-constraint-id` to the highest assigned ID".
/// Whether `last`, the table's `last-constraint-id` after a change from `last_before`
/// that assigned IDs up to `highest_assigned` (0 when none), is the larger of the two. In
/// stored metadata, where the history is unknown, an assigned ID `id` must be at most
/// `last`: LastConstraintIdUpdated(last, last, id).
bool LastConstraintIdUpdated(ConstraintId last, ConstraintId last_before,
                             ConstraintId highest_assigned);

/// id.no-reuse: "Constraint IDs must not be reused after the constraint that used an ID
/// is removed, because retained snapshots may still reference the removed ID." Whether a
/// new constraint's `id` is none of the `removed_ids`.
bool IdNotReused(ConstraintId id, const std::set<ConstraintId>& removed_ids);

/// id.readers-tolerate-missing: "Readers must not assume that every constraint-id
/// referenced by a snapshot is present in constraints." Such metadata is read, not
/// refused: a reason for a reader's success when some snapshot lists a missing ID.
Rulings ReadersTolerateMissing(const TableMetadata& metadata);

}  // namespace ictk
