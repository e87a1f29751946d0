// Building the Zone index from records, and the lookups the answer engine needs.
#include "zone/zone.h"

#include <algorithm>

#include <fmt/format.h>

namespace cutover::zone {

using base::ErrorCode;
using base::make_error;
using base::Result;
using dns::Name;
using dns::RRType;

const RRset* Node::find(RRType type) const {
  for (const auto& rrset : rrsets) {
    if (rrset.type == type) return &rrset;
  }
  return nullptr;
}

namespace {

RRsetOrder order_for(const OrderPolicy& policy, const Name& owner) {
  for (const auto& [name, order] : policy.per_name) {
    if (name == owner) return order;
  }
  return policy.zone_default;
}

}  // namespace

Result<std::shared_ptr<const Zone>> Zone::build(const Name& origin, const std::vector<dns::ResourceRecord>& records,
                                                const OrderPolicy& order, NegativeTtlMode negative) {
  std::shared_ptr<Zone> zone(new Zone());
  zone->origin_ = origin;
  zone->negative_mode_ = negative;
  for (const auto& record : records) {
    if (!record.owner.is_subdomain_of(origin)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} is outside the zone {}", record.owner.to_text(), origin.to_text()));
    }
    if (dns::is_meta_type(record.type)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} has meta type {}", record.owner.to_text(), dns::type_to_text(record.type)));
    }
    auto [it, inserted] = zone->nodes_.try_emplace(record.owner);
    Node& node = it->second;
    if (inserted) node.name = record.owner;
    RRset* rrset = nullptr;
    for (auto& candidate : node.rrsets) {
      if (candidate.type == record.type) rrset = &candidate;
    }
    if (rrset == nullptr) {
      node.rrsets.emplace_back(record.type, record.ttl);
      rrset = &node.rrsets.back();
      rrset->order = order_for(order, record.owner);
    }
    rrset->ttl = std::min(rrset->ttl, record.ttl);
    auto canonical = dns::rdata_canonical(record.type, record.rdata);
    bool duplicate = std::any_of(rrset->rdatas.begin(), rrset->rdatas.end(), [&](const dns::Rdata& existing) {
      return dns::rdata_canonical(record.type, existing) == canonical;
    });
    if (!duplicate) rrset->rdatas.push_back(record.rdata);
  }
  auto apex = zone->nodes_.find(origin);
  if (apex == zone->nodes_.end() || apex->second.find(RRType::SOA) == nullptr) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has no SOA at its apex", origin.to_text()));
  }
  zone->apex_ = &apex->second;
  zone->soa_ = apex->second.find(RRType::SOA);
  if (zone->soa_->rdatas.size() != 1) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has more than one SOA", origin.to_text()));
  }
  auto soa = dns::parse_soa(zone->soa_->rdatas.front());
  if (!soa) return make_error(ErrorCode::kMalformed, fmt::format("zone {}: bad SOA: {}", origin.to_text(), soa.error().message));
  zone->soa_fields_ = *soa;
  return std::shared_ptr<const Zone>(std::move(zone));
}

std::uint32_t Zone::negative_ttl() const {
  if (negative_mode_ == NegativeTtlMode::kSoaTtl) return soa_->ttl;
  return std::min(soa_->ttl, soa_fields_.minimum);
}

const Node* Zone::find(const Name& name) const {
  auto it = nodes_.find(name);
  return it == nodes_.end() ? nullptr : &it->second;
}

bool Zone::has_descendants(const Name& name) const {
  // In canonical order every descendant of a name directly follows it.
  auto it = nodes_.upper_bound(name);
  return it != nodes_.end() && it->first.is_subdomain_of(name);
}

const Node* Zone::find_delegation(const Name& name) const {
  if (!name.is_subdomain_of(origin_)) return nullptr;
  std::size_t origin_labels = origin_.label_count();
  std::size_t name_labels = name.label_count();
  for (std::size_t labels = origin_labels + 1; labels <= name_labels; ++labels) {
    const Node* node = find(name.suffix(labels));
    if (node != nullptr && node->find(RRType::NS) != nullptr) return node;
  }
  return nullptr;
}

std::vector<dns::ResourceRecord> Zone::records() const {
  std::vector<dns::ResourceRecord> out;
  for (const auto& [name, node] : nodes_) {
    std::vector<const RRset*> sorted;
    for (const auto& rrset : node.rrsets) sorted.push_back(&rrset);
    std::sort(sorted.begin(), sorted.end(), [](const RRset* a, const RRset* b) { return a->type < b->type; });
    for (const RRset* rrset : sorted) {
      std::vector<dns::Rdata> rdatas = rrset->rdatas;
      std::sort(rdatas.begin(), rdatas.end(), [&](const dns::Rdata& a, const dns::Rdata& b) {
        return dns::rdata_canonical(rrset->type, a) < dns::rdata_canonical(rrset->type, b);
      });
      for (auto& rdata : rdatas) {
        out.push_back(dns::ResourceRecord{name, rrset->type, dns::RRClass::IN, rrset->ttl, std::move(rdata)});
      }
    }
  }
  return out;
}

}  // namespace cutover::zone
