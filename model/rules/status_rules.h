/// \file
/// Judging a reported constraint status (SPEC.md "How the reference model judges a
/// reported status") and the rules on a snapshot's `constraint-statuses` lists (st.*).
/// For one constraint in a new snapshot the model computes the ALLOWED set of statuses (a
/// report outside it claims more than is true) and the PRECISE status (the strongest a
/// writer can justify without re-reading old rows). Table operations, metadata lint and
/// the sample's judging call these; the caller computes the facts (truth over the live
/// rows, what the commit added and removed after the switches, the adopted parent
/// status).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/rules/finding.h"
#include "model/rules/switches.h"

namespace ictk {

/// What is known about one constraint `c` in a new snapshot `S` with parent `P`.
struct StatusContext {
  /// `c` holds on the live rows of `S` (for a check calling a UDF: under the function
  /// definitions current when `S` is written).
  bool holds_on_new_snapshot = false;
  /// Some live row of `S` is known to violate `c`; nullopt: `!holds_on_new_snapshot`. (A
  /// check that cannot be evaluated on some row, e.g. an undefined UDF, neither holds nor
  /// is known to be violated.)
  std::optional<bool> violated_on_new_snapshot;
  /// `c`'s status in `P` as recorded (adopted); `unvalidated` when `P` has none or there
  /// is no parent. After a retry, `P` is the new parent the commit landed on.
  ConstraintStatus parent_status = ConstraintStatus::kUnvalidated;
  /// The commit added rows, after switches modified-counts-as-added and
  /// compaction-counts-as-added.
  bool commit_added_rows = false;
  /// The commit removed rows (a modified row counts as removed: enf.modified-row).
  bool commit_removed_rows = false;
  /// `c` is a check that calls a user-defined function (expr.udf-status).
  bool calls_udf = false;
  /// The writer verified the rows it added against `c` (enforced constraints are).
  bool writer_verified_added = false;
  /// The writer checked the rows it added and found one that breaks `c` (a constraint
  /// that is not enforced): `invalid` is then justified.
  bool writer_found_violation = false;
  /// The commit checked `c` against every row of `S` (the protocol's `validate`).
  bool full_validation = false;

  bool operator==(const StatusContext&) const = default;
};

/// The verdict for one constraint: the allowed statuses (in kAllStatuses order, never
/// empty: `unvalidated` is the fallback) and the precise one (a member of `allowed`).
struct StatusJudgement {
  std::vector<ConstraintStatus> allowed;
  ConstraintStatus precise = ConstraintStatus::kUnvalidated;
  bool Allows(ConstraintStatus status) const;
  bool operator==(const StatusJudgement&) const = default;
};

/// The st.* rule whose description a listed status claims: st.validated, st.valid,
/// st.invalid or st.unvalidated.
RuleId StatusDescriptionRule(ConstraintStatus status);

/// The rule a status listed outside its allowed set breaks: the st.* rule of its
/// description (StatusDescriptionRule); `unvalidated` is always true of a snapshot, so it
/// is disallowed only where a carry is required (st.no-add-carry, status-carry=must). The
/// judge and the fixture evaluator (a failing `statuses` key) both name it.
RuleId RuleBrokenByListedStatus(ConstraintStatus status);

/// The clause of RuleBrokenByListedStatus(status) that listing `status` outside its
/// allowed set breaks, in `context`: the half of the description the writer relied on.
/// `validated` kept from a `validated` parent by a commit that added rows relies on
/// "the commit did not add rows and the parent snapshot's status is `validated`"
/// (carried), else on "checked and holds" (checked-holds); `valid` over a parent neither
/// `validated` nor `valid` breaks "the parent snapshot's status is `validated` or
/// `valid`" (parent), else "the rows it added follow the constraint" (adds-verified);
/// `invalid` kept from an `invalid` parent by a commit that removed rows breaks the
/// carried half, else "because the constraint was checked" (checked).
Clause ClauseBrokenByListedStatus(ConstraintStatus status, const StatusContext& context);

/// st.validated: "The constraint was checked and holds for all rows in the snapshot, or
/// the commit did not add rows and the parent snapshot's status is `validated`" — judged
/// by truth: allowed when `c` holds on `S`.
bool ValidatedAllowed(const StatusContext& context);
/// st.valid: "The parent snapshot's status is `validated` or `valid`, and either the
/// writer can prove that the rows it added follow the constraint or the commit did not
/// add rows" — allowed when the parent is validated/valid, `c` holds on `S`, and
/// expr.udf-status permits `valid`.
bool ValidAllowed(const StatusContext& context);
/// st.invalid: "At least one row in the snapshot is known to violate the constraint" —
/// allowed when some live row of `S` violates `c` (violated_on_new_snapshot).
bool InvalidAllowed(const StatusContext& context);
/// st.unvalidated: always allowed under status-carry=may; under `must` not allowed when a
/// carried status (st.no-add-carry) is derivable and true.
bool UnvalidatedAllowed(const StatusContext& context, const Switches& switches);
/// st.no-add-carry: the status a commit that adds no rows (or removes none, for
/// `invalid`) carries over from the parent: `validated`/`valid` when no row was added,
/// `invalid` when no row was removed; nullopt when nothing carries (or expr.udf-status
/// forbids it).
std::optional<ConstraintStatus> CarriedStatus(const StatusContext& context,
                                              const Switches& switches);
/// expr.udf-status: for a check that calls a UDF "a writer must not record `valid` for
/// such a constraint or keep the parent snapshot's status for it". Whether `status` may
/// be recorded as such (`as_carry`: kept from the parent rather than found by checking).
bool UdfStatusPermits(const StatusContext& context, ConstraintStatus status,
                      bool as_carry, const Switches& switches);
/// expr.udf-status/not-valid alone: whether `valid` may be recorded for `c` at all (not
/// for a check that calls a UDF); UdfStatusPermits and ValidAllowed call it.
bool UdfStatusAllowsValid(const StatusContext& context);

/// The strongest status a writer can justify without re-reading old rows (SPEC.md
/// "Precision"); `unvalidated` when that status would not be true.
ConstraintStatus PreciseStatus(const StatusContext& context, const Switches& switches);
/// The allowed set (st.sound), in kAllStatuses order; never empty.
std::vector<ConstraintStatus> AllowedStatuses(const StatusContext& context,
                                              const Switches& switches);
/// AllowedStatuses and PreciseStatus together.
StatusJudgement JudgeStatus(const StatusContext& context, const Switches& switches);

/// st.reader-lookup: "If the constraint's `constraint-id` is listed in `validated`,
/// `valid`, `invalid`, or `unvalidated`, that is its status. Otherwise, the constraint is
/// `unvalidated` for the snapshot". `statuses` may be null (none recorded). An ID listed
/// in two lists (a writer failure) reads as the first in that order.
ConstraintStatus ReaderStatus(const ConstraintStatuses* statuses, ConstraintId id);

/// st.exactly-one-list: "Every constraint that exists when the snapshot is created must
/// be listed in exactly one of the four lists, and a `constraint-id` must not appear in
/// more than one list." Each of `existing` is listed (CheckEveryExistingListed) and no ID
/// is listed twice (CheckListedOnce). Metadata lint passes as `existing` only the
/// constraints it can prove existed when the snapshot was written.
Findings CheckExactlyOneList(const ConstraintStatuses& statuses,
                             const std::vector<ConstraintId>& existing,
                             const std::string& pointer = {});
/// st.exactly-one-list, first half: "a `constraint-id` must not appear in more than one
/// list" (an ID twice in one list is a failure too). `pointer` is the JSON pointer of the
/// `constraint-statuses` object.
Findings CheckListedOnce(const ConstraintStatuses& statuses,
                         const std::string& pointer = {});
/// st.exactly-one-list, second half: "Every constraint that exists when the snapshot is
/// created must be listed in exactly one of the four lists" — each of `existing` is
/// listed.
Findings CheckEveryExistingListed(const ConstraintStatuses& statuses,
                                  const std::vector<ConstraintId>& existing,
                                  const std::string& pointer = {});
/// Switch stale-ids-in-new-snapshot (st.exactly-one-list): under `reject`, every listed
/// ID is one of `existing`; under `allow`, nothing is reported.
Findings CheckNoStaleIds(const ConstraintStatuses& statuses,
                         const std::vector<ConstraintId>& existing,
                         const Switches& switches, const std::string& pointer = {});
/// st.every-snapshot: "Writers must record `constraint-statuses` in every snapshot of a
/// table that has constraints". `pointer` is the snapshot's.
Findings CheckStatusesRecorded(const std::optional<ConstraintStatuses>& statuses,
                               bool table_has_constraints,
                               const std::string& pointer = {});
/// The statuses a writer recorded in a new snapshot, given the IDs of the constraints
/// that exist when it is created: CheckStatusesRecorded, CheckListedOnce,
/// CheckEveryExistingListed and CheckNoStaleIds. `pointer` is the snapshot's.
Findings CheckNewSnapshotStatuses(const std::optional<ConstraintStatuses>& statuses,
                                  const std::vector<ConstraintId>& existing,
                                  const Switches& switches,
                                  const std::string& pointer = {});
/// The judged status of each ID, as a snapshot's `constraint-statuses`: each ID in the
/// list of its status. Lists that end up empty are omitted.
ConstraintStatuses MakeStatuses(
    const std::vector<std::pair<ConstraintId, ConstraintStatus>>& statuses);

}  // namespace ictk
