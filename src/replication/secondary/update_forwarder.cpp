// Relaying UPDATE to the primary: a new ID out, the client's ID back, everything else as is.
#include "replication/secondary/update_forwarder.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/bytes.h"
#include "base/random.h"
#include "client/query.h"

namespace cutover::replication {

base::Result<dns::Question> update_zone(std::span<const std::uint8_t> request) {
  auto header = dns::parse_header(request);
  if (!header) return header.error();
  if (header->qdcount != 1) return base::make_error(base::ErrorCode::kMalformed, "ZOCOUNT must be 1");
  base::ByteReader in(request, dns::kHeaderSize);
  auto zone = dns::Name::from_wire(in);
  std::uint16_t type = 0, klass = 0;
  if (!zone || !in.read_u16(type) || !in.read_u16(klass)) {
    return base::make_error(base::ErrorCode::kMalformed, "zone section");
  }
  if (type != static_cast<std::uint16_t>(dns::RRType::SOA)) {
    return base::make_error(base::ErrorCode::kMalformed, "ZTYPE must be SOA");
  }
  return dns::Question{std::move(*zone), dns::RRType::SOA, static_cast<dns::RRClass>(klass)};
}

std::vector<std::uint8_t> with_message_id(std::span<const std::uint8_t> message, std::uint16_t id) {
  if (message.size() < dns::kHeaderSize) return {};
  std::vector<std::uint8_t> out(message.begin(), message.end());
  out[0] = static_cast<std::uint8_t>(id >> 8);
  out[1] = static_cast<std::uint8_t>(id);
  return out;
}

std::vector<std::uint8_t> forward_failure(const dns::Header& request, const dns::Question& zone) {
  dns::Message response;
  response.header.id = request.id;
  response.header.qr = true;
  response.header.opcode = request.opcode;
  response.header.rcode = static_cast<std::uint8_t>(dns::Rcode::kServFail);
  response.questions.push_back(zone);
  return dns::encode_message(response);
}

UpdateForwarder::UpdateForwarder(std::vector<ForwardedZone> zones, base::Logger& logger, std::chrono::milliseconds timeout,
                                 std::size_t max_in_flight)
    : zones_(std::move(zones)), logger_(logger), timeout_(timeout), max_in_flight_(std::max<std::size_t>(1, max_in_flight)) {
  for (auto& zone : zones_) zone.origin = zone.origin.lowercased();
}

const ForwardedZone* UpdateForwarder::zone_of(std::span<const std::uint8_t> request) const {
  auto zone = update_zone(request);
  if (!zone || zone->klass != dns::RRClass::IN) return nullptr;
  dns::Name origin = zone->name.lowercased();
  for (const auto& forwarded : zones_) {
    if (forwarded.origin == origin) return &forwarded;
  }
  return nullptr;
}

std::vector<std::uint8_t> UpdateForwarder::forward(std::span<const std::uint8_t> request, base::Transport transport,
                                                   const ForwardedZone& zone, const std::string& client) const {
  auto header = dns::parse_header(request);
  auto zone_section = update_zone(request);
  if (!header || !zone_section) return {};  // zone_of() let it through: not reached
  // The exchange matches the primary's reply against this ID and zone section (the client
  // module reads the zone section as the question: the same wire format, RFC 2136 §2.3).
  dns::Message sent;
  sent.header = *header;
  sent.header.id = base::random_message_id();
  sent.questions.push_back(*zone_section);
  std::vector<std::uint8_t> wire = with_message_id(request, sent.header.id);
  std::string primary = net::format_address(zone.primary.storage);
  std::string zone_text = zone.origin.to_text();

  // One slot of max_in_flight_ for the exchange, given back however it ends.
  if (in_flight_.fetch_add(1) >= max_in_flight_) {
    in_flight_.fetch_sub(1);
    logger_.warn("update.forward_failed", {{"zone", zone_text}, {"client", client}, {"primary", primary},
                                           {"rcode", "SERVFAIL"},
                                           {"reason", fmt::format("busy: {} forwarded updates at once already wait for a primary", max_in_flight_)}});
    return forward_failure(*header, *zone_section);
  }
  struct Slot {
    std::atomic<std::size_t>& count;
    ~Slot() { count.fetch_sub(1); }
  } slot{in_flight_};

  client::QueryOptions options;
  options.tries = 1;
  options.tcp = transport == base::Transport::kTcp || wire.size() > dns::kClassicUdpSize;
  // Over UDP a truncated reply is asked again over TCP: half the bound for each leg, so the
  // whole exchange stays within it.
  options.timeout = options.tcp ? timeout_ : timeout_ / 2;
  options.tcp_on_truncation = true;
  auto reply = client::exchange(zone.primary, sent, wire, options);
  if (!reply) {
    logger_.warn("update.forward_failed", {{"zone", zone_text}, {"client", client}, {"primary", primary},
                                           {"rcode", "SERVFAIL"}, {"reason", reply.error().message}});
    return forward_failure(*header, *zone_section);
  }
  auto rcode = static_cast<dns::Rcode>(reply->response.header.rcode);
  logger_.info("update.forwarded", {{"zone", zone_text}, {"client", client}, {"primary", primary},
                                    {"rcode", dns::rcode_to_text(rcode)}, {"transport", reply->over_tcp ? "tcp" : "udp"}});
  return with_message_id(reply->wire, header->id);
}

}  // namespace cutover::replication
