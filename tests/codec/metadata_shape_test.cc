// MetadataShapeFinding (codec/protocol.h): a well-formed answer whose metadata object is
// not valid Iceberg table metadata is an ice.metadata-shape finding with the member's
// pointer; a response that is not the protocol's shape is not.
#include <gtest/gtest.h>

#include "codec/protocol.h"

namespace ictk {
namespace {

using json = nlohmann::json;

json V1Metadata() {
  return json::parse(R"({
    "format-version": 1, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
    "location": "s3://b/t", "last-updated-ms": 1, "last-column-id": 1,
    "schema": {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "x", "required": true, "type": "long"}]},
    "partition-spec": [], "properties": {}, "snapshots": []})");
}

TEST(MetadataShape, PartitionSpecStoredAsAnObject) {
  json response = {{"id", 3}, {"result", "ok"}, {"metadata", V1Metadata()}};
  ASSERT_TRUE(ResponseFromJson(response));
  EXPECT_FALSE(MetadataShapeFinding(response)) << "a decodable answer has no finding";
  // iceberg-cpp's form: the spec says "stored as only fields" (an array).
  response["metadata"]["partition-spec"] = {{"spec-id", 0}, {"fields", json::array()}};
  ASSERT_FALSE(ResponseFromJson(response));
  std::optional<Finding> f = MetadataShapeFinding(response);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->rule, RuleId::kIceMetadataShape);
  EXPECT_EQ(f->pointer, "/metadata/partition-spec") << f->detail;
}

TEST(MetadataShape, TheProtocolsOwnShapeIsNotAnIcebergRule) {
  json response = {{"id", 3}, {"result", "ok"}, {"metadata", "not an object"}};
  EXPECT_FALSE(MetadataShapeFinding(response));
  json no_result = {{"id", 3}, {"metadata", V1Metadata()}};
  no_result["metadata"]["partition-spec"] = json::object();
  EXPECT_FALSE(MetadataShapeFinding(no_result));
  EXPECT_FALSE(MetadataShapeFinding(json::array()));
  json missing = {{"id", 3}, {"result", "ok"}, {"metadata", V1Metadata()}};
  missing["metadata"].erase("last-column-id");  // a required member the decoder needs
  std::optional<Finding> f = MetadataShapeFinding(missing);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->rule, RuleId::kIceMetadataShape);
}

}  // namespace
}  // namespace ictk
