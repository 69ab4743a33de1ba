// RapidCheck properties: encoding then decoding is the identity on generated table
// metadata (schemas with nested types, constraints with ID-form and legacy expressions,
// snapshots with constraint statuses, unmodeled members) and on generated values of
// generated types.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "codec/json_expression.h"
#include "codec/json_table_metadata.h"
#include "codec/json_text.h"
#include "codec/json_type.h"
#include "codec/json_value.h"

namespace ictk {
namespace {

namespace gen = rc::gen;
using nlohmann::json;

template <typename T>
std::optional<T> Maybe(const rc::Gen<T>& g) {
  if (*gen::inRange(0, 3) == 0) return std::nullopt;
  return *g;
}

/// Printable ASCII: JSON strings must be valid UTF-8.
rc::Gen<std::string> Text() {
  return gen::container<std::string>(gen::inRange<char>(32, 127));
}

rc::Gen<std::string> Name() {
  return gen::element<std::string>("id", "qty", "price", "a b", "x/y~z", "tag", "ts");
}

// ---- types (IDs assigned afterwards, so that they are unique) ----

Type PrimitiveType() {
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

std::optional<std::string> DefaultFor(const Type& t) {
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

Type GenType(int depth);

std::vector<NestedField> GenFields(int depth, int max_fields) {
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

Type GenType(int depth) {
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

void AssignIds(Type& t, FieldId& next);
void AssignIds(std::vector<NestedField>& fields, FieldId& next) {
  for (auto& f : fields) {
    f.id = next++;
    AssignIds(f.type, next);
  }
}
void AssignIds(Type& t, FieldId& next) {
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

Schema GenSchema() {
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

Expr Named(std::string name) {
  Expr e;
  e.op = ExprOp::kNamedReference;
  e.name = std::move(name);
  return e;
}

Expr UntypedLiteral() {
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

Expr TypedLiteral() {
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

Expr LegacyTermExpr() {
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

Expr GenTerm(int depth) {
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

Expr GenPredicate(int depth) {
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

// ---- constraints, snapshots, metadata ----

Constraint GenConstraint() {
  Constraint c;
  c.id = Maybe(gen::inRange(0, 100));
  c.raw_type =
      *gen::element<std::string>("check", "unique", "primary-key", "foreign-key", "");
  c.type = ParseConstraintType(c.raw_type);
  c.name = Maybe(Name());
  c.enforced = Maybe(gen::arbitrary<bool>());
  c.timestamp_ms = Maybe(gen::arbitrary<int64_t>());
  if (*gen::arbitrary<bool>()) c.expression = GenPredicate(3);
  c.field_ids = Maybe(gen::container<std::vector<FieldId>>(gen::inRange(-1, 20)));
  return c;
}

ConstraintStatuses GenStatuses() {
  ConstraintStatuses s;
  for (ConstraintStatus st : kAllStatuses)
    s.List(st) = Maybe(gen::container<std::vector<ConstraintId>>(gen::inRange(0, 10)));
  return s;
}

ExtraFields GenExtra(std::vector<std::string> keys) {
  ExtraFields extra;
  for (const auto& k : keys) {
    if (*gen::inRange(0, 3) != 0) continue;
    extra[k] = *gen::element<std::string>("[]", "[1,2]", "{\"a\":\"b\"}", "\"s\"", "7",
                                          "true", "{\"n\":{\"m\":[null,1.5]}}");
  }
  return extra;
}

std::map<std::string, std::string> GenStringMap(std::vector<std::string> keys) {
  std::map<std::string, std::string> m;
  for (const auto& k : keys)
    if (*gen::arbitrary<bool>()) m[k] = *Name();
  return m;
}

Snapshot GenSnapshot(SnapshotId id) {
  Snapshot s;
  s.snapshot_id = id;
  s.parent_snapshot_id = Maybe(gen::inRange<int64_t>(1, 5));
  s.sequence_number = Maybe(gen::inRange<int64_t>(0, 10));
  s.timestamp_ms = *gen::arbitrary<int64_t>();
  s.summary = GenStringMap({"operation", "added-records", "spark.app.id"});
  s.schema_id = Maybe(gen::inRange(0, 4));
  s.manifest_list = Maybe(gen::element<std::string>("s3://b/m.avro", ""));
  s.first_row_id = Maybe(gen::inRange<int64_t>(0, 100));
  s.added_rows = Maybe(gen::inRange<int64_t>(0, 100));
  if (*gen::arbitrary<bool>()) s.constraint_statuses = GenStatuses();
  s.extra = GenExtra({"manifests", "key-id", "root-manifest"});
  return s;
}

TableMetadata GenMetadata() {
  TableMetadata md;
  md.format_version = *gen::inRange(1, 5);
  md.table_uuid =
      Maybe(gen::element<std::string>("9c12d441-03fe-4693-9a96-a0705ddf69c1", "x"));
  md.location = Maybe(gen::element<std::string>("s3://bucket/t", ""));
  md.last_sequence_number = Maybe(gen::inRange<int64_t>(0, 100));
  md.last_updated_ms = *gen::arbitrary<int64_t>();
  md.last_column_id = *gen::arbitrary<int32_t>();
  const int n_schemas = *gen::inRange(0, 3);
  for (int i = 0; i < n_schemas; ++i) md.schemas.push_back(GenSchema());
  md.current_schema_id = Maybe(gen::inRange(0, 4));
  const int n_specs = *gen::inRange(0, 3);
  for (int i = 0; i < n_specs; ++i) {
    PartitionSpec spec;
    spec.spec_id = i;
    const int n = *gen::inRange(0, 3);
    for (int k = 0; k < n; ++k) {
      PartitionField f;
      f.source_id = *gen::inRange(1, 10);
      f.field_id = Maybe(gen::inRange(1000, 1010));
      f.name = *Name();
      f.transform = *gen::element<std::string>("identity", "bucket[4]", "day", "void");
      f.extra = GenExtra({"source-ids"});
      spec.fields.push_back(std::move(f));
    }
    md.partition_specs.push_back(std::move(spec));
  }
  md.default_spec_id = Maybe(gen::inRange(0, 3));
  md.last_partition_id = Maybe(gen::inRange(999, 1010));
  const int n_orders = *gen::inRange(0, 3);
  for (int i = 0; i < n_orders; ++i) {
    SortOrder o;
    o.order_id = i;
    const int n = *gen::inRange(0, 3);
    for (int k = 0; k < n; ++k) {
      SortField f;
      f.transform = *gen::element<std::string>("identity", "bucket[4]");
      f.source_id = *gen::inRange(1, 10);
      f.direction = *gen::element<std::string>("asc", "desc");
      f.null_order = *gen::element<std::string>("nulls-first", "nulls-last");
      f.extra = GenExtra({"source-ids"});
      o.fields.push_back(std::move(f));
    }
    md.sort_orders.push_back(std::move(o));
  }
  md.default_sort_order_id = Maybe(gen::inRange(0, 3));
  md.next_row_id = Maybe(gen::inRange<int64_t>(0, 1000));
  md.properties = GenStringMap({"owner", "write.format.default", "a.b"});
  md.current_snapshot_id = Maybe(gen::inRange<int64_t>(-1, 5));
  const int n_snapshots = *gen::inRange(0, 4);
  for (int i = 0; i < n_snapshots; ++i) md.snapshots.push_back(GenSnapshot(i + 1));
  for (const char* name : {"main", "b1", "t1"}) {
    if (*gen::arbitrary<bool>()) continue;
    SnapshotRef ref;
    ref.snapshot_id = *gen::inRange<int64_t>(1, 5);
    ref.type = *gen::element<std::string>("branch", "tag");
    ref.extra = GenExtra({"max-ref-age-ms", "min-snapshots-to-keep"});
    md.refs[name] = std::move(ref);
  }
  md.last_constraint_id = Maybe(gen::inRange(0, 100));
  if (*gen::arbitrary<bool>()) {
    md.constraints.emplace();
    const int n = *gen::inRange(0, 4);
    for (int i = 0; i < n; ++i) md.constraints->push_back(GenConstraint());
  }
  // v1's legacy members, in the shapes the decoder produces them: `schema` beside a
  // current-schema-id (without one, decoding derives it).
  if (md.format_version == 1) {
    md.has_legacy_schema =
        !md.schemas.empty() && md.current_schema_id && *gen::arbitrary<bool>();
    md.has_legacy_partition_spec = *gen::arbitrary<bool>();
  }
  md.extra = GenExtra({"metadata-log", "snapshot-log", "statistics", "x-unknown"});
  return md;
}

RC_GTEST_PROP(TableMetadataRoundTrip, EncodeThenDecodeIsIdentity, ()) {
  // Full size from the first case: inRange otherwise scales with RapidCheck's size.
  const TableMetadata md = *gen::resize(100, gen::exec(GenMetadata));
  const json encoded = TableMetadataToJson(md);
  RC_LOG() << DumpJson(encoded, 1) << "\n";
  auto decoded = TableMetadataFromJson(encoded);
  RC_ASSERT(decoded.has_value());
  RC_ASSERT(*decoded == md);
  // Through the text form as well, and the text is deterministic.
  auto reparsed = ParseJsonText(DumpJson(encoded), "encoded");
  RC_ASSERT(reparsed.has_value());
  auto again = TableMetadataFromJson(*reparsed);
  RC_ASSERT(again.has_value());
  RC_ASSERT(*again == md);
  RC_ASSERT(DumpJson(TableMetadataToJson(*again)) == DumpJson(encoded));
}

RC_GTEST_PROP(ExpressionRoundTrip, EncodeThenDecodeIsIdentity, ()) {
  const Expr e = *gen::resize(100, gen::exec([] { return GenPredicate(4); }));
  const json encoded = ExpressionToJson(e);
  RC_LOG() << DumpJson(encoded) << "\n";
  auto decoded = ExpressionFromJson(encoded, "");
  RC_ASSERT(decoded.has_value());
  RC_ASSERT(*decoded == e);
}

// ---- values of generated types ----

Value GenValue(const Type& t, bool allow_null);

Value GenPrimitiveValue(const Type& t) {
  switch (t.id) {
    case TypeId::kBoolean:
      return Value::Boolean(*gen::arbitrary<bool>());
    case TypeId::kInt:
      return Value::Long(*gen::arbitrary<int32_t>());
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Value::Long(*gen::arbitrary<int64_t>());
    case TypeId::kFloat:
      return Value::Double(static_cast<double>(
          static_cast<float>(*gen::inRange(-100000000, 100000000) / 128.0)));
    case TypeId::kDouble: {
      switch (*gen::inRange(0, 6)) {
        case 0:
          return Value::Double(std::numeric_limits<double>::infinity());
        case 1:
          return Value::Double(-std::numeric_limits<double>::infinity());
        case 2:
          return Value::Double(std::numeric_limits<double>::max());
        case 3:
          return Value::Double(std::numeric_limits<double>::denorm_min());
        default:
          return Value::Double(*gen::arbitrary<int64_t>() / 1024.0);
      }
    }
    case TypeId::kDecimal: {
      // Up to `precision` digits, built from two 18-digit halves.
      Int128 v = *gen::inRange<int64_t>(0, 1000000000000000000);
      v = v * 1000000000000000000 + *gen::inRange<int64_t>(0, 1000000000000000000);
      Int128 limit = 1;
      for (int i = 0; i < t.precision; ++i) limit *= 10;
      v %= limit;
      if (*gen::arbitrary<bool>()) v = -v;
      return Value::DecimalOf(v, t.scale);
    }
    case TypeId::kDate:
      // Days within the supported years -999999..999999 (about +-364.5 million days; a
      // wider range made this property fail now and then on a date with no text form).
      return Value::Long(*gen::inRange(-364000000, 364000000));
    case TypeId::kTime:
      return Value::Long(*gen::inRange<int64_t>(0, int64_t{86400} * 1000000));
    case TypeId::kString:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      return Value::String(*Text());
    case TypeId::kUuid:
      return Value::Bytes(*gen::container<std::string>(16, gen::arbitrary<char>()));
    case TypeId::kFixed:
      return Value::Bytes(*gen::container<std::string>(static_cast<size_t>(t.length),
                                                       gen::arbitrary<char>()));
    case TypeId::kBinary:
      return Value::Bytes(*gen::arbitrary<std::string>());
    default:
      return Value::Null();  // unknown, variant: only null
  }
}

Value GenValue(const Type& t, bool allow_null) {
  if (allow_null && *gen::inRange(0, 5) == 0) return Value::Null();
  switch (t.id) {
    case TypeId::kStruct: {
      std::vector<FieldId> ids;
      std::vector<Value> values;
      for (const auto& f : t.fields) {
        if (*gen::inRange(0, 4) == 0) continue;  // absent
        ids.push_back(f.id);
        values.push_back(GenValue(f.type, true));
      }
      return Value::Struct(std::move(ids), std::move(values));
    }
    case TypeId::kList: {
      std::vector<Value> elements;
      const int n = *gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) elements.push_back(GenValue(t.element(), true));
      return Value::List(std::move(elements));
    }
    case TypeId::kMap: {
      std::vector<Value> ks, vs;
      const int n = *gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) {
        ks.push_back(GenValue(t.key(), false));
        vs.push_back(GenValue(t.value(), true));
      }
      return Value::Map(std::move(ks), std::move(vs));
    }
    default:
      return GenPrimitiveValue(t);
  }
}

RC_GTEST_PROP(ValueRoundTrip, AppendixDEncodeThenDecodeIsIdentity, ()) {
  Type type = *gen::resize(100, gen::exec([] {
                             Type t = Type::Struct(GenFields(3, 5));  // a row's shape
                             FieldId next = 1;
                             AssignIds(t, next);
                             return t;
                           }));
  const Value v = *gen::resize(100, gen::exec([&type] { return GenValue(type, true); }));
  const json encoded = ValueToJson(v, type);
  RC_LOG() << DumpJson(TypeToJson(type)) << " : " << DumpJson(encoded) << "\n";
  auto decoded = ValueFromJson(encoded, type, "");
  RC_ASSERT(decoded.has_value());
  RC_ASSERT(*decoded == v);
  auto text = ParseJsonText(DumpJson(encoded), "value");
  RC_ASSERT(text.has_value());
  auto again = ValueFromJson(*text, type, "");
  RC_ASSERT(again.has_value());
  RC_ASSERT(*again == v);
}

}  // namespace
}  // namespace ictk
