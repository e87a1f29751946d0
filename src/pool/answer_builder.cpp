// AnswerBuilder: per pool and family, the panic threshold first (some but fewer than
// min-healthy up: every endpoint), then the shape over serving endpoints, then the all-down
// policy when nothing serves.
#include "pool/answer_builder.h"

#include <arpa/inet.h>

#include <algorithm>

#include <fmt/format.h>

namespace cutover::pool {
namespace {

// The rdata of one member: an address (A, AAAA), or a target name's wire form (CNAME).
base::Result<dns::Rdata> member_rdata(dns::RRType type, const std::string& text) {
  if (type != dns::RRType::CNAME) return address_rdata(text);
  auto name = dns::Name::from_text(text);
  if (!name) return name.error();
  return dns::Rdata(name->wire().begin(), name->wire().end());
}

void add_answer(FamilyAnswer& family, const std::string& address, std::uint32_t weight) {
  auto rdata = member_rdata(family.type, address);
  if (!rdata) return;  // addresses and names were validated with the config
  family.addresses.push_back(address);
  if (family.per_query == 0) {
    family.fixed.rdatas.push_back(*rdata);
  } else {
    family.draw.push_back(*rdata);
    family.weights.push_back(weight);
  }
}

}  // namespace

bool is_ipv6_address(const std::string& address) { return address.find(':') != std::string::npos; }

base::Result<dns::Rdata> address_rdata(const std::string& address) {
  if (is_ipv6_address(address)) {
    in6_addr v6{};
    if (::inet_pton(AF_INET6, address.c_str(), &v6) != 1) {
      return base::make_error(base::ErrorCode::kMalformed, "not an IPv6 address: " + address);
    }
    return dns::Rdata(v6.s6_addr, v6.s6_addr + 16);
  }
  in_addr v4{};
  if (::inet_pton(AF_INET, address.c_str(), &v4) != 1) {
    return base::make_error(base::ErrorCode::kMalformed, "not an IPv4 address: " + address);
  }
  auto* bytes = reinterpret_cast<const std::uint8_t*>(&v4.s_addr);
  return dns::Rdata(bytes, bytes + 4);
}

AnswerBuilder::AnswerBuilder(const PolicyRegistry& registry, std::vector<PoolSpec> specs)
    : registry_(registry), specs_(std::move(specs)) {
  for (const auto& spec : specs_) counters_[spec.name] = std::make_shared<PoolCounters>();
}

void AnswerBuilder::adopt_state_from(const AnswerBuilder& previous) {
  for (auto& [name, counters] : counters_) {
    auto it = previous.counters_.find(name);
    if (it != previous.counters_.end()) counters = it->second;
  }
  all_down_ = previous.all_down_;
  served_from_ = previous.served_from_;
  panic_ = previous.panic_;
  panics_ = previous.panics_;
}

FamilyAnswer AnswerBuilder::build_family(const PoolSpec& spec, dns::RRType type, const health::HealthSnapshot& health,
                                         const std::string* region) const {
  FamilyAnswer family = build_members(spec, type, health, region);
  if (type != dns::RRType::CNAME) return family;
  // A CNAME RRset holds one record (RFC 2181 §10.1). Where the shape answers several targets
  // (all-healthy, a failover priority shared by several, panic, fail-open, a fallback list),
  // each query gets one of them, drawn with equal chance, so clients still spread over all of
  // them; the weighted shape draws by weight, one per query.
  if (family.per_query == 0 && family.fixed.rdatas.size() > 1) {
    family.draw = family.fixed.rdatas.to_vector();
    family.fixed.rdatas.clear();
    family.weights.assign(family.draw.size(), 1);
    family.per_query = 1;
  }
  if (family.per_query > 1) family.per_query = 1;
  return family;
}

FamilyAnswer AnswerBuilder::build_members(const PoolSpec& spec, dns::RRType type, const health::HealthSnapshot& health,
                                          const std::string* region) const {
  FamilyAnswer family;
  family.type = type;
  family.fixed = zone::RRset(type, spec.ttl);
  family.fixed.order = zone::RRsetOrder::kCyclic;  // spread clients over equal endpoints
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < spec.endpoints.size(); ++i) {
    const EndpointSpec& endpoint = spec.endpoints[i];
    if (endpoint.target.has_value() != (type == dns::RRType::CNAME)) continue;
    if (!endpoint.target && is_ipv6_address(endpoint.address) != (type == dns::RRType::AAAA)) continue;
    if (region != nullptr && endpoint.region != *region) continue;
    const health::EndpointView* view = health.find(spec.name, endpoint.address);
    candidates.push_back(Candidate{i, endpoint.priority, endpoint.weight, view == nullptr || view->serving});
  }
  family.configured = !candidates.empty();
  if (!family.configured) return family;
  if (region != nullptr) family.region = *region;
  family.endpoints = candidates.size();
  family.up = static_cast<std::size_t>(
      std::count_if(candidates.begin(), candidates.end(), [](const Candidate& c) { return c.serving; }));

  Selection selection = (*registry_.find(spec.shape))(spec, candidates);
  family.per_query = selection.per_query;
  // Panic: with few survivors left, answering only them would overload them (an outage of
  // its own), so the whole family is answered as configured, in the shape's draw mode.
  if (family.up > 0 && spec.min_healthy.enabled() && family.up < spec.min_healthy.threshold(family.endpoints)) {
    // An endpoint the operator drained stays out: a drain says "no traffic", whatever the
    // health of the rest.
    family.mode = AnswerMode::kPanic;
    for (const auto& candidate : candidates) {
      const EndpointSpec& endpoint = spec.endpoints[candidate.index];
      const health::EndpointView* view = health.find(spec.name, endpoint.address);
      if (view != nullptr && view->drained) continue;
      add_answer(family, endpoint.address, candidate.weight);
    }
    return family;
  }
  if (!selection.members.empty()) {
    for (const auto& member : selection.members) {
      const EndpointSpec& endpoint = spec.endpoints[member.index];
      add_answer(family, endpoint.address, member.weight);
      const health::EndpointView* view = health.find(spec.name, endpoint.address);
      if (view != nullptr && view->suspicion_deadline &&
          (!family.suspicion_deadline || *view->suspicion_deadline < *family.suspicion_deadline)) {
        family.suspicion_deadline = view->suspicion_deadline;
      }
    }
    return family;
  }
  // when-all-down needs a quorum that agrees every endpoint is down; a verdict held while
  // the quorum is lost (docs/cluster.md) never empties the answer: every endpoint not
  // drained is answered, as under fail-open.
  bool held = std::any_of(candidates.begin(), candidates.end(), [&](const Candidate& candidate) {
    const health::EndpointView* view = health.find(spec.name, spec.endpoints[candidate.index].address);
    return view != nullptr && view->quorum_lost && !view->drained;
  });
  if (held) {
    family.mode = AnswerMode::kFailOpen;
    for (const auto& candidate : candidates) {
      const health::EndpointView* view = health.find(spec.name, spec.endpoints[candidate.index].address);
      if (view != nullptr && view->drained) continue;
      add_answer(family, spec.endpoints[candidate.index].address, candidate.weight);
    }
    return family;
  }
  switch (spec.when_all_down) {
    case AllDownPolicy::kFailOpen:
      family.mode = AnswerMode::kFailOpen;
      for (const auto& candidate : candidates) add_answer(family, spec.endpoints[candidate.index].address, candidate.weight);
      break;
    case AllDownPolicy::kFallback:
      family.mode = AnswerMode::kFallback;
      family.per_query = 0;
      for (const auto& address : spec.fallback) {
        // An alias pool's fallback lists names, another pool's addresses.
        if (type == dns::RRType::CNAME || is_ipv6_address(address) == (type == dns::RRType::AAAA)) add_answer(family, address, 1);
      }
      break;
    case AllDownPolicy::kNoData:
      family.mode = AnswerMode::kNoData;
      family.per_query = 0;
      break;
  }
  return family;
}

FamilyAnswer AnswerBuilder::build_region(const PoolSpec& spec, dns::RRType type, const health::HealthSnapshot& health,
                                         std::size_t index) const {
  for (const std::string& region : spec.steering.regions[index].order) {
    FamilyAnswer family = build_family(spec, type, health, &region);
    // Healthy or in panic, a region with endpoints up answers; one with none gives way.
    if (family.configured && family.up > 0 && !is_all_down(family.mode)) return family;
  }
  // Nothing serves in the order: any endpoint of the pool that does, else when-all-down.
  FamilyAnswer family = build_family(spec, type, health);
  if (!is_all_down(family.mode) && family.configured) {
    // Name the region answered from when the answer is one region's.
    std::string only;
    for (const auto& address : family.addresses) {
      for (const auto& endpoint : spec.endpoints) {
        if (endpoint.address != address) continue;
        only = only.empty() || only == endpoint.region ? endpoint.region : "*";
      }
    }
    if (only != "*") family.region = only;
  }
  return family;
}

void AnswerBuilder::track(const PoolSpec& spec, FamilyAnswer& family, const std::string& region,
                          std::vector<AllDownEvent>& events) {
  if (!family.configured) return;
  std::string key = fmt::format("{}/{}", spec.name, dns::type_to_text(family.type));
  if (!region.empty()) key += "@" + region;
  std::size_t threshold = spec.min_healthy.threshold(family.endpoints);
  // A steered pool panics per region; its pool-wide answer (region "") only tracks all-down.
  bool panic = family.mode == AnswerMode::kPanic && (region.empty() == !spec.steering.enabled());
  bool& was_panic = panic_[key];
  if (panic && !was_panic) ++panics_[key];
  family.panics = panics_[key];
  if (panic != was_panic) {
    events.push_back(AllDownEvent{spec.name, family.type, panic, spec.when_all_down, true, family.up, threshold, region, false, {}});
  }
  was_panic = panic;
  if (!region.empty()) {
    auto [it, first] = served_from_.try_emplace(key, family.region);
    if (!first && it->second != family.region) {
      events.push_back(AllDownEvent{spec.name, family.type, false, spec.when_all_down, false, family.up,
                                    threshold, region, true, family.region});
    }
    it->second = family.region;
    return;
  }
  bool down = is_all_down(family.mode);
  bool& was_down = all_down_[key];
  if (down != was_down) {
    events.push_back(AllDownEvent{spec.name, family.type, down, spec.when_all_down, false, family.up, threshold, region, false, {}});
  }
  was_down = down;
}

std::shared_ptr<const PoolAnswers> AnswerBuilder::build(const health::HealthSnapshot& health,
                                                        std::vector<AllDownEvent>& events) {
  std::vector<PoolAnswer> answers;
  answers.reserve(specs_.size());
  for (const auto& spec : specs_) {
    PoolAnswer answer;
    answer.pool = spec.name;
    answer.owner = spec.owner;
    answer.ttl = spec.ttl;
    answer.suspicion_ttl = spec.suspicion_ttl;
    answer.views = spec.view_mask;
    answer.settled = std::all_of(spec.endpoints.begin(), spec.endpoints.end(), [&](const EndpointSpec& endpoint) {
      const health::EndpointView* view = health.find(spec.name, endpoint.address);
      return view != nullptr && view->effective != health::HealthState::kUnknown;
    });
    answer.counters = counters_[spec.name];
    if (spec.steering.enabled()) {
      answer.networks = spec.steering.networks;
      answer.default_region = spec.steering.default_region;
      for (std::size_t i = 0; i < spec.steering.regions.size(); ++i) {
        RegionAnswer region;
        region.region = spec.steering.regions[i].name;
        region.a = build_region(spec, dns::RRType::A, health, i);
        region.aaaa = build_region(spec, dns::RRType::AAAA, health, i);
        region.cname = build_region(spec, dns::RRType::CNAME, health, i);
        track(spec, region.a, region.region, events);
        track(spec, region.aaaa, region.region, events);
        track(spec, region.cname, region.region, events);
        answer.regions.push_back(std::move(region));
      }
      answer.a = answer.regions[answer.default_region].a;
      answer.aaaa = answer.regions[answer.default_region].aaaa;
      answer.cname = answer.regions[answer.default_region].cname;
      // All down is pool-wide: every region falls back to the whole pool at once.
      for (dns::RRType type : {dns::RRType::A, dns::RRType::AAAA, dns::RRType::CNAME}) {
        FamilyAnswer pool_family = build_family(spec, type, health);
        track(spec, pool_family, "", events);
      }
    } else {
      answer.a = build_family(spec, dns::RRType::A, health);
      answer.aaaa = build_family(spec, dns::RRType::AAAA, health);
      answer.cname = build_family(spec, dns::RRType::CNAME, health);
      track(spec, answer.a, "", events);
      track(spec, answer.aaaa, "", events);
      track(spec, answer.cname, "", events);
    }
    answer.alias = spec.alias();
    answers.push_back(std::move(answer));
  }
  return std::make_shared<const PoolAnswers>(std::move(answers));
}

}  // namespace cutover::pool
