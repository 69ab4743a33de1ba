/// \file
/// SHA-256 (FIPS 180-4) as lower-case hex, for fixture hashes (FIXTURES.md: the sha256 of
/// the canonical JSON of `{requires, switches, steps}`) and the model version of a report
/// (a hash of the rule catalogue and the switch settings); in base64 for report.html's
/// script hash. Self-contained, no OpenSSL.
#pragma once

#include <string>
#include <string_view>

#include "model/rules/switches.h"

namespace ictk {

/// The SHA-256 digest of `data` as 64 lower-case hex digits.
std::string Sha256Hex(std::string_view data);

/// The SHA-256 digest of `data` in base64 (RFC 4648, padded): the form a
/// Content-Security-Policy hash source takes (`'sha256-…'`, report.html's script).
std::string Sha256Base64(std::string_view data);

/// The model version: the first 12 hex digits of the SHA-256 of every rule ID with its
/// quoted sentence, and every switch with its value. Two runs are comparable only when
/// their model versions are equal.
std::string ModelVersion(const Switches& switches);

}  // namespace ictk
