/// \file
/// Invalid constraint definitions (constraint_gen.h InvalidConstraintClauses,
/// GenInvalidConstraint): each breaks one clause of the definition, key or expression
/// rules alone, on the fields the current schema offers.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/constraint_gen.h"
#include "generators/constraint_gen_internal.h"
#include "generators/gen_internal.h"
#include "model/rules/rule_id.h"

namespace ictk {

using namespace constraint_gen_internal;  // NOLINT: the generators' shared helpers

namespace {

/// Fields the invalid generators build on, from the current schema (columns may have been
/// renamed, dropped or promoted since the table was created).
struct InvalidBasis {
  Columns cols;
  std::optional<FieldId> key;     ///< a field a unique constraint may use
  std::optional<FieldId> pk_key;  ///< a field a primary key may use
  std::optional<FieldId>
      optional_key;  ///< eligible but optional (or under an optional struct)
  std::vector<FieldId> optional_own;     ///< key candidates whose own flag is optional
  std::vector<FieldId> optional_parent;  ///< required, but under an optional struct
};

InvalidBasis Basis(const ConstraintGenContext& context) {
  InvalidBasis b;
  b.cols = CollectColumns(context.schema);
  for (const KeyCandidate& k :
       KeyCandidates(context.schema, context.capabilities.nested_keys)) {
    if (!b.key) b.key = k.id;
    if (k.pk_eligible && !b.pk_key) b.pk_key = k.id;
    if (!k.pk_eligible && !b.optional_key) b.optional_key = k.id;
    if (!k.required) b.optional_own.push_back(k.id);
    if (k.required && !k.pk_eligible) b.optional_parent.push_back(k.id);
  }
  return b;
}

std::string ClauseOf(RuleId rule, std::string_view name) {
  return std::string(RuleIdName(rule)) + "/" + std::string(name);
}

}  // namespace

std::vector<InvalidTarget> InvalidConstraintClauses(const ConstraintGenContext& context) {
  std::vector<InvalidTarget> out;
  auto add = [&](RuleId rule, std::string_view name) {
    out.push_back({rule, ClauseOf(rule, name)});
  };
  if (context.format_version < 4) {
    add(RuleId::kDefV4Only, "whole");
    return out;
  }
  const InvalidBasis b = Basis(context);
  const Columns& c = b.cols;
  add(RuleId::kExprIdReferences, "whole");
  add(RuleId::kSchReferencedExist, "whole");
  if (b.key) {
    add(RuleId::kDefTypes, "whole");
    add(RuleId::kDefCheckExpression, "required-for-check");
    add(RuleId::kDefCheckExpression, "absent-for-others");
    add(RuleId::kDefKeyFieldIds, "at-least-one");
    add(RuleId::kDefKeyFieldIds, "no-duplicates");
    add(RuleId::kDefKeyFieldIds, "required-for-keys");
    add(RuleId::kDefKeyFieldIds, "absent-for-check");
    add(RuleId::kDefRequiredFields, "name");
    add(RuleId::kDefRequiredFields, "enforced");
    add(RuleId::kDefRequiredFields, "type");
  }
  if (!c.strings.empty()) add(RuleId::kExprWellTyped, "whole");
  // A primary key on an optional field breaks key.pk-required alone only where the table
  // has no primary key yet (else def.single-pk decides too).
  if (!HasPrimaryKey(context.existing)) {
    if (!b.optional_own.empty()) add(RuleId::kKeyPkRequired, "own-flag");
    if (!b.optional_parent.empty()) add(RuleId::kKeyPkRequired, "optional-parent");
  }
  if (!c.structs.empty()) add(RuleId::kKeyPrimitiveOnly, "struct");
  if (!c.variants.empty()) add(RuleId::kKeyPrimitiveOnly, "variant");
  if (!c.collections.empty()) add(RuleId::kKeyPrimitiveOnly, "list-or-map");
  if (!c.list_elements.empty()) {
    add(RuleId::kKeyNotInListMap, "list");
    add(RuleId::kExprNoListMapElement, "list");
  }
  if (!c.map_keys.empty()) {
    add(RuleId::kKeyNotInListMap, "map");
    add(RuleId::kExprNoListMapElement, "map");
  }
  if (!c.float_only.empty()) add(RuleId::kKeyNoFloatDouble, "float");
  if (!c.double_only.empty()) add(RuleId::kKeyNoFloatDouble, "double");
  if (!c.geometry.empty()) add(RuleId::kKeyNoGeo, "geometry");
  if (!c.geography.empty()) add(RuleId::kKeyNoGeo, "geography");
  if (!c.unknown.empty()) add(RuleId::kKeyNoUnknown, "whole");
  if (HasPrimaryKey(context.existing) && b.pk_key) add(RuleId::kDefSinglePk, "whole");
  if (!context.existing.empty()) add(RuleId::kDefNameUnique, "unique");
  if (SendsUdfs(context.capabilities) && !c.ints.empty()) {
    add(RuleId::kExprDeterministic, "whole");
    // A UDF that is defined but not deterministic is the subtle case: aim at it more.
    for (const auto& [fn, def] : context.functions)
      if (!def.deterministic) {
        add(RuleId::kExprDeterministic, "whole");
        add(RuleId::kExprDeterministic, "whole");
        break;
      }
  }
  return out;
}

std::vector<RuleId> InvalidConstraintTargets(const ConstraintGenContext& context) {
  if (context.format_version < 4) return {RuleId::kDefV4Only};
  const InvalidBasis b = Basis(context);
  const Columns& c = b.cols;
  std::vector<RuleId> out = {RuleId::kExprIdReferences, RuleId::kSchReferencedExist};
  if (b.key) {
    out.push_back(RuleId::kDefTypes);
    out.push_back(RuleId::kDefCheckExpression);
    out.push_back(RuleId::kDefKeyFieldIds);
    out.push_back(RuleId::kDefRequiredFields);
  }
  if (!c.strings.empty()) out.push_back(RuleId::kExprWellTyped);
  if (b.optional_key) out.push_back(RuleId::kKeyPkRequired);
  if (!c.structs.empty() || !c.variants.empty()) out.push_back(RuleId::kKeyPrimitiveOnly);
  if (!c.list_elements.empty() || !c.map_keys.empty()) {
    out.push_back(RuleId::kKeyNotInListMap);
    out.push_back(RuleId::kExprNoListMapElement);
  }
  if (!c.floats.empty()) out.push_back(RuleId::kKeyNoFloatDouble);
  if (!c.geo.empty()) out.push_back(RuleId::kKeyNoGeo);
  if (!c.unknown.empty()) out.push_back(RuleId::kKeyNoUnknown);
  if (HasPrimaryKey(context.existing) && b.pk_key) out.push_back(RuleId::kDefSinglePk);
  if (!context.existing.empty()) out.push_back(RuleId::kDefNameUnique);
  if (SendsUdfs(context.capabilities) && !c.ints.empty()) {
    out.push_back(RuleId::kExprDeterministic);
    // A UDF that is defined but not deterministic is the subtle case: aim at it more.
    for (const auto& [fn, def] : context.functions)
      if (!def.deterministic) {
        out.push_back(RuleId::kExprDeterministic);
        out.push_back(RuleId::kExprDeterministic);
        break;
      }
  }
  return out;
}

rc::Gen<Constraint> GenInvalidConstraint(const ConstraintGenContext& context,
                                         RuleId rule) {
  std::vector<InvalidTarget> clauses;
  for (InvalidTarget& t : InvalidConstraintClauses(context))
    if (t.rule == rule) clauses.push_back(std::move(t));
  if (clauses.empty()) clauses.push_back({rule, ClauseOf(rule, "whole")});
  return rc::gen::mapcat(rc::gen::elementOf(clauses), [context](const InvalidTarget& t) {
    return GenInvalidConstraint(context, t);
  });
}

namespace {

/// What an invalid definition is drawn from: the clause, the fields of the schema, the
/// name and the enforced flag.
struct InvalidDraw {
  const ConstraintGenContext& context;
  std::string_view clause;  ///< the clause name after the rule's ("own-flag")
  InvalidBasis basis;
  FieldId key = 1;
  bool enforced = false;

  const std::string& name() const { return context.name; }
  Constraint UniqueOn(std::vector<FieldId> ids) const {
    Constraint c = Make(ConstraintType::kUnique, name(), enforced);
    c.field_ids = std::move(ids);
    return c;
  }
  Constraint CheckOf(Expr e) const {
    Constraint c = Make(ConstraintType::kCheck, name(), enforced);
    c.expression = std::move(e);
    return c;
  }
  static FieldId OneOf(const std::vector<FieldId>& pool, FieldId fallback) {
    return pool.empty() ? fallback : *rc::gen::elementOf(pool);
  }
};

/// A definition that breaks one def.* clause.
Constraint InvalidDefinition(const InvalidDraw& d, RuleId rule) {
  const std::string_view clause = d.clause;
  const FieldId key = d.key;
  switch (rule) {
    case RuleId::kDefV4Only: {
      ConstraintGenContext v4 = d.context;
      v4.format_version = 4;
      return *GenValidConstraint(v4);
    }
    case RuleId::kDefTypes: {
      Constraint c = d.UniqueOn({key});
      c.type.reset();
      // A known type in another case ("Unique") two times in three: only it catches a
      // reader of the type that ignores case (the unknown types are refused anyway).
      c.raw_type = *rc::gen::weightedElement<std::string>(
          {{1, "foreign-key"}, {1, "not-null"}, {4, "Unique"}});
      return c;
    }
    case RuleId::kDefCheckExpression:
      if (clause == "required-for-check")
        return Make(ConstraintType::kCheck, d.name(), d.enforced);
      {
        Constraint c = d.UniqueOn({key});
        c.expression = Expr::Unary(ExprOp::kNotNull, Expr::Ref(key));
        return c;
      }
    case RuleId::kDefKeyFieldIds: {
      if (clause == "at-least-one") return d.UniqueOn({});
      if (clause == "no-duplicates") return d.UniqueOn({key, key});
      if (clause == "required-for-keys")
        return Make(ConstraintType::kUnique, d.name(), d.enforced);
      Constraint c = d.CheckOf(Expr::Unary(ExprOp::kNotNull, Expr::Ref(key)));
      c.field_ids = std::vector<FieldId>{key};
      return c;
    }
    case RuleId::kDefRequiredFields: {
      Constraint c = d.UniqueOn({key});
      if (clause == "name") {
        c.name.reset();
      } else if (clause == "type") {
        c.type.reset();
        c.raw_type.clear();
      } else {
        c.enforced.reset();
      }
      return c;
    }
    case RuleId::kDefSinglePk: {
      Constraint c = Make(ConstraintType::kPrimaryKey, d.name(), d.enforced);
      c.field_ids = std::vector<FieldId>{d.basis.pk_key.value_or(1)};
      return c;
    }
    case RuleId::kDefNameUnique:
    default: {
      ConstraintGenContext again = d.context;
      again.name = *(*rc::gen::elementOf(d.context.existing)).name;
      // Not a primary key, so that def.single-pk does not decide too.
      again.capabilities.primary_key = false;
      if (!again.capabilities.check && !again.capabilities.unique)
        again.capabilities.check = true;
      return *GenValidConstraint(again);
    }
  }
}

/// A key on a field of a kind keys may not use (key.* clauses).
Constraint InvalidKey(const InvalidDraw& d, RuleId rule) {
  const std::string_view clause = d.clause;
  const Columns& cols = d.basis.cols;
  const FieldId key = d.key;
  switch (rule) {
    case RuleId::kKeyPrimitiveOnly:
      return d.UniqueOn({clause == "struct"    ? d.OneOf(cols.structs, key)
                         : clause == "variant" ? d.OneOf(cols.variants, key)
                                               : d.OneOf(cols.collections, key)});
    case RuleId::kKeyNotInListMap:
      return d.UniqueOn({clause == "list" ? d.OneOf(cols.list_elements, key)
                                          : d.OneOf(cols.map_keys, key)});
    case RuleId::kKeyNoFloatDouble:
      return d.UniqueOn({clause == "float" ? d.OneOf(cols.float_only, key)
                                           : d.OneOf(cols.double_only, key)});
    case RuleId::kKeyNoGeo:
      return d.UniqueOn({clause == "geometry" ? d.OneOf(cols.geometry, key)
                                              : d.OneOf(cols.geography, key)});
    case RuleId::kKeyNoUnknown:
      return d.UniqueOn({d.OneOf(cols.unknown, key)});
    case RuleId::kKeyPkRequired:
    default: {
      // own-flag: an optional field (top-level or nested); optional-parent: a required
      // field whose enclosing struct is optional.
      Constraint c = Make(ConstraintType::kPrimaryKey, d.name(), d.enforced);
      c.field_ids = std::vector<FieldId>{clause == "optional-parent"
                                             ? d.OneOf(d.basis.optional_parent, 2)
                                             : d.OneOf(d.basis.optional_own, 2)};
      return c;
    }
  }
}

/// A check whose expression breaks one expr.* clause, or a definition naming a field the
/// schema lacks (sch.referenced-exist); any other rule gets a key without fields.
Constraint InvalidExpressionOrReference(const InvalidDraw& d, RuleId rule) {
  const std::string_view clause = d.clause;
  const Columns& cols = d.basis.cols;
  const FieldId key = d.key;
  switch (rule) {
    case RuleId::kExprIdReferences: {
      Expr named;
      named.op = ExprOp::kNamedReference;
      named.name = "qty";
      return d.CheckOf(Expr::Binary(ExprOp::kGt, std::move(named), Expr::Lit(Value::Long(0))));
    }
    case RuleId::kExprNoListMapElement:
      return d.CheckOf(Expr::Unary(
          ExprOp::kNotNull, Expr::Ref(clause == "list" ? d.OneOf(cols.list_elements, key)
                                                       : d.OneOf(cols.map_keys, key))));
    case RuleId::kExprDeterministic: {
      // An undefined function, or a defined one that is not deterministic.
      std::vector<std::string> nondeterministic;
      for (const auto& [fn, def] : d.context.functions)
        if (!def.deterministic) nondeterministic.push_back(fn);
      const std::string fn = !nondeterministic.empty() && *Uniform<int>(0, 4) != 0
                                 ? *rc::gen::elementOf(nondeterministic)
                                 : d.name() + "_undefined_fn";
      return d.CheckOf(UdfCheck(fn, cols.ints.empty() ? 2 : cols.ints.front()));
    }
    case RuleId::kExprWellTyped:
      // name (string) > 5: the types cannot be aligned without an unsafe cast.
      return d.CheckOf(Expr::Binary(ExprOp::kGt,
                                    Expr::Ref(cols.strings.empty() ? 3 : cols.strings.front()),
                                    Expr::Lit(Value::Long(5))));
    case RuleId::kSchReferencedExist:
      if (*rc::gen::arbitrary<bool>()) return d.UniqueOn({9999});
      return d.CheckOf(Expr::Unary(ExprOp::kNotNull, Expr::Ref(9999)));
    default:
      return d.UniqueOn({});
  }
}

}  // namespace

rc::Gen<Constraint> GenInvalidConstraint(const ConstraintGenContext& context,
                                         const InvalidTarget& target) {
  return rc::gen::exec([context, target]() -> Constraint {
    const RuleId rule = target.rule;
    InvalidDraw d{context, std::string_view(target.clause).substr(target.clause.find('/') + 1),
                  Basis(context)};
    d.key = d.basis.key.value_or(1);
    d.enforced = *rc::gen::arbitrary<bool>();
    switch (rule) {
      case RuleId::kDefV4Only:
      case RuleId::kDefTypes:
      case RuleId::kDefCheckExpression:
      case RuleId::kDefKeyFieldIds:
      case RuleId::kDefRequiredFields:
      case RuleId::kDefSinglePk:
      case RuleId::kDefNameUnique:
        return InvalidDefinition(d, rule);
      case RuleId::kKeyPrimitiveOnly:
      case RuleId::kKeyNotInListMap:
      case RuleId::kKeyNoFloatDouble:
      case RuleId::kKeyNoGeo:
      case RuleId::kKeyNoUnknown:
      case RuleId::kKeyPkRequired:
        return InvalidKey(d, rule);
      default:
        return InvalidExpressionOrReference(d, rule);
    }
  });
}

}  // namespace ictk
