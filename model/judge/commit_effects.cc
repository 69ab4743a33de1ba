/// \file
/// What a commit's row changes do to each constraint, in time proportional to the rows it
/// touches: key constraints through their count index (key_index.h), checks through
/// their violation tally (table_state.h).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "model/rules/definition_rules.h"
#include "model/rules/enforcement.h"
#include "model/judge/operations_internal.h"
#include "model/iceberg/single_value.h"
#include "model/judge/commit_internal.h"

namespace ictk::internal {

namespace {

bool IsAdded(const RowChange& c) { return c.kind == RowChange::Kind::kAdd; }

/// A `unique` or `primary-key` constraint after the commit. "a writer must verify that
/// added rows have distinct keys among themselves and do not conflict with rows remaining
/// from the new parent after applying the commit's removals"
/// (enf.keys-against-remaining), where `unique` compares only "the rows in which every
/// field in the set is non-null" (sem.unique) and a `primary-key` key "must not be null"
/// (sem.primary-key). The index is not changed: per touched tuple the count after the
/// commit is the indexed count plus the commit's delta.
void KeysAgainstRemaining(const KeyIndex& index, const std::vector<RowChange>& changes,
                          ConstraintEffect& e) {
  struct Touch {
    int64_t delta = 0;
    bool by_added = false;
    bool by_modified = false;
    std::string key;
  };
  KeyTupleMap<Touch> touched = MakeKeyTupleMap<Touch>(index.shared_fields());
  int64_t null_delta = 0;
  for (const RowChange& c : changes) {
    if (c.before != nullptr) {
      if (std::optional<KeyTuple> t = index.Extract(*c.before)) {
        touched[std::move(*t)].delta -= 1;
      } else {
        null_delta -= 1;
      }
    }
    if (!c.after) continue;
    if (std::optional<KeyTuple> t = index.Extract(*c.after)) {
      Touch& touch = touched[std::move(*t)];
      touch.delta += 1;
      (IsAdded(c) ? touch.by_added : touch.by_modified) = true;
      if (touch.key.empty()) touch.key = c.key;
    } else {
      null_delta += 1;
      if (index.primary_key()) {
        (IsAdded(c) ? e.broken_by_added : e.broken_by_modified) = true;
        if (e.example.empty()) e.example = c.key;
      }
    }
  }
  int64_t duplicates = static_cast<int64_t>(index.duplicate_keys());
  for (const auto& [tuple, touch] : touched) {
    const int64_t before = static_cast<int64_t>(index.CountOf(tuple));
    const int64_t after = before + touch.delta;
    if (before >= 2) --duplicates;
    if (!KeyConflictsAfterCommit(after)) continue;
    ++duplicates;
    if (touch.by_added) e.broken_by_added = true;
    if (touch.by_modified) e.broken_by_modified = true;
    if ((touch.by_added || touch.by_modified) && e.example.empty()) e.example = touch.key;
  }
  const int64_t nulls = static_cast<int64_t>(index.null_rows()) + null_delta;
  e.holds_after =
      index.primary_key() ? PrimaryKeyHolds(duplicates, nulls) : UniqueHolds(duplicates);
  e.violated_after = !e.holds_after;
}

/// A `check` constraint after the commit: "every row must satisfy a predicate"
/// (sem.check), the predicate evaluated for each added row on its own; the tally of
/// violating rows is adjusted by the rows the commit removes and adds.
void CheckRows(const CheckTally& tally, const Constraint& check,
               const std::vector<NestedField>& fields,
               const std::vector<RowChange>& changes, const FunctionCatalog& functions,
               ConstraintEffect& e) {
  int64_t violating = static_cast<int64_t>(tally.violating);
  int64_t unevaluable = static_cast<int64_t>(tally.unevaluable);
  e.calls_udf = tally.calls_udf;
  e.nondeterministic = tally.calls_nondeterministic;
  if (!check.expression) {
    e.holds_after = CheckHolds(violating, unevaluable);
    e.violated_after = violating > 0;
    return;
  }
  const BindResult bound = BindCheckExpression(*check.expression, fields, functions);
  e.calls_udf = bound.calls_udf;
  e.nondeterministic = bound.calls_nondeterministic;
  const CompiledCheck compiled(*check.expression, fields, functions);  // bound once
  for (const RowChange& c : changes) {
    if (c.before != nullptr) {
      std::optional<bool> r = RowSatisfies(compiled, *c.before);
      if (!r) {
        --unevaluable;
      } else if (!*r) {
        --violating;
      }
    }
    if (!c.after) continue;
    std::optional<bool> r = RowSatisfies(compiled, *c.after);
    if (!r) {
      ++unevaluable;
      (IsAdded(c) ? e.unverifiable_added : e.unverifiable_modified) = true;
    } else if (!*r) {
      ++violating;
      (IsAdded(c) ? e.broken_by_added : e.broken_by_modified) = true;
      if (e.example.empty()) e.example = c.key;
    }
  }
  e.holds_after = CheckHolds(violating, unevaluable);
  e.violated_after = violating > 0;
}

}  // namespace

std::vector<ConstraintEffect> EvaluateConstraints(const TableState& parent,
                                                  const std::vector<RowChange>& changes,
                                                  const FunctionCatalog& functions) {
  std::vector<ConstraintEffect> effects;
  const Schema* schema = parent.metadata.CurrentSchema();
  for (const Constraint& c : ConstraintsOf(parent.metadata)) {
    if (!c.id) continue;
    ConstraintEffect e;
    e.constraint = &c;
    e.id = *c.id;
    e.name = c.name.value_or("");
    e.enforced = c.enforced.value_or(false);
    if (c.type == ConstraintType::kCheck) {
      auto it = parent.check_tallies.find(*c.id);
      if (it != parent.check_tallies.end() && schema != nullptr)
        CheckRows(it->second, c, schema->fields, changes, functions, e);
    } else {
      auto it = parent.key_indexes.find(*c.id);
      if (it != parent.key_indexes.end()) KeysAgainstRemaining(it->second, changes, e);
    }
    effects.push_back(std::move(e));
  }
  return effects;
}

}  // namespace ictk::internal
