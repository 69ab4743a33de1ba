#include "model/id_rules.h"

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

}  // namespace ictk
