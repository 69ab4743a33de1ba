/// \file
/// `ictk fingerprint`: a behaviour fingerprint of the model (unlike the model version
/// hash in report headers, it moves exactly when some answer the model allows moves).
/// Every history of up to `steps` requests over a tiny domain is enumerated on the model
/// alone (Apply, CanonicalAnswer, Adopt): one table `t` created as v4, or as v3 with
/// identifier field `k`; columns `k` (int, required) and `v` (int, optional); values
/// {null, 0, 1}; at most two constraints (`pk`: primary-key on `k`, enforced; `pos`:
/// check `v > 0`, not enforced). The alphabet has one or more requests of each op kind:
/// appends of every (k, v) with k in {0, 1}, a delete and two modifications of the oldest
/// live row, adding, toggling `enforced` of and removing each constraint, renaming and
/// dropping `v`, validate, upgrade to v4, a transaction's begin, staged append and
/// finish, and the reads: scan, load-table, and read-statuses and parse-metadata of the
/// table's current metadata (define-function is not in the alphabet). A delete or
/// modification with no live row is not enumerated, and a read (which changes nothing)
/// only as the last request of a history. The fingerprint counts, over the last request
/// of every history, the results allowed, the error kinds of required rejections and each
/// allowed status set, by op, plus a SHA-256 over every history's outcome in enumeration
/// order.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/rules/switches.h"

namespace ictk {

/// The counts of one enumeration.
struct Fingerprint {
  int steps = 0;                           ///< requests after create-table, at most
  std::string switches = "defaults";       ///< the switches that differ from the defaults
  int64_t histories = 0;                   ///< enumerated histories (incl. create only)
  std::map<std::string, int64_t> results;  ///< "ok", "ok-or-rejected", "rejected"
  std::map<std::string, int64_t> rejected;  ///< error kinds of required rejections
  std::map<std::string, int64_t> statuses;  ///< "pk {validated, unvalidated}" -> count
  /// op -> result -> count.
  std::map<std::string, std::map<std::string, int64_t>> by_op;
  std::map<int, int64_t> by_length;  ///< requests after create-table -> histories
  std::string digest;                ///< SHA-256 of every history's outcome line
};

/// Enumerates every history of up to `steps` requests after create-table, judged under
/// `switches` (the golden is taken at the defaults).
Fingerprint ComputeFingerprint(int steps, const Switches& switches = {});

/// The canonical JSON (sorted keys; no timing or host data).
nlohmann::json FingerprintToJson(const Fingerprint& fingerprint);

/// The differences of `now` from `golden`, one line each ("results.ok: 120 -> 121");
/// empty when they are equal.
std::vector<std::string> DiffFingerprintJson(const nlohmann::json& golden,
                                             const nlohmann::json& now);

/// The default number of steps (a few seconds at most).
inline constexpr int kDefaultFingerprintSteps = 4;

}  // namespace ictk
