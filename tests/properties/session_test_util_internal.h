/// \file
/// The adapters the property tests certify: a session opened on one (its handshake
/// checked), the sample with a query (builtin:sample?QUERY), and a case's options.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "adapters/session.h"
#include "properties/runner.h"
#include "reports/digest.h"
#include "sample/sample_adapter.h"

namespace ictk::testing_sessions {

using Factory = std::function<std::unique_ptr<Adapter>()>;

/// A session on `make()`, handshaken; `offer_metadata_delta` as AdapterSession::Handshake.
inline std::unique_ptr<AdapterSession> Open(const Factory& make,
                                            bool offer_metadata_delta = false) {
  auto session = std::make_unique<AdapterSession>(make());
  Result<HelloInfo> hello = session->Handshake(offer_metadata_delta);
  EXPECT_TRUE(hello.has_value()) << (hello ? "" : hello.error().message);
  return session;
}

/// The options of one certified case, as the tests run them: `seed`, at most
/// `max_steps` steps, a shrink budget of `shrink_budget` histories.
inline CertifyOptions CaseOptions(uint64_t seed, int max_steps, int shrink_budget) {
  CertifyOptions o;
  o.seed = seed;
  o.gen.max_steps = max_steps;
  o.adapter_spec = "builtin:test";
  o.shrink_budget = shrink_budget;
  o.model_version = ModelVersion(o.switches);
  return o;
}

/// builtin:sample?`query`.
inline std::unique_ptr<Adapter> Sample(const std::string& query) {
  Result<std::unique_ptr<Adapter>> a = MakeSampleAdapter(query);
  EXPECT_TRUE(a.has_value()) << (a ? "" : a.error().message);
  return a ? std::move(*a) : nullptr;
}

/// A record as JSON without what differs by design between two runs of the same case
/// (times).
inline nlohmann::json Comparable(nlohmann::json j) {
  if (j.is_object()) {
    j.erase("duration-ms");
    for (auto& [key, value] : j.items()) value = Comparable(std::move(value));
  } else if (j.is_array()) {
    for (nlohmann::json& e : j) e = Comparable(std::move(e));
  }
  return j;
}

}  // namespace ictk::testing_sessions
