// Expressions JSON (SURROUNDINGS.md "Expressions JSON"): the real expressions of the
// Iceberg projects (tests/data/iceberg-real/expressions, one test per file), the ID form
// that check constraints use, and the legacy name form flagged for expr.id-references.
#include "codec/json_expression.h"

#include <gtest/gtest.h>

#include "codec/json_text.h"
#include "codec/json_type.h"
#include "model/iceberg/value_parse.h"
#include "tests/codec/codec_exceptions_internal.h"
#include "tests/codec/test_data_internal.h"

namespace ictk {
namespace {

using nlohmann::json;
using testing_data::ManifestEntry;

json Parse(std::string_view text) {
  auto j = ParseJsonText(text, "test");
  EXPECT_TRUE(j.has_value()) << (j ? "" : j.error().message);
  return j ? *j : json();
}

/// What a writer that reads `file` gives back when it is not the input itself (the source
/// tests say so: literal objects and reference objects are normalized, extra keys
/// dropped).
std::optional<json> NormalizedForm(const std::string& file) {
  static const std::map<std::string, std::string> kNormalized = {
      {"BooleanStringDeserializationTest_LowerFalse", "false"},
      {"BooleanStringDeserializationTest_LowerTrue", "true"},
      {"BooleanStringDeserializationTest_UpperTrue", "true"},
      {"ExpressionJsonTest_LiteralBoolean", "true"},
      {"ExpressionJsonTest_PredicateWithObjectLiteral",
       R"({"type":"lt-eq","term":"col","value":50})"},
      {"ExpressionJsonTest_PredicateWithObjectReference",
       R"({"type":"lt-eq","term":"col","value":50})"},
      {"L298_TestExpressionRoundTripSchemaless_literal_true", "true"},
      {"L315_TestExpressionRoundTripSchemaless_reference_object_term",
       R"({"type":"eq","term":"name","value":25})"},
      {"L133_trueExpression_literal_object", "true"},
      {"L143_falseExpression_literal_object", "false"},
  };
  for (const auto& [suffix, text] : kNormalized)
    if (file.find(suffix) != std::string::npos) return Parse(text);
  const std::string expected_dir = "iceberg-real/expressions/valid/";
  if (file.find("L183_extraFields_input") != std::string::npos)
    return testing_data::ReadJson(
        expected_dir +
        "apache-iceberg__TestExpressionParser__L192_extraFields_expected.json");
  if (file.find("L360_testPredicateWithObjectLiteral") != std::string::npos ||
      file.find("L382_testPredicateWithObjectReference") != std::string::npos)
    return testing_data::ReadJson(
        expected_dir + "apache-iceberg__TestExpressionParser__L338_testPredicate.json");
  return std::nullopt;
}

/// Binds the legacy name form against top-level `fields` (case-sensitive names, literals
/// by BindLiteral), as a reader given a schema does. Returns false when a name does not
/// resolve or a literal does not fit.
bool BindNames(Expr& e, const std::vector<NestedField>& fields) {
  for (auto& c : e.children)
    if (!BindNames(c, fields)) return false;
  if (e.children.empty() || e.children[0].op != ExprOp::kReference) return true;
  const NestedField* field = nullptr;
  for (const auto& f : fields)
    if (f.id == e.children[0].field_id) field = &f;
  if (field == nullptr) return false;
  for (auto& v : e.values) {
    auto bound = BindLiteral(v, field->type);
    if (!bound) return false;
    v = *bound;
  }
  if (e.children.size() == 2 && e.children[1].op == ExprOp::kLiteral) {
    auto bound = BindLiteral(e.children[1].values[0], field->type);
    if (!bound) return false;
    e.children[1].values[0] = *bound;
    e.children[1].data_type = field->type;
  }
  return true;
}

bool ResolveNames(Expr& e, const std::vector<NestedField>& fields) {
  for (auto& c : e.children)
    if (!ResolveNames(c, fields)) return false;
  if (e.op != ExprOp::kNamedReference) return true;
  for (const auto& f : fields) {
    if (f.name == e.name) {
      e = Expr::Ref(f.id);
      return true;
    }
  }
  return false;
}

NestedField Field(FieldId id, std::string name, const char* type) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = *TypeFromString(type);
  return f;
}

/// The schemas the source tests parse these files with (iceberg-go expr_json_test.go).
std::optional<std::vector<NestedField>> SchemaFor(const std::string& file) {
  static const std::vector<std::pair<std::string, std::vector<NestedField>>> kSchemas = {
      {"L477_TestUnmarshalExpressionFixedLength", {Field(1, "f", "fixed[4]")}},
      {"L487_TestUnmarshalExpressionCaseSensitive", {Field(1, "id", "int")}},
      {"L155_TestMarshalExpressionTypedLiterals_date", {Field(1, "d", "date")}},
      {"L156_TestMarshalExpressionTypedLiterals_uuid", {Field(1, "d", "uuid")}},
      {"L157_TestMarshalExpressionTypedLiterals_binary", {Field(1, "d", "binary")}},
      {"L158_TestMarshalExpressionTypedLiterals_decimal",
       {Field(1, "d", "decimal(9,2)")}},
      {"L186_TestMarshalExpressionTimestamp_ts", {Field(1, "ts", "timestamp")}},
      {"L187_TestMarshalExpressionTimestamp_tstz", {Field(1, "tstz", "timestamptz")}},
      {"L224_TestMarshalExpressionTimestampSubsecond_ts", {Field(1, "ts", "timestamp")}},
      {"L225_TestMarshalExpressionTimestampSubsecond_tstz",
       {Field(1, "tstz", "timestamptz")}},
      {"L226_TestMarshalExpressionTimestampSubsecond_tsns",
       {Field(1, "tsns", "timestamp_ns")}},
      {"L227_TestMarshalExpressionTimestampSubsecond_tstzns",
       {Field(1, "tstzns", "timestamptz_ns")}},
  };
  for (const auto& [suffix, fields] : kSchemas)
    if (file.find(suffix) != std::string::npos) return fields;
  return std::nullopt;
}

class RealExpression : public ::testing::TestWithParam<ManifestEntry> {};

TEST_P(RealExpression, VerdictMatchesSourceTest) {
  const ManifestEntry& entry = GetParam();
  SCOPED_TRACE(entry.file + " (" + entry.what + ")");
  const std::string text =
      testing_data::ReadText(testing_data::DataPath("iceberg-real/" + entry.file));
  auto parsed = ParseJsonText(text, entry.file);
  std::optional<Expr> expr;
  std::string why;
  if (!parsed) {
    why = parsed.error().message;
  } else {
    auto e = entry.kind == "expression-term" ? TermFromJson(*parsed, "")
                                             : ExpressionFromJson(*parsed, "");
    if (e) {
      expr = std::move(*e);
    } else {
      why = e.error().message;
    }
  }
  bool accepted = expr.has_value();
  std::optional<Expr> bound;
  if (expr) {
    if (auto fields = SchemaFor(entry.file)) {
      Expr b = *expr;
      accepted = ResolveNames(b, *fields) && BindNames(b, *fields);
      if (accepted) bound = b;
      if (!accepted) why = "does not bind to the source test's schema";
    }
  }
  bool expected = entry.expect == "valid";
  if (const auto* exception = testing_data::FindCodecException(entry.file))
    expected = exception->ictk_accepts;
  EXPECT_EQ(accepted, expected) << (accepted ? "accepted" : "rejected: " + why);
  if (!expr) return;
  // Round trip by meaning, and back to the input (or its documented normal form).
  json encoded =
      entry.kind == "expression-term" ? TermToJson(*expr) : ExpressionToJson(*expr);
  auto again = entry.kind == "expression-term" ? TermFromJson(encoded, "")
                                               : ExpressionFromJson(encoded, "");
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(*again, *expr) << DumpJson(encoded);
  if (entry.expect == "valid") {
    json want = NormalizedForm(entry.file).value_or(*parsed);
    EXPECT_EQ(encoded, want) << DumpJson(encoded) << " vs " << DumpJson(want);
  }
  // A bound expression (ID references, typed literals) round-trips in the ID form too.
  if (bound) {
    json b = ExpressionToJson(*bound);
    auto back = ExpressionFromJson(b, "");
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(*back, *bound) << DumpJson(b);
  }
}

std::vector<ManifestEntry> ExpressionFiles() {
  return testing_data::ManifestEntries("expressions/");
}

INSTANTIATE_TEST_SUITE_P(IcebergReal, RealExpression,
                         ::testing::ValuesIn(ExpressionFiles()), [](const auto& info) {
                           return testing_data::TestName(info.param.file);
                         });

TEST(RealExpressionCorpus, CoversTheManifest) {
  EXPECT_EQ(ExpressionFiles().size(), 135u);
}

// ---- the ID form ----

TEST(ExpressionIdForm, ReferencesApplyAndTypedLiterals) {
  json j = Parse(R"json({"type": "and",
    "left": {"type": "lt-eq", "left": {"type": "reference", "id": 3},
             "right": {"type": "literal", "value": "2024-01-31", "data-type": "date"}},
    "right": {"type": "in",
              "child": {"type": "apply", "function": {"catalog": "iceberg_functions",
                        "identifier": ["bucket"]},
                        "arguments": [16, {"type": "reference", "id": 1}]},
              "values": {"type": "literals", "values": ["1.50", "2.25"],
                         "data-type": "decimal(9, 2)"}}})json");
  auto e = ExpressionFromJson(j, "/constraints/0/expression");
  ASSERT_TRUE(e.has_value()) << e.error().message;
  EXPECT_FALSE(e->legacy_form);
  const Expr& lt = e->children[0];
  EXPECT_EQ(lt.op, ExprOp::kLtEq);
  EXPECT_EQ(lt.children[0], Expr::Ref(3));
  ASSERT_TRUE(lt.children[1].data_type.has_value());
  EXPECT_EQ(lt.children[1].values[0], Value::Long(19753));  // days since 1970-01-01
  const Expr& in = e->children[1];
  EXPECT_EQ(in.children[0].op, ExprOp::kApply);
  EXPECT_EQ(in.children[0].function, std::vector<std::string>{"bucket"});
  EXPECT_EQ(in.children[0].catalog, "iceberg_functions");
  EXPECT_EQ(in.values,
            (std::vector<Value>{Value::DecimalOf(150, 2), Value::DecimalOf(225, 2)}));
  EXPECT_EQ(ExpressionToJson(*e), j);
}

TEST(ExpressionIdForm, FunctionSpellingsAndParameters) {
  for (const char* f : {R"("f")", R"(["f"])", R"({"identifier": ["f"]})"}) {
    json j = Parse(
        std::string(R"({"type": "eq", "left": {"type": "apply", "function": )") + f +
        R"(, "arguments": [{"type": "parameter", "name": "x"}]}, "right": true})");
    auto e = ExpressionFromJson(j, "");
    ASSERT_TRUE(e.has_value()) << e.error().message;
    EXPECT_EQ(e->children[0].function, std::vector<std::string>{"f"});
    EXPECT_FALSE(e->children[0].catalog.has_value());
    EXPECT_EQ(e->children[0].children[0].op, ExprOp::kParameter);
    EXPECT_EQ(e->children[1], Expr::Lit(Value::Boolean(true)));
  }
}

TEST(ExpressionIdForm, IfElseTakesAPredicateArgument) {
  json j = Parse(R"({"type": "eq", "left": {"type": "apply", "function": "if_else",
    "arguments": [{"type": "is-null", "child": {"type": "reference", "id": 1}}, 0,
                  {"type": "reference", "id": 1}]}, "right": 0})");
  auto e = ExpressionFromJson(j, "");
  ASSERT_TRUE(e.has_value()) << e.error().message;
  EXPECT_EQ(e->children[0].children[0].op, ExprOp::kIsNull);
  auto again = ExpressionFromJson(ExpressionToJson(*e), "");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *e);
}

// expr.id-references: the legacy name form is read, and flagged for the model.
TEST(ExpressionLegacyForm, NamesAreFlaggedForExprIdReferences) {
  SCOPED_TRACE("expr.id-references");
  auto e = ExpressionFromJson(Parse(R"({"type":"lt","term":"x","value":5})"), "");
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(e->legacy_form);
  EXPECT_EQ(e->children[0].op, ExprOp::kNamedReference);
  EXPECT_EQ(e->children[0].name, "x");
  EXPECT_EQ(e->children[1], Expr::Lit(Value::Long(5)));
  // The legacy shape is flagged even when its term is an ID reference.
  auto by_id = ExpressionFromJson(
      Parse(R"({"type":"lt","term":{"type":"reference","id":2},"value":5})"), "");
  ASSERT_TRUE(by_id.has_value());
  EXPECT_TRUE(by_id->legacy_form);
  EXPECT_EQ(by_id->children[0], Expr::Ref(2));
  // A named reference in the new form is a kNamedReference without legacy_form.
  auto named = ExpressionFromJson(
      Parse(R"({"type":"is-null","child":{"type":"reference","term":"x"}})"), "");
  ASSERT_TRUE(named.has_value());
  EXPECT_FALSE(named->legacy_form);
  EXPECT_EQ(named->children[0].op, ExprOp::kNamedReference);
}

TEST(ExpressionLegacyForm, TransformTermsBecomeBuiltinApplies) {
  auto e = ExpressionFromJson(
      Parse(
          R"({"type":"eq","term":{"type":"transform","transform":"truncate[4]","term":"s"},
                "value":"abcd"})"),
      "");
  ASSERT_TRUE(e.has_value()) << e.error().message;
  const Expr& apply = e->children[0];
  EXPECT_EQ(apply.op, ExprOp::kApply);
  EXPECT_EQ(apply.function, std::vector<std::string>{"truncate"});
  EXPECT_EQ(apply.catalog, "iceberg_functions");
  ASSERT_EQ(apply.children.size(), 2u);
  EXPECT_EQ(apply.children[0], Expr::Lit(Value::Long(4)));
  EXPECT_EQ(apply.children[1].name, "s");
  for (const char* bad :
       {"bucket[0]", "bucket[-1]", "bucket[x]", "bucket", "void", "zorder"}) {
    auto r = ExpressionFromJson(
        Parse(std::string(R"({"type":"eq","term":{"type":"transform","transform":")") +
              bad + R"(","term":"s"},"value":1})"),
        "");
    EXPECT_FALSE(r.has_value()) << bad;
  }
}

TEST(ExpressionErrors, NameThePointerAndWhatWasExpected) {
  auto err = [](std::string_view text) {
    auto e = ExpressionFromJson(Parse(text), "/constraints/1/expression");
    return e ? std::string("accepted") : e.error().message;
  };
  EXPECT_EQ(err(R"({"type":"and","left":true})"),
            "/constraints/1/expression: missing required member 'right'");
  EXPECT_EQ(
      err(R"({"type":"not","child":{"type":"lt","left":{"type":"reference","id":"a"},
                    "right":1}})"),
      "/constraints/1/expression/child/left/id: expected an integer, got string");
  EXPECT_EQ(
      err("42"),
      "/constraints/1/expression: expected a predicate: true, false or an object with "
      "a 'type', got integer 42");
  EXPECT_EQ(err(R"({"type":"eq","left":{"type":"reference","id":1},"right":null})"),
            "/constraints/1/expression/right: required member is null");
  EXPECT_EQ(err(R"({"type":"eq","term":"x","value":null})"),
            "/constraints/1/expression/value: a literal must not be null");
  // Untyped values of two kinds decode; whether they align with the field is binding's
  // (the model's expr.well-typed), not the codec's.
  EXPECT_EQ(err(R"({"type":"in","child":{"type":"reference","id":1},"values":[1,"a"]})"),
            "accepted");
}

TEST(ExpressionErrors, DocumentsBuiltInCodeNestedTooDeeplyAreRefused) {
  // ParseJsonText refuses such text; a document built in code gets an error, not a crash.
  json j = true;
  for (int i = 0; i < 100000; ++i) j = json{{"type", "not"}, {"child", std::move(j)}};
  auto e = ExpressionFromJson(j, "");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("nested too deeply"), std::string::npos);
  json t = "int";
  for (int i = 0; i < 100000; ++i)
    t = json{{"type", "list"},
             {"element-id", i},
             {"element-required", false},
             {"element", std::move(t)}};
  EXPECT_FALSE(TypeFromJson(t, "").has_value());
}

TEST(ExpressionErrors, DeepButLegalNestingDecodes) {
  json j = true;
  for (int i = 0; i < 250; ++i) j = json{{"type", "not"}, {"child", j}};
  auto e = ExpressionFromJson(j, "");
  ASSERT_TRUE(e.has_value());
  auto again = ExpressionFromJson(ExpressionToJson(*e), "");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *e);
}

}  // namespace
}  // namespace ictk
