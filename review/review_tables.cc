/// \file
/// The tables `ictk review` walks (review.h): the rules that decide each switch, the
/// comparisons per switch, and the open points of docs/interpretations.md.
#include <fmt/format.h>

#include "review/review.h"

namespace ictk {

std::vector<RuleId> SwitchRules(std::string_view name) {
  // The rules whose sentences docs/interpretations.md quotes for each switch.
  static const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>
      kTable = {
          {"modified-counts-as-added", {"enf.modified-row"}},
          {"stale-ids-in-new-snapshot",
           {"st.exactly-one-list", "id.readers-tolerate-missing"}},
          {"compaction-counts-as-added", {"st.no-add-carry"}},
          {"key-promotions", {"sch.key-promotion-ok"}},
          {"status-carry", {"st.no-add-carry", "st.unvalidated"}},
          {"existing-rows-on-enforce", {"enf.enforced"}},
          {"unenforced-may-reject", {"enf.not-enforced"}},
          {"v3-constraint-fields", {"def.v4-only"}},
          {"name-case", {"def.name-unique"}},
          {"udf-check-carries-invalid", {"expr.udf-status", "st.invalid"}},
          {"restated-definition", {"upd.name-enforced-only", "upd.definition-immutable"}},
          {"invalid-metadata-on-read", {"def.single-pk", "def.id-unique"}},
      };
  std::vector<RuleId> out;
  for (const auto& [n, rules] : kTable) {
    if (n != name) continue;
    for (std::string_view r : rules)
      if (std::optional<RuleId> id = ParseRuleId(r)) out.push_back(*id);
  }
  return out;
}

std::string_view SwitchWeights(std::string_view name) {
  if (name == "compaction-counts-as-added") return "replace=20";
  if (name == "key-promotions") return "update-schema=30";
  if (name == "udf-check-carries-invalid") return "define-function=15,validate=10";
  if (name == "restated-definition") return "update-constraint=20";
  if (name == "invalid-metadata-on-read") return "parse-metadata=20,read-statuses=10";
  if (name == "v3-constraint-fields") return "parse-metadata=20,read-statuses=10";
  return "";
}

std::vector<std::pair<std::string, std::string>> SwitchComparisons(const SwitchInfo& info) {
  std::vector<std::pair<std::string, std::string>> out;
  if (info.values.empty()) return out;
  const std::string def(info.values[0]);
  for (size_t i = 1; i < info.values.size(); ++i)
    out.emplace_back(def, std::string(info.values[i]));
  if (def == "either")
    for (size_t i = 1; i < info.values.size(); ++i)
      for (size_t j = i + 1; j < info.values.size(); ++j)
        out.emplace_back(std::string(info.values[i]), std::string(info.values[j]));
  return out;
}

const std::vector<OpenPoint>& OpenPoints() {
  // Titles verbatim from the first column of docs/interpretations.md's table
  // (ReviewTables.OpenPointsMatchTheDoc checks it).
  // Fields: title, label, after_label, open_outcome, not_shown, reader, reject_kind,
  // decided, rule. A point with a written history (OpenPointHistories) is shown by it first.
  constexpr std::string_view kLintOnly =
      "not about the outcome of a request: it is how `ictk lint-metadata` judges metadata "
      "alone, once the history that wrote it is gone. A request is judged with its history "
      "known (the model's state holds which schemas, constraints and snapshots each step "
      "added), so no history leaves this choice open";
  static const std::vector<OpenPoint> kPoints = {
      {"an ID listed twice in the same status list", "", "", false, "", false, "",
       "a reader takes the status (`ReaderStatus`); a writer that lists an ID twice fails "
       "st.exactly-one-list"},
      {"constraint ID 0 or less, or above `last-constraint-id`, in metadata given to a "
       "reader",
       "read-statuses/id-above-last", "", true, "", true},
      {"a snapshot listing an ID above `last-constraint-id` or absent from `constraints`",
       "read-statuses/missing-constraint", "", false, "", true},
      {"statuses that contradict across snapshots in metadata given to a reader", "", "",
       false, "", false, "",
       "a reader accepts it (`parse-metadata` must not refuse it for this); only "
       "`lint-metadata` reports `valid` whose parent does not read `validated` or `valid` "
       "(st.valid)"},
      {"`valid` recorded for a check that calls a UDF, in metadata", "", "", false, "",
       false, "",
       "a reader accepts it (`parse-metadata` must not refuse it for this); only "
       "`lint-metadata` reports it (expr.udf-status)"},
      {"changing the type of a check-referenced field while removing that check in the "
       "same change",
       "", "", false, "", false, "",
       "allowed: the check no longer exists after the change", "sch.check-no-type-change"},
      {"`create-table` of a v4 table whose schema carries `identifier-field-ids`",
       "create-table/v4-identifiers", "", true, ""},
      {"after an upgrade, the pre-existing schema still carrying `identifier-field-ids`",
       "read-statuses/identifiers-in-v4", "", false, "", true},
      {"which schemas of a v4 table were \"added to a v4 table\", given only the metadata",
       "", "", true, kLintOnly},
      {"which constraints existed when a snapshot was written, given only the metadata",
       "", "", true, kLintOnly},
      {"st.every-snapshot in metadata alone", "", "", true, kLintOnly},
      {"a UDF redefined as not deterministic while a check calls it", "",
       "define-function/redefine", true, "", false, "unverifiable-constraint"},
      {"a check calling a function the catalog does not define", "", "", false, "", false,
       "", "the request is rejected (expr.deterministic): no definition declares the "
       "function deterministic"},
      {"what the harness cannot see: whether a writer \"checked\" before recording "
       "`validated`",
       "append/", "", true, ""},
      {"a check that cannot be evaluated on some row (an undefined UDF)", "", "", true,
       "no request reaches it: an `add-constraint` whose check calls a function the catalog "
       "does not define is rejected, enforced or not (expr.deterministic, the point above), "
       "and the protocol has no request that removes a definition, so such a check exists "
       "only in metadata given to a reader, which takes the status recorded (the model "
       "allows only `unvalidated` where it computes the status itself)"},
      {"an expression that does not bind (types that cannot be aligned, a comparison of "
       "a whole list or map, an unknown built-in)",
       "", "", false, "", false, "", "the request is rejected (expr.well-typed)"},
      {"def.by-field-id", "", "", false, "", false, "",
       "a reference by name is rejected (expr.id-references)"},
      {"`timestamp-ms` on an update that changes nothing (same name, same enforced)", "",
       "", false, "", false, "",
       "the update is accepted, and `timestamp-ms` may stay or move: \"must be updated "
       "when the constraint is updated\" applies only when something was updated "
       "(`CheckUpdTimestamp`)",
       "upd.timestamp"},
      {"the `name` and `enforced` of an `add-constraint` request", "", "", false, "", false,
       "", "the request is rejected (def.required-fields): `type`, `name` and `enforced` "
       "are required in a request as in metadata"},
  };
  return kPoints;
}

}  // namespace ictk
