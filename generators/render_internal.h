/// \file
/// What the render steps of HistoryRenderer (history.h) share (not installed): the
/// context one render call sees, how a step is made, and the steps of each kind, each in
/// the file named after it:
///
/// - render.cc: the renderer itself, create-table, transactions and the plain dispatch;
/// - render_rows.cc: the rows a step writes and which live rows break a constraint;
/// - render_commits.cc: append, delete, overwrite, modify, replace;
/// - render_constraints.cc: add, update and remove constraints, define-function, validate;
/// - render_invalid_constraint.cc: add-constraint steps that must be refused;
/// - render_schema.cc: update-schema steps about constraints, and upgrades;
/// - render_schema_invalid.cc: schema changes and schemas Iceberg must refuse;
/// - render_reads.cc: scan, read-statuses, parse-metadata;
/// - render_repairs.cc: steps that stand in for a planned one to repair the precondition
///   of a rare clause (a UDF check's status chain, a primary key's optional parent).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "generators/constraint_gen.h"
#include "generators/history.h"
#include "model/iceberg/evaluate.h"
#include "model/judge/table_state.h"

namespace ictk::render_internal {

using Slot = HistoryRenderer::Slot;
using Counters = HistoryRenderer::Counters;

/// What one render call sees.
struct Ctx {
  const CatalogState& state;
  const TableState* table;  ///< nullptr before create-table
  const RenderOptions& options;
  Counters& counters;
  const PlanStep& step;
  bool plain_values = false;  ///< TablePlan::plain_values

  const TableMetadata& md() const { return table->metadata; }
  const Schema* schema() const { return table->metadata.CurrentSchema(); }
  const std::vector<Constraint>& constraints() const { return ConstraintsOf(md()); }
  const Capabilities& caps() const { return options.capabilities; }
  uint64_t Seed(uint64_t salt) const {
    return step.seed ^ (salt * 0x9E3779B97F4A7C15ULL);
  }
  /// A choice in [0, n) from the step's `pick` and a salt.
  size_t Pick(size_t n, uint32_t salt = 0) const {
    return n == 0 ? 0 : (static_cast<size_t>(step.pick) + salt * 7919u) % n;
  }
  uint32_t Flavour(uint32_t n) const { return step.flavour % n; }
};

// --- making a step (render.cc) -----------------------------------------------------------

RenderedStep Make(Operation op, const std::string& table, std::string label,
                  Intent intent = Intent::kAny,
                  std::optional<RuleId> aimed_at = std::nullopt,
                  std::vector<RuleId> tags = {});

/// "key.pk-required/own-flag".
std::string Clause(RuleId rule, std::string_view name);

// --- rows (render_rows.cc) ---------------------------------------------------------------

std::vector<std::string> SortedKeys(const LiveRows& rows);

/// Sets the value at `path` in a request-form struct; a null enclosing struct is left
/// null (its members are then null too).
void SetAtPath(Value& row, const std::vector<FieldId>& path, Value value,
               size_t depth = 0);

/// One field of a key constraint that the rows can hold (not in a list or map).
struct KeyPart {
  FieldId id = 0;
  std::vector<FieldId> path;
  Type type;
};

std::vector<KeyPart> KeyParts(const Constraint& c, const Schema& schema);

bool IsKey(const Constraint& c);

/// Whether a typed row breaks a check (false or not evaluable) under `functions`.
bool BreaksCheck(const Constraint& c, const Value& typed, const Schema& schema,
                 const FunctionCatalog& functions);

/// The live rows that break `c`: for a check each failing row; for a key every row that
/// shares its key tuple with another live row (or a null part under a primary key).
std::vector<std::string> Violators(const Ctx& ctx, const Constraint& c);

/// Checks new rows (request form) against every enforced constraint, the live rows that
/// remain after `removed`, and each other: true when the generator can promise `ok`.
bool RowsSatisfyEnforced(const Ctx& ctx, const std::vector<Row>& added,
                         const std::set<std::string>& removed);

/// A random row in request form (values drawn at the step's size), with fresh values in
/// the fields of every key constraint so that it collides with nothing unless steered.
Row RandomRow(const Ctx& ctx, uint64_t salt, bool fresh_keys, bool small_domain = false);

/// Copies the key values of constraint `c` from typed row `from` into request-form `to`;
/// `respell` writes equal values in another spelling where Iceberg has one (a timestamptz
/// at another zone offset), so that key equality is by value, not by text.
void CopyKey(const Constraint& c, const Schema& schema, const Value& from_typed,
             Value& to, bool respell = false);

std::vector<const Constraint*> ConstraintsWhere(
    const Ctx& ctx, const std::function<bool(const Constraint&)>& f);

/// Tries a few candidate rows until one breaks check `c`; returns the last one otherwise.
Row RowBreaking(const Ctx& ctx, const Constraint& c, uint64_t salt);

/// A fresh-keyed row that satisfies every enforced check, when one of a few candidates
/// does (so that commits succeed and later statuses can be carried, rightly or wrongly).
Row RowSatisfyingChecks(const Ctx& ctx, uint64_t salt);

bool HasRequiredGeo(const Ctx& ctx);

// --- commits (render_commits.cc) ---------------------------------------------------------

Commit MakeCommit(CommitOperation op);
std::optional<RenderedStep> RenderAppend(const Ctx& ctx, std::optional<std::string> txn);
std::optional<RenderedStep> RenderDelete(const Ctx& ctx, std::optional<std::string> txn);
std::optional<RenderedStep> RenderOverwrite(const Ctx& ctx, std::optional<std::string> txn,
                                            bool modify_only);
std::optional<RenderedStep> RenderReplace(const Ctx& ctx);

// --- constraints (render_constraints.cc, render_invalid_constraint.cc) ------------------

/// What the constraint generators (constraint_gen.h) see of the table, with a fresh name.
ConstraintGenContext GenContext(const Ctx& ctx, std::string name);
/// A constraint name the table does not have yet: `stem` and a counter.
std::string FreshName(const Ctx& ctx, std::string_view stem);
/// An upgrade of a v1-v3 table to v4 in place of a constraint step (the precondition
/// repaired).
RenderedStep RenderUpgradeForConstraints(const Ctx& ctx);
std::optional<RenderedStep> RenderAddConstraint(const Ctx& ctx);
std::optional<RenderedStep> RenderAddInvalidConstraint(const Ctx& ctx);
std::optional<RenderedStep> RenderUpdateConstraint(const Ctx& ctx);
std::optional<RenderedStep> RenderRemoveConstraint(const Ctx& ctx);
std::optional<RenderedStep> RenderDefineFunction(const Ctx& ctx);
std::optional<RenderedStep> RenderValidate(const Ctx& ctx);

// --- schema (render_schema.cc, render_schema_invalid.cc) --------------------------------

/// The top-level field that contains field `id` (itself when top-level).
FieldId TopLevelOf(const Schema& schema, FieldId id);

/// The fields the table's constraints reference.
struct References {
  std::set<FieldId> by_check, by_key, by_pk;
  std::map<FieldId, std::vector<std::string>> names;  ///< field -> constraints naming it
};
References Referenced(const Ctx& ctx);

/// What one update-schema flavour builds (SchemaStep::Render makes the step).
struct SchemaStep {
  UpdateSchema u;
  std::string label;
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  std::vector<RuleId> tags;
  std::vector<std::string> clauses;
  RenderedStep Render(const Ctx& ctx);
};

/// A not-enforced unique or primary key on a field inside a struct, added first
/// (render_schema.cc).
std::optional<RenderedStep> RenderNestedKeyFirst(const Ctx& ctx, bool primary_key);
std::optional<RenderedStep> RenderUpdateSchema(const Ctx& ctx);
std::optional<RenderedStep> RenderUpgrade(const Ctx& ctx);

/// A second table's create-table whose schema breaks one clause of the Iceberg schema
/// rules (render_schema_invalid.cc).
std::optional<RenderedStep> RenderInvalidSchemaTable(const Ctx& ctx);
/// The update-schema flavours Iceberg's schema evolution must refuse (flavours 10-14 of
/// RenderUpdateSchema), one clause each.
std::optional<RenderedStep> RenderIllegalPromotion(const Ctx& ctx, const References& refs);
std::optional<RenderedStep> RenderDatePromotionBeforeV3(const Ctx& ctx,
                                                        const References& refs);
std::optional<RenderedStep> RenderUnknownField(const Ctx& ctx);
std::optional<RenderedStep> RenderSiblingName(const Ctx& ctx);
std::optional<RenderedStep> RenderMoveOutOfStruct(const Ctx& ctx);

// --- reads (render_reads.cc) -------------------------------------------------------------

std::optional<RenderedStep> RenderScan(const Ctx& ctx);
std::optional<RenderedStep> RenderReadStatuses(const Ctx& ctx);
std::optional<RenderedStep> RenderParseMetadata(const Ctx& ctx);

// --- repairs (render_repairs.cc) ---------------------------------------------------------

std::optional<RenderedStep> RenderUdfCarryChain(const Ctx& ctx);
std::optional<RenderedStep> RenderPkParentOptional(const Ctx& ctx);

}  // namespace ictk::render_internal
