#include "codec/json_row.h"

#include "codec/json_internal.h"
#include "codec/json_keys.h"
#include "codec/json_value.h"

namespace ictk {

using namespace codec_internal;  // NOLINT: the codec's own helpers
using nlohmann::json;

Result<Row> RowFromJson(const json& j, const std::vector<NestedField>& fields,
                        std::string_view pointer) {
  if (!j.is_object()) return Expected(pointer, "a row object {\"key\", \"values\"}", j);
  Row row;
  auto key = RequireString(j, keys::kRowKey, pointer);
  if (!key) return tl::unexpected(key.error());
  row.key = std::move(*key);
  auto values = Require(j, keys::kRowValues, pointer);
  if (!values) return tl::unexpected(values.error());
  auto v =
      ValueFromJson(**values, Type::Struct(fields), Child(pointer, keys::kRowValues));
  if (!v) return tl::unexpected(v.error());
  row.values = std::move(*v);
  return row;
}

json RowToJson(const Row& row, const std::vector<NestedField>& fields) {
  json values = ValueToJson(row.values, Type::Struct(fields));
  if (!values.is_object()) values = json::object();
  return json{{keys::kRowKey, row.key}, {keys::kRowValues, std::move(values)}};
}

}  // namespace ictk
