/// \file
/// Harness failures (STYLE.md channel 2): `Result<T>` is `tl::expected<T, Error>`. One alias,
/// swappable for `std::expected`. Used by the codec and every layer above it.
#pragma once

#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace ictk {

enum class ErrorKind {
  kParse,       ///< not JSON, or JSON of the wrong shape
  kInvalid,     ///< well-formed but breaks a rule the reader enforces
  kIo,          ///< a file could not be read or written
  kAdapter,     ///< an adapter crashed, hung or spoke out of protocol
  kUsage,       ///< bad command-line usage
  kInternal,
};

struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;  ///< names the file, line or JSON pointer
};

template <typename T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> MakeError(ErrorKind kind, std::string message) {
  return tl::unexpected<Error>(Error{kind, std::move(message)});
}

}  // namespace ictk

namespace ictk {
/// "parse", "invalid", "io", "adapter", "usage", "internal".
std::string_view ToString(ErrorKind kind);
}  // namespace ictk
