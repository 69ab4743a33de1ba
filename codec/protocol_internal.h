/// \file
/// What the protocol codec's files share (not installed): the protocol's member names,
/// ops and schema change actions, and the decoders of the members requests are made of.
/// protocol.cc decodes and encodes requests; protocol_members.cc the members (untyped
/// rows, schema changes, constraint updates, function definitions); protocol_responses.cc
/// the responses and hello's answer.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/json_internal.h"
#include "codec/protocol.h"
#include "codec/result.h"

namespace ictk::protocol_internal {

using nlohmann::json;
using namespace codec_internal;  // NOLINT: the codec's shared decoding helpers

// Protocol member names (ARCHITECTURE.md "The adapter protocol"). Kebab-case keys appear
// only as constants in codec/ (STYLE.md).
inline constexpr std::string_view kOp = "op";
inline constexpr std::string_view kMsgId = "id";
inline constexpr std::string_view kTable = "table";
inline constexpr std::string_view kNowMs = "now-ms";
inline constexpr std::string_view kProtocolVersionKey = "protocol-version";
inline constexpr std::string_view kConstraint = "constraint";
inline constexpr std::string_view kSet = "set";
inline constexpr std::string_view kChanges = "changes";
inline constexpr std::string_view kAction = "action";
inline constexpr std::string_view kParentId = "parent-id";
inline constexpr std::string_view kFirst = "first";
inline constexpr std::string_view kAfter = "after";
inline constexpr std::string_view kBefore = "before";
inline constexpr std::string_view kRemoveConstraints = "remove-constraints";
inline constexpr std::string_view kAdd = "add";
inline constexpr std::string_view kRemove = "remove";
inline constexpr std::string_view kModify = "modify";
inline constexpr std::string_view kTxn = "txn";
inline constexpr std::string_view kDeterministic = "deterministic";
inline constexpr std::string_view kParameters = "parameters";
inline constexpr std::string_view kReturnType = "return-type";
inline constexpr std::string_view kBody = "body";
inline constexpr std::string_view kNames = "names";
inline constexpr std::string_view kMetadata = "metadata";
inline constexpr std::string_view kResult = "result";
inline constexpr std::string_view kRows = "rows";
inline constexpr std::string_view kStatuses = "statuses";
inline constexpr std::string_view kImplementation = "implementation";
inline constexpr std::string_view kVersion = "version";
inline constexpr std::string_view kLanguage = "language";
inline constexpr std::string_view kFormatVersions = "format-versions";
inline constexpr std::string_view kCapabilities = "capabilities";
inline constexpr std::string_view kProfile = "profile";
inline constexpr std::string_view kMetadataDelta = "metadata-delta";
inline constexpr std::string_view kConstraintOps = "constraint-ops";
inline constexpr std::string_view kExpressionOperators = "expression-operators";
inline constexpr std::string_view kError = "error";
inline constexpr std::string_view kKind = "kind";
inline constexpr std::string_view kConstraintIds = "constraint-ids";
inline constexpr std::string_view kMessage = "message";

// Ops.
inline constexpr std::string_view kHello = "hello";
inline constexpr std::string_view kCreateTable = "create-table";
inline constexpr std::string_view kLoadTable = "load-table";
inline constexpr std::string_view kUpgrade = "upgrade";
inline constexpr std::string_view kAddConstraint = "add-constraint";
inline constexpr std::string_view kUpdateConstraint = "update-constraint";
inline constexpr std::string_view kRemoveConstraint = "remove-constraint";
inline constexpr std::string_view kUpdateSchema = "update-schema";
inline constexpr std::string_view kCommit = "commit";
inline constexpr std::string_view kBegin = "begin";
inline constexpr std::string_view kFinish = "finish";
inline constexpr std::string_view kDefineFunction = "define-function";
inline constexpr std::string_view kValidate = "validate";
inline constexpr std::string_view kScan = "scan";
inline constexpr std::string_view kReadStatuses = "read-statuses";
inline constexpr std::string_view kParseMetadata = "parse-metadata";

// Schema change actions.
inline constexpr std::string_view kAddColumn = "add-column";
inline constexpr std::string_view kDeleteColumn = "delete-column";
inline constexpr std::string_view kRenameColumn = "rename-column";
inline constexpr std::string_view kUpdateColumnType = "update-column-type";
inline constexpr std::string_view kMoveColumn = "move-column";
inline constexpr std::string_view kMakeOptional = "make-optional";

template <typename T>
tl::unexpected<Error> Fwd(const Result<T>& r) {
  return tl::unexpected(r.error());
}

/// A required member that must not be JSON null ("a null in a required field" is an
/// invalid request, ARCHITECTURE.md).
Result<const json*> RequireMember(const json& obj, std::string_view key,
                                  std::string_view pointer);
Result<std::vector<std::string>> StringList(const json& j, std::string_view pointer);
/// An optional array of strings (absent: empty).
Result<std::vector<std::string>> OptStringList(const json& obj, std::string_view key,
                                               std::string_view pointer);

template <typename Int>
Result<std::vector<Int>> IntList(const json& j, std::string_view pointer) {
  if (!j.is_array()) return Expected(pointer, "an array of integers", j);
  std::vector<Int> out;
  for (size_t i = 0; i < j.size(); ++i) {
    std::string p = Child(pointer, i);
    if constexpr (sizeof(Int) == 4) {
      auto v = AsInt32(j[i], p);
      if (!v) return Fwd(v);
      out.push_back(*v);
    } else {
      auto v = AsInt64(j[i], p);
      if (!v) return Fwd(v);
      out.push_back(*v);
    }
  }
  return out;
}


// --- members of requests (protocol_members.cc) -------------------------------------------

json UntypedRowToJson(const Row& row);
/// The rows under `key` (absent: none): typed by `fields` when given, else untyped (as a
/// request carries them).
Result<std::vector<Row>> RowList(const json& obj, std::string_view key,
                                 std::string_view pointer,
                                 const std::vector<NestedField>* fields);
Result<SchemaChange> SchemaChangeFromJson(const json& j, std::string_view pointer);
json SchemaChangeToJson(const SchemaChange& change);
Result<ConstraintUpdate> ConstraintUpdateFromJson(const json& j, std::string_view pointer);
json ConstraintUpdateToJson(const ConstraintUpdate& u);
Result<FunctionDefinition> FunctionFromJson(const json& j, std::string_view pointer);
json FunctionToJson(const FunctionDefinition& f);

// --- hello's answer (protocol_responses.cc) ----------------------------------------------

Result<HelloInfo> HelloInfoFromJson(const json& j, std::string_view pointer);
json HelloInfoToJson(const HelloInfo& h);

}  // namespace ictk::protocol_internal
