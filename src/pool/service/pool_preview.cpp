// PoolService's answer previews for dry runs: a pool's answer now, and the answer it would
// give with other API pools or overrides, built by the real AnswerBuilder from the current
// health so the dry run shows what queries would get.
#include <algorithm>

#include "pool/service/pool_service.h"

namespace cutover::pool {
namespace {

PoolPreview preview_of(const PoolAnswer& answer) {
  PoolPreview out;
  out.owner = answer.owner;
  out.a = answer.a.addresses;
  out.aaaa = answer.aaaa.addresses;
  out.cname = answer.cname.addresses;
  std::sort(out.a.begin(), out.a.end());
  std::sort(out.aaaa.begin(), out.aaaa.end());
  return out;
}

// Whether an endpoint serves under `value`; without an override, what its health says.
bool serves(health::Override value, const health::EndpointView* view, const health::EndpointReport* report) {
  if (value == health::Override::kDrain) return false;
  if (value == health::Override::kForceUp) return true;
  // The view reflects a current override that the write would clear: fall back to health.
  if (report != nullptr && report->override_value != health::Override::kNone) {
    return report->health != health::HealthState::kDown;
  }
  return view == nullptr || view->serving;
}

}  // namespace

PoolPreview PoolService::current_answer(const std::string& pool) const {
  auto answers = answers_.load();
  if (!answers) return {};
  for (const auto& answer : answers->pools()) {
    if (answer.pool == pool) return preview_of(answer);
  }
  return {};
}

PoolPreview PoolService::preview(const std::string& pool, const std::vector<PoolSpec>& api_specs,
                                 const std::map<std::string, health::Override>& overrides) const {
  std::vector<PoolSpec> config_pools;
  {
    std::lock_guard lock(apply_mutex_);
    config_pools = config_specs_;
  }
  auto all = merged(config_pools, api_specs);
  if (!all) return {};
  auto spec = std::find_if(all->begin(), all->end(), [&](const PoolSpec& candidate) { return candidate.name == pool; });
  if (spec == all->end()) return {};
  auto current = monitor_->snapshot();
  auto reports = monitor_->reports();
  health::HealthSnapshot health;
  for (const auto& endpoint : spec->endpoints) {
    const health::EndpointView* view = current ? current->find(pool, endpoint.address) : nullptr;
    auto report = std::find_if(reports.begin(), reports.end(), [&](const health::EndpointReport& candidate) {
      return candidate.pool == pool && candidate.address == endpoint.address;
    });
    auto value = overrides.find(endpoint.address);
    health::EndpointView next;
    if (view != nullptr) next = *view;
    next.pool = pool;
    next.address = endpoint.address;
    next.serving = serves(value == overrides.end() ? health::Override::kNone : value->second, view,
                          report == reports.end() ? nullptr : &*report);
    health.endpoints.push_back(std::move(next));
  }
  std::sort(health.endpoints.begin(), health.endpoints.end(), [](const auto& left, const auto& right) {
    return left.address < right.address;
  });
  AnswerBuilder builder(policies_, {*spec});
  std::vector<AllDownEvent> events;
  auto answers = builder.build(health, events);
  return answers->pools().empty() ? PoolPreview{} : preview_of(answers->pools().front());
}

}  // namespace cutover::pool
