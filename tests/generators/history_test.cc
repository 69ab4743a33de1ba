// Generator properties (STYLE.md "Properties check the model itself too"): every
// generated history replays on the model, every step the generator intends to be accepted
// is accepted, every step aimed at a rule is rejected by that rule, and every invalid
// constraint generator really breaks the rule it names.
#include "generators/history.h"
#include "tests/generators/model_walk_internal.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <rapidcheck/gtest.h>

#include <set>

#include "generators/constraint_gen.h"
#include "generators/schema_gen.h"
#include "generators/value_gen.h"
#include "model/judge/operations.h"
#include "model/judge/rule_catalogue.h"
#include "model/iceberg/schema.h"

namespace ictk {
namespace {

bool DecidedBy(const AllowedOutcome& outcome, RuleId rule) {
  for (const Finding& f : outcome.decided_by)
    if (f.rule == rule) return true;
  return false;
}

std::string Describe(const RenderedStep& step, const AllowedOutcome& outcome) {
  std::string rules;
  for (const Finding& f : outcome.decided_by) rules += ToString(f) + "; ";
  return step.label + " intent=" + std::string(ToString(step.intent)) +
         " aimed=" + (step.aimed_at ? std::string(RuleIdName(*step.aimed_at)) : "-") +
         " ok_allowed=" + (outcome.ok_allowed ? "1" : "0") + " decided_by: " + rules;
}

/// Replays `plan` on the model, checking each step's intent; returns the steps rendered.
int ReplayChecked(const Plan& plan, const Capabilities& caps,
                  Distribution* dist = nullptr) {
  RenderOptions options;
  options.table = "t";
  options.function_prefix = "t_";
  options.capabilities = caps;
  CatalogState state;
  HistoryRenderer renderer(plan, options);
  int steps = 0;
  while (std::optional<RenderedStep> step = renderer.Next(state)) {
    ++steps;
    if (dist) dist->Add(*step);
    const AllowedOutcome outcome = Apply(state, step->request, options.switches);
    if (step->intent == Intent::kOk && outcome.must_reject())
      RC_FAIL(Describe(*step, outcome));
    if (step->intent == Intent::kReject) {
      if (outcome.ok_allowed || !DecidedBy(outcome, *step->aimed_at))
        RC_FAIL(Describe(*step, outcome));
    }
    const Answer answer =
        CanonicalAnswer(state, step->request, outcome, options.switches);
    const Findings adopt = Adopt(state, step->request, answer, options.switches);
    if (!adopt.empty()) RC_FAIL("canonical answer not adoptable: " + ToString(adopt[0]));
    // The reference implementation's own answer is always allowed.
    const Findings judged = Judge(outcome, answer);
    if (!judged.empty())
      RC_FAIL("canonical answer judged wrong: " + step->label + ": " +
              ToString(judged[0]));
  }
  return steps;
}

// Generated histories replay on the model: intended-ok steps are accepted, steps aimed at
// a rule are rejected by it (proto.request, enf.enforced, sch.*, upd.*, def.*, key.*,
// ...).
RC_GTEST_PROP(GeneratedHistory, ReplaysOnTheModelWithTheIntendedOutcomes, ()) {
  HistoryGenConfig config;
  config.max_steps = 15;
  const Plan plan = *GenPlan(config);
  ReplayChecked(plan, config.capabilities);
}

// The same with a reduced capability set: only what the implementation declares is used.
RC_GTEST_PROP(GeneratedHistory, UsesOnlyDeclaredCapabilities, ()) {
  HistoryGenConfig config;
  config.capabilities = Capabilities::FromHello({"check", "unique"}, {4});
  config.max_steps = 12;
  const Plan plan = *GenPlan(config);
  RenderOptions options;
  options.capabilities = config.capabilities;
  const History h = RenderHistory(plan, options);
  for (const RenderedStep& s : h.steps) {
    const std::string_view op = OpName(s.request.op);
    RC_ASSERT(op != "begin");
    RC_ASSERT(op != "upgrade");
    RC_ASSERT(op != "define-function");
    RC_ASSERT(op != "validate");
    RC_ASSERT(op != "read-statuses");
    RC_ASSERT(op != "update-schema");
    if (const auto* add = std::get_if<AddConstraint>(&s.request.op)) {
      if (add->constraint.type)
        RC_ASSERT(*add->constraint.type != ConstraintType::kPrimaryKey ||
                  s.intent == Intent::kReject);
    }
    if (const auto* c = std::get_if<CreateTable>(&s.request.op))
      RC_ASSERT(c->format_version == 4);
  }
}

// Every invalid-constraint generator breaks exactly the rule it is aimed at (the model
// rejects it and names that rule).
TEST(InvalidConstraintGenerators, EachBreaksItsRule) {
  std::set<RuleId> covered;
  std::set<std::string> covered_clauses;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    SchemaGenOptions so;
    so.format_version = 4;
    so.max_extra_columns = 8;
    std::optional<Schema> schema = Sample(GenSchema(so), seed, 100);
    ASSERT_TRUE(schema);
    CatalogState state;
    Request create{"t", 1000, CreateTable{4, *schema}};
    AllowedOutcome created = Apply(state, create, {});
    ASSERT_TRUE(created.ok_allowed) << ToString(created);
    Adopt(state, create, CanonicalAnswer(state, create, created, {}), {});
    // An existing primary key and a check, so def.single-pk and def.name-unique apply.
    const CatalogState without_pk = state;
    Constraint pk;
    pk.type = ConstraintType::kPrimaryKey;
    pk.raw_type = "primary-key";
    pk.name = "pk";
    pk.enforced = false;
    pk.field_ids = std::vector<FieldId>{1};
    Request add_pk{"t", 1001, AddConstraint{pk}};
    AllowedOutcome pk_out = Apply(state, add_pk, {});
    ASSERT_TRUE(pk_out.ok_allowed) << ToString(pk_out);
    Adopt(state, add_pk, CanonicalAnswer(state, add_pk, pk_out, {}), {});

    ConstraintGenContext g;
    g.schema = *schema;
    g.existing = ConstraintsOf(state.tables.at("t").metadata);
    g.name = "bad";
    for (RuleId rule : InvalidConstraintTargets(g)) {
      SCOPED_TRACE(std::string(RuleIdName(rule)));
      std::optional<Constraint> c =
          Sample(GenInvalidConstraint(g, rule), seed * 31 + 7, 50);
      ASSERT_TRUE(c);
      Request add{"t", 1002, AddConstraint{*c}};
      AllowedOutcome out = Apply(state, add, {});
      EXPECT_FALSE(out.ok_allowed) << ToString(out);
      EXPECT_TRUE(DecidedBy(out, rule)) << ToString(out);
      covered.insert(rule);
    }
    // Clause by clause: each breaks its clause's rule, and no other rule decides; on the
    // table with its primary key and on the table before it.
    ConstraintGenContext g0 = g;
    g0.existing.clear();
    auto check_clauses = [&](const ConstraintGenContext& ctx, const CatalogState& base) {
      for (const InvalidTarget& t : InvalidConstraintClauses(ctx)) {
        SCOPED_TRACE(t.clause);
        CatalogState st = base;
        ASSERT_NE(FindClause(t.clause), nullptr) << "not a clause of the catalogue";
        EXPECT_EQ(FindClause(t.clause)->rule, t.rule);
        std::optional<Constraint> c =
            Sample(GenInvalidConstraint(ctx, t), seed * 37 + 5, 50);
        ASSERT_TRUE(c);
        Request add{"t", 1002, AddConstraint{*c}};
        AllowedOutcome out = Apply(st, add, {});
        EXPECT_FALSE(out.ok_allowed) << ToString(out);
        EXPECT_TRUE(DecidedBy(out, t.rule)) << ToString(out);
        for (const Finding& f : out.decided_by)
          EXPECT_EQ(f.rule, t.rule) << "the clause is not broken alone: " << ToString(out);
        covered_clauses.insert(t.clause);
      }
    };
    check_clauses(g, state);
    check_clauses(g0, without_pk);
  }
  // Every clause an invalid constraint can break is reached by some schema.
  for (const char* clause :
       {"key.pk-required/own-flag", "key.pk-required/optional-parent",
        "key.primitive-only/struct", "key.primitive-only/list-or-map",
        "key.not-in-list-map/list", "key.not-in-list-map/map", "key.no-float-double/float",
        "key.no-float-double/double", "key.no-geo/geometry", "key.no-geo/geography",
        "def.key-field-ids/at-least-one", "def.key-field-ids/no-duplicates",
        "def.key-field-ids/required-for-keys", "def.key-field-ids/absent-for-check",
        "def.check-expression/required-for-check", "def.check-expression/absent-for-others",
        "def.required-fields/name", "def.required-fields/enforced",
        "expr.no-list-map-element/list", "expr.no-list-map-element/map"})
    EXPECT_TRUE(covered_clauses.count(clause)) << clause;
  // The targets the schemas make reachable are all exercised.
  for (RuleId r :
       {RuleId::kDefTypes, RuleId::kDefCheckExpression, RuleId::kDefKeyFieldIds,
        RuleId::kKeyPrimitiveOnly, RuleId::kKeyNotInListMap, RuleId::kKeyNoFloatDouble,
        RuleId::kKeyNoGeo, RuleId::kKeyNoUnknown, RuleId::kKeyPkRequired,
        RuleId::kDefSinglePk, RuleId::kDefNameUnique, RuleId::kExprIdReferences,
        RuleId::kExprNoListMapElement, RuleId::kExprDeterministic, RuleId::kExprWellTyped,
        RuleId::kSchReferencedExist})
    EXPECT_TRUE(covered.count(r)) << RuleIdName(r);
}

// Generated valid constraints are accepted (not enforced: no existing rows can decide).
RC_GTEST_PROP(ValidConstraintGenerator, IsAcceptedByTheModel, ()) {
  SchemaGenOptions so;
  const Schema schema = *GenSchema(so);
  CatalogState state;
  Request create{"t", 1000, CreateTable{4, schema}};
  Adopt(state, create, CanonicalAnswer(state, create, Apply(state, create, {}), {}), {});
  ConstraintGenContext g;
  g.schema = schema;
  g.name = "c1";
  Constraint c = *GenValidConstraint(g);
  c.enforced = false;
  Request add{"t", 1001, AddConstraint{c}};
  const AllowedOutcome out = Apply(state, add, {});
  RC_ASSERT(out.ok_allowed);
}

// Schemas of every format version are accepted by create-table (v4 without identifier
// fields; v1-v3 with them).
RC_GTEST_PROP(SchemaGenerator, CreatesTablesOfEveryVersion, ()) {
  SchemaGenOptions so;
  so.format_version = *rc::gen::inRange(1, 5);
  so.identifier_fields =
      so.format_version < 4 ? IdentifierFields::kAny : IdentifierFields::kNone;
  const Schema schema = *GenSchema(so);
  const std::vector<FieldId> ids = AllFieldIds(schema.fields);
  RC_ASSERT(ids.size() == std::set<FieldId>(ids.begin(), ids.end()).size());
  CatalogState state;
  Request create{"t", 1000, CreateTable{so.format_version, schema}};
  const AllowedOutcome out = Apply(state, create, {});
  if (!out.ok_allowed) RC_FAIL(ToString(out));
}

// Rows generated for a schema are valid rows of it (edges included).
RC_GTEST_PROP(ValueGenerator, RowsFitTheirSchema, ()) {
  SchemaGenOptions so;
  so.format_version = *rc::gen::inRange(1, 5);
  const Schema schema = *GenSchema(so);
  if (!RowsWritable(schema.fields)) return;
  const Value row = *GenRowValues(schema.fields, ValueGenOptions{});
  NormalizedRow n = NormalizeRow(row, schema.fields);
  if (!n.values) RC_FAIL(n.error + " in " + ToString(row));
}

// The default mix covers every op of the protocol but hello within a few histories, and
// prints the distribution of ops and rule tags.
TEST(GeneratedHistory, CoversEveryOp) {
  HistoryGenConfig config;
  config.max_steps = 25;
  Distribution dist;
  for (uint64_t i = 0; i < 60; ++i) {
    std::optional<Plan> plan = Sample(GenPlan(config), i, 50);
    ASSERT_TRUE(plan);
    RenderOptions options;
    options.table = "t" + std::to_string(i);
    options.function_prefix = options.table + "_";
    for (const RenderedStep& s : RenderHistory(*plan, options).steps) dist.Add(s);
  }
  std::cout << dist.ToString();
  for (const char* op :
       {"create-table", "load-table", "upgrade", "add-constraint", "update-constraint",
        "remove-constraint", "update-schema", "commit", "begin", "finish",
        "define-function", "validate", "scan", "read-statuses", "parse-metadata"})
    EXPECT_GT(dist.ops[op], 0) << op;
}

}  // namespace
}  // namespace ictk

namespace ictk {
namespace {

// A commit that carries a malformed row change and whose well-formed rows break an
// enforced constraint has two causes, and either kind is accepted (docs/protocol.md
// section 8; the divergent sample answers either): the generators make such commits
// (append/collide-live-malformed) often enough for that freedom to be exercised. Counted
// on the model: the steps whose allowed outcome takes both invalid-request and
// constraint-violation.
TEST(GeneratedHistory, MakesCommitsWithAMalformedRowThatAlsoBreakAnEnforcedKey) {
  HistoryGenConfig config;
  config.max_steps = 25;
  int malformed = 0, two_causes = 0, histories = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    std::optional<Plan> plan = Sample(GenPlan(config), seed, 25);
    if (!plan) continue;
    ++histories;
    RenderOptions options;
    options.table = "t";
    options.function_prefix = "t_";
    options.capabilities = config.capabilities;
    CatalogState state;
    HistoryRenderer renderer(*plan, options);
    while (std::optional<RenderedStep> step = renderer.Next(state)) {
      const AllowedOutcome outcome = Apply(state, step->request, options.switches);
      if (step->label == "append/collide-live-malformed") {
        ++malformed;
        EXPECT_FALSE(outcome.ok_allowed) << step->label;
        if (outcome.reject_kinds.count(RejectKind::kInvalidRequest) &&
            outcome.reject_kinds.count(RejectKind::kConstraintViolation))
          ++two_causes;
      }
      const Answer answer =
          CanonicalAnswer(state, step->request, outcome, options.switches);
      Adopt(state, step->request, answer, options.switches);
    }
  }
  std::printf("%d histories: %d commits with a malformed row change, %d of them also "
              "breaking an enforced key (two causes)\n",
              histories, malformed, two_causes);
  RecordProperty("malformed", malformed);
  RecordProperty("two-causes", two_causes);
  EXPECT_GE(two_causes, 10);
}

// Catalogue completeness, generator side: every clause that has no gap and no exemption
// names a generator tag, and rendered histories contain a step with that label naming the
// clause.
TEST(ClauseCoverage, EveryClauseWithoutAGapIsNamedByAGeneratedStep) {
  std::map<std::string, std::set<std::string>> labels_by_clause;
  HistoryGenConfig config;
  config.max_steps = 25;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    std::optional<Plan> plan = Sample(GenPlan(config), seed, 25);
    if (!plan) continue;
    RenderOptions options;
    options.capabilities = config.capabilities;
    const History h = RenderHistory(*plan, options);
    for (const RenderedStep& s : h.steps)
      for (const std::string& c : s.clauses) {
        ASSERT_NE(FindClause(c), nullptr) << s.label << " names an unknown clause " << c;
        labels_by_clause[c].insert(s.label);
      }
  }
  for (const ClauseInfo& c : AllClauses()) {
    // A clause with a gap has no step yet; an exempt one needs none (its tag, if any, says
    // which step comes closest; its mutants are other clauses').
    if (!c.gap.empty() || c.exempt.kind != ExemptKind::kNone) continue;
    SCOPED_TRACE(c.id);
    ASSERT_FALSE(c.tag.empty()) << "a clause without a gap needs a generator tag";
    const auto it = labels_by_clause.find(c.id);
    ASSERT_TRUE(it != labels_by_clause.end()) << "no generated step names the clause";
    bool tagged = false;
    for (const std::string& label : it->second)
      tagged = tagged || label == c.tag || label == "transaction/stage-" + std::string(c.tag);
    EXPECT_TRUE(tagged) << "no step labelled " << c.tag << " names the clause";
  }
}

}  // namespace
}  // namespace ictk

namespace ictk {
namespace {

// Issue 33: another transaction's begin, staged commit and finish among a transaction's
// concurrent steps. Over 1,000 default-length histories on the model, counts the finishes
// of a transaction nested in another's window, and the outer finishes where one of the
// two took the other's key (a nested staged commit the outer one's, or the outer staged
// commit a nested one's): the retry must then see the nested commit's row, so the model
// refuses `ok` (enf.retry-keys-new-parent).
TEST(GeneratedHistory, NestsATransactionInAnotherOnesConcurrentSteps) {
  HistoryGenConfig config;
  config.max_steps = 20;
  int nested_finishes = 0, outer_key_refused = 0;
  std::set<std::string> took_outer_key;  // outer transactions whose key was taken
  uint64_t history = 0;
  WalkOnTheModel(config, 1000, [&](uint64_t i, const CatalogState& state,
                                   const RenderedStep& step, const AllowedOutcome& outcome) {
    if (i != history) took_outer_key.clear(), history = i;
    if (const auto* f = std::get_if<Finish>(&step.request.op)) {
      const TableState& t = state.tables.at("t");
      if (f->txn.find('-') != std::string::npos) {
        ++nested_finishes;
        EXPECT_EQ(t.transactions.count(f->txn.substr(0, f->txn.find('-'))), 1u)
            << "a nested finish outside its outer transaction's window";
      } else if (took_outer_key.count(f->txn) && !outcome.ok_allowed) {
        ++outer_key_refused;
      }
    }
    const std::string& label = step.label;
    auto ends_with = [&label](std::string_view end) {
      return label.size() > end.size() &&
             label.compare(label.size() - end.size(), end.size(), end) == 0;
    };
    if (ends_with("-outer-key") || ends_with("-nested-key"))
      if (const auto* c = std::get_if<Commit>(&step.request.op); c && c->txn)
        took_outer_key.insert(c->txn->substr(0, c->txn->find('-')));
  });
  std::cout << "nested finishes " << nested_finishes
            << ", outer retries refused after a nested commit took their key "
            << outer_key_refused << "\n";
  EXPECT_GT(nested_finishes, 0);
  EXPECT_GT(outer_key_refused, 0);
}

}  // namespace
}  // namespace ictk
