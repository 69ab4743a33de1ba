/// \file
/// The sample's divergent style: parsed in all three forms (the builtin query, the
/// executable's --style, the library's ICTK_SAMPLE_STYLE), composable with a mutant,
/// answering byte for byte alike on every transport and reproducibly, and really
/// different from the canonical answers: IDs with gaps, other snapshot IDs,
/// constraint-ids on rejections, unknown extra members, refusals a switch's default
/// allows.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "adapters/adapter.h"
#include "codec/json_text.h"
#include "ictk/adapter.h"
#include "tests/sample/script_util.h"

namespace ictk::sample_test {
namespace {

const char* kExe = ICTK_SAMPLE_EXE;
const char* kLib = ICTK_SAMPLE_LIB;

std::vector<std::string> Dumped(const std::vector<json>& responses) {
  std::vector<std::string> out;
  for (const json& r : responses) out.push_back(DumpJson(r));
  return out;
}

std::string HelloName(Adapter& adapter) {
  auto r = adapter.Call(json::parse(R"({"op": "hello", "protocol-version": 1, "id": 1})"));
  if (!r) return "transport error: " + r.error().message;
  return (*r)["implementation"].value("name", "");
}

TEST(SampleDivergent, TheBuiltinQueryTakesAStyleAndAMutantInAnyOrder) {
  for (const char* query : {"style=divergent", "style=divergent&mutant=reuse-removed-id",
                            "mutant=reuse-removed-id&style=divergent",
                            "style=canonical"}) {
    auto a = MakeSampleAdapter(query);
    ASSERT_TRUE(a.has_value()) << query << ": " << a.error().message;
    const std::string name = HelloName(**a);
    EXPECT_EQ(name.find("(divergent)") != std::string::npos,
              std::string(query) != "style=canonical")
        << query << " -> " << name;
    EXPECT_EQ(name.find("reuse-removed-id") != std::string::npos,
              std::string(query).find("mutant") != std::string::npos)
        << query << " -> " << name;
  }
  for (const char* bad : {"style=sideways", "style=divergent&style=divergent",
                          "style=divergent&colour=red", "style=divergent&mutant=no-bug",
                          "style"}) {
    auto a = MakeSampleAdapter(bad);
    EXPECT_FALSE(a.has_value()) << bad;
  }
}

TEST(SampleDivergent, TheExecutableTakesStyle) {
  BuiltinFactories builtins{{"sample", MakeSampleAdapter}};
  AdapterOptions options;
  for (const char* args : {" --style divergent", " --style=divergent --mutant upgrade-pk-enforced"}) {
    auto exec = MakeAdapter(std::string("exec:") + kExe + args, options, builtins);
    ASSERT_TRUE(exec.has_value()) << exec.error().message;
    EXPECT_NE(HelloName(**exec).find("(divergent)"), std::string::npos) << args;
  }
  const int rc = std::system(
      fmt::format("'{}' --style sideways < /dev/null 2>/dev/null", kExe).c_str());
  EXPECT_NE(rc, 0);
}

TEST(SampleDivergent, TheLibraryTakesStyleFromTheEnvironment) {
  void* handle = dlopen(kLib, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto init = reinterpret_cast<int (*)(IctkAdapter*)>(dlsym(handle, "ictk_adapter_init"));
  ASSERT_NE(init, nullptr);
  setenv("ICTK_SAMPLE_STYLE", "divergent", 1);
  IctkAdapter a{};
  ASSERT_EQ(init(&a), 0);
  char* response = nullptr;
  ASSERT_EQ(a.call(&a, R"({"op": "hello", "protocol-version": 1, "id": 1})", &response), 0);
  EXPECT_NE(std::string(response).find("(divergent)"), std::string::npos) << response;
  a.free_string(&a, response);
  a.release(&a);
  setenv("ICTK_SAMPLE_STYLE", "sideways", 1);
  IctkAdapter b{};
  EXPECT_NE(init(&b), 0);
  unsetenv("ICTK_SAMPLE_STYLE");
  dlclose(handle);
}

TEST(SampleDivergent, AnswersAlikeOnEveryTransportAndOnEveryRun) {
  for (const Script& script : {EveryOp(), ExampleSession()}) {
    const std::vector<std::string> expected = Dumped(RunSample(script, "style=divergent"));
    EXPECT_EQ(Dumped(RunSample(script, "style=divergent")), expected) << "a second run";
    BuiltinFactories builtins{{"sample", MakeSampleAdapter}};
    AdapterOptions options;
    auto exec =
        MakeAdapter(std::string("exec:") + kExe + " --style divergent", options, builtins);
    ASSERT_TRUE(exec.has_value()) << exec.error().message;
    EXPECT_EQ(Dumped(RunScript(**exec, script)), expected) << "exec transport";
    setenv("ICTK_SAMPLE_STYLE", "divergent", 1);
    auto lib = MakeAdapter(std::string("lib:") + kLib, options, builtins);
    ASSERT_TRUE(lib.has_value()) << lib.error().message;
    const auto lib_answers = Dumped(RunScript(**lib, script));
    unsetenv("ICTK_SAMPLE_STYLE");
    EXPECT_EQ(lib_answers, expected) << "lib transport";
    EXPECT_NE(Dumped(RunSample(script)), expected) << "the canonical sample answers alike";
  }
}

/// The script on table `table`.
Script OnTable(Script script, const std::string& table) {
  for (std::string& line : script) {
    json j = json::parse(line);
    if (ActsOnTable(j.value("op", ""))) j["table"] = table;
    line = j.dump();
  }
  return script;
}

TEST(SampleDivergent, AnswersDifferFromTheCanonicalOnes) {
  const Script script = {
      Create(),
      AddPk("[1]"),
      AddUnique("u", "[3, 1]"),
      Append({RowJson("r1", 1, "5"), RowJson("r2", 2, "-1")}),
      Append({RowJson("r3", 1)}),                    // duplicate pk: constraint-violation
      AddCheck("c", kQtyPositive, true),             // r2 breaks it: refused
      R"({"op": "remove-constraint", "name": "u"})",
      AddUnique("u2", "[4]"),
      R"({"op": "update-schema", "changes": [{"action": "delete-column", "id": 4}]})",
      Append({RowJson("r4", 4, "1")}),
      R"({"op": "scan"})",
  };
  bool gap = false, random_snapshot = false, extra = false, field_ids_reordered = false;
  int rejections_with_ids = 0;
  std::set<std::string> check_outcomes;
  for (int n = 0; n < 12; ++n) {
    const std::vector<json> got =
        RunSample(OnTable(script, fmt::format("div{}", n)), "style=divergent");
    ASSERT_EQ(got.size(), script.size());
    const std::vector<json> canonical = RunSample(OnTable(script, fmt::format("div{}", n)));
    for (const json& r : got) extra = extra || r.contains("x-ictk-sample");
    // New constraint IDs above last-constraint-id, with gaps, never reused.
    const json& pk = got[1]["metadata"];
    const int64_t pk_id = pk["constraints"][0]["constraint-id"];
    EXPECT_GE(pk_id, 1);
    gap = gap || pk_id > 1;
    const int64_t last_before_u2 = got[6]["metadata"]["last-constraint-id"];
    for (const json& c : got[7]["metadata"]["constraints"]) {
      if (c["name"] == "u2") EXPECT_GT(c["constraint-id"].get<int64_t>(), last_before_u2);
    }
    for (const json& c : got[2]["metadata"]["constraints"])
      if (c["name"] == "u" && c["field-ids"] == json::array({1, 3})) field_ids_reordered = true;
    // Snapshot IDs that do not count up from 1.
    const json snap = CurrentSnapshot(got[3]);
    ASSERT_FALSE(snap.is_null());
    random_snapshot = random_snapshot || snap["snapshot-id"].get<int64_t>() > 1000;
    // The duplicate key is refused naming the primary key.
    EXPECT_EQ(Outcome(got[4]), "constraint-violation");
    EXPECT_EQ(canonical[4]["error"]["constraint-ids"], json::array({1}));
    if (got[4]["error"].contains("constraint-ids")) {
      EXPECT_EQ(got[4]["error"]["constraint-ids"], json::array({pk_id}));
      ++rejections_with_ids;
    }
    // An enforced check over a violating row: the canonical sample accepts, the divergent
    // one refuses (existing-rows-on-enforce=either).
    EXPECT_EQ(Outcome(canonical[5]), "ok");
    check_outcomes.insert(Outcome(got[5]));
    // Deleting a field u2 references: refused naming u2.
    EXPECT_EQ(Outcome(got[8]), "invalid-schema-change");
    EXPECT_FALSE(canonical[8]["error"].contains("constraint-ids"));
    ASSERT_TRUE(got[8]["error"].contains("constraint-ids")) << got[8].dump();
    int64_t u2 = 0;
    for (const json& c : got[7]["metadata"]["constraints"])
      if (c["name"] == "u2") u2 = c["constraint-id"];
    EXPECT_EQ(got[8]["error"]["constraint-ids"], json::array({u2}));
    // Statuses: every constraint listed exactly once.
    const json st = CurrentStatuses(got[9]);
    std::multiset<int64_t> listed;
    for (const auto& [status, ids] : st.items())
      for (const json& id : ids) listed.insert(id.get<int64_t>());
    EXPECT_EQ(listed.size(), got[9]["metadata"]["constraints"].size()) << st.dump();
  }
  EXPECT_TRUE(gap) << "no constraint ID with a gap in 12 tables";
  EXPECT_TRUE(random_snapshot);
  EXPECT_TRUE(extra);
  EXPECT_TRUE(field_ids_reordered);
  EXPECT_GT(rejections_with_ids, 0);
  EXPECT_EQ(check_outcomes, std::set<std::string>{"constraint-violation"});
}

TEST(SampleDivergent, AReaderRefusesV3MetadataWithConstraintFields) {
  const json v3 = json::parse(RunSample({Create(3, kSchemaV2)})[0]["metadata"].dump());
  json with = v3;
  with["last-constraint-id"] = 0;
  with["constraints"] = json::array();
  const Script script = {fmt::format(R"({{"op": "parse-metadata", "metadata": {}}})",
                                     with.dump()),
                         fmt::format(R"({{"op": "parse-metadata", "metadata": {}}})",
                                     v3.dump())};
  const std::vector<json> canonical = RunSample(script);
  const std::vector<json> divergent = RunSample(script, "style=divergent");
  EXPECT_EQ(Outcome(canonical[0]), "ok");
  EXPECT_EQ(Outcome(divergent[0]), "invalid-metadata");
  EXPECT_EQ(Outcome(divergent[1]), "ok");
}

}  // namespace
}  // namespace ictk::sample_test
