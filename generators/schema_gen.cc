/// \file
/// Schema and type generators (schema_gen.h).
#include "generators/schema_gen.h"

#include "model/rules/constraint_rules.h"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "generators/gen_internal.h"
#include "model/iceberg/kinds.h"

namespace ictk {
namespace {

NestedField Field(std::string name, bool required, Type type) {
  NestedField f;
  f.name = std::move(name);
  f.required = required;
  f.type = std::move(type);
  return f;
}

/// Fields of type unknown are optional (ice.unknown-optional); geometry and geography
/// have no JSON row form, so they are optional unless they are the ineligible identifier
/// field.
bool MayBeRequired(const Type& t) {
  return t.id != TypeId::kUnknown && t.id != TypeId::kGeometry &&
         t.id != TypeId::kGeography;
}

std::string ShortName(const Type& t) {
  switch (t.id) {
    case TypeId::kBoolean:
      return "flag";
    case TypeId::kInt:
      return "n";
    case TypeId::kLong:
      return "big";
    case TypeId::kFloat:
      return "f";
    case TypeId::kDouble:
      return "d";
    case TypeId::kDecimal:
      return "dec";
    case TypeId::kDate:
      return "day";
    case TypeId::kTime:
      return "tod";
    case TypeId::kTimestamp:
      return "ts";
    case TypeId::kTimestampTz:
      return "tstz";
    case TypeId::kTimestampNs:
      return "tsns";
    case TypeId::kTimestampTzNs:
      return "tstzns";
    case TypeId::kString:
      return "s";
    case TypeId::kUuid:
      return "u";
    case TypeId::kFixed:
      return "fx";
    case TypeId::kBinary:
      return "bin";
    case TypeId::kUnknown:
      return "nothing";
    case TypeId::kGeometry:
      return "geom";
    case TypeId::kGeography:
      return "geog";
    case TypeId::kStruct:
      return "rec";
    case TypeId::kList:
      return "items";
    case TypeId::kMap:
      return "props";
    default:
      return "x";
  }
}

/// One extra column; IDs are assigned afterwards.
rc::Gen<NestedField> GenExtraColumn(int32_t format_version, bool nested, int index) {
  return rc::gen::exec([format_version, nested, index]() {
    const int kind = nested ? *Uniform<int>(0, 10) : 0;
    Type type;
    bool required = *rc::gen::weightedElement<bool>({{1, true}, {3, false}});
    if (kind <= 5) {
      type = *GenPrimitiveType(format_version);
      if (!MayBeRequired(type)) required = false;
    } else if (kind <= 7) {
      // A struct with a required key-like member, an optional string and an optional int:
      // key.pk-required (required member under a required or optional struct) and
      // key.unique-optional-ok.
      std::vector<NestedField> members;
      members.push_back(Field("k", true, Type::Primitive(TypeId::kLong)));
      members.push_back(Field("t", false, Type::Primitive(TypeId::kString)));
      members.push_back(Field("m", false, Type::Primitive(TypeId::kInt)));
      type = Type::Struct(std::move(members));
      // Half of the structs are required (not one in four): a primary key on `k` needs
      // one, and making that struct optional is what sch.pk-stays-required/optional-parent
      // must refuse.
      required = *rc::gen::arbitrary<bool>();
    } else if (kind == 8) {
      const bool element_required = *rc::gen::arbitrary<bool>();
      type = Type::List(0, element_required, Type::Primitive(TypeId::kInt));
    } else {
      const bool value_required = *rc::gen::arbitrary<bool>();
      type = Type::Map(0, Type::Primitive(TypeId::kString), 0, value_required,
                       Type::Primitive(TypeId::kDouble));
    }
    return Field(fmt::format("{}_{}", ShortName(type), index), required, std::move(type));
  });
}

/// Top-level or nested-in-required-struct fields that may be identifier fields and
/// primary-key fields: those the rule book's EligiblePrimaryKey accepts alone.
std::vector<FieldId> EligibleIdentifierFields(const std::vector<NestedField>& fields) {
  Schema schema;
  schema.fields = fields;
  std::vector<FieldId> out;
  auto consider = [&](FieldId id) {
    if (EligiblePrimaryKey({id}, schema)) out.push_back(id);
  };
  for (const NestedField& f : fields) {
    if (f.type.id == TypeId::kStruct) {
      if (f.required)
        for (const NestedField& m : f.type.fields) consider(m.id);
      continue;
    }
    consider(f.id);
  }
  return out;
}

}  // namespace

std::vector<Type> PrimitiveTypes(int32_t format_version) {
  std::vector<Type> out = {Type::Primitive(TypeId::kBoolean),
                           Type::Primitive(TypeId::kInt),
                           Type::Primitive(TypeId::kLong),
                           Type::Primitive(TypeId::kFloat),
                           Type::Primitive(TypeId::kDouble),
                           Type::Decimal(9, 2),
                           Type::Decimal(38, 0),
                           Type::Decimal(38, 38),
                           Type::Primitive(TypeId::kDate),
                           Type::Primitive(TypeId::kTime),
                           Type::Primitive(TypeId::kTimestamp),
                           Type::Primitive(TypeId::kTimestampTz),
                           Type::Primitive(TypeId::kString),
                           Type::Primitive(TypeId::kUuid),
                           Type::Fixed(1),
                           Type::Fixed(16),
                           Type::Primitive(TypeId::kBinary)};
  if (format_version >= 3) {
    out.push_back(Type::Primitive(TypeId::kTimestampNs));
    out.push_back(Type::Primitive(TypeId::kTimestampTzNs));
    out.push_back(Type::Primitive(TypeId::kUnknown));
    out.push_back(Type::Primitive(TypeId::kGeometry));
    out.push_back(Type::Primitive(TypeId::kGeography));
  }
  return out;
}

rc::Gen<Type> GenPrimitiveType(int32_t format_version) {
  return rc::gen::elementOf(PrimitiveTypes(format_version));
}

FieldId AssignFieldIds(std::vector<NestedField>& fields, FieldId next_id) {
  // Iceberg assigns the IDs of one struct's fields first, then descends.
  for (NestedField& f : fields) f.id = next_id++;
  for (NestedField& f : fields) {
    Type& t = f.type;
    if (t.id == TypeId::kStruct) {
      next_id = AssignFieldIds(t.fields, next_id);
    } else if (t.id == TypeId::kList) {
      t.element_id = next_id++;
      if (t.children[0].id == TypeId::kStruct)
        next_id = AssignFieldIds(t.children[0].fields, next_id);
    } else if (t.id == TypeId::kMap) {
      t.key_id = next_id++;
      t.value_id = next_id++;
      if (t.children[1].id == TypeId::kStruct)
        next_id = AssignFieldIds(t.children[1].fields, next_id);
    }
  }
  return next_id;
}

rc::Gen<Schema> GenSchema(const SchemaGenOptions& options) {
  return rc::gen::exec([options]() {
    std::vector<NestedField> fields;
    fields.push_back(Field("id", true, Type::Primitive(TypeId::kLong)));
    fields.push_back(Field("qty", false, Type::Primitive(TypeId::kInt)));
    fields.push_back(Field("name", false, Type::Primitive(TypeId::kString)));
    fields.push_back(Field("score", false, Type::Primitive(TypeId::kDouble)));
    const int extra = *Uniform<int>(0, options.max_extra_columns + 1);
    for (int i = 0; i < extra; ++i)
      fields.push_back(*GenExtraColumn(options.format_version, options.nested, i));

    IdentifierFields mode = options.identifier_fields;
    if (mode == IdentifierFields::kAny)
      mode = *rc::gen::element(IdentifierFields::kNone, IdentifierFields::kEligible,
                               IdentifierFields::kIneligible);
    if (mode == IdentifierFields::kIneligible) {
      if (options.format_version >= 3) {
        fields.push_back(Field("geo_key", true, Type::Primitive(TypeId::kGeometry)));
      } else {
        mode =
            IdentifierFields::kEligible;  // v1/v2 have no valid identifier a pk refuses
      }
    }
    AssignFieldIds(fields, 1);

    Schema schema;
    schema.schema_id = 0;
    schema.fields = std::move(fields);
    if (mode == IdentifierFields::kEligible) {
      std::vector<FieldId> eligible = EligibleIdentifierFields(schema.fields);
      std::vector<FieldId> ids = {1};
      if (eligible.size() > 1 && *rc::gen::arbitrary<bool>())
        ids.push_back(*rc::gen::elementOf(
            std::vector<FieldId>(eligible.begin() + 1, eligible.end())));
      schema.identifier_field_ids = ids;
    } else if (mode == IdentifierFields::kIneligible) {
      schema.identifier_field_ids = std::vector<FieldId>{1, schema.fields.back().id};
    }
    return schema;
  });
}

bool RowsWritable(const std::vector<NestedField>& fields) {
  for (const NestedField& f : fields) {
    if (!f.required) continue;
    if (f.type.id == TypeId::kGeometry || f.type.id == TypeId::kGeography ||
        f.type.id == TypeId::kVariant)
      return false;
    if (f.type.id == TypeId::kStruct && !RowsWritable(f.type.fields)) return false;
  }
  return true;
}

}  // namespace ictk
