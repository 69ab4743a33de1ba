#include "model/rules/id_rules.h"

#include <fmt/format.h>

#include <algorithm>

namespace ictk {

ConstraintId LastConstraintIdOrZero(const std::optional<ConstraintId>& last_constraint_id) {
  return last_constraint_id.value_or(0);
}

bool IdAboveLast(ConstraintId id, ConstraintId last) { return id > last; }

ConstraintId LowestIdAboveLast(ConstraintId last) { return last + 1; }

bool LastConstraintIdUpdated(ConstraintId last, ConstraintId last_before,
                             ConstraintId highest_assigned) {
  return last == std::max(last_before, highest_assigned);
}

bool IdNotReused(ConstraintId id, const std::set<ConstraintId>& removed_ids) {
  return removed_ids.count(id) == 0;
}

Rulings ReadersTolerateMissing(const TableMetadata& metadata) {
  std::set<ConstraintId> present;
  for (const Constraint& c : ConstraintsOf(metadata))
    if (c.id) present.insert(*c.id);
  for (const Snapshot& s : metadata.snapshots) {
    if (!s.constraint_statuses) continue;
    for (ConstraintStatus st : kAllStatuses) {
      const auto& list = s.constraint_statuses->List(st);
      if (!list) continue;
      for (ConstraintId id : *list) {
        if (present.count(id)) continue;
        return {MaySucceed(RuleFinding(RuleId::kIdReadersTolerateMissing,
                                       fmt::format("snapshot {} lists ID {}, which is not "
                                                   "in constraints",
                                                   s.snapshot_id, id),
                                       id))};
      }
    }
  }
  return {};
}

}  // namespace ictk
