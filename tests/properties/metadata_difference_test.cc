// "A rejected request changes nothing" compares the metadata before the request with what
// load-table answers after it by meaning: lists whose order means nothing may come back in
// another order, and an empty status list may be written or left out; a real change is
// still reported.
#include <gtest/gtest.h>

#include "properties/runner.h"

namespace ictk {
namespace {

Constraint Key(ConstraintId id, std::string name, std::vector<FieldId> fields) {
  Constraint c;
  c.id = id;
  c.type = ConstraintType::kUnique;
  c.raw_type = "unique";
  c.name = std::move(name);
  c.enforced = true;
  c.timestamp_ms = 1000 + id;
  c.field_ids = std::move(fields);
  return c;
}

Snapshot Snap(SnapshotId id, std::optional<SnapshotId> parent, ConstraintStatuses st) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = parent;
  s.timestamp_ms = 2000 + id;
  s.constraint_statuses = std::move(st);
  return s;
}

TableMetadata Before() {
  TableMetadata md;
  md.format_version = 4;
  md.last_constraint_id = 9;
  md.constraints = std::vector<Constraint>{Key(3, "a", {1, 2}), Key(9, "b", {3})};
  ConstraintStatuses first;
  first.validated = std::vector<ConstraintId>{3, 9};
  ConstraintStatuses second;
  second.validated = std::vector<ConstraintId>{9};
  second.invalid = std::vector<ConstraintId>{3};
  md.snapshots = {Snap(77, std::nullopt, first), Snap(5, 77, second)};
  md.current_snapshot_id = 5;
  return md;
}

TEST(MetadataDifference, OrdersAndEmptyStatusListsAreFree) {
  TableMetadata after = Before();
  std::swap((*after.constraints)[0], (*after.constraints)[1]);
  (*after.constraints)[1].field_ids = std::vector<FieldId>{2, 1};
  // The two snapshots swapped (77, 5 -> 5, 77).
  after.snapshots.stable_sort(
      [](const Snapshot& a, const Snapshot& b) { return a.snapshot_id < b.snapshot_id; });
  after.snapshots.mutable_at(1).constraint_statuses->validated =
      std::vector<ConstraintId>{9, 3};
  after.snapshots.mutable_at(1).constraint_statuses->unvalidated =
      std::vector<ConstraintId>{};
  EXPECT_EQ(MetadataDifference(Before(), after), "");
}

TEST(MetadataDifference, RealChangesAreStillReported) {
  TableMetadata other = Before();
  (*other.constraints)[0].field_ids = std::vector<FieldId>{1};
  EXPECT_EQ(MetadataDifference(Before(), other), "constraints");
  TableMetadata moved = Before();
  moved.snapshots.mutable_at(1).constraint_statuses->invalid.reset();
  moved.snapshots.mutable_at(1).constraint_statuses->validated =
      std::vector<ConstraintId>{9, 3};
  EXPECT_EQ(MetadataDifference(Before(), moved), "snapshots");
  TableMetadata gone = Before();
  gone.constraints->pop_back();
  EXPECT_EQ(MetadataDifference(Before(), gone), "constraints");
}

}  // namespace
}  // namespace ictk
