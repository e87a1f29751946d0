// libFuzzer target: an AXFR (RFC 5936) or IXFR (RFC 1995) reply stream as a secondary reads
// it. The first input byte picks the request (bit 0: IXFR from serial 2024010101, else AXFR);
// the rest is the TCP byte stream, split by the real framer (RFC 1035 §4.2.2), each message
// parsed and fed to TransferReader, the result applied to the secondary's copy. Checks: a
// full transfer starts with the SOA, and the zone a transfer leads to has an SOA.
#include <cstdint>
#include <span>

#include "dns/message.h"
#include "fuzz_check.h"
#include "fuzz_zone.h"
#include "net/tcp_framing.h"
#include "replication/secondary/transfer_reader.h"
#include "store/zone_data.h"

namespace {

using cutover::fuzz::check;
namespace dns = cutover::dns;
namespace replication = cutover::replication;
namespace store = cutover::store;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const store::ZoneData& current = cutover::fuzz::example_zone();
  dns::RRType type = (data[0] & 1) != 0 ? dns::RRType::IXFR : dns::RRType::AXFR;
  replication::TransferReader reader(current.origin(), type, 1 << 20);
  cutover::net::MessageFramer framer;
  framer.append(std::span(data + 1, size - 1));
  bool complete = false;
  for (;;) {
    std::span<const std::uint8_t> wire;
    if (framer.next(wire) != cutover::net::MessageFramer::Next::kMessage) break;
    auto reply = dns::parse_message(wire);
    if (!reply) return 0;  // the puller gives up on an unparsable reply
    auto added = reader.add(*reply, wire.size() + 2);
    if (!added) return 0;
    if (*added) {
      complete = true;
      break;
    }
  }
  if (!complete) return 0;
  replication::Transfer transfer = reader.take();
  if (transfer.kind == replication::TransferKind::kFull) {
    check(!transfer.records.empty() && transfer.records.front().type == dns::RRType::SOA,
          "a full transfer does not start with the SOA");
  }
  auto next = replication::apply_transfer(transfer, current);
  if (!next) return 0;
  check(next->soa().ok(), "the transferred zone has no SOA");
  (void)next->build(cutover::zone::OrderPolicy{});
  return 0;
}
