/// \file
/// What a commit's row changes do to each constraint, in time proportional to the rows it
/// touches: key constraints through their count index (key_index.h), checks through
/// their violation tally (table_state.h).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "model/rules/definition_rules.h"
#include "model/rules/enforcement.h"
#include "model/judge/operations_internal.h"
#include "model/iceberg/single_value.h"
#include "model/judge/commit_internal.h"
#include "model/iceberg/value_compare.h"

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

/// The key encoding of `row` as KeyIndex::EncodedKeyOf gives it, or, when `nulls` (a
/// reading without sem.unique/nulls-not-compared), with a null key field encoded as a
/// value that equals only another null.
std::optional<std::string> ScanKey(const KeyIndex& index, const Value& row, bool nulls) {
  static const Value kNull;
  std::string key;
  for (const KeyField& f : index.fields()) {
    const Value* v = ValueAtPath(row, f.path);
    if (v == nullptr) {
      if (!nulls) return std::nullopt;
      v = &kNull;
    }
    AppendKeyEncoding(*v, f.type, key);
  }
  return key;
}

/// A key constraint's facts under a knocked-out clause (knockout.h), by scanning rows
/// instead of the count index: which written rows conflict when added keys are not
/// compared among themselves (kEnfKeysAmongAdded), only among themselves
/// (kEnfKeysAgainstRemaining), against the rows before the commit's removals
/// (kEnfKeysAfterRemovals), against `remaining_source`, the original parent's rows
/// (kEnfRetryKeysNewParent), or with nulls compared (kSemUniqueNullsNotCompared, which
/// changes whether the key holds too). Only the blame asks (model/judge/blame.h).
void KeysByScan(const LiveRows& remaining_source, const KeyIndex& index,
                const std::vector<RowChange>& changes, KnockOut k, ConstraintEffect& e) {
  const bool nulls = k == KnockOut::kSemUniqueNullsNotCompared && !index.primary_key();
  std::unordered_set<std::string> gone;  // the rows the commit removes or modifies
  if (k != KnockOut::kEnfKeysAfterRemovals)
    for (const RowChange& c : changes)
      if (c.before != nullptr) gone.insert(c.key);
  std::unordered_map<std::string, int64_t> remaining;
  if (k != KnockOut::kEnfKeysAgainstRemaining) {
    for (const auto& [key, row] : remaining_source) {
      if (gone.count(key)) continue;
      if (std::optional<std::string> enc = ScanKey(index, row, nulls)) ++remaining[*enc];
    }
  }
  // Each written row's key, encoded once (nullopt: not compared, or no row written).
  std::vector<std::optional<std::string>> encoded(changes.size());
  std::unordered_map<std::string, int64_t> written;
  for (size_t i = 0; i < changes.size(); ++i)
    if (changes[i].after)
      if ((encoded[i] = ScanKey(index, *changes[i].after, nulls))) ++written[*encoded[i]];
  e.broken_by_added = e.broken_by_modified = false;
  e.example.clear();
  for (size_t i = 0; i < changes.size(); ++i) {
    const RowChange& c = changes[i];
    if (!c.after) continue;
    const std::optional<std::string>& enc = encoded[i];
    int64_t others = 0;
    if (enc) {
      const auto r = remaining.find(*enc);
      others = (r == remaining.end() ? 0 : r->second) +
               (k == KnockOut::kEnfKeysAmongAdded ? 0 : written[*enc] - 1);
    }
    const bool broken = enc ? KeyConflictsAfterCommit(others + 1) : index.primary_key();
    if (!broken) continue;
    (IsAdded(c) ? e.broken_by_added : e.broken_by_modified) = true;
    if (e.example.empty()) e.example = c.key;
  }
  if (!nulls) return;
  // With nulls compared, the key holds when no encoding is carried twice after the commit.
  bool duplicate = false;
  for (const auto& [enc, n] : written) {
    const auto r = remaining.find(enc);
    duplicate = duplicate || n + (r == remaining.end() ? 0 : r->second) >= 2;
  }
  for (const auto& [enc, n] : remaining) duplicate = duplicate || n >= 2;
  e.holds_after = !duplicate;
  e.violated_after = duplicate;
}

bool IsKeyKnockOut(KnockOut k) {
  return k == KnockOut::kEnfKeysAmongAdded || k == KnockOut::kEnfKeysAgainstRemaining ||
         k == KnockOut::kEnfKeysAfterRemovals || k == KnockOut::kSemUniqueNullsNotCompared ||
         k == KnockOut::kEnfRetryKeysNewParent;
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
  // Bound once, when the tally was counted (BoundCheckOf); bound here only when the
  // schema's fields differ from those the tally was counted on. The tally's UDF flags
  // above do not depend on the fields.
  std::optional<CompiledCheck> scratch;
  const CompiledCheck& compiled = BoundCheckOf(tally, fields, functions, scratch);
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
                                                  const FunctionCatalog& functions,
                                                  KnockOut knock_out,
                                                  const LiveRows* original_rows) {
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
      if (it != parent.key_indexes.end()) {
        KeysAgainstRemaining(it->second, changes, e);
        if (IsKeyKnockOut(knock_out) &&
            (knock_out != KnockOut::kEnfRetryKeysNewParent || original_rows != nullptr))
          KeysByScan(knock_out == KnockOut::kEnfRetryKeysNewParent ? *original_rows
                                                                   : parent.rows,
                     it->second, changes, knock_out, e);
      }
    }
    effects.push_back(std::move(e));
  }
  return effects;
}

}  // namespace ictk::internal
