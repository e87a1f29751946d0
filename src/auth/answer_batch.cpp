// answer_batch in chunks: read the questions, prefetch the slots, prefetch the entries, answer.
#include "auth/answer_batch.h"

#include <algorithm>
#include <array>

#include "auth/fast_answer.h"
#include "auth/fast_query.h"
#include "auth/views.h"
#include "base/lazy_array.h"

namespace cutover::auth {
namespace {

// Enough to cover the memory latency with the work of the other queries; a received batch is
// at most this large anyway (net's recvmmsg batch).
constexpr std::size_t kChunk = 32;

// Nothing here is set up for more queries than the chunk has (FastQuery has no initialisers;
// `served` is cleared as far as used): at a low rate a chunk is one query, and initialising
// 32 questions cost more than answering it.
void answer_chunk(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const BatchQuery> chunk,
                  std::span<QueryOutcome> outcomes, const ClientContext& context) {
  std::array<FastQuery, kChunk> questions;
  std::array<const ServedZone*, kChunk> served;
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    served[i] = nullptr;
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

// The same when `zones` has views: each query's view is chosen first (auth/views.h), and the
// query is answered from that view's zones.
void answer_chunk_in_views(const ZoneSet& zones, const ViewTable& views, const DynamicAnswers* dynamic,
                           std::span<const BatchQuery> chunk, std::span<QueryOutcome> outcomes,
                           const ClientContext& context) {
  std::array<FastQuery, kChunk> questions;
  std::array<const ServedZone*, kChunk> served;
  std::array<bool, kChunk> readable;
  base::LazyArray<ViewChoice, kChunk> choices;
  choices.ensure(chunk.size());
  ClientContext client = context;
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    served[i] = nullptr;
    readable[i] = read_fast_query(chunk[i].packet, Transport::kUdp, questions[i]);
    client.address = chunk[i].client_address;
    choices[i] = choose_view(views, chunk[i].packet, readable[i] ? &questions[i] : nullptr, client);
    if (!readable[i]) continue;
    const ZoneSet& chosen = choices[i].view != nullptr ? *choices[i].view->zones : zones;
    served[i] = chosen.find_lower(questions[i].name(), questions[i].starts());
    if (served[i] != nullptr) served[i]->fast.prefetch_slot(questions[i].hash);
  }
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    if (served[i] != nullptr) served[i]->fast.prefetch_entry(questions[i].hash);
  }
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    const BatchQuery& query = chunk[i];
    outcomes[i] = QueryOutcome{};
    client.address = query.client_address;
    client.subnet_scope_floor = choices[i].scope;
    client.view_bit = choices[i].view != nullptr ? choices[i].view->bit : kDefaultViewBit;
    if (served[i] == nullptr ||
        !answer_fast_query(*served[i], dynamic, query.packet, questions[i], *query.response, outcomes[i], false, &client)) {
      const ZoneSet& chosen = choices[i].view != nullptr ? *choices[i].view->zones : zones;
      outcomes[i] = answer_query_general(chosen, query.packet, Transport::kUdp, *query.response, dynamic, &client);
    }
    outcomes[i].view = choices[i].view;
  }
}

}  // namespace

void answer_batch(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const BatchQuery> batch,
                  std::span<QueryOutcome> outcomes, const dns::CookieSecrets* cookies, std::uint32_t now,
                  const base::NetworkTable* subnet_trust) {
  ClientContext context{{}, cookies, now, subnet_trust};
  for (std::size_t start = 0; start < batch.size(); start += kChunk) {
    std::size_t size = std::min(kChunk, batch.size() - start);
    if (const ViewTable* views = zones.views(); views != nullptr) [[unlikely]] {
      answer_chunk_in_views(zones, *views, dynamic, batch.subspan(start, size), outcomes.subspan(start, size), context);
    } else {
      answer_chunk(zones, dynamic, batch.subspan(start, size), outcomes.subspan(start, size), context);
    }
  }
}

}  // namespace cutover::auth
