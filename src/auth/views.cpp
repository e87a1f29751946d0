// Views: the choice of a view per query, and answering in it.
#include "auth/views.h"

#include <algorithm>

#include "auth/engine.h"
#include "auth/fast_answer.h"
#include "dns/edns_options.h"
#include "dns/message.h"

namespace cutover::auth {

ViewTable::ViewTable(std::vector<View> views) : views_(std::move(views)) {
  any_ecs_ = std::any_of(views_.begin(), views_.end(), [](const View& view) { return view.ecs; });
}

ViewChoice ViewTable::choose(std::span<const std::uint8_t> source, const std::optional<ClientNetwork>& subnet) const {
  ViewChoice choice;
  for (const auto& view : views_) {
    if (view.clients.empty()) continue;
    bool by_subnet = view.ecs && subnet.has_value();
    base::NetworkMatch match = by_subnet ? view.clients.lookup(subnet->address, subnet->bits)
                                         : (source.empty() ? base::NetworkMatch{} : view.clients.lookup(source));
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

// A trusted resolver's Client Subnet with a source prefix above 0; nullopt otherwise (absent,
// malformed: the answer path refuses that one with FORMERR, or /0, RFC 7871 §7.1.2).
std::optional<ClientNetwork> client_subnet_of(std::span<const std::uint8_t> query,
                                              std::array<std::uint8_t, 16>& address) {
  auto message = dns::parse_message(query);
  if (!message || !message->edns || message->edns->version != 0) return std::nullopt;
  std::optional<dns::ClientSubnet> found;
  for (const auto& option : message->edns->options) {
    if (option.code != dns::kClientSubnetOption) continue;
    if (found) return std::nullopt;  // two options: FORMERR on the answer path
    auto parsed = dns::parse_client_subnet(option.data);
    if (!parsed) return std::nullopt;
    found = *parsed;
  }
  if (!found || found->source == 0) return std::nullopt;
  auto bytes = found->bytes();
  std::copy(bytes.begin(), bytes.end(), address.begin());
  return ClientNetwork{std::span<const std::uint8_t>(address.data(), bytes.size()), found->source};
}

}  // namespace

QueryOutcome answer_query_in(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                             Transport transport, std::vector<std::uint8_t>& response, bool describe,
                             const ClientContext* client) {
  QueryOutcome outcome;
  if (!try_fast_answer(zones, dynamic, query, transport, response, outcome, describe, client)) {
    outcome = answer_query_general(zones, query, transport, response, dynamic, client);
  }
  return outcome;
}

QueryOutcome answer_in_view(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                            Transport transport, std::vector<std::uint8_t>& response, bool describe,
                            const ClientContext* client) {
  const ViewTable& table = *zones.views();
  ClientContext context = client != nullptr ? *client : ClientContext{};
  std::array<std::uint8_t, 16> subnet_address{};
  std::optional<ClientNetwork> subnet;
  if (table.any_ecs() && trusts_client_subnet(client)) subnet = client_subnet_of(query, subnet_address);
  ViewChoice choice = table.choose(context.address, subnet);
  context.subnet_scope_floor = choice.scope;
  const ZoneSet& chosen = choice.view != nullptr ? *choice.view->zones : zones;
  QueryOutcome outcome = answer_query_in(chosen, dynamic, query, transport, response, describe, &context);
  outcome.view = choice.view;
  return outcome;
}

}  // namespace cutover::auth
