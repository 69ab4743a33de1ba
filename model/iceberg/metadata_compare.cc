/// \file
/// Table metadata compared by meaning (metadata_compare.h).
#include "model/iceberg/metadata_compare.h"

#include <algorithm>

namespace ictk {

namespace {

/// Whether `s`'s status lists are already as NormalizedMetadata leaves them: each sorted,
/// none empty.
bool StatusesNormalized(const Snapshot& s) {
  if (!s.constraint_statuses) return true;
  for (ConstraintStatus st : kAllStatuses) {
    const auto& list = s.constraint_statuses->List(st);
    if (list && (list->empty() || !std::is_sorted(list->begin(), list->end())))
      return false;
  }
  return true;
}

}  // namespace

TableMetadata NormalizedMetadata(TableMetadata md) {
  if (md.constraints) {
    for (Constraint& c : *md.constraints)
      if (c.field_ids) std::sort(c.field_ids->begin(), c.field_ids->end());
    std::stable_sort(md.constraints->begin(), md.constraints->end(),
                     [](const Constraint& a, const Constraint& b) {
                       return a.id.value_or(0) < b.id.value_or(0);
                     });
  }
  // The snapshots are shared with the metadata given: only one whose status lists are not
  // already in canonical form is copied to be changed (almost none are: the model writes
  // them sorted, and so does an implementation's codec, as a rule).
  for (size_t i = 0; i < md.snapshots.size(); ++i) {
    if (StatusesNormalized(md.snapshots[i])) continue;
    Snapshot& s = md.snapshots.mutable_at(i);
    for (ConstraintStatus st : kAllStatuses) {
      auto& list = s.constraint_statuses->List(st);
      if (!list) continue;
      std::sort(list->begin(), list->end());
      if (list->empty()) list.reset();
    }
  }
  md.snapshots.stable_sort(
      [](const Snapshot& a, const Snapshot& b) { return a.snapshot_id < b.snapshot_id; });
  return md;
}

bool SameMetadataByMeaning(const TableMetadata& a, const TableMetadata& b) {
  return NormalizedMetadata(a) == NormalizedMetadata(b);
}

}  // namespace ictk
