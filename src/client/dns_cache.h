// The reference client's DNS cache: one entry per (name, type) built from a response, kept
// for the record TTL (RFC 1035 §3.2.1, RFC 2181 §8) or, for NXDOMAIN and NODATA, the
// RFC 2308 §5 negative TTL, min(SOA TTL, SOA MINIMUM). Entries expose both TTLs and what
// remains of them. Time comes from the injected base::Clock. Not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "dns/message.h"
#include "dns/name.h"
#include "dns/types.h"
#include "net/address.h"

namespace cutover::client {

enum class AnswerKind {
  kAddresses,  // the type's records (after any CNAME chain)
  kNxDomain,   // RFC 2308 §2.1
  kNoData,     // RFC 2308 §2.2: the name exists, the type does not
};

std::string answer_kind_text(AnswerKind kind);

struct CachedAnswer {
  AnswerKind kind = AnswerKind::kAddresses;
  dns::Name name;                               // the name asked
  dns::RRType type = dns::RRType::A;
  dns::Name canonical;                          // the owner of the data, after CNAMEs
  std::vector<net::SocketAddress> addresses;    // port 0; in answer order
  std::uint32_t ttl = 0;                        // kAddresses: the smallest TTL of the chain and RRset
  std::uint32_t negative_ttl = 0;               // kNxDomain/kNoData: min(SOA TTL, SOA MINIMUM)
  base::SteadyTime stored_at{};
  base::SteadyTime expires_at{};
  std::uint64_t generation = 0;                 // grows with every store, over the whole cache
};

struct CacheHit {
  CachedAnswer answer;
  std::chrono::nanoseconds remaining{0};  // until expires_at, > 0
};

// How a response was read into an answer; uncacheable ones say why.
struct ReadAnswer {
  std::optional<CachedAnswer> answer;  // nullopt: not cacheable (see `reason`)
  std::string reason;
};

// Reads a response to (name, type) as an answer, without storing it: follows CNAMEs in the
// answer section from `name`, takes the type's records at the end of the chain, or a negative
// answer with the SOA of the authority section. Negative answers without an SOA are not
// cacheable (RFC 2308 §5), nor are SERVFAIL, REFUSED and other rcodes (this stub does not
// cache failures). A TTL with the top bit set counts as 0 (RFC 2181 §8).
ReadAnswer read_answer(const dns::Name& name, dns::RRType type, const dns::Message& response);

class DnsCache {
 public:
  // `clock` must outlive the cache.
  explicit DnsCache(const base::Clock& clock) : clock_(clock) {}

  // The entry for (name, type) if it has not expired (a TTL of 0 is never a hit).
  std::optional<CacheHit> find(const dns::Name& name, dns::RRType type) const;
  // Stores `answer` (stamped now, expiring after its TTL), replacing any entry for its key.
  const CachedAnswer& store(CachedAnswer answer);
  // Drops expired entries; returns how many.
  std::size_t purge_expired();
  std::size_t size() const { return entries_.size(); }

 private:
  using Key = std::pair<std::vector<std::uint8_t>, std::uint16_t>;  // lowercased wire name, type
  static Key key_of(const dns::Name& name, dns::RRType type);

  const base::Clock& clock_;
  std::map<Key, CachedAnswer> entries_;
  std::uint64_t generation_ = 0;
};

}  // namespace cutover::client
