/// \file
/// The trace anchors (trace.h): further sentences of the seed that a rule implements,
/// beyond the rule catalogue's one quote per rule. tests/review/trace_test.cc checks that
/// each is verbatim in the seed. A new normative sentence in the spec needs either a rule
/// whose catalogue quote it contains or an anchor here on the rule that implements it.
#include "review/trace.h"

namespace ictk {

const std::vector<TraceAnchor>& TraceAnchors() {
  using R = RuleId;
  static const std::vector<TraceAnchor> anchors = {
      // The `enforced` field's description in the field table.
      {R::kSemCheck, "The predicate that every row must satisfy"},
      {R::kEnfEnforced, "Whether writers must only add rows that satisfy the constraint"},
      // What "evaluated for each row over the values of that row" allows and rules out.
      {R::kExprRowLocal, "An expression may reference more than one field of the row"},
      {R::kExprRowLocal,
       "Expressions that depend on more than one row, such as aggregates over rows and "
       "window functions, and expressions that depend on another table, such as "
       "subqueries, must not be used."},
      {R::kExprNoListMapElement,
       "An expression may pass a whole `list` or `map` field to a function"},
      {R::kExprDeterministic,
       "A function that depends on anything other than its arguments, such as the "
       "current time or a random value, must not be called."},
      {R::kExprDeterministic,
       "A [user-defined function](udf-spec.md) must not be called unless its current "
       "definition version declares `deterministic` as true."},
      {R::kUpdDefinitionImmutable,
       "Such updates must be done by removing the constraint and adding a new one with a "
       "new `constraint-id`."},
      {R::kStEnforcementSeparate,
       "Whether writers must verify the rows that they add is a property of a "
       "constraint, tracked by `enforced`."},
      {R::kStExactlyOneList, "A list with no constraints may be omitted."},
      {R::kStReaderLookup,
       "Readers must determine the status of a constraint for a snapshot as follows"},
      {R::kStReaderLookup,
       "If the constraint's `constraint-id` is listed in `validated`, `valid`, "
       "`invalid`, or `unvalidated`, that is its status"},
      {R::kStNoAddCarry, "A commit that does not add rows cannot introduce a violation."},
  };
  return anchors;
}

}  // namespace ictk
