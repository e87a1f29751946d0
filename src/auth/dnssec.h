// Answers from a signed zone to queries with the DO bit (RFC 4035 §3.1, RFC 5155 §7.2): the
// RRSIGs that cover each answered RRset, and the NSEC or NSEC3 records that prove a name or a
// type absent. The zone is signed before it is loaded (docs/dnssec.md); this module finds what
// the signer wrote, it never signs. Built with the ZoneSet, then read-only: thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "auth/answer_plan.h"
#include "auth/fast_index.h"
#include "dns/name.h"
#include "zone/zone.h"

namespace cutover::auth {

// The denial-of-existence chains of one signed zone, ordered for finding the record that
// matches or covers a name.
class OnlineSigner;

class SignedZone {
 public:
  // Null when `zone` is not signed: a zone is signed when its apex holds a DNSKEY RRset and
  // an RRSIG RRset (the default `mode: presigned`).
  // A zone signed online (auth/online_signing.h) is not signed in its data: its served form
  // gets the origin's registered online signer instead, and no chains.
  static std::shared_ptr<const SignedZone> prepare(const zone::Zone& zone);

  // The online signer of a zone signed as it is served, else null (a pre-signed zone).
  const std::shared_ptr<const OnlineSigner>& online() const { return online_; }

  // The zone's names with each RRset's answer followed by its RRSIGs: the fast path's
  // positive answers to queries with the DO bit.
  const FastIndex& answers() const { return answers_; }

  // Whether denial uses NSEC3 (the apex holds an NSEC3PARAM) rather than NSEC.
  bool nsec3() const { return nsec3_; }

  // NSEC (RFC 4035 §3.1.3): the node whose NSEC has exactly this owner, or null; and the node
  // whose NSEC covers `name` (the last owner before it in canonical order, wrapping round).
  const zone::Node* nsec_matching(const dns::Name& name) const;
  const zone::Node* nsec_covering(const dns::Name& name) const;

  // NSEC3 (RFC 5155 §5): the name's hash with the chain's parameters, the node whose NSEC3
  // owner is that hash, and the node whose NSEC3 covers it.
  using Hash = std::vector<std::uint8_t>;
  Hash hash(const dns::Name& name) const;
  const zone::Node* nsec3_matching(const Hash& hash) const;
  const zone::Node* nsec3_covering(const Hash& hash) const;

 private:
  FastIndex answers_;
  std::shared_ptr<const OnlineSigner> online_;
  bool nsec3_ = false;
  std::vector<std::pair<dns::Name, const zone::Node*>> nsec_chain_;  // canonical order
  std::vector<std::pair<Hash, const zone::Node*>> nsec3_chain_;      // hash order
  std::uint16_t iterations_ = 0;
  std::vector<std::uint8_t> salt_;
};

// Adds to `plan` (planned from `zone` for a query with the DO bit) the RRSIGs of every RRset
// that has them and the denial records its DenialNeeds call for, each followed by its RRSIGs.
void add_dnssec_records(const zone::Zone& zone, const SignedZone& signed_zone, AnswerPlan& plan);

// The RRSIGs at `node` that cover `type`.
std::vector<dns::Rdata> signatures_covering(const zone::Node& node, dns::RRType type);

// An NSEC3 record's hash as its owner's first label spells it (base32hex), or nullopt.
std::optional<SignedZone::Hash> nsec3_owner_hash(std::span<const std::uint8_t> owner_wire);

}  // namespace cutover::auth
