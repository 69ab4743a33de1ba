/// \file
/// Table metadata compared by meaning (metadata_compare.h).
#include "model/iceberg/metadata_compare.h"

#include <algorithm>

namespace ictk {

TableMetadata NormalizedMetadata(TableMetadata md) {
  if (md.constraints) {
    for (Constraint& c : *md.constraints)
      if (c.field_ids) std::sort(c.field_ids->begin(), c.field_ids->end());
    std::stable_sort(md.constraints->begin(), md.constraints->end(),
                     [](const Constraint& a, const Constraint& b) {
                       return a.id.value_or(0) < b.id.value_or(0);
                     });
  }
  for (Snapshot& s : md.snapshots) {
    if (!s.constraint_statuses) continue;
    for (ConstraintStatus st : kAllStatuses) {
      auto& list = s.constraint_statuses->List(st);
      if (!list) continue;
      std::sort(list->begin(), list->end());
      if (list->empty()) list.reset();
    }
  }
  std::stable_sort(md.snapshots.begin(), md.snapshots.end(),
                   [](const Snapshot& a, const Snapshot& b) {
                     return a.snapshot_id < b.snapshot_id;
                   });
  return md;
}

bool SameMetadataByMeaning(const TableMetadata& a, const TableMetadata& b) {
  return NormalizedMetadata(a) == NormalizedMetadata(b);
}

}  // namespace ictk
