/// \file
/// libFuzzer target `spec_text`: FuzzSpecText of fuzz/fuzz_entries.h (docs/robustness.md).
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ictk::fuzz::FuzzSpecText(data, size);
}
