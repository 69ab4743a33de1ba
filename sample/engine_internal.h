/// \file
/// The sample engine: an in-memory catalog of tables (each its Iceberg table metadata
/// and, per snapshot, an immutable set of rows, the way data files are), the catalog's
/// UDFs, and open transactions. Every operation works on a copy of the table and swaps it
/// in only when it succeeds, so a rejected request changes nothing. Requests arrive as
/// the model's plain request values (model/judge/requests.h); answers leave as `Reply`
/// values that the wire layer (sample_adapter.cc) encodes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/table_metadata.h"
#include "model/iceberg/value.h"
#include "model/judge/requests.h"
#include "sample/check_internal.h"
#include "sample/divergent_internal.h"
#include "sample/mutants_internal.h"

namespace ictk::sample {

/// One stored row: its row ID (lineage), the schema it was written under, its values.
struct StoredRow {
  int64_t row_id = 0;
  int32_t schema_id = 0;
  Value values;  ///< a struct keyed by field ID, complete under `schema_id`
};
using RowSet = std::map<std::string, StoredRow>;  ///< by row key

/// One table of the catalog.
struct Table {
  TableMetadata meta;
  /// The rows of each snapshot (shared, never modified once stored).
  std::map<SnapshotId, std::shared_ptr<const RowSet>> rows_at;
  uint64_t version = 0;  ///< bumped by every committed change (conflict detection)
  uint64_t finishes = 0;  ///< how many of those changes were transaction finishes

  /// The live rows of the current snapshot (empty without one).
  const RowSet& live() const;
};

/// An answer, before encoding.
struct Reply {
  enum class Kind { kOk, kRejected, kUnsupported, kError };
  Kind kind = Kind::kOk;
  std::optional<TableMetadata> metadata;
  std::optional<std::vector<Row>> rows;
  std::vector<NestedField> row_fields;  ///< the schema `rows` are under
  std::optional<std::map<ConstraintId, ConstraintStatus>> statuses;
  std::string error_kind;  ///< rejected: the protocol's error kind
  std::vector<ConstraintId> constraint_ids;
  std::string message;

  static Reply Ok(TableMetadata md) {
    Reply r;
    r.metadata = std::move(md);
    return r;
  }
  static Reply Reject(std::string kind, std::string message,
                      std::vector<ConstraintId> ids = {}) {
    Reply r;
    r.kind = Kind::kRejected;
    r.error_kind = std::move(kind);
    r.message = std::move(message);
    r.constraint_ids = std::move(ids);
    return r;
  }
};

/// The protocol's error kinds, as the sample spells them on the wire.
namespace kinds {
inline constexpr const char* kConstraintViolation = "constraint-violation";
inline constexpr const char* kUnverifiable = "unverifiable-constraint";
inline constexpr const char* kInvalidConstraint = "invalid-constraint";
inline constexpr const char* kInvalidUpdate = "invalid-constraint-update";
inline constexpr const char* kInvalidSchemaChange = "invalid-schema-change";
inline constexpr const char* kUnsupportedVersion = "unsupported-format-version";
inline constexpr const char* kInvalidMetadata = "invalid-metadata";
inline constexpr const char* kCommitConflict = "commit-conflict";
inline constexpr const char* kInvalidRequest = "invalid-request";
}  // namespace kinds

/// An open transaction: the base it pinned and the commit staged on it.
struct Transaction {
  Table base;
  std::optional<Commit> staged;
  int64_t staged_now_ms = 0;
  SnapshotId reserved_snapshot_id = 0;
  std::optional<ConstraintStatuses> staged_statuses;
};

struct CommitPlan;

class Engine {
 public:
  explicit Engine(Mutant mutant, Style style = Style::kCanonical)
      : mutant_(mutant), divergent_(style == Style::kDivergent) {}

  /// Handles one request. `seed` seeds the divergent style's choices for it.
  Reply Handle(const Request& request, uint64_t seed = 0);

  /// The schema fields a `commit` on `table` (in transaction `txn`, when given) decodes
  /// its rows with, or nullptr when the table (or transaction) is unknown.
  const std::vector<NestedField>* CommitFields(
      const std::string& table, const std::optional<std::string>& txn) const;

  bool Has(Mutant m) const { return mutant_ == m; }
  /// A strict reader (profile v4-reader) refuses, in parse-metadata and read-statuses
  /// alike, v4 metadata that breaks a definition, key or ID rule — legal at both settings
  /// of switch invalid-metadata-on-read, required under `reject`.
  void set_strict_reader(bool strict) { strict_reader_ = strict; }
  Mutant mutant() const { return mutant_; }
  bool divergent() const { return divergent_; }

 private:
  // Table-level operations (engine.cc).
  Reply CreateTableOp(const Request& r, const CreateTable& op);
  Reply UpgradeOp(Table& t, int64_t now, const Upgrade& op);
  Reply AddConstraintOp(Table& t, int64_t now, const AddConstraint& op);
  Reply UpdateConstraintOp(Table& t, int64_t now, const UpdateConstraint& op);
  /// update-constraint's `type`, `expression` and `field-ids` (upd.name-enforced-only,
  /// upd.definition-immutable) applied to `c`; the refusal (naming `self`), or nullopt.
  std::optional<Reply> UpdateDefinition(Constraint& c, const ConstraintUpdate& set,
                                        const std::vector<ConstraintId>& self);
  /// update-constraint's `name` applied to `c` (a member of `md`'s constraints): the
  /// refusal of an empty or duplicate name (def.name-unique), or nullopt.
  std::optional<Reply> RenameConstraint(TableMetadata& md, Constraint* c,
                                        const std::string& name);
  /// A constraint that `set` makes enforced over live rows of `t` that break it (or
  /// cannot be evaluated on): refused when divergent (existing-rows-on-enforce, as in
  /// add-constraint); nullopt otherwise.
  std::optional<Reply> EnforceOverLiveRows(const Table& t, const Constraint& c,
                                           const ConstraintUpdate& set,
                                           const std::vector<ConstraintId>& self) const;
  Reply RemoveConstraintOp(Table& t, int64_t now, const RemoveConstraint& op);
  Reply UpdateSchemaOp(Table& t, int64_t now, const UpdateSchema& op);
  Reply DefineFunctionOp(const DefineFunction& op);
  Reply ScanOp(const Table& t, const Scan& op) const;
  Reply ReadStatusesOp(const ReadStatuses& op) const;
  Reply ParseMetadataOp(const ParseMetadata& op) const;
  /// Why a v4 reader refuses `md` (no current schema, a constraint ID outside
  /// 1..last-constraint-id when divergent or strict, a constraint that breaks a
  /// definition rule), or nullopt.
  std::optional<Reply> V4ReaderRefusal(const TableMetadata& md) const;

  // Commits, transactions and validation (commit.cc).
  Reply CommitOp(const std::string& name, Table& t, int64_t now, const Commit& op);
  Reply BeginOp(const std::string& name, const Table& t, const Begin& op);
  Reply FinishOp(const std::string& name, Table& t, int64_t now, const Finish& op);
  Reply ValidateOp(const std::string& name, Table& t, int64_t now, const Validate& op);

  /// What RunCommit needs to know about a retry.
  struct RetryContext {
    const Table* base = nullptr;
    const ConstraintStatuses* staged_statuses = nullptr;
    std::optional<int64_t> staged_now_ms;
    /// Whether every change since the base was another transaction's finish.
    bool only_finishes_since_base = false;
    /// `validate`: the constraints to check against every live row.
    const std::set<ConstraintId>* full_check = nullptr;
  };
  /// Applies `commit` to `parent` into `out`; returns a rejection, or nullopt on success.
  /// `whole_only`: answer for the whole commit, without the divergent style's second
  /// look at its well-formed part (WellFormedPart).
  std::optional<Reply> RunCommit(const Table& parent, const Commit& commit, int64_t now,
                                 SnapshotId snapshot_id, const RetryContext* retry,
                                 Table& out, ConstraintStatuses& statuses,
                                 bool whole_only = false) const;

  /// A constraint's problem against `schema` (def.*, key.*, expr.*), or "" when valid;
  /// `rule` receives the rule ID. `others` are the table's other constraints.
  /// `clash` receives the ID of the constraint it clashes with (a duplicate name, a
  /// second primary key), when it has one.
  std::string ConstraintProblem(const Constraint& c, const Schema& schema,
                                const std::vector<Constraint>& others, std::string& rule,
                                bool as_reader,
                                std::optional<ConstraintId>* clash = nullptr) const;
  /// ConstraintProblem's rules for every constraint: a known type, the required fields,
  /// a unique name and (as reader) a unique ID.
  std::string DefinitionProblem(const Constraint& c,
                                const std::vector<Constraint>& others, std::string& rule,
                                bool as_reader, std::optional<ConstraintId>* clash) const;
  /// ConstraintProblem's rules for a check: its expression, no field-ids, the
  /// expression's own rules and (as writer) defined, deterministic UDFs.
  std::string CheckProblem(const Constraint& c, const Schema& schema, std::string& rule,
                           bool as_reader) const;
  /// ConstraintProblem's rules for a key: no expression, its field IDs (listed once,
  /// present, eligible key fields) and a single primary key.
  std::string KeyProblem(const Constraint& c, const Schema& schema,
                         const std::vector<Constraint>& others, std::string& rule,
                         bool as_reader, std::optional<ConstraintId>* clash) const;

  CheckOptions CheckOpts() const;
  /// The ID the next snapshot of `table` takes (canonical: one above the last one;
  /// divergent: a random positive long the table has never used). UseSnapshotId records
  /// it once the snapshot (or a staged commit's reservation) exists.
  SnapshotId PickSnapshotId(const std::string& table) const;
  void UseSnapshotId(const std::string& table, SnapshotId id);
  /// The gap the divergent style leaves above `last-constraint-id` (0 when canonical).
  ConstraintId IdGap() const;
  /// A random subset (at least one member when `ids` has any) of `ids`, in random order
  /// when divergent; `ids` as given when canonical.
  std::vector<ConstraintId> NameSome(std::vector<ConstraintId> ids) const;

  /// What the rows of a table say about one constraint, checking every row.
  struct Truth {
    bool evaluable = true;  ///< every row could be checked
    bool violated = false;  ///< some row breaks it
    bool holds() const { return evaluable && !violated; }
  };
  /// `c` against `rows` (complete values under `fields`), every row checked: a check on
  /// each row, a key's distinctness among all of them and a primary key's non-null
  /// fields.
  Truth TruthOf(const Constraint& c, const std::vector<NestedField>& fields,
                const std::vector<Value>& rows) const;
  /// `c` against the live rows of `t` under its current schema.
  Truth TruthOnLive(const Table& t, const Constraint& c) const;

  /// RunCommit's steps (commit_internal.h).
  friend struct CommitPlan;

  Mutant mutant_;
  bool divergent_ = false;
  bool strict_reader_ = false;
  mutable Chooser choose_;  ///< the divergent style's choices for the current request
  std::map<std::string, std::set<SnapshotId>> used_snapshot_ids_;
  std::map<std::string, Table> tables_;
  UdfCatalog udfs_;
  std::map<std::pair<std::string, std::string>, Transaction> txns_;
  std::map<std::string, SnapshotId> last_snapshot_id_;

  /// Table lifetime (docs/protocol.md section 3, `table`): the harness sends nothing for
  /// a history's table once later histories began, so the catalog keeps only the tables
  /// of the last kKeptTables create-tables (and what belongs to them: transactions,
  /// snapshot IDs, the functions defined while each was the newest table); memory stays
  /// flat over any number of histories.
  static constexpr size_t kKeptTables = 4;
  /// Forgets `table` and everything that belongs to it.
  void Forget(const std::string& table);
  std::vector<std::string> created_;              ///< the kept tables, oldest first
  std::map<std::string, std::string> udf_owner_;  ///< function -> its table
};

// Metadata helpers (metadata.cc).

/// A deterministic table UUID derived from the table name (an RFC 9562 version-8 UUID).
std::string TableUuidFor(const std::string& name);
/// Fresh table metadata for create-table.
TableMetadata NewTableMetadata(const std::string& name, int32_t format_version,
                               Schema schema, int64_t now);
/// Appends `snapshot` to `meta` as the new current snapshot of branch main (snapshot log,
/// refs, sequence number, last-updated-ms).
void AddSnapshot(TableMetadata& meta, Snapshot snapshot);
/// The current schema's fields (the table always has one).
const Schema& CurrentSchemaOf(const TableMetadata& meta);
const Schema* SchemaById(const TableMetadata& meta, int32_t schema_id);
/// The status a reader takes for `id` in `statuses` (st.reader-lookup).
std::optional<ConstraintStatus> ListedStatus(const ConstraintStatuses& statuses,
                                             ConstraintId id);
/// The value a reader fills in for a field a row lacks: its initial-default, or null.
Value InitialDefaultOf(const NestedField& field);
/// The value a writer fills in for a field a row omits: its write-default, or null.
Value WriteDefaultOf(const NestedField& field);
/// A stored row under `fields` of schema `schema_id` of `meta`.
Value ReadRow(const TableMetadata& meta, const StoredRow& row,
              const std::vector<NestedField>& fields);

}  // namespace ictk::sample
