// A minimal user of the installed ictk package: the rule catalogue and a type of the
// reference model, a schema decoded by the codec, and the C ABI header of .so adapters.
// Prints one line per part and exits 0 only when each gives the expected answer.
#include <cstdio>
#include <string>

#include "codec/json_schema.h"
#include "codec/json_text.h"
#include "ictk/adapter.h"
#include "model/judge/rule_catalogue.h"
#include "model/iceberg/types.h"

int main() {
  int failures = 0;

  const auto& rules = ictk::RuleCatalogue();
  std::printf("model: %zu rules, the first %s\n", rules.size(),
              rules.empty() ? "(none)" : std::string(ictk::RuleIdName(rules[0].id)).c_str());
  if (rules.empty()) ++failures;

  const std::string text =
      R"({"type": "struct", "schema-id": 0, "fields": [)"
      R"({"id": 1, "name": "id", "required": true, "type": "long"}]})";
  auto json = ictk::ParseJsonText(text, "consumer");
  if (!json) {
    std::printf("codec: the text did not parse: %s\n", json.error().message.c_str());
    ++failures;
  } else if (auto schema = ictk::SchemaFromJson(*json, ""); !schema) {
    std::printf("codec: the schema did not decode: %s\n", schema.error().message.c_str());
    ++failures;
  } else if (schema->fields.size() != 1) {
    std::printf("codec: %zu fields decoded, 1 expected\n", schema->fields.size());
    ++failures;
  } else {
    std::printf("codec: a schema with field %s: %s\n", schema->fields[0].name.c_str(),
                ictk::ToString(schema->fields[0].type).c_str());
  }

  IctkAdapter adapter{};
  std::printf("abi: version %d, IctkAdapter is %zu bytes\n", ICTK_ADAPTER_ABI_VERSION,
              sizeof(adapter));
  if (ICTK_ADAPTER_ABI_VERSION < 1) ++failures;

  return failures == 0 ? 0 : 1;
}
