/// \file
/// A failing history drawn as inline SVG for report.html (docs/certify.md "The picture"):
/// the steps left to right, snapshots on the main line, a transaction's staged commit as
/// a fork from its base and `finish` as the retry landing on the new parent; one row per
/// constraint with the status each snapshot records (and the allowed set where the
/// answer is outside it); the rows each commit adds, removes and modifies, keys that
/// collide under a unique or primary key marked; the failing step in red with its rule
/// and sentence. Drawn from the failure's step table alone (requests and answers), so old
/// reports draw too. No label is cut: the columns are sized to their texts and the
/// caption wraps; the SVG takes the width of its box. No script, no external reference.
#pragma once

#include <string>

#include "reports/report.h"

namespace ictk {

/// `<svg class="history" ...>...</svg>`, or "" when the failure has no steps.
std::string HistorySvg(const FailureDetail& failure, const std::string& sentence);

}  // namespace ictk
