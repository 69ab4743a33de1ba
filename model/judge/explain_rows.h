/// \file
/// What a failure's constraint says about the rows a commit writes (docs/certify.md,
/// "Findings that show the evaluation"): for a check, its evaluation on the rows
/// concerned, step by step (ExplainCheck, from the one evaluator); for a key, which rows
/// carry the same key, or that the written keys are distinct and which rows are not
/// compared for a null. Only for messages: no verdict depends on it.
#pragma once

#include <string>

#include "model/iceberg/constraint.h"
#include "model/judge/requests.h"
#include "model/judge/table_state.h"

namespace ictk {

/// The evaluation of constraint `id` on the rows that `request` (a commit, or the finish
/// of a transaction's staged commit) writes, judged in `state`; "" for any other request
/// or when the constraint or schema is not there. A check shows its violating rows
/// first, else the rows whose referenced values are null or NaN, at most three; a key its
/// first collision with the live rows after the commit, else its written keys.
std::string ExplainRows(const CatalogState& state, const Request& request, ConstraintId id);

}  // namespace ictk
