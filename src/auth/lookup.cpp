// Decides the content of an authoritative answer: follows the name through its zone and
// records each RRset with its section, then adds additional-section addresses.
#include "auth/lookup.h"

#include <algorithm>

#include "auth/dnssec.h"
#include "auth/dynamic_plan.h"
#include "base/load.h"

namespace cutover::auth {
namespace {

using dns::Name;
using dns::RRType;

PlannedRRset from_zone(const Name& owner, const zone::Node& node, const zone::RRset& rrset, bool required = true) {
  PlannedRRset planned;
  planned.owner = owner;
  planned.type = rrset.type;
  planned.ttl = rrset.ttl;
  planned.source = &rrset;
  planned.node = &node;
  planned.required = required;
  return planned;
}

void add_negative_soa(const zone::Zone& zone, AnswerPlan& plan) {
  PlannedRRset soa = from_zone(zone.origin(), zone.apex(), zone.soa());
  soa.ttl = zone.negative_ttl();
  plan.authority.push_back(std::move(soa));
}

bool already_planned(const std::vector<PlannedRRset>& section, const Name& owner, RRType type) {
  return std::any_of(section.begin(), section.end(),
                     [&](const PlannedRRset& p) { return p.type == type && p.owner == owner; });
}

// Adds the A and AAAA RRsets of `target` if the zone holds them. Addresses of names under
// a delegation are glue: used only when `allow_glue` (referrals), since they are not
// authoritative data.
void add_addresses(const zone::Zone& zone, const Name& target, bool allow_glue, bool required, AnswerPlan& plan) {
  if (!target.is_subdomain_of(zone.origin())) return;
  if (!allow_glue && zone.find_delegation(target) != nullptr) return;
  const zone::Node* node = zone.find(target);
  if (node == nullptr) return;
  for (RRType type : {RRType::A, RRType::AAAA}) {
    const zone::RRset* rrset = node->find(type);
    if (rrset == nullptr || already_planned(plan.additional, target, type) ||
        already_planned(plan.answer, target, type)) {
      continue;
    }
    plan.additional.push_back(from_zone(zone.owner(*node), *node, *rrset, required));
  }
}

void add_additional_for(const zone::Zone& zone, const PlannedRRset& planned, AnswerPlan& plan) {
  if (planned.type != RRType::NS && planned.type != RRType::MX && planned.type != RRType::SRV) return;
  if (planned.source == nullptr) return;
  for (const auto& rdata : planned.source->rdatas) {
    if (auto target = dns::rdata_target_name(planned.type, rdata)) add_addresses(zone, *target, false, false, plan);
  }
}

void plan_referral(const zone::Zone& zone, const zone::Node& cut, AnswerPlan& plan) {
  const zone::RRset& ns = *cut.find(RRType::NS);
  Name cut_name = zone.owner(cut);
  plan.authority.push_back(from_zone(cut_name, cut, ns));
  plan.denials.push_back({DenialNeed::Kind::kReferral, cut_name, &cut});
  for (const auto& rdata : ns.rdatas) {
    auto target = dns::rdata_target_name(RRType::NS, rdata);
    if (!target) continue;
    // Glue inside the delegated zone is needed to reach it (RFC 9471): its absence sets TC.
    bool in_domain = target->is_subdomain_of(cut_name);
    add_addresses(zone, *target, true, in_domain, plan);
  }
}

// The node's RRSIGs, one planned RRset per type covered, each with the TTL of the RRset it
// covers (RFC 4035 §2.2; the zone keeps one RRSIG RRset per owner, with the lowest TTL).
void plan_signatures(const zone::Node& node, const Name& owner, const zone::RRset& rrsigs, AnswerPlan& plan) {
  std::vector<RRType> covered;
  for (auto rdata : rrsigs.rdatas) {
    if (rdata.size() < 2) continue;
    auto type = static_cast<RRType>(base::load_u16(rdata.data()));
    if (std::find(covered.begin(), covered.end(), type) == covered.end()) covered.push_back(type);
  }
  for (RRType type : covered) {
    PlannedRRset planned;
    planned.owner = owner;
    planned.type = RRType::RRSIG;
    const zone::RRset* signed_rrset = node.find(type);
    planned.ttl = signed_rrset != nullptr ? signed_rrset->ttl : rrsigs.ttl;
    planned.node = &node;
    planned.synthesized = signatures_covering(node, type);
    plan.answer.push_back(std::move(planned));
  }
}

void plan_rrset(const zone::Node& node, const Name& owner, const zone::RRset& rrset, AnswerPlan& plan) {
  if (rrset.type == RRType::RRSIG) {
    plan_signatures(node, owner, rrset, plan);
  } else {
    plan.answer.push_back(from_zone(owner, node, rrset));
  }
}

// Plans the node's answer for qtype; false when it has none (NODATA).
bool answer_from_node(const zone::Node& node, const Name& owner, RRType qtype, bool minimal_any, AnswerPlan& plan) {
  if (qtype == RRType::ANY) {
    if (node.rrsets().empty()) return false;
    if (minimal_any) {
      plan_rrset(node, owner, node.rrsets().front(), plan);
    } else {
      for (const auto& rrset : node.rrsets()) plan_rrset(node, owner, rrset, plan);
    }
    return true;
  }
  const zone::RRset* rrset = node.find(qtype);
  if (rrset == nullptr) return false;
  plan_rrset(node, owner, *rrset, plan);
  return true;
}

// The node owning `name` as answers see it: the owner of an NSEC3 record alone is a hash,
// not a name of the zone, and is answered as if it did not exist (RFC 5155 §7.2.8).
const zone::Node* find_node(const zone::Zone& zone, const Name& name) {
  const zone::Node* node = zone.find(name);
  return node != nullptr && zone::holds_only_nsec3(*node) ? nullptr : node;
}

// The highest DNAME strictly above `name` inside the zone, if any.
const zone::Node* find_dname_above(const zone::Zone& zone, const Name& name) {
  std::size_t origin_labels = zone.origin().label_count();
  std::size_t name_labels = name.label_count();
  for (std::size_t labels = origin_labels; labels < name_labels; ++labels) {
    const zone::Node* node = zone.find(name.suffix(labels));
    if (node != nullptr && node->find(RRType::DNAME) != nullptr) return node;
  }
  return nullptr;
}

// The closest encloser's wildcard node for a name that does not exist (RFC 4592 §3.3.1).
const zone::Node* find_wildcard(const zone::Zone& zone, const Name& name) {
  Name encloser = name.parent();
  while (encloser.is_subdomain_of(zone.origin())) {
    if (find_node(zone, encloser) != nullptr || zone.has_descendants(encloser)) {
      auto wildcard = encloser.prepend("*");
      return wildcard ? zone.find(*wildcard) : nullptr;
    }
    if (encloser == zone.origin()) break;
    encloser = encloser.parent();
  }
  return nullptr;
}

// RRSIG and NSEC are the only data an alias owner holds besides its CNAME (RFC 4035 §2.5,
// RFC 2181 §10.1); a query for one of them that the node holds is answered there, not by
// following the CNAME (RFC 1034 §4.3.2 step 3a: only a QTYPE that does not match restarts).
bool is_alias_companion(const zone::Node& node, RRType qtype) {
  return (qtype == RRType::RRSIG || qtype == RRType::NSEC) && node.find(qtype) != nullptr;
}

// A query the parent side of a cut at `name` answers: DS, or NSEC where the cut holds one.
bool parent_side(const zone::Zone& zone, const Name& name, RRType qtype) {
  if (name == zone.origin()) return false;
  if (qtype == RRType::DS) return true;
  if (qtype != RRType::NSEC) return false;
  const zone::Node* node = zone.find(name);
  return node != nullptr && node->find(RRType::NSEC) != nullptr;
}

}  // namespace

AnswerPlan plan_answer(const zone::Zone& zone, const Name& qname, RRType qtype, bool minimal_any,
                       const DynamicAnswers* dynamic, const ClientNetwork* network, std::uint16_t view_bit) {
  AnswerPlan plan;
  plan.authoritative = true;
  Name name = qname;
  std::vector<Name> visited;
  for (int step = 0; step < kMaxChainLength; ++step) {
    if (!name.is_subdomain_of(zone.origin())) return plan;  // chain left the zone: resolver continues
    if (std::find(visited.begin(), visited.end(), name) != visited.end()) return plan;  // CNAME loop
    visited.push_back(name);

    // DS lives on the parent side of a cut, so a DS query at the cut is ours to answer; so
    // is the cut's own NSEC, which the parent signs (RFC 4035 §2.3).
    const zone::Node* cut = zone.find_delegation(parent_side(zone, name, qtype) ? name.parent() : name);
    if (cut != nullptr) {
      plan_referral(zone, *cut, plan);
      plan.authoritative = !plan.answer.empty();
      return plan;
    }
    const DynamicAnswer* entry = dynamic != nullptr ? dynamic->find(name, view_bit) : nullptr;
    if (entry != nullptr) {
      Name target;
      DynamicPlan planned = plan_dynamic_answer(*entry, name, qtype, plan, network, &target);
      if (planned == DynamicPlan::kAlias) {  // a hostname endpoint: on to the target, in a zone of ours or not
        name = target;
        continue;
      }
      if (planned == DynamicPlan::kNoData) add_negative_soa(zone, plan);  // never NXDOMAIN
      return plan;
    }

    const zone::Node* node = find_node(zone, name);
    Name owner = name;
    bool from_wildcard = false;
    if (node == nullptr) {
      if (const zone::Node* dname_node = find_dname_above(zone, name)) {
        const zone::RRset& dname = *dname_node->find(RRType::DNAME);
        plan.answer.push_back(from_zone(zone.owner(*dname_node), *dname_node, dname));
        auto target = dns::rdata_target_name(RRType::DNAME, dname.rdatas.front());
        auto substituted = target ? name.replace_suffix(zone.owner(*dname_node), *target)
                                  : base::Result<Name>(base::make_error(base::ErrorCode::kMalformed, "bad DNAME"));
        if (!substituted) {
          plan.rcode = dns::Rcode::kYxDomain;  // RFC 6672 §2.2: the result would be too long
          return plan;
        }
        PlannedRRset cname;
        cname.owner = name;
        cname.type = RRType::CNAME;
        cname.ttl = dname.ttl;
        cname.synthesized.push_back(substituted->wire());
        plan.answer.push_back(std::move(cname));
        name = *substituted;
        continue;
      }
      if (zone.has_descendants(name)) {  // empty non-terminal: exists, holds nothing
        add_negative_soa(zone, plan);
        plan.denials.push_back({DenialNeed::Kind::kNoData, name, nullptr});
        return plan;
      }
      node = find_wildcard(zone, name);
      if (node == nullptr) {
        plan.rcode = dns::Rcode::kNxDomain;
        add_negative_soa(zone, plan);
        plan.denials.push_back({DenialNeed::Kind::kNxDomain, name, nullptr});
        return plan;
      }
      from_wildcard = true;
    }

    const zone::RRset* cname = node->find(RRType::CNAME);
    if (cname != nullptr && qtype != RRType::CNAME && qtype != RRType::ANY && !is_alias_companion(*node, qtype)) {
      plan.answer.push_back(from_zone(owner, *node, *cname));
      if (from_wildcard) plan.denials.push_back({DenialNeed::Kind::kWildcardAnswer, name, node});
      auto target = dns::rdata_target_name(RRType::CNAME, cname->rdatas.front());
      if (!target) return plan;
      name = *target;
      continue;
    }
    if (!answer_from_node(*node, owner, qtype, minimal_any, plan)) {
      add_negative_soa(zone, plan);
      plan.denials.push_back({from_wildcard ? DenialNeed::Kind::kWildcardNoData : DenialNeed::Kind::kNoData, name, node});
      return plan;
    }
    if (from_wildcard) plan.denials.push_back({DenialNeed::Kind::kWildcardAnswer, name, node});
    std::size_t planned = plan.answer.size();
    for (std::size_t i = 0; i < planned; ++i) add_additional_for(zone, plan.answer[i], plan);
    return plan;
  }
  return plan;  // chain too long: return what was collected, the resolver will continue
}

}  // namespace cutover::auth
