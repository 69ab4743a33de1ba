/// \file
/// Allowed outcomes and the judging of an answer against one (outcome.h).
#include "model/rules/id_rules.h"
#include "model/judge/outcome.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "model/rules/constraint_rules.h"
#include "model/rules/iceberg_rules.h"
#include "model/rules/metadata_rules.h"
#include "model/rules/reader_preserves.h"
#include "model/iceberg/schema.h"
#include "model/iceberg/single_value.h"
#include "model/rules/status_rules.h"
#include "model/judge/table_state.h"
#include "model/iceberg/value_parse.h"
#include "model/judge/outcome_internal.h"

namespace ictk {

using namespace internal;

namespace {

std::string JoinIds(const std::vector<ConstraintId>& ids) {
  return fmt::format("[{}]", fmt::join(ids, ", "));
}

std::string KindsToString(const std::set<RejectKind>& kinds) {
  std::vector<std::string_view> names;
  for (RejectKind k : kinds) names.push_back(ToString(k));
  return fmt::format("{{{}}}", fmt::join(names, ", "));
}

/// Reports `detail` under every rule in `why`, or under proto.answer when none decided.
void FailBecause(Findings& out, const Findings& why, const std::string& detail) {
  if (why.empty()) {
    out.push_back(MakeFinding(RuleId::kProtoAnswer, detail));
    return;
  }
  for (const Finding& f : why) {
    out.push_back(
        Finding{f.rule, f.constraint_id, f.pointer,
                f.detail.empty() ? detail : fmt::format("{}: {}", detail, f.detail),
                f.clause});
  }
}

constexpr std::array<std::string_view, 9> kRejectKindNames = {
    "constraint-violation",      "unverifiable-constraint", "invalid-constraint",
    "invalid-constraint-update", "invalid-schema-change",   "unsupported-format-version",
    "invalid-metadata",          "commit-conflict",         "invalid-request"};

/// "`error.constraint-ids` is optional": when given, each ID must be a constraint the
/// rejection is *about* for its error kind (docs/protocol.md sections 7 and 8;
/// proto.rejection-constraint-ids). Any subset passes, including none. Reported under
/// the convention's own ID, never under the rule that decided the rejection: the result
/// and the kind are right, only the list is not.
void JudgeRejectionConstraintIds(const AllowedOutcome& outcome, RejectKind kind,
                                 const std::vector<ConstraintId>& named, Findings& out) {
  const std::set<ConstraintId>& about = outcome.ConstraintIdsOf(kind);
  for (ConstraintId id : named) {
    if (about.count(id)) continue;
    out.push_back(MakeFinding(
        clauses::kProtoRejectionOnlyAbout,
        fmt::format(
            "the rejection names constraint {}, which this {} is not about ({})", id,
            ToString(kind),
            about.empty()
                ? std::string("it is about no constraint: constraint-ids must be empty "
                              "or absent")
                : fmt::format("allowed: any subset of {}",
                              JoinIds(std::vector<ConstraintId>(about.begin(),
                                                                about.end())))),
        id));
  }
}

/// A refusal (`what`) of a request the model judges well-formed that carries a legal
/// single value at a type extreme or in an unusual spelling (outcome.unusual_values):
/// Iceberg Appendix D makes every such value legal, so the implementation could not read
/// or write it (ice.single-value). Returns whether it reported one.
bool RefusedSingleValue(const AllowedOutcome& outcome, const std::string& what,
                        Findings& out) {
  if (outcome.unusual_values.empty()) return false;
  out.push_back(MakeFinding(
      clauses::kIceSingleValueReads,
      fmt::format("answered {} to a request the model judges well-formed; it carries "
                  "legal single values at a type extreme or in an unusual spelling: {}",
                  what, fmt::join(outcome.unusual_values, "; "))));
  return true;
}

}  // namespace

std::string_view ToString(RejectKind kind) {
  return kRejectKindNames[static_cast<size_t>(kind)];
}

const std::set<ConstraintId>& AllowedOutcome::ConstraintIdsOf(RejectKind kind) const {
  static const std::set<ConstraintId> kNone;  // immutable: no hidden state
  auto it = constraint_ids.find(kind);
  return it == constraint_ids.end() ? kNone : it->second;
}

std::set<ConstraintId> AllowedOutcome::AnyConstraintIds() const {
  std::set<ConstraintId> all;
  for (const auto& [kind, ids] : constraint_ids) all.insert(ids.begin(), ids.end());
  return all;
}

std::optional<RejectKind> ParseRejectKind(std::string_view text) {
  for (RejectKind k : kAllRejectKinds)
    if (ToString(k) == text) return k;
  return std::nullopt;
}

std::vector<ConstraintStatus> StatusSet::ToVector() const {
  std::vector<ConstraintStatus> out;
  for (ConstraintStatus s : kAllStatuses)
    if (Contains(s)) out.push_back(s);
  return out;
}

std::string ToString(const StatusSet& set) {
  std::vector<std::string_view> names;
  for (ConstraintStatus s : set.ToVector()) names.push_back(ToString(s));
  return fmt::format("{{{}}}", fmt::join(names, ", "));
}

StatusSet ListedStatuses(const ConstraintStatuses* statuses, ConstraintId id) {
  StatusSet set;
  if (statuses != nullptr) {
    for (ConstraintStatus s : kAllStatuses) {
      const auto& list = statuses->List(s);
      if (list && std::find(list->begin(), list->end(), id) != list->end()) set.Add(s);
    }
  }
  if (set.empty()) set.Add(ReaderStatus(statuses, id));
  return set;
}

ConstraintId LastConstraintId(const TableMetadata& metadata) {
  return LastConstraintIdOrZero(metadata.last_constraint_id);
}

StatusSet ToStatusSet(const std::vector<ConstraintStatus>& statuses) {
  StatusSet set;
  for (ConstraintStatus s : statuses) set.Add(s);
  return set;
}

// --- printing -------------------------------------------------------------------------

std::string ToString(const AllowedOutcome& o) {
  std::string s;
  if (o.ok_allowed && o.reject_allowed) {
    s = fmt::format("ok or rejected {}", KindsToString(o.reject_kinds));
  } else if (o.ok_allowed) {
    s = "ok";
  } else {
    s = fmt::format("rejected {}", KindsToString(o.reject_kinds));
  }
  for (const auto& [kind, ids] : o.constraint_ids) {
    if (ids.empty() || !o.reject_kinds.count(kind)) continue;
    s += fmt::format(" {} constraint-ids ⊆ {}", ToString(kind),
                     JoinIds(std::vector<ConstraintId>(ids.begin(), ids.end())));
  }
  std::vector<std::string> rules;
  for (const Finding& f : o.decided_by) rules.emplace_back(RuleIdName(f.rule));
  if (!rules.empty()) s += fmt::format(" by {}", fmt::join(rules, ", "));
  if (o.metadata && o.metadata->new_snapshot) {
    std::vector<std::string> st;
    for (const StatusExpectation& e : o.metadata->new_snapshot->statuses)
      st.push_back(fmt::format("{}: {}", e.name, ToString(e.allowed)));
    if (!st.empty()) s += fmt::format("; statuses {}", fmt::join(st, ", "));
  }
  if (o.rows) s += fmt::format("; {} live rows", o.rows->size());
  return s;
}

// --- judging --------------------------------------------------------------------------

bool ResultAllowed(const AllowedOutcome& outcome, const Answer& answer) {
  switch (answer.result) {
    case AnswerResult::kOk:
      return outcome.ok_allowed;
    case AnswerResult::kRejected:
      return outcome.reject_allowed && answer.error_kind &&
             outcome.reject_kinds.count(*answer.error_kind) > 0;
    case AnswerResult::kUnsupported:
    case AnswerResult::kError:
      break;
  }
  return false;
}

Findings Judge(const AllowedOutcome& outcome, const Answer& answer) {
  Findings out;
  switch (answer.result) {
    case AnswerResult::kUnsupported:
    case AnswerResult::kError: {
      const std::string what =
          answer.result == AnswerResult::kError ? "error" : "unsupported";
      if (RefusedSingleValue(outcome, what, out)) return out;
      FailBecause(out, outcome.decided_by,
                  fmt::format("answered {}: {}", what, answer.message));
      return out;
    }
    case AnswerResult::kRejected: {
      const std::string kind_text = answer.error_kind
                                        ? std::string(ToString(*answer.error_kind))
                                        : answer.error_kind_text;
      const bool kind_allowed = ResultAllowed(outcome, answer);
      if (!kind_allowed && answer.error_kind == RejectKind::kInvalidRequest &&
          RefusedSingleValue(outcome, "rejected (invalid-request)", out))
        return out;
      if (!outcome.reject_allowed) {
        FailBecause(out, outcome.decided_by,
                    fmt::format("rejected ({}) but the request must succeed", kind_text));
        return out;
      }
      if (!kind_allowed) {
        FailBecause(out,
                    outcome.reject_required_by.empty() ? outcome.decided_by
                                                       : outcome.reject_required_by,
                    fmt::format("rejected with {}, which no cause of this request "
                                "allows (allowed kinds: {})",
                                kind_text, KindsToString(outcome.reject_kinds)));
        return out;
      }
      if (answer.error_constraint_ids)
        JudgeRejectionConstraintIds(outcome, *answer.error_kind,
                                    *answer.error_constraint_ids, out);
      return out;
    }
    case AnswerResult::kOk:
      break;
  }
  if (!outcome.ok_allowed) {
    FailBecause(out,
                outcome.reject_required_by.empty() ? outcome.decided_by
                                                   : outcome.reject_required_by,
                "answered ok but the request must be rejected");
    return out;
  }
  if (outcome.metadata) {
    if (!answer.metadata) {
      out.push_back(MakeFinding(clauses::kProtoAnswerCarries, "the answer carries no metadata"));
    } else {
      JudgeMetadata(*outcome.metadata, *answer.metadata, out);
    }
  }
  if (outcome.rows && outcome.rows_schema)
    JudgeRows(*outcome.rows, *outcome.rows_schema, answer.rows, out);
  if (outcome.reader_statuses)
    JudgeReaderStatuses(*outcome.reader_statuses, answer.statuses, out);
  if (outcome.parsed) {
    if (!answer.metadata) {
      out.push_back(MakeFinding(clauses::kProtoAnswerCarries, "the answer carries no metadata"));
    } else {
      JudgeParsed(*outcome.parsed, outcome.may_drop_constraint_fields, *answer.metadata,
                  out);
    }
  }
  return out;
}

}  // namespace ictk
