/// \file
/// The sample's own reading of the protocol's JSON (docs/protocol.md section 2): a
/// `Slot` is one JSON value and the JSON pointer it was found at; reading a slot as the
/// wrong shape throws `Malformed`, which the session turns into a rejection
/// (`invalid-request`, or `invalid-metadata` for a reader's metadata). Written for the
/// sample alone: it shares no code with the kit's codec.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ictk::sample {

/// A request (or a part of one) that does not have the form the protocol gives it.
class Malformed : public std::runtime_error {
 public:
  Malformed(const std::string& where, const std::string& what)
      : std::runtime_error((where.empty() ? std::string("(root)") : where) + ": " + what) {}
};

/// One JSON value of a request and where it sits.
class Slot {
 public:
  Slot(const nlohmann::json& value, std::string where)
      : value_(&value), where_(std::move(where)) {}

  const nlohmann::json& json() const { return *value_; }
  const std::string& where() const { return where_; }

  /// Throws Malformed at this slot: "expected WHAT, got KIND".
  [[noreturn]] void Expect(std::string_view what) const;
  /// Throws Malformed at this slot with `what` as the message.
  [[noreturn]] void Fail(const std::string& what) const;

  bool IsObject() const { return value_->is_object(); }
  bool IsArray() const { return value_->is_array(); }
  bool IsString() const { return value_->is_string(); }
  bool IsNull() const { return value_->is_null(); }

  /// The member `key` of an object, absent or null alike giving nullopt.
  std::optional<Slot> Get(std::string_view key) const;
  /// The member `key` even when it is null (nullopt only when it is absent).
  std::optional<Slot> GetEvenNull(std::string_view key) const;
  /// The member `key`, which must be present and not null.
  Slot Need(std::string_view key) const;
  /// Element `i` of an array.
  Slot At(size_t i) const;
  size_t Size() const { return value_->size(); }

  /// This value as an integer of 64 or 32 bits, a boolean or a string.
  int64_t Long() const;
  int32_t Int() const;
  bool Bool() const;
  std::string Text() const;

  /// The compact JSON text of this value.
  std::string Dumped() const;

 private:
  const nlohmann::json* value_;
  std::string where_;
};

/// The JSON pointer of `key` under `base` (with `~` and `/` escaped), and of element `i`.
std::string PointerTo(std::string_view base, std::string_view key);
std::string PointerTo(std::string_view base, size_t i);

/// The protocol's JSON text: one value, no NUL byte, nested at most 512 deep. Throws
/// Malformed (at "request") for anything else.
nlohmann::json ReadJsonText(std::string_view text);
/// Compact JSON text, invalid UTF-8 replaced (never throws; "null" if it cannot).
std::string WriteJsonText(const nlohmann::json& value);

}  // namespace ictk::sample
