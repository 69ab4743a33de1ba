/// \file
/// Shared pieces of the model's operations (operations.h), split by request kind across
/// commit.cc, schema_change.cc, upgrade.cc, constraint_ops.cc and reader_ops.cc. Not
/// installed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/rules/finding.h"
#include "model/judge/operations.h"
#include "model/judge/outcome.h"
#include "model/judge/outcome_internal.h"
#include "model/judge/requests.h"
#include "model/rules/constraint_rules.h"
#include "model/rules/ruling.h"
#include "model/rules/switches.h"
#include "model/iceberg/table_metadata.h"
#include "model/judge/table_state.h"

namespace ictk::internal {

/// A visitor made of lambdas, one per alternative of a std::variant.
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;


/// Collects why a request may or must be rejected, and why it may succeed, into an
/// AllowedOutcome. "Where a request has two causes, the model accepts the kind of
/// either" (docs/protocol.md section 8): every cause adds its kind, so a request with
/// several causes allows the kind of any one of them.
///
/// The constraints a rejection of a kind is about (AllowedOutcome::constraint_ids) are
/// the constraints its causes concern: a cause's `Finding::constraint_id` is added to
/// the set of its kind. A caller whose finding concerns a constraint that does not exist
/// yet (the candidate of add-constraint) passes the finding without an ID and names the
/// existing constraint it clashes with through About.
class OutcomeBuilder {
 public:
  /// A cause that requires a rejection of `kind`.
  void MustReject(RejectKind kind, Finding why);
  /// A cause that allows (but does not require) a rejection of `kind`.
  void MayReject(RejectKind kind, Finding why);
  /// A rule that makes `ok` the answer (recorded in decided_by).
  void Because(Finding why);
  /// A rule that makes `ok` the answer more specifically than the generic ones before it
  /// (a permission the request relies on, e.g. key.unique-optional-ok,
  /// upg.skip-ineligible): recorded first, so that a wrongful rejection is filed under it.
  void BecauseFirst(Finding why);
  /// Folds a rule's rulings in: a failure it requires or allows is a rejection of `kind`.
  void Add(RejectKind kind, Rulings rulings);
  /// Folds in the rulings of a rule that only ever permits (a reader's "must tolerate",
  /// "must ignore"): each is a reason for `ok`. A failure ruling here is a programming
  /// error (asserted): such a rule has no error kind to give it.
  void AddPermissions(Rulings rulings);
  /// A rejection of `kind` is also about constraint `id`.
  void About(RejectKind kind, ConstraintId id) { outcome_.constraint_ids[kind].insert(id); }

  bool must_reject() const { return !outcome_.reject_required_by.empty(); }
  AllowedOutcome& outcome() { return outcome_; }
  /// The finished outcome: `ok` allowed unless some cause requires a rejection.
  AllowedOutcome Build() &&;

 private:
  AllowedOutcome outcome_;
};

/// "A request at a format version the implementation did not declare may be answered
/// unsupported-format-version" (proto.declared-versions): for a known `version` outside
/// `switches.declared_format_versions`, allows that rejection. Returns whether the
/// version was declared.
bool DeclaredFormatVersion(int32_t version, const Switches& switches, OutcomeBuilder& b);

/// An outcome that must be rejected with invalid-request (proto.request).
AllowedOutcome InvalidRequest(std::string detail,
                              Clause clause = clauses::kProtoRequestMalformed);

/// The table a request names, or nullptr.
const TableState* TableOf(const CatalogState& state, const Request& request);

/// The status snapshot `snap` records for `id` (unvalidated when unlisted or no
/// snapshot): "If the constraint's constraint-id is listed ... that is its status;
/// Otherwise, the constraint is unvalidated for the snapshot" (st.reader-lookup).
ConstraintStatus RecordedStatus(const Snapshot* snap, ConstraintId id);

/// The expectation that an existing constraint is unchanged.
ConstraintExpectation ExpectUnchanged(const Constraint& c);

/// Metadata expectations shared by every request on `table`: same format version, the
/// constraints unchanged, no new snapshot, ID bookkeeping from the table's history.
MetadataExpectation BaseExpectation(const TableState& table, const Switches& switches);

/// The highest snapshot ID in `metadata` (0 when none).
SnapshotId MaxSnapshotId(const TableMetadata& metadata);

/// The metadata `base` becomes at `now_ms` before the request's own change.
TableMetadata NextMetadata(const TableMetadata& base, int64_t now_ms);

// --- per request kind
// -------------------------------------------------------------------

AllowedOutcome ApplyCreateTable(const CatalogState& state, const Request& request,
                                const CreateTable& op, const Switches& switches);
AllowedOutcome ApplyUpgrade(const CatalogState& state, const Request& request,
                            const Upgrade& op, const Switches& switches);
AllowedOutcome ApplyAddConstraint(const CatalogState& state, const Request& request,
                                  const AddConstraint& op, const Switches& switches);
AllowedOutcome ApplyUpdateConstraint(const CatalogState& state, const Request& request,
                                     const UpdateConstraint& op,
                                     const Switches& switches);
AllowedOutcome ApplyRemoveConstraint(const CatalogState& state, const Request& request,
                                     const RemoveConstraint& op,
                                     const Switches& switches);
AllowedOutcome ApplyUpdateSchema(const CatalogState& state, const Request& request,
                                 const UpdateSchema& op, const Switches& switches);
AllowedOutcome ApplyCommit(const CatalogState& state, const Request& request,
                           const Commit& op, const Switches& switches);
AllowedOutcome ApplyBegin(const CatalogState& state, const Request& request,
                          const Begin& op, const Switches& switches);
AllowedOutcome ApplyFinish(const CatalogState& state, const Request& request,
                           const Finish& op, const Switches& switches);
AllowedOutcome ApplyValidate(const CatalogState& state, const Request& request,
                             const Validate& op, const Switches& switches);
AllowedOutcome ApplyScan(const CatalogState& state, const Request& request,
                         const Scan& op, const Switches& switches);
AllowedOutcome ApplyReadStatuses(const CatalogState& state, const Request& request,
                                 const ReadStatuses& op, const Switches& switches);
AllowedOutcome ApplyParseMetadata(const CatalogState& state, const Request& request,
                                  const ParseMetadata& op, const Switches& switches);

Findings AdoptCreateTable(CatalogState& state, const Request& request,
                          const CreateTable& op, const TableMetadata& answered);
Findings AdoptMetadataChange(CatalogState& state, const Request& request,
                             const TableMetadata& answered, const Switches& switches);
Findings AdoptUpdateSchema(CatalogState& state, const Request& request,
                           const UpdateSchema& op, const TableMetadata& answered,
                           const Switches& switches);
Findings AdoptCommit(CatalogState& state, const Request& request, const Commit& op,
                     const TableMetadata& answered, const Switches& switches);
Findings AdoptFinish(CatalogState& state, const Request& request, const Finish& op,
                     const Answer& answer, const Switches& switches);
Findings AdoptValidate(CatalogState& state, const Request& request, const Validate& op,
                       const TableMetadata& answered);
void AdoptDefineFunction(CatalogState& state, const DefineFunction& op);

std::optional<TableMetadata> CanonicalCreateTable(const Request& request,
                                                  const CreateTable& op);
std::optional<TableMetadata> CanonicalUpgrade(const TableState& table,
                                              const Request& request, const Upgrade& op);
std::optional<TableMetadata> CanonicalAddConstraint(const TableState& table,
                                                    const Request& request,
                                                    const AddConstraint& op);
std::optional<TableMetadata> CanonicalUpdateConstraint(const TableState& table,
                                                       const Request& request,
                                                       const UpdateConstraint& op,
                                                       const Switches& switches);
std::optional<TableMetadata> CanonicalRemoveConstraint(const TableState& table,
                                                       const Request& request,
                                                       const RemoveConstraint& op,
                                                       const Switches& switches);
std::optional<TableMetadata> CanonicalUpdateSchema(const TableState& table,
                                                   const Request& request,
                                                   const UpdateSchema& op,
                                                   const Switches& switches);
/// A commit, validate or finish: the new snapshot on `parent` with `outcome`'s precise
/// statuses.
std::optional<TableMetadata> CanonicalSnapshot(const TableMetadata& parent,
                                               const Request& request,
                                               const AllowedOutcome& outcome,
                                               const std::string& operation,
                                               int64_t added_rows);
/// The rows a commit adds (its `add` and `modify`), for row lineage bookkeeping.
int64_t AddedRowCount(const Commit& commit);

}  // namespace ictk::internal
