// Metadata deltas (codec/metadata_delta.h): a delta made from two metadata objects turns
// the first into the second, types included; a malformed delta is refused with the JSON
// pointer of what is wrong and changes nothing; the reference model's delta writer
// answers what TableMetadataToJson answers, whole the first time on a table.
#include "codec/metadata_delta.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "codec/decode_memo.h"
#include "codec/json_table_metadata.h"
#include "codec/json_text.h"
#include "tests/codec/test_data_internal.h"

namespace ictk {
namespace {

using nlohmann::json;

json Metadata() { return testing_data::ReadJson("lint/v4-constraints-clean.json"); }

TEST(MetadataDelta, SetsRemovesAndSplices) {
  json md = json::parse(R"({"a": 1, "b": "x", "list": [{"i": 1}, {"i": 2}], "gone": true})");
  const json delta = json::parse(R"({"base": 3, "set": {"a": 2, "new": [1]},
      "remove": ["gone"], "splice": {"list": {"keep": 1, "add": [{"i": 5}, {"i": 6}]}}})");
  ASSERT_TRUE(ApplyMetadataDelta(md, delta).has_value());
  EXPECT_TRUE(SameJson(md, json::parse(R"({"a": 2, "b": "x", "new": [1],
      "list": [{"i": 1}, {"i": 5}, {"i": 6}]})")))
      << md.dump();
}

TEST(MetadataDelta, AnEmptyDeltaChangesNothing) {
  json md = Metadata();
  const json before = md;
  ASSERT_TRUE(ApplyMetadataDelta(md, json{{"base", 1}}).has_value());
  EXPECT_TRUE(SameJson(md, before));
}

void ExpectRefused(const std::string& delta_text, const std::string& pointer) {
  json md = json::parse(R"({"a": 1, "list": [1, 2], "object": {}})");
  const json before = md;
  const auto applied = ApplyMetadataDelta(md, json::parse(delta_text));
  ASSERT_FALSE(applied.has_value()) << delta_text;
  EXPECT_NE(applied.error().message.find(pointer), std::string::npos)
      << applied.error().message;
  EXPECT_TRUE(SameJson(md, before)) << "a refused delta changed the metadata: " << md;
}

TEST(MetadataDelta, RefusesMalformedDeltasWithThePointerAndChangesNothing) {
  ExpectRefused(R"([1])", "/metadata-delta");
  ExpectRefused(R"({"set": [1]})", "/metadata-delta/set");
  ExpectRefused(R"({"remove": "a"})", "/metadata-delta/remove");
  ExpectRefused(R"({"remove": [1]})", "/metadata-delta/remove/0");
  ExpectRefused(R"({"splice": {"list": {"keep": 3, "add": []}}})",
                "/metadata-delta/splice/list/keep");
  ExpectRefused(R"({"splice": {"list": {"keep": -1, "add": []}}})",
                "/metadata-delta/splice/list/keep");
  ExpectRefused(R"({"splice": {"list": {"keep": 1}}})", "/metadata-delta/splice/list/add");
  ExpectRefused(R"({"splice": {"object": {"keep": 0, "add": []}}})",
                "/metadata-delta/splice/object");
  ExpectRefused(R"({"splice": {"missing": {"keep": 0, "add": []}}})",
                "/metadata-delta/splice/missing");
  // A member changed twice, the second change applied after the first would make the
  // meaning depend on the order: refused. The set is valid, so only the repeat fails.
  ExpectRefused(R"({"set": {"a": 2}, "remove": ["a"]})", "/metadata-delta/remove/0");
  ExpectRefused(R"({"set": {"list": []}, "splice": {"list": {"keep": 0, "add": []}}})",
                "/metadata-delta/splice/list");
}

// --- the delta of two random metadata-like objects --------------------------------------

rc::Gen<json> Scalar() {
  return rc::gen::oneOf(rc::gen::map(rc::gen::inRange(-3, 4), [](int i) { return json(i); }),
                        rc::gen::map(rc::gen::inRange(-3, 4),
                                     [](int i) { return json(static_cast<double>(i)); }),
                        rc::gen::map(rc::gen::element<std::string>("x", "y", "1"),
                                     [](const std::string& s) { return json(s); }),
                        rc::gen::just(json(nullptr)), rc::gen::just(json(true)));
}

rc::Gen<json> Element() {
  return rc::gen::oneOf(Scalar(), rc::gen::map(Scalar(), [](const json& v) {
                          return json{{"v", v}};
                        }));
}

json RandomObject() {
  json out = json::object();
  for (const char* key : {"a", "b", "c", "snapshots", "schemas"}) {
    switch (*rc::gen::inRange(0, 3)) {
      case 0:
        break;  // absent
      case 1:
        out[key] = *Scalar();
        break;
      default:
        out[key] = json(*rc::gen::container<std::vector<json>>(*rc::gen::inRange(0, 5),
                                                              Element()));
    }
  }
  return out;
}

/// `base` changed the way a history changes metadata: most members kept, lists
/// appended to or cut, now and then a member replaced, removed or added.
json Evolved(const json& base) {
  json next = base;
  for (auto it = next.begin(); it != next.end();) {
    const int what = *rc::gen::inRange(0, 6);
    if (what == 0) {
      it = next.erase(it);
      continue;
    }
    if (what == 1) *it = *Scalar();
    if (what == 2 && it->is_array()) {
      const size_t cut = *rc::gen::inRange<size_t>(0, it->size() + 1);
      it->erase(it->begin() + static_cast<std::ptrdiff_t>(cut), it->end());
    }
    if (what >= 2 && it->is_array())
      for (int n = *rc::gen::inRange(0, 3); n > 0; --n) it->push_back(*Element());
    ++it;
  }
  if (*rc::gen::inRange(0, 4) == 0) next["added"] = *Element();
  return next;
}

RC_GTEST_PROP(MetadataDeltaProperty, TheDeltaOfTwoObjectsTurnsTheFirstIntoTheSecond, ()) {
  const json base = RandomObject();
  const json next = *rc::gen::oneOf(rc::gen::just(Evolved(base)),
                                    rc::gen::just(RandomObject()));
  const json delta = MakeMetadataDelta(base, next);
  RC_LOG() << "base " << base << "\nnext " << next << "\ndelta " << delta << "\n";
  json rebuilt = base;
  const auto applied = ApplyMetadataDelta(rebuilt, delta);
  RC_ASSERT(applied.has_value());
  RC_ASSERT(SameJson(rebuilt, next));
  // Through text, as it travels (parsed, a non-negative integer is nlohmann's unsigned
  // kind, so all three are read back from text).
  const auto reread_base = ParseJsonText(DumpJson(base), "base");
  const auto reread_next = ParseJsonText(DumpJson(next), "next");
  const auto text = ParseJsonText(DumpJson(delta), "delta");
  RC_ASSERT(reread_base.has_value() && reread_next.has_value() && text.has_value());
  json reread = *reread_base;
  RC_ASSERT(ApplyMetadataDelta(reread, *text).has_value());
  RC_ASSERT(SameJson(reread, *reread_next));
  // What did not change is not in the delta.
  for (auto it = base.begin(); it != base.end(); ++it)
    if (next.contains(it.key()) && SameJson(*it, next[it.key()])) {
      for (const char* part : {"set", "splice"})
        RC_ASSERT(!(delta.contains(part) && delta[part].contains(it.key())));
      RC_ASSERT(!(delta.contains("remove") &&
                  std::find(delta["remove"].begin(), delta["remove"].end(),
                            json(it.key())) != delta["remove"].end()));
    }
}

TEST(MetadataDelta, AnIntegerReplacedByTheSameFloatIsChanged) {
  const json base = json::parse(R"({"a": 1, "list": [1, 2]})");
  const json next = json::parse(R"({"a": 1.0, "list": [1, 2.0]})");
  json rebuilt = base;
  ASSERT_TRUE(ApplyMetadataDelta(rebuilt, MakeMetadataDelta(base, next)).has_value());
  EXPECT_TRUE(SameJson(rebuilt, next)) << rebuilt;
}

// --- the reference model's writer ---------------------------------------------------------

/// What the harness rebuilds from the answers MetadataDeltaWriter puts, through the
/// reader the session reads them with (MetadataDeltaReader): writer and reader agree.
class Rebuilder {
 public:
  ::testing::AssertionResult Take(const json& response, int64_t id) {
    Result<MetadataDeltaReader::Read> read = reader_.Track("t", id, response);
    if (!read) return ::testing::AssertionFailure() << read.error().message;
    if (read->metadata != nullptr)
      last_ = *read->metadata;
    else if (response.contains("metadata"))
      last_ = response["metadata"];
    else
      return ::testing::AssertionFailure() << "no metadata in " << response;
    return ::testing::AssertionSuccess();
  }
  const json& last() const { return last_; }

 private:
  MetadataDeltaReader reader_;
  json last_;
};

TEST(MetadataDeltaWriter, AnswersWholeFirstThenWhatChanged) {
  auto decoded = TableMetadataFromJson(Metadata());
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  TableMetadata md = *decoded;
  ASSERT_FALSE(md.snapshots.empty());
  MetadataDeltaWriter writer;
  Rebuilder harness;
  int64_t id = 10;
  auto answer = [&](const TableMetadata& m) {
    json response = {{"id", id}, {"result", "ok"}};
    writer.Put(response, "t", json(id), m, nullptr);
    EXPECT_TRUE(harness.Take(response, id));
    EXPECT_TRUE(SameJson(harness.last(), TableMetadataToJson(m)))
        << harness.last().dump() << "\n" << TableMetadataToJson(m).dump();
    ++id;
    return response;
  };
  const json first = answer(md);
  EXPECT_TRUE(first.contains("metadata"));
  // Unchanged: an empty delta.
  const json same = answer(md);
  ASSERT_TRUE(same.contains("metadata-delta"));
  EXPECT_EQ(same["metadata-delta"], json({{"base", 10}}));
  // A new snapshot: the snapshots spliced after the ones that stay, the rest set.
  Snapshot next = md.snapshots.back();
  next.parent_snapshot_id = next.snapshot_id;
  next.snapshot_id += 1000;
  next.timestamp_ms += 5;
  md.snapshots.push_back(next);
  md.current_snapshot_id = next.snapshot_id;
  md.last_updated_ms = next.timestamp_ms;
  const json appended = answer(md);
  ASSERT_TRUE(appended.contains("metadata-delta"));
  const json& delta = appended["metadata-delta"];
  EXPECT_EQ(delta["splice"]["snapshots"]["keep"], md.snapshots.size() - 1);
  EXPECT_EQ(delta["splice"]["snapshots"]["add"].size(), 1u);
  EXPECT_FALSE(delta["splice"].contains("schemas"));
  EXPECT_TRUE(delta["set"].contains("current-snapshot-id"));
  // A property removed, a schema added, snapshots expired from the front.
  md.properties.clear();
  md.properties["k"] = "v";
  answer(md);
  md.properties.clear();
  Schema added = md.schemas.back();
  added.schema_id = added.schema_id.value_or(0) + 1;
  md.schemas.push_back(added);
  md.snapshots.erase(md.snapshots.begin());
  const json expired = answer(md);
  ASSERT_TRUE(expired.contains("metadata-delta"));
  EXPECT_EQ(expired["metadata-delta"]["splice"]["snapshots"]["keep"], 0);
  // A constraint added: the constraints spliced after the ones that stay, by value, as
  // the reader rebuilds them (answer() compares the rebuilt metadata).
  ASSERT_TRUE(md.constraints.has_value());
  Constraint c = md.constraints->back();
  c.id = c.id.value_or(0) + 100;
  c.name = "added_by_the_test";
  md.constraints->push_back(c);
  const json constrained = answer(md);
  ASSERT_TRUE(constrained.contains("metadata-delta"));
  EXPECT_EQ(constrained["metadata-delta"]["splice"]["constraints"]["keep"],
            md.constraints->size() - 1);
  EXPECT_EQ(constrained["metadata-delta"]["splice"]["constraints"]["add"].size(), 1u);
  // Another table is answered whole first.
  json other = {{"id", id}, {"result", "ok"}};
  writer.Put(other, "u", json(id), md, nullptr);
  EXPECT_TRUE(other.contains("metadata"));
  // A request id that is not an integer cannot be a base: whole.
  json odd = {{"id", "x"}, {"result", "ok"}};
  writer.Put(odd, "t", json("x"), md, nullptr);
  EXPECT_TRUE(odd.contains("metadata"));
}

}  // namespace
}  // namespace ictk

namespace ictk {
namespace {

// The reading side: a whole metadata becomes the table's base, a delta must name the
// latest answer with metadata on its table and stands for that metadata changed, with a
// lineage that says what it kept; anything else is refused and changes nothing.
TEST(MetadataDeltaReader, RebuildsADeltaFromTheLatestWholeAnswerOnItsTable) {
  MetadataDeltaReader reader;
  const json md = Metadata();
  Result<MetadataDeltaReader::Read> whole =
      reader.Track("t", 3, json{{"result", "ok"}, {"metadata", md}});
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->metadata, nullptr);  // a whole answer is its own metadata
  EXPECT_EQ(whole->lineage.version, 1u);

  json next = md;
  next["last-updated-ms"] = 42;
  json delta = MakeMetadataDelta(md, next);
  delta["base"] = 3;
  Result<MetadataDeltaReader::Read> read =
      reader.Track("t", 7, json{{"result", "ok"}, {kMetadataDeltaKey, delta}});
  ASSERT_TRUE(read.has_value()) << read.error().message;
  ASSERT_NE(read->metadata, nullptr);
  EXPECT_TRUE(SameJson(*read->metadata, next));
  EXPECT_EQ(read->lineage.base, 1u);
  EXPECT_EQ(read->lineage.version, 2u);
  EXPECT_EQ(read->lineage.snapshots_kept, md["snapshots"].size());

  // The base is now request 7: a delta on request 3 is refused, and so is one on a table
  // that answered no metadata yet.
  Result<MetadataDeltaReader::Read> stale =
      reader.Track("t", 8, json{{"result", "ok"}, {kMetadataDeltaKey, delta}});
  ASSERT_FALSE(stale.has_value());
  EXPECT_NE(stale.error().message.find("is not request 7"), std::string::npos)
      << stale.error().message;
  Result<MetadataDeltaReader::Read> other =
      reader.Track("u", 9, json{{"result", "ok"}, {kMetadataDeltaKey, delta}});
  ASSERT_FALSE(other.has_value());
  EXPECT_NE(other.error().message.find("names no answer with metadata on table u"),
            std::string::npos)
      << other.error().message;
  // A malformed delta names its pointer and leaves the base as it was.
  json bad = delta;
  bad["base"] = 7;
  bad["splice"] = {{"snapshots", {{"keep", 1000}, {"add", json::array()}}}};
  Result<MetadataDeltaReader::Read> refused =
      reader.Track("t", 10, json{{"result", "ok"}, {kMetadataDeltaKey, bad}});
  ASSERT_FALSE(refused.has_value());
  delta["base"] = 7;
  delta["set"] = {{"last-updated-ms", 43}};
  delta.erase("splice");
  delta.erase("remove");
  Result<MetadataDeltaReader::Read> again =
      reader.Track("t", 11, json{{"result", "ok"}, {kMetadataDeltaKey, delta}});
  ASSERT_TRUE(again.has_value()) << again.error().message;
  next["last-updated-ms"] = 43;
  EXPECT_TRUE(SameJson(*again->metadata, next));
}

}  // namespace
}  // namespace ictk
