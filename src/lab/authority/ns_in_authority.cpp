// Adding the zone's NS RRset to the authority section of positive lab answers.
#include "lab/authority/ns_in_authority.h"

#include <algorithm>

namespace cutover::lab {

std::size_t reply_size_limit(bool udp, const std::optional<dns::Edns>& edns) {
  if (!udp) return 65535;
  if (!edns) return dns::kClassicUdpSize;
  return std::clamp<std::size_t>(edns->udp_size, dns::kClassicUdpSize, auth::kMaxUdpPayload);
}

bool add_ns_in_authority(const auth::ZoneSet& zones, std::size_t max_size, std::vector<std::uint8_t>& response) {
  auto reply = dns::parse_message(response);
  if (!reply || reply->header.rcode != 0 || !reply->header.aa || reply->header.tc || reply->answers.empty() ||
      !reply->authorities.empty() || reply->questions.size() != 1) {
    return false;
  }
  const zone::Zone* zone = zones.find(reply->questions.front().name);
  if (zone == nullptr) return false;
  const zone::RRset* ns = zone->apex().find(dns::RRType::NS);
  if (ns == nullptr) return false;
  dns::MessageWriter writer(max_size);
  writer.set_header(reply->header);
  if (reply->edns) writer.set_edns(*reply->edns);
  bool fits = writer.add_question(reply->questions.front());
  for (const auto& record : reply->answers) fits = fits && writer.add_record(dns::Section::kAnswer, record);
  fits = fits && writer.add_rrset(dns::Section::kAuthority, zone->origin(), dns::RRType::NS, dns::RRClass::IN,
                                  ns->ttl, ns->rdatas);
  for (const auto& record : reply->additionals) fits = fits && writer.add_record(dns::Section::kAdditional, record);
  // A reply that would need truncation keeps its minimal form, as a non-minimal server drops
  // optional authority data before it truncates.
  if (!fits) return false;
  response = writer.finish();
  return true;
}

}  // namespace cutover::lab
