/// \file
/// What a constraint means over a snapshot's rows (the spec's "Semantics" subsection):
/// sem.check, sem.unique, sem.primary-key. `HoldsOnLiveRows` reads the sentences as they are, over a
/// plain list of live rows; the counting forms below it are what the incremental key
/// indexes and check tallies of the judge reduce to, and tests/model/semantics_test.cc
/// checks after every step of random histories that both agree.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/evaluate.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// One key field: its ID, the path of field IDs from the top level down to it, its type.
struct KeyField {
  FieldId id = 0;
  std::vector<FieldId> path;
  Type type;
  bool operator==(const KeyField&) const = default;
};

/// The fields a `unique` or `primary-key` constraint compares, in `field-ids` order,
/// resolved against `schema`; nullopt when the constraint has no `field-ids`, or one of
/// them is missing from the schema, not primitive, or inside a list or map (such a key
/// cannot be read: key.* reject it). The one resolution of a key's fields: the plain
/// reading below and the judge's key indexes both use it.
std::optional<std::vector<KeyField>> KeyFieldsOf(const Constraint& constraint,
                                                 const Schema& schema);

/// Whether `constraint` holds on `live_rows` (each a kStruct value keyed by top-level field
/// IDs) under `schema`:
/// - check: "every row must satisfy a predicate" (sem.check); a row on which the predicate
///   cannot be evaluated (unknown) does not show that it holds;
/// - unique: "the values of a set of fields must be distinct across the rows in which every
///   field in the set is non-null; a row in which any field in the set is null is not
///   compared" (sem.unique);
/// - primary-key: "the values of a set of fields must be distinct across all rows and must
///   not be null" (sem.primary-key).
/// Values are compared as keys (KeyValuesEqual) under each field's current type. nullopt
/// when the constraint cannot be read against the schema (a key field missing or not
/// primitive, no type).
std::optional<bool> HoldsOnLiveRows(const Constraint& constraint, const Schema& schema,
                          const std::vector<Value>& live_rows,
                          const FunctionCatalog& functions);

/// "A check expression is evaluated for each row over the values of that row."
/// (expr.row-local) The predicate's value on `row` alone: true, false, or nullopt when it
/// cannot be evaluated (an undefined UDF, a type error). Every evaluation of a check on a
/// row — HoldsOnLiveRows, the judge's tallies and commits — goes through it.
std::optional<bool> RowSatisfies(const CompiledCheck& predicate, const Value& row);

/// sem.check, counted: a check holds on rows among which `violating` rows falsify the
/// predicate and `unevaluable` rows cannot be evaluated when both are zero.
bool CheckHolds(int64_t violating, int64_t unevaluable);

/// sem.unique, counted: a unique constraint holds on rows among which `duplicate_keys` key
/// tuples (of non-null fields) are carried by more than one row when there is none.
bool UniqueHolds(int64_t duplicate_keys);

/// sem.primary-key, counted: a primary key holds on rows among which `duplicate_keys` key
/// tuples are carried by more than one row and `null_rows` rows have a null key field when
/// both are zero.
bool PrimaryKeyHolds(int64_t duplicate_keys, int64_t null_rows);

/// The value at `path` inside `row` (nested structs keyed by field ID); nullptr when a
/// struct on the way, or the field itself, is null or absent: such a row is "a row in
/// which any field in the set is null" for a key (sem.unique, sem.primary-key).
const Value* ValueAtPath(const Value& row, const std::vector<FieldId>& path);

}  // namespace ictk
