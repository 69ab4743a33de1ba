/// \file
/// What the files of `ictk review` share (not installed). review.cc runs the review and
/// diffs sentences; review_open_points.cc shows each open point; review_markdown.cc
/// renders review.md and review_html.cc turns it into review.html.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "review/review.h"

namespace ictk::review_internal {

/// Shows an open point of docs/interpretations.md: on its written history, else on the
/// shortest generated history where the model leaves the choice open (or decides it).
OpenPointReview ReviewOpenPoint(const OpenPoint& point, const ReviewOptions& options);

}  // namespace ictk::review_internal
