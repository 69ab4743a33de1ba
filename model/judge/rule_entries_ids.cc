/// \file
/// The rule catalogue's entries of the constraint ID rules (id.*), the upgrade rules
/// (upg.*) and the check expression rules (expr.*).
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using B = Binds;
using R = RuleId;

}  // namespace

/// id.*: constraint IDs.
std::vector<RuleInfo> IdEntries() {
  return {
      {R::kIdLastDefaultZero,
       {},
       "Constraint IDs are assigned from the table's `last-constraint-id`, which is "
       "treated as 0 when it is not present.",
       "an absent last-constraint-id is 0",
       B::kMetadata,
       {"LastConstraintIdOrZero"}},
      {R::kIdAboveLast,
       {},
       "Writers must assign a new constraint an ID that is higher than the table's "
       "current `last-constraint-id`",
       "a new constraint ID is above last-constraint-id (in metadata: above 0)",
       B::kWriter,
       {"IdAboveLast"}},
      {R::kIdUpdateLast,
       {},
       "must update `last-constraint-id` to the highest assigned ID",
       "last-constraint-id is at least every assigned ID",
       B::kWriter,
       {"LastConstraintIdUpdated"}},
      {R::kIdNoReuse,
       {},
       "Constraint IDs must not be reused after the constraint that used an ID is "
       "removed, because retained snapshots may still reference the removed ID.",
       "a removed constraint's ID is never assigned again",
       B::kWriter,
       {"IdNotReused"}},
      {R::kIdReadersTolerateMissing,
       {},
       "Readers must not assume that every `constraint-id` referenced by a snapshot is "
       "present in `constraints`.",
       "readers tolerate listed IDs that are not in constraints",
       B::kReader,
       {"ReadersTolerateMissing"}},
  };
}

/// upg.*: the upgrade to v4.
std::vector<RuleInfo> UpgEntries() {
  return {
      {R::kUpgPkFromIdentifiers,
       {},
       "When a table is upgraded to v4, the `identifier-field-ids` of the table's "
       "current schema are rewritten as a single `primary-key` constraint that is not "
       "enforced.",
       "upgrade: identifier fields become a pk named `pk`, not enforced, ID from "
       "last-constraint-id, timestamp-ms the upgrade's",
       B::kWriter,
       {"PrimaryKeyFromIdentifiers"}},
      {R::kUpgSkipIneligible,
       {},
       "If any of those fields cannot be used in a `primary-key` constraint, such as a "
       "`geometry` or `geography` field, no constraint is created and the upgrade "
       "continues without it.",
       "ineligible identifier fields: no pk, the upgrade succeeds",
       B::kWriter,
       {"EligiblePrimaryKey"}},
      {R::kUpgNoIdentifiersInV4,
       {},
       "Writers must not set `identifier-field-ids` in a schema that is added to a v4 "
       "table",
       "schemas added in v4 carry no identifier-field-ids",
       B::kWriter,
       {"NoIdentifiersInV4Schema"}},
      {R::kUpgReadersIgnoreIdentifiers,
       {},
       "readers must ignore `identifier-field-ids` in a v4 table",
       "a v4 reader never treats identifier fields as a key",
       B::kReader,
       {"ReadersIgnoreIdentifiers"}},
  };
}

/// expr.*: check expressions.
std::vector<RuleInfo> ExprEntries() {
  return {
      {R::kExprIdReferences,
       {},
       "must use ID references so that it remains bound to the same fields when columns "
       "are renamed",
       "no name-based references or legacy predicate forms",
       B::kMetadata,
       {"CheckExprIdReferences"}},
      {R::kExprRowLocal,
       {},
       "A check expression is evaluated for each row over the values of that row.",
       "no aggregates, windows or subqueries (the expression grammar has none)",
       B::kMetadata,
       {"RowSatisfies"},
       true},
      {R::kExprNoListMapElement,
       {},
       "An expression must not reference a field within a `list` or a `map`, because "
       "such a field has a value for each element rather than one value for the row.",
       "no reference inside a list or map; a whole list or map may be passed to a "
       "function",
       B::kMetadata,
       {"CheckExprNoListMapElement"}},
      {R::kExprDeterministic,
       {},
       "A check expression must produce the same result every time it is evaluated for "
       "the same row.",
       "only deterministic functions; a UDF only if its current definition declares "
       "deterministic",
       B::kMetadata,
       {"CheckExprDeterministic"}},
      {R::kExprUdfStatus,
       {},
       "a writer must not record `valid` for such a constraint or keep the parent "
       "snapshot's status for it; the constraint is `validated` only if it was checked "
       "for every row in the snapshot",
       "a check calling a UDF is never valid and never carries its status (switch "
       "udf-check-carries-invalid)",
       B::kWriter,
       {"UdfStatusPermits"}},
  };
}

}  // namespace ictk
