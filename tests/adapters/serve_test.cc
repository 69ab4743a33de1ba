/// \file
/// `ictk serve --adapter SPEC` over the exec transport: it answers like the adapter
/// behind it, byte for byte; a line that is not JSON gets `invalid-request` with `"id":
/// null`;
/// `--isolate` runs builtin:reference behind it. Skipped when the ictk executable is not
/// built.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "adapters/adapter.h"
#include "adapters/reference_adapter.h"
#include "codec/json_text.h"
#include "tests/adapters/adapter_test_support_internal.h"

namespace ictk {
namespace {

using nlohmann::json;
using testing_support::ChildProcesses;
using testing_support::ShellQuote;

std::string Ictk() {
  std::string path = std::string(ICTK_BIN_DIR) + "/ictk";
  return ::access(path.c_str(), X_OK) == 0 ? path : std::string();
}

std::vector<json> Session() {
  std::vector<json> out;
  for (const char* text :
       {R"({"op": "hello", "protocol-version": 1})",
        R"({"op": "create-table", "table": "s", "now-ms": 1, "format-version": 4,
               "schema": {"type": "struct", "schema-id": 0, "fields": [
               {"id": 1, "name": "k", "required": true, "type": "long"},
               {"id": 2, "name": "v", "required": false, "type": "string"}]}})",
        R"({"op": "add-constraint", "table": "s", "now-ms": 2, "constraint":
               {"type": "primary-key", "name": "pk", "enforced": true, "field-ids": [1]}})",
        R"({"op": "commit", "table": "s", "now-ms": 3, "operation": "append",
               "add": [{"key": "a", "values": {"1": 1, "2": "x"}}]})",
        R"({"op": "commit", "table": "s", "now-ms": 4, "operation": "append",
               "add": [{"key": "b", "values": {"1": 1}}]})",
        R"({"op": "scan", "table": "s"})", R"({"op": "frobnicate"})"}) {
    json j = json::parse(text);
    j["id"] = static_cast<int>(out.size()) + 1;
    out.push_back(j);
  }
  return out;
}

TEST(Serve, AnswersLikeTheAdapterBehindIt) {
  std::string ictk = Ictk();
  if (ictk.empty()) GTEST_SKIP() << "the ictk executable is not built";
  {
    auto served = MakeAdapter(
        "exec:" + ShellQuote(ictk) + " serve --adapter builtin:reference", {}, {});
    ASSERT_TRUE(served.has_value()) << served.error().message;
    auto direct = MakeReferenceAdapter();
    for (const json& request : Session()) {
      auto a = (*served)->Call(request);
      auto b = direct->Call(request);
      ASSERT_TRUE(a.has_value()) << a.error().message;
      ASSERT_TRUE(b.has_value());
      EXPECT_EQ(DumpJson(*a), DumpJson(*b)) << DumpJson(request);
    }
  }
  EXPECT_TRUE(ChildProcesses().empty());
}

TEST(Serve, IsolateRunsAnAdapterBehindServe) {
  std::string ictk = Ictk();
  if (ictk.empty()) GTEST_SKIP() << "the ictk executable is not built";
  {
    AdapterOptions o;
    o.isolate = true;
    o.ictk_path = ictk;
    auto isolated = MakeAdapter("builtin:reference", o, {});
    ASSERT_TRUE(isolated.has_value()) << isolated.error().message;
    auto direct = MakeReferenceAdapter();
    for (const json& request : Session()) {
      auto a = (*isolated)->Call(request);
      ASSERT_TRUE(a.has_value()) << a.error().message;
      EXPECT_EQ(DumpJson(*a), DumpJson(*direct->Call(request)));
    }
  }
  EXPECT_TRUE(ChildProcesses().empty());
}

TEST(Serve, ALineThatIsNotJsonIsAnInvalidRequest) {
  std::string ictk = Ictk();
  if (ictk.empty()) GTEST_SKIP() << "the ictk executable is not built";
  std::string cmd =
      "printf 'not json\\n[1]\\n{\"op\":\"hello\",\"protocol-version\":1,\"id\":5}\\n' "
      "| " +
      ShellQuote(ictk) + " serve --adapter builtin:reference";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::vector<json> lines;
  char buf[65536];
  while (std::fgets(buf, sizeof buf, p)) lines.push_back(json::parse(buf));
  EXPECT_EQ(::pclose(p), 0);
  ASSERT_EQ(lines.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(lines[i]["id"].is_null());
    EXPECT_EQ(lines[i]["result"], "rejected");
    EXPECT_EQ(lines[i]["error"]["kind"], "invalid-request");
  }
  EXPECT_EQ(lines[2]["id"], 5);
  EXPECT_EQ(lines[2]["result"], "ok");
}

TEST(Serve, ACrashBehindServeIsACrash) {
  std::string ictk = Ictk();
  if (ictk.empty()) GTEST_SKIP() << "the ictk executable is not built";
  {
    std::string inner = testing_support::HostileSpec("crash_at_hello");
    auto served = MakeAdapter(
        "exec:" + ShellQuote(ictk) + " serve --adapter " + ShellQuote(inner), {}, {});
    ASSERT_TRUE(served.has_value());
    auto r = (*served)->Call({{"id", 1}, {"op", "hello"}, {"protocol-version", 1}});
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(TransportFailureOf(r.error()), TransportFailure::kCrash)
        << r.error().message;
    EXPECT_NE((*served)->StderrTail().find("status 3"), std::string::npos)
        << (*served)->StderrTail();
  }
  EXPECT_TRUE(ChildProcesses().empty());
}

}  // namespace
}  // namespace ictk
