/// \file
/// The sample's answer styles. `canonical` (the default) answers the way the sample always
/// did: the lowest free IDs, snapshot IDs that count up, the most precise status, lists in
/// the order they were built. `divergent` takes, at every step, a legal answer as far from
/// that one as the spec and the protocol allow (docs/writing-an-adapter.md, "The freedoms
/// an implementation has"): constraint IDs with gaps, random snapshot IDs, a random status
/// from each constraint's allowed set, `constraint-ids` on every rejection, a rejection
/// wherever a switch's default allows one, other list orders, unknown extra members. Its
/// choices are deterministic: every request draws from a generator seeded by the request's
/// text without its `id` (which carries the table name), so a run is reproducible and the
/// three transports answer byte for byte alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ictk::sample {

/// The sample's options: the mutant (mutants_internal.h) and the style.
enum class Style { kCanonical, kDivergent };

/// The style named `name` ("canonical" or "divergent"), or false.
bool ParseStyle(std::string_view name, Style& style);

/// A small deterministic generator (SplitMix64) for the divergent style's choices.
class Chooser {
 public:
  explicit Chooser(uint64_t seed = 0) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// A number in [0, n) (0 when n is 0).
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  bool Coin() { return (Next() & 1u) != 0; }
  /// Fisher–Yates.
  template <class T>
  void Shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[Below(i)]);
  }

 private:
  uint64_t state_;
};

/// FNV-1a of `text` (the seed of one request's choices).
uint64_t SeedOf(std::string_view text);

}  // namespace ictk::sample
