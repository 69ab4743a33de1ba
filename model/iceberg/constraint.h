/// \file
/// Constraint definitions and statuses (seed "Constraint Fields", "Constraint Validation").
/// Members a JSON object may lack are optional here so that def.required-fields can be
/// judged by the model rather than lost in decoding.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/expression.h"
#include "model/iceberg/types.h"

namespace ictk {

using ConstraintId = int32_t;
using SnapshotId = int64_t;

enum class ConstraintType { kCheck, kUnique, kPrimaryKey };

/// The four statuses, weakest last. Order matters nowhere but printing.
enum class ConstraintStatus { kValidated, kValid, kInvalid, kUnvalidated };

/// One constraint as stored in metadata or given in an `add-constraint` request (where
/// `id` and `timestamp_ms` are absent).
struct Constraint {
  std::optional<ConstraintId> id;
  std::optional<ConstraintType> type;  ///< nullopt: `raw_type` is not a defined type
  std::string raw_type;                ///< the JSON `type` text as given
  std::optional<std::string> name;
  std::optional<bool> enforced;
  std::optional<int64_t> timestamp_ms;
  std::optional<Expr> expression;
  std::optional<std::vector<FieldId>> field_ids;

  bool operator==(const Constraint&) const = default;
};

/// The `set` of an update-constraint request: which fields the request tries to change.
struct ConstraintUpdate {
  std::optional<std::string> name;
  std::optional<bool> enforced;
  std::optional<Expr> expression;
  std::optional<std::vector<FieldId>> field_ids;
  std::optional<std::string> type;  ///< raw type text
  bool operator==(const ConstraintUpdate&) const = default;
};

/// A snapshot's `constraint-statuses`. nullopt = the list was omitted (an empty list may be).
struct ConstraintStatuses {
  std::optional<std::vector<ConstraintId>> validated;
  std::optional<std::vector<ConstraintId>> valid;
  std::optional<std::vector<ConstraintId>> invalid;
  std::optional<std::vector<ConstraintId>> unvalidated;

  bool operator==(const ConstraintStatuses&) const = default;

  /// The list for one status (may be nullopt).
  const std::optional<std::vector<ConstraintId>>& List(ConstraintStatus s) const {
    switch (s) {
      case ConstraintStatus::kValidated: return validated;
      case ConstraintStatus::kValid: return valid;
      case ConstraintStatus::kInvalid: return invalid;
      case ConstraintStatus::kUnvalidated: break;
    }
    return unvalidated;
  }
  std::optional<std::vector<ConstraintId>>& List(ConstraintStatus s) {
    return const_cast<std::optional<std::vector<ConstraintId>>&>(
        static_cast<const ConstraintStatuses*>(this)->List(s));
  }
};

inline constexpr ConstraintStatus kAllStatuses[] = {
    ConstraintStatus::kValidated, ConstraintStatus::kValid, ConstraintStatus::kInvalid,
    ConstraintStatus::kUnvalidated};

/// "check" / "unique" / "primary-key"; "validated" / "valid" / "invalid" / "unvalidated".
std::string_view ToString(ConstraintType type);
std::string_view ToString(ConstraintStatus status);
std::optional<ConstraintType> ParseConstraintType(std::string_view text);
std::optional<ConstraintStatus> ParseConstraintStatus(std::string_view text);
/// Prints ToString (for gtest and RapidCheck counterexamples).
std::ostream& operator<<(std::ostream& os, ConstraintType type);
std::ostream& operator<<(std::ostream& os, ConstraintStatus status);

}  // namespace ictk
