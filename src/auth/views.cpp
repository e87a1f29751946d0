// Views: the choice of a view per query, and answering in it.
#include "auth/views.h"

#include <algorithm>

#include "auth/engine.h"
#include "auth/fast_answer.h"
#include "auth/fast_query.h"
#include "dns/edns_options.h"
#include "dns/message.h"

namespace cutover::auth {

namespace {

// True when every address in `inner` is in `outer`.
bool covers(const base::NetworkPrefix& outer, const base::NetworkPrefix& inner) {
  if (outer.v6 != inner.v6 || outer.bits > inner.bits) return false;
  for (unsigned bit = 0; bit < outer.bits; ++bit) {
    std::uint8_t mask = static_cast<std::uint8_t>(0x80u >> (bit % 8));
    if ((outer.bytes[bit / 8] & mask) != (inner.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

}  // namespace

ViewTable::ViewTable(std::vector<View> views) : views_(std::move(views)) {
  any_ecs_ = std::any_of(views_.begin(), views_.end(), [](const View& view) { return view.ecs; });
  all_ecs_ = std::all_of(views_.begin(), views_.end(), [](const View& view) { return view.ecs || view.clients.empty(); });
  auto tables = std::make_shared<Tables>();
  for (std::size_t i = 0; i < views_.size(); ++i) {
    views_[i].bit = static_cast<std::uint16_t>(1u << (std::min(i, kMaxMaskedViews - 1) + 1));
    base::NetworkTable own;
    for (const auto& prefix : views_[i].clients) {
      (void)own.add(prefix, 0);  // the config reader refused a prefix listed twice
      bool shadowed = false;
      for (std::size_t earlier = 0; earlier < i && !shadowed; ++earlier) {
        shadowed = std::any_of(views_[earlier].clients.begin(), views_[earlier].clients.end(),
                               [&](const base::NetworkPrefix& other) { return covers(other, prefix); });
      }
      if (!shadowed) (void)tables->by_source.add(prefix, static_cast<std::uint32_t>(i));
    }
    own.seal();
    tables->clients.push_back(std::move(own));
  }
  tables->by_source.seal();
  tables_ = std::move(tables);
}

ViewTable::ViewTable(const ViewTable& shape, std::vector<std::shared_ptr<const ZoneSet>> zones)
    : views_(shape.views_), tables_(shape.tables_), any_ecs_(shape.any_ecs_), all_ecs_(shape.all_ecs_) {
  for (std::size_t i = 0; i < views_.size() && i < zones.size(); ++i) views_[i].zones = std::move(zones[i]);
}

ViewChoice ViewTable::choose(std::span<const std::uint8_t> source, const std::optional<ClientNetwork>& subnet) const {
  if (!subnet) return choose_by_source(source);
  if (all_ecs_) {  // one table answers for every view, and its scope is the choice's
    base::NetworkMatch match = tables_->by_source.lookup(subnet->address, subnet->bits);
    return {match.found ? &views_[match.value] : nullptr, match.scope};
  }
  ViewChoice choice;
  for (std::size_t i = 0; i < views_.size(); ++i) {
    const View& view = views_[i];
    const base::NetworkTable& clients = tables_->clients[i];
    if (clients.empty()) continue;
    bool by_subnet = view.ecs;
    base::NetworkMatch match = by_subnet ? clients.lookup(subnet->address, subnet->bits)
                                         : (source.empty() ? base::NetworkMatch{} : clients.lookup(source));
    if (by_subnet) choice.scope = std::max(choice.scope, match.scope);
    if (match.found) {
      choice.view = &view;
      return choice;
    }
  }
  return choice;
}

const View* ViewTable::by_key(const dns::Name& key) const {
  for (const auto& view : views_) {
    if (std::find(view.keys.begin(), view.keys.end(), key) != view.keys.end()) return &view;
  }
  return nullptr;
}

const View* ViewTable::by_name(const std::string& name) const {
  for (const auto& view : views_) {
    if (view.name == name) return &view;
  }
  return nullptr;
}

namespace {

// A Client Subnet option's network with a source prefix above 0; nullopt when it asks for no
// tailoring (/0, RFC 7871 §7.1.2) or cannot be read. Only what the lookup needs is checked:
// an option that breaks another rule of RFC 7871 §6 is answered FORMERR whatever the view.
std::optional<ClientNetwork> network_of(std::span<const std::uint8_t> option, std::array<std::uint8_t, 16>& address) {
  if (option.size() < 4 || option[0] != 0 || (option[1] != 1 && option[1] != 2)) return std::nullopt;
  std::size_t size = option[1] == 1 ? 4 : 16;
  unsigned source = option[2];
  std::size_t octets = (source + 7) / 8;
  if (source == 0 || source > size * 8 || option.size() - 4 != octets) return std::nullopt;
  std::copy(option.begin() + 4, option.end(), address.begin());
  std::fill(address.begin() + static_cast<std::ptrdiff_t>(octets), address.begin() + static_cast<std::ptrdiff_t>(size), 0);
  return ClientNetwork{std::span<const std::uint8_t>(address.data(), size), source};
}

// The same from a whole query the fast path does not read (the general path's parse).
std::optional<ClientNetwork> client_subnet_of(std::span<const std::uint8_t> query,
                                              std::array<std::uint8_t, 16>& address) {
  auto message = dns::parse_message(query);
  if (!message || !message->edns || message->edns->version != 0) return std::nullopt;
  const dns::EdnsOption* found = nullptr;
  for (const auto& option : message->edns->options) {
    if (option.code != dns::kClientSubnetOption) continue;
    if (found != nullptr) return std::nullopt;  // two options: FORMERR on the answer path
    found = &option;
  }
  return found == nullptr ? std::nullopt : network_of(found->data, address);
}

}  // namespace

ViewChoice choose_view_by_subnet(const ViewTable& views, std::span<const std::uint8_t> packet, const FastQuery* query,
                                 const ClientContext& client) {
  if (!trusts_client_subnet(&client)) return views.choose_by_source(client.address);
  std::array<std::uint8_t, 16> address;
  std::optional<ClientNetwork> subnet;
  if (query == nullptr) {
    subnet = client_subnet_of(packet, address);
  } else if (query->subnet_size != 0) {
    subnet = network_of(packet.subspan(query->subnet_at, query->subnet_size), address);
  }
  return views.choose(client.address, subnet);
}

QueryOutcome answer_in_view(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                            Transport transport, std::vector<std::uint8_t>& response, bool describe,
                            const ClientContext* client) {
  ClientContext context = client != nullptr ? *client : ClientContext{};
  QueryOutcome outcome;
  FastQuery fast;
  bool readable = read_fast_query(query, transport, fast);
  ViewChoice choice = choose_view(*zones.views(), query, readable ? &fast : nullptr, context);
  context.subnet_scope_floor = choice.scope;
  context.view_bit = choice.view != nullptr ? choice.view->bit : kDefaultViewBit;
  const ZoneSet& chosen = choice.view != nullptr ? *choice.view->zones : zones;
  const ServedZone* served = readable ? chosen.find_lower(fast.name(), fast.starts()) : nullptr;
  if (served == nullptr || !answer_fast_query(*served, dynamic, query, fast, response, outcome, describe, &context)) {
    outcome = answer_query_general(chosen, query, transport, response, dynamic, &context);
  }
  outcome.view = choice.view;
  return outcome;
}

}  // namespace cutover::auth
