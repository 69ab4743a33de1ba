// Tests of model/iceberg/evaluate.h: user-defined functions (arguments, whole lists and maps,
// determinism, undefined functions, type errors) and CompiledCheck.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "model/iceberg/evaluate.h"
#include "tests/model/evaluate_test_util_internal.h"

namespace ictk::evaluate_test {
namespace {


// ---- user-defined functions

FunctionDefinition Udf(std::string name, std::vector<std::pair<std::string, Type>> params,
                       Type ret, Expr body, bool deterministic = true) {
  FunctionDefinition f;
  f.name = std::move(name);
  f.parameters = std::move(params);
  f.return_type = std::move(ret);
  f.body = std::move(body);
  f.deterministic = deterministic;
  return f;
}

TEST(UserDefinedFunctions, BodyIsEvaluatedWithArguments) {
  FunctionCatalog fns;
  fns["is_positive"] = Udf("is_positive", {{"x", P(TypeId::kLong)}}, P(TypeId::kBoolean),
                           Cmp(ExprOp::kGt, Param("x"), LitL(0)));
  fns["plus_zero"] = Udf("plus_zero", {{"x", P(TypeId::kLong)}}, P(TypeId::kLong),
                         Call("identity", {Param("x")}));
  const Expr e = Call("is_positive", {Expr::Ref(1)});
  const BindResult r = Bind(e, fns);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.calls_udf);
  EXPECT_FALSE(r.calls_nondeterministic);
  EXPECT_EQ(Eval(e, Row({{1, Value::Long(3)}}), fns), true);
  EXPECT_EQ(Eval(e, Row({{1, Value::Long(-3)}}), fns), false);
  // An int argument is promoted to the long parameter; a UDF result is a term.
  const Expr nested = Call("is_positive", {Call("plus_zero", {Expr::Ref(10)})});
  EXPECT_TRUE(Bind(nested, fns).ok()) << Bind(nested, fns).error;
  EXPECT_EQ(Eval(nested, Row({{10, Value::Long(2)}}), fns), true);
  EXPECT_EQ(Eval(Cmp(ExprOp::kEq, Call("plus_zero", {LitL(4)}), LitL(4)), Row({}), fns),
            true);
}

TEST(UserDefinedFunctions, WholeListsAndMapsMayBePassed) {
  SCOPED_TRACE(
      "expr.no-list-map-element: a whole list or map may be passed to a function");
  FunctionCatalog fns;
  fns["present"] = Udf("present", {{"l", Type::List(100, false, P(TypeId::kInt))}},
                       P(TypeId::kBoolean), Expr::Unary(ExprOp::kNotNull, Param("l")));
  fns["has_map"] = Udf(
      "has_map", {{"m", Type::Map(101, P(TypeId::kString), 102, true, P(TypeId::kLong))}},
      P(TypeId::kBoolean), Expr::Unary(ExprOp::kNotNull, Param("m")));
  const Expr e = Call("present", {Expr::Ref(11)});
  EXPECT_TRUE(Bind(e, fns).ok()) << Bind(e, fns).error;
  EXPECT_EQ(Eval(e, Row({{11, Value::List({Value::Long(1)})}}), fns), true);
  EXPECT_EQ(Eval(e, Row({}), fns), false);
  EXPECT_EQ(Eval(Call("has_map", {Expr::Ref(19)}),
                 Row({{19, Value::Map({Value::String("k")}, {Value::Long(1)})}}), fns),
            true);
  EXPECT_FALSE(Bind(Call("present", {Expr::Ref(19)}), fns).ok()) << "a map is not a list";
}

TEST(UserDefinedFunctions, DeterminismIsReported) {
  SCOPED_TRACE("expr.deterministic");
  FunctionCatalog fns;
  fns["rand_ok"] = Udf("rand_ok", {}, P(TypeId::kBoolean), Expr::True(), false);
  fns["wraps"] = Udf("wraps", {}, P(TypeId::kBoolean), Call("rand_ok", {}));
  BindResult r = Bind(Call("rand_ok", {}), fns);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.calls_udf);
  EXPECT_TRUE(r.calls_nondeterministic);
  r = Bind(Call("wraps", {}), fns);
  EXPECT_TRUE(r.calls_nondeterministic) << "through another UDF's body";
}

TEST(UserDefinedFunctions, UndefinedFunctionCannotBeEvaluated) {
  const Expr e =
      Expr::Binary(ExprOp::kAnd, Call("missing_fn", {Expr::Ref(1)}), Expr::True());
  const BindResult r = Bind(e);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.calls_udf);
  EXPECT_EQ(r.undefined_functions, (std::vector<std::string>{"missing_fn"}));
  EXPECT_EQ(r.referenced_field_ids, (std::vector<FieldId>{1}));
  EXPECT_EQ(Eval(e, Row({{1, Value::Long(1)}})), std::nullopt);
  const CompiledCheck compiled(e, TestSchema(), {});
  EXPECT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.Evaluate(Row({{1, Value::Long(1)}})), std::nullopt);
  // A type error elsewhere is reported in preference to the missing function.
  const BindResult both = Bind(Expr::Binary(ExprOp::kAnd, Call("missing_fn", {}),
                                            Cmp(ExprOp::kEq, Expr::Ref(5), LitL(1))));
  EXPECT_EQ(both.error.find("unknown function"), std::string::npos) << both.error;
}

TEST(UserDefinedFunctions, ArgumentAndBodyTypeErrors) {
  FunctionCatalog fns;
  fns["f"] = Udf("f", {{"x", P(TypeId::kLong)}}, P(TypeId::kBoolean),
                 Cmp(ExprOp::kGt, Param("x"), LitL(0)));
  EXPECT_FALSE(Bind(Call("f", {Expr::Ref(5)}), fns).ok()) << "string argument for a long";
  EXPECT_FALSE(Bind(Call("f", {}), fns).ok()) << "arity";
  EXPECT_FALSE(Bind(Call("f", {LitS("a")}), fns).ok());
  fns["bad_body"] = Udf("bad_body", {{"x", P(TypeId::kString)}}, P(TypeId::kBoolean),
                        Cmp(ExprOp::kGt, Param("x"), LitL(0)));
  EXPECT_FALSE(Bind(Call("bad_body", {Expr::Ref(5)}), fns).ok());
  fns["refers"] =
      Udf("refers", {}, P(TypeId::kBoolean), Cmp(ExprOp::kGt, Expr::Ref(1), LitL(0)));
  EXPECT_FALSE(Bind(Call("refers", {}), fns).ok())
      << "a body sees parameters, not fields";
  fns["loop"] = Udf("loop", {}, P(TypeId::kBoolean), Call("loop", {}));
  const BindResult loop = Bind(Call("loop", {}), fns);
  EXPECT_FALSE(loop.ok());
  EXPECT_EQ(Eval(Call("loop", {}), Row({}), fns), std::nullopt);
}

TEST(CompiledCheck, OutlivesItsArgumentsAndMatchesEvaluateCheck) {
  std::optional<CompiledCheck> compiled;
  const Expr e = Expr::Binary(ExprOp::kOr, Call("is_small", {Expr::Ref(1)}),
                              Expr::Unary(ExprOp::kIsNull, Expr::Ref(1)));
  {
    FunctionCatalog fns;
    fns["is_small"] = Udf("is_small", {{"x", P(TypeId::kLong)}}, P(TypeId::kBoolean),
                          Cmp(ExprOp::kLt, Param("x"), LitL(10)));
    std::vector<NestedField> fields = TestSchema();
    compiled.emplace(e, fields, fns);
    EXPECT_EQ(compiled->Evaluate(Row({{1, Value::Long(3)}})),
              EvaluateCheck(e, fields, Row({{1, Value::Long(3)}}), fns));
  }
  const CompiledCheck copy = *compiled;
  EXPECT_TRUE(copy.ok());
  EXPECT_EQ(copy.Evaluate(Row({{1, Value::Long(3)}})), true);
  EXPECT_EQ(copy.Evaluate(Row({{1, Value::Long(30)}})), false);
  EXPECT_EQ(copy.Evaluate(Row({})), true);
}

}  // namespace
}  // namespace ictk::evaluate_test
