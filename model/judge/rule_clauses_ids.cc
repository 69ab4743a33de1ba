/// \file
/// The clauses of the constraint ID rules (id.*), the upgrade rules (upg.*) and the
/// check expression rules (expr.*).
/// The scheme is rule_clauses.cc's.
#include "model/judge/rule_catalogue_internal.h"

namespace ictk {

namespace {

using R = RuleId;

using E = ExemptKind;

}  // namespace

/// The clauses of id.*.
std::vector<ClauseRow> IdClauses() {
  return {
      {R::kIdLastDefaultZero, "whole", "treated as 0 when it is not present",
       "upgrade/v3-to-v4", ""},
      {R::kIdAboveLast, "whole",
       "Writers must assign a new constraint an ID that is higher than the table's current "
       "`last-constraint-id`",
       "add-constraint/unique", ""},
      {R::kIdUpdateLast, "whole", "must update `last-constraint-id` to the highest assigned ID",
       "add-constraint/unique", ""},
      {R::kIdNoReuse, "whole", "Constraint IDs must not be reused", "remove-constraint", ""},
      {R::kIdReadersTolerateMissing, "whole",
       "Readers must not assume that every `constraint-id` referenced by a snapshot is "
       "present in `constraints`.",
       "read-statuses/missing-constraint", ""},
  };
}

/// The clauses of upg.*.
std::vector<ClauseRow> UpgClauses() {
  return {
      {R::kUpgPkFromIdentifiers, "single-pk",
       "rewritten as a single `primary-key` constraint", "upgrade/v3-to-v4", ""},
      {R::kUpgPkFromIdentifiers, "not-enforced", "that is not enforced", "upgrade/v3-to-v4",
       ""},
      {R::kUpgSkipIneligible, "no-constraint", "no constraint is created", "upgrade/v3-to-v4",
       ""},
      {R::kUpgSkipIneligible, "continues", "the upgrade continues without it",
       "upgrade/v3-to-v4", ""},
      {R::kUpgNoIdentifiersInV4, "whole",
       "Writers must not set `identifier-field-ids` in a schema that is added to a v4 table",
       "update-schema/add-optional", ""},
      {R::kUpgReadersIgnoreIdentifiers, "whole",
       "readers must ignore `identifier-field-ids` in a v4 table",
       "read-statuses/identifiers-in-v4", ""},
  };
}

/// The clauses of expr.*.
std::vector<ClauseRow> ExprClauses() {
  return {
      {R::kExprIdReferences, "whole", "must use ID references",
       "add-invalid-constraint/expr.id-references", ""},
      {R::kExprRowLocal, "whole", "evaluated for each row over the values of that row", "",
       "",
       {E::kInexpressible,
        "the expression grammar has no aggregates, windows or subqueries, so no check a "
        "request can carry looks beyond its row"}},
      {R::kExprNoListMapElement, "list", "must not reference a field within a `list`",
       "add-invalid-constraint/expr.no-list-map-element/list", ""},
      {R::kExprNoListMapElement, "map", "or a `map`",
       "add-invalid-constraint/expr.no-list-map-element/map", ""},
      {R::kExprDeterministic, "whole",
       "must produce the same result every time it is evaluated for the same row",
       "add-invalid-constraint/expr.deterministic", ""},
      {R::kExprUdfStatus, "not-valid", "a writer must not record `valid` for such a constraint",
       "append/fresh", ""},
      {R::kExprUdfStatus, "no-carry", "or keep the parent snapshot's status for it",
       "delete/some", ""},
      {R::kExprUdfStatus, "validated-when-all-checked",
       "the constraint is `validated` only if it was checked for every row in the snapshot",
       "", "",
       {E::kComposite,
        "restates st.validated/checked-holds for a UDF check, whose other way to validated "
        "(a carried status) expr.udf-status/no-carry forbids: its mutants are those two "
        "clauses'"}},
      {R::kExprWellTyped, "whole", "is serialized as described in the [Iceberg expressions",
       "add-invalid-constraint/expr.well-typed", ""},
  };
}

}  // namespace ictk
