/// \file
/// `builtin:reference`: the model itself as an implementation. Each request is decoded,
/// judged by the model (Apply), answered with the canonical legal answer
/// (CanonicalAnswer: the lowest legal new constraint ID, the most precise statuses,
/// timestamps from `now-ms`) and adopted, so that the next request sees the new state. It
/// declares every capability.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "adapters/adapter.h"
#include "model/rules/switches.h"

namespace ictk {

/// The model as an adapter, under `switches`.
std::unique_ptr<Adapter> MakeReferenceAdapter(const Switches& switches = {});

/// The factory registered as `builtin:reference` (the query string must be empty).
BuiltinFactory ReferenceAdapterFactory(const Switches& switches = {});

/// The `hello` answer of the reference adapter (protocol version 1, format versions 1-4,
/// every capability), for request id `id`.
nlohmann::json ReferenceHello(const nlohmann::json& id, bool metadata_delta = false);

}  // namespace ictk
