// MetadataDecodeMemo (codec/decode_memo.h): a sequence of answers decoded with the memo
// gives exactly what TableMetadataFromJson gives, reuses the elements that repeat,
// decodes the ones that changed, and still refuses what the decoder refuses.
#include "codec/decode_memo.h"

#include <gtest/gtest.h>

#include "codec/json_table_metadata.h"
#include "tests/codec/test_data_internal.h"

namespace ictk {
namespace {

using nlohmann::json;

json Metadata() { return testing_data::ReadJson("lint/v4-constraints-clean.json"); }

TEST(SameJson, TellsIntegersFromFloatsAndComparesMembers) {
  EXPECT_TRUE(SameJson(json::parse(R"({"a":[1,"x",{"b":null}]})"),
                       json::parse(R"({"a":[1,"x",{"b":null}]})")));
  // nlohmann's == calls 1 and 1.0 equal; the decoder does not (an ID must be an integer).
  EXPECT_EQ(json(1), json(1.0));
  EXPECT_FALSE(SameJson(json::parse(R"({"a":1})"), json::parse(R"({"a":1.0})")));
  EXPECT_FALSE(SameJson(json::parse(R"({"a":1})"), json::parse(R"({"b":1})")));
  EXPECT_FALSE(SameJson(json::parse(R"([1,2])"), json::parse(R"([1,2,3])")));
}

TEST(MetadataDecodeMemo, RepeatedAnswersDecodeAsWithoutTheMemo) {
  const json md = Metadata();
  ASSERT_FALSE(md["snapshots"].empty());
  const auto plain = TableMetadataFromJson(md);
  ASSERT_TRUE(plain.has_value()) << plain.error().message;
  MetadataDecodeMemo memo;
  const auto first = memo.DecodeMetadata(md);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, *plain);
  const int64_t decoded = memo.stats().decoded;
  EXPECT_EQ(memo.stats().reused, 0);
  EXPECT_GT(decoded, 0);
  const auto second = memo.DecodeMetadata(md);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(*second, *plain);
  EXPECT_EQ(memo.stats().decoded, decoded);  // nothing decoded again
  EXPECT_EQ(memo.stats().reused, decoded);
}

TEST(MetadataDecodeMemo, AChangedElementIsDecodedAgain) {
  json md = Metadata();
  MetadataDecodeMemo memo;
  ASSERT_TRUE(memo.DecodeMetadata(md).has_value());
  md["snapshots"][0]["timestamp-ms"] =
      md["snapshots"][0]["timestamp-ms"].get<int64_t>() - 1;
  const auto plain = TableMetadataFromJson(md);
  ASSERT_TRUE(plain.has_value());
  const int64_t decoded = memo.stats().decoded;
  const auto again = memo.DecodeMetadata(md);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *plain);
  EXPECT_EQ(memo.stats().decoded, decoded + 1);
}

TEST(MetadataDecodeMemo, AnElementThatMovedIsFoundByItsHash) {
  json md = Metadata();
  ASSERT_GE(md["snapshots"].size(), 2u);
  MetadataDecodeMemo memo;
  ASSERT_TRUE(memo.DecodeMetadata(md).has_value());
  std::swap(md["snapshots"][0], md["snapshots"][1]);
  const auto plain = TableMetadataFromJson(md);
  ASSERT_TRUE(plain.has_value());
  const int64_t decoded = memo.stats().decoded;
  const auto again = memo.DecodeMetadata(md);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *plain);
  EXPECT_EQ(memo.stats().decoded, decoded);  // both found, neither at its old place
}

TEST(MetadataDecodeMemo, RepeatedSnapshotsAreSharedNotCopied) {
  json md = Metadata();
  ASSERT_GE(md["snapshots"].size(), 2u);
  MetadataDecodeMemo memo;
  auto first = memo.DecodeMetadata(md);
  ASSERT_TRUE(first.has_value());
  md["snapshots"][0]["timestamp-ms"] =
      md["snapshots"][0]["timestamp-ms"].get<int64_t>() - 1;
  const auto second = memo.DecodeMetadata(md);
  ASSERT_TRUE(second.has_value());
  // The changed snapshot is a new object, the unchanged ones the last answer's.
  EXPECT_FALSE(
      SharedVector<Snapshot>::SameElement(first->snapshots, 0, second->snapshots, 0));
  for (size_t i = 1; i < second->snapshots.size(); ++i)
    EXPECT_TRUE(
        SharedVector<Snapshot>::SameElement(first->snapshots, i, second->snapshots, i))
        << i;
  // A decoded metadata changing its snapshot copies it: neither the memo nor the other
  // answer sees the change.
  const Snapshot before = second->snapshots[1];
  first->snapshots.mutable_at(1).timestamp_ms += 5;
  EXPECT_EQ(second->snapshots[1], before);
  const auto third = memo.DecodeMetadata(md);
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(*third, *TableMetadataFromJson(md));
  EXPECT_TRUE(
      SharedVector<Snapshot>::SameElement(second->snapshots, 1, third->snapshots, 1));
}

TEST(MetadataEncodeMemo, EncodesAsWithoutTheMemo) {
  const auto md = TableMetadataFromJson(Metadata());
  ASSERT_TRUE(md.has_value());
  ASSERT_FALSE(md->snapshots.empty());
  MetadataEncodeMemo memo;
  EXPECT_EQ(TableMetadataToJson(*md, &memo), TableMetadataToJson(*md));
  EXPECT_EQ(TableMetadataToJson(*md, &memo), TableMetadataToJson(*md));  // from the memo
  TableMetadata changed = *md;
  changed.snapshots.mutable_at(0).timestamp_ms -= 1;
  changed.snapshots.push_back(changed.snapshots.back());
  changed.snapshots.mutable_back().snapshot_id += 1000;
  changed.schemas.erase(changed.schemas.begin());
  EXPECT_EQ(TableMetadataToJson(changed, &memo), TableMetadataToJson(changed));
  EXPECT_EQ(TableMetadataToJson(*md, &memo), TableMetadataToJson(*md));
}

TEST(MetadataDecodeMemo, AFloatWhereTheDecoderWantsAnIntegerIsStillRefused) {
  json md = Metadata();
  MetadataDecodeMemo memo;
  ASSERT_TRUE(memo.DecodeMetadata(md).has_value());
  json broken = md;
  broken["snapshots"][0]["snapshot-id"] =
      static_cast<double>(md["snapshots"][0]["snapshot-id"].get<int64_t>());
  const auto plain = TableMetadataFromJson(broken);
  const auto memoised = memo.DecodeMetadata(broken);
  EXPECT_EQ(plain.has_value(), memoised.has_value());
  if (!plain) EXPECT_EQ(plain.error().message, memoised.error().message);
  // The memo still decodes the good answer after the refused one.
  const auto good = memo.DecodeMetadata(md);
  ASSERT_TRUE(good.has_value());
  EXPECT_EQ(*good, *TableMetadataFromJson(md));
}

TEST(MetadataDecodeMemo, ResponsesDecodeAsWithoutTheMemo) {
  const json response = {{"id", 7}, {"result", "ok"}, {"metadata", Metadata()}};
  MetadataDecodeMemo memo;
  for (int i = 0; i < 2; ++i) {
    const auto plain = ResponseFromJson(response);
    const auto memoised = memo.DecodeResponse(response);
    ASSERT_TRUE(plain.has_value());
    ASSERT_TRUE(memoised.has_value());
    EXPECT_EQ(plain->metadata, memoised->metadata);
    EXPECT_EQ(plain->metadata_json, response["metadata"]);
    // The memo's caller holds the answer: the JSON is not copied into the response.
    EXPECT_FALSE(memoised->metadata_json.has_value());
  }
  EXPECT_GT(memo.stats().reused, 0);
}

}  // namespace
}  // namespace ictk

namespace ictk {
namespace {

// A lineage (codec/metadata_delta.h) whose base is the memo's last metadata lets the memo
// take the kept elements without reading them; any other lineage is not trusted.
TEST(MetadataDecodeMemo, TrustsKeptElementsOnlyFromItsLastMetadata) {
  const json md = Metadata();
  const size_t n = md["snapshots"].size();
  ASSERT_GT(n, 0u);
  MetadataDecodeMemo memo;
  MetadataLineage first{0, 7, 0, 0, 0};
  ASSERT_TRUE(memo.DecodeMetadata(md, "", &first).has_value());
  // The next metadata differs in snapshot 0, yet a lineage from version 7 says the
  // snapshots were kept: the memo takes them as they were (the session vouches for it).
  json changed = md;
  changed["snapshots"][0]["timestamp-ms"] = 1;
  MetadataLineage kept{7, 8, n, 0, 0};
  const auto trusted = memo.DecodeMetadata(changed, "", &kept);
  ASSERT_TRUE(trusted.has_value());
  EXPECT_NE(trusted->snapshots[0].timestamp_ms, 1);
  // A lineage from another base is not trusted: the change is read.
  MetadataLineage other{5, 9, n, 0, 0};
  const auto read = memo.DecodeMetadata(changed, "", &other);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->snapshots[0].timestamp_ms, 1);
  // Nor one whose base was the memo's last before a decode without lineage.
  ASSERT_TRUE(memo.DecodeMetadata(md).has_value());
  MetadataLineage stale{9, 10, n, 0, 0};
  const auto again = memo.DecodeMetadata(changed, "", &stale);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->snapshots[0].timestamp_ms, 1);
}

}  // namespace
}  // namespace ictk
