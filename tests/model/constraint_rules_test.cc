// The rules on constraint definitions, sets of constraints and updates
// (model/rules/constraint_rules.h): each rule accepted once and rejected once.
#include "model/rules/constraint_rules.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "tests/model/constraint_test_util_internal.h"
#include "model/iceberg/kinds.h"

namespace ictk {
namespace {

using namespace testing_util;

Findings Define(const Constraint& c, const FunctionCatalog& functions = {},
                DefinitionSource source = DefinitionSource::kMetadata) {
  return CheckConstraintDefinition(c, TestSchema(), functions, source, "/constraints/0");
}

FunctionDefinition Udf(std::string name, bool deterministic, Type param, Type ret) {
  FunctionDefinition f;
  f.name = name;
  f.deterministic = deterministic;
  f.parameters = {{"x", std::move(param)}};
  f.return_type = std::move(ret);
  Expr body;
  body.op = ExprOp::kParameter;
  body.name = "x";
  f.body = body;
  return f;
}

// ---- def.*

TEST(DefTypes, AcceptsTheThreeTypes) {  // def.types
  EXPECT_TRUE(CheckDefTypes(Check(1, "c", Lt(1, 5))).empty());
  EXPECT_TRUE(CheckDefTypes(Unique(1, "u", {1})).empty());
  EXPECT_TRUE(CheckDefTypes(Pk(1, "pk", {1})).empty());
}

TEST(DefTypes, RejectsOtherType) {  // def.types
  Constraint c = Unique(1, "u", {1});
  c.type.reset();
  c.raw_type = "foreign-key";
  Findings f = Define(c);
  ASSERT_TRUE(Has(f, RuleId::kDefTypes));
  EXPECT_EQ(First(f, RuleId::kDefTypes)->pointer, "/constraints/0/type");
  EXPECT_EQ(First(f, RuleId::kDefTypes)->constraint_id, 1);
}

TEST(DefRequiredFields, AcceptsCompleteMetadataAndRequest) {  // def.required-fields
  EXPECT_TRUE(
      CheckDefRequiredFields(Pk(1, "pk", {1}), DefinitionSource::kMetadata).empty());
  Constraint request = Pk(1, "pk", {1});
  request.id.reset();
  request.timestamp_ms.reset();
  EXPECT_TRUE(CheckDefRequiredFields(request, DefinitionSource::kRequest).empty());
}

TEST(DefRequiredFields, RejectsMissingFields) {  // def.required-fields
  Constraint c = Pk(1, "pk", {1});
  c.id.reset();
  c.timestamp_ms.reset();
  c.enforced.reset();
  Findings f = CheckDefRequiredFields(c, DefinitionSource::kMetadata, "/constraints/3");
  EXPECT_EQ(Count(f, RuleId::kDefRequiredFields), 3u);
  EXPECT_EQ(f[0].pointer, "/constraints/3/constraint-id");
  Constraint no_name = Pk(1, "pk", {1});
  no_name.name.reset();
  EXPECT_TRUE(Has(CheckDefRequiredFields(no_name, DefinitionSource::kRequest),
                  RuleId::kDefRequiredFields));
  Constraint no_type = Pk(1, "pk", {1});
  no_type.type.reset();
  no_type.raw_type.clear();
  EXPECT_TRUE(Has(Define(no_type), RuleId::kDefRequiredFields));
}

TEST(DefCheckExpression, AcceptsCheckWithExpression) {  // def.check-expression
  EXPECT_TRUE(Define(Check(1, "c", Lt(1, 5))).empty());
}

TEST(DefCheckExpression, RejectsMissingOrMisplacedExpression) {  // def.check-expression
  Constraint c = Check(1, "c", Lt(1, 5));
  c.expression.reset();
  EXPECT_TRUE(Has(Define(c), RuleId::kDefCheckExpression));
  Constraint u = Unique(2, "u", {1});
  u.expression = Lt(1, 5);
  Findings f = Define(u);
  ASSERT_TRUE(Has(f, RuleId::kDefCheckExpression));
  EXPECT_EQ(First(f, RuleId::kDefCheckExpression)->pointer, "/constraints/0/expression");
}

TEST(DefKeyFieldIds, AcceptsNonEmptyDistinctIds) {  // def.key-field-ids
  EXPECT_TRUE(CheckDefKeyFieldIds(Unique(1, "u", {1, 2})).empty());
}

TEST(DefKeyFieldIds, RejectsEmptyDuplicateMissingOrOnCheck) {  // def.key-field-ids
  EXPECT_TRUE(Has(CheckDefKeyFieldIds(Unique(1, "u", {})), RuleId::kDefKeyFieldIds));
  Findings dup = CheckDefKeyFieldIds(Unique(1, "u", {1, 2, 1}), "/constraints/0");
  ASSERT_EQ(Count(dup, RuleId::kDefKeyFieldIds), 1u);
  EXPECT_EQ(dup[0].pointer, "/constraints/0/field-ids/2");
  Constraint missing = Pk(1, "pk", {1});
  missing.field_ids.reset();
  EXPECT_TRUE(Has(CheckDefKeyFieldIds(missing), RuleId::kDefKeyFieldIds));
  Constraint check = Check(1, "c", Lt(1, 5));
  check.field_ids = std::vector<FieldId>{1};
  EXPECT_TRUE(Has(Define(check), RuleId::kDefKeyFieldIds));
}

TEST(DefByFieldId, AcceptsIdReferences) {  // def.by-field-id
  EXPECT_TRUE(Define(Check(1, "c", Lt(1, 5))).empty());
  EXPECT_TRUE(Define(Unique(2, "u", {1, 14})).empty());
}

TEST(DefByFieldId, RejectsNameReference) {  // def.by-field-id, via expr.id-references
  Expr named;
  named.op = ExprOp::kNamedReference;
  named.name = "id";
  Findings f =
      Define(Check(1, "c", Expr::Binary(ExprOp::kLt, named, Expr::Lit(Value::Long(5)))));
  ASSERT_TRUE(Has(f, RuleId::kExprIdReferences));
  EXPECT_EQ(First(f, RuleId::kExprIdReferences)->pointer,
            "/constraints/0/expression/left");
  EXPECT_FALSE(Has(f, RuleId::kExprWellTyped)) << "the named reference explains it";
}

TEST(DefIdUnique, AcceptsDistinctIds) {  // def.id-unique
  EXPECT_TRUE(CheckDefIdUnique({Unique(1, "a", {1}), Unique(2, "b", {2})}).empty());
}

TEST(DefIdUnique, RejectsRepeatedId) {  // def.id-unique
  Findings f = CheckConstraintSet({Unique(1, "a", {1}), Unique(1, "b", {2})}, Switches{},
                                  "/constraints");
  ASSERT_TRUE(Has(f, RuleId::kDefIdUnique));
  EXPECT_EQ(First(f, RuleId::kDefIdUnique)->pointer, "/constraints/1/constraint-id");
}

TEST(DefNameUnique,
     AcceptsDistinctNamesAndCaseVariantsWhenSensitive) {  // def.name-unique
  EXPECT_TRUE(
      CheckDefNameUnique({Unique(1, "qty", {1}), Unique(2, "Qty", {2})}, Switches{})
          .empty());
}

TEST(DefNameUnique, RejectsRepeatedName) {  // def.name-unique
  Findings f = CheckDefNameUnique({Unique(1, "a", {1}), Unique(2, "a", {2})}, Switches{},
                                  "/constraints");
  ASSERT_EQ(Count(f, RuleId::kDefNameUnique), 1u);
  EXPECT_EQ(f[0].pointer, "/constraints/1/name");
  EXPECT_EQ(f[0].constraint_id, 2);
}

TEST(DefNameUnique, RejectsCaseVariantUnderNameCaseInsensitive) {  // def.name-unique
  Switches s;
  s.name_case = NameCase::kInsensitive;
  EXPECT_TRUE(Has(CheckDefNameUnique({Unique(1, "qty", {1}), Unique(2, "QTY", {2})}, s),
                  RuleId::kDefNameUnique));
  EXPECT_TRUE(SameConstraintName("Qty", "qTY", s));
  EXPECT_FALSE(SameConstraintName("Qty", "qTY", Switches{}));
}

TEST(DefSinglePk, AcceptsOnePrimaryKeyAndUniques) {  // def.single-pk
  EXPECT_TRUE(
      CheckDefSinglePk({Pk(1, "pk", {1}), Unique(2, "u", {1}), Unique(3, "v", {2})})
          .empty());
}

TEST(DefSinglePk, RejectsSecondPrimaryKey) {  // def.single-pk
  Findings f = CheckDefSinglePk({Pk(1, "pk", {1}), Pk(2, "pk2", {16})}, "/constraints");
  ASSERT_EQ(Count(f, RuleId::kDefSinglePk), 1u);
  EXPECT_EQ(f[0].pointer, "/constraints/1/type");
}

// ---- sch.referenced-exist

TEST(SchReferencedExist, AcceptsExistingFields) {  // sch.referenced-exist
  EXPECT_TRUE(CheckReferencedExist(Unique(1, "u", {1, 14}), TestSchema()).empty());
  EXPECT_TRUE(CheckReferencedExist(Check(1, "c", Lt(1, 5)), TestSchema()).empty());
}

TEST(SchReferencedExist,
     RejectsMissingKeyFieldAndMissingReference) {  // sch.referenced-exist
  Findings key = Define(Unique(1, "u", {1, 99}));
  ASSERT_TRUE(Has(key, RuleId::kSchReferencedExist));
  EXPECT_EQ(First(key, RuleId::kSchReferencedExist)->pointer,
            "/constraints/0/field-ids/1");
  Findings check = Define(Check(1, "c", Lt(99, 5)));
  ASSERT_TRUE(Has(check, RuleId::kSchReferencedExist));
  EXPECT_EQ(First(check, RuleId::kSchReferencedExist)->pointer,
            "/constraints/0/expression/left");
  EXPECT_FALSE(Has(check, RuleId::kExprWellTyped));
}

// ---- key.*

TEST(KeyPrimitiveOnly, AcceptsPrimitiveFields) {  // key.primitive-only
  EXPECT_TRUE(
      CheckKeyPrimitiveOnly(Unique(1, "u", {1, 2, 14, 16}), TestSchema()).empty());
}

TEST(KeyPrimitiveOnly, RejectsStructListMapVariant) {  // key.primitive-only
  for (FieldId id : {13, 6, 8, 17}) {
    SCOPED_TRACE(id);
    EXPECT_TRUE(Has(Define(Unique(1, "u", {id})), RuleId::kKeyPrimitiveOnly));
  }
}

TEST(KeyNotInListMap, AcceptsFieldInRequiredStruct) {  // key.not-in-list-map
  EXPECT_TRUE(CheckKeyNotInListMap(Pk(1, "pk", {14}), TestSchema()).empty());
}

TEST(KeyNotInListMap,
     RejectsElementKeyValueAndFieldInListStruct) {  // key.not-in-list-map
  for (FieldId id : {7, 9, 10, 21}) {
    SCOPED_TRACE(id);
    Findings f = Define(Unique(1, "u", {id}));
    EXPECT_TRUE(Has(f, RuleId::kKeyNotInListMap));
    EXPECT_FALSE(Has(f, RuleId::kKeyPrimitiveOnly));
  }
}

TEST(KeyNoFloatDouble, AcceptsLongField) {  // key.no-float-double
  EXPECT_TRUE(CheckKeyNoFloatDouble(Unique(1, "u", {1}), TestSchema()).empty());
}

TEST(KeyNoFloatDouble, RejectsDoubleField) {  // key.no-float-double
  Findings f = Define(Pk(1, "pk", {1, 3}));
  ASSERT_EQ(Count(f, RuleId::kKeyNoFloatDouble), 1u);
  EXPECT_EQ(First(f, RuleId::kKeyNoFloatDouble)->pointer, "/constraints/0/field-ids/1");
}

TEST(KeyNoFloatDouble, RejectsFloatField) {  // key.no-float-double
  EXPECT_TRUE(Has(Define(Unique(1, "u", {18})), RuleId::kKeyNoFloatDouble));
}

TEST(KeyNoGeo, AcceptsStringField) {  // key.no-geo
  EXPECT_TRUE(CheckKeyNoGeo(Unique(1, "u", {2}), TestSchema()).empty());
}

TEST(KeyNoGeo, RejectsGeometryAndGeography) {  // key.no-geo
  EXPECT_EQ(Count(Define(Unique(1, "u", {4, 19})), RuleId::kKeyNoGeo), 2u);
}

TEST(KeyNoUnknown, AcceptsDateField) {  // key.no-unknown
  EXPECT_TRUE(CheckKeyNoUnknown(Unique(1, "u", {16}), TestSchema()).empty());
}

TEST(KeyNoUnknown, RejectsUnknownField) {  // key.no-unknown
  EXPECT_TRUE(Has(Define(Unique(1, "u", {5})), RuleId::kKeyNoUnknown));
}

TEST(KeyPkRequired, AcceptsRequiredFieldsInRequiredStruct) {  // key.pk-required
  EXPECT_TRUE(Define(Pk(1, "pk", {1, 14})).empty());
}

TEST(KeyPkRequired, RejectsOptionalFieldAndFieldUnderOptionalStruct) {  // key.pk-required
  EXPECT_TRUE(Has(Define(Pk(1, "pk", {2})), RuleId::kKeyPkRequired));
  EXPECT_TRUE(Has(Define(Pk(1, "pk", {15})), RuleId::kKeyPkRequired));
  Findings nested = Define(Pk(1, "pk", {12}));  // required `code` in optional `info`
  ASSERT_TRUE(Has(nested, RuleId::kKeyPkRequired));
  EXPECT_NE(First(nested, RuleId::kKeyPkRequired)->detail.find("optional struct"),
            std::string::npos);
}

TEST(KeyUniqueOptionalOk,
     AcceptsOptionalAndUnderOptionalStruct) {  // key.unique-optional-ok
  EXPECT_TRUE(Define(Unique(1, "u", {2, 12, 15})).empty());
}

TEST(KeyUniqueOptionalOk, TheSameFieldsRejectedForPrimaryKey) {  // key.unique-optional-ok
  EXPECT_EQ(Count(Define(Pk(1, "pk", {2, 12, 15})), RuleId::kKeyPkRequired), 3u);
}

// ---- expr.*

TEST(ExprIdReferences, AcceptsIdReference) {  // expr.id-references
  EXPECT_TRUE(CheckExprIdReferences(Check(1, "c", Lt(1, 5))).empty());
}

TEST(ExprIdReferences, RejectsNamedReferenceAndLegacyForm) {  // expr.id-references
  Expr named;
  named.op = ExprOp::kNamedReference;
  named.name = "name";
  EXPECT_TRUE(
      Has(CheckExprIdReferences(Check(1, "c", Expr::Unary(ExprOp::kNotNull, named))),
          RuleId::kExprIdReferences));
  Expr legacy = Lt(1, 5);
  legacy.legacy_form = true;
  Findings f = CheckExprIdReferences(
      Check(1, "c", Expr::Binary(ExprOp::kOr, Expr::True(), legacy)), "/constraints/0");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, RuleId::kExprIdReferences);
  EXPECT_EQ(f[0].pointer, "/constraints/0/expression/right");
}

TEST(ExprNoListMapElement,
     AcceptsWholeListPassedToFunction) {  // expr.no-list-map-element
  Expr size = Expr::Apply("list_size", {Expr::Ref(6)});
  Constraint c =
      Check(1, "c", Expr::Binary(ExprOp::kGt, size, Expr::Lit(Value::Long(0))));
  EXPECT_TRUE(CheckExprNoListMapElement(c, TestSchema()).empty());
}

TEST(ExprNoListMapElement,
     RejectsElementAndMapValueReferences) {  // expr.no-list-map-element
  Findings element = Define(Check(1, "c", Expr::Unary(ExprOp::kNotNull, Expr::Ref(7))));
  ASSERT_TRUE(Has(element, RuleId::kExprNoListMapElement));
  EXPECT_EQ(First(element, RuleId::kExprNoListMapElement)->pointer,
            "/constraints/0/expression/child");
  EXPECT_TRUE(Has(Define(Check(1, "c", Lt(10, 3))), RuleId::kExprNoListMapElement));
  EXPECT_TRUE(Has(Define(Check(1, "c", Lt(21, 3))), RuleId::kExprNoListMapElement));
}

TEST(ExprDeterministic, AcceptsBuiltinsAndDeterministicUdf) {  // expr.deterministic
  FunctionCatalog functions{
      {"plus_one", Udf("plus_one", true, P(TypeId::kLong), P(TypeId::kLong))}};
  Constraint c = Check(1, "c",
                       Expr::Binary(ExprOp::kLt, Expr::Apply("plus_one", {Expr::Ref(1)}),
                                    Expr::Lit(Value::Long(10))));
  EXPECT_TRUE(CheckExprDeterministic(c, functions).empty());
  Constraint b =
      Check(1, "c",
            Expr::Binary(ExprOp::kEq,
                         Expr::Apply("bucket", {Expr::Lit(Value::Long(4)), Expr::Ref(1)}),
                         Expr::Lit(Value::Long(0))));
  EXPECT_TRUE(CheckExprDeterministic(b, {}).empty());
}

TEST(ExprDeterministic, RejectsNondeterministicAndUndefinedUdf) {  // expr.deterministic
  FunctionCatalog functions{
      {"rand_like", Udf("rand_like", false, P(TypeId::kLong), P(TypeId::kLong))}};
  Constraint c = Check(1, "c",
                       Expr::Binary(ExprOp::kLt, Expr::Apply("rand_like", {Expr::Ref(1)}),
                                    Expr::Lit(Value::Long(10))));
  Findings f =
      CheckConstraintDefinition(c, TestSchema(), functions, DefinitionSource::kRequest);
  ASSERT_TRUE(Has(f, RuleId::kExprDeterministic));
  EXPECT_EQ(First(f, RuleId::kExprDeterministic)->pointer, "/expression/left");
  Constraint undefined =
      Check(1, "c",
            Expr::Binary(ExprOp::kLt, Expr::Apply("nope", {Expr::Ref(1)}),
                         Expr::Lit(Value::Long(10))));
  Findings u =
      CheckConstraintDefinition(undefined, TestSchema(), {}, DefinitionSource::kRequest);
  EXPECT_TRUE(Has(u, RuleId::kExprDeterministic));
  EXPECT_FALSE(Has(u, RuleId::kExprWellTyped));
}

TEST(ExprDeterministic, RejectsDeterministicUdfCallingNondeterministicOne) {
  // expr.deterministic: a call made through a UDF body is still a call.
  FunctionDefinition inner = Udf("inner", false, P(TypeId::kLong), P(TypeId::kLong));
  FunctionDefinition outer = Udf("outer", true, P(TypeId::kLong), P(TypeId::kLong));
  Expr param;
  param.op = ExprOp::kParameter;
  param.name = "x";
  outer.body = Expr::Apply("inner", {param});
  FunctionCatalog functions{{"inner", inner}, {"outer", outer}};
  Constraint c = Check(1, "c",
                       Expr::Binary(ExprOp::kLt, Expr::Apply("outer", {Expr::Ref(1)}),
                                    Expr::Lit(Value::Long(10))));
  EXPECT_TRUE(Has(CheckExprDeterministic(c, functions), RuleId::kExprDeterministic));
}

TEST(ExprDeterministic, MetadataLintIgnoresUndefinedUdf) {  // expr.deterministic
  Constraint c = Check(1, "c",
                       Expr::Binary(ExprOp::kLt, Expr::Apply("nope", {Expr::Ref(1)}),
                                    Expr::Lit(Value::Long(10))));
  EXPECT_TRUE(Define(c, {}, DefinitionSource::kMetadata).empty());
}

TEST(ExprWellTyped, AcceptsAlignedTypes) {  // expr.well-typed
  EXPECT_TRUE(CheckExprWellTyped(Check(1, "c", Lt(1, 5)), TestSchema(), {}).empty());
  Expr range = Expr::Binary(
      ExprOp::kOr, Expr::Unary(ExprOp::kIsNull, Expr::Ref(2)),
      Expr::Binary(ExprOp::kStartsWith, Expr::Ref(2), Expr::Lit(Value::String("a"))));
  EXPECT_TRUE(CheckExprWellTyped(Check(1, "c", range), TestSchema(), {}).empty());
}

TEST(ExprWellTyped, RejectsStringComparedWithNumberAndListCompared) {  // expr.well-typed
  Findings f = Define(Check(1, "c", Lt(2, 5)));
  ASSERT_TRUE(Has(f, RuleId::kExprWellTyped));
  EXPECT_EQ(First(f, RuleId::kExprWellTyped)->pointer, "/constraints/0/expression");
  // A list field itself is not "within" a list, but comparing it is a type error.
  Findings list = Define(Check(1, "c", Lt(6, 5)));
  EXPECT_FALSE(Has(list, RuleId::kExprNoListMapElement));
  EXPECT_TRUE(Has(list, RuleId::kExprWellTyped));
}

// ---- upd.*

TEST(UpdNameEnforcedOnly, AcceptsNameAndEnforced) {  // upd.name-enforced-only
  ConstraintUpdate u;
  u.name = "renamed";
  u.enforced = false;
  EXPECT_TRUE(CheckConstraintUpdate(Pk(1, "pk", {1}), u).empty());
}

TEST(UpdNameEnforcedOnly, RejectsTypeChange) {  // upd.name-enforced-only
  ConstraintUpdate u;
  u.type = "unique";
  Findings f = CheckConstraintUpdate(Pk(1, "pk", {1}), u);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, RuleId::kUpdNameEnforcedOnly);
  EXPECT_EQ(f[0].pointer, "/set/type");
}

TEST(UpdDefinitionImmutable, AcceptsSameSetOfFieldIds) {  // upd.definition-immutable
  ConstraintUpdate u;
  u.field_ids = std::vector<FieldId>{14, 1};
  EXPECT_TRUE(CheckConstraintUpdate(Pk(1, "pk", {1, 14}), u).empty());
}

TEST(UpdDefinitionImmutable,
     RejectsChangedFieldIdsAndExpression) {  // upd.definition-immutable
  ConstraintUpdate ids;
  ids.field_ids = std::vector<FieldId>{1};
  EXPECT_TRUE(Has(CheckConstraintUpdate(Pk(1, "pk", {1, 14}), ids),
                  RuleId::kUpdDefinitionImmutable));
  ConstraintUpdate expr;
  expr.expression = Lt(1, 6);
  Findings f = CheckConstraintUpdate(Check(2, "c", Lt(1, 5)), expr);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, RuleId::kUpdDefinitionImmutable);
  EXPECT_EQ(f[0].constraint_id, 2);
}

TEST(UpdRestatement, SwitchRestatedDefinitionDecides) {
  // upd.definition-immutable / upd.name-enforced-only, switch restated-definition.
  ConstraintUpdate u;
  u.expression = Lt(1, 5);
  u.type = "check";
  const Constraint c = Check(2, "c", Lt(1, 5));
  EXPECT_EQ(CheckUpdRestatement(c, u).size(), 2u);
  EXPECT_TRUE(CheckConstraintUpdate(c, u).empty());
  EXPECT_TRUE(CheckConstraintUpdate(c, u, Switches{}).empty());  // either: may accept
  Switches reject;
  reject.restated_definition = RestatedDefinition::kReject;
  Findings f = CheckConstraintUpdate(c, u, reject);
  EXPECT_TRUE(Has(f, RuleId::kUpdDefinitionImmutable));
  EXPECT_TRUE(Has(f, RuleId::kUpdNameEnforcedOnly));
}

TEST(UpdTimestamp, AcceptsChangedTimestamp) {  // upd.timestamp
  Constraint before = Pk(1, "pk", {1});
  Constraint after = before;
  after.enforced = false;
  after.timestamp_ms = 2000;
  EXPECT_TRUE(CheckUpdTimestamp(before, after).empty());
  EXPECT_TRUE(CheckUpdTimestamp(before, before).empty()) << "nothing updated";
}

TEST(UpdTimestamp, RejectsKeptTimestamp) {  // upd.timestamp
  Constraint before = Pk(1, "pk", {1});
  Constraint after = before;
  after.name = "key";
  Findings f = CheckUpdTimestamp(before, after, "/constraints/0");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, RuleId::kUpdTimestamp);
  EXPECT_EQ(f[0].pointer, "/constraints/0/timestamp-ms");
}

// ---- EligiblePrimaryKey (upg.skip-ineligible) and ReferencedFieldIds

TEST(UpgSkipIneligible,
     EligiblePrimaryKeyAcceptsRequiredPrimitives) {  // upg.skip-ineligible
  EXPECT_TRUE(EligiblePrimaryKey({1, 14, 16}, TestSchema()));
}

TEST(UpgSkipIneligible,
     EligiblePrimaryKeyRejectsIneligibleFields) {          // upg.skip-ineligible
  EXPECT_FALSE(EligiblePrimaryKey({1, 4}, TestSchema()));  // geometry
  EXPECT_FALSE(EligiblePrimaryKey({3}, TestSchema()));     // double
  EXPECT_FALSE(EligiblePrimaryKey({2}, TestSchema()));     // optional
  EXPECT_FALSE(EligiblePrimaryKey({12}, TestSchema()));    // under optional struct
  EXPECT_FALSE(EligiblePrimaryKey({99}, TestSchema()));    // missing
  EXPECT_FALSE(EligiblePrimaryKey({}, TestSchema()));      // empty
  EXPECT_FALSE(EligiblePrimaryKey({1, 1}, TestSchema()));  // duplicate
}

TEST(SchReferencedExist, ReferencedFieldIdsOfEachType) {  // sch.referenced-exist
  EXPECT_EQ(ReferencedFieldIds(Pk(1, "pk", {14, 1})), (std::vector<FieldId>{14, 1}));
  Expr e = Expr::Binary(ExprOp::kAnd, Lt(16, 5),
                        Expr::Binary(ExprOp::kLtEq, Expr::Ref(1), Expr::Ref(16)));
  EXPECT_EQ(ReferencedFieldIds(Check(1, "c", e)), (std::vector<FieldId>{16, 1}));
}

// ---- properties

/// key.*: a single-field unique constraint is accepted exactly when the field is an
/// eligible key field; a primary key additionally needs it required and not under an
/// optional struct, and then EligiblePrimaryKey agrees.
RC_GTEST_PROP(KeyRules, SingleFieldKeysFollowTheFieldKind, ()) {
  const Schema schema = TestSchema();
  const std::vector<FieldId> ids = AllFieldIds(schema.fields);
  const FieldId id = *rc::gen::elementOf(ids);
  const FieldLocation loc = *FindField(schema, id);
  const TypeId t = loc.field.type.id;
  const bool key_ok = IsPrimitive(t) && !loc.in_list_or_map && t != TypeId::kFloat &&
                      t != TypeId::kDouble && t != TypeId::kGeometry &&
                      t != TypeId::kGeography && t != TypeId::kUnknown;
  const bool pk_ok = key_ok && loc.field.required && !loc.under_optional_struct;
  RC_ASSERT(CheckConstraintDefinition(Unique(1, "u", {id}), schema, {},
                                      DefinitionSource::kMetadata)
                .empty() == key_ok);
  RC_ASSERT(CheckConstraintDefinition(Pk(1, "pk", {id}), schema, {},
                                      DefinitionSource::kMetadata)
                .empty() == pk_ok);
  RC_ASSERT(EligiblePrimaryKey({id}, schema) == pk_ok);
}

/// def.id-unique / def.name-unique / def.single-pk: a set of distinct constraints with at
/// most one primary key has no findings; duplicating any one of them is reported.
RC_GTEST_PROP(ConstraintSet, DuplicatingAConstraintIsReported, ()) {
  const int n = *rc::gen::inRange(1, 6);
  std::vector<Constraint> set;
  for (int i = 0; i < n; ++i) set.push_back(Unique(i + 1, "u" + std::to_string(i), {1}));
  if (*rc::gen::arbitrary<bool>()) set.push_back(Pk(n + 1, "pk", {1}));
  RC_ASSERT(CheckConstraintSet(set, Switches{}).empty());
  const size_t k = *rc::gen::inRange<size_t>(0, set.size());
  set.push_back(set[k]);
  Findings f = CheckConstraintSet(set, Switches{});
  RC_ASSERT(Has(f, RuleId::kDefIdUnique));
  RC_ASSERT(Has(f, RuleId::kDefNameUnique));
  RC_ASSERT(Has(f, RuleId::kDefSinglePk) == (set[k].type == ConstraintType::kPrimaryKey));
}

}  // namespace
}  // namespace ictk
