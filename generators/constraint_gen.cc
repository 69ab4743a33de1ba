/// \file
/// Constraint generators (constraint_gen.h).
#include "generators/constraint_gen.h"

#include <algorithm>

#include "generators/gen_internal.h"
#include "model/rules/constraint_rules.h"

namespace ictk {
namespace {

Constraint Make(ConstraintType type, const std::string& name, bool enforced) {
  Constraint c;
  c.type = type;
  c.raw_type = std::string(ToString(type));
  c.name = name;
  c.enforced = enforced;
  return c;
}

Expr OrNull(Expr predicate, FieldId id) {
  return Expr::Binary(ExprOp::kOr, std::move(predicate),
                      Expr::Unary(ExprOp::kIsNull, Expr::Ref(id)));
}

struct Columns {
  std::vector<FieldId> ints, longs, strings, floats, timestamps, any_primitive,
      list_elements, map_keys, structs, geo, unknown;
  // Finer pools for the invalid generators' clauses (any depth outside lists and maps).
  std::vector<FieldId> float_only, double_only, geometry, geography, collections;
  std::vector<FieldId> variants;  ///< variant fields (v3+), not primitive

  std::vector<FieldId> nested_ints;  ///< int members of structs (not in lists or maps)
};

void Collect(const std::vector<NestedField>& fields, bool nested, Columns& out) {
  for (const NestedField& f : fields) {
    switch (f.type.id) {
      case TypeId::kInt:
        (nested ? out.nested_ints : out.ints).push_back(f.id);
        break;
      case TypeId::kLong:
        if (!nested) out.longs.push_back(f.id);
        break;
      case TypeId::kString:
        if (!nested) out.strings.push_back(f.id);
        break;
      case TypeId::kFloat:
      case TypeId::kDouble:
        if (!nested) out.floats.push_back(f.id);
        (f.type.id == TypeId::kFloat ? out.float_only : out.double_only).push_back(f.id);
        break;
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
        if (!nested) out.timestamps.push_back(f.id);
        break;
      case TypeId::kGeometry:
      case TypeId::kGeography:
        out.geo.push_back(f.id);
        (f.type.id == TypeId::kGeometry ? out.geometry : out.geography).push_back(f.id);
        break;
      case TypeId::kUnknown:
        out.unknown.push_back(f.id);
        break;
      case TypeId::kVariant:
        out.variants.push_back(f.id);
        break;
      case TypeId::kStruct:
        out.structs.push_back(f.id);
        Collect(f.type.fields, true, out);
        break;
      case TypeId::kList:
        out.list_elements.push_back(f.type.element_id);
        out.collections.push_back(f.id);
        break;
      case TypeId::kMap:
        out.map_keys.push_back(f.type.key_id);
        out.collections.push_back(f.id);
        break;
      default:
        break;
    }
    if (IsPrimitive(f.type.id) && !nested) out.any_primitive.push_back(f.id);
  }
}

Columns CollectColumns(const Schema& schema) {
  Columns c;
  Collect(schema.fields, false, c);
  return c;
}

bool HasPrimaryKey(const std::vector<Constraint>& existing) {
  return std::any_of(existing.begin(), existing.end(), [](const Constraint& c) {
    return c.type == ConstraintType::kPrimaryKey;
  });
}

std::vector<std::string> UsableUdfs(const FunctionCatalog& functions) {
  std::vector<std::string> out;
  for (const auto& [name, def] : functions)
    if (def.deterministic && def.parameters.size() == 1 &&
        def.parameters[0].second.id == TypeId::kInt &&
        def.return_type.id == TypeId::kBoolean)
      out.push_back(name);
  return out;
}

void WalkKeys(const std::vector<NestedField>& fields, bool nested, bool optional_parent,
              bool nested_keys, std::vector<KeyCandidate>& out) {
  for (const NestedField& f : fields) {
    const TypeId t = f.type.id;
    if (t == TypeId::kStruct) {
      if (nested_keys)
        WalkKeys(f.type.fields, true, optional_parent || !f.required, true, out);
      continue;
    }
    if (!IsPrimitive(t) || t == TypeId::kFloat || t == TypeId::kDouble ||
        t == TypeId::kGeometry || t == TypeId::kGeography || t == TypeId::kUnknown)
      continue;
    KeyCandidate k;
    k.id = f.id;
    k.type = f.type;
    k.pk_eligible = f.required && !optional_parent;
    k.nested = nested;
    k.required = f.required;
    out.push_back(std::move(k));
  }
}

}  // namespace

std::vector<KeyCandidate> KeyCandidates(const Schema& schema, bool nested_keys) {
  std::vector<KeyCandidate> out;
  WalkKeys(schema.fields, false, false, nested_keys, out);
  return out;
}

Expr UdfCheck(const std::string& function, FieldId field) {
  return Expr::Binary(ExprOp::kEq, Expr::Apply(function, {Expr::Ref(field)}),
                      Expr::Lit(Value::Boolean(true)));
}

FunctionDefinition UdfGreaterThan(const std::string& name, int64_t threshold,
                                  bool deterministic) {
  FunctionDefinition f;
  f.name = name;
  f.deterministic = deterministic;
  f.parameters = {{"x", Type::Primitive(TypeId::kInt)}};
  f.return_type = Type::Primitive(TypeId::kBoolean);
  Expr param;
  param.op = ExprOp::kParameter;
  param.name = "x";
  // x IS NULL OR x > threshold: rows without a value pass, so that statuses can be
  // validated and then carried (wrongly, for a UDF check).
  Expr null_param = param;
  f.body = Expr::Binary(
      ExprOp::kOr, Expr::Unary(ExprOp::kIsNull, std::move(null_param)),
      Expr::Binary(ExprOp::kGt, std::move(param), Expr::Lit(Value::Long(threshold))));
  return f;
}

rc::Gen<Expr> GenCheckExpression(const Schema& schema, const FunctionCatalog& functions,
                                 const Capabilities& capabilities) {
  return rc::gen::exec([schema, functions, capabilities]() -> Expr {
    const Columns c = CollectColumns(schema);
    std::vector<FieldId> numbers = c.ints;
    numbers.insert(numbers.end(), c.longs.begin(), c.longs.end());
    const std::vector<std::string> udfs =
        capabilities.udf ? UsableUdfs(functions) : std::vector<std::string>{};
    // A history that defined UDFs checks with them often, so that a redefinition between
    // commits makes a carried status false (expr.udf-status).
    if (!udfs.empty() && !c.ints.empty() && *Uniform<int>(0, 100) < 60)
      return UdfCheck(*rc::gen::elementOf(udfs), *rc::gen::elementOf(c.ints));
    int kind = *Uniform<int>(0, 16);
    if (kind >= 13) kind = 8;  // transforms often: implementations get Murmur3 wrong
    const int64_t lit = *Uniform<int64_t>(0, 4);
    switch (kind) {
      case 0:
      case 1:
        if (!numbers.empty()) {  // SQL CHECK (n > k): n > k OR n IS NULL
          const FieldId id = *rc::gen::elementOf(numbers);
          return OrNull(
              Expr::Binary(ExprOp::kGt, Expr::Ref(id), Expr::Lit(Value::Long(lit))), id);
        }
        break;
      case 2:
        if (!numbers.empty())  // a comparison that a null breaks (two-valued)
          return Expr::Binary(ExprOp::kLtEq, Expr::Ref(*rc::gen::elementOf(numbers)),
                              Expr::Lit(Value::Long(lit + 1)));
        break;
      case 3:
        if (c.ints.size() + c.longs.size() >= 2) {  // start <= end, across fields
          const FieldId a = *rc::gen::elementOf(numbers);
          FieldId b = *rc::gen::elementOf(numbers);
          if (a == b)
            b = numbers[(std::find(numbers.begin(), numbers.end(), a) - numbers.begin() +
                         1) %
                        numbers.size()];
          return Expr::Binary(ExprOp::kLtEq, Expr::Ref(a), Expr::Ref(b));
        }
        break;
      case 4:
        if (!c.any_primitive.empty())
          return Expr::Unary(ExprOp::kNotNull,
                             Expr::Ref(*rc::gen::elementOf(c.any_primitive)));
        break;
      case 5:
        if (!c.strings.empty()) {
          const FieldId id = *rc::gen::elementOf(c.strings);
          return OrNull(Expr::Binary(ExprOp::kStartsWith, Expr::Ref(id),
                                     Expr::Lit(Value::String("a"))),
                        id);
        }
        break;
      case 6:
        if (!numbers.empty())
          return Expr::Set(ExprOp::kIn, Expr::Ref(*rc::gen::elementOf(numbers)),
                           {Value::Long(0), Value::Long(1), Value::Long(2)});
        break;
      case 7:
        if (!c.floats.empty())
          return Expr::Unary(
              ExprOp::kNot,
              Expr::Unary(ExprOp::kIsNan, Expr::Ref(*rc::gen::elementOf(c.floats))));
        break;
      case 8:
        if (capabilities.transforms && (!numbers.empty() || !c.strings.empty())) {
          std::vector<FieldId> pool = numbers;
          pool.insert(pool.end(), c.strings.begin(), c.strings.end());
          const FieldId id = *rc::gen::elementOf(pool);
          // bucket(N, v) < 3N/4 OR v IS NULL: breaks for a quarter of the values, and
          // which ones depends on Iceberg's Murmur3 of the value's byte form.
          const int64_t n = *rc::gen::element<int64_t>(4, 8, 16);
          return OrNull(Expr::Binary(ExprOp::kLt,
                                     Expr::Apply("bucket", {Expr::Lit(Value::Long(n)),
                                                            Expr::Ref(id)}),
                                     Expr::Lit(Value::Long(n * 3 / 4))),
                        id);
        }
        break;
      case 9:
        if (capabilities.transforms && !c.timestamps.empty()) {
          const FieldId id = *rc::gen::elementOf(c.timestamps);
          // year(ts) >= 1970 OR ts IS NULL: breaks at the 1969 edge.
          return OrNull(Expr::Binary(ExprOp::kGtEq, Expr::Apply("year", {Expr::Ref(id)}),
                                     Expr::Lit(Value::Long(1970))),
                        id);
        }
        break;
      case 10:
        if (!udfs.empty() && !c.ints.empty())
          return UdfCheck(*rc::gen::elementOf(udfs), *rc::gen::elementOf(c.ints));
        break;
      case 12:
        if (!numbers.empty()) {  // NOT (n < k): two-valued, so a null n passes
          const FieldId id = *rc::gen::elementOf(numbers);
          return Expr::Unary(ExprOp::kNot, Expr::Binary(ExprOp::kLt, Expr::Ref(id),
                                                        Expr::Lit(Value::Long(lit))));
        }
        break;
      case 11:
        if (!c.nested_ints.empty()) {
          const FieldId id = *rc::gen::elementOf(c.nested_ints);
          return OrNull(
              Expr::Binary(ExprOp::kGt, Expr::Ref(id), Expr::Lit(Value::Long(lit))), id);
        }
        break;
    }
    // Fallbacks: n > k OR n IS NULL on some number, else a not-null check.
    if (!numbers.empty())
      return OrNull(
          Expr::Binary(ExprOp::kGt, Expr::Ref(numbers[0]), Expr::Lit(Value::Long(lit))),
          numbers[0]);
    if (!c.any_primitive.empty())
      return Expr::Unary(ExprOp::kNotNull, Expr::Ref(c.any_primitive[0]));
    return Expr::True();
  });
}

rc::Gen<Constraint> GenValidConstraint(const ConstraintGenContext& context) {
  return rc::gen::exec([context]() -> Constraint {
    const Capabilities& caps = context.capabilities;
    const bool enforced = *rc::gen::arbitrary<bool>();
    const std::vector<KeyCandidate> keys =
        KeyCandidates(context.schema, caps.nested_keys);
    std::vector<KeyCandidate> pk_keys;
    for (const KeyCandidate& k : keys)
      if (k.pk_eligible) pk_keys.push_back(k);
    std::vector<ConstraintType> types;
    if (caps.check) types.push_back(ConstraintType::kCheck);
    if (caps.check && caps.udf && !UsableUdfs(context.functions).empty())
      types.push_back(ConstraintType::kCheck);  // UDF checks twice as likely
    if (caps.unique && !keys.empty()) types.push_back(ConstraintType::kUnique);
    if (caps.primary_key && !pk_keys.empty() && !HasPrimaryKey(context.existing))
      types.push_back(ConstraintType::kPrimaryKey);
    if (types.empty()) types.push_back(ConstraintType::kCheck);
    if (context.prefer_udf_check && caps.check && caps.udf) {
      const std::vector<std::string> udfs = UsableUdfs(context.functions);
      const Columns cols = CollectColumns(context.schema);
      if (!udfs.empty() && !cols.ints.empty()) {
        Constraint c = Make(ConstraintType::kCheck, context.name, enforced);
        c.expression =
            UdfCheck(*rc::gen::elementOf(udfs), *rc::gen::elementOf(cols.ints));
        return c;
      }
    }
    const ConstraintType type = *rc::gen::elementOf(types);
    Constraint c = Make(type, context.name, enforced);
    if (type == ConstraintType::kCheck) {
      c.expression = *GenCheckExpression(context.schema, context.functions, caps);
      return c;
    }
    const std::vector<KeyCandidate>& pool =
        type == ConstraintType::kPrimaryKey ? pk_keys : keys;
    const int n = std::min<int>(static_cast<int>(pool.size()),
                                *rc::gen::weightedElement<int>({{4, 1}, {2, 2}, {1, 3}}));
    std::vector<FieldId> ids;
    std::vector<FieldId> optional_fields;
    for (const KeyCandidate& k : pool)
      if (!k.pk_eligible) optional_fields.push_back(k.id);
    if (type == ConstraintType::kUnique && !optional_fields.empty() &&
        *Uniform<int>(0, 2) == 0) {
      // A unique key over an optional field: rows with a null part are not compared
      // (sem.unique, key.unique-optional-ok).
      ids.push_back(*rc::gen::elementOf(optional_fields));
    } else {
      // Prefer the columns a history writes colliding values to: `id` first; a primary
      // key is sometimes on a field of a required struct (sch.pk-stays-required's
      // optional-parent clause needs one).
      std::vector<FieldId> nested_pk;
      for (const KeyCandidate& k : pool)
        if (k.nested) nested_pk.push_back(k.id);
      if (type == ConstraintType::kPrimaryKey && !nested_pk.empty() &&
          *Uniform<int>(0, 3) == 0)
        ids.push_back(*rc::gen::elementOf(nested_pk));
      else
        ids.push_back(
            pool[*rc::gen::weightedElement<size_t>({{3, 0}, {1, pool.size() - 1}})].id);
    }
    while (static_cast<int>(ids.size()) < n) {
      const FieldId id = (*rc::gen::elementOf(pool)).id;
      if (std::find(ids.begin(), ids.end(), id) == ids.end())
        ids.push_back(id);
      else
        break;
    }
    c.field_ids = ids;
    return c;
  });
}

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
  if (context.capabilities.udf && !c.ints.empty()) {
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
  if (context.capabilities.udf && !c.ints.empty()) {
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

rc::Gen<Constraint> GenInvalidConstraint(const ConstraintGenContext& context,
                                         const InvalidTarget& target) {
  return rc::gen::exec([context, target]() -> Constraint {
    const RuleId rule = target.rule;
    const std::string_view clause =
        std::string_view(target.clause).substr(target.clause.find('/') + 1);
    const InvalidBasis basis = Basis(context);
    const Columns& cols = basis.cols;
    const FieldId key = basis.key.value_or(1);
    const bool enforced = *rc::gen::arbitrary<bool>();
    const std::string& name = context.name;
    auto unique_on = [&](std::vector<FieldId> ids) {
      Constraint c = Make(ConstraintType::kUnique, name, enforced);
      c.field_ids = std::move(ids);
      return c;
    };
    auto check_of = [&](Expr e) {
      Constraint c = Make(ConstraintType::kCheck, name, enforced);
      c.expression = std::move(e);
      return c;
    };
    auto one_of = [](const std::vector<FieldId>& pool, FieldId fallback) {
      return pool.empty() ? fallback : *rc::gen::elementOf(pool);
    };
    switch (rule) {
      case RuleId::kDefV4Only: {
        ConstraintGenContext v4 = context;
        v4.format_version = 4;
        return *GenValidConstraint(v4);
      }
      case RuleId::kDefTypes: {
        Constraint c = unique_on({key});
        c.type.reset();
        // A known type in another case ("Unique") two times in three: only it catches a
        // reader of the type that ignores case (the unknown types are refused anyway).
        c.raw_type = *rc::gen::weightedElement<std::string>(
            {{1, "foreign-key"}, {1, "not-null"}, {4, "Unique"}});
        return c;
      }
      case RuleId::kDefCheckExpression:
        if (clause == "required-for-check") return Make(ConstraintType::kCheck, name, enforced);
        {
          Constraint c = unique_on({key});
          c.expression = Expr::Unary(ExprOp::kNotNull, Expr::Ref(key));
          return c;
        }
      case RuleId::kDefKeyFieldIds: {
        if (clause == "at-least-one") return unique_on({});
        if (clause == "no-duplicates") return unique_on({key, key});
        if (clause == "required-for-keys") return Make(ConstraintType::kUnique, name, enforced);
        Constraint c = check_of(Expr::Unary(ExprOp::kNotNull, Expr::Ref(key)));
        c.field_ids = std::vector<FieldId>{key};
        return c;
      }
      case RuleId::kDefRequiredFields: {
        Constraint c = unique_on({key});
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
      case RuleId::kKeyPrimitiveOnly:
        return unique_on({clause == "struct"    ? one_of(cols.structs, key)
                          : clause == "variant" ? one_of(cols.variants, key)
                                                : one_of(cols.collections, key)});
      case RuleId::kKeyNotInListMap:
        return unique_on({clause == "list" ? one_of(cols.list_elements, key)
                                           : one_of(cols.map_keys, key)});
      case RuleId::kKeyNoFloatDouble:
        return unique_on({clause == "float" ? one_of(cols.float_only, key)
                                            : one_of(cols.double_only, key)});
      case RuleId::kKeyNoGeo:
        return unique_on({clause == "geometry" ? one_of(cols.geometry, key)
                                               : one_of(cols.geography, key)});
      case RuleId::kKeyNoUnknown:
        return unique_on({one_of(cols.unknown, key)});
      case RuleId::kKeyPkRequired: {
        // own-flag: an optional field (top-level or nested); optional-parent: a required
        // field whose enclosing struct is optional.
        Constraint c = Make(ConstraintType::kPrimaryKey, name, enforced);
        c.field_ids = std::vector<FieldId>{
            clause == "optional-parent" ? one_of(basis.optional_parent, 2)
                                        : one_of(basis.optional_own, 2)};
        return c;
      }
      case RuleId::kDefSinglePk: {
        Constraint c = Make(ConstraintType::kPrimaryKey, name, enforced);
        c.field_ids = std::vector<FieldId>{basis.pk_key.value_or(1)};
        return c;
      }
      case RuleId::kDefNameUnique: {
        ConstraintGenContext again = context;
        again.name = *(*rc::gen::elementOf(context.existing)).name;
        // Not a primary key, so that def.single-pk does not decide too.
        again.capabilities.primary_key = false;
        if (!again.capabilities.check && !again.capabilities.unique)
          again.capabilities.check = true;
        return *GenValidConstraint(again);
      }
      case RuleId::kExprIdReferences: {
        Expr named;
        named.op = ExprOp::kNamedReference;
        named.name = "qty";
        return check_of(
            Expr::Binary(ExprOp::kGt, std::move(named), Expr::Lit(Value::Long(0))));
      }
      case RuleId::kExprNoListMapElement:
        return check_of(Expr::Unary(
            ExprOp::kNotNull, Expr::Ref(clause == "list" ? one_of(cols.list_elements, key)
                                                         : one_of(cols.map_keys, key))));
      case RuleId::kExprDeterministic: {
        // An undefined function, or a defined one that is not deterministic.
        std::vector<std::string> nondeterministic;
        for (const auto& [fn, def] : context.functions)
          if (!def.deterministic) nondeterministic.push_back(fn);
        const std::string fn = !nondeterministic.empty() && *Uniform<int>(0, 4) != 0
                                   ? *rc::gen::elementOf(nondeterministic)
                                   : name + "_undefined_fn";
        return check_of(UdfCheck(fn, cols.ints.empty() ? 2 : cols.ints.front()));
      }
      case RuleId::kExprWellTyped:
        // name (string) > 5: the types cannot be aligned without an unsafe cast.
        return check_of(Expr::Binary(
            ExprOp::kGt, Expr::Ref(cols.strings.empty() ? 3 : cols.strings.front()),
            Expr::Lit(Value::Long(5))));
      case RuleId::kSchReferencedExist:
        if (*rc::gen::arbitrary<bool>()) return unique_on({9999});
        return check_of(Expr::Unary(ExprOp::kNotNull, Expr::Ref(9999)));
      default:
        return unique_on({});
    }
  });
}

}  // namespace ictk
