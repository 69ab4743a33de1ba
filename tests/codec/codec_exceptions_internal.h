/// \file
/// The iceberg-real files on which ictk knowingly gives another verdict than the source
/// test expects, where the Iceberg implementations disagree. docs/codec-exceptions.md
/// says the same in prose; keep the two in step.
#pragma once

#include <string_view>

namespace ictk::testing_data {

struct CodecException {
  std::string_view file;   ///< relative to tests/data/iceberg-real
  bool ictk_accepts;       ///< what ictk does with it
  std::string_view rules;  ///< the rules (or decoder check) that decide
  std::string_view why;
};

inline constexpr CodecException kCodecExceptions[] = {
    {"metadata/valid/"
     "apache-iceberg-cpp__metadata_serde_test__L573_EncryptionKeysRoundTrip.json",
     false, "ice.table-uuid, ice.fields-by-version",
     "format v2 with the v3 member encryption-keys and table-uuid \"test-uuid-1234\"; "
     "iceberg-cpp reads it leniently, iceberg-go rejects encryption-keys before v3"},
    {"metadata/valid/"
     "apache-iceberg-python__conftest__L935_EXAMPLE_TABLE_METADATA_V3.json",
     false, "ice.unknown-optional",
     "field \"u\" of type unknown is required; the spec says unknown fields must be "
     "optional"},
    {"metadata/valid/"
     "apache-iceberg-python__conftest__L1001_TABLE_METADATA_V2_WITH_FIXED_AND_DECIMAL_"
     "TYPES.json",
     false, "TableMetadataFromJson (sort-orders required from v2)",
     "format v2 without sort-orders; pyiceberg defaults it to [], while Java, "
     "iceberg-cpp, "
     "iceberg-go and iceberg-rust reject exactly that (their "
     "TableMetadataV2MissingSortOrder "
     "files, which ictk rejects too)"},
    {"schemas/valid/"
     "apache-iceberg-python__test_types__L852_test_geography_type_serialization_crs_"
     "algorithm.json",
     false, "TypeFromString",
     "edge algorithm 'planar' is outside the spec's closed set (spherical, vincenty, "
     "thomas, "
     "andoyer, karney), which iceberg-verification pins; pyiceberg accepts it"},
    {"schemas/valid/apache-iceberg-go__schema_test__L1535_TestSchemaRoundTrip.json",
     false, "ice.identifier-fields",
     "identifier field 1 is optional; iceberg-go's round-trip test does not validate it, "
     "Java rejects it and iceberg-verification pins the rejection "
     "(core/reject-identifier-optional-field)"},
};

/// The exception for `file`, or nullptr.
inline const CodecException* FindCodecException(std::string_view file) {
  for (const auto& e : kCodecExceptions)
    if (e.file == file) return &e;
  return nullptr;
}

}  // namespace ictk::testing_data
