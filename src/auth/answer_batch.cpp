// answer_batch in chunks: read the questions, prefetch the slots, prefetch the entries, answer.
#include "auth/answer_batch.h"

#include <algorithm>
#include <array>

#include "auth/fast_answer.h"
#include "auth/fast_query.h"

namespace cutover::auth {
namespace {

// Enough to cover the memory latency with the work of the other queries; a received batch is
// at most this large anyway (net's recvmmsg batch).
constexpr std::size_t kChunk = 32;

void answer_chunk(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const BatchQuery> chunk,
                  std::span<QueryOutcome> outcomes, const ClientContext& context) {
  std::array<FastQuery, kChunk> questions;
  std::array<const ServedZone*, kChunk> served{};
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    if (!read_fast_query(chunk[i].packet, Transport::kUdp, questions[i])) continue;
    served[i] = zones.find_lower(questions[i].name(), questions[i].starts());
    if (served[i] != nullptr) served[i]->fast.prefetch_slot(questions[i].hash);
  }
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    if (served[i] != nullptr) served[i]->fast.prefetch_entry(questions[i].hash);
  }
  ClientContext client = context;
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    const BatchQuery& query = chunk[i];
    outcomes[i] = QueryOutcome{};
    client.address = query.client_address;
    if (served[i] == nullptr ||
        !answer_fast_query(*served[i], dynamic, query.packet, questions[i], *query.response, outcomes[i], false, &client)) {
      outcomes[i] = answer_query_general(zones, query.packet, Transport::kUdp, *query.response, dynamic, &client);
    }
  }
}

}  // namespace

void answer_batch(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const BatchQuery> batch,
                  std::span<QueryOutcome> outcomes, const dns::CookieSecrets* cookies, std::uint32_t now,
                  const base::NetworkTable* subnet_trust) {
  ClientContext context{{}, cookies, now, subnet_trust};
  if (zones.views() != nullptr) [[unlikely]] {  // each query's view first, then its answer
    for (std::size_t i = 0; i < batch.size(); ++i) {
      context.address = batch[i].client_address;
      outcomes[i] = answer_in_view(zones, dynamic, batch[i].packet, Transport::kUdp, *batch[i].response, false, &context);
    }
    return;
  }
  for (std::size_t start = 0; start < batch.size(); start += kChunk) {
    std::size_t size = std::min(kChunk, batch.size() - start);
    answer_chunk(zones, dynamic, batch.subspan(start, size), outcomes.subspan(start, size), context);
  }
}

}  // namespace cutover::auth
