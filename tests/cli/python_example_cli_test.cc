/// \file
/// The Python example adapter (examples/python-adapter/, issue 35): an in-memory v4 writer
/// that declares only `check` and `unique`, `constraint-ops: ["add-constraint"]` and a
/// subset of the expression operators passes `validate-adapter` and certifies CONFORMANT,
/// with the corpus, its scope named on the verdict line and on the badge; the harness sends
/// it no op and no operator it did not declare.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/cli/cli_support_internal.h"

namespace ictk {
namespace {

using nlohmann::json;
using testing::ReadJsonl;
using testing::ReadText;
using testing::RunIctk;
using testing::TempDir;

const char* kExample = "'exec:python3 examples/python-adapter/adapter.py'";

TEST(PythonExampleCli, PassesValidateAdapter) {
  const auto r = RunIctk(std::string("validate-adapter --adapter ") + kExample);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("profile: v4 writer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("capabilities: check, unique"), std::string::npos) << r.out;
  // The writer session ran its core steps on the example's own table.
  for (const char* step : {"a v4 table", "append two rows", "delete a row",
                           "rewrite data files", "the rows of the first snapshot"})
    EXPECT_NE(r.out.find(step), std::string::npos) << step << "\n" << r.out;
}

TEST(PythonExampleCli, CertifiesConformantWithItsScopeNamed) {
  TempDir dir("ictk-pyex");
  const auto r = RunIctk(std::string("certify --adapter ") + kExample +
                         " --histories 30 --seed 1 --jobs 2 --quiet --color never --out '" +
                         dir / "run" + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // The verdict line (the first line of the console) names the profile, the capabilities
  // certified and the narrower constraint ops declared in `hello`.
  const std::string verdict = r.out.substr(0, r.out.find('\n'));
  EXPECT_NE(verdict.find(": CONFORMANT (v4 writer profile, check + unique"), std::string::npos)
      << r.out;
  EXPECT_NE(verdict.find("add-constraint only"), std::string::npos) << verdict;
  EXPECT_EQ(r.out.find("NOT CONFORMANT"), std::string::npos) << r.out;

  const json badge = json::parse(ReadText(dir / "run/badge.json"));
  const std::string message = badge.value("message", "");
  EXPECT_EQ(message.rfind("conformant: v4 writer, check + unique", 0), 0u) << badge.dump();
  EXPECT_NE(message.find("(30 histories and "), std::string::npos) << badge.dump();
  EXPECT_EQ(badge.value("color", ""), "brightgreen") << badge.dump();

  const std::vector<json> records = ReadJsonl(dir / "run/report.jsonl");
  ASSERT_GE(records.size(), 2u);
  const json& header = records.front();
  EXPECT_EQ(header.value("profile", ""), "v4 writer");
  EXPECT_EQ(header.at("hello").value("constraint-ops", json::array()),
            json::array({"add-constraint"}));
  const json& totals = records.back();
  ASSERT_EQ(totals.value("type", ""), "totals");
  EXPECT_EQ(totals.value("capability-scope", "").rfind("check + unique", 0), 0u)
      << totals.value("capability-scope", "");
  // The corpus ran (its fixtures count among the cases), and only declared ops were sent:
  // the core ops and add-constraint, never an update or a removal of a constraint.
  size_t fixtures = 0;
  for (const json& rec : records)
    if (rec.value("type", "") == "case" && rec.value("index", 0) < 0) ++fixtures;
  EXPECT_GT(fixtures, 0u);
  std::set<std::string> ops;
  for (const auto& [op, n] : totals.at("ops").items()) ops.insert(op);
  EXPECT_TRUE(ops.count("add-constraint")) << totals.at("ops").dump();
  EXPECT_TRUE(ops.count("commit")) << totals.at("ops").dump();
  for (const std::string& op : ops)
    EXPECT_TRUE((std::set<std::string>{"hello", "create-table", "load-table",
                                       "add-constraint", "commit", "scan"}
                     .count(op)))
        << op << " was sent: " << totals.at("ops").dump();
}

}  // namespace
}  // namespace ictk
