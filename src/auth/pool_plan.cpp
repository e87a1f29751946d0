// Pool answers in the engine: the plan step for pool names, and the answer_query overload
// that routes pool names to the general pipeline (the fast path knows nothing of pools).
#include "auth/pool_plan.h"

#include "auth/engine.h"
#include "auth/fast_answer.h"

namespace cutover::auth {

bool plan_pool_answer(const pool::PoolAnswer& pool, const dns::Name& owner, dns::RRType qtype, AnswerPlan& plan) {
  plan.pool = &pool;
  bool any = qtype == dns::RRType::ANY;
  if (!any && qtype != dns::RRType::A && qtype != dns::RRType::AAAA) return false;
  auto now = std::chrono::steady_clock::now();
  bool answered = false;
  for (dns::RRType type : {dns::RRType::A, dns::RRType::AAAA}) {
    if (!any && type != qtype) continue;
    auto records = pool::select_records(pool, type, now);
    if (!records || records->empty()) continue;
    PlannedRRset planned;
    planned.owner = owner;
    planned.type = type;
    planned.ttl = records->ttl;
    planned.source = records->fixed;
    planned.synthesized = std::move(records->picked);
    plan.answer.push_back(std::move(planned));
    answered = true;
  }
  return answered;
}

bool asks_for_pool(const pool::PoolAnswers& pools, std::span<const std::uint8_t> query) {
  constexpr std::size_t kHeaderSize = 12;
  if (query.size() <= kHeaderSize) return false;
  std::size_t at = kHeaderSize;
  while (at < query.size() && query[at] != 0) {
    if (query[at] > 63) return false;  // compression or extended labels: not a plain question
    at += 1 + query[at];
  }
  if (at >= query.size()) return false;
  return pools.owns_wire(query.subspan(kHeaderSize, at + 1 - kHeaderSize));
}

QueryOutcome answer_query(const ZoneSet& zones, const pool::PoolAnswers* pools, std::span<const std::uint8_t> query,
                          Transport transport, std::vector<std::uint8_t>& response, bool describe) {
  if (pools == nullptr || pools->empty()) return answer_query(zones, query, transport, response, describe);
  // The fast path knows nothing of pools: it may answer only names that are not pools and
  // whose answers do not lead into one (those it hands to the general pipeline anyway).
  if (!asks_for_pool(*pools, query)) {
    QueryOutcome outcome;
    if (try_fast_answer(zones, query, transport, response, outcome, describe)) return outcome;
  }
  return answer_query_general(zones, query, transport, response, pools);
}

}  // namespace cutover::auth
