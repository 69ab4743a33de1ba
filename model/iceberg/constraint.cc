/// \file
/// The text forms of constraint types and statuses (seed "Constraint Fields" and
/// "Constraint Validation": `check`, `unique`, `primary-key`; `validated`, `valid`,
/// `invalid`, `unvalidated`).
#include "model/iceberg/constraint.h"

#include <ostream>

namespace ictk {

std::string_view ToString(ConstraintType type) {
  switch (type) {
    case ConstraintType::kCheck:
      return "check";
    case ConstraintType::kUnique:
      return "unique";
    case ConstraintType::kPrimaryKey:
      return "primary-key";
  }
  return "?";
}

std::string_view ToString(ConstraintStatus status) {
  switch (status) {
    case ConstraintStatus::kValidated:
      return "validated";
    case ConstraintStatus::kValid:
      return "valid";
    case ConstraintStatus::kInvalid:
      return "invalid";
    case ConstraintStatus::kUnvalidated:
      return "unvalidated";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, ConstraintType type) {
  return os << ToString(type);
}

std::ostream& operator<<(std::ostream& os, ConstraintStatus status) {
  return os << ToString(status);
}

}  // namespace ictk
