// answer_batch: answers a batch of UDP queries against one zone and dynamic-answer snapshot. Every
// question is read first; then, in two rounds, the index slot and the entry of each name are
// prefetched, so the cache misses of the whole batch overlap instead of stalling each query
// in turn (on a large zone they are most of the fast path's time). Thread-safe like
// answer_query.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "auth/engine.h"

namespace cutover::auth {

struct BatchQuery {
  std::span<const std::uint8_t> packet;
  std::vector<std::uint8_t>* response = nullptr;  // given empty
  std::span<const std::uint8_t> client_address;   // 4 or 16 bytes, for DNS Cookies and steering
};

// For each query, the response and the outcome (`outcomes[i]`, as large as `batch`) that
// answer_query(zones, dynamic, packet, kUdp, response, false, &client) gives, where client
// holds the query's address, `cookies`, `now` and `subnet_trust`.
void answer_batch(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const BatchQuery> batch,
                  std::span<QueryOutcome> outcomes, const dns::CookieSecrets* cookies = nullptr,
                  std::uint32_t now = 0, const base::NetworkTable* subnet_trust = nullptr);

}  // namespace cutover::auth
