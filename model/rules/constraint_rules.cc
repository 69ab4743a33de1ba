/// \file
/// The constraint rules (constraint_rules.h): the helpers they share
/// (constraint_rules_internal.h), the functions a check may call, and the aggregates that
/// apply every rule on one constraint definition, on a set of constraints and on an
/// update. The rules themselves, one function per rule each quoting the seed sentence it
/// implements, are split as the spec's subsections: definition checks (def.*,
/// sch.referenced-exist, and on a set def.id-unique, def.name-unique, def.single-pk) in
/// constraint_definition_checks.cc, key-field checks (key.*) in constraint_key_checks.cc,
/// expression checks (expr.*) in constraint_expr_checks.cc, update checks (upd.*) in
/// constraint_update_checks.cc.
#include "model/rules/constraint_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "model/rules/constraint_rules_internal.h"
#include "model/rules/definition_rules.h"

namespace ictk {

namespace internal {

namespace {

/// The JSON key under which child `i` of `e` is serialized (SURROUNDINGS.md "Expressions
/// JSON"), so that findings point into the expression.
std::string ChildKey(const Expr& e, size_t i) {
  switch (e.op) {
    case ExprOp::kNot:
      return "child";
    case ExprOp::kAnd:
    case ExprOp::kOr:
      return i == 0 ? "left" : "right";
    case ExprOp::kIsNull:
    case ExprOp::kNotNull:
    case ExprOp::kIsNan:
    case ExprOp::kNotNan:
    case ExprOp::kIn:
    case ExprOp::kNotIn:
      return e.legacy_form ? "term" : "child";
    case ExprOp::kLt:
    case ExprOp::kLtEq:
    case ExprOp::kGt:
    case ExprOp::kGtEq:
    case ExprOp::kEq:
    case ExprOp::kNotEq:
    case ExprOp::kStartsWith:
    case ExprOp::kNotStartsWith:
      if (e.legacy_form) return i == 0 ? "term" : "value";
      return i == 0 ? "left" : "right";
    case ExprOp::kApply:
      return fmt::format("arguments/{}", i);
    default:
      return fmt::format("{}", i);
  }
}

}  // namespace

bool IsKeyType(const Constraint& c) {
  return c.type == ConstraintType::kUnique || c.type == ConstraintType::kPrimaryKey;
}

bool IsCheck(const Constraint& c) { return c.type == ConstraintType::kCheck; }

std::string TypeText(const Constraint& c) {
  if (c.type) return std::string(ToString(*c.type));
  return c.raw_type;
}

/// Visits every node of `e` with its JSON pointer.
void Walk(const Expr& e, const std::string& pointer,
          const std::function<void(const Expr&, const std::string&)>& visit) {
  visit(e, pointer);
  for (size_t i = 0; i < e.children.size(); ++i) {
    Walk(e.children[i], pointer + "/" + ChildKey(e, i), visit);
  }
}

/// Calls `visit(field_index, location)` for each key field of a unique or primary-key
/// constraint that exists in `schema`.
void ForEachKeyField(const Constraint& c, const Schema& schema,
                     const std::function<void(size_t, const FieldLocation&)>& visit) {
  if (!IsKeyType(c) || !c.field_ids) return;
  for (size_t i = 0; i < c.field_ids->size(); ++i) {
    if (auto loc = FindField(schema, (*c.field_ids)[i])) visit(i, *loc);
  }
}

std::string FieldPointer(const std::string& pointer, size_t i) {
  return fmt::format("{}/field-ids/{}", pointer, i);
}

std::string Describe(const FieldLocation& loc) {
  return fmt::format("field {} ('{}', {})", loc.field.id, loc.field.name,
                     ToString(loc.field.type));
}

bool InnermostCollectionIsMap(const Schema& schema, const FieldLocation& loc) {
  bool is_map = false;
  for (size_t i = 0; i + 1 < loc.path.size(); ++i) {
    const std::optional<FieldLocation> enclosing = FindField(schema, loc.path[i]);
    if (!enclosing) continue;
    const TypeId t = enclosing->field.type.id;
    if (t == TypeId::kList || t == TypeId::kMap) is_map = t == TypeId::kMap;
  }
  return is_map;
}

void Append(Findings& out, Findings more) {
  out.insert(out.end(), std::make_move_iterator(more.begin()),
             std::make_move_iterator(more.end()));
}

char AsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::vector<FieldId> Sorted(std::vector<FieldId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

/// Whether the update names `type` and it is the constraint's current type.
bool SameType(const Constraint& before, const std::string& type) {
  auto parsed = ParseConstraintType(type);
  if (parsed && before.type) return *parsed == *before.type;
  return !before.type && type == before.raw_type;
}


}  // namespace internal

using namespace internal;

// ---------------------------------------------------------------------------------------
// Functions a check may call.

std::string UdfName(const Expr& apply) {
  std::string name;
  for (const std::string& part : apply.function) {
    if (!name.empty()) name += ".";
    name += part;
  }
  return name;
}

const FunctionDefinition* FindUdf(const Expr& apply, const FunctionCatalog& functions) {
  auto it = functions.find(UdfName(apply));
  return it == functions.end() ? nullptr : &it->second;
}

bool IsUdfCall(const Expr& e) {
  if (e.op != ExprOp::kApply || IsBuiltinFunction(e)) return false;
  // A name inside the iceberg_functions catalog that is no built-in is an unknown
  // built-in (a binding error), not a UDF.
  const bool names_iceberg_catalog =
      e.catalog ? *e.catalog == kIcebergFunctionsCatalog
                : e.function.size() == 2 && e.function[0] == kIcebergFunctionsCatalog;
  return !names_iceberg_catalog;
}

bool CallsUserDefinedFunction(const Expr& expr) {
  bool calls = false;
  Walk(expr, "",
       [&](const Expr& e, const std::string&) { calls = calls || IsUdfCall(e); });
  return calls;
}
// ---------------------------------------------------------------------------------------
// Aggregates (constraint_rules.h).

Findings CheckConstraintDefinition(const Constraint& constraint, const Schema& schema,
                                   const FunctionCatalog& functions,
                                   DefinitionSource source, const std::string& pointer) {
  Findings out;
  Append(out, CheckDefRequiredFields(constraint, source, pointer));
  Append(out, CheckDefTypes(constraint, pointer));
  Append(out, CheckDefCheckExpression(constraint, pointer));
  Append(out, CheckDefKeyFieldIds(constraint, pointer));
  const size_t before_refs = out.size();
  Append(out, CheckReferencedExist(constraint, schema, pointer));
  Append(out, CheckKeyPrimitiveOnly(constraint, schema, pointer));
  Append(out, CheckKeyNotInListMap(constraint, schema, pointer));
  Append(out, CheckKeyNoFloatDouble(constraint, schema, pointer));
  Append(out, CheckKeyNoGeo(constraint, schema, pointer));
  Append(out, CheckKeyNoUnknown(constraint, schema, pointer));
  Append(out, CheckKeyPkRequired(constraint, schema, pointer));
  Append(out, CheckExprIdReferences(constraint, pointer));
  Append(out, CheckExprNoListMapElement(constraint, schema, pointer));
  const UndefinedFunctions undefined = source == DefinitionSource::kMetadata
                                           ? UndefinedFunctions::kIgnore
                                           : UndefinedFunctions::kReport;
  Append(out, CheckExprDeterministic(constraint, functions, undefined, pointer));
  // A binding error is only worth its own finding when nothing above explains it; in
  // metadata, an undefined function explains it too (the catalog is not in the metadata).
  bool explained = out.size() > before_refs;
  if (!explained && undefined == UndefinedFunctions::kIgnore && constraint.expression) {
    Walk(*constraint.expression, "", [&](const Expr& e, const std::string&) {
      if (IsUdfCall(e) && !FindUdf(e, functions)) {
        explained = true;
      }
    });
  }
  Append(out, CheckExprWellTyped(constraint, schema, functions, explained, pointer));
  return out;
}

Findings CheckConstraintSet(const std::vector<Constraint>& constraints,
                            const Switches& switches, const std::string& pointer) {
  Findings out;
  Append(out, CheckDefIdUnique(constraints, pointer));
  Append(out, CheckDefNameUnique(constraints, switches, pointer));
  Append(out, CheckDefSinglePk(constraints, pointer));
  return out;
}

Findings CheckConstraintUpdate(const Constraint& before, const ConstraintUpdate& update) {
  Findings out;
  Append(out, CheckUpdNameEnforcedOnly(before, update));
  Append(out, CheckUpdDefinitionImmutable(before, update));
  return out;
}

Findings CheckConstraintUpdate(const Constraint& before, const ConstraintUpdate& update,
                               const Switches& switches) {
  Findings out = CheckConstraintUpdate(before, update);
  if (switches.restated_definition == RestatedDefinition::kReject) {
    Append(out, CheckUpdRestatement(before, update));
  }
  return out;
}

bool EligiblePrimaryKey(const std::vector<FieldId>& field_ids, const Schema& schema) {
  Constraint pk;
  pk.type = ConstraintType::kPrimaryKey;
  pk.raw_type = std::string(ToString(ConstraintType::kPrimaryKey));
  pk.field_ids = field_ids;
  Findings out;
  Append(out, CheckDefKeyFieldIds(pk));
  Append(out, CheckReferencedExist(pk, schema));
  Append(out, CheckKeyPrimitiveOnly(pk, schema));
  Append(out, CheckKeyNotInListMap(pk, schema));
  Append(out, CheckKeyNoFloatDouble(pk, schema));
  Append(out, CheckKeyNoGeo(pk, schema));
  Append(out, CheckKeyNoUnknown(pk, schema));
  Append(out, CheckKeyPkRequired(pk, schema));
  return out.empty();
}

std::vector<FieldId> ReferencedFieldIds(const Constraint& constraint) {
  std::vector<FieldId> out;
  auto add = [&](FieldId id) {
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  };
  const bool check = IsCheck(constraint);
  const bool key = IsKeyType(constraint);
  if ((key || !check) && constraint.field_ids) {
    for (FieldId id : *constraint.field_ids) add(id);
  }
  if ((check || !key) && constraint.expression) {
    Walk(*constraint.expression, "", [&](const Expr& e, const std::string&) {
      if (e.op == ExprOp::kReference) add(e.field_id);
    });
  }
  return out;
}

}  // namespace ictk
