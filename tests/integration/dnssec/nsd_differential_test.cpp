// The signed zones against NSD (docs/dnssec.md): cutover and NSD 4.6 (minimal-responses yes)
// serve the same pre-signed files (tests/zones/signed-{nsec,nsec3,optout}.test.zone) and get
// the same queries with DO over TCP (so no reply is truncated); for every answer shape the
// rcode, the AA flag and the answer and authority sections must hold the same records, TTLs
// and RRSIGs included. The additional section is left out: cutover adds the addresses of MX
// and NS targets, which NSD's minimal responses leave out (docs/rfc-coverage.md). Two
// differences are expected, each narrowly: cutover's section may hold more than NSD's (never
// less) for ANY over TCP, which cutover answers in full and NSD with one RRset (RFC 8482 §4.1
// allows both), and for a name below a DNAME in the NSEC zone, where cutover also proves the
// rewritten name absent with the NSEC that covers it (delv, Unbound and Knot Resolver call
// that answer secure, tests/integration/dnssec/validation_test.cpp) and NSD 4.6 does not.
#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "dns/message.h"
#include "dns/rdata.h"
#include "dnssec/signed_zones.h"
#include "support/process.h"
#include "support/server.h"
#include "support/wire_exchange.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string>& kZones = kSignedZones;

// Every answer shape of the fixture, relative to the zone ("@": the apex).
const std::vector<std::pair<std::string, std::string>> kShapes = {
    {"@", "SOA"},        {"@", "NS"},           {"@", "DNSKEY"},      {"@", "NSEC3PARAM"},  {"@", "MX"},
    {"www", "A"},        {"www", "AAAA"},       {"www", "MX"},        {"www", "RRSIG"},     {"www", "NSEC"},
    {"www", "ANY"},      {"txt", "TXT"},        {"nx", "A"},          {"a.b.nx", "AAAA"},   {"a.wild", "A"},
    {"x.y.wild", "TXT"}, {"a.wild", "MX"},      {"wcname.wild", "A"}, {"deep.ent", "A"},    {"ent", "TXT"},
    {"alias", "A"},      {"outside", "A"},      {"www.old", "A"},     {"x.old", "A"},       {"old", "DNAME"},
    {"secure", "DS"},    {"insecure", "DS"},    {"x.secure", "A"},    {"x.insecure", "A"},  {"secure", "NS"},
    {"away", "A"},       {"ns.insecure", "A"},  {"mail", "A"},        {"host.deep.ent", "A"},
};

// Where cutover's section may be a superset of NSD's, and which extra types it may hold.
struct Superset {
  std::string zone, relative, type, section;
  std::set<std::string> extra_types;
};
const std::vector<Superset> kSupersets = {
    {"signed-nsec.test.", "www", "ANY", "answer", {"AAAA", "NSEC", "RRSIG"}},
    {"signed-nsec3.test.", "www", "ANY", "answer", {"AAAA", "RRSIG"}},
    {"signed-optout.test.", "www", "ANY", "answer", {"AAAA", "RRSIG"}},
    {"signed-nsec.test.", "x.old", "A", "authority", {"NSEC", "RRSIG"}},
};

// True when `ours` equals `theirs`, or holds all of it plus records of `extra_types` only.
bool matches(const std::set<std::string>& ours, const std::set<std::string>& theirs, const Superset* superset) {
  if (ours == theirs) return true;
  if (superset == nullptr || !std::includes(ours.begin(), ours.end(), theirs.begin(), theirs.end())) return false;
  for (const auto& line : ours) {
    if (theirs.contains(line)) continue;
    std::string type = line.substr(line.find(' ', line.find(' ') + 1) + 1);
    type = type.substr(0, type.find(' '));
    if (!superset->extra_types.contains(type)) return false;
  }
  return true;
}

const Superset* superset_for(const std::string& zone, const std::string& relative, const std::string& type,
                             const std::string& section) {
  for (const auto& entry : kSupersets) {
    if (entry.zone == zone && entry.relative == relative && entry.type == type && entry.section == section) {
      return &entry;
    }
  }
  return nullptr;
}

std::vector<std::uint8_t> do_query(const std::string& name, const std::string& type) {
  dns::Message query;
  query.header.id = 0x5353;
  query.questions.push_back(dns::Question{*dns::Name::from_text(name), *dns::type_from_text(type), dns::RRClass::IN});
  dns::Edns edns;
  edns.udp_size = 1232;
  edns.dnssec_ok = true;
  query.edns = edns;
  return dns::encode_message(query);
}

std::set<std::string> section(const std::vector<dns::ResourceRecord>& records) {
  std::set<std::string> lines;
  for (const auto& record : records) {
    lines.insert(fmt::format("{} {} {} {}", record.owner.lowercased().to_text(), record.ttl,
                             dns::type_to_text(record.type), dns::rdata_to_text(record.type, record.rdata)));
  }
  return lines;
}

std::string only_in(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::string out;
  for (const auto& line : a) {
    if (!b.contains(line)) out += "    " + line + "\n";
  }
  return out;
}

TEST(NsdDifferential, EverySignedAnswerHoldsWhatNsdsHolds) {
  if (!have_program("nsd")) GTEST_SKIP() << "nsd is not installed";
  std::string dir = make_temp_dir("cutover-nsd-dnssec");
  std::uint16_t nsd_port = free_port();
  std::string conf = fmt::format(
      "server:\n  ip-address: 127.0.0.1@{}\n  do-ip6: no\n  server-count: 1\n  username: \"\"\n  chroot: \"\"\n"
      "  database: \"\"\n  zonelistfile: \"{}/zone.list\"\n  xfrdfile: \"{}/xfrd.state\"\n  xfrdir: \"{}\"\n"
      "  pidfile: \"{}/nsd.pid\"\n  verbosity: 1\n  rrl-ratelimit: 0\n  rrl-whitelist-ratelimit: 0\n"
      "  minimal-responses: yes\nremote-control:\n  control-enable: no\n",
      nsd_port, dir, dir, dir, dir);
  for (const auto& zone : kZones) {
    conf += fmt::format("zone:\n  name: {}\n  zonefile: \"{}\"\n", zone, signed_zone_file(zone));
  }
  write_file(dir + "/nsd.conf", conf);
  ChildProcess nsd({"nsd", "-d", "-c", dir + "/nsd.conf"}, dir + "/nsd.log");
  ServerSpec spec;
  for (const auto& zone : kZones) spec.zones.emplace_back(zone, signed_zone_file(zone));
  CutoverServer cutover(spec);
  TcpExchanger to_nsd(nsd_port, 2000ms);
  TcpExchanger to_cutover(cutover.port(), 2000ms);
  auto nsd_answers = [&] { return to_nsd.exchange(do_query(kZones.front(), "SOA")).has_value() || !nsd.running(); };
  ASSERT_TRUE(eventually(nsd_answers, 15s)) << nsd.log();
  ASSERT_TRUE(nsd.running()) << nsd.log();

  std::size_t compared = 0;
  std::set<const Superset*> used;
  for (const auto& zone : kZones) {
    for (const auto& [relative, type] : kShapes) {
      std::string name = relative == "@" ? zone : relative + "." + zone;
      auto query = do_query(name, type);
      auto theirs = to_nsd.exchange(query);
      auto ours = to_cutover.exchange(query);
      ASSERT_TRUE(theirs && ours) << name << " " << type;
      auto a = dns::parse_message(*ours);
      auto b = dns::parse_message(*theirs);
      ASSERT_TRUE(a.ok() && b.ok()) << name << " " << type;
      std::string where = name + " " + type;
      EXPECT_EQ(a->header.rcode, b->header.rcode) << where;
      EXPECT_EQ(a->header.aa, b->header.aa) << where;
      EXPECT_FALSE(a->header.tc) << where;
      auto answer_ours = section(a->answers), answer_theirs = section(b->answers);
      auto authority_ours = section(a->authorities), authority_theirs = section(b->authorities);
      for (const char* name_of_section : {"answer", "authority"}) {
        bool answer = std::string(name_of_section) == "answer";
        const auto& ours_section = answer ? answer_ours : authority_ours;
        const auto& theirs_section = answer ? answer_theirs : authority_theirs;
        const Superset* superset = superset_for(zone, relative, type, name_of_section);
        EXPECT_TRUE(matches(ours_section, theirs_section, superset))
            << where << ": " << name_of_section << "\n  only cutover:\n" << only_in(ours_section, theirs_section)
            << "  only nsd:\n" << only_in(theirs_section, ours_section);
        if (superset != nullptr && ours_section != theirs_section) used.insert(superset);
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, kZones.size() * kShapes.size());
  // An expected difference that no longer happens is stale: remove it.
  for (const auto& entry : kSupersets) {
    EXPECT_TRUE(used.contains(&entry)) << "no difference for " << entry.relative << " " << entry.type << " in "
                                       << entry.zone << " any more";
  }
  nsd.stop();
}

}  // namespace
}  // namespace cutover::testing
