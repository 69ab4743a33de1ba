/// \file
/// Rules on constraint definitions, the upgrade to v4 and updates that several places
/// need (seed "Constraints", "Constraints and Schema Evolution"), one predicate each over
/// plain facts. Metadata lint (metadata_rules.cc), the per-rule checks
/// (constraint_rules.cc), the operations (constraint_ops.cc, commit.cc, reader_ops.cc,
/// schema_change.cc, upgrade.cc) and the catalogue's `checked_by` all name these instead
/// of restating them.
#pragma once

#include <cstdint>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/table_metadata.h"

namespace ictk {

/// def.v4-only: "Constraints are added in v4 and are not supported in v3 or earlier."
/// Whether a table of `format_version` may have constraints (and `last-constraint-id`
/// and `constraint-statuses`).
bool ConstraintsSupported(int32_t format_version);

/// key.pk-required: "The fields of a primary-key constraint must be required and must not
/// be nested in an optional struct". Whether the field at `loc` may be a primary-key
/// field.
bool PrimaryKeyFieldRequired(const FieldLocation& loc);

/// sch.referenced-exist: "Every field referenced by a constraint must exist in the
/// table's current schema." Whether field `id` exists among the schema's `fields`.
bool ReferencedFieldExists(const std::vector<NestedField>& fields, FieldId id);

/// upg.no-identifiers-in-v4: "Writers must not set `identifier-field-ids` in a schema
/// that is added to a v4 table". Whether `schema`, added to a table of `format_version`,
/// keeps it: the table is not v4, or the schema carries no identifier field.
bool NoIdentifiersInV4Schema(int32_t format_version, const Schema& schema);

/// upd.timestamp: "`timestamp-ms` must be updated when the constraint is updated".
/// Whether an update from `before` to `after` must give the constraint a new
/// `timestamp-ms`: it changes the constraint's `name` or `enforced` (an update that
/// changes nothing may keep the timestamp, docs/interpretations.md).
bool TimestampMustBeUpdated(const Constraint& before, const Constraint& after);

/// Which constraints the new snapshot must list: "Every constraint that exists when the
/// snapshot is created must be listed in exactly one of the four lists" (st.exactly-one-
/// list), whatever its `timestamp-ms`: "The timestamp is informational and must not be
/// used to determine whether a constraint applies to a snapshot or whether it holds"
/// (def.timestamp-informational).
bool AppliesToNewSnapshot(const Constraint& c);

/// def.timestamp-informational/applies: "The timestamp is informational and must not be
/// used to determine whether a constraint applies to a snapshot". Whether `c` is dated
/// after a snapshot taken at `snapshot_timestamp_ms`: the case where a reader that took
/// `timestamp-ms` as deciding whether a constraint applies would read it as not applying
/// (unvalidated) although the snapshot lists it. The knock-out of this clause
/// (model/rules/knockout.h) and the generator of reads that provoke it both ask this.
bool DatedAfterSnapshot(const Constraint& c, int64_t snapshot_timestamp_ms);

/// Whether def.timestamp-informational/applies tells for `c` read at `snapshot`: the
/// snapshot lists `c` with a status other than `unvalidated` (st.reader-lookup) and `c`
/// is dated after it, so a reader that took the timestamp as deciding would answer
/// otherwise. The generators ask it of the reads they make.
bool TimestampWouldChangeReaderStatus(const Snapshot& snapshot, const Constraint& c);

}  // namespace ictk
