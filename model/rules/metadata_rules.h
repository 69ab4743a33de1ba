/// \file
/// The metadata lint: every rule that can be judged on one decoded table metadata,
/// without its history (`ictk lint-metadata`, and the harness on metadata an
/// implementation returns). Each finding carries a JSON pointer into the metadata
/// ("/constraints/1/field-ids/0"). Where metadata alone cannot decide (which schemas were
/// added after the upgrade to v4, which constraints existed when a snapshot was written)
/// the lint reports only what it can prove; docs/interpretations.md says how.
#pragma once

#include <set>

#include "model/iceberg/evaluate.h"
#include "model/rules/finding.h"
#include "model/rules/switches.h"
#include "model/iceberg/table_metadata.h"

namespace ictk {

/// Every metadata rule: def.v4-only, the constraint definitions against the current
/// schema (CheckConstraintDefinition), the set rules (CheckConstraintSet), constraint IDs
/// against `last-constraint-id`, each snapshot's status lists, upg.no-identifiers-in-v4,
/// and the surrounding Iceberg rules of iceberg_rules.h.
Findings LintMetadata(const TableMetadata& metadata, const FunctionCatalog& functions,
                      const Switches& switches);

/// def.v4-only: v1-v3 metadata carries no `constraints`, `last-constraint-id` or
/// `constraint-statuses`.
Findings CheckV4OnlyFields(const TableMetadata& metadata);

/// id.above-last and id.update-last on stored IDs: every `constraint-id` is above 0 (the
/// `last-constraint-id` of a table without one: id.last-default-zero) and at most
/// `last-constraint-id`.
Findings CheckConstraintIdsBelowLast(const TableMetadata& metadata);

/// id.update-last on stored IDs, the half CheckConstraintIdsBelowLast shares with every
/// returned metadata: each `constraint-id` at most `last-constraint-id` (absent = 0).
Findings CheckIdsAtMostLast(const TableMetadata& metadata);

/// id.no-reuse on a table's metadata: no constraint has one of `removed_ids` (the IDs of
/// constraints removed earlier in the table's history) (IdNotReused).
Findings CheckNoRemovedIdReused(const TableMetadata& metadata,
                                const std::set<ConstraintId>& removed_ids);

/// sch.referenced-exist on a table's metadata: every field a constraint references (its
/// `field-ids`, the references of its expression) is a field of the current schema, nested
/// fields included.
Findings CheckReferencedFieldsExist(const TableMetadata& metadata);

/// st.exactly-one-list in the current snapshot, the half its lists alone decide: each ID
/// in one list, once (CheckListedOnce). No current snapshot or no `constraint-statuses`:
/// nothing.
Findings CheckCurrentStatusListedOnce(const TableMetadata& metadata);

/// st.exactly-one-list in the current snapshot under stale-ids-in-new-snapshot=reject:
/// its lists name only IDs of the metadata's constraints (CheckNoStaleIds).
Findings CheckCurrentStatusIdsExist(const TableMetadata& metadata);

/// The rules on each snapshot's `constraint-statuses` that metadata can prove: an ID
/// listed once (st.exactly-one-list), IDs that can never have existed (switch
/// stale-ids-in-new-snapshot), current constraints older than a listed one that are
/// missing (st.exactly-one-list), `valid` only after a `validated`/`valid` parent
/// (st.valid), and never `valid` for a check that calls a UDF (expr.udf-status).
Findings CheckSnapshotStatusLists(const TableMetadata& metadata,
                                  const Switches& switches);

/// upg.no-identifiers-in-v4, conservatively: a schema that comes after, in `schemas`, the
/// schema of a snapshot that carries `constraint-statuses` (so was written in v4) must
/// not carry `identifier-field-ids`.
Findings CheckNoIdentifiersAddedInV4(const TableMetadata& metadata);

/// upg.no-identifiers-in-v4, the rule itself: "Writers must not set
/// `identifier-field-ids` in a schema that is added to a v4 table". Every schema of a v4
/// `metadata` whose ID is not in `earlier_schema_ids` (the schemas the table had when it
/// already was v4, or that predate its upgrade) was added to a v4 table and must carry no
/// identifier fields (an empty list counts as none). Judge, the properties' invariants and
/// CheckNoIdentifiersAddedInV4 all call this one function.
Findings CheckNoIdentifiersInAddedSchemas(const TableMetadata& metadata,
                                          const std::set<int32_t>& earlier_schema_ids);

}  // namespace ictk
