// SignedZone: the NSEC and NSEC3 chains of a pre-signed zone, and the records a DO answer
// adds from them (RFC 4035 §3.1, RFC 5155 §7.2).
#include "auth/dnssec.h"

#include <algorithm>
#include <string_view>

#include <openssl/evp.h>

#include "auth/online_signing.h"
#include "dns/base_encoding.h"

namespace cutover::auth {
namespace {

using dns::Name;
using dns::RRType;

constexpr std::uint8_t kNsec3Sha1 = 1;            // RFC 5155 §11: the only hash algorithm defined

using dns::Nsec3Params;

bool same_chain(const Nsec3Params& a, const Nsec3Params& b) {
  return a.algorithm == b.algorithm && a.iterations == b.iterations && std::equal(a.salt.begin(), a.salt.end(), b.salt.begin(), b.salt.end());
}

// The node's NSEC3 RRset belongs to the chain `params` names (a zone may hold a second chain
// while it changes parameters; only the one NSEC3PARAM announces is used).
bool in_chain(const zone::Node& node, const Nsec3Params& params) {
  const zone::RRset* nsec3 = node.find(RRType::NSEC3);
  if (nsec3 == nullptr || nsec3->rdatas.size() == 0) return false;
  auto own = dns::parse_nsec3_params(nsec3->rdatas[0]);
  return own && same_chain(*own, params);
}

// The planned RRset of `type` at `node` (its own name), for the authority section.
PlannedRRset planned_from(const zone::Zone& zone, const zone::Node& node, const zone::RRset& rrset) {
  PlannedRRset planned;
  planned.owner = zone.owner(node);
  planned.type = rrset.type;
  planned.ttl = rrset.ttl;
  planned.source = &rrset;
  planned.node = &node;
  return planned;
}

class ProofWriter {
 public:
  ProofWriter(const zone::Zone& zone, const SignedZone& signed_zone, AnswerPlan& plan)
      : zone_(zone), signed_(signed_zone), plan_(plan) {}

  void add(const DenialNeed& need) {
    if (need.kind == DenialNeed::Kind::kReferral) {
      add_referral(need);
    } else if (signed_.nsec3()) {
      add_nsec3(need);
    } else {
      add_nsec(need);
    }
  }

 private:
  // The node's RRset of `type` into the authority section, once.
  void put(const zone::Node* node, RRType type) {
    if (node == nullptr) return;
    const zone::RRset* rrset = node->find(type);
    if (rrset == nullptr) return;
    for (const auto& planned : plan_.authority) {
      if (planned.node == node && planned.type == type) return;
    }
    plan_.authority.push_back(planned_from(zone_, *node, *rrset));
  }

  // The nearest ancestor of `name` that exists in the zone (RFC 4592 §3.3.1's closest encloser).
  Name closest_encloser(const Name& name) const {
    Name encloser = name.parent();
    while (encloser.label_count() > zone_.origin().label_count()) {
      const zone::Node* node = zone_.find(encloser);
      if ((node != nullptr && !zone::holds_only_nsec3(*node)) || zone_.has_descendants(encloser)) break;
      encloser = encloser.parent();
    }
    return encloser;
  }

  static std::optional<Name> wildcard_of(const Name& encloser) {
    auto wildcard = encloser.prepend("*");
    if (!wildcard) return std::nullopt;
    return *wildcard;
  }

  // RFC 4035 §3.1.3: NXDOMAIN proves the name and the wildcard that could have answered it
  // absent; NODATA shows the name's NSEC (an empty non-terminal has none: the NSEC that covers
  // it, whose next name lies below it); a wildcard answer proves the exact name absent.
  void add_nsec(const DenialNeed& need) {
    switch (need.kind) {
      case DenialNeed::Kind::kNxDomain:
        put(signed_.nsec_covering(need.name), RRType::NSEC);
        if (auto wildcard = wildcard_of(closest_encloser(need.name))) put(signed_.nsec_covering(*wildcard), RRType::NSEC);
        break;
      case DenialNeed::Kind::kNoData: {
        const zone::Node* matching = signed_.nsec_matching(need.name);
        put(matching != nullptr ? matching : signed_.nsec_covering(need.name), RRType::NSEC);
        break;
      }
      case DenialNeed::Kind::kWildcardAnswer:
        put(signed_.nsec_covering(need.name), RRType::NSEC);
        break;
      case DenialNeed::Kind::kWildcardNoData:
        put(signed_.nsec_covering(need.name), RRType::NSEC);
        put(signed_.nsec_matching(zone_.owner(*need.node)), RRType::NSEC);
        break;
      case DenialNeed::Kind::kReferral:
        break;
    }
  }

  // RFC 5155 §7.2.1: the NSEC3 that matches the closest provable encloser of `name` and the one
  // that covers the next closer name; returns that encloser.
  std::optional<Name> add_encloser_proof(const Name& name) {
    std::size_t origin_labels = zone_.origin().label_count();
    for (std::size_t labels = name.label_count(); labels-- > origin_labels;) {
      Name candidate = name.suffix(labels);
      const zone::Node* matching = signed_.nsec3_matching(signed_.hash(candidate));
      if (matching == nullptr) continue;
      put(matching, RRType::NSEC3);
      put(signed_.nsec3_covering(signed_.hash(name.suffix(labels + 1))), RRType::NSEC3);
      return candidate;
    }
    return std::nullopt;
  }

  // The NSEC3 that covers the next closer name of `name` below `encloser` (RFC 5155 §7.2.6).
  void add_next_closer(const Name& name, const Name& encloser) {
    if (name.label_count() <= encloser.label_count()) return;
    put(signed_.nsec3_covering(signed_.hash(name.suffix(encloser.label_count() + 1))), RRType::NSEC3);
  }

  void add_nsec3(const DenialNeed& need) {
    switch (need.kind) {
      case DenialNeed::Kind::kNxDomain:  // RFC 5155 §7.2.2
        if (auto encloser = add_encloser_proof(need.name)) {
          if (auto wildcard = wildcard_of(*encloser)) put(signed_.nsec3_covering(signed_.hash(*wildcard)), RRType::NSEC3);
        }
        break;
      case DenialNeed::Kind::kNoData: {  // RFC 5155 §7.2.3, and §7.2.4 for a DS under opt-out
        const zone::Node* matching = signed_.nsec3_matching(signed_.hash(need.name));
        if (matching != nullptr) {
          put(matching, RRType::NSEC3);
        } else {
          add_encloser_proof(need.name);
        }
        break;
      }
      case DenialNeed::Kind::kWildcardAnswer:  // RFC 5155 §7.2.6
        add_next_closer(need.name, zone_.owner(*need.node).parent());
        break;
      case DenialNeed::Kind::kWildcardNoData: {  // RFC 5155 §7.2.5
        Name encloser = zone_.owner(*need.node).parent();
        put(signed_.nsec3_matching(signed_.hash(encloser)), RRType::NSEC3);
        add_next_closer(need.name, encloser);
        put(signed_.nsec3_matching(signed_.hash(zone_.owner(*need.node))), RRType::NSEC3);
        break;
      }
      case DenialNeed::Kind::kReferral:
        break;
    }
  }

  // RFC 4035 §3.1.4: a referral carries the cut's DS RRset, or proves there is none: the cut's
  // own NSEC, or its NSEC3, or under opt-out the encloser proof whose next closer NSEC3 has the
  // opt-out flag (RFC 5155 §7.2.7).
  void add_referral(const DenialNeed& need) {
    if (need.node->find(RRType::DS) != nullptr) {
      put(need.node, RRType::DS);
      return;
    }
    if (!signed_.nsec3()) {
      put(signed_.nsec_matching(need.name), RRType::NSEC);
      return;
    }
    const zone::Node* matching = signed_.nsec3_matching(signed_.hash(need.name));
    if (matching != nullptr) {
      put(matching, RRType::NSEC3);
    } else {
      add_encloser_proof(need.name);
    }
  }

  const zone::Zone& zone_;
  const SignedZone& signed_;
  AnswerPlan& plan_;
};

}  // namespace

std::vector<dns::Rdata> signatures_covering(const zone::Node& node, RRType type) {
  std::vector<dns::Rdata> signatures;
  zone::for_each_signature(node.rrsets(), type, [&](auto rdata) { signatures.emplace_back(rdata.begin(), rdata.end()); });
  return signatures;
}

namespace {

// Each RRset of `section` followed by its RRSIGs (RFC 4035 §3.1.1), as required as the RRset
// (a required RRset's signatures that do not fit set TC). A section that already holds a
// node's whole RRSIG RRset (ANY, or a query for RRSIG) gets no second copy of them.
void sign_section(std::vector<PlannedRRset>& section) {
  std::vector<PlannedRRset> signed_section;
  signed_section.reserve(section.size() * 2);
  for (auto& planned : section) {
    const zone::Node* node = planned.node;
    RRType type = planned.type;
    bool whole_set_planned = std::any_of(section.begin(), section.end(), [&](const PlannedRRset& other) {
      return other.type == RRType::RRSIG && other.node == node && node != nullptr;
    });
    PlannedRRset signature;
    if (node != nullptr && type != RRType::RRSIG && !whole_set_planned) {
      signature.synthesized = signatures_covering(*node, type);
      signature.owner = planned.owner;
      signature.type = RRType::RRSIG;
      signature.ttl = planned.ttl;  // RFC 4035 §2.2: the TTL of the RRset it covers
      signature.required = planned.required;
    }
    signed_section.push_back(std::move(planned));
    if (!signature.synthesized.empty()) signed_section.push_back(std::move(signature));
  }
  section = std::move(signed_section);
}

}  // namespace

std::optional<SignedZone::Hash> nsec3_owner_hash(std::span<const std::uint8_t> owner_wire) {
  if (owner_wire.empty() || owner_wire[0] == 0 || owner_wire.size() < 1u + owner_wire[0]) return std::nullopt;
  std::string_view label(reinterpret_cast<const char*>(owner_wire.data() + 1), owner_wire[0]);
  SignedZone::Hash hash;
  if (!dns::base32hex_decode(label, hash) || hash.empty()) return std::nullopt;
  return hash;
}

std::shared_ptr<const SignedZone> SignedZone::prepare(const zone::Zone& zone) {
  if (!zone::is_signed(zone)) {
    auto online = online_signer(zone.origin());
    if (online == nullptr) return nullptr;
    auto prepared = std::make_shared<SignedZone>();
    prepared->online_ = std::move(online);
    return prepared;
  }
  const zone::Node& apex = zone.apex();
  auto prepared = std::make_shared<SignedZone>();
  prepared->answers_ = FastIndex(zone, nullptr, true);
  std::optional<Nsec3Params> params;
  if (const zone::RRset* param = apex.find(RRType::NSEC3PARAM); param != nullptr && param->rdatas.size() > 0) {
    params = dns::parse_nsec3_params(param->rdatas[0]);
  }
  if (params && params->algorithm == kNsec3Sha1) {
    prepared->nsec3_ = true;
    prepared->iterations_ = params->iterations;
    prepared->salt_.assign(params->salt.begin(), params->salt.end());
  }
  zone.for_each_node([&](const zone::Node& node) {
    if (prepared->nsec3_) {
      if (!in_chain(node, *params)) return;
      if (auto hash = nsec3_owner_hash(zone.owner_wire(node).all())) prepared->nsec3_chain_.emplace_back(std::move(*hash), &node);
    } else if (node.find(RRType::NSEC) != nullptr) {
      prepared->nsec_chain_.emplace_back(zone.owner(node), &node);
    }
  });
  std::sort(prepared->nsec_chain_.begin(), prepared->nsec_chain_.end(),
            [](const auto& a, const auto& b) { return a.first.canonical_compare(b.first) < 0; });
  std::sort(prepared->nsec3_chain_.begin(), prepared->nsec3_chain_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return prepared;
}

const zone::Node* SignedZone::nsec_matching(const Name& name) const {
  auto at = std::lower_bound(nsec_chain_.begin(), nsec_chain_.end(), name,
                             [](const auto& entry, const Name& key) { return entry.first.canonical_compare(key) < 0; });
  return at != nsec_chain_.end() && at->first == name ? at->second : nullptr;
}

const zone::Node* SignedZone::nsec_covering(const Name& name) const {
  if (nsec_chain_.empty()) return nullptr;
  auto after = std::upper_bound(nsec_chain_.begin(), nsec_chain_.end(), name,
                                [](const Name& key, const auto& entry) { return key.canonical_compare(entry.first) < 0; });
  // Before the first owner (never below a zone's apex, which sorts first): the last NSEC wraps round.
  return after == nsec_chain_.begin() ? nsec_chain_.back().second : std::prev(after)->second;
}

SignedZone::Hash SignedZone::hash(const Name& name) const {
  // RFC 5155 §5: IH(salt, x, 0) = H(x || salt), IH(salt, x, k) = H(IH(salt, x, k-1) || salt),
  // x the owner name in canonical (lowercase) wire form.
  Name lower = name.lowercased();
  std::vector<std::uint8_t> input(lower.wire().begin(), lower.wire().end());
  Hash digest(EVP_MAX_MD_SIZE);
  unsigned int size = 0;
  for (std::uint32_t round = 0; round <= iterations_; ++round) {
    input.insert(input.end(), salt_.begin(), salt_.end());
    EVP_Digest(input.data(), input.size(), digest.data(), &size, EVP_sha1(), nullptr);
    input.assign(digest.begin(), digest.begin() + size);
  }
  digest.resize(size);
  return digest;
}

const zone::Node* SignedZone::nsec3_matching(const Hash& hash) const {
  auto at = std::lower_bound(nsec3_chain_.begin(), nsec3_chain_.end(), hash,
                             [](const auto& entry, const Hash& key) { return entry.first < key; });
  return at != nsec3_chain_.end() && at->first == hash ? at->second : nullptr;
}

const zone::Node* SignedZone::nsec3_covering(const Hash& hash) const {
  if (nsec3_chain_.empty()) return nullptr;
  auto after = std::upper_bound(nsec3_chain_.begin(), nsec3_chain_.end(), hash,
                                [](const Hash& key, const auto& entry) { return key < entry.first; });
  // Before the lowest hash: the highest NSEC3 covers it, its next hash wrapping round.
  return after == nsec3_chain_.begin() ? nsec3_chain_.back().second : std::prev(after)->second;
}

void add_dnssec_records(const zone::Zone& zone, const SignedZone& signed_zone, AnswerPlan& plan) {
  ProofWriter proofs(zone, signed_zone, plan);
  for (const auto& need : plan.denials) proofs.add(need);
  sign_section(plan.answer);
  sign_section(plan.authority);
  sign_section(plan.additional);
}

}  // namespace cutover::auth
