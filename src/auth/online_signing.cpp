// OnlineSigner: RRSIGs made as answers are served, with a signature cache, and compact
// denial of existence (RFC 9824).
#include "auth/online_signing.h"

#include <algorithm>
#include <functional>
#include <map>

#include "dns/type_bitmap.h"
#include "dnssec/zone_keys.h"

namespace cutover::auth {
namespace {

using dns::RRType;

bool is_key_type(RRType type) { return type == RRType::DNSKEY || type == RRType::CDS || type == RRType::CDNSKEY; }

std::vector<std::span<const std::uint8_t>> rdatas_of(const PlannedRRset& planned) {
  std::vector<std::span<const std::uint8_t>> rdatas;
  if (!planned.synthesized.empty()) {
    for (const auto& rdata : planned.synthesized) rdatas.emplace_back(rdata);
  } else if (planned.source != nullptr) {
    for (auto rdata : planned.source->rdatas) rdatas.emplace_back(rdata.data(), rdata.size());
  }
  return rdatas;
}

// The cache key of an RRset, written into `key`: owner (lowercase), type, TTL and its rdatas
// in canonical order, once each. Types whose wire form is canonical (A, AAAA, TXT: most pool
// answers) are ordered in place, without a copy of each rdata.
void cache_key(const dns::Name& owner, RRType type, std::uint32_t ttl,
               const std::vector<std::span<const std::uint8_t>>& rdatas, std::string& key) {
  key.clear();
  for (std::uint8_t byte : owner.wire()) key.push_back(static_cast<char>(dns::ascii_lower(byte)));
  auto put16 = [&](std::size_t value) {
    key.push_back(static_cast<char>(value >> 8));
    key.push_back(static_cast<char>(value & 0xFF));
  };
  put16(static_cast<std::uint16_t>(type));
  put16(ttl >> 16);
  put16(ttl & 0xFFFF);
  auto put_sorted = [&](auto& items) {
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
      return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    });
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0 && std::equal(items[i].begin(), items[i].end(), items[i - 1].begin(), items[i - 1].end())) continue;
      put16(items[i].size());
      key.append(items[i].begin(), items[i].end());
    }
  };
  if (!dns::canonical_form_lowers_names(type)) {
    thread_local std::vector<std::span<const std::uint8_t>> order;
    order.assign(rdatas.begin(), rdatas.end());
    put_sorted(order);
    return;
  }
  std::vector<dns::Rdata> canonical;
  canonical.reserve(rdatas.size());
  for (auto rdata : rdatas) canonical.push_back(dns::rdata_canonical(type, rdata));
  put_sorted(canonical);
}

// The NSEC of compact denial at `owner` (RFC 9824 §3): next name "\000.owner" (the least name
// after it in canonical order), the types `types` plus NSEC and RRSIG.
PlannedRRset compact_nsec(const dns::Name& owner, std::vector<std::uint16_t> types, std::uint32_t ttl) {
  PlannedRRset nsec;
  nsec.owner = owner;
  nsec.type = RRType::NSEC;
  nsec.ttl = ttl;
  dns::Rdata rdata;
  const auto& wire = owner.wire();
  if (wire.size() + 2 <= dns::Name::kMaxWireLength) {
    rdata = {1, 0};
    rdata.insert(rdata.end(), wire.begin(), wire.end());
  } else {
    // No room for the "\000" label: the owner itself (the NSEC then covers no other name,
    // which a negative answer for `owner` does not need).
    rdata.assign(wire.begin(), wire.end());
  }
  types.push_back(static_cast<std::uint16_t>(RRType::NSEC));
  types.push_back(static_cast<std::uint16_t>(RRType::RRSIG));
  dns::append_type_bitmap(std::move(types), rdata);
  nsec.synthesized.push_back(std::move(rdata));
  return nsec;
}

std::vector<std::uint16_t> types_at(const zone::Node* node) {
  std::vector<std::uint16_t> types;
  if (node == nullptr) return types;
  for (const auto& rrset : node->rrsets()) types.push_back(static_cast<std::uint16_t>(rrset.type));
  return types;
}

std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<dns::Name, std::shared_ptr<const OnlineSigner>, dns::NameCanonicalLess>& registry() {
  static std::map<dns::Name, std::shared_ptr<const OnlineSigner>, dns::NameCanonicalLess> signers;
  return signers;
}

}  // namespace

OnlineSigner::OnlineSigner(dns::Name origin, std::vector<std::shared_ptr<const dnssec::SigningKey>> keys,
                           OnlinePolicy policy, std::int64_t loaded_at)
    : origin_(std::move(origin)), keys_(std::move(keys)), policy_(policy), loaded_at_(loaded_at) {
  for (const auto& key : keys_) {
    auto state = key->state(loaded_at_);
    published_.push_back(state == dnssec::KeyState::kPublished || state == dnssec::KeyState::kActive ||
                         state == dnssec::KeyState::kInactive);
  }
}

std::vector<dns::ResourceRecord> OnlineSigner::key_records(std::uint32_t dnskey_ttl) const {
  std::vector<dns::ResourceRecord> records;
  auto add = [&](RRType type, dns::Rdata rdata) {
    dns::ResourceRecord record;
    record.owner = origin_;
    record.type = type;
    record.ttl = dnskey_ttl;
    record.rdata = std::move(rdata);
    records.push_back(std::move(record));
  };
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    const auto& key = keys_[i];
    if (published_[i]) add(RRType::DNSKEY, key->dnskey());
    if (policy_.publish_cds && key->state(loaded_at_) == dnssec::KeyState::kActive && key->ksk() && !key->revoked()) {
      add(RRType::CDNSKEY, key->dnskey());
      add(RRType::CDS, dnssec::ds_rdata(origin_, key->dnskey(), 2));
    }
  }
  return records;
}

std::vector<const dnssec::SigningKey*> OnlineSigner::signers_of(RRType type, std::int64_t now) const {
  // Per algorithm (RFC 6840 §5.11 wants every RRset signed with each algorithm of the DNSKEY
  // RRset): its KSKs for the key RRsets, its ZSKs for the rest, the other kind when one is missing.
  std::vector<const dnssec::SigningKey*> chosen;
  std::vector<std::uint8_t> algorithms;
  for (const auto& key : keys_) {
    if (std::find(algorithms.begin(), algorithms.end(), key->algorithm()) == algorithms.end()) {
      algorithms.push_back(key->algorithm());
    }
  }
  for (std::uint8_t algorithm : algorithms) {
    std::vector<const dnssec::SigningKey*> ksks, zsks;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      const auto& key = keys_[i];
      if (!published_[i] || key->algorithm() != algorithm || key->revoked() || key->state(now) != dnssec::KeyState::kActive) {
        continue;
      }
      (key->ksk() ? ksks : zsks).push_back(key.get());
    }
    const auto& wanted = is_key_type(type) ? (ksks.empty() ? zsks : ksks) : (zsks.empty() ? ksks : zsks);
    chosen.insert(chosen.end(), wanted.begin(), wanted.end());
  }
  return chosen;
}

std::vector<dns::Rdata> OnlineSigner::signatures(const dns::Name& owner, RRType type, std::uint32_t ttl,
                                                 const std::vector<std::span<const std::uint8_t>>& rdatas,
                                                 std::uint32_t now) const {
  if (rdatas.empty()) return {};
  thread_local std::string key;  // reused: a cache hit allocates nothing for its key
  cache_key(owner, type, ttl, rdatas, key);
  Shard& shard = shards_[std::hash<std::string>{}(key) % kShards];
  {
    std::lock_guard lock(shard.mutex);
    auto found = shard.entries.find(key);
    // Serial arithmetic (RFC 4034 §3.1.5): what is left of the signature, as a signed distance.
    if (found != shard.entries.end() &&
        static_cast<std::int32_t>(found->second.expiration - now) > static_cast<std::int32_t>(policy_.refresh)) {
      cache_hits_.fetch_add(1, std::memory_order_relaxed);
      return found->second.rrsigs;
    }
  }
  Entry entry;
  dnssec::RrsigFields fields;
  fields.covered = type;
  fields.original_ttl = ttl;
  fields.inception = now - policy_.inception_offset;
  fields.expiration = now + policy_.signature_lifetime;
  entry.expiration = fields.expiration;
  for (const auto* signer : signers_of(type, now)) {
    dns::Rdata rrsig = dnssec::make_rrsig(*signer, owner, fields, rdatas);
    if (!rrsig.empty()) entry.rrsigs.push_back(std::move(rrsig));
  }
  signed_rrsets_.fetch_add(1, std::memory_order_relaxed);
  if (entry.rrsigs.empty()) return {};
  std::lock_guard lock(shard.mutex);
  // A full shard drops one entry, the first in its table's order (in effect a random one): a
  // hot RRset evicted is signed again once, and the shard never starts over.
  if (shard.entries.size() >= std::max<std::size_t>(1, policy_.cache_entries / kShards) && !shard.entries.contains(key)) {
    shard.entries.erase(shard.entries.begin());
  }
  auto& stored = shard.entries[key];
  stored = std::move(entry);
  return stored.rrsigs;
}

void OnlineSigner::sign(const zone::Zone& zone, AnswerPlan& plan, std::uint32_t now) const {
  std::uint32_t nsec_ttl = zone.negative_ttl();  // RFC 9077: min(SOA TTL, SOA MINIMUM)
  auto has = [&](const dns::Name& owner, RRType type) {
    return std::any_of(plan.authority.begin(), plan.authority.end(),
                       [&](const PlannedRRset& planned) { return planned.type == type && planned.owner == owner; });
  };
  for (const auto& need : plan.denials) {
    switch (need.kind) {
      case DenialNeed::Kind::kNxDomain:
        // RFC 9824 §3.2: the name is said to exist with no types but NSEC, RRSIG and NXNAME.
        if (!has(need.name, RRType::NSEC)) {
          plan.authority.push_back(compact_nsec(need.name, {kNxNameType}, nsec_ttl));
        }
        break;
      case DenialNeed::Kind::kNoData:          // node null: an empty non-terminal
      case DenialNeed::Kind::kWildcardNoData:  // the types the wildcard would answer with
        if (!has(need.name, RRType::NSEC)) plan.authority.push_back(compact_nsec(need.name, types_at(need.node), nsec_ttl));
        break;
      case DenialNeed::Kind::kWildcardAnswer:
        // Signed at the query name itself (labels = the name's), as if it existed: no proof.
        break;
      case DenialNeed::Kind::kReferral: {
        const zone::RRset* ds = need.node != nullptr ? need.node->find(RRType::DS) : nullptr;
        if (ds != nullptr) {
          if (!has(need.name, RRType::DS)) {
            PlannedRRset planned;
            planned.owner = zone.owner(*need.node);
            planned.type = RRType::DS;
            planned.ttl = ds->ttl;
            planned.source = ds;
            planned.node = need.node;
            plan.authority.push_back(std::move(planned));
          }
        } else if (!has(need.name, RRType::NSEC)) {
          // RFC 4035 §3.1.4: an unsigned delegation proves it has no DS with the cut's NSEC.
          plan.authority.push_back(compact_nsec(need.name, types_at(need.node), nsec_ttl));
        }
        break;
      }
    }
  }
  if (plan.rcode == dns::Rcode::kNxDomain) plan.rcode = dns::Rcode::kNoError;

  auto sign_section = [&](std::vector<PlannedRRset>& section, bool authority) {
    std::vector<PlannedRRset> out;
    out.reserve(section.size() * 2);
    for (auto& planned : section) {
      std::vector<dns::Rdata> rrsigs;
      // A delegation's NS (and anything else below a cut) is not the zone's data: unsigned.
      bool delegation = authority && planned.type == RRType::NS && planned.owner != origin_;
      if (planned.type != RRType::RRSIG && !delegation) {
        rrsigs = signatures(planned.owner, planned.type, planned.ttl, rdatas_of(planned), now);
      }
      PlannedRRset signature;
      if (!rrsigs.empty()) {
        signature.owner = planned.owner;
        signature.type = RRType::RRSIG;
        signature.ttl = planned.ttl;  // RFC 4035 §2.2
        signature.required = planned.required;
        signature.synthesized = std::move(rrsigs);
      }
      out.push_back(std::move(planned));
      if (!signature.synthesized.empty()) out.push_back(std::move(signature));
    }
    section = std::move(out);
  };
  sign_section(plan.answer, false);
  sign_section(plan.authority, true);
}

std::vector<dns::ResourceRecord> OnlineSigner::signed_records(const zone::Zone& zone, std::uint32_t now) const {
  std::map<dns::Name, std::vector<dns::ResourceRecord>, dns::NameCanonicalLess> owners;
  for (auto& record : zone.records()) owners[record.owner].push_back(std::move(record));
  struct Owner {
    const dns::Name* name;
    std::vector<dns::ResourceRecord>* records;
    bool glue;        // below a zone cut: served as is
    bool delegation;  // a zone cut: only its DS is the zone's (and signed)
  };
  std::vector<Owner> ordered;
  std::vector<const Owner*> chain;
  for (auto& [name, records] : owners) {
    const zone::Node* cut = zone.find_delegation(name);
    bool at_cut = cut != nullptr && zone.owner(*cut) == name;
    ordered.push_back({&name, &records, cut != nullptr && !at_cut, at_cut});
  }
  for (const auto& owner : ordered) {
    if (!owner.glue) chain.push_back(&owner);
  }
  std::uint32_t nsec_ttl = zone.negative_ttl();
  std::vector<dns::ResourceRecord> out;
  dns::ResourceRecord soa;
  auto add_signed = [&](const dns::Name& name, RRType type, std::uint32_t ttl, const std::vector<std::span<const std::uint8_t>>& rdatas) {
    for (auto& rrsig : signatures(name, type, ttl, rdatas, now)) {
      out.push_back(dns::ResourceRecord{name, RRType::RRSIG, dns::RRClass::IN, ttl, std::move(rrsig)});
    }
  };
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const Owner& owner = *chain[i];
    // RRsets in first-appearance order, each followed by its signatures.
    std::vector<RRType> types;
    for (const auto& record : *owner.records) {
      if (std::find(types.begin(), types.end(), record.type) == types.end()) types.push_back(record.type);
    }
    std::vector<std::uint16_t> bitmap;
    for (RRType type : types) {
      bitmap.push_back(static_cast<std::uint16_t>(type));
      std::vector<std::span<const std::uint8_t>> rdatas;
      std::uint32_t ttl = 0;
      for (const auto& record : *owner.records) {
        if (record.type != type) continue;
        if (record.type == RRType::SOA) soa = record;
        rdatas.emplace_back(record.rdata);
        ttl = record.ttl;
        if (record.type != RRType::SOA) out.push_back(record);
      }
      if (!owner.delegation || type == RRType::DS) add_signed(*owner.name, type, ttl, rdatas);
    }
    const dns::Name& next = *chain[(i + 1) % chain.size()]->name;
    dns::Rdata nsec(next.wire().begin(), next.wire().end());
    bitmap.push_back(static_cast<std::uint16_t>(RRType::NSEC));
    bitmap.push_back(static_cast<std::uint16_t>(RRType::RRSIG));
    dns::append_type_bitmap(std::move(bitmap), nsec);
    out.push_back(dns::ResourceRecord{*owner.name, RRType::NSEC, dns::RRClass::IN, nsec_ttl, nsec});
    add_signed(*owner.name, RRType::NSEC, nsec_ttl, {std::span<const std::uint8_t>(nsec)});
  }
  for (const auto& owner : ordered) {
    if (owner.glue) out.insert(out.end(), owner.records->begin(), owner.records->end());
  }
  out.insert(out.begin(), soa);
  out.push_back(soa);
  return out;
}

OnlineSigner::Counters OnlineSigner::counters(std::uint32_t now) const {
  Counters counters;
  counters.signed_rrsets = signed_rrsets_.load(std::memory_order_relaxed);
  counters.cache_hits = cache_hits_.load(std::memory_order_relaxed);
  for (auto& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    counters.cached += shard.entries.size();
  }
  counters.inception = now - policy_.inception_offset;
  counters.expiration = now + policy_.signature_lifetime;
  return counters;
}

void set_online_signer(const dns::Name& origin, std::shared_ptr<const OnlineSigner> signer) {
  std::lock_guard lock(registry_mutex());
  if (signer == nullptr) {
    registry().erase(origin);
  } else {
    registry()[origin] = std::move(signer);
  }
}

std::shared_ptr<const OnlineSigner> online_signer(const dns::Name& origin) {
  std::lock_guard lock(registry_mutex());
  auto found = registry().find(origin);
  return found == registry().end() ? nullptr : found->second;
}

std::vector<std::shared_ptr<const OnlineSigner>> online_signers() {
  std::lock_guard lock(registry_mutex());
  std::vector<std::shared_ptr<const OnlineSigner>> signers;
  for (const auto& [origin, signer] : registry()) signers.push_back(signer);
  return signers;
}

}  // namespace cutover::auth
