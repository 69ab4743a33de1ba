// Single values (Appendix D), rows (ARCHITECTURE.md row format), constraints and the JSON
// text layer (positions, depth, trailing data).
#include "codec/json_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "codec/json_constraint.h"
#include "codec/json_row.h"
#include "codec/json_text.h"
#include "codec/json_type.h"

namespace ictk {
namespace {

using nlohmann::json;

Type T(const char* text) { return *TypeFromString(text); }

json J(std::string_view text) {
  auto j = ParseJsonText(text, "test");
  EXPECT_TRUE(j.has_value()) << (j ? "" : j.error().message);
  return j ? *j : json();
}

std::string Err(const json& j, const Type& type) {
  auto v = ValueFromJson(j, type, "/rows/0/values/7");
  return v ? std::string("accepted") : v.error().message;
}

TEST(ValueJson, AppendixDForms) {
  struct Case {
    const char* type;
    const char* json;
    Value value;
  };
  const Case cases[] = {
      {"boolean", "true", Value::Boolean(true)},
      {"int", "-7", Value::Long(-7)},
      {"long", "9007199254740993", Value::Long(9007199254740993)},
      {"double", "1.5", Value::Double(1.5)},
      {"double", "\"NaN\"", Value::Double(std::numeric_limits<double>::quiet_NaN())},
      {"double", "\"-Infinity\"",
       Value::Double(-std::numeric_limits<double>::infinity())},
      {"decimal(9, 2)", "\"14.20\"", Value::DecimalOf(1420, 2)},
      {"date", "\"2017-11-16\"", Value::Long(17486)},
      {"time", "\"22:31:08.123456\"", Value::Long(81068123456)},
      {"timestamp", "\"2017-11-16T22:31:08.123456\"", Value::Long(1510871468123456)},
      {"timestamptz", "\"2017-11-16T22:31:08.123456+00:00\"",
       Value::Long(1510871468123456)},
      {"timestamp_ns", "\"2017-11-16T22:31:08.123456789\"",
       Value::Long(1510871468123456789)},
      {"string", "\"abc\"", Value::String("abc")},
      {"uuid", "\"f79c3e09-677c-4bbd-a479-3f349cb785e7\"",
       Value::Bytes(std::string(
           "\xf7\x9c\x3e\x09\x67\x7c\x4b\xbd\xa4\x79\x3f\x34\x9c\xb7\x85\xe7", 16))},
      {"fixed[3]", "\"010203\"", Value::Bytes("\x01\x02\x03")},
      {"binary", "\"dead\"", Value::Bytes("\xde\xad")},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.json);
    auto v = ValueFromJson(J(c.json), T(c.type), "");
    ASSERT_TRUE(v.has_value()) << v.error().message;
    if (c.value.kind == ValueKind::kDouble && std::isnan(c.value.as_double())) {
      EXPECT_TRUE(std::isnan(v->as_double()));
    } else {
      EXPECT_EQ(*v, c.value);
    }
    EXPECT_EQ(ValueToJson(*v, T(c.type)), J(c.json));
  }
}

TEST(ValueJson, NestedValues) {
  auto t = TypeFromJson(J(R"({"type": "struct", "fields": [
      {"id": 1, "name": "tags", "required": false,
       "type": {"type": "list", "element-id": 2, "element-required": false, "element": "int"}},
      {"id": 3, "name": "props", "required": false,
       "type": {"type": "map", "key-id": 4, "key": "string", "value-id": 5,
                "value-required": false, "value": "date"}}]})"),
                        "");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  json j = J(
      R"({"1": [1, null, 3], "3": {"keys": ["a", "b"], "values": ["2020-01-01", null]}})");
  auto v = ValueFromJson(j, *t, "");
  ASSERT_TRUE(v.has_value()) << v.error().message;
  EXPECT_EQ(v->FindField(1)->children.size(), 3u);
  EXPECT_EQ(ValueToJson(*v, *t), j);
  EXPECT_EQ(Err(J(R"({"3": {"keys": ["a"], "values": []}})"), *t),
            "/rows/0/values/7/3: \"keys\" and \"values\" differ in length");
  EXPECT_EQ(Err(J(R"({"9": 1})"), *t),
            "/rows/0/values/7/9: no field with ID \"9\" in this struct");
}

TEST(ValueJson, ErrorsNameThePointerAndTheExpectedForm) {
  EXPECT_EQ(
      Err(J("99999999999999999999"), T("int")),
      "/rows/0/values/7: expected an integer, got number 1e+20 (not an integer, or out "
      "of the 64-bit range)");
  EXPECT_EQ(Err(J("2147483648"), T("int")),
            "/rows/0/values/7: integer 2147483648 is out of the int range");
  EXPECT_EQ(
      Err(J("1.5"), T("long")),
      "/rows/0/values/7: expected an integer, got number 1.5 (not an integer, or out "
      "of the 64-bit range)");
  EXPECT_EQ(
      Err(J("14.2"), T("decimal(9, 2)")),
      "/rows/0/values/7: expected a decimal string such as \"14.20\", got number 14.2");
  EXPECT_EQ(
      Err(J("\"1234567890.1\""), T("decimal(9, 2)")),
      "/rows/0/values/7: \"1234567890.1\" is not a valid decimal(9, 2) value (expected a "
      "decimal string such as \"14.20\")");
  EXPECT_EQ(
      Err(J("\"0102\""), T("fixed[4]")),
      "/rows/0/values/7: \"0102\" is not a valid fixed[4] value (expected a hex string "
      "of 4 bytes)");
  EXPECT_EQ(Err(J("3.5e38"), T("float")),
            "/rows/0/values/7: number 3.5e+38 is out of the float range");
  EXPECT_EQ(
      Err(J("1"), T("unknown")),
      "/rows/0/values/7: expected null (values of type unknown are always null), got "
      "integer 1");
  EXPECT_EQ(Err(J("\"2017-02-30\""), T("date")),
            "/rows/0/values/7: \"2017-02-30\" is not a valid date value (expected a date "
            "string "
            "such as \"2017-11-16\")");
}

TEST(ValueJson, TimestamptzOffsetsNormalizeToUtcExceptWhereUtcIsRequired) {
  auto v = ValueFromJson(J("\"2017-11-17T00:31:08.123456+02:00\""), T("timestamptz"), "");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v, Value::Long(1510871468123456));
  EXPECT_EQ(ValueToJson(*v, T("timestamptz")), "2017-11-16T22:31:08.123456+00:00");
  ValueDecodeOptions strict;
  strict.require_utc_offset = true;
  EXPECT_FALSE(ValueFromJson(J("\"2017-11-17T00:31:08.123456+02:00\""), T("timestamptz"),
                             "", strict)
                   .has_value());
  EXPECT_TRUE(ValueFromJson(J("\"2017-11-16T22:31:08.123456+00:00\""), T("timestamptz"),
                            "", strict)
                  .has_value());
}

TEST(ValueJson, UntypedLiterals) {
  EXPECT_EQ(*UntypedValueFromJson(J("5"), ""), Value::Long(5));
  EXPECT_EQ(*UntypedValueFromJson(J("5.0"), ""), Value::Double(5.0));
  EXPECT_EQ(*UntypedValueFromJson(J("\"5\""), ""), Value::String("5"));
  EXPECT_EQ(*UntypedValueFromJson(J("false"), ""), Value::Boolean(false));
  EXPECT_FALSE(UntypedValueFromJson(J("[5]"), "").has_value());
  EXPECT_FALSE(UntypedValueFromJson(J("18446744073709551615"), "").has_value());
  EXPECT_EQ(UntypedValueToJson(Value::DecimalOf(-5, 3)), "-0.005");
  EXPECT_EQ(UntypedValueToJson(Value::Bytes("\x0a\xff")), "0aff");
}

TEST(RowJson, KeyAndValuesByFieldId) {
  std::vector<NestedField> fields;
  for (auto [id, name, type, required] :
       {std::tuple{1, "id", "long", true}, std::tuple{2, "qty", "int", false},
        std::tuple{3, "price", "decimal(9, 2)", false}}) {
    NestedField f;
    f.id = id;
    f.name = name;
    f.type = T(type);
    f.required = required;
    fields.push_back(f);
  }
  json j = J(R"({"key": "r1", "values": {"1": 7, "3": "1.50", "2": null}})");
  auto row = RowFromJson(j, fields, "/add/0");
  ASSERT_TRUE(row.has_value()) << row.error().message;
  EXPECT_EQ(row->key, "r1");
  // Fields come in schema order; an explicit null stays, an absent field stays absent.
  EXPECT_EQ(row->values.field_ids, (std::vector<FieldId>{1, 2, 3}));
  EXPECT_TRUE(row->values.FindField(2)->is_null());
  EXPECT_EQ(RowToJson(*row, fields), j);
  auto partial = RowFromJson(J(R"({"key": "r2", "values": {"2": 1}})"), fields, "/add/1");
  ASSERT_TRUE(partial.has_value());
  EXPECT_EQ(partial->values.FindField(1), nullptr);
  EXPECT_EQ(RowFromJson(J(R"({"key": "r3", "values": {"1": "x"}})"), fields, "/add/2")
                .error()
                .message,
            "/add/2/values/1: expected an integer, got string");
  EXPECT_EQ(RowFromJson(J(R"({"values": {}})"), fields, "/add/3").error().message,
            "/add/3: missing required member 'key'");
}

TEST(ConstraintJson, RequestAndMetadataForms) {
  auto c = ConstraintFromJson(
      J(R"({"type": "unique", "name": "u", "enforced": true, "field-ids": [2, 3]})"),
      "/c");
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->id.has_value());
  EXPECT_EQ(c->type, ConstraintType::kUnique);
  EXPECT_EQ(c->field_ids, (std::vector<FieldId>{2, 3}));
  EXPECT_EQ(
      ConstraintToJson(*c),
      J(R"({"type": "unique", "name": "u", "enforced": true, "field-ids": [2, 3]})"));
  // A null in a required member is kept as missing, for def.required-fields.
  auto n = ConstraintFromJson(J(R"({"constraint-id": null, "type": "check"})"), "/c");
  ASSERT_TRUE(n.has_value());
  EXPECT_FALSE(n->id.has_value());
  EXPECT_EQ(
      ConstraintFromJson(J(R"({"enforced": "yes"})"), "/constraints/4").error().message,
      "/constraints/4/enforced: expected a boolean, got string");
  EXPECT_EQ(ConstraintFromJson(J(R"({"field-ids": [1, 2.5]})"), "/constraints/0")
                .error()
                .message,
            "/constraints/0/field-ids/1: expected an integer, got number 2.5 (not an "
            "integer, or "
            "out of the 64-bit range)");
}

TEST(ConstraintStatusesJson, ListsAndUnknownKeys) {
  auto st =
      ConstraintStatusesFromJson(J(R"({"validated": [1, 2], "unvalidated": []})"), "/s");
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->validated, (std::vector<ConstraintId>{1, 2}));
  EXPECT_EQ(st->unvalidated, std::vector<ConstraintId>{});
  EXPECT_FALSE(st->invalid.has_value());
  EXPECT_EQ(ConstraintStatusesToJson(*st),
            J(R"({"validated": [1, 2], "unvalidated": []})"));
  EXPECT_EQ(ConstraintStatusesFromJson(J(R"({"valdated": [1]})"),
                                       "/snapshots/0/constraint-statuses")
                .error()
                .message,
            "/snapshots/0/constraint-statuses/valdated: unknown status list \"valdated\" "
            "(expected validated, valid, invalid or unvalidated)");
}

TEST(JsonText, PositionsTrailingDataAndDepth) {
  auto e = ParseJsonText("{\"a\": 1,\n  \"b\": }", "m.json");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().kind, ErrorKind::kParse);
  EXPECT_EQ(e.error().message.rfind("m.json:2:8: ", 0), 0u) << e.error().message;
  auto trailing = ParseJsonText("true false", "expr");
  ASSERT_FALSE(trailing.has_value());
  EXPECT_EQ(trailing.error().message.rfind("expr:1:", 0), 0u) << trailing.error().message;
  EXPECT_FALSE(ParseJsonText("", "empty").has_value());
  EXPECT_FALSE(ParseJsonText("\"\xff\"", "utf8").has_value());
  // Brackets inside strings do not count toward the depth.
  std::string s = "\"" + std::string(1000, '[') + "\"";
  EXPECT_TRUE(ParseJsonText(s, "s").has_value());
  std::string ok(512, '['), too_deep(513, '[');
  ok += std::string(512, ']');
  too_deep += std::string(513, ']');
  EXPECT_TRUE(ParseJsonText(ok, "ok").has_value());
  EXPECT_FALSE(ParseJsonText(too_deep, "deep").has_value());
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  EXPECT_FALSE(ParseJsonText(objects, "objects").has_value());
}

TEST(JsonText, DumpNeverThrows) {
  json j = std::string("\xff\xfe");  // not UTF-8
  EXPECT_FALSE(DumpJson(j).empty());
  EXPECT_EQ(DumpJson(J(R"({"b": 1, "a": [1, 2]})")), R"({"a":[1,2],"b":1})");
}

}  // namespace
}  // namespace ictk
