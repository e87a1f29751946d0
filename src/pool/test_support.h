// Builders shared by the pool tests: endpoint and pool specs with the fields tests vary.
// Header-only; for tests.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dns/name.h"
#include "pool/pool_spec.h"

namespace cutover::pool::testing {

inline EndpointSpec endpoint(const std::string& address, int priority = 1, std::uint32_t weight = 1) {
  EndpointSpec spec;
  spec.address = address;
  spec.priority = priority;
  spec.weight = weight;
  return spec;
}

// A pool named `name` owning `name` under `zone`, TTL 20.
inline PoolSpec pool_spec(const std::string& name, const std::string& shape, std::vector<EndpointSpec> endpoints,
                          const std::string& zone = "example.test.") {
  PoolSpec spec;
  spec.name = name;
  spec.owner = *dns::Name::from_text(name + "." + zone);
  spec.shape = shape;
  spec.ttl = 20;
  spec.endpoints = std::move(endpoints);
  return spec;
}

}  // namespace cutover::pool::testing
