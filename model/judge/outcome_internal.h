/// \file
/// What the parts of judging an answer share (not installed): outcome.cc judges the
/// answer's result and a rejection, judge_metadata.cc a metadata answer (constraints,
/// snapshot and statuses, schemas, the Iceberg rules, timestamps), judge_reads.cc the
/// answers of scan, read-statuses and parse-metadata; judge_checks.cc is the table of
/// what Judge checks.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/iceberg/schema.h"
#include "model/iceberg/table_metadata.h"
#include "model/judge/outcome.h"
#include "model/rules/finding.h"

namespace ictk::internal {

inline Finding MakeFinding(RuleId rule, std::string detail,
                           std::optional<ConstraintId> id = std::nullopt,
                           std::string pointer = {}) {
  return Finding{rule, id, std::move(pointer), std::move(detail)};
}

/// The same, naming the clause (model/rules/clause.h).
inline Finding MakeFinding(Clause clause, std::string detail,
                           std::optional<ConstraintId> id = std::nullopt,
                           std::string pointer = {}) {
  return Finding{clause.rule, id, std::move(pointer), std::move(detail), clause.name};
}

/// A metadata answer against the expectation (judge_metadata.cc).
void JudgeMetadata(const MetadataExpectation& exp, const TableMetadata& md,
                   Findings& out);

/// A scan answer's rows against the live rows (judge_reads.cc).
void JudgeRows(const std::map<std::string, Value>& want, const Schema& schema,
               const std::optional<std::vector<Row>>& got, Findings& out);

/// A read-statuses answer against the statuses allowed (judge_reads.cc).
void JudgeReaderStatuses(
    const std::map<ConstraintId, StatusSet>& want,
    const std::optional<std::map<ConstraintId, ConstraintStatus>>& got, Findings& out);

/// parse-metadata: the reader's re-serialization of `want`. What it must keep of the
/// constraint fields is def.reader-preserves (CheckReaderPreserves, with the pointer of
/// what went missing); the format version, the current snapshot and every snapshot are
/// the protocol's convention (proto.answer: "answer it re-serialized").
void JudgeParsed(const TableMetadata& want, bool may_drop, const TableMetadata& got,
                 Findings& out);

}  // namespace ictk::internal
