/// \file
/// A spec verdict is a value (STYLE.md, "three channels"): a `Finding` names the rule that
/// decided, the constraint it concerns, where in the metadata it was found, and why.
#pragma once

#include <iosfwd>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/rules/clause.h"
#include "model/rules/rule_id.h"

namespace ictk {

struct Finding {
  RuleId rule;
  std::optional<ConstraintId> constraint_id;
  std::string pointer;  ///< JSON pointer into the judged metadata/request, "" when none
  std::string detail;   ///< what broke, in spec terms
  /// The clause of `rule` broken, by its name in the catalogue ("at-least-one"); "" when
  /// the rule has one clause or the finding does not say (model/rules/clause.h).
  std::string_view clause = {};
  /// What the constraint concerned evaluates to on the rows concerned, for a failure
  /// (ExplainRows, model/judge/explain_rows.h): "check (#2 < 1) on row r3 with b (#2) =
  /// null: null < 1 = false"; "" when the finding concerns no written rows.
  std::string evaluation = {};
  bool operator==(const Finding&) const = default;
};

using Findings = std::vector<Finding>;

/// Moves the findings of `more` to the end of `out`.
inline void AppendFindings(Findings& out, Findings more) {
  out.insert(out.end(), std::make_move_iterator(more.begin()),
             std::make_move_iterator(more.end()));
}

/// Appends a finding when `ok` is false; returns `ok`. The building block of rule functions.
inline bool Require(Findings& out, bool ok, RuleId rule, std::string detail,
                    std::optional<ConstraintId> constraint_id = std::nullopt,
                    std::string pointer = {}) {
  if (!ok) out.push_back(Finding{rule, constraint_id, std::move(pointer), std::move(detail)});
  return ok;
}

/// The same, naming the clause broken (model/rules/clause.h).
inline bool Require(Findings& out, bool ok, Clause clause, std::string detail,
                    std::optional<ConstraintId> constraint_id = std::nullopt,
                    std::string pointer = {}) {
  if (!ok)
    out.push_back(Finding{clause.rule, constraint_id, std::move(pointer), std::move(detail),
                          clause.name});
  return ok;
}

/// "rule-id (constraint N) at /pointer: detail", parts omitted when empty.
std::string ToString(const Finding& finding);
/// Prints ToString (for gtest and RapidCheck counterexamples).
std::ostream& operator<<(std::ostream& os, const Finding& finding);

}  // namespace ictk
