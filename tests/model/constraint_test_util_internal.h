/// \file
/// Small builders for the constraint-rule tests: fields, schemas, constraints, and a way
/// to ask which rules a list of findings names.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "model/iceberg/constraint.h"
#include "model/rules/finding.h"
#include "model/iceberg/types.h"
#include "tests/model/field_test_util_internal.h"

namespace ictk::testing_util {


/// id 1 `id` long required; 2 `name` string optional; 3 `price` double required;
/// 4 `loc` geometry optional; 5 `nothing` unknown optional; 6 `tags` list<string>
/// (element 7); 8 `attrs` map<string,int> (key 9, value 10); 11 `info` optional struct {
/// 12 `code` int required }; 13 `inner` required struct { 14 `sku` string required, 15
/// `note` string optional }; 16 `day` date required; 17 `v` variant optional; 18 `ratio`
/// float required; 19 `area` geography optional; 20 `events` list<struct{21 `at` long
/// required}> (element 22).
inline Schema TestSchema() {
  Schema s;
  s.schema_id = 0;
  s.fields = {
      Field(1, "id", true, P(TypeId::kLong)),
      Field(2, "name", false, P(TypeId::kString)),
      Field(3, "price", true, P(TypeId::kDouble)),
      Field(4, "loc", false, P(TypeId::kGeometry)),
      Field(5, "nothing", false, P(TypeId::kUnknown)),
      Field(6, "tags", false, Type::List(7, true, P(TypeId::kString))),
      Field(8, "attrs", false,
            Type::Map(9, P(TypeId::kString), 10, false, P(TypeId::kInt))),
      Field(11, "info", false, Type::Struct({Field(12, "code", true, P(TypeId::kInt))})),
      Field(13, "inner", true,
            Type::Struct({Field(14, "sku", true, P(TypeId::kString)),
                          Field(15, "note", false, P(TypeId::kString))})),
      Field(16, "day", true, P(TypeId::kDate)),
      Field(17, "v", false, P(TypeId::kVariant)),
      Field(18, "ratio", true, P(TypeId::kFloat)),
      Field(19, "area", false, P(TypeId::kGeography)),
      Field(
          20, "events", false,
          Type::List(22, true, Type::Struct({Field(21, "at", true, P(TypeId::kLong))}))),
  };
  return s;
}

inline Constraint Base(ConstraintType type, ConstraintId id, std::string name) {
  Constraint c;
  c.id = id;
  c.type = type;
  c.raw_type = std::string(ToString(type));
  c.name = std::move(name);
  c.enforced = true;
  c.timestamp_ms = 1000;
  return c;
}

inline Constraint Check(ConstraintId id, std::string name, Expr expression) {
  Constraint c = Base(ConstraintType::kCheck, id, std::move(name));
  c.expression = std::move(expression);
  return c;
}

inline Constraint Unique(ConstraintId id, std::string name, std::vector<FieldId> ids) {
  Constraint c = Base(ConstraintType::kUnique, id, std::move(name));
  c.field_ids = std::move(ids);
  return c;
}

inline Constraint Pk(ConstraintId id, std::string name, std::vector<FieldId> ids) {
  Constraint c = Base(ConstraintType::kPrimaryKey, id, std::move(name));
  c.field_ids = std::move(ids);
  return c;
}

/// `#id < literal`.
inline Expr Lt(FieldId id, int64_t literal) {
  return Expr::Binary(ExprOp::kLt, Expr::Ref(id), Expr::Lit(Value::Long(literal)));
}

inline bool Has(const Findings& findings, RuleId rule) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return f.rule == rule; });
}

inline size_t Count(const Findings& findings, RuleId rule) {
  return static_cast<size_t>(
      std::count_if(findings.begin(), findings.end(),
                    [&](const Finding& f) { return f.rule == rule; }));
}

inline const Finding* First(const Findings& findings, RuleId rule) {
  for (const Finding& f : findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

}  // namespace ictk::testing_util
