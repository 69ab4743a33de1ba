/// \file
/// What a rule says about one request: that it must fail, may fail, or may succeed, and
/// why (a Finding naming the rule). Rules that decide an answer (enforcement, schema
/// evolution, readers) return rulings over plain facts; the judge (model/judge/) gives a
/// failure the protocol's error kind and folds the rulings into the allowed outcome.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/rules/finding.h"

namespace ictk {

enum class Obligation {
  kMustFail,         ///< the request must be rejected
  kMayFail,          ///< a rejection is allowed, success too
  kMaySucceed,       ///< the rule makes success the answer (recorded as a reason)
  kMaySucceedFirst,  ///< the same, more specific than the generic reasons before it
};

struct Ruling {
  Obligation obligation;
  Finding why;
  bool operator==(const Ruling&) const = default;
};

using Rulings = std::vector<Ruling>;

/// A finding without a JSON pointer: rule, detail and the constraint it concerns.
inline Finding RuleFinding(RuleId rule, std::string detail,
                           std::optional<ConstraintId> id = std::nullopt) {
  return Finding{rule, id, {}, std::move(detail)};
}

/// The same, naming the clause (model/rules/clause.h).
inline Finding RuleFinding(Clause clause, std::string detail,
                           std::optional<ConstraintId> id = std::nullopt) {
  return Finding{clause.rule, id, {}, std::move(detail), clause.name};
}

inline Ruling MustFail(Finding why) { return Ruling{Obligation::kMustFail, std::move(why)}; }
inline Ruling MayFail(Finding why) { return Ruling{Obligation::kMayFail, std::move(why)}; }
inline Ruling MaySucceed(Finding why) {
  return Ruling{Obligation::kMaySucceed, std::move(why)};
}
inline Ruling MaySucceedFirst(Finding why) {
  return Ruling{Obligation::kMaySucceedFirst, std::move(why)};
}

}  // namespace ictk
