/// \file
/// The Python adapter skeleton of docs/writing-an-adapter.md is real: the first ```python
/// block of that page, run over the exec transport, passes validate-adapter's session.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "adapters/adapter.h"
#include "adapters/conformance.h"
#include "tests/adapters/adapter_test_support_internal.h"

namespace ictk {
namespace {

namespace fs = std::filesystem;

std::string FirstPythonBlock(const std::string& markdown) {
  const std::string open = "```python\n";
  size_t start = markdown.find(open);
  if (start == std::string::npos) return {};
  start += open.size();
  size_t end = markdown.find("\n```", start);
  return end == std::string::npos ? std::string()
                                  : markdown.substr(start, end - start + 1);
}

TEST(WritingAnAdapter, PythonSkeletonPassesValidateAdapter) {
  SCOPED_TRACE("proto.answer");
  std::ifstream in(fs::path(ICTK_SOURCE_DIR) / "docs/writing-an-adapter.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string code = FirstPythonBlock(text.str());
  ASSERT_FALSE(code.empty()) << "no ```python block in docs/writing-an-adapter.md";
  fs::path script = fs::temp_directory_path() /
                    ("ictk_doc_adapter_" + std::to_string(::getpid()) + ".py");
  std::ofstream(script) << code;
  {
    AdapterOptions o;
    o.timeout_ms = 5000;
    auto adapter =
        MakeAdapter("exec:" + testing_support::ShellQuote(testing_support::Python()) +
                        " " + testing_support::ShellQuote(script.string()),
                    o, {});
    ASSERT_TRUE(adapter.has_value()) << adapter.error().message;
    ConformanceReport report = RunConformanceSession(**adapter);
    EXPECT_TRUE(report.ok()) << FormatConformanceReport(report, /*verbose=*/true);
    EXPECT_TRUE(report.capabilities.empty());
  }
  fs::remove(script);
}

}  // namespace
}  // namespace ictk
