/// \file
/// Commit steps (append, delete, overwrite, modify, replace): which rows they add, remove and
/// modify, steered towards key collisions, broken checks and statuses carried wrongly.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "generators/render_internal.h"
#include "model/iceberg/schema.h"

namespace ictk::render_internal {

Commit MakeCommit(CommitOperation op) {
  Commit c;
  c.operation = op;
  return c;
}

namespace {

/// An append being drawn: its commit, label and tags, and whether it is malformed on
/// purpose.
struct AppendDraft {
  Commit commit;
  std::string label = "append/fresh";
  std::vector<RuleId> tags = {RuleId::kEnfEnforced, RuleId::kStValidated, RuleId::kStValid};
  bool malformed = false;
};

/// What an append flavour looks at: the rows to add, the table's keys and checks, the
/// live row keys (sorted).
struct AppendInputs {
  uint32_t n = 1;
  std::vector<const Constraint*> keys, checks;
  std::vector<std::string> live;
};

/// Flavour 1: collide with a live row on a key (enf.keys-against-remaining).
void AppendCollideLive(const Ctx& ctx, const AppendInputs& in,
                       const std::optional<std::string>& txn, AppendDraft& d) {
  const Schema& schema = *ctx.schema();
  for (uint32_t i = 0; i < in.n; ++i) d.commit.add.push_back(RandomRow(ctx, i, true));
  if (in.keys.empty() || in.live.empty()) return;
  const Constraint& c = *in.keys[ctx.Pick(in.keys.size())];
  CopyKey(c, schema, ctx.table->rows.at(in.live[ctx.Pick(in.live.size(), 1)]),
          d.commit.add[0].values, (ctx.step.seed >> 7) & 1);
  d.label = "append/collide-live";
  d.tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kSemUnique, RuleId::kSemPrimaryKey,
            RuleId::kStInvalid};
  // One such commit in two also adds a row under a live row's key, a malformed
  // change: with an enforced key broken by the well-formed rows, the request has two
  // causes and either kind is accepted (docs/protocol.md section 8).
  if ((ctx.step.seed >> 13) % 2 == 0 && !txn) {
    Row again = d.commit.add.back();
    again.key = in.live[ctx.Pick(in.live.size(), 3)];
    d.commit.add.push_back(std::move(again));
    d.label = "append/collide-live-malformed";
    d.tags.push_back(RuleId::kProtoRequest);
    d.malformed = true;
  }
}

/// Flavour 2: two added rows with one key (distinct among themselves).
void AppendCollideAmong(const Ctx& ctx, const AppendInputs& in, AppendDraft& d) {
  const Schema& schema = *ctx.schema();
  for (uint32_t i = 0; i < std::max<uint32_t>(2, in.n); ++i)
    d.commit.add.push_back(RandomRow(ctx, i, true));
  if (in.keys.empty()) return;
  const Constraint& c = *in.keys[ctx.Pick(in.keys.size())];
  NormalizedRow first = NormalizeRow(d.commit.add[0].values, schema.fields);
  if (first.values)
    CopyKey(c, schema, *first.values, d.commit.add[1].values, (ctx.step.seed >> 7) & 1);
  d.label = "append/collide-among";
  d.tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kSemUnique, RuleId::kSemPrimaryKey};
}

/// Flavour 3: break a check (likely one that is not enforced: false claims).
void AppendBreakCheck(const Ctx& ctx, const AppendInputs& in, AppendDraft& d) {
  if (in.checks.empty()) {
    for (uint32_t i = 0; i < in.n; ++i) d.commit.add.push_back(RandomRow(ctx, i, true));
    return;
  }
  std::vector<const Constraint*> unenforced;
  for (const Constraint* c : in.checks)
    if (!c->enforced.value_or(false)) unenforced.push_back(c);
  const auto& pool =
      !unenforced.empty() && ctx.step.pick % 4 != 0 ? unenforced : in.checks;
  const Constraint& c = *pool[ctx.Pick(pool.size())];
  d.commit.add.push_back(RowBreaking(ctx, c, 1));
  for (uint32_t i = 1; i < in.n; ++i) d.commit.add.push_back(RandomRow(ctx, i + 10, true));
  d.label = "append/break-check";
  d.tags = {RuleId::kSemCheck, RuleId::kEnfNotEnforced, RuleId::kEnfEnforced,
            RuleId::kStInvalid};
}

/// Flavour 5: nulls in unique key fields: rows with a null part are not compared.
void AppendNullUnique(const Ctx& ctx, const AppendInputs& in, AppendDraft& d) {
  const Schema& schema = *ctx.schema();
  for (uint32_t i = 0; i < std::max<uint32_t>(2, in.n); ++i)
    d.commit.add.push_back(RandomRow(ctx, i, true));
  std::vector<const Constraint*> uniques;
  for (const Constraint* c : in.keys)
    if (c->type == ConstraintType::kUnique) uniques.push_back(c);
  if (uniques.empty()) return;
  const Constraint& c = *uniques[ctx.Pick(uniques.size())];
  for (const KeyPart& p : KeyParts(c, schema)) {
    std::optional<FieldLocation> loc = FindField(schema, p.id);
    if (loc && !loc->field.required) {
      for (Row& r : d.commit.add) SetAtPath(r.values, p.path, Value::Null());
      break;
    }
  }
  d.label = "append/null-unique";
  d.tags = {RuleId::kSemUnique, RuleId::kKeyUniqueOptionalOk};
}

}  // namespace

std::optional<RenderedStep> RenderAppend(const Ctx& ctx, std::optional<std::string> txn) {
  if (HasRequiredGeo(ctx)) return std::nullopt;
  AppendDraft d;
  d.commit = MakeCommit(CommitOperation::kAppend);
  d.commit.txn = txn;
  AppendInputs in;
  in.n = std::max<uint32_t>(1, ctx.step.count);
  in.keys = ConstraintsWhere(ctx, IsKey);
  in.checks = ConstraintsWhere(
      ctx, [](const Constraint& c) { return c.type == ConstraintType::kCheck; });
  in.live = SortedKeys(ctx.table->rows);
  switch (ctx.Flavour(7)) {
    case 0:
    default:
      for (uint32_t i = 0; i < in.n; ++i) d.commit.add.push_back(RowSatisfyingChecks(ctx, i));
      break;
    case 1:
      AppendCollideLive(ctx, in, txn, d);
      break;
    case 2:
      AppendCollideAmong(ctx, in, d);
      break;
    case 3:
      AppendBreakCheck(ctx, in, d);
      break;
    case 4:  // small-domain values everywhere: keys and checks collide by chance
      for (uint32_t i = 0; i < in.n; ++i)
        d.commit.add.push_back(RandomRow(ctx, i, false, true));
      d.label = "append/small-domain";
      d.tags = {RuleId::kSemUnique, RuleId::kSemPrimaryKey, RuleId::kSemCheck};
      break;
    case 5:
      AppendNullUnique(ctx, in, d);
      break;
    case 6:  // plain random rows, keys not steered
      for (uint32_t i = 0; i < in.n; ++i) d.commit.add.push_back(RandomRow(ctx, i, false));
      d.label = "append/random";
      break;
  }
  Intent intent = Intent::kAny;
  if (ctx.md().format_version >= 1 && RowsSatisfyEnforced(ctx, d.commit.add, {}) && !txn)
    intent = Intent::kOk;
  if (d.malformed) intent = Intent::kReject;
  if (txn) d.label = "transaction/stage-" + d.label;
  return Make(std::move(d.commit), ctx.options.table, d.label, intent,
              d.malformed ? std::optional<RuleId>(RuleId::kProtoRequest) : std::nullopt,
              d.tags);
}

std::optional<RenderedStep> RenderDelete(const Ctx& ctx, std::optional<std::string> txn) {
  const std::vector<std::string> live = SortedKeys(ctx.table->rows);
  Commit commit = MakeCommit(CommitOperation::kDelete);
  commit.txn = txn;
  std::string label = "delete/some";
  std::vector<RuleId> tags = {RuleId::kStNoAddCarry, RuleId::kSemLiveRows};
  Intent intent = Intent::kOk;
  std::optional<RuleId> aimed;
  const uint32_t flavour = ctx.Flavour(6);
  if (live.empty() || flavour == 5) {
    if (flavour != 5 && ctx.step.pick % 3 != 0) return std::nullopt;
    commit.remove.push_back("no-such-row");
    label = "delete/not-live";
    intent = Intent::kReject;
    aimed = RuleId::kProtoRequest;
    tags = {};
  } else if (flavour == 0 || flavour == 4) {
    std::set<std::string> chosen;
    for (uint32_t i = 0; i < std::max<uint32_t>(1, ctx.step.count); ++i)
      chosen.insert(live[ctx.Pick(live.size(), i)]);
    commit.remove.assign(chosen.begin(), chosen.end());
  } else if (flavour == 3) {
    commit.remove = live;
    label = "delete/all";
  } else {
    // Remove all (flavour 1) or only some (flavour 2) of the rows that break a
    // constraint: a status carried from an `invalid` parent is then true or false.
    const auto& cs = ctx.constraints();
    std::vector<std::string> violators;
    for (size_t i = 0; i < cs.size() && violators.empty(); ++i)
      violators = Violators(ctx, cs[(ctx.Pick(cs.size()) + i) % cs.size()]);
    if (violators.empty()) {
      commit.remove.push_back(live[ctx.Pick(live.size())]);
    } else if (flavour == 1 || violators.size() == 1) {
      commit.remove = violators;
      label = "delete/all-violators";
      tags = {RuleId::kStNoAddCarry, RuleId::kStInvalid, RuleId::kStValidated};
    } else {
      commit.remove.assign(violators.begin(), violators.begin() + violators.size() / 2);
      label = "delete/some-violators";
      tags = {RuleId::kStNoAddCarry, RuleId::kStInvalid};
    }
  }
  if (txn) {
    label = "transaction/stage-" + label;
    intent = Intent::kAny;
  }
  return Make(std::move(commit), ctx.options.table, label, intent, aimed, tags);
}

namespace {

/// Modifies a row so that its key collides with another live row (when the table has a
/// key and two rows); returns the label.
std::string ModifyCollide(const Ctx& ctx, const std::vector<std::string>& live,
                          const std::vector<const Constraint*>& keys, Commit& commit) {
  const Schema& schema = *ctx.schema();
  const std::string& x = live[ctx.Pick(live.size())];
  Row m = RandomRow(ctx, 3, true);
  m.key = x;
  std::string label = "overwrite/modify-fresh-key";
  if (!keys.empty() && live.size() > 1) {
    const std::string& y = live[(ctx.Pick(live.size()) + 1) % live.size()];
    CopyKey(*keys[ctx.Pick(keys.size(), 2)], schema, ctx.table->rows.at(y), m.values);
    label = "overwrite/modify-collide";
  }
  commit.modify.push_back(std::move(m));
  return label;
}

/// Swaps the keys of two live rows in one commit (distinct among themselves).
void SwapKeys(const Ctx& ctx, const std::vector<std::string>& live,
              const std::vector<const Constraint*>& keys, Commit& commit) {
  const Schema& schema = *ctx.schema();
  const std::string& a = live[ctx.Pick(live.size())];
  const std::string& b = live[(ctx.Pick(live.size()) + 1) % live.size()];
  Row ma{a, ToRequestForm(ctx.table->rows.at(a), Type::Struct(schema.fields))};
  Row mb{b, ToRequestForm(ctx.table->rows.at(b), Type::Struct(schema.fields))};
  for (const Constraint* c : keys) {
    CopyKey(*c, schema, ctx.table->rows.at(b), ma.values);
    CopyKey(*c, schema, ctx.table->rows.at(a), mb.values);
  }
  commit.modify.push_back(std::move(ma));
  commit.modify.push_back(std::move(mb));
}

}  // namespace

std::optional<RenderedStep> RenderOverwrite(const Ctx& ctx,
                                            std::optional<std::string> txn,
                                            bool modify_only) {
  if (HasRequiredGeo(ctx)) return std::nullopt;
  const Schema& schema = *ctx.schema();
  const std::vector<std::string> live = SortedKeys(ctx.table->rows);
  const auto keys = ConstraintsWhere(ctx, IsKey);
  Commit commit = MakeCommit(CommitOperation::kOverwrite);
  commit.txn = txn;
  std::string label = "overwrite/replace-rows";
  std::vector<RuleId> tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kStValidated};
  uint32_t flavour = modify_only ? 2 + ctx.Flavour(3) : ctx.Flavour(5);
  if (!ctx.caps().modify_rows && flavour >= 2) flavour = flavour % 2;
  if (live.empty()) {
    if (modify_only) return std::nullopt;
    flavour = 0;
  }
  switch (flavour) {
    case 0:
    default:
      if (!live.empty()) commit.remove.push_back(live[ctx.Pick(live.size())]);
      for (uint32_t i = 0; i < std::max<uint32_t>(1, ctx.step.count); ++i)
        commit.add.push_back(RandomRow(ctx, i, true));
      break;
    case 1: {  // replace a key in one commit: remove X, add Y with X's key
      const std::string& x = live[ctx.Pick(live.size())];
      commit.remove.push_back(x);
      Row y = RandomRow(ctx, 1, true);
      for (const Constraint* c : keys)
        CopyKey(*c, schema, ctx.table->rows.at(x), y.values);
      commit.add.push_back(std::move(y));
      label = "overwrite/replace-key";
      tags = {RuleId::kEnfKeysAgainstRemaining, RuleId::kSemPrimaryKey,
              RuleId::kSemUnique};
      break;
    }
    case 2: {  // modify a row's other values (enf.modified-row)
      const std::string& x = live[ctx.Pick(live.size())];
      Row m = RandomRow(ctx, 2, false);
      m.key = x;
      for (const Constraint* c : keys)
        CopyKey(*c, schema, ctx.table->rows.at(x), m.values);
      commit.modify.push_back(std::move(m));
      label = "overwrite/modify-values";
      tags = {RuleId::kEnfModifiedRow, RuleId::kSemCheck, RuleId::kStValid};
      break;
    }
    case 3:
      label = ModifyCollide(ctx, live, keys, commit);
      tags = {RuleId::kEnfModifiedRow, RuleId::kEnfKeysAgainstRemaining,
              RuleId::kEnfEnforced};
      break;
    case 4:  // swap the keys of two rows in one commit (distinct among themselves)
      if (live.size() < 2 || keys.empty()) {
        const std::string& x = live[ctx.Pick(live.size())];
        Row m = RandomRow(ctx, 4, false);
        m.key = x;
        commit.modify.push_back(std::move(m));
        label = "overwrite/modify-random";
        tags = {RuleId::kEnfModifiedRow};
        break;
      }
      SwapKeys(ctx, live, keys, commit);
      label = "overwrite/swap-keys";
      tags = {RuleId::kEnfModifiedRow, RuleId::kEnfKeysAgainstRemaining};
      break;
  }
  if (txn) label = "transaction/stage-" + label;
  return Make(std::move(commit), ctx.options.table, label, Intent::kAny, std::nullopt,
              tags);
}

std::optional<RenderedStep> RenderReplace(const Ctx& ctx) {
  return Make(MakeCommit(CommitOperation::kReplace), ctx.options.table,
              "replace/compaction", Intent::kOk, std::nullopt,
              {RuleId::kStNoAddCarry, RuleId::kStValidated});
}

}  // namespace ictk::render_internal
