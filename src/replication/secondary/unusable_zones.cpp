// SERVFAIL for names in secondary zones without a usable copy.
#include "replication/secondary/unusable_zones.h"

#include "dns/edns_options.h"
#include "dns/message.h"

namespace cutover::replication {

void UnusableZones::set(std::vector<UnusableZone> zones) {
  bool any = !zones.empty();
  zones_.publish(std::make_shared<const std::vector<UnusableZone>>(std::move(zones)));
  any_.store(any, std::memory_order_release);
}

bool UnusableZones::answer(std::span<const std::uint8_t> query, std::vector<std::uint8_t>& response) const {
  if (!any_.load(std::memory_order_acquire)) return false;
  auto message = dns::parse_message(query);
  if (!message || message->header.qr || message->header.opcode != dns::Opcode::kQuery ||
      message->questions.size() != 1) {
    return false;
  }
  auto zones = zones_.load();
  const dns::Name& name = message->questions.front().name;
  for (const auto& zone : *zones) {
    if (name.is_subdomain_of(zone.origin)) {
      response = servfail_reply(*message, zone.expired);
      return true;
    }
  }
  return false;
}

std::vector<UnusableZone> UnusableZones::current() const {
  auto zones = zones_.load();
  return zones ? *zones : std::vector<UnusableZone>{};
}

std::vector<std::uint8_t> servfail_reply(const dns::Message& query, bool expired) {
  dns::MessageWriter writer(dns::kClassicUdpSize);
  dns::Header header;
  header.id = query.header.id;
  header.qr = true;
  header.opcode = query.header.opcode;
  header.rd = query.header.rd;
  header.rcode = static_cast<std::uint8_t>(dns::Rcode::kServFail);
  writer.set_header(header);
  for (const auto& question : query.questions) writer.add_question(question);
  if (query.edns) {
    dns::Edns edns;
    edns.dnssec_ok = query.edns->dnssec_ok;  // RFC 3225 §3: copied into the response
    if (expired) {
      dns::add_extended_error(edns, dns::ExtendedError::kInvalidData,
                              "secondary zone expired: no successful check of the primary within the SOA EXPIRE");
    } else {
      dns::add_extended_error(edns, dns::ExtendedError::kNotReady, "secondary zone not transferred yet");
    }
    writer.set_edns(edns);
  }
  return writer.finish();
}

}  // namespace cutover::replication
