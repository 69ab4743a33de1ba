// Real table metadata of the Apache Iceberg projects (tests/data/iceberg-real, one test
// per file): every file the source tests accept decodes, passes CheckIcebergMetadata and
// round-trips by meaning; every one they reject is rejected by the decoder or by an ice.*
// rule (docs/codec-exceptions.md lists the deliberate differences).
#include "codec/json_table_metadata.h"

#include <gtest/gtest.h>

#include "codec/json_text.h"
#include "model/rules/iceberg_rules.h"
#include "tests/codec/codec_exceptions_internal.h"
#include "tests/codec/test_data_internal.h"

namespace ictk {
namespace {

using nlohmann::json;
using testing_data::ManifestEntry;

std::string Describe(const Findings& findings) {
  std::string out;
  for (const auto& f : findings)
    out += std::string(RuleIdName(f.rule)) + " at " + f.pointer + ": " + f.detail + "\n";
  return out;
}

/// Decodes, re-encodes and decodes again; the second decode equals the first.
void ExpectRoundTrip(const TableMetadata& md) {
  json encoded = TableMetadataToJson(md);
  auto again = TableMetadataFromJson(encoded);
  ASSERT_TRUE(again.has_value()) << again.error().message << "\n" << DumpJson(encoded, 2);
  EXPECT_EQ(*again, md) << DumpJson(encoded, 2);
  // Through text, too: what is written parses back to the same metadata.
  auto reparsed = ParseJsonText(DumpJson(encoded), "encoded");
  ASSERT_TRUE(reparsed.has_value());
  auto third = TableMetadataFromJson(*reparsed);
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(*third, md);
  // Encoding is deterministic.
  EXPECT_EQ(DumpJson(TableMetadataToJson(*again)), DumpJson(encoded));
}

class RealTableMetadata : public ::testing::TestWithParam<ManifestEntry> {};

TEST_P(RealTableMetadata, VerdictMatchesSourceTest) {
  const ManifestEntry& entry = GetParam();
  SCOPED_TRACE(entry.file + " (" + entry.what + ")");
  const std::string text =
      testing_data::ReadText(testing_data::DataPath("iceberg-real/" + entry.file));
  ASSERT_FALSE(text.empty());
  bool accepted = false;
  std::string why;
  auto parsed = ParseJsonText(text, entry.file);
  std::optional<TableMetadata> decoded;
  if (!parsed) {
    why = parsed.error().message;
  } else {
    json doc = *parsed;
    if (entry.kind == "rest-response-with-table-metadata") doc = doc["metadata"];
    auto md = TableMetadataFromJson(doc);
    if (!md) {
      why = md.error().message;
      // A decode error names where it happened.
      EXPECT_NE(why.find(": "), std::string::npos) << why;
    } else {
      Findings findings = CheckIcebergMetadata(*md);
      accepted = findings.empty();
      why = Describe(findings);
      decoded = std::move(*md);
    }
  }
  bool expected = entry.expect == "valid";
  if (const auto* exception = testing_data::FindCodecException(entry.file)) {
    SCOPED_TRACE(std::string("documented exception: ") + std::string(exception->why));
    expected = exception->ictk_accepts;
  }
  EXPECT_EQ(accepted, expected) << (accepted ? "accepted" : "rejected: " + why);
  // Every file that decodes round-trips, accepted or not.
  if (decoded) ExpectRoundTrip(*decoded);
}

std::vector<ManifestEntry> TableMetadataFiles() {
  std::vector<ManifestEntry> out;
  for (auto& e : testing_data::ManifestEntries("metadata/"))
    if (e.kind == "table-metadata" || e.kind == "rest-response-with-table-metadata")
      out.push_back(std::move(e));
  return out;
}

INSTANTIATE_TEST_SUITE_P(IcebergReal, RealTableMetadata,
                         ::testing::ValuesIn(TableMetadataFiles()), [](const auto& info) {
                           return testing_data::TestName(info.param.file);
                         });

TEST(RealTableMetadataCorpus, CoversTheManifest) {
  // 54 valid table-metadata / LoadTable files and 41 invalid ones; the exception list
  // stays short (at most 3 table-metadata files).
  size_t valid = 0, invalid = 0, exceptions = 0;
  for (const auto& e : TableMetadataFiles()) {
    (e.expect == "valid" ? valid : invalid)++;
    if (testing_data::FindCodecException(e.file)) ++exceptions;
  }
  EXPECT_EQ(valid, 54u);
  EXPECT_EQ(invalid, 41u);
  EXPECT_LE(exceptions, 3u);
}

// The Java-written reference tables of iceberg-verification.
TEST(ReferenceTables, DecodeCheckAndRoundTrip) {
  for (const char* path :
       {"iceberg-verification/reference-tables/v1/partitioned-parquet-data/metadata/"
        "v3.metadata.json",
        "iceberg-verification/reference-tables/v2/nested-types-parquet-data/metadata/"
        "v2.metadata.json",
        "iceberg-verification/reference-tables/v2/simple-append-parquet-data/metadata/"
        "v3.metadata.json"}) {
    SCOPED_TRACE(path);
    auto md = TableMetadataFromJson(testing_data::ReadJson(path));
    ASSERT_TRUE(md.has_value()) << md.error().message;
    EXPECT_EQ(Describe(CheckIcebergMetadata(*md)), "");
    EXPECT_NE(md->CurrentSchema(), nullptr);
    ExpectRoundTrip(*md);
  }
}

// ---- what the decoder keeps and derives ----

TEST(TableMetadataDecode, V1LegacySchemaAndSpecAreReadAndWrittenBack) {
  auto md = TableMetadataFromJson(testing_data::ReadJson(
      "iceberg-real/metadata/valid/apache-iceberg__TableMetadataV1Valid.json"));
  ASSERT_TRUE(md.has_value()) << md.error().message;
  EXPECT_EQ(md->format_version, 1);
  EXPECT_TRUE(md->has_legacy_schema);
  EXPECT_TRUE(md->has_legacy_partition_spec);
  ASSERT_EQ(md->schemas.size(), 1u);
  ASSERT_NE(md->CurrentSchema(), nullptr);
  ASSERT_EQ(md->partition_specs.size(), 1u);
  json out = TableMetadataToJson(*md);
  EXPECT_TRUE(out.contains("schema"));
  EXPECT_TRUE(out.contains("partition-spec"));
}

TEST(TableMetadataDecode, V1WithoutCurrentSchemaIdFallsBackToSchema) {
  auto md = TableMetadataFromJson(testing_data::ReadJson(
      "iceberg-real/metadata/valid/"
      "apache-iceberg-go__TableMetadataV1SchemasWithoutCurrentId.json"));
  ASSERT_TRUE(md.has_value()) << md.error().message;
  ASSERT_TRUE(md->current_schema_id.has_value());
  EXPECT_EQ(*md->current_schema_id, 0);
}

TEST(TableMetadataDecode, UnmodeledMembersAreKeptVerbatim) {
  auto md = TableMetadataFromJson(testing_data::ReadJson(
      "iceberg-real/metadata/valid/apache-iceberg__TableMetadataStatisticsFiles.json"));
  ASSERT_TRUE(md.has_value()) << md.error().message;
  ASSERT_EQ(md->extra.count("statistics"), 1u);
  json out = TableMetadataToJson(*md);
  EXPECT_EQ(
      out["statistics"],
      testing_data::ReadJson(
          "iceberg-real/metadata/valid/apache-iceberg__TableMetadataStatisticsFiles.json")
          ["statistics"]);
}

TEST(TableMetadataDecode, V4ConstraintsAndStatusesRoundTrip) {
  const char* text = R"json({
    "format-version": 4, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1",
    "last-sequence-number": 2, "last-updated-ms": 1700000000001, "last-column-id": 3,
    "current-schema-id": 0,
    "schemas": [{"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "id", "required": true, "type": "long"},
      {"id": 2, "name": "qty", "required": false, "type": "int"},
      {"id": 3, "name": "price", "required": false, "type": "decimal(9,2)"}]}],
    "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}],
    "last-partition-id": 999, "default-sort-order-id": 0,
    "sort-orders": [{"order-id": 0, "fields": []}], "next-row-id": 5,
    "last-constraint-id": 3,
    "constraints": [
      {"constraint-id": 1, "type": "primary-key", "name": "pk", "enforced": true,
       "timestamp-ms": 1700000000000, "field-ids": [1]},
      {"constraint-id": 3, "type": "check", "name": "qty_positive", "enforced": false,
       "timestamp-ms": 1700000000000,
       "expression": {"type": "or",
         "left": {"type": "gt", "left": {"type": "reference", "id": 2}, "right": 0},
         "right": {"type": "is-null", "child": {"type": "reference", "id": 2}}}}],
    "current-snapshot-id": 11,
    "refs": {"main": {"snapshot-id": 11, "type": "branch"}},
    "snapshots": [
      {"snapshot-id": 10, "sequence-number": 1, "timestamp-ms": 1700000000000,
       "summary": {"operation": "append"}, "schema-id": 0, "first-row-id": 0,
       "added-rows": 5, "constraint-statuses": {"validated": [1], "unvalidated": [3]}},
      {"snapshot-id": 11, "parent-snapshot-id": 10, "sequence-number": 2,
       "timestamp-ms": 1700000000001, "summary": {"operation": "replace"}, "schema-id": 0,
       "constraint-statuses": {"validated": [1], "invalid": [], "unvalidated": [3]}}]
  })json";
  auto j = ParseJsonText(text, "v4");
  ASSERT_TRUE(j.has_value()) << j.error().message;
  auto md = TableMetadataFromJson(*j);
  ASSERT_TRUE(md.has_value()) << md.error().message;
  EXPECT_EQ(Describe(CheckIcebergMetadata(*md)), "");
  EXPECT_EQ(md->last_constraint_id, 3);
  ASSERT_TRUE(md->constraints.has_value());
  ASSERT_EQ(md->constraints->size(), 2u);
  EXPECT_EQ((*md->constraints)[0].type, ConstraintType::kPrimaryKey);
  EXPECT_EQ((*md->constraints)[1].expression->op, ExprOp::kOr);
  ASSERT_TRUE(md->snapshots[1].constraint_statuses.has_value());
  const ConstraintStatuses& st = *md->snapshots[1].constraint_statuses;
  EXPECT_EQ(st.validated, std::vector<ConstraintId>{1});
  EXPECT_EQ(st.invalid, std::vector<ConstraintId>{});  // an empty list is kept
  EXPECT_FALSE(st.valid.has_value());                  // an omitted list stays omitted
  ExpectRoundTrip(*md);
  // The snapshot writes its statuses back under "constraint-statuses".
  json out = TableMetadataToJson(*md);
  EXPECT_EQ(out["snapshots"][1]["constraint-statuses"],
            (*j)["snapshots"][1]["constraint-statuses"]);
  EXPECT_EQ(out["constraints"], (*j)["constraints"]);
}

TEST(TableMetadataDecode, ConstraintWithMissingFieldsAndUnknownTypeIsKeptForTheModel) {
  // def.required-fields and def.types are the model's to judge: the decoder keeps the
  // gaps.
  auto j = ParseJsonText(R"({"type": "foreign-key", "name": "fk"})", "c");
  ASSERT_TRUE(j.has_value());
  auto md_json = testing_data::ReadJson(
      "iceberg-real/metadata/valid/apache-iceberg__TableMetadataV2ValidMinimal.json");
  md_json["format-version"] = 4;
  md_json["constraints"] = json::array({*j});
  auto md = TableMetadataFromJson(md_json);
  ASSERT_TRUE(md.has_value()) << md.error().message;
  const Constraint& c = md->constraints->at(0);
  EXPECT_FALSE(c.id.has_value());
  EXPECT_FALSE(c.type.has_value());
  EXPECT_EQ(c.raw_type, "foreign-key");
  EXPECT_FALSE(c.enforced.has_value());
  EXPECT_FALSE(c.timestamp_ms.has_value());
  ExpectRoundTrip(*md);
}

// ---- malformed input: clear errors naming the pointer, never a crash ----

json Minimal() {
  return testing_data::ReadJson(
      "iceberg-real/metadata/valid/apache-iceberg__TableMetadataV2ValidMinimal.json");
}

std::string DecodeError(const json& j) {
  auto md = TableMetadataFromJson(j);
  return md ? std::string() : md.error().message;
}

TEST(TableMetadataMalformed, WrongKindsNameTheirPointer) {
  json j = Minimal();
  j["schemas"][0]["fields"][2]["type"] = 5;
  EXPECT_EQ(DecodeError(j),
            "/schemas/0/fields/2/type: expected a type string or object, got integer 5");
  j = Minimal();
  j["last-column-id"] = "3";
  EXPECT_EQ(DecodeError(j), "/last-column-id: expected an integer, got string");
  j = Minimal();
  j["snapshots"] = json::object();
  EXPECT_EQ(DecodeError(j), "/snapshots: expected an array, got object");
  j = Minimal();
  j.erase("sort-orders");
  EXPECT_EQ(DecodeError(j), "(root): missing required member 'sort-orders' (format v2)");
  EXPECT_NE(DecodeError(json::array()), "");
  EXPECT_NE(DecodeError(json("metadata")), "");
}

TEST(TableMetadataMalformed, HugeNumbersForIntFields) {
  // 99999999999999999999 does not fit any integer: nlohmann reads it as a double.
  auto j = ParseJsonText(R"({"format-version": 99999999999999999999})", "huge");
  ASSERT_TRUE(j.has_value());
  std::string err = DecodeError(*j);
  EXPECT_NE(err.find("/format-version: expected an integer"), std::string::npos) << err;
  json m = Minimal();
  m["last-column-id"] = int64_t{1} << 40;
  err = DecodeError(m);
  EXPECT_NE(err.find("/last-column-id: integer 1099511627776 is out of the int range"),
            std::string::npos)
      << err;
  m = Minimal();
  m["last-updated-ms"] = uint64_t{18446744073709551615u};
  err = DecodeError(m);
  EXPECT_NE(err.find("out of the 64-bit range"), std::string::npos) << err;
  // 1e400 overflows a double: the text parser reports it with its position.
  auto overflow = ParseJsonText("{\"format-version\":\n  1e400}", "overflow.json");
  ASSERT_FALSE(overflow.has_value());
  EXPECT_NE(overflow.error().message.find("overflow.json:2:3"), std::string::npos)
      << overflow.error().message;
}

TEST(TableMetadataMalformed, TruncatedDocumentsNeverDecode) {
  const std::string text = DumpJson(Minimal(), 2);
  // Every proper prefix is rejected by the text parser with a position.
  for (size_t n = 0; n < text.size(); n += 7) {
    auto j = ParseJsonText(std::string_view(text).substr(0, n), "prefix");
    ASSERT_FALSE(j.has_value()) << n;
    EXPECT_EQ(j.error().message.rfind("prefix:", 0), 0u) << j.error().message;
  }
}

TEST(TableMetadataMalformed, DeepNestingIsRefused) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  auto j = ParseJsonText(deep, "deep.json");
  ASSERT_FALSE(j.has_value());
  EXPECT_NE(j.error().message.find("nested deeper than 512"), std::string::npos);
  EXPECT_EQ(j.error().message.rfind("deep.json:1:513:", 0), 0u) << j.error().message;
  // Within the limit, a deeply nested `properties` value is kept as text and round-trips.
  json m = Minimal();
  json v = 1;
  for (int i = 0; i < 400; ++i) v = json::array({v});
  m["x-deep"] = v;
  auto md = TableMetadataFromJson(m);
  ASSERT_TRUE(md.has_value());
  ExpectRoundTrip(*md);
}

}  // namespace
}  // namespace ictk
