/// \file
/// What the sample's write path shares (commit.cc plans a commit, commit_ops.cc holds the
/// commit, transaction and validate operations and the truth of a constraint over rows,
/// commit_rows.cc the helpers declared here): completing rows with their defaults,
/// reading a key from a row, the parent's status of a constraint, the well-formed part of
/// a commit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sample/engine_internal.h"
#include "sample/values_internal.h"

namespace ictk::sample {

using KeySet = std::unordered_set<KeyTuple, KeyTupleHash, KeyTupleEq>;

/// "append", "delete", "overwrite", "replace".
std::string_view OperationText(CommitOperation op);

/// Fills what a value of `type` omits with the write-defaults (or null) and checks that
/// required fields, list elements and map entries are not null; the problem (prefixed by
/// `where`) or "".
std::string CompleteValue(Value& v, const Type& type, const std::string& where);
/// The same for a row (or nested struct) of `fields`.
std::string CompleteStruct(Value& v, const std::vector<NestedField>& fields,
                           const std::string& where);

/// A row's key for one key constraint: nullopt when the row is not compared (a unique key
/// with a null field).
struct KeyReader {
  std::vector<std::vector<FieldId>> paths;  ///< empty path: the field cannot be read
  bool primary_key = false;
  bool compare_nulls = false;  ///< mutant unique-compares-nulls

  /// The key, or nullopt when the row takes no part; `null_pk` is set for a primary key
  /// with a null field (itself a violation: sem.primary-key).
  std::optional<KeyTuple> Of(const Value& row, bool& null_pk) const {
    KeyTuple key;
    for (const auto& path : paths) {
      const Value* cur = path.empty() ? nullptr : &row;
      for (FieldId id : path) {
        if (cur == nullptr || cur->kind != ValueKind::kStruct) {
          cur = nullptr;
          break;
        }
        cur = cur->FindField(id);
      }
      Value v = cur != nullptr ? *cur : Value::Null();
      if (v.is_null()) {
        // "a row in which any field in the set is null is not compared" (sem.unique);
        // a primary key "must not be null" (sem.primary-key).
        if (primary_key) {
          null_pk = true;
        } else if (!compare_nulls) {
          return std::nullopt;
        }
      }
      key.push_back(std::move(v));
    }
    return key;
  }
};

/// The status the parent snapshot records for `id`: unvalidated when there is no parent
/// or it lists none (st.reader-lookup). `unlisted` is what an unlisted ID reads as.
ConstraintStatus ParentStatus(const TableMetadata& md, ConstraintId id,
                              ConstraintStatus unlisted);

/// What verifying one constraint found.
struct Verification {
  bool evaluable = true;     ///< the constraint could be checked at all
  bool violated = false;     ///< a checked row breaks it
  bool calls_udf = false;    ///< a check that calls a user-defined function
  bool all_checked = false;  ///< every live row of the new snapshot was checked
};

/// The well-formed row changes of `c` on the live rows `live`, in the order the changes
/// apply (removals, modifications, additions): a key's first change only, removals and
/// modifications of live rows, additions of rows that are not live.
Commit WellFormedPart(const RowSet& live, const Commit& c);

}  // namespace ictk::sample
