// libFuzzer target: DNS UPDATE requests (RFC 2136) as the server reads them: the message
// parser for the zone, prerequisite and update sections, the prerequisite format check and
// evaluation (§3.2), the update prescan (§3.4.1) and the edits applied to a copy of a zone
// (§3.4.2), in the order UpdateHandler uses. Checks: the reply always parses, and whatever
// the edits do, the zone keeps its SOA and apex NS RRset and still builds. Also the secondary's
// relay (RFC 2136 §6), which reads only the zone section: it agrees with the full parser,
// its ID swap keeps every other byte, and its SERVFAIL always parses.
#include <algorithm>
#include <cstdint>
#include <span>

#include "dns/message.h"
#include "fuzz_check.h"
#include "fuzz_zone.h"
#include "replication/secondary/update_forwarder.h"
#include "store/zone_data.h"
#include "update/prerequisites.h"
#include "update/update_message.h"
#include "update/update_section.h"

namespace {

using cutover::fuzz::check;
namespace dns = cutover::dns;
namespace store = cutover::store;
namespace update = cutover::update;
namespace replication = cutover::replication;

void check_relay(std::span<const std::uint8_t> wire) {
  auto swapped = replication::with_message_id(wire, 0xBEEF);
  if (wire.size() < dns::kHeaderSize) {
    check(swapped.empty(), "the ID swap made a message of a short input");
  } else {
    // Compared only with a header present: an empty input's begin() may be null.
    bool only_the_id = swapped.size() == wire.size() && std::equal(wire.begin() + 2, wire.end(), swapped.begin() + 2);
    check(only_the_id, "the ID swap changed more than the ID");
  }
  auto header = dns::parse_header(wire);
  auto zone = replication::update_zone(wire);
  if (header && zone) {
    check(dns::parse_message(replication::forward_failure(*header, *zone)).ok(), "the relay's SERVFAIL does not parse");
  }
}

void check_reply(const std::vector<std::uint8_t>& reply) {
  auto parsed = dns::parse_message(reply);
  check(parsed.ok(), "UPDATE reply does not parse");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> wire(data, size);
  (void)update::is_update_request(wire);
  check_relay(wire);
  auto message = update::parse_update(wire);
  if (!message) return 0;
  auto zone_section = replication::update_zone(wire);
  check(zone_section.ok() && zone_section->name == message->zone, "the relay reads another zone than the parser");
  const store::ZoneData& zone = cutover::fuzz::example_zone();
  check_reply(update::update_response(message->header, &message->zone, message->zone_class, dns::Rcode::kNoError));
  if (!(message->zone == zone.origin()) || message->zone_class != dns::RRClass::IN) return 0;  // NOTAUTH
  if (update::check_prerequisite_format(*message)) return 0;
  if (update::prescan_updates(*message)) return 0;
  (void)update::evaluate_prerequisites(*message, zone);
  store::ZoneData edited = zone;
  for (const store::Edit& edit : update::update_edits(*message)) (void)edited.apply(edit);
  check(edited.soa().ok(), "the zone lost its SOA");
  const store::RRsetData* apex_ns = edited.find(edited.origin(), dns::RRType::NS);
  check(apex_ns != nullptr && !apex_ns->rdatas.empty(), "the zone lost its apex NS RRset");
  (void)edited.build(cutover::zone::OrderPolicy{});
  auto delta = store::diff(zone, edited);
  store::ZoneData replayed = zone;
  replayed.apply_delta(delta);
  check(store::diff(replayed, edited).empty(), "the delta does not replay to the edited zone");
  return 0;
}
