// Floor and cache-tail checks over a delta.
#include "store/checks.h"

#include <algorithm>
#include <set>

namespace cutover::store {

namespace {

bool has_address(const ZoneData& data, const dns::Name& name) {
  return data.find(name, dns::RRType::A) != nullptr || data.find(name, dns::RRType::AAAA) != nullptr;
}

bool is_address(dns::RRType type) { return type == dns::RRType::A || type == dns::RRType::AAAA; }

}  // namespace

std::optional<std::string> floor_violation(const ZoneData& before, const ZoneData& after, const Delta& delta) {
  std::set<dns::Name, dns::NameCanonicalLess> emptied;
  for (const auto& record : delta.removed) {
    if (is_address(record.type) && has_address(before, record.owner) && !has_address(after, record.owner)) {
      emptied.insert(record.owner);
    }
  }
  if (emptied.empty()) return std::nullopt;
  std::string names;
  for (const auto& name : emptied) names += (names.empty() ? "" : ", ") + name.to_text();
  return "floor: this write would leave " + names + " with no address records; send allow_empty to do it anyway";
}

CacheTail cache_tail(const ZoneData& before, const Delta& delta) {
  CacheTail tail;
  for (const auto& record : delta.removed) {
    if (record.type != dns::RRType::SOA) tail.longest_ttl = std::max(tail.longest_ttl, record.ttl);
  }
  std::set<std::string> recreated;
  for (const auto& record : delta.added) {
    if (record.type == dns::RRType::SOA || before.find(record.owner, record.type) != nullptr) continue;
    std::string what = record.owner.to_text() + " " + dns::type_to_text(record.type);
    if (recreated.insert(what).second) tail.recreated.push_back(what);
  }
  if (!tail.recreated.empty()) {
    auto soa = before.soa();
    std::uint32_t minimum = soa ? soa->minimum : 0;
    tail.negative_ttl = std::min(before.soa_ttl(), minimum);
  }
  return tail;
}

}  // namespace cutover::store
