/// \file
/// SharedVector (model/iceberg/shared_vector.h): copies share their elements and never
/// see each other's changes (`mutable_at` copies a shared element first, reordering and
/// removing move pointers only), `==` compares by value, and the iterators serve the
/// standard algorithms.
#include "model/iceberg/shared_vector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "model/iceberg/table_metadata.h"

namespace ictk {
namespace {

struct Item {
  int id = 0;
  std::string name;
  bool operator==(const Item&) const = default;
};

SharedVector<Item> Three() { return SharedVector<Item>{{1, "a"}, {2, "b"}, {3, "c"}}; }

std::vector<int> Ids(const SharedVector<Item>& v) {
  std::vector<int> ids;
  for (const Item& item : v) ids.push_back(item.id);
  return ids;
}

TEST(SharedVector, CopiesShareTheirElements) {
  const SharedVector<Item> a = Three();
  const SharedVector<Item> b = a;  // NOLINT(performance-unnecessary-copy-initialization)
  ASSERT_EQ(b.size(), 3u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(SharedVector<Item>::SameElement(a, i, b, i)) << i;
    EXPECT_EQ(&a[i], &b[i]) << i;
    EXPECT_EQ(a.shared(i).get(), b.shared(i).get()) << i;
  }
}

TEST(SharedVector, MutableAtCopiesASharedElementOnly) {
  SharedVector<Item> a = Three();
  const SharedVector<Item> b = a;
  const Item* before = &a[1];
  a.mutable_at(1).name = "changed";
  EXPECT_EQ(a[1].name, "changed");
  EXPECT_EQ(b[1].name, "b") << "the other copy keeps its element";
  EXPECT_NE(&a[1], before);
  EXPECT_EQ(&b[1], before);
  EXPECT_FALSE(SharedVector<Item>::SameElement(a, 1, b, 1));
  // The other elements are still shared.
  EXPECT_TRUE(SharedVector<Item>::SameElement(a, 0, b, 0));
  EXPECT_TRUE(SharedVector<Item>::SameElement(a, 2, b, 2));
  // An element no other vector holds any more is changed in place.
  const Item* own = &a[1];
  a.mutable_at(1).id = 20;
  EXPECT_EQ(&a[1], own);
  a.mutable_back().name = "last";
  EXPECT_EQ(a.back().name, "last");
  EXPECT_EQ(b.back().name, "c");
}

TEST(SharedVector, EqualityIsByValue) {
  const SharedVector<Item> a = Three();
  const SharedVector<Item> built = Three();  // equal elements, none shared
  EXPECT_FALSE(SharedVector<Item>::SameElement(a, 0, built, 0));
  EXPECT_EQ(a, built);
  SharedVector<Item> other = a;
  other.mutable_at(2).name = "z";
  EXPECT_NE(a, other);
  other.mutable_at(2).name = "c";  // equal again, though no longer the same object
  EXPECT_EQ(a, other);
  SharedVector<Item> shorter = a;
  shorter.pop_back();
  EXPECT_NE(a, shorter);
  EXPECT_EQ(SharedVector<Item>(std::vector<Item>{{1, "a"}, {2, "b"}, {3, "c"}}), a);
}

TEST(SharedVector, RemovingAndReorderingKeepTheOthersElements) {
  const SharedVector<Item> a = Three();
  SharedVector<Item> erased = a;
  erased.erase(erased.begin());
  EXPECT_EQ(Ids(erased), (std::vector<int>{2, 3}));
  EXPECT_EQ(Ids(a), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(&erased[0], &a[1]) << "erase moves pointers, it copies no element";

  SharedVector<Item> kept = a;
  kept.keep_if([](const Item& item) { return item.id != 2; });
  EXPECT_EQ(Ids(kept), (std::vector<int>{1, 3}));
  EXPECT_EQ(Ids(a), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(&kept[1], &a[2]);

  SharedVector<Item> sorted = a;
  sorted.push_back({2, "second two"});
  sorted.stable_sort([](const Item& x, const Item& y) { return x.id > y.id; });
  EXPECT_EQ(Ids(sorted), (std::vector<int>{3, 2, 2, 1}));
  EXPECT_EQ(sorted[1].name, "b") << "stable: equal ids keep their order";
  EXPECT_EQ(sorted[2].name, "second two");
  EXPECT_EQ(&sorted[0], &a[2]);
  EXPECT_EQ(Ids(a), (std::vector<int>{1, 2, 3}));

  SharedVector<Item> inserted = a;
  inserted.insert(inserted.begin() + 1, {9, "new"});
  EXPECT_EQ(Ids(inserted), (std::vector<int>{1, 9, 2, 3}));
  EXPECT_EQ(a.size(), 3u);
  inserted.clear();
  EXPECT_TRUE(inserted.empty());
  EXPECT_EQ(a.size(), 3u);
}

TEST(SharedVector, PushBackSharedHoldsTheGivenObject) {
  auto item = std::make_shared<const Item>(Item{7, "shared"});
  SharedVector<Item> a;
  a.push_back_shared(item);
  EXPECT_EQ(&a[0], item.get());
  a.mutable_at(0).name = "mine";  // `item` still holds it: copied first
  EXPECT_EQ(item->name, "shared");
  EXPECT_EQ(a[0].name, "mine");
}

TEST(SharedVector, IteratorsServeTheStandardAlgorithms) {
  const SharedVector<Item> a = Three();
  auto it =
      std::find_if(a.begin(), a.end(), [](const Item& item) { return item.id == 2; });
  ASSERT_NE(it, a.end());
  EXPECT_EQ(it->name, "b");
  EXPECT_EQ(it - a.begin(), 1);
  EXPECT_EQ(std::distance(a.begin(), a.end()), 3);
  EXPECT_EQ(a.end() - 1, std::next(a.begin(), 2));
  EXPECT_TRUE(a.begin() < a.end());
  EXPECT_EQ(
      std::count_if(a.begin(), a.end(), [](const Item& item) { return item.id > 1; }), 2);
  std::vector<std::string> names;
  std::transform(a.begin(), a.end(), std::back_inserter(names),
                 [](const Item& item) { return item.name; });
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(a.ToVector(), (std::vector<Item>{{1, "a"}, {2, "b"}, {3, "c"}}));
  auto rit = std::make_reverse_iterator(a.end());
  EXPECT_EQ(rit->id, 3);
}

TEST(SharedVector, CopiedMetadataSharesItsSnapshots) {
  TableMetadata md;
  for (SnapshotId id = 1; id <= 3; ++id) {
    Snapshot s;
    s.snapshot_id = id;
    s.summary["operation"] = "append";
    md.snapshots.push_back(std::move(s));
  }
  TableMetadata next = md;
  next.snapshots.mutable_back().summary["operation"] = "overwrite";
  EXPECT_EQ(md.snapshots.back().operation(), "append");
  EXPECT_EQ(next.snapshots.back().operation(), "overwrite");
  EXPECT_EQ(&next.snapshots[0], &md.snapshots[0]);
  EXPECT_NE(md, next);
  next.snapshots.mutable_back().summary["operation"] = "append";
  EXPECT_EQ(md, next);
}

}  // namespace
}  // namespace ictk
