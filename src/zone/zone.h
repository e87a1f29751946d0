// Zone: the immutable, indexed records of one zone, built once at load and shared by
// every serving thread through a shared_ptr. Lookups are const and thread-safe; the only
// mutable state is each RRset's rotation counter for cyclic order, which is atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "base/result.h"
#include "dns/message.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"

namespace cutover::zone {

// How the members of an RRset are ordered in answers (like BIND's rrset-order).
enum class RRsetOrder { kFixed, kCyclic, kRandom };

struct RRset {
  RRset() = default;
  RRset(dns::RRType type, std::uint32_t ttl) : type(type), ttl(ttl) {}
  RRset(const RRset& other) : type(other.type), ttl(other.ttl), rdatas(other.rdatas), order(other.order) {}
  RRset& operator=(const RRset& other) {
    type = other.type;
    ttl = other.ttl;
    rdatas = other.rdatas;
    order = other.order;
    return *this;
  }

  dns::RRType type = dns::RRType::A;
  std::uint32_t ttl = 0;
  std::vector<dns::Rdata> rdatas;  // duplicates removed, in file order
  RRsetOrder order = RRsetOrder::kFixed;
  // Next starting member for kCyclic; incremented by every answer that uses it.
  mutable std::atomic<std::uint32_t> rotation{0};
};

struct Node {
  dns::Name name;
  std::vector<RRset> rrsets;

  const RRset* find(dns::RRType type) const;
  bool empty() const { return rrsets.empty(); }
};

// Per-zone answer ordering: a default and overrides for single owner names.
struct OrderPolicy {
  RRsetOrder zone_default = RRsetOrder::kFixed;
  std::vector<std::pair<dns::Name, RRsetOrder>> per_name;
};

// The SOA TTL of negative answers: kCapped is min(SOA TTL, MINIMUM) (RFC 2308 §5); kSoaTtl keeps
// the SOA record's own TTL, a non-compliant reply the lab serves to see what resolvers do with it.
enum class NegativeTtlMode { kCapped, kSoaTtl };

class Zone {
 public:
  // Groups records into RRsets (lowest TTL wins inside an RRset, RFC 2181 §5.2; exact
  // duplicates dropped). Requires a SOA at `origin`; records outside the zone are an error.
  static base::Result<std::shared_ptr<const Zone>> build(const dns::Name& origin,
                                                         const std::vector<dns::ResourceRecord>& records,
                                                         const OrderPolicy& order = {},
                                                         NegativeTtlMode negative = NegativeTtlMode::kCapped);

  const dns::Name& origin() const { return origin_; }
  const Node& apex() const { return *apex_; }
  const RRset& soa() const { return *soa_; }
  const dns::SoaFields& soa_fields() const { return soa_fields_; }
  // RFC 2308 §3/§5: the TTL of the SOA in negative answers, min(SOA TTL, MINIMUM) unless kSoaTtl.
  std::uint32_t negative_ttl() const;

  // The node owning exactly `name`, or nullptr (also for empty non-terminals).
  const Node* find(const dns::Name& name) const;
  // True if some node lies strictly below `name` (so `name` exists, at least as an empty non-terminal).
  bool has_descendants(const dns::Name& name) const;
  // The topmost delegation point (NS RRset below the apex) at or above `name`, or nullptr.
  const Node* find_delegation(const dns::Name& name) const;

  std::size_t node_count() const { return nodes_.size(); }
  // All nodes in canonical order.
  const std::map<dns::Name, Node, dns::NameCanonicalLess>& nodes() const { return nodes_; }
  // Every record, one per rdata, in canonical order of owner then type.
  std::vector<dns::ResourceRecord> records() const;

 private:
  Zone() = default;

  dns::Name origin_;
  NegativeTtlMode negative_mode_ = NegativeTtlMode::kCapped;
  std::map<dns::Name, Node, dns::NameCanonicalLess> nodes_;
  const Node* apex_ = nullptr;
  const RRset* soa_ = nullptr;
  dns::SoaFields soa_fields_;
};

}  // namespace cutover::zone
