/// \file
/// The printable form of a finding, for reports, `lint-metadata` and test failures.
#include "model/rules/finding.h"

#include <fmt/format.h>

#include <ostream>

namespace ictk {

std::string ToString(const Finding& finding) {
  std::string out(RuleIdName(finding.rule));
  if (finding.constraint_id)
    out += fmt::format(" (constraint {})", *finding.constraint_id);
  if (!finding.pointer.empty()) out += fmt::format(" at {}", finding.pointer);
  if (!finding.detail.empty()) out += fmt::format(": {}", finding.detail);
  return out;
}

std::ostream& operator<<(std::ostream& os, const Finding& finding) {
  return os << ToString(finding);
}

}  // namespace ictk
