/// \file
/// The interpretation switches of SPEC.md, as a value passed to the model (never a global).
/// Defaults are the readings the kit certifies against. docs/interpretations.md lists them.
#pragma once

#include <map>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/rules/knockout.h"

namespace ictk {

enum class StatusCarry { kMay, kMust };
enum class ExistingRowsOnEnforce { kEither, kReject, kAccept };
enum class StaleIds { kReject, kAllow };
enum class V3ConstraintFields { kEither, kReject };
enum class KeyPromotions { kFormatVersion, kNone };
enum class NameCase { kSensitive, kInsensitive };
enum class RestatedDefinition { kEither, kReject, kAccept };
enum class InvalidMetadataOnRead { kEither, kReject };

struct Switches {
  bool modified_counts_as_added = true;
  StaleIds stale_ids_in_new_snapshot = StaleIds::kReject;
  bool compaction_counts_as_added = false;
  KeyPromotions key_promotions = KeyPromotions::kFormatVersion;
  StatusCarry status_carry = StatusCarry::kMay;
  ExistingRowsOnEnforce existing_rows_on_enforce = ExistingRowsOnEnforce::kEither;
  bool unenforced_may_reject = false;
  V3ConstraintFields v3_constraint_fields = V3ConstraintFields::kEither;
  NameCase name_case = NameCase::kSensitive;
  /// Beyond SPEC.md's table (docs/interpretations.md): whether a check that calls a UDF may
  /// carry the parent's `invalid` (expr.udf-status vs st.invalid).
  bool udf_check_carries_invalid = false;
  /// Beyond SPEC.md's table: an update-constraint `set` that restates the current
  /// `expression`, `field-ids` (as a set) or `type` (upd.definition-immutable).
  RestatedDefinition restated_definition = RestatedDefinition::kEither;
  /// Beyond SPEC.md's table: a reader (parse-metadata, read-statuses) given v4 metadata
  /// that breaks a def.*, key.* or id.* rule may accept or refuse it (either), or must
  /// refuse it with invalid-metadata (reject).
  InvalidMetadataOnRead invalid_metadata_on_read = InvalidMetadataOnRead::kEither;
  /// Not an interpretation switch (it has no name, `--switch` cannot set it and no
  /// fixture pins it): the format versions the implementation declared in `hello`'s
  /// `format-versions`. A request at a known version outside this set may be refused with
  /// unsupported-format-version (proto.declared-versions, docs/protocol.md section 9).
  /// Default: every known version, as for an implementation that declared them all.
  std::set<int32_t> declared_format_versions = {1, 2, 3, 4};
  /// Not an interpretation switch either: the clause the model judges without, when the
  /// judge asks which clause an answer outside the allowed set broke (knockout.h,
  /// model/judge/blame.h). Always kNone in the outcome an answer is judged by.
  KnockOut knock_out = KnockOut::kNone;

  bool operator==(const Switches&) const = default;
};

/// One switch's description for `ictk rules` and docs: name, allowed values, default, kind.
struct SwitchInfo {
  std::string_view name;
  std::vector<std::string_view> values;  ///< first is the default
  std::string_view kind;                 ///< "reading" | "proposed change"
  std::string_view description;
};

/// Every switch, in SPEC.md order.
const std::vector<SwitchInfo>& AllSwitches();

/// Sets `name=value`; returns an error message (empty on success).
std::string SetSwitch(Switches& switches, std::string_view name, std::string_view value);

/// name -> value of every switch, as text.
std::map<std::string, std::string> SwitchValues(const Switches& switches);

}  // namespace ictk
