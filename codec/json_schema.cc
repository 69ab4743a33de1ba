#include "codec/json_schema.h"

#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_type.h"

namespace ictk {

using namespace codec_internal;  // NOLINT: the codec's own helpers
using nlohmann::json;

Result<Schema> SchemaFromJson(const json& j, std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a schema object", j);
  auto type_name = RequireString(j, keys::kType, pointer);
  if (!type_name) return tl::unexpected(type_name.error());
  if (Lower(*type_name) != keys::kStruct)
    return ParseError(Child(pointer, keys::kType),
                      "expected \"struct\" for a schema, got \"" + *type_name + "\"");
  Schema schema;
  auto schema_id = OptInt32(j, keys::kSchemaId, pointer);
  if (!schema_id) return tl::unexpected(schema_id.error());
  schema.schema_id = *schema_id;
  if (const json* ids = Find(j, keys::kIdentifierFieldIds)) {
    const std::string ids_ptr = Child(pointer, keys::kIdentifierFieldIds);
    if (!ids->is_array()) return Expected(ids_ptr, "an array of field IDs", *ids);
    std::vector<FieldId> out;
    for (size_t i = 0; i < ids->size(); ++i) {
      auto id = AsInt32((*ids)[i], Child(ids_ptr, i));
      if (!id) return tl::unexpected(id.error());
      out.push_back(*id);
    }
    schema.identifier_field_ids = std::move(out);
  }
  auto fields = Require(j, keys::kFields, pointer);
  if (!fields) return tl::unexpected(fields.error());
  const std::string fields_ptr = Child(pointer, keys::kFields);
  if (!(*fields)->is_array()) return Expected(fields_ptr, "an array of fields", **fields);
  for (size_t i = 0; i < (*fields)->size(); ++i) {
    auto f = FieldFromJson((**fields)[i], Child(fields_ptr, i));
    if (!f) return tl::unexpected(f.error());
    schema.fields.push_back(std::move(*f));
  }
  return schema;
}

json SchemaToJson(const Schema& schema) {
  json fields = json::array();
  for (const auto& f : schema.fields) fields.push_back(FieldToJson(f));
  json j{{keys::kType, keys::kStruct}, {keys::kFields, std::move(fields)}};
  if (schema.schema_id) j[keys::kSchemaId] = *schema.schema_id;
  if (schema.identifier_field_ids)
    j[keys::kIdentifierFieldIds] = *schema.identifier_field_ids;
  return j;
}

}  // namespace ictk
