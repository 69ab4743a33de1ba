/// \file
/// The protocol message codec (codec/protocol.h): every good message of the corpus
/// round-trips (decode(encode(decode(x))) == decode(x)), the fields of each op land where
/// requests.h says, and responses keep what was answered.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "codec/json_text.h"
#include "codec/protocol.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kGood = fs::path(ICTK_SOURCE_DIR) / "tests/adapters/messages/good";

json Load(const std::string& name) {
  std::ifstream in(kGood / (name + ".json"));
  std::stringstream text;
  text << in.rdbuf();
  auto j = ParseJsonText(text.str(), name);
  EXPECT_TRUE(j.has_value()) << name;
  return j ? *j : json();
}

Request Decode(const std::string& name) {
  auto r = RequestFromJson(Load(name));
  EXPECT_TRUE(r.has_value()) << name << ": " << (r ? "" : r.error().message);
  return r ? *r : Request{};
}

TEST(ProtoRequest, EveryGoodRequestRoundTrips) {
  SCOPED_TRACE("proto.request");
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(kGood)) {
    std::string name = e.path().stem().string();
    if (name.rfind("request.", 0) != 0) continue;
    json j = Load(name);
    if (RequestOpName(j) == "hello") continue;
    auto first = RequestFromJson(j);
    ASSERT_TRUE(first.has_value()) << name << ": " << first.error().message;
    json encoded = RequestToJson(*first);
    EXPECT_EQ(encoded["op"], j["op"]) << name;
    EXPECT_FALSE(encoded.contains("id")) << name;
    auto second = RequestFromJson(encoded);
    ASSERT_TRUE(second.has_value()) << name << ": " << second.error().message << "\n"
                                    << DumpJson(encoded);
    EXPECT_EQ(*first, *second) << name << "\n" << DumpJson(encoded);
    // Encoding is deterministic.
    EXPECT_EQ(DumpJson(encoded), DumpJson(RequestToJson(*second))) << name;
    ++n;
  }
  EXPECT_GE(n, 25u);
}

TEST(ProtoRequest, CommitRowsAreUntypedUntilTheModelBindsThem) {
  Request r = Decode("request.commit-append");
  EXPECT_EQ(r.table, "orders");
  EXPECT_EQ(r.now_ms, 1013);
  const auto& c = std::get<Commit>(r.op);
  EXPECT_EQ(c.operation, CommitOperation::kAppend);
  ASSERT_EQ(c.add.size(), 2u);
  EXPECT_EQ(c.add[0].key, "r1");
  const Value& v = c.add[0].values;
  ASSERT_EQ(v.kind, ValueKind::kStruct);
  EXPECT_EQ(v.field_ids, (std::vector<FieldId>{1, 2, 3, 4, 6, 8}));
  EXPECT_EQ(*v.FindField(1), Value::Long(1));
  EXPECT_EQ(*v.FindField(3), Value::String("a@x"));
  const Value* nested = v.FindField(4);
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->kind, ValueKind::kStruct);
  EXPECT_EQ(*nested->FindField(5), Value::String("12345"));
  EXPECT_EQ(v.FindField(6)->kind, ValueKind::kList);
  EXPECT_EQ(v.FindField(8)->kind, ValueKind::kMap);
  EXPECT_EQ(v.FindField(8)->children.size(), 2u);
  EXPECT_TRUE(c.add[1].values.FindField(2)->is_null());
}

TEST(ProtoRequest, OverwriteAndTransactions) {
  const auto c = std::get<Commit>(Decode("request.commit-overwrite").op);
  EXPECT_EQ(c.operation, CommitOperation::kOverwrite);
  EXPECT_EQ(c.remove, (std::vector<std::string>{"r1"}));
  ASSERT_EQ(c.modify.size(), 1u);
  EXPECT_EQ(c.modify[0].key, "r4");
  EXPECT_EQ(std::get<Commit>(Decode("request.commit-in-transaction").op).txn, "w1");
  EXPECT_EQ(std::get<Begin>(Decode("request.begin").op).txn, "w1");
  EXPECT_EQ(std::get<Finish>(Decode("request.finish").op).txn, "w1");
  EXPECT_EQ(std::get<Commit>(Decode("request.commit-replace").op).operation,
            CommitOperation::kReplace);
}

TEST(ProtoRequest, SchemaChanges) {
  const auto u = std::get<UpdateSchema>(Decode("request.update-schema").op);
  ASSERT_EQ(u.changes.size(), 9u);
  const auto& add = std::get<AddColumn>(u.changes[0]);
  EXPECT_EQ(add.name, "note");
  EXPECT_FALSE(add.parent_id.has_value());
  EXPECT_EQ(add.doc, "free text");
  const auto& nested = std::get<AddColumn>(u.changes[1]);
  EXPECT_EQ(nested.parent_id, 4);
  EXPECT_TRUE(nested.required);
  EXPECT_EQ(nested.initial_default_json, "\"?\"");
  EXPECT_EQ(std::get<RenameColumn>(u.changes[2]).name, "mail");
  EXPECT_EQ(std::get<UpdateColumnType>(u.changes[3]).type,
            Type::Primitive(TypeId::kLong));
  EXPECT_EQ(std::get<MoveColumn>(u.changes[4]).position, MoveColumn::Position::kFirst);
  EXPECT_EQ(std::get<MoveColumn>(u.changes[5]).position, MoveColumn::Position::kAfter);
  EXPECT_EQ(std::get<MoveColumn>(u.changes[5]).reference, 1);
  EXPECT_EQ(std::get<MoveColumn>(u.changes[6]).position, MoveColumn::Position::kBefore);
  EXPECT_EQ(std::get<MakeOptional>(u.changes[7]).id, 1);
  EXPECT_EQ(std::get<DeleteColumn>(u.changes[8]).id, 8);
  EXPECT_EQ(u.remove_constraints, (std::vector<std::string>{"pk"}));
}

TEST(ProtoRequest, ConstraintsFunctionsAndReaders) {
  const auto add = std::get<AddConstraint>(Decode("request.add-constraint-check").op);
  EXPECT_EQ(add.constraint.type, ConstraintType::kCheck);
  EXPECT_EQ(add.constraint.name, "qty_positive");
  EXPECT_EQ(add.constraint.enforced, false);
  ASSERT_TRUE(add.constraint.expression.has_value());
  EXPECT_EQ(add.constraint.expression->op, ExprOp::kOr);
  // A missing name is kept missing, for the model to judge (def.required-fields).
  EXPECT_FALSE(std::get<AddConstraint>(Decode("request.add-constraint-missing-name").op)
                   .constraint.name);
  const auto upd = std::get<UpdateConstraint>(Decode("request.update-constraint").op);
  EXPECT_EQ(upd.name, "qty_positive");
  EXPECT_EQ(upd.set.name, "qty_pos");
  EXPECT_EQ(upd.set.enforced, true);
  EXPECT_FALSE(upd.set.expression);

  Request f = Decode("request.define-function");
  EXPECT_EQ(f.table, "");
  const auto& def = std::get<DefineFunction>(f.op).function;
  EXPECT_EQ(def.name, "h1_positive");
  EXPECT_TRUE(def.deterministic);
  ASSERT_EQ(def.parameters.size(), 1u);
  EXPECT_EQ(def.parameters[0].first, "x");
  EXPECT_EQ(def.return_type, Type::Primitive(TypeId::kBoolean));
  EXPECT_EQ(def.body.op, ExprOp::kGt);
  // A copy: a reference into the temporary Request would dangle (ASan:
  // stack-use-after-scope).
  const auto term =
      std::get<DefineFunction>(Decode("request.define-function-term-body").op);
  EXPECT_EQ(term.function.body.op, ExprOp::kParameter);

  const auto rs = std::get<ReadStatuses>(Decode("request.read-statuses").op);
  EXPECT_EQ(rs.snapshot_id, 1);
  EXPECT_EQ(rs.metadata.format_version, 4);
  EXPECT_EQ(rs.metadata.last_constraint_id, 2);
  EXPECT_FALSE(
      std::get<ReadStatuses>(Decode("request.read-statuses-current").op).snapshot_id);
  EXPECT_EQ(std::get<Scan>(Decode("request.scan-snapshot").op).snapshot_id, 1);
  EXPECT_EQ(std::get<Validate>(Decode("request.validate").op).names,
            (std::vector<std::string>{"qty_positive"}));
}

TEST(ProtoRequest, HelloAndUnknownOps) {
  auto h = HelloFromJson(Load("request.hello"));
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->protocol_version, 1);
  EXPECT_FALSE(RequestFromJson(Load("request.hello")).has_value());
  auto unknown = RequestFromJson(json{{"op", "frobnicate"}, {"table", "t"}});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message.rfind("unsupported op", 0), 0u)
      << unknown.error().message;
  EXPECT_EQ(RequestOpName(json{{"op", 3}}), "");
  EXPECT_EQ(RequestOpName(json::array()), "");
}

TEST(ProtoRequest, ErrorsNameTheJsonPointer) {
  json bad = Load("request.commit-append");
  bad["add"][1]["values"]["2"] =
      json::array({json{{"x", 1}}});  // a struct needs field IDs
  auto r = RequestFromJson(bad);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("/add/1/values/2/0/x"), std::string::npos)
      << r.error().message;
  json null_table = Load("request.load-table");
  null_table["table"] = nullptr;
  auto t = RequestFromJson(null_table);
  ASSERT_FALSE(t.has_value());
  EXPECT_NE(t.error().message.find("table"), std::string::npos) << t.error().message;
}

TEST(ProtoAnswer, ResponsesRoundTrip) {
  SCOPED_TRACE("proto.answer");
  for (const auto& e : fs::directory_iterator(kGood)) {
    std::string name = e.path().stem().string();
    if (name.rfind("response.", 0) != 0) continue;
    json j = Load(name);
    auto first = ResponseFromJson(j);
    ASSERT_TRUE(first.has_value()) << name << ": " << first.error().message;
    json encoded = ResponseToJson(*first);
    auto second = ResponseFromJson(encoded);
    ASSERT_TRUE(second.has_value()) << name << ": " << second.error().message;
    EXPECT_EQ(DumpJson(encoded), DumpJson(ResponseToJson(*second))) << name;
    EXPECT_EQ(first->result, second->result) << name;
    EXPECT_EQ(first->id, second->id) << name;
    EXPECT_EQ(first->error_kind, second->error_kind) << name;
    EXPECT_EQ(first->error_constraint_ids, second->error_constraint_ids) << name;
    EXPECT_EQ(first->metadata, second->metadata) << name;
    EXPECT_EQ(first->statuses, second->statuses) << name;
    EXPECT_EQ(first->hello, second->hello) << name;
  }
}

TEST(ProtoAnswer, FieldsOfEachKindOfAnswer) {
  auto hello = ResponseForOpFromJson("hello", Load("response.hello.ok"));
  ASSERT_TRUE(hello.has_value()) << hello.error().message;
  ASSERT_TRUE(hello->hello.has_value());
  EXPECT_EQ(hello->hello->name, "example-engine");
  EXPECT_EQ(hello->hello->format_versions, (std::vector<int32_t>{1, 2, 3, 4}));
  auto rejected = ResponseForOpFromJson("commit", Load("response.commit.rejected"));
  ASSERT_TRUE(rejected.has_value());
  EXPECT_EQ(rejected->result, Response::Result::kRejected);
  EXPECT_EQ(rejected->error_kind, "constraint-violation");
  EXPECT_EQ(rejected->error_constraint_ids, (std::vector<ConstraintId>{1}));
  auto statuses =
      ResponseForOpFromJson("read-statuses", Load("response.read-statuses.ok"));
  ASSERT_TRUE(statuses.has_value());
  EXPECT_EQ(statuses->statuses->at("2"), ConstraintStatus::kInvalid);
  auto meta = ResponseForOpFromJson("commit", Load("response.commit.ok"));
  ASSERT_TRUE(meta.has_value());
  EXPECT_EQ(meta->metadata->current_snapshot_id, 1);
  EXPECT_EQ(meta->metadata_json, Load("response.commit.ok")["metadata"]);
  auto invalid_line = ResponseFromJson(Load("response.hello.invalid-line"));
  ASSERT_TRUE(invalid_line.has_value());
  EXPECT_FALSE(invalid_line->id.has_value());
  // Typed scan rows, given the schema.
  std::vector<NestedField> fields = {
      {1, "order_id", true, Type::Primitive(TypeId::kLong)},
      {2, "qty", false, Type::Primitive(TypeId::kInt)},
      {3, "email", false, Type::Primitive(TypeId::kString)}};
  auto scan = ResponseForOpFromJson("scan", Load("response.scan.ok"), &fields);
  ASSERT_TRUE(scan.has_value()) << scan.error().message;
  ASSERT_EQ(scan->rows->size(), 2u);
  EXPECT_EQ((*scan->rows)[1].key, "r5");
}

TEST(ProtoAnswer, OkShapes) {
  EXPECT_EQ(OkShapeOfOp("hello"), OkAnswerShape::kHello);
  EXPECT_EQ(OkShapeOfOp("scan"), OkAnswerShape::kRows);
  EXPECT_EQ(OkShapeOfOp("read-statuses"), OkAnswerShape::kStatuses);
  EXPECT_EQ(OkShapeOfOp("define-function"), OkAnswerShape::kNothing);
  for (const std::string& op : AllOps()) EXPECT_TRUE(OkShapeOfOp(op).has_value()) << op;
  EXPECT_FALSE(OkShapeOfOp("frobnicate").has_value());
  EXPECT_EQ(AllCapabilities().size(), 13u);
}

}  // namespace
}  // namespace ictk
