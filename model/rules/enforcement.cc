#include "model/rules/enforcement.h"

#include <fmt/format.h>

namespace ictk {
namespace {

/// The semantic rule a constraint's violation breaks (sem.check / sem.unique /
/// sem.primary-key).
RuleId SemanticRule(const Constraint& c) {
  if (c.type == ConstraintType::kCheck) return RuleId::kSemCheck;
  if (c.type == ConstraintType::kUnique) return RuleId::kSemUnique;
  return RuleId::kSemPrimaryKey;
}

/// On a retry, whether the knocked-out clause of enf.retry-new-constraints is the one
/// that makes `e` verified: a constraint the concurrent commit added (absent from the
/// transaction's base), or changed to enforced (there, not enforced).
bool RetrySkipsConstraint(const ConstraintEffect& e, const CommitContext& ctx) {
  const KnockOut k = ctx.switches.knock_out;
  if (!ctx.retry || ctx.base == nullptr ||
      (k != KnockOut::kEnfRetryNewAdded && k != KnockOut::kEnfRetryNewChangedToEnforced))
    return false;
  const Constraint* before = FindConstraintById(*ctx.base, e.id);
  if (k == KnockOut::kEnfRetryNewAdded) return before == nullptr;
  return before != nullptr && !before->enforced.value_or(false);
}

}  // namespace

bool KeyConflictsAfterCommit(int64_t rows_with_key_after) { return rows_with_key_after >= 2; }

RuleId RetryRule(const ConstraintEffect& e, const TableMetadata& base) {
  const Constraint* before = FindConstraintById(base, e.id);
  if (before == nullptr || !before->enforced.value_or(false))
    return RuleId::kEnfRetryNewConstraints;
  if (e.constraint->type == ConstraintType::kCheck) return RuleId::kEnfRetryCheck;
  return RuleId::kEnfRetryKeysNewParent;
}

Rulings RejectViolation(const ConstraintEffect& e, const CommitContext& ctx, bool must,
                        RuleId rule, const std::string& detail) {
  Rulings out;
  const auto add = [&](RuleId r) {
    Finding f = RuleFinding(r, detail, e.id);
    out.push_back(must ? MustFail(std::move(f)) : MayFail(std::move(f)));
  };
  const bool key = e.constraint->type != ConstraintType::kCheck;
  // For a key, the specific sentence (enf.keys-against-remaining) comes first and the
  // general one (enf.enforced) after; enf.modified-row stays first where it applies.
  if (key && rule == RuleId::kEnfEnforced) add(RuleId::kEnfKeysAgainstRemaining);
  add(rule);
  if (key && rule != RuleId::kEnfEnforced) add(RuleId::kEnfKeysAgainstRemaining);
  add(SemanticRule(*e.constraint));
  if (ctx.retry && ctx.base != nullptr) {
    add(RuleId::kEnfRetryEnforced);
    add(RetryRule(e, *ctx.base));
  }
  return out;
}

Rulings EnforcedRule(const ConstraintEffect& e, const CommitContext& ctx) {
  if (!e.enforced || RetrySkipsConstraint(e, ctx)) return {};
  if (e.broken_by_added) {
    return RejectViolation(
        e, ctx, /*must=*/true, RuleId::kEnfEnforced,
        fmt::format("added row {} breaks enforced constraint {}", e.example, e.name));
  }
  if (e.broken_by_modified) return {};
  Rulings out;
  out.push_back(MaySucceed(RuleFinding(
      RuleId::kEnfEnforced,
      fmt::format("the written rows conform to enforced constraint {}", e.name), e.id)));
  if (e.constraint->type != ConstraintType::kCheck)
    out.push_back(MaySucceed(
        RuleFinding(RuleId::kEnfKeysAgainstRemaining,
                    fmt::format("the added keys of {} are distinct among themselves "
                                "and from the remaining rows",
                                e.name),
                    e.id)));
  return out;
}

Rulings ModifiedRowRule(const ConstraintEffect& e, const CommitContext& ctx) {
  if (!e.enforced || !e.broken_by_modified || e.broken_by_added ||
      RetrySkipsConstraint(e, ctx))
    return {};
  const bool must = ctx.switches.modified_counts_as_added &&
                    ctx.switches.knock_out != KnockOut::kEnfModifiedRow;
  return RejectViolation(
      e, ctx, must, RuleId::kEnfModifiedRow,
      fmt::format("modified row {} breaks enforced constraint {}", e.example, e.name));
}

Rulings NotEnforcedRule(const ConstraintEffect& e, const CommitContext& ctx) {
  if (e.enforced || !(e.broken_by_added || e.broken_by_modified)) return {};
  Finding f = RuleFinding(
      RuleId::kEnfNotEnforced,
      fmt::format("row {} breaks constraint {}, which is not enforced", e.example, e.name),
      e.id);
  if (ctx.switches.unenforced_may_reject ||
      ctx.switches.knock_out == KnockOut::kEnfNotEnforced)
    return {MayFail(std::move(f))};
  return {MaySucceed(std::move(f))};
}

StatusContext RecomputedStatusContext(const ConstraintEffect& e,
                                      ConstraintStatus parent_status,
                                      const StatusInputs& in, const CommitContext& ctx) {
  StatusContext sc;
  sc.holds_on_new_snapshot = e.holds_after;
  sc.violated_on_new_snapshot = e.violated_after;
  sc.parent_status = parent_status;
  sc.commit_added_rows = in.added_rows;
  sc.commit_removed_rows = in.removed_rows;
  sc.calls_udf = e.calls_udf;
  // The reference writer verifies every row it adds, enforced or not.
  sc.writer_verified_added = true;
  sc.writer_found_violation =
      e.broken_by_added || (e.broken_by_modified && ctx.switches.modified_counts_as_added);
  sc.full_validation =
      in.fully_validated ? in.fully_validated->count(e.id) > 0 : in.no_remaining_old_rows;
  return sc;
}

}  // namespace ictk
