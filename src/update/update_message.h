// An RFC 2136 UPDATE message as read from the wire: the zone section, the prerequisite
// section and the update section (§2). Records of class ANY or NONE may have empty rdata,
// which the ordinary message parser would refuse for typed rdata. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "dns/message.h"

namespace cutover::update {

struct UpdateMessage {
  dns::Header header;
  dns::Name zone;                    // ZNAME
  dns::RRClass zone_class = dns::RRClass::IN;  // ZCLASS
  std::vector<dns::ResourceRecord> prerequisites;
  std::vector<dns::ResourceRecord> updates;
  std::optional<dns::Edns> edns;  // the request's OPT, if it had one
};

// True for a request (QR clear) with opcode UPDATE, read from the header bytes alone.
bool is_update_request(std::span<const std::uint8_t> wire);

// Fails (kMalformed: answer FORMERR) when the message does not parse, ZOCOUNT is not 1 or
// ZTYPE is not SOA (§3.1.1). The additional section is read and ignored (the TSIG in it
// is checked separately).
base::Result<UpdateMessage> parse_update(std::span<const std::uint8_t> wire);

// The reply to `request`: same ID and opcode, QR set, the zone section echoed when known.
// When the request had an OPT (`edns`), so does the reply, and a refusal (REFUSED, NOTAUTH)
// carries `reason` as an Extended DNS Error (RFC 8914: Prohibited, Not Authoritative).
std::vector<std::uint8_t> update_response(const dns::Header& request, const dns::Name* zone, dns::RRClass zone_class,
                                          dns::Rcode rcode, const dns::Edns* edns = nullptr,
                                          std::string_view reason = {});

}  // namespace cutover::update
