// The pool API's request bodies turned into pool writes, and results turned into replies.
// Every refusal names the field ("unknown field 'expectd_version'", "pool must be an
// object of pool settings"). Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "pool/writes/pool_writes.h"

namespace cutover::pool {

// PUT /pools/ID: {"pool": {settings, as under pools.ID in a config file}, fence options}.
base::Result<PoolWriteRequest> put_pool_request(const std::string& pool, const nlohmann::json& body);
// PATCH /pools/ID: {"patch": {JSON merge patch (RFC 7386) of the settings}, fence options}.
base::Result<PoolWriteRequest> patch_pool_request(const std::string& pool, const nlohmann::json& body);
// DELETE /pools/ID: {fence options} (the floor wants allow_empty).
base::Result<PoolWriteRequest> delete_pool_request(const std::string& pool, const nlohmann::json& body);
// POST /pools/ID/endpoints/ADDRESS/ACTION (drain, undrain, force-up): {fence options}.
base::Result<PoolWriteRequest> override_request(const std::string& pool, const std::string& address,
                                                const std::string& action, const nlohmann::json& body);
// POST /pools/ID/undo: {"to": N, fence options}; returns N and the fence.
base::Result<std::pair<std::uint64_t, PoolWriteRequest>> undo_pool_request(const std::string& pool,
                                                                           const nlohmann::json& body);

nlohmann::json pool_result_json(const std::string& pool, const PoolWriteResult& result);
int pool_http_status(const PoolWriteResult& result);
// GET /pools/ID: the pool's source (config or api), versions, settings and overrides.
nlohmann::json pool_view_json(const std::string& pool, const PoolState& state, bool from_config);

}  // namespace cutover::pool
