// The authoritative answer engine: turns one query packet into one response packet using
// an immutable snapshot of the served zones. Thread-safe: many threads may answer at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "auth/fast_index.h"
#include "auth/negative_template.h"
#include "base/network_table.h"
#include "base/transport.h"
#include "dns/edns_options.h"
#include "dns/name.h"
#include "dns/types.h"
#include "zone/zone.h"

namespace cutover::auth {

class DynamicAnswers;
struct DynamicAnswer;
class SignedZone;
class ViewTable;
struct View;
using base::Transport;

// A served zone with what the answer fast path precomputes for it.
struct ServedZone {
  const zone::Zone* zone = nullptr;
  std::size_t origin_labels = 0;
  NegativeTemplate negative;
  FastIndex fast;
  // Set for a signed zone (auth/dnssec.h): queries with the DO bit take the general pipeline,
  // which adds its RRSIGs and denial records.
  std::shared_ptr<const SignedZone> dnssec;
  // Unique to this served form in the process (ZoneSet numbers each one it builds, from 1): a
  // fact about this zone's data can be remembered under it (DynamicAnswers::cut_check).
  std::uint64_t generation = 0;
  // zone->has_cuts(), read here by the pool fast path without following `zone`.
  bool has_cuts = false;
};

// The zones served at one moment. Built once, then only read; swapped whole on reload.
// The default zones may carry views (auth/views.h): each view's own ZoneSet shares the
// default's prepared zones that it does not replace.
class ZoneSet {
 public:
  explicit ZoneSet(std::vector<std::shared_ptr<const zone::Zone>> zones) : ZoneSet(std::move(zones), nullptr) {}
  // The same, taking from `previous` (when given) the served form (fast index, negative
  // template) of every zone it holds unchanged, the very same Zone object: a write to one
  // zone of many rebuilds that one's alone.
  ZoneSet(std::vector<std::shared_ptr<const zone::Zone>> zones, const ZoneSet* previous);

  // `base`'s zones with `views` attached (any views `base` had are dropped); nothing is rebuilt.
  static std::shared_ptr<const ZoneSet> with_views(const ZoneSet& base, std::shared_ptr<const ViewTable> views);
  // `own`'s zones, then `base`'s zones whose origin `own` does not serve: a view's set.
  static std::shared_ptr<const ZoneSet> overlay(const ZoneSet& own, const ZoneSet& base);
  // The views, or nullptr (no views configured: every query is answered from this set).
  const ViewTable* views() const { return views_.get(); }

  // The zone with the longest origin that contains `name`, or nullptr.
  const zone::Zone* find(const dns::Name& name) const;
  // The same for a lowercase wire name whose labels start at `label_starts`.
  const ServedZone* find_lower(std::span<const std::uint8_t> lower_wire,
                               std::span<const std::uint8_t> label_starts) const;
  const std::vector<std::shared_ptr<const zone::Zone>>& zones() const { return zones_; }
  // The served form of `zone` when this set holds that very Zone object, else nullptr.
  std::shared_ptr<const ServedZone> served_of(const zone::Zone* zone) const;
  // A fast index of this set whose shared table holds the names of `base`, else nullptr.
  const FastIndex* fast_of(const zone::Zone* base) const;

 private:
  ZoneSet() = default;

  std::vector<std::shared_ptr<const zone::Zone>> zones_;  // longest origin first
  std::vector<std::shared_ptr<const ServedZone>> served_;  // in the same order, shared with views' sets
  std::shared_ptr<const ViewTable> views_;
  // What find_lower reads per zone, side by side in one array (no pointer to follow before
  // the compare): set by index_origins() wherever served_ is.
  struct Origin {
    const std::uint8_t* lower = nullptr;  // the origin's lowercase wire form (its Zone's)
    std::uint32_t size = 0;
    std::uint32_t labels = 0;
    const ServedZone* served = nullptr;
  };
  std::vector<Origin> origins_;
  void index_origins();
};

// What happened to one query, for logs and metrics.
struct QueryOutcome {
  bool respond = false;  // false: drop silently (unreadable header, or a response packet)
  dns::Rcode rcode = dns::Rcode::kNoError;
  // Absent when the caller did not ask for it (a default Name would allocate per query).
  std::optional<dns::Name> qname;
  dns::RRType qtype = dns::RRType::A;
  // The dynamic answer (a pool's) that answered, if any; valid while its snapshot is held.
  const DynamicAnswer* dynamic = nullptr;
  // Answered by the fast path (the general pipeline leaves it false); for tests and profiles.
  bool fast_path = false;
  // The view that answered (auth/views.h); nullptr: the default zones, or no views.
  const View* view = nullptr;
};

// Largest UDP payload we ever advertise or send (DNS flag day 2020).
constexpr std::uint16_t kMaxUdpPayload = 1232;

// Who asked, and the server's DNS Cookie secrets. Without secrets a COOKIE option is ignored,
// as by a server that does not implement cookies (RFC 7873 §5.1).
struct ClientContext {
  std::span<const std::uint8_t> address;  // the client's IPv4 (4 bytes) or IPv6 (16) address
  const dns::CookieSecrets* cookies = nullptr;
  std::uint32_t now = 0;  // unix seconds, for server cookie timestamps (RFC 9018 §4.3)
  // Resolvers whose Client Subnet option (RFC 7871) is used and answered; from anyone else,
  // or with none set, the option is ignored as by a server that does not implement it.
  const base::NetworkTable* subnet_trust = nullptr;
  // The least SCOPE PREFIX-LENGTH an answered Client Subnet option carries: the bits the
  // choice of a view looked at (auth/views.h); the answer's own scope when that is larger.
  std::uint8_t subnet_scope_floor = 0;
  // The bit of the view the query is answered in (DynamicAnswer::views): kDefaultViewBit for
  // the default zones and whenever there are no views.
  std::uint16_t view_bit = 1;
};

// True when the option of `client`'s queries is used (ClientContext::subnet_trust).
inline bool trusts_client_subnet(const ClientContext* client) {
  return client != nullptr && client->subnet_trust != nullptr && client->subnet_trust->contains_recent(client->address);
}

// The secrets to answer COOKIE options with, or nullptr when cookies are off for this query
// (no client context, no secrets): both answer paths ask here, so they cannot disagree.
inline const dns::CookieSecrets* active_cookies(const ClientContext* client) {
  if (client == nullptr || client->cookies == nullptr || client->cookies->secrets.empty()) return nullptr;
  return client->cookies;
}

// This thread's memory of the server cookies it gave (both answer paths share it).
dns::CookieCache& cookie_cache();

// Writes the response into `response` (reusing its capacity). `describe` = false leaves
// outcome.qname absent when the fast path answers, saving a copy nobody reads.
QueryOutcome answer_query(const ZoneSet& zones, std::span<const std::uint8_t> query, Transport transport,
                          std::vector<std::uint8_t>& response, bool describe = true,
                          const ClientContext* client = nullptr);
// The general pipeline alone, without the fast path; the fast path must match it byte for byte.
QueryOutcome answer_query_general(const ZoneSet& zones, std::span<const std::uint8_t> query, Transport transport,
                                  std::vector<std::uint8_t>& response, const DynamicAnswers* dynamic = nullptr,
                                  const ClientContext* client = nullptr);
// The same with dynamic answers: names held by `dynamic` are answered from it (which the
// caller keeps alive until it is done with the outcome). When `zones` has views, the query is
// answered in the view its client matches (answer_in_view). In dynamic_plan.cpp.
QueryOutcome answer_query(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                          Transport transport, std::vector<std::uint8_t>& response, bool describe = true,
                          const ClientContext* client = nullptr);
// From `zones` alone, whatever views it has: the fast path, else the general pipeline
// (dynamic_plan.cpp). For a view chosen by the caller (a TSIG key's, matched after verification).
QueryOutcome answer_query_in(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                             Transport transport, std::vector<std::uint8_t>& response, bool describe,
                             const ClientContext* client);
// Chooses the view of `client` among `zones.views()` (not null) and answers from it (views.cpp).
QueryOutcome answer_in_view(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                            Transport transport, std::vector<std::uint8_t>& response, bool describe,
                            const ClientContext* client);

}  // namespace cutover::auth
