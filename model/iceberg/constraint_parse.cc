/// \file
/// The constraint type and status names read back from text (constraint.h
/// ParseConstraintType, ParseConstraintStatus). Not part of the plain data types
/// (`ictk::model_types`), which only print them.
#include "model/iceberg/constraint.h"

namespace ictk {

std::optional<ConstraintType> ParseConstraintType(std::string_view text) {
  for (ConstraintType t :
       {ConstraintType::kCheck, ConstraintType::kUnique, ConstraintType::kPrimaryKey}) {
    if (ToString(t) == text) return t;
  }
  return std::nullopt;
}

std::optional<ConstraintStatus> ParseConstraintStatus(std::string_view text) {
  for (ConstraintStatus s : kAllStatuses) {
    if (ToString(s) == text) return s;
  }
  return std::nullopt;
}

}  // namespace ictk
