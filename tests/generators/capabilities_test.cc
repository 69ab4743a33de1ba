// Capabilities from a `hello` answer: capability names, format versions and the optional
// `profile` member (docs/protocol.md section 9).
#include "generators/capabilities.h"

#include <gtest/gtest.h>

#include "codec/protocol.h"

namespace ictk {
namespace {

TEST(Capabilities, ProfileAbsentIsWriter) {
  const Capabilities c = Capabilities::FromHello({"check"}, {1, 2, 3, 4});
  EXPECT_TRUE(c.writer);
  EXPECT_TRUE(c.check);
  EXPECT_FALSE(c.unique);
  EXPECT_EQ(c.ProfileName(), "v1\u2013v4 writer");
}

TEST(Capabilities, ReaderProfile) {
  const Capabilities c =
      Capabilities::FromHello({"reader", "parse-metadata"}, {1, 2, 3}, kReaderProfile);
  EXPECT_FALSE(c.writer);
  EXPECT_TRUE(c.reader);
  EXPECT_TRUE(c.parse_metadata);
  EXPECT_EQ(c.format_versions, (std::set<int32_t>{1, 2, 3}));
  EXPECT_EQ(c.ProfileName(), "v1\u2013v3 reader");
  EXPECT_EQ(Capabilities::FromHello({}, {4}, kReaderProfile).ProfileName(), "v4 reader");
}

TEST(Capabilities, HelloProfileRoundTrips) {
  Response r;
  r.id = 1;
  r.hello = HelloInfo{};
  r.hello->name = "x";
  r.hello->version = "1";
  r.hello->language = "c++";
  r.hello->format_versions = {1, 2, 3};
  r.hello->capabilities = {"parse-metadata"};
  // The default profile is not written, so a writer's hello has the bytes it always had.
  EXPECT_FALSE(ResponseToJson(r).contains("profile"));
  auto back = ResponseFromJson(ResponseToJson(r));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->hello->profile, kWriterProfile);

  r.hello->profile = std::string(kReaderProfile);
  const nlohmann::json j = ResponseToJson(r);
  EXPECT_EQ(j.at("profile"), "reader");
  back = ResponseFromJson(j);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->hello->profile, kReaderProfile);

  nlohmann::json bad = j;
  bad["profile"] = "auditor";
  const auto refused = ResponseFromJson(bad);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("/profile"), std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace ictk
