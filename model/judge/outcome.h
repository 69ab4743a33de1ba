/// \file
/// What the model allows as the answer to one request (ARCHITECTURE.md "The model:
/// allowed outcomes, not one answer"): which results are acceptable (`ok`, `rejected`
/// with which error kinds), which rules decided, and for `ok` the conditions on the
/// answered metadata (constraint definitions, bounds on new IDs, the allowed status set
/// of each constraint in a new snapshot), the live rows for `scan` and the exact statuses
/// for `read-statuses`. `Judge` checks an observed answer against an `AllowedOutcome` and
/// returns the findings of every condition it breaks, each naming its rule. Operations
/// (operations.h) build outcomes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/rules/finding.h"
#include "model/rules/status_rules.h"
#include "model/rules/switches.h"
#include "model/iceberg/table_metadata.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk {

/// The protocol's error kinds (ARCHITECTURE.md "Error kinds"). The harness compares
/// kinds, never messages.
enum class RejectKind {
  kConstraintViolation,
  kUnverifiableConstraint,
  kInvalidConstraint,
  kInvalidConstraintUpdate,
  kInvalidSchemaChange,
  kUnsupportedFormatVersion,
  kInvalidMetadata,
  kCommitConflict,
  kInvalidRequest,
};

inline constexpr RejectKind kAllRejectKinds[] = {
    RejectKind::kConstraintViolation, RejectKind::kUnverifiableConstraint,
    RejectKind::kInvalidConstraint,   RejectKind::kInvalidConstraintUpdate,
    RejectKind::kInvalidSchemaChange, RejectKind::kUnsupportedFormatVersion,
    RejectKind::kInvalidMetadata,     RejectKind::kCommitConflict,
    RejectKind::kInvalidRequest};

/// The kebab-case protocol name: "constraint-violation", "invalid-request", ...
std::string_view ToString(RejectKind kind);
/// Inverse of ToString(RejectKind).
std::optional<RejectKind> ParseRejectKind(std::string_view text);

/// A set of constraint statuses (at most four members).
class StatusSet {
 public:
  StatusSet() = default;
  StatusSet(std::initializer_list<ConstraintStatus> statuses) {
    for (ConstraintStatus s : statuses) Add(s);
  }
  static StatusSet All() {
    return {ConstraintStatus::kValidated, ConstraintStatus::kValid,
            ConstraintStatus::kInvalid, ConstraintStatus::kUnvalidated};
  }

  void Add(ConstraintStatus s) { bits_ |= Bit(s); }
  void Remove(ConstraintStatus s) { bits_ &= static_cast<uint8_t>(~Bit(s)); }
  bool Contains(ConstraintStatus s) const { return (bits_ & Bit(s)) != 0; }
  bool empty() const { return bits_ == 0; }
  /// The members in kAllStatuses order.
  std::vector<ConstraintStatus> ToVector() const;

  bool operator==(const StatusSet&) const = default;

 private:
  static uint8_t Bit(ConstraintStatus s) {
    return static_cast<uint8_t>(1u << static_cast<int>(s));
  }
  uint8_t bits_ = 0;
};

/// "{validated, unvalidated}".
std::string ToString(const StatusSet& set);

/// The facts a constraint's status in a new snapshot was judged on, in short (the full
/// input of the status rules is StatusExpectation::context, status_rules.h).
struct StatusFacts {
  bool holds = false;     ///< it holds on the live rows of the new snapshot
  bool violated = false;  ///< some live row of the new snapshot violates it
  /// The status the parent records (unvalidated when unlisted or no parent).
  ConstraintStatus parent = ConstraintStatus::kUnvalidated;
  bool added_rows = false;          ///< the commit added rows (after the switches)
  bool removed_rows = false;        ///< the commit removed (or modified) rows
  bool calls_udf = false;           ///< a check that calls a user-defined function
  bool full_validation = false;     ///< every live row was checked
  bool added_rows_violate = false;  ///< a row the commit added breaks it
  bool operator==(const StatusFacts&) const = default;
};

/// The set of `statuses` (e.g. StatusJudgement::allowed of status_rules.h).
StatusSet ToStatusSet(const std::vector<ConstraintStatus>& statuses);

/// Expectations on one constraint of an `ok` answer's metadata.
struct ConstraintExpectation {
  std::string name;                ///< the name it carries after the request
  std::optional<ConstraintId> id;  ///< its ID when it existed before; nullopt = new
  /// The definition to match: `type`, `enforced` (nullopt = either), `expression`,
  /// `field_ids` (compared as a set). `id`, `name` and `timestamp_ms` are not compared
  /// here.
  Constraint definition;
  /// Whether this constraint may be absent (create-table of a v4 table whose schema
  /// carries identifier-field-ids: "with or without a generated pk").
  bool optional = false;
  /// upd.timestamp: `timestamp-ms` must differ from this previous value.
  std::optional<int64_t> timestamp_must_change_from;
  /// The value `timestamp-ms` must have (the request's `now-ms`), judged under
  /// `timestamp_rule`: "timestamp-ms ... is the time of the upgrade"
  /// (upg.pk-from-identifiers), or the protocol's "every timestamp the implementation
  /// writes comes from" now-ms (proto.timestamp-from-now). nullopt: not judged.
  std::optional<int64_t> timestamp_must_be;
  RuleId timestamp_rule = RuleId::kProtoTimestampFromNow;
  /// The rule a missing or different constraint breaks.
  RuleId rule = RuleId::kProtoAnswer;
  /// The rule a changed ID breaks, when more specific than `rule`.
  std::optional<RuleId> id_rule;
  bool operator==(const ConstraintExpectation&) const = default;
};

/// The allowed statuses of one constraint in the snapshot a commit creates.
struct StatusExpectation {
  std::string name;
  std::optional<ConstraintId> id;  ///< nullopt never happens for commits (IDs are known)
  StatusSet allowed;               ///< given the adopted parent's recorded status
  StatusSet by_truth;              ///< `valid` kept whenever truth allows it (fixtures)
  /// parent's recorded status -> allowed set (for statuses-by-parent under
  /// status-carry=must)
  std::map<ConstraintStatus, StatusSet> by_parent;
  ConstraintStatus precise = ConstraintStatus::kUnvalidated;
  StatusContext context;  ///< what the status rules judged (status_rules.h)
  StatusFacts facts;      ///< the same, in short
  /// The rule a status outside `allowed` breaks beside the status's own st.* rule
  /// (enf.retry-recompute-statuses after a retry; enf.modified-row when a modified row
  /// breaks the constraint, enf.keys-against-remaining when an added row's key collides:
  /// a status claiming it holds shows the writer did not check those rows).
  std::optional<RuleId> also_rule;
  /// Judged without enf.retry-recompute-statuses (model/rules/knockout.h): a constraint
  /// that the transaction's original parent did not have, which statuses computed from
  /// that parent would not list. Listed, it is judged as ever.
  bool may_be_unlisted = false;
  bool operator==(const StatusExpectation&) const = default;
};

/// The snapshot a commit (or validate, or finish) must create.
struct SnapshotExpectation {
  std::optional<SnapshotId> parent_snapshot_id;  ///< nullopt: the first snapshot
  std::optional<int64_t> parent_timestamp_ms;
  std::string operation;  ///< summary.operation
  /// st.every-snapshot: a v4 table with constraints must record constraint-statuses.
  bool statuses_required = false;
  std::vector<StatusExpectation> statuses;  ///< every constraint that exists
  bool retry = false;                       ///< the commit was retried on a new parent
  std::optional<int64_t> live_row_count;
  /// The `timestamp-ms` the new snapshot must have: the request's `now-ms`, because
  /// "every timestamp the implementation writes comes from it"
  /// (proto.timestamp-from-now/every-timestamp; ExpectTimestampsFromNow, operations.h).
  /// nullopt: not judged.
  std::optional<int64_t> timestamp_must_be;
  bool operator==(const SnapshotExpectation&) const = default;
};

/// Conditions on the metadata of an `ok` answer.
struct MetadataExpectation {
  int32_t format_version = 0;
  RuleId format_version_rule =
      RuleId::kProtoAnswer;  ///< ice.format-version-up for upgrade
  /// The previous answer's `last-constraint-id` (absent = 0: id.last-default-zero).
  ConstraintId base_last_constraint_id = 0;
  std::set<ConstraintId> removed_ids;  ///< IDs removed before this request (id.no-reuse)
  std::set<ConstraintId> seen_ids;  ///< every ID the table ever had, before this request
  /// Exactly these constraints exist after the request (matched by name).
  std::vector<ConstraintExpectation> constraints;
  /// The rule a constraint that is not among `constraints` breaks: the protocol's
  /// (proto.answer), or for an upgrade to v4 whose identifier fields cannot form a
  /// primary key "no constraint is created" (upg.skip-ineligible).
  RuleId unexpected_constraint_rule = RuleId::kProtoAnswer;
  /// The snapshot the request must create; nullopt = the current snapshot stays
  /// `current_snapshot_id`.
  std::optional<SnapshotExpectation> new_snapshot;
  std::optional<SnapshotId> current_snapshot_id;
  /// Schema IDs that existed before: a schema not among them was added by this request
  /// (upg.no-identifiers-in-v4).
  std::set<int32_t> base_schema_ids;
  /// update-schema: the schema the change must produce; fields new in it carry
  /// provisional IDs above the base `last-column-id` and are matched by parent and name,
  /// not by ID.
  std::optional<Schema> expected_schema;
  FieldId base_last_column_id = 0;
  /// The answer's current schema must be a new one (not among `base_schema_ids`).
  bool new_schema_required = false;
  /// stale-ids-in-new-snapshot
  StaleIds stale_ids = StaleIds::kReject;
  /// The table's `table-uuid` before the request: "a UUID that identifies the table"
  /// stays the same across its changes (ice.table-uuid/identifies-the-table); nullopt
  /// for create-table.
  std::optional<std::string> base_table_uuid;
  /// The `last-updated-ms` the answer must have: the request's `now-ms`, for a request
  /// that changes the table (proto.timestamp-from-now/every-timestamp;
  /// ExpectTimestampsFromNow, operations.h). nullopt: not judged.
  std::optional<int64_t> last_updated_must_be;
  bool operator==(const MetadataExpectation&) const = default;
};

/// What the model allows as the answer to one request.
struct AllowedOutcome {
  bool ok_allowed = true;
  bool reject_allowed = false;
  std::set<RejectKind> reject_kinds;  ///< allowed error kinds when a rejection is allowed
  /// The rules that decide: why a rejection is allowed or required, or why `ok` is.
  Findings decided_by;
  /// The subset of `decided_by` that requires a rejection (empty when `ok` is allowed).
  Findings reject_required_by;
  /// Per error kind, the constraints a rejection of that kind is *about*
  /// (docs/protocol.md §7): its optional `constraint-ids` may list any subset of them,
  /// including none (proto.rejection-constraint-ids). A kind without an entry is about no
  /// constraint. Filled by the outcome builder from the constraint each cause concerns.
  std::map<RejectKind, std::set<ConstraintId>> constraint_ids;
  /// The constraints a rejection of `kind` is about (empty when none).
  const std::set<ConstraintId>& ConstraintIdsOf(RejectKind kind) const;
  /// Every constraint some allowed rejection is about (the union over the kinds).
  std::set<ConstraintId> AnyConstraintIds() const;
  /// For `ok`: conditions on the metadata (requests answered with metadata).
  std::optional<MetadataExpectation> metadata;
  /// For `ok` of `scan`: the live rows, by key, under the schema `rows_schema`.
  std::optional<std::map<std::string, Value>> rows;
  std::optional<Schema> rows_schema;
  /// For `ok` of `read-statuses`: the exact answer, constraint ID -> status; when a
  /// constraint is listed with several statuses each listed one is allowed.
  std::optional<std::map<ConstraintId, StatusSet>> reader_statuses;
  /// For `ok` of `parse-metadata`: the metadata the reader was given (compared by
  /// meaning; `may_drop_constraint_fields` when v1-v3 metadata's constraint fields may be
  /// ignored).
  std::optional<TableMetadata> parsed;
  bool may_drop_constraint_fields = false;
  /// The request's single values at a type extreme or in an unusual spelling
  /// (UnusualSingleValues, single_value.h) that the model judged well-formed: a refusal
  /// the model does not allow (`error`, `unsupported`, or `invalid-request` when that kind
  /// is not allowed) is filed under ice.single-value.
  std::vector<std::string> unusual_values;

  /// Must be rejected.
  bool must_reject() const { return !ok_allowed; }
};

std::string ToString(const AllowedOutcome& outcome);

/// The result an implementation answered.
enum class AnswerResult { kOk, kRejected, kUnsupported, kError };

/// An implementation's answer to one request, as the codec decodes it.
struct Answer {
  AnswerResult result = AnswerResult::kOk;
  std::optional<RejectKind> error_kind;  ///< nullopt: unknown kind text (see below)
  std::string error_kind_text;
  std::optional<std::vector<ConstraintId>> error_constraint_ids;
  std::string message;
  std::optional<TableMetadata> metadata;
  std::optional<std::vector<Row>> rows;                              ///< scan
  std::optional<std::map<ConstraintId, ConstraintStatus>> statuses;  ///< read-statuses

  static Answer Ok(TableMetadata metadata) {
    Answer a;
    a.metadata = std::move(metadata);
    return a;
  }
  static Answer Rejected(RejectKind kind, std::vector<ConstraintId> ids = {}) {
    Answer a;
    a.result = AnswerResult::kRejected;
    a.error_kind = kind;
    a.error_kind_text = std::string(ToString(kind));
    if (!ids.empty()) a.error_constraint_ids = std::move(ids);
    return a;
  }
};

/// Whether `outcome` allows the answer's result and, for a rejection, its kind (what
/// Judge checks first; blame.h asks it of each knocked-out outcome).
bool ResultAllowed(const AllowedOutcome& outcome, const Answer& answer);

/// Checks `answer` against `outcome`: the result and error kind, a rejection's
/// `constraint-ids` (per kind, proto.rejection-constraint-ids), a refusal of a legal
/// single value (ice.single-value), and for `ok` the metadata conditions (id.above-last, id.update-last,
/// id.no-reuse, st.exactly-one-list, st.every-snapshot, each status in its allowed set,
/// upg.no-identifiers-in-v4, sch.referenced-exist, ice.v4-snapshot-timestamps,
/// def.v4-only, the requested definitions), scan rows (sem.live-rows) and reader statuses
/// (st.reader-lookup). Empty when the answer is allowed.
Findings Judge(const AllowedOutcome& outcome, const Answer& answer);

struct TableState;

/// The invariants every metadata a writer returns keeps, whatever the request (the
/// harness asks this after Judge; docs/certify.md "What happens in a run", 3): IDs at
/// most `last-constraint-id` (CheckIdsAtMostLast), each ID in one status list of the
/// current snapshot (CheckCurrentStatusListedOnce), referenced fields that exist
/// (CheckReferencedFieldsExist), v4 snapshot timestamps above their parents'
/// (CheckV4SnapshotTimestamps), and, given the table `before` the request (nullptr for a
/// staged commit, whose metadata is of the transaction's base), no removed ID reused
/// (CheckNoRemovedIdReused) and no schema added to the v4 table with identifier fields
/// (CheckNoIdentifiersInAddedSchemas). Each is a rule book predicate
/// (model/rules/metadata_rules.h, iceberg_rules.h); the fixture evaluator's keys ask the
/// same ones.
Findings JudgeReturnedMetadata(const TableMetadata& metadata, const TableState* before);

/// The fields of an answered current schema against the expected ones (`want`: the
/// model's schema after the change; a field whose ID is above `base_last_column_id` is
/// new and matched by name, every other by ID): each present, a new one's ID above
/// `base_last_column_id`, required flags and types as expected (ice.schema-evolution,
/// ice.type-promotion), an existing field's name and the order of siblings as asked
/// (sch.rename-reorder), no field that should not be there. Judge calls it for every
/// schema change; the fixture key `schema-fields` calls it too.
Findings JudgeSchemaFields(const std::vector<NestedField>& want,
                           const std::vector<NestedField>& got,
                           FieldId base_last_column_id);

/// Every distinct check Judge makes on an answer (with the checks it calls: the
/// returned-metadata invariants, CheckReaderPreserves, the single-value and metadata-shape
/// findings). A fixture states each with an expectation key (docs/fixtures.md section
/// 5.2; fixtures/fixture_file.h ExpectationKeysOfCheck), so that a failure certify finds
/// fails again on replay. kCount ends the list.
enum class JudgeCheck {
  kResult,                   ///< ok / rejected / refused as the outcome allows
  kErrorKind,                ///< a rejection's kind is one a cause allows
  kRejectionConstraintIds,   ///< proto.rejection-constraint-ids
  kRejectedStateUnchanged,   ///< a rejected request changes nothing (load-table after)
  kSingleValue,              ///< ice.single-value: a legal value refused
  kMetadataShape,            ///< ice.metadata-shape: the answer's metadata decodes
  kFormatVersion,            ///< the metadata's format-version
  kV4OnlyFieldsAbsent,       ///< def.v4-only in v1-v3 metadata
  kConstraintPresent,        ///< each expected constraint present, no other
  kConstraintDefinition,     ///< type, enforced, expression, field-ids as expected
  kConstraintIdKept,         ///< an existing constraint keeps its ID
  kNewConstraintId,          ///< a new constraint has an ID above last-constraint-id
  kIdNoReuse,                ///< id.no-reuse
  kLastConstraintId,         ///< id.update-last: the highest assigned ID
  kTimestampChanged,         ///< upd.timestamp
  kTimestampFromNow,         ///< proto.timestamp-from-now (and the upgrade pk's time)
  kUpgradePrimaryKey,        ///< upg.pk-from-identifiers: the generated key
  kCurrentSnapshotKept,      ///< no new snapshot: the current one stays
  kSnapshotParent,           ///< a new snapshot on the previous current one
  kSnapshotOperation,        ///< the new snapshot's operation
  kSnapshotTimestamps,       ///< ice.v4-snapshot-timestamps
  kStatusLists,              ///< st.every-snapshot, st.exactly-one-list, stale IDs
  kStatusAllowed,            ///< each listed status in its allowed set (st.*)
  kIdsAtMostLast,            ///< no constraint ID above last-constraint-id
  kNoIdentifiersInV4,        ///< upg.no-identifiers-in-v4
  kReferencedFieldsExist,    ///< sch.referenced-exist
  kNewCurrentSchema,         ///< a schema change makes a new current schema
  kSchemaFields,             ///< JudgeSchemaFields
  kLiveRows,                 ///< sem.live-rows
  kReaderStatuses,           ///< st.reader-lookup, id.readers-tolerate-missing
  kReaderPreserves,          ///< def.reader-preserves
  kReparsedSnapshots,        ///< parse-metadata keeps format version and snapshots
  kIcebergMetadata,          ///< the surrounding Iceberg rules (CheckIcebergMetadata)
  kTableUuidKept,            ///< ice.table-uuid: the table keeps its table-uuid
  kCount
};

/// A check's name ("snapshot-parent") and what it checks, in words.
struct JudgeCheckInfo {
  JudgeCheck check;
  std::string_view name;
  std::string_view rules;  ///< the rule IDs its findings carry, e.g. "proto.answer"
  std::string_view what;
};

/// Every JudgeCheck but kCount, in order.
const std::vector<JudgeCheckInfo>& JudgeChecks();

/// "`last-constraint-id` ... is treated as 0 when it is not present"
/// (id.last-default-zero).
ConstraintId LastConstraintId(const TableMetadata& metadata);

/// Every status whose list in `statuses` names `id`, or {unvalidated} when none does (or
/// `statuses` is null). A writer lists an ID once (st.exactly-one-list); for the single
/// status a reader takes (st.reader-lookup) see ReaderStatus in status_rules.h.
StatusSet ListedStatuses(const ConstraintStatuses* statuses, ConstraintId id);

}  // namespace ictk
