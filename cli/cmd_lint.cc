/// \file
/// `ictk lint-metadata`: decodes each table metadata file and reports every finding of the
/// metadata rules (model/metadata_rules.h) with rule ID and JSON pointer.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/files_internal.h"
#include "codec/json_catalogue.h"
#include "codec/json_table_metadata.h"
#include "codec/json_text.h"
#include "model/metadata_rules.h"

namespace ictk::cli {

int RunLintMetadata(const GlobalOptions& global, const std::vector<std::string>& files,
                    const std::string& format) {
  bool unreadable = false;
  bool findings_seen = false;
  nlohmann::json report = nlohmann::json::array();
  for (const std::string& path : files) {
    auto text = ReadFile(path);
    Result<TableMetadata> metadata =
        text.and_then([&](const std::string& t) { return ParseJsonText(t, path); })
            .and_then([&](const nlohmann::json& j) -> Result<TableMetadata> {
              // A REST LoadTable response carries the metadata under "metadata".
              if (j.is_object() && !j.contains("format-version") && j.contains("metadata"))
                return TableMetadataFromJson(j["metadata"], "/metadata");
              return TableMetadataFromJson(j, "");
            });
    if (!metadata) {
      unreadable = true;
      if (format == "json") {
        report.push_back({{"file", path}, {"error", metadata.error().message}});
      } else {
        std::fprintf(stderr, "%s: error: %s\n", path.c_str(), metadata.error().message.c_str());
      }
      continue;
    }
    Findings findings = LintMetadata(*metadata, FunctionCatalog{}, global.switches);
    findings_seen = findings_seen || !findings.empty();
    if (format == "json") {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& f : findings) list.push_back(FindingToJson(f));
      report.push_back({{"file", path}, {"findings", list}});
      continue;
    }
    for (const auto& f : findings) {
      fmt::print("{}: {} at {}: {}\n", path, RuleIdName(f.rule),
                 f.pointer.empty() ? "/" : f.pointer, f.detail);
    }
  }
  if (format == "json") {
    // DumpJson: an error message may quote invalid UTF-8 from the input.
    std::puts(DumpJson(report, 2).c_str());
  } else if (!unreadable) {
    fmt::print("{} file(s) checked: {}\n", files.size(),
               findings_seen ? "findings reported" : "no findings");
  }
  if (unreadable) return 2;
  return findings_seen ? 1 : 0;
}

}  // namespace ictk::cli
