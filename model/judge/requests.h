/// \file
/// The protocol's requests as plain values (ARCHITECTURE.md "The adapter protocol"),
/// field for field: one struct per `op`, a `std::variant` over them, and `Request` adding
/// the table name and `now-ms`. The codec decodes protocol JSON into these, the adapters
/// and generators pass them around, and the model (operations.h) says what each one
/// allows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/iceberg/expression.h"
#include "model/iceberg/table_metadata.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// `create-table`: a new table of `format_version` with `schema` (which may carry
/// `identifier-field-ids`).
struct CreateTable {
  int32_t format_version = 4;
  Schema schema;
  bool operator==(const CreateTable&) const = default;
};

/// `load-table`: the current metadata.
struct LoadTable {
  bool operator==(const LoadTable&) const = default;
};

/// `upgrade`: raise the table's format version.
struct Upgrade {
  int32_t format_version = 4;
  bool operator==(const Upgrade&) const = default;
};

/// `add-constraint`: `constraint` as a request gives it (no `constraint-id`, no
/// `timestamp-ms`).
struct AddConstraint {
  Constraint constraint;
  bool operator==(const AddConstraint&) const = default;
};

/// `update-constraint`: change the constraint named `name` by `set`.
struct UpdateConstraint {
  std::string name;
  ConstraintUpdate set;
  bool operator==(const UpdateConstraint&) const = default;
};

/// `remove-constraint`.
struct RemoveConstraint {
  std::string name;
  bool operator==(const RemoveConstraint&) const = default;
};

/// `add-column`: no `parent_id` means the top level. IDs inside a nested `type` are
/// reassigned by the implementation. Defaults are the raw JSON text of their values.
struct AddColumn {
  std::optional<FieldId> parent_id;
  std::string name;
  Type type;
  bool required = false;
  std::optional<std::string> doc;
  std::optional<std::string> initial_default_json;
  std::optional<std::string> write_default_json;
  bool operator==(const AddColumn&) const = default;
};

struct DeleteColumn {
  FieldId id = 0;
  bool operator==(const DeleteColumn&) const = default;
};

struct RenameColumn {
  FieldId id = 0;
  std::string name;
  bool operator==(const RenameColumn&) const = default;
};

struct UpdateColumnType {
  FieldId id = 0;
  Type type;
  bool operator==(const UpdateColumnType&) const = default;
};

/// `move-column`: `first: true`, `after: ID` or `before: ID` (among its siblings).
struct MoveColumn {
  enum class Position { kFirst, kAfter, kBefore };
  FieldId id = 0;
  Position position = Position::kFirst;
  FieldId reference = 0;  ///< for kAfter / kBefore
  bool operator==(const MoveColumn&) const = default;
};

struct MakeOptional {
  FieldId id = 0;
  bool operator==(const MakeOptional&) const = default;
};

using SchemaChange = std::variant<AddColumn, DeleteColumn, RenameColumn, UpdateColumnType,
                                  MoveColumn, MakeOptional>;

/// `update-schema`: `changes` applied together as one new schema, and the constraints
/// named in `remove_constraints` removed in the same change.
struct UpdateSchema {
  std::vector<SchemaChange> changes;
  std::vector<std::string> remove_constraints;
  bool operator==(const UpdateSchema&) const = default;
};

/// A commit's `operation`.
enum class CommitOperation { kAppend, kDelete, kOverwrite, kReplace };
/// "append", "delete", "overwrite", "replace".
std::string_view ToString(CommitOperation op);
std::optional<CommitOperation> ParseCommitOperation(std::string_view text);

/// `commit`: `add` rows (new keys), `remove` keys, `modify` rows (live keys, the full new
/// values). A `txn` stages the commit in a transaction opened by `begin`.
struct Commit {
  CommitOperation operation = CommitOperation::kAppend;
  std::vector<Row> add;
  std::vector<std::string> remove;
  std::vector<Row> modify;
  std::optional<std::string> txn;
  bool operator==(const Commit&) const = default;
};

/// `begin`: pins the current metadata as the base of transaction `txn`.
struct Begin {
  std::string txn;
  bool operator==(const Begin&) const = default;
};

/// `finish`: commits the staged commit of `txn` against whatever is current.
struct Finish {
  std::string txn;
  bool operator==(const Finish&) const = default;
};

/// `define-function`: a catalog-level UDF; redefining bumps its definition version.
struct DefineFunction {
  FunctionDefinition function;
  bool operator==(const DefineFunction&) const = default;
};

/// `validate`: check the named constraints against every live row, in a new snapshot that
/// changes no rows.
struct Validate {
  std::vector<std::string> names;
  bool operator==(const Validate&) const = default;
};

/// `scan`: the live rows of the current snapshot or of `snapshot_id`.
struct Scan {
  std::optional<SnapshotId> snapshot_id;
  bool operator==(const Scan&) const = default;
};

/// `read-statuses`: a reader's statuses for `metadata` (inline, no table).
struct ReadStatuses {
  TableMetadata metadata;
  std::optional<SnapshotId> snapshot_id;
  bool operator==(const ReadStatuses&) const = default;
};

/// `parse-metadata`: a reader given `metadata` (inline, no table).
struct ParseMetadata {
  TableMetadata metadata;
  bool operator==(const ParseMetadata&) const = default;
};

using Operation =
    std::variant<CreateTable, LoadTable, Upgrade, AddConstraint, UpdateConstraint,
                 RemoveConstraint, UpdateSchema, Commit, Begin, Finish, DefineFunction,
                 Validate, Scan, ReadStatuses, ParseMetadata>;

/// One protocol request: the operation, the table it acts on ("" for define-function,
/// read-statuses and parse-metadata) and the clock the implementation must use.
struct Request {
  std::string table;
  std::optional<int64_t> now_ms;
  Operation op;
  bool operator==(const Request&) const = default;
};

/// The protocol `op` name: "create-table", "add-constraint", ...
std::string_view OpName(const Operation& op);

/// Whether the op acts on a table named by `Request::table`.
bool ActsOnTable(const Operation& op);

}  // namespace ictk
