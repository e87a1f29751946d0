// Dynamic answers in the engine: the plan step for their names on the general pipeline, and
// the answer_query overload that tries the fast path (which answers them too) first.
#include "auth/dynamic_plan.h"

#include "auth/engine.h"
#include "auth/fast_answer.h"

#include <algorithm>
#include <optional>

namespace cutover::auth {

DynamicPlan plan_dynamic_answer(const DynamicAnswer& entry, const dns::Name& owner, dns::RRType qtype, AnswerPlan& plan,
                                const ClientNetwork* network, dns::Name* target) {
  plan.dynamic = &entry;
  // The client's group, chosen once: its answer, and the scope that goes back in ECS.
  const DynamicGroup* group = nullptr;
  if (entry.steered() && network != nullptr && !network->address.empty()) {
    GroupChoice choice = entry.choose(*network);
    group = &entry.groups[choice.group];
    plan.subnet_scope = std::max(plan.subnet_scope.value_or(0), choice.scope);
  }
  bool any = qtype == dns::RRType::ANY;
  auto now = std::chrono::steady_clock::now();
  if (entry.alias) {
    const DynamicFamily& family = group != nullptr ? group->cname : entry.cname;
    DynamicRecords records = pick_records(family, entry.ttl_at(family, now));
    if (records.empty()) return DynamicPlan::kNoData;
    PlannedRRset planned;
    planned.owner = owner;
    planned.type = dns::RRType::CNAME;
    planned.ttl = records.ttl;
    planned.source = records.fixed;
    planned.synthesized = std::move(records.picked);
    std::span<const std::uint8_t> rdata =
        planned.synthesized.empty() ? planned.source->rdatas.front() : std::span<const std::uint8_t>(planned.synthesized.front());
    auto name = dns::Name::from_uncompressed(rdata);
    plan.answer.push_back(std::move(planned));
    if (any || qtype == dns::RRType::CNAME || !name) return DynamicPlan::kAnswered;
    if (target != nullptr) *target = *name;
    return DynamicPlan::kAlias;
  }
  if (!any && qtype != dns::RRType::A && qtype != dns::RRType::AAAA) return DynamicPlan::kNoData;
  bool answered = false;
  for (dns::RRType type : {dns::RRType::A, dns::RRType::AAAA}) {
    if (!any && type != qtype) continue;
    const DynamicFamily* family = group != nullptr ? group->family(type) : entry.family(type);
    auto records = std::optional<DynamicRecords>(pick_records(*family, entry.ttl_at(*family, now)));
    if (records->empty()) continue;
    PlannedRRset planned;
    planned.owner = owner;
    planned.type = type;
    planned.ttl = records->ttl;
    planned.source = records->fixed;
    planned.synthesized = std::move(records->picked);
    plan.answer.push_back(std::move(planned));
    answered = true;
  }
  return answered ? DynamicPlan::kAnswered : DynamicPlan::kNoData;
}

QueryOutcome answer_query(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                          Transport transport, std::vector<std::uint8_t>& response, bool describe,
                          const ClientContext* client) {
  if (zones.views() != nullptr) [[unlikely]] {
    return answer_in_view(zones, dynamic, query, transport, response, describe, client);
  }
  return answer_query_in(zones, dynamic, query, transport, response, describe, client);
}

QueryOutcome answer_query_in(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                             Transport transport, std::vector<std::uint8_t>& response, bool describe,
                             const ClientContext* client) {
  // The fast path answers dynamic names too; a name whose answer leads into one (a CNAME)
  // it hands to the general pipeline, as it does every chain.
  // One named result, so it is built in the caller's slot instead of moved there.
  QueryOutcome outcome;
  if (!try_fast_answer(zones, dynamic, query, transport, response, outcome, describe, client)) {
    outcome = answer_query_general(zones, query, transport, response, dynamic, client);
  }
  return outcome;
}

}  // namespace cutover::auth
