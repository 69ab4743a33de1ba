/// \file
/// The constraint statuses of a commit's new snapshot, derived from the parent's and from
/// what verifying its rows found (st.*): the last step of a commit's plan but one
/// (commit.cc).
#include <algorithm>
#include <map>
#include <vector>

#include "sample/commit_internal.h"
#include "sample/engine_internal.h"

namespace ictk::sample {

ConstraintStatuses CommitPlan::Statuses() {
  if (is_retry && Has(Mutant::kStatusesNotRecomputedOnRetry) && retry->staged_statuses) {
    return *retry->staged_statuses;
  }
  if (engine.divergent_ && Has(Mutant::kNone)) return DivergentStatuses();
  return CanonicalStatuses();
}

ConstraintStatuses CommitPlan::DivergentStatuses() {
  // The divergent style checks every live row of the new snapshot and records a status
  // picked at random from the ones the truth allows (docs/rules.md, "Judging a reported
  // status"): `unvalidated` always; `validated` when the constraint holds on every row
  // (it checked them all); `valid` when it holds, the parent records `validated` or
  // `valid`, and it is not a check that calls a UDF (expr.udf-status); `invalid` when a
  // row breaks it. A constraint that cannot be evaluated on some row is `unvalidated`.
  ConstraintStatuses statuses;
  std::map<ConstraintStatus, std::vector<ConstraintId>> lists;
  const std::vector<Value>& all = EveryRow();
  for (const Constraint& con : constraints) {
    if (!con.id || found.count(*con.id) == 0) continue;
    const Engine::Truth truth = engine.TruthOf(con, fields, all);
    const ConstraintStatus p = ParentStatus(pm, *con.id, ConstraintStatus::kUnvalidated);
    std::vector<ConstraintStatus> allowed = {ConstraintStatus::kUnvalidated};
    if (truth.evaluable && truth.violated) {
      allowed.push_back(ConstraintStatus::kInvalid);
    } else if (truth.holds()) {
      allowed.push_back(ConstraintStatus::kValidated);
      if ((p == ConstraintStatus::kValidated || p == ConstraintStatus::kValid) &&
          !found[*con.id].calls_udf) {
        allowed.push_back(ConstraintStatus::kValid);
      }
    }
    lists[allowed[engine.choose_.Below(allowed.size())]].push_back(*con.id);
  }
  for (ConstraintStatus s : kAllStatuses) {
    std::vector<ConstraintId>& ids = lists[s];
    engine.choose_.Shuffle(ids);
    // An empty list may be written or left out.
    if (!ids.empty() || engine.choose_.Coin()) statuses.List(s) = ids;
  }
  return statuses;
}

ConstraintStatuses CommitPlan::CanonicalStatuses() const {
  ConstraintStatuses statuses;
  std::map<ConstraintStatus, std::vector<ConstraintId>> lists;
  for (const Constraint& con : constraints) {
    if (!con.id || found.count(*con.id) == 0) continue;
    const std::optional<ConstraintStatus> s = CanonicalStatus(*con.id, found.at(*con.id));
    if (!s) continue;
    lists[*s].push_back(*con.id);
  }
  if (Has(Mutant::kIdInTwoLists)) {
    for (ConstraintId id : lists[ConstraintStatus::kInvalid])
      lists[ConstraintStatus::kUnvalidated].push_back(id);
  }
  if (Has(Mutant::kStaleIdListed)) {
    if (const Snapshot* ps = pm.CurrentSnapshot(); ps && ps->constraint_statuses) {
      for (ConstraintStatus s : kAllStatuses) {
        for (ConstraintId id :
             ps->constraint_statuses->List(s).value_or(std::vector<ConstraintId>{})) {
          if (found.count(id) == 0) lists[s].push_back(id);
        }
      }
    }
  }
  for (auto& [s, ids] : lists) {
    std::sort(ids.begin(), ids.end());
    if (!ids.empty()) statuses.List(s) = ids;
  }
  return statuses;
}

std::optional<ConstraintStatus> CommitPlan::CanonicalStatus(ConstraintId id,
                                                            const Verification& v) const {
  // retry-carries-base-status: the parent status of the transaction's base, not of the
  // new parent.
  const TableMetadata& parent =
      is_retry && retry->base != nullptr && Has(Mutant::kRetryCarriesBaseStatus)
          ? retry->base->meta
          : pm;
  const ConstraintStatus p = ParentStatus(parent, id,
                                          Has(Mutant::kUnlistedParentValidated)
                                              ? ConstraintStatus::kValidated
                                              : ConstraintStatus::kUnvalidated);
  const bool carry_invalid = !removes_rows() || Has(Mutant::kInvalidKeptAfterDelete);
  ConstraintStatus s = ConstraintStatus::kUnvalidated;
  if (!v.evaluable) {
    s = ConstraintStatus::kUnvalidated;
  } else if (v.calls_udf && !(adds_rows() && Has(Mutant::kUdfCheckKeepsValid)) &&
             !(!adds_rows() && Has(Mutant::kUdfCheckCarriesStatus))) {
    // "a writer must not record valid for such a constraint or keep the parent
    // snapshot's status for it; the constraint is validated only if it was checked
    // for every row in the snapshot" (expr.udf-status).
    s = v.violated      ? ConstraintStatus::kInvalid
        : v.all_checked ? ConstraintStatus::kValidated
                        : ConstraintStatus::kUnvalidated;
  } else if (v.violated) {
    // "At least one row in the snapshot is known to violate the constraint"
    // (st.invalid).
    s = ConstraintStatus::kInvalid;
  } else if (v.all_checked) {
    // "The constraint was checked and holds for all rows in the snapshot"
    // (st.validated).
    s = ConstraintStatus::kValidated;
  } else if (!adds_rows()) {
    // "A commit that does not add rows cannot introduce a violation ... may carry
    // over the parent snapshot's validated or valid status" (st.no-add-carry);
    // invalid when "the parent snapshot's status is invalid and the commit did not
    // remove any rows".
    if (p == ConstraintStatus::kValidated || p == ConstraintStatus::kValid) {
      s = p;
    } else if (p == ConstraintStatus::kInvalid && carry_invalid) {
      s = ConstraintStatus::kInvalid;
    }
  } else {
    // "The parent snapshot's status is validated or valid, and ... the writer can
    // prove that the rows it added follow the constraint" (st.valid).
    if (p == ConstraintStatus::kValidated && Has(Mutant::kValidatedCarriedOverAdds)) {
      s = ConstraintStatus::kValidated;  // "the commit did not add rows" ignored
    } else if (p == ConstraintStatus::kValidated || p == ConstraintStatus::kValid) {
      s = ConstraintStatus::kValid;
    } else if (p == ConstraintStatus::kInvalid && carry_invalid) {
      s = ConstraintStatus::kInvalid;
    }
  }
  // invalid only "because the constraint was checked" and a row breaks it
  // (st.invalid); the mutant records invalid for what it could not verify.
  if (s == ConstraintStatus::kUnvalidated && v.evaluable && !v.violated && adds_rows() &&
      Has(Mutant::kUncheckedRecordedInvalid)) {
    s = ConstraintStatus::kInvalid;
  }
  if (s == ConstraintStatus::kUnvalidated && Has(Mutant::kStatusListMissingConstraint)) {
    return std::nullopt;
  }
  return s;
}

}  // namespace ictk::sample
