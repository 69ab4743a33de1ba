/// \file
/// Table lifetime (docs/protocol.md section 3): the sample keeps the tables of its last
/// four create-tables, with their functions, and forgets older ones, so that its memory is
/// flat over a long run; the kept tables answer as before.
#include <gtest/gtest.h>

#include "tests/sample/script_util.h"

namespace ictk::sample_test {
namespace {

std::string On(const std::string& request, const std::string& table) {
  json j = json::parse(request);
  j["table"] = table;
  return j.dump();
}

std::string DefinePositive(const std::string& name) {
  return fmt::format(
      R"({{"op": "define-function", "name": "{}", "deterministic": true, "parameters": [{{"name": "x", "type": "int"}}], "return-type": "boolean", "body": {{"type": "gt", "left": {{"type": "parameter", "name": "x"}}, "right": 0}}}})",
      name);
}

std::string CheckCalling(const std::string& name, const std::string& function) {
  return AddCheck(
      name,
      fmt::format(
          R"({{"type": "eq", "left": {{"type": "apply", "function": "{}", "arguments": [{{"type": "reference", "id": 2}}]}}, "right": true}})",
          function),
      true);
}

TEST(SampleTableLifetime, KeepsTheLastFourTablesAndTheirFunctions) {
  Script s;
  // Six histories' tables, t0 .. t5, each defining its own function f0 .. f5.
  for (int i = 0; i < 6; ++i) {
    const std::string t = "t" + std::to_string(i);
    s.push_back(On(Create(), t));                          // 6 * i
    s.push_back(DefinePositive("f" + std::to_string(i)));  // 6 * i + 1
    s.push_back(On(Append({RowJson("r1", 1, "5")}), t));   // 6 * i + 2
    s.push_back(On(R"({"op": "load-table"})", t));         // 6 * i + 3
    s.push_back(On(R"({"op": "load-table"})", "t0"));      // 6 * i + 4
    s.push_back(On(CheckCalling("c" + std::to_string(i), "f0"), t));  // 6 * i + 5
  }
  const size_t after = s.size();
  for (int i = 0; i < 6; ++i)
    s.push_back(On(R"({"op": "load-table"})", "t" + std::to_string(i)));
  s.push_back(On(CheckCalling("late", "f5"), "t5"));
  s.push_back(On(CheckCalling("gone", "f1"), "t5"));
  s.push_back(On(CheckCalling("never", "no_such_function"), "t5"));
  s.push_back(On(Create(), "t0"));  // a forgotten name may be created again

  const auto r = RunSample(s);
  ASSERT_EQ(r.size(), s.size());
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(Outcome(r[6 * i]), "ok") << i;
    EXPECT_EQ(Outcome(r[6 * i + 3]), "ok") << i;
  }
  // t0 lives through the creation of t1, t2, t3 (four tables kept) and goes with t4's.
  EXPECT_EQ(Outcome(r[6 * 3 + 4]), "ok");
  EXPECT_EQ(Outcome(r[6 * 4 + 4]), "invalid-request");
  EXPECT_NE(r[6 * 4 + 4]["error"]["message"].get<std::string>().find("t0"),
            std::string::npos);
  // f0 goes with t0: a check calling it is answered as one calling no function at all.
  EXPECT_EQ(Outcome(r[6 * 3 + 5]), "ok");
  EXPECT_EQ(Outcome(r[6 * 4 + 5]), Outcome(r[after + 8]));
  EXPECT_NE(Outcome(r[6 * 4 + 5]), "ok");
  // At the end t2 .. t5 are kept, t0 and t1 forgotten.
  EXPECT_EQ(Outcome(r[after + 0]), "invalid-request");
  EXPECT_EQ(Outcome(r[after + 1]), "invalid-request");
  for (int i = 2; i < 6; ++i) EXPECT_EQ(Outcome(r[after + i]), "ok") << i;
  // A kept table answers as it did (t5's check on f0 was refused: nothing changed).
  EXPECT_EQ(r[after + 5]["metadata"], r[6 * 5 + 3]["metadata"]);
  // f5 is kept with t5; f1 went with t1.
  EXPECT_EQ(Outcome(r[after + 6]), "ok");
  EXPECT_EQ(Outcome(r[after + 7]), Outcome(r[after + 8]));
  EXPECT_EQ(Outcome(r[after + 9]), "ok");
}

}  // namespace
}  // namespace ictk::sample_test
