// Online signing (docs/dnssec.md, "Online signing"): a zone marked `dnssec: {mode: online}`
// is served unsigned to queries without the DO bit and signed as it is answered to queries
// with it: every RRset of the answer and authority sections gets RRSIGs from the zone's
// active keys, made on demand and kept in a signature cache, and denial of existence is
// compact (RFC 9824): one NSEC at the query name whose next name is "\000.NAME", so every
// negative answer is one record and one signature, and nothing of the zone can be walked.
// Pool answers, materialized records and writes are signed the same way, since they are
// answered through the same plan. Thread-safe: the cache is sharded under mutexes.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "auth/answer_plan.h"
#include "dns/message.h"
#include "dns/name.h"
#include "dnssec/signing_key.h"
#include "zone/zone.h"

namespace cutover::auth {

// RFC 9824 §2: the NXNAME pseudo-type, set in the NSEC of a name that does not exist.
constexpr std::uint16_t kNxNameType = 128;

struct OnlinePolicy {
  std::uint32_t signature_lifetime = 14 * 86400;  // a signature made now expires then
  std::uint32_t refresh = 7 * 86400;              // re-signed when less than this is left
  std::uint32_t inception_offset = 3600;          // inception this far back, for clock skew
  std::size_t cache_entries = 1 << 17;            // signatures kept (all shards)
  bool publish_cds = true;
};

class OnlineSigner {
 public:
  // `loaded_at` (unix seconds): when the zone is loaded. The keys published then are the
  // DNSKEY RRset until the next load, and only they ever sign: a key whose Activate time passes
  // while the server runs signs from then on, one not yet published at the load never does.
  OnlineSigner(dns::Name origin, std::vector<std::shared_ptr<const dnssec::SigningKey>> keys, OnlinePolicy policy,
               std::int64_t loaded_at);

  const dns::Name& origin() const { return origin_; }
  const OnlinePolicy& policy() const { return policy_; }
  const std::vector<std::shared_ptr<const dnssec::SigningKey>>& keys() const { return keys_; }

  // The records the zone publishes for its keys as loaded: the DNSKEY of every key published
  // at `loaded_at`, and (policy.publish_cds) CDS (SHA-256) and CDNSKEY for every KSK active then
  // (RFC 7344 §3).
  std::vector<dns::ResourceRecord> key_records(std::uint32_t dnskey_ttl) const;

  // Adds to `plan` (planned from `zone` for a query with the DO bit) the compact denial its
  // DenialNeeds call for and RRSIGs for every RRset of its answer and authority sections but
  // a delegation's NS; an NXDOMAIN becomes NOERROR with the NXNAME NSEC (RFC 9824 §3.2).
  void sign(const zone::Zone& zone, AnswerPlan& plan, std::uint32_t now) const;

  // The RRSIGs over one RRset (every active key that signs its type), from the cache when a
  // cached signature has more than policy.refresh left; empty when no key can sign it.
  std::vector<dns::Rdata> signatures(const dns::Name& owner, dns::RRType type, std::uint32_t ttl,
                                     const std::vector<std::span<const std::uint8_t>>& rdatas, std::uint32_t now) const;

  // The zone as a secondary receives it (AXFR, and IXFR answered whole): every authoritative
  // RRset with its RRSIGs and a full NSEC chain over the zone's owner names (RFC 4035 §2.3,
  // delegation points included, glue not), each NSEC signed; the SOA first and last. What
  // dnssec-verify and ldns-verify-zone accept as a fully signed zone.
  std::vector<dns::ResourceRecord> signed_records(const zone::Zone& zone, std::uint32_t now) const;

  struct Counters {
    std::uint64_t signed_rrsets = 0;  // cache misses: RRsets signed
    std::uint64_t cache_hits = 0;
    std::size_t cached = 0;           // RRsets in the cache now
    // The window of the signatures the server makes now.
    std::uint32_t inception = 0;
    std::uint32_t expiration = 0;
  };
  Counters counters(std::uint32_t now) const;

 private:
  struct Entry {
    std::vector<dns::Rdata> rrsigs;
    std::uint32_t expiration = 0;
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
  };
  static constexpr std::size_t kShards = 16;

  // The keys that sign `type` now, per algorithm: active KSKs for the apex key RRsets (DNSKEY,
  // CDS, CDNSKEY), active ZSKs for the rest; with only one kind (a combined signing key), it.
  std::vector<const dnssec::SigningKey*> signers_of(dns::RRType type, std::int64_t now) const;

  dns::Name origin_;
  std::vector<std::shared_ptr<const dnssec::SigningKey>> keys_;
  OnlinePolicy policy_;
  std::int64_t loaded_at_;
  std::vector<bool> published_;  // per key: in the DNSKEY RRset (published at loaded_at_)
  mutable std::array<Shard, kShards> shards_;
  mutable std::atomic<std::uint64_t> signed_rrsets_{0};
  mutable std::atomic<std::uint64_t> cache_hits_{0};
};

// The online signers of the zones served now, by origin: set by whoever loads zones (the
// server, from zones[].dnssec) before it builds their ZoneSet, which attaches each one to its
// zone's served form (SignedZone). A null signer removes the origin's.
void set_online_signer(const dns::Name& origin, std::shared_ptr<const OnlineSigner> signer);
std::shared_ptr<const OnlineSigner> online_signer(const dns::Name& origin);
std::vector<std::shared_ptr<const OnlineSigner>> online_signers();

}  // namespace cutover::auth
