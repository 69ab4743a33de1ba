/// \file
/// What the witness scripts of the sample's mutants (mutant_cases.h) are made of: a case,
/// the checks of the correct sample's answer at the witness step, and the requests and
/// schemas several scripts share.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/sample/script_util.h"

namespace ictk::sample_test {

struct MutantCase {
  std::string mutant;
  Script script;
  size_t witness;  ///< the 1-based step where the mutant first answers differently
  /// What the correct sample answers at the witness step.
  std::function<void(const json&)> expect;
};

inline auto IsOutcome(std::string outcome) {
  return [outcome](const json& r) { EXPECT_EQ(Outcome(r), outcome) << r.dump(); };
}
inline auto IsStatuses(std::string statuses) {
  return [statuses](const json& r) {
    EXPECT_EQ(CurrentStatuses(r), json::parse(statuses)) << r.dump();
  };
}
inline auto IsAt(std::string pointer, std::string value) {
  return [pointer, value](const json& r) {
    EXPECT_EQ(r.value(json::json_pointer(pointer), json()), json::parse(value))
        << r.dump();
  };
}

inline const char* kUdfPositive =
    R"({"op": "define-function", "name": "pos", "deterministic": true, "parameters": [{"name": "x", "type": "int"}], "return-type": "boolean", "body": {"type": "gt", "left": {"type": "parameter", "name": "x"}, "right": 0}})";
inline const char* kUdfCallsPos =
    R"({"type": "eq", "left": {"type": "apply", "function": "pos", "arguments": [{"type": "reference", "id": 2}]}, "right": true})";

/// The metadata the correct sample answers last on `script`.
inline json SampleMetadataAfter(const Script& script) {
  json md = json::object();
  for (const json& r : RunSample(script))
    if (r.contains("metadata")) md = r["metadata"];
  return md;
}

/// A reader request (`op` parse-metadata or read-statuses) on `metadata`.
inline std::string ReaderRequest(const std::string& op, const json& metadata) {
  return json{{"op", op}, {"metadata", metadata}}.dump();
}

/// A schema with a required geometry column (an identifier field no key may use).
inline const std::string kGeoSchema = R"({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "g", "required": true, "type": "geometry"}]})";
// More types than kSchema: float, geography, unknown, a map, a list of int, an optional
// struct with required members, a required struct.
inline const std::string kMoreTypes = R"({"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": true, "type": "long"},
    {"id": 2, "name": "qty", "required": false, "type": "int"},
    {"id": 3, "name": "fl", "required": false, "type": "float"},
    {"id": 4, "name": "dbl", "required": false, "type": "double"},
    {"id": 5, "name": "geog", "required": false, "type": "geography"},
    {"id": 6, "name": "nothing", "required": false, "type": "unknown"},
    {"id": 7, "name": "props", "required": false, "type": {"type": "map", "key-id": 8,
     "key": "string", "value-id": 9, "value-required": false, "value": "int"}}]})";

/// An update-schema request of `changes` (JSON objects), with `extra` members.
inline std::string UpdateSchemaRequest(const std::string& changes,
                                       const std::string& extra = "") {
  return fmt::format(R"({{"op": "update-schema", "changes": [{}]{}}})", changes, extra);
}

/// An add-constraint request of a constraint given as JSON text.
inline std::string AddRaw(const std::string& constraint) {
  return fmt::format(R"({{"op": "add-constraint", "constraint": {}}})", constraint);
}

}  // namespace ictk::sample_test
