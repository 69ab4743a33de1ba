/// \file
/// Murmur3 x86_32 (Austin Appleby's MurmurHash3_x86_32), the hash Iceberg's bucket
/// transform uses (Iceberg spec Appendix B). Header-only; used by builtins.cc and its
/// tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ictk::internal {

inline uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

/// MurmurHash3_x86_32 of `data` with `seed`, returned as Java's signed int.
inline int32_t Murmur3X86_32(std::string_view data, uint32_t seed = 0) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  const size_t len = data.size();
  const size_t nblocks = len / 4;
  constexpr uint32_t c1 = 0xcc9e2d51;
  constexpr uint32_t c2 = 0x1b873593;
  uint32_t h1 = seed;
  for (size_t i = 0; i < nblocks; ++i) {
    uint32_t k1 = uint32_t{bytes[4 * i]} | (uint32_t{bytes[4 * i + 1]} << 8) |
                  (uint32_t{bytes[4 * i + 2]} << 16) | (uint32_t{bytes[4 * i + 3]} << 24);
    k1 *= c1;
    k1 = Rotl32(k1, 15);
    k1 *= c2;
    h1 ^= k1;
    h1 = Rotl32(h1, 13);
    h1 = h1 * 5 + 0xe6546b64;
  }
  const unsigned char* tail = bytes + nblocks * 4;
  uint32_t k1 = 0;
  switch (len & 3) {
    case 3:
      k1 ^= uint32_t{tail[2]} << 16;
      [[fallthrough]];
    case 2:
      k1 ^= uint32_t{tail[1]} << 8;
      [[fallthrough]];
    case 1:
      k1 ^= uint32_t{tail[0]};
      k1 *= c1;
      k1 = Rotl32(k1, 15);
      k1 *= c2;
      h1 ^= k1;
  }
  h1 ^= static_cast<uint32_t>(len);
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6b;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35;
  h1 ^= h1 >> 16;
  return static_cast<int32_t>(h1);
}

}  // namespace ictk::internal
