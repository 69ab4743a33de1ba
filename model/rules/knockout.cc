/// \file
/// The knock-out table (knockout.h).
#include "model/rules/knockout.h"

#include <cassert>

namespace ictk {

const std::vector<KnockOutInfo>& KnockOuts() {
  using K = KnockOut;
  using R = RuleId;
  static const std::vector<KnockOutInfo> kTable = {
      {K::kEnfNotEnforced, R::kEnfNotEnforced, "enf.not-enforced/whole", 2,
       "a commit whose rows break a constraint that is not enforced may be refused",
       "writers are not required to ensure that written data conform to a constraint "
       "that is not enforced, so such a commit must not be refused for it"},
      {K::kEnfKeysAmongAdded, R::kEnfKeysAgainstRemaining,
       "enf.keys-against-remaining/among-added", 2,
       "added keys are not compared with each other",
       "a writer must verify that added rows have distinct keys among themselves"},
      {K::kEnfKeysAgainstRemaining, R::kEnfKeysAgainstRemaining,
       "enf.keys-against-remaining/against-remaining", 2,
       "added keys are compared only among themselves",
       "a writer must verify that added keys do not conflict with rows remaining from "
       "the new parent"},
      {K::kEnfKeysAfterRemovals, R::kEnfKeysAgainstRemaining,
       "enf.keys-against-remaining/after-removals", 2,
       "added keys are compared with the parent's rows before the commit's removals",
       "added keys are compared with the rows remaining after applying the commit's "
       "removals, so a key that replaces a removed row's does not conflict"},
      // After the key clauses: where a modified row's key conflicts, the answer that
      // skips the comparison is admitted both without enf.modified-row (the row is not
      // checked at all) and without the key clause (only that comparison is skipped);
      // the narrower knock-out is the better explanation.
      {K::kEnfModifiedRow, R::kEnfModifiedRow, "enf.modified-row/whole", 2,
       "a modified row is not checked as an added row",
       "a row whose values changed in a commit counts as a removed row and an added row, "
       "so it must conform to the enforced constraints"},
      {K::kSemUniqueNullsNotCompared, R::kSemUnique, "sem.unique/nulls-not-compared", 2,
       "a null in a unique key is compared like a value",
       "a row in which any field of a unique key is null is not compared, so more than "
       "one such row may exist"},
      {K::kEnfRetryNewAdded, R::kEnfRetryNewConstraints, "enf.retry-new-constraints/added",
       3, "on retry, a constraint that a concurrent commit added is not verified",
       "a writer must also verify the rows that it adds against any constraint that a "
       "concurrent commit added"},
      {K::kEnfRetryNewChangedToEnforced, R::kEnfRetryNewConstraints,
       "enf.retry-new-constraints/changed-to-enforced", 3,
       "on retry, a constraint that a concurrent commit changed to enforced is not "
       "verified",
       "a writer must also verify the rows that it adds against any constraint that a "
       "concurrent commit changed to enforced"},
      {K::kEnfRetryKeysNewParent, R::kEnfRetryKeysNewParent,
       "enf.retry-keys-new-parent/whole", 3,
       "on retry, added keys are verified against the original parent's rows",
       "on retry, added keys must be verified against the rows of the new parent; "
       "verifying them against the original parent is not sufficient"},
      {K::kEnfRetryRecomputeStatuses, R::kEnfRetryRecomputeStatuses,
       "enf.retry-recompute-statuses/whole", 3,
       "on retry, the statuses are computed from the transaction's original parent",
       "a retried commit must recompute constraint-statuses from the new parent"},
      {K::kDefTimestampInformationalApplies, R::kDefTimestampInformational,
       "def.timestamp-informational/applies", 2,
       "a reader takes a constraint whose timestamp-ms is after the snapshot's as not "
       "applying to that snapshot",
       "a constraint's timestamp-ms is informational: it must not be used to determine "
       "whether the constraint applies to a snapshot, so a reader takes the status the "
       "snapshot lists for it whatever the two timestamps"},
  };
  return kTable;
}

const KnockOutInfo& KnockOutOf(KnockOut k) {
  for (const KnockOutInfo& info : KnockOuts())
    if (info.knock_out == k) return info;
  assert(false && "KnockOutOf(kNone)");
  return KnockOuts().front();
}

const std::vector<Refinement>& Refinements() {
  using R = RuleId;
  static const std::vector<Refinement> kTable = {
      {R::kIdNoReuse, R::kIdAboveLast,
       "a removed ID is never above last-constraint-id: reusing it breaks both, and "
       "id.no-reuse says why"},
      {R::kIdLastDefaultZero, R::kIdUpdateLast,
       "where last-constraint-id was absent, a wrong last ID comes from not reading it "
       "as 0"},
      {R::kIdLastDefaultZero, R::kIdAboveLast,
       "where last-constraint-id was absent, a new ID not above it comes from not "
       "reading it as 0"},
      {R::kExprUdfStatus, R::kStValidated, "the status rule of a check that calls a UDF"},
      {R::kExprUdfStatus, R::kStValid, "the status rule of a check that calls a UDF"},
      {R::kExprUdfStatus, R::kStInvalid, "the status rule of a check that calls a UDF"},
      {R::kExprUdfStatus, R::kStNoAddCarry, "the status rule of a check that calls a UDF"},
      {R::kUpgReadersIgnoreIdentifiers, R::kDefReaderPreserves,
       "a v4 reader given identifier fields: the upgrade's rule for readers"},
      {R::kIceFieldIdsUnique, R::kIceSchemaEvolution,
       "an added field that reuses an ID breaks schema evolution by that reuse"},
      {R::kIceUnknownOptional, R::kIceSchemaEvolution,
       "a required unknown column breaks schema evolution by its type's rule"},
      {R::kSemCheck, R::kEnfEnforced,
       "enf.enforced is the conjunction of what each constraint means and which rows are "
       "checked"},
      {R::kSemUnique, R::kEnfEnforced, "as sem.check"},
      {R::kSemPrimaryKey, R::kEnfEnforced, "as sem.check"},
      {R::kEnfKeysAgainstRemaining, R::kEnfEnforced, "as sem.check"},
      {R::kEnfModifiedRow, R::kEnfEnforced, "as sem.check"},
  };
  return kTable;
}

bool Refines(RuleId a, RuleId b) {
  if (a == b) return false;
  if (b == RuleId::kProtoAnswer) return true;
  for (const Refinement& r : Refinements())
    if (r.specific == a && r.general == b) return true;
  return false;
}

void OrderBySpecificity(Findings& findings) {
  Findings out;
  out.reserve(findings.size());
  std::vector<bool> taken(findings.size(), false);
  for (size_t round = 0; round < findings.size(); ++round) {
    // The first finding that no other remaining finding refines.
    size_t pick = findings.size();
    for (size_t i = 0; i < findings.size() && pick == findings.size(); ++i) {
      if (taken[i]) continue;
      bool refined = false;
      for (size_t j = 0; j < findings.size() && !refined; ++j)
        refined = !taken[j] && j != i && Refines(findings[j].rule, findings[i].rule);
      if (!refined) pick = i;
    }
    if (pick == findings.size())  // a cycle in the table: keep the order as it is
      for (size_t i = 0; i < findings.size() && pick == findings.size(); ++i)
        if (!taken[i]) pick = i;
    taken[pick] = true;
    out.push_back(std::move(findings[pick]));
  }
  findings = std::move(out);
}

SemanticClause SemanticClauseOf(ConstraintType type) {
  switch (type) {
    case ConstraintType::kCheck:
      return {RuleId::kSemCheck, "sem.check/whole",
              "every row must satisfy the check's predicate, and every row here does"};
    case ConstraintType::kUnique:
      break;
    case ConstraintType::kPrimaryKey:
      return {RuleId::kSemPrimaryKey, "sem.primary-key/distinct",
              "the key's values must be distinct across all rows, and they are"};
  }
  return {RuleId::kSemUnique, "sem.unique/distinct",
          "the key's values must be distinct across the rows in which every key field is "
          "non-null, and they are"};
}

}  // namespace ictk
