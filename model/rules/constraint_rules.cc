/// \file
/// The rules on one constraint definition (def.*, key.*, expr.*, sch.referenced-exist),
/// on a set of constraints (def.id-unique, def.name-unique, def.single-pk) and on an
/// update (upd.*). One function per rule, each quoting the seed sentence it implements.
#include "model/rules/constraint_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "model/rules/definition_rules.h"

namespace ictk {
namespace {

bool IsKeyType(const Constraint& c) {
  return c.type == ConstraintType::kUnique || c.type == ConstraintType::kPrimaryKey;
}

bool IsCheck(const Constraint& c) { return c.type == ConstraintType::kCheck; }

constexpr std::string_view kIcebergFunctionsCatalog = "iceberg_functions";
/// How deep CheckExprDeterministic follows UDF bodies calling UDFs (as evaluate.cc does).
constexpr int kMaxUdfCallDepth = 16;

std::string TypeText(const Constraint& c) {
  if (c.type) return std::string(ToString(*c.type));
  return c.raw_type;
}

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

}  // namespace

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
// def.*

/// "Three constraint types are defined: `check` ..., `unique` ..., `primary-key` ..."
/// (def.types): any other `type` is invalid.
Findings CheckDefTypes(const Constraint& constraint, const std::string& pointer) {
  Findings out;
  if (!constraint.type && !constraint.raw_type.empty()) {
    Require(
        out, false, RuleId::kDefTypes,
        fmt::format("type '{}' is not check, unique or primary-key", constraint.raw_type),
        constraint.id, pointer + "/type");
  }
  return out;
}

/// The field table: `constraint-id` (int), `type`, `name`, `enforced` (boolean) and
/// `timestamp-ms` (long) are _required_ (def.required-fields). A request has no
/// `constraint-id` or `timestamp-ms` yet: the writer assigns them.
Findings CheckDefRequiredFields(const Constraint& constraint, DefinitionSource source,
                                const std::string& pointer) {
  Findings out;
  auto require = [&](bool present, std::string_view key) {
    Require(out, present, RuleId::kDefRequiredFields,
            fmt::format("required field '{}' is missing", key), constraint.id,
            fmt::format("{}/{}", pointer, key));
  };
  if (source == DefinitionSource::kMetadata)
    require(constraint.id.has_value(), "constraint-id");
  require(constraint.type.has_value() || !constraint.raw_type.empty(), "type");
  require(constraint.name.has_value(), "name");
  require(constraint.enforced.has_value(), "enforced");
  if (source == DefinitionSource::kMetadata) {
    require(constraint.timestamp_ms.has_value(), "timestamp-ms");
  }
  return out;
}

/// `expression`: "Required for a `check` constraint and must not be set for other types"
/// (def.check-expression).
Findings CheckDefCheckExpression(const Constraint& constraint,
                                 const std::string& pointer) {
  Findings out;
  if (IsCheck(constraint)) {
    Require(out, constraint.expression.has_value(), RuleId::kDefCheckExpression,
            "a check constraint has no expression", constraint.id,
            pointer + "/expression");
  } else if (IsKeyType(constraint)) {
    Require(out, !constraint.expression.has_value(), RuleId::kDefCheckExpression,
            fmt::format("a {} constraint must not set expression", TypeText(constraint)),
            constraint.id, pointer + "/expression");
  }
  return out;
}

/// `field-ids`: "Must contain at least one field ID and no duplicates. Required for a
/// `unique` or `primary-key` constraint and must not be set for a `check` constraint"
/// (def.key-field-ids).
Findings CheckDefKeyFieldIds(const Constraint& constraint, const std::string& pointer) {
  Findings out;
  if (IsCheck(constraint)) {
    Require(out, !constraint.field_ids.has_value(), RuleId::kDefKeyFieldIds,
            "a check constraint must not set field-ids", constraint.id,
            pointer + "/field-ids");
    return out;
  }
  if (!IsKeyType(constraint)) return out;
  if (!Require(out, constraint.field_ids.has_value(), RuleId::kDefKeyFieldIds,
               fmt::format("a {} constraint has no field-ids", TypeText(constraint)),
               constraint.id, pointer + "/field-ids")) {
    return out;
  }
  const auto& ids = *constraint.field_ids;
  Require(out, !ids.empty(), RuleId::kDefKeyFieldIds,
          "field-ids must contain at least one field ID", constraint.id,
          pointer + "/field-ids");
  std::set<FieldId> seen;
  for (size_t i = 0; i < ids.size(); ++i) {
    Require(out, seen.insert(ids[i]).second, RuleId::kDefKeyFieldIds,
            fmt::format("field ID {} is listed more than once", ids[i]), constraint.id,
            FieldPointer(pointer, i));
  }
  return out;
}

/// "Every field referenced by a constraint must exist in the table's current schema."
/// (sch.referenced-exist). "The referenced fields of a `check` constraint are the field
/// IDs in its `expression`; the referenced fields of a `unique` or `primary-key`
/// constraint are its `field-ids`."
Findings CheckReferencedExist(const Constraint& constraint, const Schema& schema,
                              const std::string& pointer) {
  Findings out;
  if (IsKeyType(constraint) && constraint.field_ids) {
    const auto& ids = *constraint.field_ids;
    for (size_t i = 0; i < ids.size(); ++i) {
      Require(out, ReferencedFieldExists(schema.fields, ids[i]),
              RuleId::kSchReferencedExist,
              fmt::format("field ID {} is not in the current schema", ids[i]),
              constraint.id, FieldPointer(pointer, i));
    }
  }
  if (IsCheck(constraint) && constraint.expression) {
    Walk(*constraint.expression, pointer + "/expression",
         [&](const Expr& e, const std::string& at) {
           if (e.op != ExprOp::kReference) return;
           Require(out, ReferencedFieldExists(schema.fields, e.field_id),
                   RuleId::kSchReferencedExist,
                   fmt::format("field ID {} is not in the current schema", e.field_id),
                   constraint.id, at);
         });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// key.*

/// "The `field-ids` of a `unique` or `primary-key` constraint must only reference
/// primitive fields" (key.primitive-only): no struct, list, map or variant.
Findings CheckKeyPrimitiveOnly(const Constraint& constraint, const Schema& schema,
                               const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    Require(out, IsPrimitive(loc.field.type.id), RuleId::kKeyPrimitiveOnly,
            fmt::format("{} is not a primitive field", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "... and must not reference fields within a `list` or a `map`" (key.not-in-list-map).
Findings CheckKeyNotInListMap(const Constraint& constraint, const Schema& schema,
                              const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    Require(out, !loc.in_list_or_map, RuleId::kKeyNotInListMap,
            fmt::format("{} is within a list or a map", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "Fields of type `float` or `double` must not be used." (key.no-float-double)
Findings CheckKeyNoFloatDouble(const Constraint& constraint, const Schema& schema,
                               const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    const TypeId t = loc.field.type.id;
    Require(out, t != TypeId::kFloat && t != TypeId::kDouble, RuleId::kKeyNoFloatDouble,
            fmt::format("{} is a float or double field", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "Fields of type `geometry` or `geography` must not be used because Iceberg does not
/// define equality for them." (key.no-geo)
Findings CheckKeyNoGeo(const Constraint& constraint, const Schema& schema,
                       const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    const TypeId t = loc.field.type.id;
    Require(out, t != TypeId::kGeometry && t != TypeId::kGeography, RuleId::kKeyNoGeo,
            fmt::format("{} is a geometry or geography field", Describe(loc)),
            constraint.id, FieldPointer(pointer, i));
  });
  return out;
}

/// "Fields of type `unknown` must not be used because their values are always null."
/// (key.no-unknown)
Findings CheckKeyNoUnknown(const Constraint& constraint, const Schema& schema,
                           const std::string& pointer) {
  Findings out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    Require(out, loc.field.type.id != TypeId::kUnknown, RuleId::kKeyNoUnknown,
            fmt::format("{} is an unknown field", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
  });
  return out;
}

/// "The fields of a `primary-key` constraint must be `required` and must not be nested in
/// an optional struct" (key.pk-required). "The fields of a `unique` constraint may be
/// optional or nested in optional structs" (key.unique-optional-ok): nothing to report
/// for them.
Findings CheckKeyPkRequired(const Constraint& constraint, const Schema& schema,
                            const std::string& pointer) {
  Findings out;
  if (constraint.type != ConstraintType::kPrimaryKey) return out;
  ForEachKeyField(constraint, schema, [&](size_t i, const FieldLocation& loc) {
    if (PrimaryKeyFieldRequired(loc)) return;
    Require(out, loc.field.required, RuleId::kKeyPkRequired,
            fmt::format("{} of a primary key is optional", Describe(loc)), constraint.id,
            FieldPointer(pointer, i));
    Require(
        out, !loc.under_optional_struct, RuleId::kKeyPkRequired,
        fmt::format("{} of a primary key is nested in an optional struct", Describe(loc)),
        constraint.id, FieldPointer(pointer, i));
  });
  return out;
}

// ---------------------------------------------------------------------------------------
// expr.*

/// "The `expression` of a `check` constraint is serialized as described in the Iceberg
/// expressions spec and must use ID references so that it remains bound to the same
/// fields when columns are renamed." (expr.id-references; with def.by-field-id: "must
/// refer to fields by field ID"). The name-based forms are read-only REST compatibility.
Findings CheckExprIdReferences(const Constraint& constraint, const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression) return out;
  Walk(*constraint.expression, pointer + "/expression",
       [&](const Expr& e, const std::string& at) {
         if (e.op == ExprOp::kNamedReference) {
           Require(out, false, RuleId::kExprIdReferences,
                   fmt::format("reference by name '{}' instead of by field ID", e.name),
                   constraint.id, at);
         } else if (e.legacy_form) {
           Require(
               out, false, RuleId::kExprIdReferences,
               fmt::format("legacy name-based predicate form of '{}'", ExprOpName(e.op)),
               constraint.id, at);
         }
       });
  return out;
}

/// "An expression must not reference a field within a `list` or a `map`, because such a
/// field has a value for each element rather than one value for the row. An expression
/// may pass a whole `list` or `map` field to a function" (expr.no-list-map-element). A
/// reference to the list or map field itself is not "within" it; comparing it directly is
/// a type error (expr.well-typed).
Findings CheckExprNoListMapElement(const Constraint& constraint, const Schema& schema,
                                   const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression) return out;
  Walk(*constraint.expression, pointer + "/expression",
       [&](const Expr& e, const std::string& at) {
         if (e.op != ExprOp::kReference) return;
         auto loc = FindField(schema, e.field_id);
         if (!loc) return;  // sch.referenced-exist
         Require(out, !loc->in_list_or_map, RuleId::kExprNoListMapElement,
                 fmt::format("{} is within a list or a map", Describe(*loc)),
                 constraint.id, at);
       });
  return out;
}

/// "A check expression must produce the same result every time it is evaluated for the
/// same row. A function that depends on anything other than its arguments, such as the
/// current time or a random value, must not be called. A user-defined function must not
/// be called unless its current definition version declares `deterministic` as true."
/// (expr.deterministic). The iceberg_functions built-ins depend on their arguments only.
Findings CheckExprDeterministic(const Constraint& constraint,
                                const FunctionCatalog& functions,
                                UndefinedFunctions undefined,
                                const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression) return out;
  // The first UDF reached through `udf`'s body (and theirs) that is not deterministic.
  std::function<const FunctionDefinition*(const FunctionDefinition&, int)>
      nondeterministic =
          [&](const FunctionDefinition& udf, int depth) -> const FunctionDefinition* {
    if (!udf.deterministic) return &udf;
    if (depth >= kMaxUdfCallDepth) return nullptr;
    const FunctionDefinition* found = nullptr;
    Walk(udf.body, "", [&](const Expr& e, const std::string&) {
      if (found || !IsUdfCall(e)) return;
      if (const FunctionDefinition* callee = FindUdf(e, functions)) {
        found = nondeterministic(*callee, depth + 1);
      }
    });
    return found;
  };
  Walk(*constraint.expression, pointer + "/expression",
       [&](const Expr& e, const std::string& at) {
         if (!IsUdfCall(e)) return;
         const FunctionDefinition* udf = FindUdf(e, functions);
         if (!udf) {
           Require(
               out, undefined == UndefinedFunctions::kIgnore, RuleId::kExprDeterministic,
               fmt::format("function '{}' is not defined, so no definition declares it "
                           "deterministic",
                           UdfName(e)),
               constraint.id, at);
           return;
         }
         const FunctionDefinition* bad = nondeterministic(*udf, 0);
         Require(
             out, bad == nullptr, RuleId::kExprDeterministic,
             bad == udf
                 ? fmt::format("the current definition (version {}) of function '{}' "
                               "does not declare deterministic",
                               udf->version, UdfName(e))
                 : fmt::format("function '{}' calls '{}', whose current definition is "
                               "not deterministic",
                               UdfName(e), bad ? bad->name : std::string()),
             constraint.id, at);
       });
  return out;
}

/// The expression "is serialized as described in the Iceberg expressions spec"
/// (expr.well-typed, derived): it binds to the current schema, its operand types align by
/// promotion, with no unsafe casts (SURROUNDINGS.md "Expressions JSON").
Findings CheckExprWellTyped(const Constraint& constraint, const Schema& schema,
                            const FunctionCatalog& functions, bool already_explained,
                            const std::string& pointer) {
  Findings out;
  if (!IsCheck(constraint) || !constraint.expression || already_explained) return out;
  BindResult bound =
      BindCheckExpression(*constraint.expression, schema.fields, functions);
  Require(
      out, bound.ok(), RuleId::kExprWellTyped,
      fmt::format("the expression does not bind to the current schema: {}", bound.error),
      constraint.id, pointer + "/expression");
  return out;
}

// ---------------------------------------------------------------------------------------
// The set of constraints.

bool SameConstraintName(const std::string& a, const std::string& b,
                        const Switches& switches) {
  if (switches.name_case == NameCase::kSensitive) return a == b;
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

/// `constraint-id`: "ID of the constraint; unique within the table" (def.id-unique).
Findings CheckDefIdUnique(const std::vector<Constraint>& constraints,
                          const std::string& pointer) {
  Findings out;
  std::set<ConstraintId> seen;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const auto& id = constraints[i].id;
    if (!id) continue;
    Require(out, seen.insert(*id).second, RuleId::kDefIdUnique,
            fmt::format("constraint-id {} is used by more than one constraint", *id), id,
            fmt::format("{}/{}/constraint-id", pointer, i));
  }
  return out;
}

/// `name`: "A name for the constraint that is unique within the table" (def.name-unique);
/// whether case matters is switch name-case.
Findings CheckDefNameUnique(const std::vector<Constraint>& constraints,
                            const Switches& switches, const std::string& pointer) {
  Findings out;
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (!constraints[i].name) continue;
    for (size_t j = 0; j < i; ++j) {
      if (!constraints[j].name) continue;
      if (SameConstraintName(*constraints[i].name, *constraints[j].name, switches)) {
        Require(out, false, RuleId::kDefNameUnique,
                fmt::format("name '{}' is also the name of constraint {}",
                            *constraints[i].name, j),
                constraints[i].id, fmt::format("{}/{}/name", pointer, i));
        break;
      }
    }
  }
  return out;
}

/// "A table may have at most one `primary-key` constraint." (def.single-pk)
Findings CheckDefSinglePk(const std::vector<Constraint>& constraints,
                          const std::string& pointer) {
  Findings out;
  std::optional<size_t> first;
  for (size_t i = 0; i < constraints.size(); ++i) {
    if (constraints[i].type != ConstraintType::kPrimaryKey) continue;
    if (!first) {
      first = i;
      continue;
    }
    Require(
        out, false, RuleId::kDefSinglePk,
        fmt::format("a second primary-key constraint (the first is at index {})", *first),
        constraints[i].id, fmt::format("{}/{}/type", pointer, i));
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// upd.*

/// "Only `name` and `enforced` fields in a constraint definition can be updated"
/// (upd.name-enforced-only): here, a change of `type` (expression and field-ids are
/// upd.definition-immutable).
Findings CheckUpdNameEnforcedOnly(const Constraint& before,
                                  const ConstraintUpdate& update) {
  Findings out;
  if (update.type) {
    Require(out, SameType(before, *update.type), RuleId::kUpdNameEnforcedOnly,
            fmt::format("type cannot be updated (from '{}' to '{}')", TypeText(before),
                        *update.type),
            before.id, "/set/type");
  }
  return out;
}

/// "The `expression` and `field-ids` fields must not change, as it would change the
/// constraint requirement. Such updates must be done by removing the constraint and
/// adding a new one with a new `constraint-id`." (upd.definition-immutable). `field-ids`
/// is a set: the same IDs in another order are not a change.
Findings CheckUpdDefinitionImmutable(const Constraint& before,
                                     const ConstraintUpdate& update) {
  Findings out;
  if (update.expression) {
    Require(out, before.expression == update.expression, RuleId::kUpdDefinitionImmutable,
            "expression cannot change; remove the constraint and add a new one",
            before.id, "/set/expression");
  }
  if (update.field_ids) {
    const bool same =
        before.field_ids && Sorted(*before.field_ids) == Sorted(*update.field_ids);
    Require(out, same, RuleId::kUpdDefinitionImmutable,
            "field-ids cannot change; remove the constraint and add a new one", before.id,
            "/set/field-ids");
  }
  return out;
}

/// Restating the current `type`, `expression` or `field-ids` in an update: not a change,
/// yet the request names a field other than name and enforced (switch
/// restated-definition).
Findings CheckUpdRestatement(const Constraint& before, const ConstraintUpdate& update) {
  Findings out;
  if (update.type && SameType(before, *update.type)) {
    Require(out, false, RuleId::kUpdNameEnforcedOnly,
            "the update restates the current type", before.id, "/set/type");
  }
  if (update.expression && before.expression == update.expression) {
    Require(out, false, RuleId::kUpdDefinitionImmutable,
            "the update restates the current expression", before.id, "/set/expression");
  }
  if (update.field_ids && before.field_ids &&
      Sorted(*before.field_ids) == Sorted(*update.field_ids)) {
    Require(out, false, RuleId::kUpdDefinitionImmutable,
            "the update restates the current field-ids", before.id, "/set/field-ids");
  }
  return out;
}

/// "`timestamp-ms` must be updated when the constraint is updated" (upd.timestamp).
Findings CheckUpdTimestamp(const Constraint& before, const Constraint& after,
                           const std::string& pointer) {
  Findings out;
  if (TimestampMustBeUpdated(before, after)) {
    Require(out, before.timestamp_ms != after.timestamp_ms, RuleId::kUpdTimestamp,
            fmt::format("the constraint was updated but timestamp-ms stayed {}",
                        before.timestamp_ms.value_or(0)),
            after.id, pointer + "/timestamp-ms");
  }
  return out;
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
