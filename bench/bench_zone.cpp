// Builds the micro-benchmark zone from records (no master-file parsing, so load cost is
// not part of any measured loop).
#include "bench_zone.h"

#include <fmt/format.h>

#include "dns/message.h"

namespace cutover::bench {
namespace {

dns::Name name(const std::string& text) { return *dns::Name::from_text(text); }

dns::Rdata address(std::size_t i) {
  return {10, static_cast<std::uint8_t>(i >> 16), static_cast<std::uint8_t>(i >> 8), static_cast<std::uint8_t>(i)};
}

std::shared_ptr<const zone::Zone> build() {
  dns::Name origin = name("bench.test.");
  dns::SoaFields soa{name("ns1.bench.test."), name("hostmaster.bench.test."), 1, 3600, 900, 604800, 300};
  std::vector<dns::ResourceRecord> records = {
      {origin, dns::RRType::SOA, dns::RRClass::IN, 3600, dns::encode_soa(soa)},
      {origin, dns::RRType::NS, dns::RRClass::IN, 3600, name("ns1.bench.test.").wire()},
      {name("ns1.bench.test."), dns::RRType::A, dns::RRClass::IN, 3600, {192, 0, 2, 1}},
  };
  for (std::size_t i = 0; i < kBenchNames; ++i) {
    records.push_back({name(host_name(i)), dns::RRType::A, dns::RRClass::IN, 3600, address(i)});
  }
  return *zone::Zone::build(origin, records);
}

}  // namespace

std::string host_name(std::size_t index) { return fmt::format("h{}.bench.test.", index); }

const std::shared_ptr<const zone::Zone>& bench_zone() {
  static const std::shared_ptr<const zone::Zone> zone = build();
  return zone;
}

const auth::ZoneSet& bench_zone_set() {
  static const auth::ZoneSet zones({bench_zone()});
  return zones;
}

std::vector<std::uint8_t> bench_query(const std::string& qname, dns::RRType type, bool edns) {
  dns::Message query;
  query.header.id = 0x4242;
  query.questions.push_back(dns::Question{name(qname), type, dns::RRClass::IN});
  if (edns) query.edns = dns::Edns{};
  return dns::encode_message(query);
}

}  // namespace cutover::bench
