/// \file
/// What the sample's write path shares (commit.cc plans a commit, commit_ops.cc holds the
/// commit, transaction and validate operations and the truth of a constraint over rows,
/// commit_rows.cc the helpers declared here): completing rows with their defaults,
/// reading a key from a row, the parent's status of a constraint, the well-formed part of
/// a commit.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sample/engine_internal.h"
#include "sample/schema_internal.h"
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

/// One commit planned against its parent, the steps of Engine::RunCommit in order: the
/// row changes checked (RowChangesRefusal), the new rows completed (NewRowsRefusal), the
/// rows verified against every constraint (VerifyConstraints), the statuses derived from
/// the parent's (Statuses, commit_statuses.cc), the new snapshot written (WriteSnapshot).
struct CommitPlan {
  CommitPlan(const Engine& engine, const Table& parent, const Commit& commit,
             const Engine::RetryContext* retry);

  /// A commit that does not fit its operation or the parent's rows: invalid-request, or
  /// for a retry commit-conflict; nullopt when it fits.
  std::optional<Reply> RowChangesRefusal();
  /// The added and modified rows completed under the current schema (`new_rows`) and the
  /// new snapshot's rows (`next`); a malformed row's refusal, or nullopt.
  std::optional<Reply> NewRowsRefusal();
  /// The new rows (for `validate`, every live row) verified against every constraint,
  /// into `found`: the refusal of rows that break (or cannot be checked against) an
  /// enforced constraint, or nullopt.
  std::optional<Reply> VerifyConstraints();
  /// The new snapshot's constraint statuses (st.*).
  ConstraintStatuses Statuses();
  /// `out`: the parent with the new snapshot added.
  void WriteSnapshot(int64_t now, SnapshotId snapshot_id,
                     const ConstraintStatuses& statuses, Table& out);

  bool Has(Mutant m) const { return engine.Has(m); }
  bool adds_rows() const { return !new_rows.empty(); }
  bool removes_rows() const { return !removed.empty() || !modified.empty(); }

  const Engine& engine;
  const Table& parent;
  const TableMetadata& pm;  ///< the parent's metadata
  const Commit& commit;
  const Engine::RetryContext* retry;
  const Schema& schema;  ///< the current schema
  const std::vector<NestedField>& fields;
  const RowSet& live;  ///< the parent's live rows
  const bool is_retry;
  const std::vector<Constraint> constraints;
  const int32_t schema_id;
  const int64_t first_row_id;

  std::set<std::string> removed, modified, added;  ///< the row changes, by key
  std::vector<Row> new_rows;                       ///< added then modified
  std::shared_ptr<RowSet> next;                    ///< the new snapshot's rows
  std::map<ConstraintId, Verification> found;      ///< what verifying each one found

 private:
  /// A retry whose rows no longer fit the new parent: commit-conflict, or (a request that
  /// has become malformed) invalid-request; the divergent style takes either.
  Reply Conflict(std::string message) const;
  /// Whether `con` is enforced, as the retry mutants see it.
  bool Enforced(const Constraint& con) const;
  /// A check against `rows`, into `v`; an enforced one that cannot be evaluated joins
  /// `unverifiable`.
  void VerifyCheck(const Constraint& con, const std::vector<const Value*>& rows,
                   bool enforced, bool skip, Verification& v,
                   std::vector<ConstraintId>& unverifiable) const;
  /// A key's distinctness among `rows` and against the remaining rows, into `v`.
  void VerifyKey(const Constraint& con, const std::vector<const Value*>& rows, bool full,
                 Verification& v);
  /// The refusal of `violating` constraints, else of `unverifiable` ones, or nullopt.
  std::optional<Reply> ViolationRefusal(
      const std::vector<ConstraintId>& violating,
      const std::vector<ConstraintId>& unverifiable) const;
  /// The rows remaining from the parent after the commit's removals, read under the
  /// current schema (enf.keys-against-remaining), computed once.
  const std::vector<Value>& RemainingRows();
  /// For `validate`: every row of the new snapshot, computed once.
  const std::vector<Value>& EveryRow();
  /// The divergent style's statuses (Statuses).
  ConstraintStatuses DivergentStatuses();
  /// The canonical statuses (Statuses).
  ConstraintStatuses CanonicalStatuses() const;
  /// The canonical status of `id`, which verifying found `v`; nullopt when the mutant
  /// status-list-missing-constraint leaves it out.
  std::optional<ConstraintStatus> CanonicalStatus(ConstraintId id,
                                                  const Verification& v) const;

  std::map<FieldId, FieldSlot> slots_;  ///< the current schema's fields, by ID
  std::optional<std::vector<Value>> remaining_;
  std::optional<std::vector<Value>> all_rows_;
};

/// The well-formed row changes of `c` on the live rows `live`, in the order the changes
/// apply (removals, modifications, additions): a key's first change only, removals and
/// modifications of live rows, additions of rows that are not live.
Commit WellFormedPart(const RowSet& live, const Commit& c);

}  // namespace ictk::sample
