/// \file
/// Constraint generators (constraint_gen.h): the columns of a schema, the key candidates,
/// UDF checks and valid constraints. Check expressions are in constraint_gen_check.cc,
/// invalid definitions in constraint_gen_invalid.cc.
#include "generators/constraint_gen.h"

#include <cassert>
#include <limits>
#include <algorithm>

#include "generators/constraint_gen_internal.h"
#include "generators/gen_internal.h"
#include "model/rules/constraint_rules.h"
#include "model/iceberg/kinds.h"

namespace ictk {
namespace constraint_gen_internal {

Constraint Make(ConstraintType type, const std::string& name, bool enforced) {
  Constraint c;
  c.type = type;
  c.raw_type = std::string(ToString(type));
  c.name = name;
  c.enforced = enforced;
  return c;
}

namespace {

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

}  // namespace

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

}  // namespace constraint_gen_internal

using namespace constraint_gen_internal;  // NOLINT: the generators' shared helpers

namespace {

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
                                  bool deterministic, bool or_equal) {
  assert(threshold >= std::numeric_limits<int32_t>::min() &&
         threshold <= std::numeric_limits<int32_t>::max());
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
      Expr::Binary(or_equal ? ExprOp::kGtEq : ExprOp::kGt, std::move(param),
                   Expr::Lit(Value::Long(threshold))));
  return f;
}

bool SendsUdfs(const Capabilities& capabilities) {
  if (!capabilities.udf) return false;
  if (!capabilities.expression_operators) return true;
  return capabilities.DeclaresOperators(UdfCheck("f", 1)) &&
         capabilities.DeclaresOperators(UdfGreaterThan("f", 0, true, false).body) &&
         capabilities.DeclaresOperators(UdfGreaterThan("f", 0, true, true).body);
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
    const bool checks = caps.check && ChecksDrawable(context.schema, caps);
    if (checks) types.push_back(ConstraintType::kCheck);
    if (checks && SendsUdfs(caps) && !UsableUdfs(context.functions).empty())
      types.push_back(ConstraintType::kCheck);  // UDF checks twice as likely
    if (caps.unique && !keys.empty()) types.push_back(ConstraintType::kUnique);
    if (caps.primary_key && !pk_keys.empty() && !HasPrimaryKey(context.existing))
      types.push_back(ConstraintType::kPrimaryKey);
    if (types.empty()) types.push_back(ConstraintType::kCheck);
    if (context.prefer_udf_check && caps.check && SendsUdfs(caps)) {
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

}  // namespace ictk
