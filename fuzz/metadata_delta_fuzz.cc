/// \file
/// libFuzzer target `metadata_delta`: FuzzMetadataDelta of fuzz/fuzz_entries.h
/// (docs/robustness.md).
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ictk::fuzz::FuzzMetadataDelta(data, size);
}
