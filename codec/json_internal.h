/// \file
/// Helpers shared by the codec's decoders (not installed API): JSON pointers, typed
/// member access that names the pointer and what was expected in every error, and dumping
/// that never throws. Every decoder reports "<pointer>: expected <what>, got <kind>".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "codec/result.h"

namespace ictk::codec_internal {

using nlohmann::json;

/// `base` + "/" + `key`, with `~` and `/` escaped as RFC 6901 says.
std::string Child(std::string_view base, std::string_view key);
/// `base` + "/" + `index`.
std::string Child(std::string_view base, size_t index);

/// The pointer as shown in messages ("(root)" for the empty pointer).
std::string ShowPointer(std::string_view pointer);

/// "string", "number", "integer", "boolean", "object", "array", "null".
std::string KindName(const json& j);

/// A kParse error "<pointer>: <detail>".
tl::unexpected<Error> ParseError(std::string_view pointer, std::string_view detail);
/// "<pointer>: expected <what>, got <kind of j>".
tl::unexpected<Error> Expected(std::string_view pointer, std::string_view what,
                               const json& j);

/// The member `key` of object `obj`, or nullptr (also when it is JSON null and
/// `null_is_absent`).
const json* Find(const json& obj, std::string_view key, bool null_is_absent = true);

/// Checks that `j` is an object.
Result<const json*> AsObject(const json& j, std::string_view pointer);

Result<int64_t> AsInt64(const json& j, std::string_view pointer);
Result<int32_t> AsInt32(const json& j, std::string_view pointer);
Result<bool> AsBool(const json& j, std::string_view pointer);
Result<std::string> AsString(const json& j, std::string_view pointer);

/// Required members: an error naming the pointer when missing or of the wrong kind.
Result<const json*> Require(const json& obj, std::string_view key,
                            std::string_view pointer);
Result<int64_t> RequireInt64(const json& obj, std::string_view key,
                             std::string_view pointer);
Result<int32_t> RequireInt32(const json& obj, std::string_view key,
                             std::string_view pointer);
Result<bool> RequireBool(const json& obj, std::string_view key, std::string_view pointer);
Result<std::string> RequireString(const json& obj, std::string_view key,
                                  std::string_view pointer);

/// Optional members (absent or null -> nullopt; present with the wrong kind -> error).
Result<std::optional<int64_t>> OptInt64(const json& obj, std::string_view key,
                                        std::string_view pointer);
Result<std::optional<int32_t>> OptInt32(const json& obj, std::string_view key,
                                        std::string_view pointer);
Result<std::optional<bool>> OptBool(const json& obj, std::string_view key,
                                    std::string_view pointer);
Result<std::optional<std::string>> OptString(const json& obj, std::string_view key,
                                             std::string_view pointer);

/// Whether `pointer` is nested deeper than any document ParseJsonText accepts (so that a
/// document built in code cannot make the recursive decoders exhaust the stack).
bool TooDeep(std::string_view pointer);
/// The error for TooDeep.
tl::unexpected<Error> TooDeepError(std::string_view pointer);

/// dump() that never throws (invalid UTF-8 is replaced).
std::string Dump(const json& j);
/// Parses text this codec dumped earlier (raw `extra` members, defaults). Text that does
/// not parse is kept as a JSON string, so encoding never fails.
json Undump(const std::string& text);

/// ASCII lower-case.
std::string Lower(std::string_view s);

}  // namespace ictk::codec_internal
