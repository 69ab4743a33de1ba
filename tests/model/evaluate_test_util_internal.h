/// \file
/// What the tests of model/iceberg/evaluate.h share: a schema of every type, rows, literals and
/// calls, and evaluation and binding against that schema.
#pragma once

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/iceberg/evaluate.h"

namespace ictk::evaluate_test {

inline const double kNaN = std::numeric_limits<double>::quiet_NaN();

inline Type P(TypeId id) { return Type::Primitive(id); }

inline NestedField Field(FieldId id, bool required, Type type) {
  NestedField f;
  f.id = id;
  f.name = "f" + std::to_string(id);
  f.required = required;
  f.type = std::move(type);
  return f;
}

inline Expr Lit(Value v) { return Expr::Lit(std::move(v)); }
inline Expr LitL(int64_t x) { return Lit(Value::Long(x)); }
inline Expr LitD(double x) { return Lit(Value::Double(x)); }
inline Expr LitS(std::string s) { return Lit(Value::String(std::move(s))); }
inline Expr Typed(Value v, Type t) {
  Expr e = Expr::Lit(std::move(v));
  e.data_type = std::move(t);
  return e;
}
inline Expr Cmp(ExprOp op, Expr l, Expr r) {
  return Expr::Binary(op, std::move(l), std::move(r));
}
inline Expr Call(std::string name, std::vector<Expr> args) {
  return Expr::Apply(std::move(name), std::move(args));
}
inline Expr Param(std::string name) {
  Expr e;
  e.op = ExprOp::kParameter;
  e.name = std::move(name);
  return e;
}

/// The schema every test evaluates against.
inline std::vector<NestedField> TestSchema() {
  return {
      Field(1, false, P(TypeId::kLong)),
      Field(2, false, P(TypeId::kLong)),
      Field(3, false, P(TypeId::kDouble)),
      Field(4, false, P(TypeId::kDouble)),
      Field(5, false, P(TypeId::kString)),
      Field(6, false, P(TypeId::kDate)),
      Field(7, false, Type::Decimal(9, 2)),
      Field(8, false, P(TypeId::kTimestamp)),
      Field(9, false, P(TypeId::kTimestampNs)),
      Field(10, false, P(TypeId::kInt)),
      Field(11, false, Type::List(12, false, P(TypeId::kInt))),
      Field(13, false, Type::Struct({Field(14, false, P(TypeId::kInt))})),
      Field(15, false, P(TypeId::kUuid)),
      Field(16, false, P(TypeId::kBinary)),
      Field(17, false, P(TypeId::kTimestampTz)),
      Field(18, false, P(TypeId::kBoolean)),
      Field(19, false, Type::Map(20, P(TypeId::kString), 21, false, P(TypeId::kLong))),
      Field(22, false, P(TypeId::kUnknown)),
      Field(23, false, P(TypeId::kTime)),
      Field(24, false, P(TypeId::kFloat)),
  };
}

/// A row from (field id, value) pairs; absent fields are null.
inline Value Row(std::vector<std::pair<FieldId, Value>> values) {
  std::vector<FieldId> ids;
  std::vector<Value> vs;
  for (auto& [id, v] : values) {
    ids.push_back(id);
    vs.push_back(std::move(v));
  }
  return Value::Struct(std::move(ids), std::move(vs));
}

inline std::optional<bool> Eval(const Expr& e, const Value& row,
                         const FunctionCatalog& fns = {}) {
  return EvaluateCheck(e, TestSchema(), row, fns);
}

inline BindResult Bind(const Expr& e, const FunctionCatalog& fns = {}) {
  return BindCheckExpression(e, TestSchema(), fns);
}

inline constexpr int64_t kDate20171116 = 17486;
inline constexpr int64_t kTime223108 = 81'068'000'000;
inline constexpr int64_t kTs20171116T223108 = 1'510'871'468'000'000;

inline std::string UuidBytes() {
  const unsigned char raw[16] = {0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd,
                                 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7};
  return std::string(reinterpret_cast<const char*>(raw), 16);
}

}  // namespace ictk::evaluate_test
