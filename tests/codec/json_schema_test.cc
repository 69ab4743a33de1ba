// Types, fields and schemas as JSON: the real schema files of the Iceberg projects
// (tests/data/iceberg-real/schemas, one test per file) and the iceberg-verification
// schema and type cases (`valid`, `decoded`, `canonical`).
#include "codec/json_schema.h"

#include <gtest/gtest.h>

#include "codec/json_text.h"
#include "codec/json_type.h"
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

// ---- iceberg-real schemas/ ----

class RealSchema : public ::testing::TestWithParam<ManifestEntry> {};

TEST_P(RealSchema, VerdictMatchesSourceTest) {
  const ManifestEntry& entry = GetParam();
  SCOPED_TRACE(entry.file + " (" + entry.what + ")");
  auto parsed = ParseJsonText(
      testing_data::ReadText(testing_data::DataPath("iceberg-real/" + entry.file)),
      entry.file);
  bool accepted = false;
  std::string why;
  if (!parsed) {
    why = parsed.error().message;
  } else if (entry.kind == "schema") {
    auto schema = SchemaFromJson(*parsed, "");
    if (!schema) {
      why = schema.error().message;
    } else {
      // A schema alone carries no format version: types by version are not judged.
      Findings findings = CheckIcebergSchema(*schema, std::nullopt);
      accepted = findings.empty();
      why = Describe(findings);
      auto again = SchemaFromJson(SchemaToJson(*schema), "");
      ASSERT_TRUE(again.has_value()) << again.error().message;
      EXPECT_EQ(*again, *schema) << DumpJson(SchemaToJson(*schema));
    }
  } else if (entry.kind == "field") {
    auto field = FieldFromJson(*parsed, "");
    if (!field) {
      why = field.error().message;
    } else {
      Schema one;
      one.fields.push_back(*field);
      Findings findings = CheckIcebergSchema(one, std::nullopt);
      accepted = findings.empty();
      why = Describe(findings);
      auto again = FieldFromJson(FieldToJson(*field), "");
      ASSERT_TRUE(again.has_value()) << again.error().message;
      EXPECT_EQ(*again, *field);
    }
  } else {  // "type"
    auto type = TypeFromJson(*parsed, "");
    if (!type) {
      why = type.error().message;
    } else {
      accepted = true;
      if (type->id == TypeId::kStruct) {
        Schema s;
        s.fields = type->fields;
        Findings findings = CheckIcebergSchema(s, std::nullopt);
        accepted = findings.empty();
        why = Describe(findings);
      }
      auto again = TypeFromJson(TypeToJson(*type), "");
      ASSERT_TRUE(again.has_value()) << again.error().message;
      EXPECT_EQ(*again, *type) << DumpJson(TypeToJson(*type));
    }
  }
  bool expected = entry.expect == "valid";
  if (const auto* exception = testing_data::FindCodecException(entry.file))
    expected = exception->ictk_accepts;
  EXPECT_EQ(accepted, expected) << (accepted ? "accepted" : "rejected: " + why);
  if (!accepted && parsed) {
    // Decode errors name a pointer and the problem.
    EXPECT_NE(why.find(": "), std::string::npos) << why;
  }
}

std::vector<ManifestEntry> SchemaFiles() {
  return testing_data::ManifestEntries("schemas/");
}

INSTANTIATE_TEST_SUITE_P(IcebergReal, RealSchema, ::testing::ValuesIn(SchemaFiles()),
                         [](const auto& info) {
                           return testing_data::TestName(info.param.file);
                         });

TEST(RealSchemaCorpus, CoversTheManifest) { EXPECT_EQ(SchemaFiles().size(), 118u); }

// ---- iceberg-verification table-spec/types ----

/// The language-neutral shape of the types README.
json ProjectType(const Type& t) {
  switch (t.id) {
    case TypeId::kDecimal:
      return json{{"type", "decimal"}, {"precision", t.precision}, {"scale", t.scale}};
    case TypeId::kFixed:
      return json{{"type", "fixed"}, {"length", t.length}};
    case TypeId::kGeometry:
      return json{{"type", "geometry"}, {"crs", t.crs.empty() ? "OGC:CRS84" : t.crs}};
    case TypeId::kGeography:
      return json{{"type", "geography"},
                  {"crs", t.crs.empty() ? "OGC:CRS84" : t.crs},
                  {"algorithm", t.algorithm.empty() ? "spherical" : t.algorithm}};
    default:
      return json{{"type", TypeToString(t)}};
  }
}

struct VerificationCase {
  std::string surface;  ///< e.g. "types/primitive"
  json body;
};

void PrintTo(const VerificationCase& c, std::ostream* os) {
  *os << c.surface << "/" << c.body.value("id", "");
}

std::vector<VerificationCase> Cases(const std::vector<std::string>& surfaces) {
  std::vector<VerificationCase> out;
  for (const auto& s : surfaces) {
    json file =
        testing_data::ReadJson("iceberg-verification/table-spec/" + s + "/cases.json");
    for (const auto& c : file["cases"]) out.push_back({s, c});
  }
  return out;
}

std::string CaseName(const VerificationCase& c) {
  std::string out;
  for (char ch : c.surface + "_" + c.body.value("id", "")) {
    const bool ok =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    out.push_back(ok ? ch : '_');
  }
  return out;
}

class VerificationTypes : public ::testing::TestWithParam<VerificationCase> {};

TEST_P(VerificationTypes, ParseDecodedCanonical) {
  const json& c = GetParam().body;
  SCOPED_TRACE(c.value("clause", ""));
  auto type = TypeFromJson(c["input"], "/input");
  ASSERT_EQ(type.has_value(), c["valid"].get<bool>())
      << (type ? DumpJson(TypeToJson(*type)) : type.error().message);
  if (!type) return;
  EXPECT_EQ(ProjectType(*type), c["decoded"]);
  if (c.contains("canonical")) EXPECT_EQ(TypeToJson(*type), c["canonical"]);
}

INSTANTIATE_TEST_SUITE_P(IcebergVerification, VerificationTypes,
                         ::testing::ValuesIn(Cases({"types/primitive", "types/geospatial",
                                                    "types/variant"})),
                         [](const auto& info) { return CaseName(info.param); });

// ---- iceberg-verification table-spec/schema ----

/// One row per field ID in document order, as the schema README defines.
void ProjectFields(const std::vector<NestedField>& fields, const json& parent,
                   const json& expected_rows, json& rows);

json RowType(const Type& t, const json& expected_type) {
  if (t.id == TypeId::kStruct) return "struct";
  if (t.id == TypeId::kList) return "list";
  if (t.id == TypeId::kMap) return "map";
  // The cases write a parameterized primitive either as a string or as an object.
  if (expected_type.is_object()) return ProjectType(t);
  return TypeToString(t);
}

json ExpectedTypeFor(const json& expected_rows, FieldId id) {
  for (const auto& r : expected_rows)
    if (r["id"] == id) return r["type"];
  return json();
}

void ProjectType(const Type& t, FieldId self, const json& expected_rows, json& rows) {
  auto row = [&](FieldId id, const char* name, bool required, const Type& type) {
    rows.push_back(json{{"id", id},
                        {"name", name},
                        {"parent", self},
                        {"required", required},
                        {"type", RowType(type, ExpectedTypeFor(expected_rows, id))},
                        {"doc", nullptr}});
    ProjectType(type, id, expected_rows, rows);
  };
  if (t.id == TypeId::kStruct) ProjectFields(t.fields, self, expected_rows, rows);
  if (t.id == TypeId::kList)
    row(t.element_id, "element", t.element_required, t.element());
  if (t.id == TypeId::kMap) {
    row(t.key_id, "key", true, t.key());
    row(t.value_id, "value", t.value_required, t.value());
  }
}

void ProjectFields(const std::vector<NestedField>& fields, const json& parent,
                   const json& expected_rows, json& rows) {
  for (const auto& f : fields) {
    rows.push_back(json{{"id", f.id},
                        {"name", f.name},
                        {"parent", parent},
                        {"required", f.required},
                        {"type", RowType(f.type, ExpectedTypeFor(expected_rows, f.id))},
                        {"doc", f.doc ? json(*f.doc) : json(nullptr)}});
    ProjectType(f.type, f.id, expected_rows, rows);
  }
}

class VerificationSchema : public ::testing::TestWithParam<VerificationCase> {};

TEST_P(VerificationSchema, ParseAndProject) {
  const json& c = GetParam().body;
  auto schema = SchemaFromJson(c["input"], "/input");
  std::string why = schema ? "" : schema.error().message;
  bool accepted = schema.has_value();
  if (schema) {
    // The schema is read as from table metadata of no particular version: identifier
    // fields are judged (ice.identifier-fields), types by version are not.
    Findings findings = CheckIcebergSchema(*schema, std::nullopt);
    accepted = findings.empty();
    why = Describe(findings);
  }
  ASSERT_EQ(accepted, c["valid"].get<bool>()) << why;
  if (!accepted) return;
  const json& decoded = c["decoded"];
  EXPECT_EQ(json(schema->schema_id.value_or(0)), decoded["schema-id"]);
  std::vector<FieldId> ids =
      schema->identifier_field_ids.value_or(std::vector<FieldId>{});
  std::vector<FieldId> want = decoded["identifier-field-ids"].get<std::vector<FieldId>>();
  std::sort(ids.begin(), ids.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(ids, want);  // compared as a set
  json rows = json::array();
  ProjectFields(schema->fields, nullptr, decoded["fields"], rows);
  EXPECT_EQ(rows, decoded["fields"]);
  auto again = SchemaFromJson(SchemaToJson(*schema), "");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *schema);
}

INSTANTIATE_TEST_SUITE_P(
    IcebergVerification, VerificationSchema,
    ::testing::ValuesIn(Cases({"schema/core", "schema/unknown", "schema/variant",
                               "schema/geometry", "schema/geography", "schema/geospatial",
                               "schema/timestamp-ns"})),
    [](const auto& info) { return CaseName(info.param); });

// ---- specific behaviour ----

TEST(TypeStrings, SpellingsAndErrors) {
  EXPECT_EQ(TypeToString(*TypeFromString("DECIMAL( 9 , 2 )")), "decimal(9, 2)");
  EXPECT_EQ(*TypeFromString("geometry"), *TypeFromString("geometry(OGC:CRS84)"));
  EXPECT_EQ(*TypeFromString("geography(OGC:CRS84, Spherical)"),
            *TypeFromString("geography"));
  EXPECT_EQ(TypeFromString("geometry('EPSG:4326')")->crs, "EPSG:4326");
  EXPECT_EQ(TypeFromString("GEOMETRY( srid: 3857 )")->crs, "srid: 3857");
  for (const char* bad :
       {"fixed[99999999999999999999]", "fixed[0]", "decimal(39,0)", "decimal(5,6)",
        "decimal(10,-1)", "geometry(srid:4269 karney)", "geography(srid:4269, invalid)",
        "geometry()", "struct", "list<int>"}) {
    EXPECT_FALSE(TypeFromString(bad).has_value()) << bad;
  }
  auto err = TypeFromJson(json("decimal(9)"), "/schemas/0/fields/3/type");
  ASSERT_FALSE(err.has_value());
  EXPECT_EQ(
      err.error().message.rfind("/schemas/0/fields/3/type: cannot parse type string", 0),
      0u)
      << err.error().message;
}

TEST(FieldDefaults, AreCheckedAgainstTheTypeAndKeptAsText) {
  auto f = FieldFromJson(json::parse(R"json({"id": 1, "name": "d", "required": false,
      "type": "decimal(9, 2)", "initial-default": "14.20", "write-default": "1.5"})json"),
                         "/f");
  ASSERT_TRUE(f.has_value()) << f.error().message;
  EXPECT_EQ(f->initial_default_json, "\"14.20\"");
  EXPECT_EQ(f->write_default_json, "\"1.5\"");
  auto bad = FieldFromJson(json::parse(R"({"id": 1, "name": "d", "required": false,
      "type": "int", "initial-default": 3000000000})"),
                           "/schemas/0/fields/0");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(
      bad.error().message,
      "/schemas/0/fields/0/initial-default: integer 3000000000 is out of the int range");
  // Appendix D: a timestamptz default carries "+00:00".
  EXPECT_FALSE(FieldFromJson(json::parse(R"({"id": 1, "name": "t", "required": false,
      "type": "timestamptz", "initial-default": "2024-06-27T05:00:00Z"})"),
                             "")
                   .has_value());
}

TEST(SchemaRules, FieldIdsUniqueAcrossElementsKeysAndValues) {
  SCOPED_TRACE("ice.field-ids-unique");
  auto s = SchemaFromJson(json::parse(R"({"type": "struct", "fields": [
      {"id": 1, "name": "a", "required": true, "type": "long"},
      {"id": 2, "name": "m", "required": false, "type": {"type": "map", "key-id": 3,
       "key": "string", "value-id": 1, "value-required": false, "value": "int"}}]})"),
                          "");
  ASSERT_TRUE(s.has_value());
  Findings f = CheckIcebergSchema(*s, 3, "/schemas/0");
  ASSERT_EQ(f.size(), 1u) << Describe(f);
  EXPECT_EQ(f[0].rule, RuleId::kIceFieldIdsUnique);
  EXPECT_EQ(f[0].pointer, "/schemas/0/fields/1/type/value-id");
}

}  // namespace
}  // namespace ictk
