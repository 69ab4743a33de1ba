/// \file
/// Constraints and snapshot `constraint-statuses` as JSON (seed "Constraint Fields",
/// "Constraint Validation"). Decoding keeps what the JSON says so that the model judges
/// it: a missing (or null) required member stays nullopt (def.required-fields), and an
/// unknown `type` keeps its text in `raw_type` with `type` nullopt (def.types). Members
/// of the wrong JSON kind are decode errors.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "codec/result.h"
#include "model/iceberg/constraint.h"

namespace ictk {

/// `{"constraint-id", "type", "name", "enforced", "timestamp-ms", "expression"?,
/// "field-ids"?}` (also the request form without ID and timestamp).
Result<Constraint> ConstraintFromJson(const nlohmann::json& json,
                                      std::string_view pointer);
/// Writes the members that are set; `type` as `raw_type` when given, else its spelling.
nlohmann::json ConstraintToJson(const Constraint& constraint);

/// `{"validated"?: [..], "valid"?: [..], "invalid"?: [..], "unvalidated"?: [..]}`; any
/// other member is an error (a misspelled list would otherwise read as "unlisted").
Result<ConstraintStatuses> ConstraintStatusesFromJson(const nlohmann::json& json,
                                                      std::string_view pointer);
nlohmann::json ConstraintStatusesToJson(const ConstraintStatuses& statuses);

}  // namespace ictk
