/// \file
/// `ictk lint-metadata`: decodes each table metadata file and reports every finding of the
/// metadata rules (model/rules/metadata_rules.h) with rule ID and JSON pointer.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/console_internal.h"
#include "cli/files_internal.h"
#include "codec/json_catalogue.h"
#include "codec/json_table_metadata.h"
#include "codec/json_text.h"
#include "codec/protocol.h"
#include "model/rules/metadata_rules.h"

namespace ictk::cli {

int RunLintMetadata(const GlobalOptions& global, const std::vector<std::string>& files,
                    const std::string& format) {
  bool unreadable = false;
  bool findings_seen = false;
  nlohmann::json report = nlohmann::json::array();
  for (const std::string& path : files) {
    // A file that cannot be read or is not JSON is unreadable (exit 2); JSON that is not
    // valid Iceberg table metadata is a finding of ice.metadata-shape, with its pointer.
    std::string base;
    Result<nlohmann::json> doc =
        ReadFile(path).and_then([&](const std::string& t) { return ParseJsonText(t, path); });
    if (!doc) {
      unreadable = true;
      if (format == "json") {
        report.push_back({{"file", path}, {"error", doc.error().message}});
      } else {
        std::fprintf(stderr, "%s: %s %s\n", path.c_str(), ErrorWord().c_str(),
                     doc.error().message.c_str());
      }
      continue;
    }
    // A REST LoadTable response carries the metadata under "metadata".
    const nlohmann::json& j = *doc;
    if (j.is_object() && !j.contains("format-version") && j.contains("metadata"))
      base = "/metadata";
    Result<TableMetadata> metadata = TableMetadataFromJson(base.empty() ? j : j["metadata"], base);
    Findings findings;
    if (metadata)
      findings = LintMetadata(*metadata, FunctionCatalog{}, global.switches);
    else
      findings.push_back(MetadataShapeFindingOf(metadata.error().message, base));
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
