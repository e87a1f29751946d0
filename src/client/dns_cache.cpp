// Reading responses into cache entries (CNAME chains, RFC 2308 negative answers) and the
// TTL bookkeeping of the cache.
#include "client/dns_cache.h"

#include <netinet/in.h>

#include <algorithm>
#include <cstring>

namespace cutover::client {
namespace {

// RFC 2181 §8: a TTL with the most significant bit set is treated as zero.
std::uint32_t effective_ttl(std::uint32_t ttl) { return (ttl & 0x80000000u) != 0 ? 0 : ttl; }

std::optional<net::SocketAddress> address_from_rdata(dns::RRType type, const dns::Rdata& rdata) {
  net::SocketAddress address;
  if (type == dns::RRType::A && rdata.size() == 4) {
    auto& v4 = reinterpret_cast<sockaddr_in&>(address.storage);
    v4.sin_family = AF_INET;
    std::memcpy(&v4.sin_addr, rdata.data(), 4);
    address.length = sizeof(sockaddr_in);
    return address;
  }
  if (type == dns::RRType::AAAA && rdata.size() == 16) {
    auto& v6 = reinterpret_cast<sockaddr_in6&>(address.storage);
    v6.sin6_family = AF_INET6;
    std::memcpy(&v6.sin6_addr, rdata.data(), 16);
    address.length = sizeof(sockaddr_in6);
    return address;
  }
  return std::nullopt;
}

// RFC 2308 §5: the negative TTL is the minimum of the SOA record's own TTL and its MINIMUM
// field. The SOA must be for a zone that encloses the name.
std::optional<std::uint32_t> negative_ttl(const dns::Name& name, const dns::Message& response) {
  for (const auto& record : response.authorities) {
    if (record.type != dns::RRType::SOA || !name.is_subdomain_of(record.owner)) continue;
    auto soa = dns::parse_soa(record.rdata);
    if (!soa) continue;
    return std::min(effective_ttl(record.ttl), effective_ttl(soa->minimum));
  }
  return std::nullopt;
}

}  // namespace

std::string answer_kind_text(AnswerKind kind) {
  switch (kind) {
    case AnswerKind::kAddresses: return "addresses";
    case AnswerKind::kNxDomain: return "NXDOMAIN";
    case AnswerKind::kNoData: return "NODATA";
  }
  return "?";
}

ReadAnswer read_answer(const dns::Name& name, dns::RRType type, const dns::Message& response) {
  auto rcode = static_cast<dns::Rcode>(response.header.rcode);
  if (rcode != dns::Rcode::kNoError && rcode != dns::Rcode::kNxDomain) {
    return {std::nullopt, dns::rcode_to_text(rcode)};
  }
  CachedAnswer answer;
  answer.name = name;
  answer.type = type;
  answer.canonical = name;
  std::uint32_t chain_ttl = 0xFFFFFFFFu;
  // Follow CNAMEs from the name asked; a chain longer than the answer section is a loop.
  for (std::size_t hops = 0; hops <= response.answers.size(); ++hops) {
    const dns::ResourceRecord* cname = nullptr;
    for (const auto& record : response.answers) {
      if (record.type == dns::RRType::CNAME && record.owner == answer.canonical) cname = &record;
    }
    if (cname == nullptr || type == dns::RRType::CNAME) break;
    auto target = dns::rdata_target_name(dns::RRType::CNAME, cname->rdata);
    if (!target) return {std::nullopt, "a CNAME whose target does not decode"};
    chain_ttl = std::min(chain_ttl, effective_ttl(cname->ttl));
    answer.canonical = *target;
  }
  std::uint32_t rrset_ttl = 0xFFFFFFFFu;
  for (const auto& record : response.answers) {
    if (record.type != type || !(record.owner == answer.canonical)) continue;
    auto address = address_from_rdata(type, record.rdata);
    if (!address) return {std::nullopt, "an address record of the wrong length"};
    answer.addresses.push_back(*address);
    rrset_ttl = std::min(rrset_ttl, effective_ttl(record.ttl));
  }
  if (!answer.addresses.empty()) {
    answer.kind = AnswerKind::kAddresses;
    answer.ttl = std::min(chain_ttl, rrset_ttl);
    return {std::move(answer), {}};
  }
  answer.kind = rcode == dns::Rcode::kNxDomain ? AnswerKind::kNxDomain : AnswerKind::kNoData;
  auto negative = negative_ttl(answer.canonical, response);
  if (!negative) return {std::nullopt, answer_kind_text(answer.kind) + " without an SOA (RFC 2308 §5: not cached)"};
  answer.negative_ttl = std::min(*negative, chain_ttl);
  return {std::move(answer), {}};
}

DnsCache::Key DnsCache::key_of(const dns::Name& name, dns::RRType type) {
  return {name.lowercased().wire(), static_cast<std::uint16_t>(type)};
}

std::optional<CacheHit> DnsCache::find(const dns::Name& name, dns::RRType type) const {
  auto it = entries_.find(key_of(name, type));
  if (it == entries_.end()) return std::nullopt;
  auto remaining = it->second.expires_at - clock_.now();
  if (remaining <= std::chrono::nanoseconds::zero()) return std::nullopt;
  return CacheHit{it->second, std::chrono::duration_cast<std::chrono::nanoseconds>(remaining)};
}

const CachedAnswer& DnsCache::store(CachedAnswer answer) {
  answer.stored_at = clock_.now();
  std::uint32_t lifetime = answer.kind == AnswerKind::kAddresses ? answer.ttl : answer.negative_ttl;
  answer.expires_at = answer.stored_at + std::chrono::seconds(lifetime);
  answer.generation = ++generation_;
  auto key = key_of(answer.name, answer.type);
  auto& slot = entries_[key];
  slot = std::move(answer);
  return slot;
}

std::size_t DnsCache::purge_expired() {
  auto now = clock_.now();
  return std::erase_if(entries_, [now](const auto& entry) { return entry.second.expires_at <= now; });
}

}  // namespace cutover::client
