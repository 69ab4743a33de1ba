/// \file
/// Generators of the codec's round-trip properties (json_roundtrip_*_test.cc): types with
/// nested fields and defaults, check expressions in the ID form and the legacy form.
/// Their IDs are assigned afterwards, so that they are unique.
#pragma once

#include <rapidcheck.h>

#include <optional>
#include <string>
#include <vector>

#include "model/iceberg/expression.h"
#include "model/iceberg/types.h"
#include "model/iceberg/value.h"

namespace ictk::roundtrip_test {

namespace gen = rc::gen;

template <typename T>
std::optional<T> Maybe(const rc::Gen<T>& g) {
  if (*gen::inRange(0, 3) == 0) return std::nullopt;
  return *g;
}

/// Printable ASCII: JSON strings must be valid UTF-8.
inline rc::Gen<std::string> Text() {
  return gen::container<std::string>(gen::inRange<char>(32, 127));
}

inline rc::Gen<std::string> Name() {
  return gen::element<std::string>("id", "qty", "price", "a b", "x/y~z", "tag", "ts");
}

// ---- types (IDs assigned afterwards, so that they are unique) ----

inline Type PrimitiveType() {
  switch (*gen::inRange(0, 22)) {
    case 0:
      return Type::Primitive(TypeId::kBoolean);
    case 1:
      return Type::Primitive(TypeId::kInt);
    case 2:
      return Type::Primitive(TypeId::kLong);
    case 3:
      return Type::Primitive(TypeId::kFloat);
    case 4:
      return Type::Primitive(TypeId::kDouble);
    case 5: {
      int p = *gen::inRange(1, 39);
      return Type::Decimal(p, *gen::inRange(0, p + 1));
    }
    case 6:
      return Type::Primitive(TypeId::kDate);
    case 7:
      return Type::Primitive(TypeId::kTime);
    case 8:
      return Type::Primitive(TypeId::kTimestamp);
    case 9:
      return Type::Primitive(TypeId::kTimestampTz);
    case 10:
      return Type::Primitive(TypeId::kTimestampNs);
    case 11:
      return Type::Primitive(TypeId::kTimestampTzNs);
    case 12:
      return Type::Primitive(TypeId::kString);
    case 13:
      return Type::Primitive(TypeId::kUuid);
    case 14:
      return Type::Fixed(*gen::inRange(1, 20));
    case 15:
      return Type::Primitive(TypeId::kBinary);
    case 16:
      return Type::Primitive(TypeId::kUnknown);
    case 17: {
      Type t = Type::Primitive(TypeId::kGeometry);
      t.crs = *gen::element<std::string>("", "srid:4326", "EPSG:3857");
      return t;
    }
    case 18: {
      Type t = Type::Primitive(TypeId::kGeography);
      t.crs = *gen::element<std::string>("", "srid:4269");
      t.algorithm = *gen::element<std::string>("", "karney", "vincenty");
      return t;
    }
    case 19:
      return Type::Primitive(TypeId::kVariant);
    default:
      return Type::Primitive(TypeId::kLong);
  }
}

inline std::optional<std::string> DefaultFor(const Type& t) {
  if (*gen::inRange(0, 4) != 0) return std::nullopt;
  switch (t.id) {
    case TypeId::kInt:
      return "5";
    case TypeId::kLong:
      return "-3";
    case TypeId::kString:
      return "\"n/a\"";
    case TypeId::kBoolean:
      return "false";
    case TypeId::kDate:
      return "\"2024-02-29\"";
    default:
      return std::nullopt;
  }
}

inline Type GenType(int depth);

inline std::vector<NestedField> GenFields(int depth, int max_fields) {
  std::vector<NestedField> fields;
  const int n = *gen::inRange(0, max_fields + 1);
  for (int i = 0; i < n; ++i) {
    NestedField f;
    f.name = *Name() + std::to_string(i);
    f.required = *gen::arbitrary<bool>();
    f.type = GenType(depth - 1);
    f.doc = Maybe(gen::element<std::string>("a doc", ""));
    f.initial_default_json = DefaultFor(f.type);
    f.write_default_json = DefaultFor(f.type);
    fields.push_back(std::move(f));
  }
  return fields;
}

inline Type GenType(int depth) {
  const int kind = depth > 0 ? *gen::inRange(0, 6) : 0;
  switch (kind) {
    case 3:
      return Type::Struct(GenFields(depth, 3));
    case 4:
      return Type::List(0, *gen::arbitrary<bool>(), GenType(depth - 1));
    case 5:
      return Type::Map(0, GenType(0), 0, *gen::arbitrary<bool>(), GenType(depth - 1));
    default:
      return PrimitiveType();
  }
}

inline void AssignIds(Type& t, FieldId& next);
inline void AssignIds(std::vector<NestedField>& fields, FieldId& next) {
  for (auto& f : fields) {
    f.id = next++;
    AssignIds(f.type, next);
  }
}
inline void AssignIds(Type& t, FieldId& next) {
  if (t.id == TypeId::kStruct) AssignIds(t.fields, next);
  if (t.id == TypeId::kList) {
    t.element_id = next++;
    AssignIds(t.children[0], next);
  }
  if (t.id == TypeId::kMap) {
    t.key_id = next++;
    t.value_id = next++;
    AssignIds(t.children[0], next);
    AssignIds(t.children[1], next);
  }
}

inline Schema GenSchema() {
  Schema s;
  s.schema_id = Maybe(gen::inRange(0, 10));
  s.fields = GenFields(3, 4);
  FieldId next = *gen::inRange(0, 3);
  AssignIds(s.fields, next);
  s.identifier_field_ids =
      Maybe(gen::container<std::vector<FieldId>>(gen::inRange(0, 12)));
  return s;
}

// ---- expressions ----

inline Expr Named(std::string name) {
  Expr e;
  e.op = ExprOp::kNamedReference;
  e.name = std::move(name);
  return e;
}

inline Expr UntypedLiteral() {
  switch (*gen::inRange(0, 4)) {
    case 0:
      return Expr::Lit(Value::Long(*gen::arbitrary<int64_t>()));
    case 1:
      return Expr::Lit(Value::String(*Name()));
    case 2:
      return Expr::Lit(Value::Boolean(*gen::arbitrary<bool>()));
    default:
      return Expr::Lit(Value::Double(*gen::inRange(-1000000, 1000000) / 64.0));
  }
}

inline Expr TypedLiteral() {
  Expr e;
  switch (*gen::inRange(0, 4)) {
    case 0:
      e = Expr::Lit(Value::Long(*gen::inRange(-100000, 100000)));
      e.data_type = Type::Primitive(TypeId::kDate);
      break;
    case 1:
      e = Expr::Lit(Value::DecimalOf(*gen::inRange(-999999999, 999999999), 2));
      e.data_type = Type::Decimal(9, 2);
      break;
    case 2:
      e = Expr::Lit(Value::Long(*gen::arbitrary<int64_t>()));
      e.data_type = Type::Primitive(TypeId::kTimestampTz);
      break;
    default:
      e = Expr::Lit(
          Value::Bytes(*gen::container<std::string>(4, gen::arbitrary<char>())));
      e.data_type = Type::Fixed(4);
      break;
  }
  return e;
}

inline Expr LegacyTermExpr() {
  switch (*gen::inRange(0, 3)) {
    case 0:
      return Named(*Name());
    case 1:
      return Expr::Ref(*gen::inRange(1, 30));
    default: {
      Expr t;
      t.op = ExprOp::kApply;
      t.legacy_form = true;
      t.catalog = "iceberg_functions";
      if (*gen::arbitrary<bool>()) {
        t.function = {*gen::element<std::string>("bucket", "truncate")};
        t.children.push_back(Expr::Lit(Value::Long(*gen::inRange(1, 1000))));
      } else {
        t.function = {
            *gen::element<std::string>("identity", "year", "month", "day", "hour")};
      }
      t.children.push_back(*gen::arbitrary<bool>() ? Named(*Name())
                                                   : Expr::Ref(*gen::inRange(1, 30)));
      return t;
    }
  }
}

inline Expr GenTerm(int depth) {
  switch (*gen::inRange(0, depth > 0 ? 7 : 5)) {
    case 0:
      return Expr::Ref(*gen::inRange(0, 30));
    case 1:
      return UntypedLiteral();
    case 2:
      return TypedLiteral();
    case 3:
      return Named(*Name());
    case 4: {
      Expr p;
      p.op = ExprOp::kParameter;
      p.name = *Name();
      return p;
    }
    case 5:
      return LegacyTermExpr();
    default: {
      Expr a;
      a.op = ExprOp::kApply;
      using Path = std::vector<std::string>;
      a.function = *gen::element(Path{"if_else"}, Path{"my_udf"}, Path{"db", "my_udf"},
                                 Path{"bucket"});
      if (*gen::arbitrary<bool>())
        a.catalog = *gen::element<std::string>("iceberg_functions", "c");
      const int n = *gen::inRange(0, 3);
      for (int i = 0; i < n; ++i) a.children.push_back(GenTerm(depth - 1));
      return a;
    }
  }
}

inline Expr GenPredicate(int depth) {
  const ExprOp kUnary[] = {ExprOp::kIsNull, ExprOp::kNotNull, ExprOp::kIsNan,
                           ExprOp::kNotNan};
  const ExprOp kBinary[] = {ExprOp::kLt,         ExprOp::kLtEq,         ExprOp::kGt,
                            ExprOp::kGtEq,       ExprOp::kEq,           ExprOp::kNotEq,
                            ExprOp::kStartsWith, ExprOp::kNotStartsWith};
  const bool legacy = *gen::arbitrary<bool>();
  switch (*gen::inRange(0, depth > 0 ? 8 : 5)) {
    case 0:
      return *gen::arbitrary<bool>() ? Expr::True() : Expr::False();
    case 1: {
      Expr e = Expr::Unary(kUnary[*gen::inRange(0, 4)],
                           legacy ? LegacyTermExpr() : GenTerm(depth));
      e.legacy_form = legacy;
      return e;
    }
    case 2:
    case 3: {
      ExprOp op = kBinary[*gen::inRange(0, 8)];
      if (legacy) {
        Expr e =
            Expr::Binary(op, LegacyTermExpr(),
                         *gen::arbitrary<bool>() ? UntypedLiteral() : TypedLiteral());
        e.legacy_form = true;
        return e;
      }
      return Expr::Binary(op, GenTerm(depth), GenTerm(depth));
    }
    case 4: {
      Expr e = Expr::Set(*gen::arbitrary<bool>() ? ExprOp::kIn : ExprOp::kNotIn,
                         legacy ? LegacyTermExpr() : GenTerm(depth), {});
      e.legacy_form = legacy;
      const int n = *gen::inRange(0, 4);
      if (*gen::arbitrary<bool>()) {
        e.data_type = Type::Primitive(TypeId::kDate);
        for (int i = 0; i < n; ++i)
          e.values.push_back(Value::Long(*gen::inRange(0, 30000)));
      } else {
        for (int i = 0; i < n; ++i)
          e.values.push_back(*gen::arbitrary<bool>() ? Value::Long(*gen::inRange(-9, 9))
                                                     : Value::String(*Name()));
      }
      return e;
    }
    case 5:
      return Expr::Unary(ExprOp::kNot, GenPredicate(depth - 1));
    default:
      return Expr::Binary(*gen::arbitrary<bool>() ? ExprOp::kAnd : ExprOp::kOr,
                          GenPredicate(depth - 1), GenPredicate(depth - 1));
  }
}


}  // namespace ictk::roundtrip_test
