/// \file
/// The sample mutants that get what holds, enforcement and statuses wrong (sem.*, enf.*,
/// st.*): for each mutant, a script on which it first answers differently from the
/// correct sample, and what the correct sample answers there (mutant_cases.h).
#pragma once

#include <string>
#include <vector>

#include "tests/sample/mutant_case_util.h"

namespace ictk::sample_test {
namespace mutant_cases {

/// sem.*: what holds.
inline std::vector<MutantCase> SemCases() {
  return {
      // sem.unique/distinct: (1, 5) and (1, 6) are distinct keys
      {"unique-first-field-only",
       {Create(), AddUnique("u", "[1, 2]"),
        Append({RowJson("r1", 1, "5"), RowJson("r2", 1, "6")})},
       3,
       IsOutcome("ok")},
      // sem.primary-key/distinct: ("c1", 1) and ("c1", 2) are distinct keys
      {"pk-first-field-only",
       {Create(), AddPk("[4, 1]"),
        Append({RowJson("r1", 1),
                R"({"key": "r2", "values": {"1": 2, "4": "c1", "10": {"11": 0}}})"})},
       3,
       IsOutcome("ok")},
      // sem.unique
      {"unique-compares-nulls",
       {Create(), AddUnique("u", "[3]"), Append({RowJson("r1", 1), RowJson("r2", 2)})},
       3,
       IsOutcome("ok")},
      // sem.check
      {"three-valued-nulls",
       {Create(),
        AddCheck("c",
                 R"({"type": "gt", "left": {"type": "reference", "id": 2}, "right": 0})",
                 true),
        Append({RowJson("r1", 1)})},
       3,
       IsOutcome("constraint-violation")},
      // sem.check (bucket[16] of the long 34 is 3 by Iceberg's Murmur3)
      {"bucket-wrong-hash",
       {Create(),
        AddCheck(
            "c",
            R"({"type": "eq", "left": {"type": "apply", "function": "bucket", "catalog": "iceberg_functions", "arguments": [16, {"type": "reference", "id": 1}]}, "right": 3})",
            true),
        Append({RowJson("r1", 34)})},
       3,
       IsOutcome("ok")},
  };
}

/// enf.*: enforcement and retries.
inline std::vector<MutantCase> EnfCases() {
  return {
      // enf.keys-against-remaining/among-added
      {"added-keys-not-compared",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1), RowJson("r2", 1)})},
       3,
       IsOutcome("constraint-violation")},
      // enf.retry-new-constraints/changed-to-enforced
      {"retry-misses-enforce-change",
       {Create(), AddCheck("c", kQtyPositive, false), R"({"op": "begin", "txn": "w"})",
        Append({RowJson("r1", 1, "-1")}, "w"),
        R"({"op": "update-constraint", "name": "c", "set": {"enforced": true}})",
        R"({"op": "finish", "txn": "w"})"},
       6,
       IsOutcome("constraint-violation")},
      // enf.keys-against-remaining
      {"keys-only-among-added",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1)}), Append({RowJson("r2", 1)})},
       4,
       IsOutcome("constraint-violation")},
      // enf.keys-against-remaining
      {"keys-before-removals",
       {Create(), AddPk("[1]"), Append({RowJson("r1", 1)}),
        fmt::format(
            R"({{"op": "commit", "operation": "overwrite", "remove": ["r1"], "add": [{}]}})",
            RowJson("r2", 1))},
       4,
       IsOutcome("ok")},
      // enf.modified-row
      {"modified-not-rechecked",
       {Create(), AddCheck("c", kQtyPositive, true), Append({RowJson("r1", 1, "5")}),
        fmt::format(R"({{"op": "commit", "operation": "overwrite", "modify": [{}]}})",
                    RowJson("r1", 1, "-1"))},
       4,
       IsOutcome("constraint-violation")},
      // enf.not-enforced
      {"unenforced-rejects",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "-1")})},
       3,
       IsOutcome("ok")},
      // enf.retry-keys-new-parent
      {"retry-against-original-parent",
       {Create(), AddPk("[1]"), R"({"op": "begin", "txn": "w"})",
        Append({RowJson("r1", 1)}, "w"), Append({RowJson("r2", 1)}),
        R"({"op": "finish", "txn": "w"})"},
       6,
       IsOutcome("constraint-violation")},
      // enf.retry-new-constraints
      {"retry-misses-new-enforced",
       {Create(), R"({"op": "begin", "txn": "w"})", Append({RowJson("r1", 1, "-1")}, "w"),
        AddCheck("c", kQtyPositive, true), R"({"op": "finish", "txn": "w"})"},
       5,
       IsOutcome("constraint-violation")},
      // enf.retry-recompute-statuses
      {"statuses-not-recomputed-on-retry",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "begin", "txn": "w"})", Append({RowJson("r2", 2, "6")}, "w"),
        Append({RowJson("r3", 3, "-1")}), R"({"op": "finish", "txn": "w"})"},
       7,
       IsStatuses(R"({"invalid": [1]})")},
      // enf.retry-recompute-statuses: a concurrent commit appends a row that breaks the
      // unenforced check; the retried delete adds no rows, and carries the new parent's
      // invalid no further (it removes rows): unvalidated, not the base's validated.
      {"retry-carries-base-status",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "begin", "txn": "w"})",
        R"({"op": "commit", "operation": "delete", "remove": ["r1"], "txn": "w"})",
        Append({RowJson("r3", 3, "-1")}), R"({"op": "finish", "txn": "w"})"},
       7,
       IsStatuses(R"({"unvalidated": [1]})")},
      // enf.retry-keys-new-parent: the only concurrent commit is another transaction's
      // finish, whose staged row has the key the outer transaction stages.
      {"retry-blind-to-other-transactions",
       {Create(), AddPk("[1]"), R"({"op": "begin", "txn": "w"})",
        Append({RowJson("r1", 1)}, "w"), R"({"op": "begin", "txn": "w-1"})",
        Append({RowJson("r2", 1)}, "w-1"), R"({"op": "finish", "txn": "w-1"})",
        R"({"op": "finish", "txn": "w"})"},
       8,
       IsOutcome("constraint-violation")},
  };
}

/// st.*: statuses.
inline std::vector<MutantCase> StatusCases() {
  return {
      // st.validated/checked-holds: the parent's row still breaks the check
      {"validated-after-partial-check",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "-1")}),
        Append({RowJson("r2", 2, "5")})},
       4,
       IsStatuses(R"({"invalid": [1]})")},
      // st.exactly-one-list/one-list
      {"id-in-two-lists",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "-1")})},
       3,
       IsStatuses(R"({"invalid": [1]})")},
      // st.valid
      {"valid-after-unverified-adds",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        Append({RowJson("r2", 2, "-1")})},
       4,
       IsStatuses(R"({"invalid": [1]})")},
      // st.valid
      {"unlisted-parent-validated",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.invalid
      {"invalid-kept-after-delete",
       {Create(), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r1", 1, "-1"), RowJson("r2", 2, "5")}), Delete({"r1"})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.exactly-one-list
      {"status-list-missing-constraint",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.exactly-one-list
      {"stale-id-listed",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "remove-constraint", "name": "c"})", Append({RowJson("r2", 2, "6")})},
       5,
       IsStatuses("{}")},
      // st.reader-lookup
      // def.timestamp-informational/applies: the rename dates the check after the
      // snapshot that lists it validated; a reader still reads it validated.
      {"reader-status-by-timestamp",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        R"({"op": "update-constraint", "name": "c", "set": {"name": "c2"}})",
        R"({"op": "read-statuses", "metadata": "$metadata"})"},
       5,
       IsAt("/statuses", R"({"1": "validated"})")},
      {"reader-unlisted-validated",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        R"({"op": "read-statuses", "metadata": "$metadata"})"},
       4,
       IsAt("/statuses", R"({"1": "unvalidated"})")},
      // st.validated/carried (the commit adds a row that breaks the check)
      {"validated-carried-over-adds",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        Append({RowJson("r2", 2, "-1")})},
       4,
       IsStatuses(R"({"invalid": [1]})")},
      // st.invalid/checked (r1 was never checked: c came after it)
      {"unchecked-recorded-invalid",
       {Create(), Append({RowJson("r1", 1, "5")}), AddCheck("c", kQtyPositive, false),
        Append({RowJson("r2", 2, "6")})},
       4,
       IsStatuses(R"({"unvalidated": [1]})")},
      // st.every-snapshot
      {"statuses-omitted-without-adds",
       {Create(), AddCheck("c", kQtyPositive, false), Append({RowJson("r1", 1, "5")}),
        Delete({"r1"})},
       4,
       IsStatuses(R"({"validated": [1]})")},
  };
}

}  // namespace mutant_cases

inline std::vector<MutantCase> EnforcementMutantCases() {
  std::vector<MutantCase> out;
  for (auto group : {mutant_cases::SemCases, mutant_cases::EnfCases, mutant_cases::StatusCases})
    for (MutantCase& c : group()) out.push_back(std::move(c));
  return out;
}

}  // namespace ictk::sample_test
