/// \file
/// The status rules (seed "Constraint Validation"; SPEC.md "How the reference model
/// judges a reported status"): one function per status description, combined into the
/// allowed set and the precise status, and the rules on a snapshot's four status lists.
#include "model/rules/status_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace ictk {
namespace {

bool IsValidatedOrValid(ConstraintStatus s) {
  return s == ConstraintStatus::kValidated || s == ConstraintStatus::kValid;
}

/// Whether the truth of `S` (and the parent, for `valid`) permits `status`.
bool TrueOfSnapshot(const StatusContext& context, ConstraintStatus status) {
  switch (status) {
    case ConstraintStatus::kValidated:
      return ValidatedAllowed(context);
    case ConstraintStatus::kValid:
      return ValidAllowed(context);
    case ConstraintStatus::kInvalid:
      return InvalidAllowed(context);
    case ConstraintStatus::kUnvalidated:
      break;
  }
  return true;
}

std::string ListPointer(const std::string& pointer, ConstraintStatus s, size_t i) {
  return fmt::format("{}/{}/{}", pointer, ToString(s), i);
}

bool Contains(const std::vector<ConstraintId>& ids, ConstraintId id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

RuleId StatusDescriptionRule(ConstraintStatus status) {
  switch (status) {
    case ConstraintStatus::kValidated:
      return RuleId::kStValidated;
    case ConstraintStatus::kValid:
      return RuleId::kStValid;
    case ConstraintStatus::kInvalid:
      return RuleId::kStInvalid;
    case ConstraintStatus::kUnvalidated:
      break;
  }
  return RuleId::kStUnvalidated;
}

RuleId RuleBrokenByListedStatus(ConstraintStatus status) {
  return status == ConstraintStatus::kUnvalidated ? RuleId::kStNoAddCarry
                                                  : StatusDescriptionRule(status);
}

Clause ClauseBrokenByListedStatus(ConstraintStatus status, const StatusContext& context) {
  switch (status) {
    case ConstraintStatus::kValidated:
      return context.parent_status == ConstraintStatus::kValidated && context.commit_added_rows
                 ? clauses::kStValidatedCarried
                 : clauses::kStValidatedCheckedHolds;
    case ConstraintStatus::kValid:
      return IsValidatedOrValid(context.parent_status) ? clauses::kStValidAddsVerified
                                                       : clauses::kStValidParent;
    case ConstraintStatus::kInvalid:
      return context.parent_status == ConstraintStatus::kInvalid && context.commit_removed_rows
                 ? clauses::kStInvalidCarried
                 : clauses::kStInvalidChecked;
    case ConstraintStatus::kUnvalidated:
      break;
  }
  return Clause{RuleBrokenByListedStatus(status), {}};
}

bool StatusJudgement::Allows(ConstraintStatus status) const {
  return std::find(allowed.begin(), allowed.end(), status) != allowed.end();
}

/// "`validated`: The constraint was checked and holds for all rows in the snapshot, or
/// the commit did not add rows and the parent snapshot's status is `validated`"
/// (st.validated). Either way the claim is that `c` holds on every row of `S`; the
/// harness sees the rows.
bool ValidatedAllowed(const StatusContext& context) {
  return context.holds_on_new_snapshot;
}

/// "`valid`: The parent snapshot's status is `validated` or `valid`, and either the
/// writer can prove that the rows it added follow the constraint or the commit did not
/// add rows. By induction, the constraint holds for all rows in the snapshot." (st.valid)
bool ValidAllowed(const StatusContext& context) {
  return IsValidatedOrValid(context.parent_status) && context.holds_on_new_snapshot &&
         UdfStatusAllowsValid(context);
}

/// "`invalid`: At least one row in the snapshot is known to violate the constraint,
/// either because the constraint was checked or because the parent snapshot's status is
/// `invalid` and the commit did not remove any rows" (st.invalid).
bool InvalidAllowed(const StatusContext& context) {
  return context.violated_on_new_snapshot.value_or(!context.holds_on_new_snapshot);
}

/// "`unvalidated`: Whether the constraint holds for all rows in the snapshot is not
/// known";
/// "`unvalidated` is the status of a constraint that cannot be listed with any other
/// status" (st.unvalidated). Under status-carry=may every constraint may be
/// `unvalidated`; under `must`, not when the parent's status carries over truthfully.
bool UnvalidatedAllowed(const StatusContext& context, const Switches& switches) {
  if (switches.status_carry == StatusCarry::kMay) return true;
  auto carried = CarriedStatus(context, switches);
  return !(carried && TrueOfSnapshot(context, *carried));
}

/// "A commit that does not add rows cannot introduce a violation. Such a commit, for
/// example a delete or a compaction operation, may carry over the parent snapshot's
/// `validated` or `valid` status for a constraint without checking rows again."
/// (st.no-add-carry), and `invalid` "because the parent snapshot's status is `invalid`
/// and the commit did not remove any rows" (st.invalid).
std::optional<ConstraintStatus> CarriedStatus(const StatusContext& context,
                                              const Switches& switches) {
  std::optional<ConstraintStatus> carried;
  if (!context.commit_added_rows && IsValidatedOrValid(context.parent_status)) {
    carried = context.parent_status;
  } else if (!context.commit_removed_rows &&
             context.parent_status == ConstraintStatus::kInvalid) {
    carried = ConstraintStatus::kInvalid;
  }
  if (carried && !UdfStatusPermits(context, *carried, /*as_carry=*/true, switches)) {
    return std::nullopt;
  }
  return carried;
}

/// "The status of a `check` constraint that calls a user-defined function describes the
/// function definitions that were current when the snapshot was written. ... a writer
/// must not record `valid` for such a constraint or keep the parent snapshot's status for
/// it; the constraint is `validated` only if it was checked for every row in the
/// snapshot." (expr.udf-status). Whether `invalid` is among the statuses that may not be
/// kept is switch udf-check-carries-invalid.
/// expr.udf-status/not-valid: "a writer must not record `valid` for such a constraint"
/// (a check that calls a user-defined function). No switch bears on it.
bool UdfStatusAllowsValid(const StatusContext& context) { return !context.calls_udf; }

bool UdfStatusPermits(const StatusContext& context, ConstraintStatus status,
                      bool as_carry, const Switches& switches) {
  if (!context.calls_udf) return true;
  if (status == ConstraintStatus::kValid) return UdfStatusAllowsValid(context);
  if (!as_carry) return true;
  return status == ConstraintStatus::kInvalid && switches.udf_check_carries_invalid;
}

ConstraintStatus PreciseStatus(const StatusContext& context, const Switches& switches) {
  ConstraintStatus derived = ConstraintStatus::kUnvalidated;
  if (context.full_validation) {
    derived = context.holds_on_new_snapshot ? ConstraintStatus::kValidated
                                            : ConstraintStatus::kInvalid;
  } else if (context.writer_found_violation) {
    derived = ConstraintStatus::kInvalid;
  } else if (auto carried = CarriedStatus(context, switches)) {
    derived = *carried;
  } else if (IsValidatedOrValid(context.parent_status) && context.writer_verified_added &&
             UdfStatusPermits(context, ConstraintStatus::kValid, false, switches)) {
    derived = ConstraintStatus::kValid;
  }
  return TrueOfSnapshot(context, derived) ? derived : ConstraintStatus::kUnvalidated;
}

/// "A constraint must not be listed with a status unless the status's description above
/// holds for the snapshot" (st.sound): the statuses whose description holds.
std::vector<ConstraintStatus> AllowedStatuses(const StatusContext& context,
                                              const Switches& switches) {
  std::vector<ConstraintStatus> out;
  if (ValidatedAllowed(context)) out.push_back(ConstraintStatus::kValidated);
  if (ValidAllowed(context)) out.push_back(ConstraintStatus::kValid);
  if (InvalidAllowed(context)) out.push_back(ConstraintStatus::kInvalid);
  if (UnvalidatedAllowed(context, switches) || out.empty()) {
    out.push_back(ConstraintStatus::kUnvalidated);
  }
  return out;
}

StatusJudgement JudgeStatus(const StatusContext& context, const Switches& switches) {
  StatusJudgement j;
  j.allowed = AllowedStatuses(context, switches);
  j.precise = PreciseStatus(context, switches);
  if (!j.Allows(j.precise))
    j.precise = j.allowed.front();  // not reached: precise is true
  return j;
}

/// "Readers must determine the status of a constraint for a snapshot as follows: 1. If
/// the constraint's `constraint-id` is listed in `validated`, `valid`, `invalid`, or
/// `unvalidated`, that is its status 2. Otherwise, the constraint is `unvalidated` for
/// the snapshot" (st.reader-lookup).
ConstraintStatus ReaderStatus(const ConstraintStatuses* statuses, ConstraintId id) {
  if (!statuses) return ConstraintStatus::kUnvalidated;
  for (ConstraintStatus s : kAllStatuses) {
    const auto& list = statuses->List(s);
    if (list && Contains(*list, id)) return s;
  }
  return ConstraintStatus::kUnvalidated;
}

/// "a `constraint-id` must not appear in more than one list" (st.exactly-one-list); an ID
/// twice in the same list is not "exactly one" either (SPEC.md open points).
Findings CheckExactlyOneList(const ConstraintStatuses& statuses,
                             const std::vector<ConstraintId>& existing,
                             const std::string& pointer) {
  Findings out = CheckListedOnce(statuses, pointer);
  AppendFindings(out, CheckEveryExistingListed(statuses, existing, pointer));
  return out;
}

Findings CheckListedOnce(const ConstraintStatuses& statuses, const std::string& pointer) {
  Findings out;
  std::map<ConstraintId, ConstraintStatus> first;
  for (ConstraintStatus s : kAllStatuses) {
    const auto& list = statuses.List(s);
    if (!list) continue;
    for (size_t i = 0; i < list->size(); ++i) {
      const ConstraintId id = (*list)[i];
      auto [it, inserted] = first.emplace(id, s);
      if (inserted) continue;
      Require(out, false, clauses::kStOneList,
              it->second == s
                  ? fmt::format("constraint {} is listed twice in {}", id, ToString(s))
                  : fmt::format("constraint {} is listed in both {} and {}", id,
                                ToString(it->second), ToString(s)),
              id, ListPointer(pointer, s, i));
    }
  }
  return out;
}

/// "Every constraint that exists when the snapshot is created must be listed in exactly
/// one of the four lists" (st.exactly-one-list); writers "must place every constraint
/// that exists when the snapshot is created into exactly one status list".
Findings CheckEveryExistingListed(const ConstraintStatuses& statuses,
                                  const std::vector<ConstraintId>& existing,
                                  const std::string& pointer) {
  Findings out;
  for (ConstraintId id : existing) {
    bool listed = false;
    for (ConstraintStatus s : kAllStatuses) {
      const auto& list = statuses.List(s);
      listed = listed || (list && Contains(*list, id));
    }
    Require(out, listed, clauses::kStEveryExisting,
            fmt::format("constraint {} exists but is in none of the four lists", id), id,
            pointer);
  }
  return out;
}

/// "A constraint whose ID is not present in any list did not exist when the snapshot was
/// created": under stale-ids-in-new-snapshot=reject the lists name only constraints that
/// exist (st.exactly-one-list); readers tolerate other IDs (id.readers-tolerate-missing).
Findings CheckNoStaleIds(const ConstraintStatuses& statuses,
                         const std::vector<ConstraintId>& existing,
                         const Switches& switches, const std::string& pointer) {
  Findings out;
  if (switches.stale_ids_in_new_snapshot == StaleIds::kAllow) return out;
  for (ConstraintStatus s : kAllStatuses) {
    const auto& list = statuses.List(s);
    if (!list) continue;
    for (size_t i = 0; i < list->size(); ++i) {
      Require(out, Contains(existing, (*list)[i]), clauses::kStEveryExisting,
              fmt::format("constraint {} is listed as {} but does not exist", (*list)[i],
                          ToString(s)),
              (*list)[i], ListPointer(pointer, s, i));
    }
  }
  return out;
}

/// "Writers must record `constraint-statuses` in every snapshot of a table that has
/// constraints" (st.every-snapshot).
Findings CheckStatusesRecorded(const std::optional<ConstraintStatuses>& statuses,
                               bool table_has_constraints, const std::string& pointer) {
  Findings out;
  Require(out, statuses.has_value() || !table_has_constraints, RuleId::kStEverySnapshot,
          "the table has constraints but the snapshot records no constraint-statuses",
          std::nullopt, pointer + "/constraint-statuses");
  return out;
}

Findings CheckNewSnapshotStatuses(const std::optional<ConstraintStatuses>& statuses,
                                  const std::vector<ConstraintId>& existing,
                                  const Switches& switches, const std::string& pointer) {
  Findings out = CheckStatusesRecorded(statuses, !existing.empty(), pointer);
  if (!statuses) return out;
  const std::string at = pointer + "/constraint-statuses";
  AppendFindings(out, CheckExactlyOneList(*statuses, existing, at));
  AppendFindings(out, CheckNoStaleIds(*statuses, existing, switches, at));
  return out;
}

ConstraintStatuses MakeStatuses(
    const std::vector<std::pair<ConstraintId, ConstraintStatus>>& statuses) {
  ConstraintStatuses out;
  for (const auto& [id, status] : statuses) {
    auto& list = out.List(status);
    if (!list) list.emplace();
    list->push_back(id);
  }
  return out;
}

}  // namespace ictk
