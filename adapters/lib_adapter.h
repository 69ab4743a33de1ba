/// \file
/// The `lib:` transport: an implementation in a shared library behind the C ABI of
/// include/ictk/adapter.h, called in-process. The ABI version is checked at load; a call
/// that fails (non-zero return) is answered as the protocol's `error` result with the
/// library's `last_error`; a response that is not a valid envelope is a protocol error,
/// after which the adapter is released and initialized afresh on the next call.
#pragma once

#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "codec/result.h"

namespace ictk {

/// Loads `path` (dlopen), finds `ictk_adapter_init` and initializes the adapter once to
/// check the ABI version. Errors (kAdapter) name the path and the cause. A response longer
/// than `max_answer_bytes` (`--max-answer-bytes`) is a protocol error; no more than that
/// many bytes of it are looked at, and none are copied.
Result<std::unique_ptr<Adapter>> MakeLibAdapter(const std::string& path,
                                                std::string description,
                                                size_t max_answer_bytes = 64u << 20);

}  // namespace ictk
