// Views (docs/steering.md, "Views"): which zones a client is answered from. A view matches
// clients by source prefix, by a trusted resolver's Client Subnet (RFC 7871) or by the TSIG
// key a query is signed with, and serves its own zones in place of the default zones with the
// same origin (the default's others stay visible). Views are tried in order; the first that
// matches answers; a query no view matches is answered from the default zones.
// Immutable once built; thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "auth/dynamic_answers.h"
#include "auth/engine.h"
#include "base/network_table.h"
#include "dns/name.h"

namespace cutover::auth {

class ZoneSet;
struct FastQuery;
struct ClientContext;

struct View {
  std::string name;
  std::vector<base::NetworkPrefix> clients;  // match-clients; empty: matched by key only
  std::vector<dns::Name> keys;               // match-keys (TSIG key names)
  bool ecs = false;             // clients are read from a trusted resolver's Client Subnet
  std::shared_ptr<const ZoneSet> zones;  // this view's zones over the default ones
  // Its bit in DynamicAnswer::views, set by ViewTable: 1 << (index + 1), the last bit shared
  // by every view past kMaxMaskedViews.
  std::uint16_t bit = 0;
};

// Which view answers, and the Client Subnet scope the choice holds for (the most leading bits
// any ECS-reading view looked at, RFC 7871 §7.2.1), so a resolver caches one answer per
// region of the match-clients lists and never hands one view's answer to another's clients.
struct ViewChoice {
  const View* view = nullptr;  // nullptr: the default zones
  std::uint8_t scope = 0;
};

class ViewTable {
 public:
  explicit ViewTable(std::vector<View> views);
  // The same views and match tables (shared, not rebuilt: sealing them is milliseconds) with
  // other zone sets, one per view in order: what a publication of new default zones needs.
  ViewTable(const ViewTable& shape, std::vector<std::shared_ptr<const ZoneSet>> zones);

  const std::vector<View>& views() const { return views_; }
  bool any_ecs() const { return any_ecs_; }
  // `source`: the query's source address; `subnet`: a trusted resolver's Client Subnet (source
  // prefix length above 0), read by the views with ecs.
  ViewChoice choose(std::span<const std::uint8_t> source, const std::optional<ClientNetwork>& subnet) const;
  // The same without a subnet: one lookup, whatever the number of views.
  ViewChoice choose_by_source(std::span<const std::uint8_t> source) const {
    base::NetworkMatch match = tables_->by_source.lookup(source);
    return {match.found ? &views_[match.value] : nullptr, 0};
  }
  // The first view that lists key `key` in match-keys, or nullptr.
  const View* by_key(const dns::Name& key) const;
  const View* by_name(const std::string& name) const;

 private:
  struct Tables {
    std::vector<base::NetworkTable> clients;  // per view, sealed
    // Every view's match-clients in one table whose longest match is the first matching view: a
    // prefix inside one of an earlier view's is left out, since that view always wins there.
    base::NetworkTable by_source;
  };
  std::vector<View> views_;
  std::shared_ptr<const Tables> tables_;
  bool any_ecs_ = false;
  bool all_ecs_ = false;  // every view with match-clients reads Client Subnet: by_source serves subnets too
};

// The view of a query from `client` when a view reads Client Subnet and `client` is trusted:
// for views with ecs by the option, read from `query` (the fast path's reading of `packet`)
// or, when that is null, by parsing `packet`.
ViewChoice choose_view_by_subnet(const ViewTable& views, std::span<const std::uint8_t> packet, const FastQuery* query,
                                 const ClientContext& client);

// The view of a query from `client`: by its source address, or by choose_view_by_subnet.
inline ViewChoice choose_view(const ViewTable& views, std::span<const std::uint8_t> packet, const FastQuery* query,
                              const ClientContext& client) {
  if (!views.any_ecs() || client.subnet_trust == nullptr) [[likely]] return views.choose_by_source(client.address);
  return choose_view_by_subnet(views, packet, query, client);
}

}  // namespace cutover::auth
