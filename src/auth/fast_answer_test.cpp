// The fast path must answer exactly as the general pipeline does: every query here goes
// through answer_query (fast path first) and answer_query_general, and the bytes must match.
#include "auth/fast_answer.h"

#include <gtest/gtest.h>

#include "auth/fast_query.h"
#include "auth/test_support.h"

namespace cutover::auth {
namespace {

using dns::RRType;
using testing::make_query;
using testing::make_zone;

std::shared_ptr<const zone::Zone> flat_zone() {
  std::vector<std::string> lines = {
      "flat.test. 3600 SOA ns1.flat.test. hostmaster.flat.test. 1 7200 900 1209600 300",
      "flat.test. 3600 NS ns1.flat.test.",
      "ns1.flat.test. 3600 A 192.0.2.53",
      "www.flat.test. 300 A 192.0.2.1",
      "www.flat.test. 300 A 192.0.2.2",
      "www.flat.test. 300 AAAA 2001:db8::1",
      "txt.flat.test. 300 TXT hello world",
      "leaf.ent.flat.test. 300 A 192.0.2.9",
      "mail.flat.test. 300 MX 10 www.flat.test.",
      "alias.flat.test. 300 CNAME www.flat.test.",
  };
  for (int i = 0; i < 40; ++i) lines.push_back("big.flat.test. 300 TXT " + std::string(20, 'a' + i % 26) + std::to_string(i));
  return make_zone("flat.test.", lines);
}

// MNAME outside the zone: its "test." suffix compresses into the question name.
std::shared_ptr<const zone::Zone> outside_mname_zone() {
  return make_zone("out.test.", {"out.test. 3600 SOA ns.other.test. admin.out.test. 7 7200 900 1209600 60",
                                 "host.out.test. 60 A 192.0.2.7"});
}

// Cuts, wildcards and DNAMEs: the fast path must step aside for missing names.
std::shared_ptr<const zone::Zone> shaped_zone() {
  return make_zone("shaped.test.", {
      "shaped.test. 3600 SOA ns1.shaped.test. hostmaster.shaped.test. 1 7200 900 1209600 300",
      "shaped.test. 3600 NS ns1.shaped.test.",
      "ns1.shaped.test. 3600 A 192.0.2.53",
      "sub.shaped.test. 3600 NS ns.sub.shaped.test.",
      "ns.sub.shaped.test. 3600 A 192.0.2.54",
      "ns.deep.sub.shaped.test. 3600 A 192.0.2.55",  // makes deep.sub an empty non-terminal below the cut
      "*.wild.shaped.test. 300 TXT wildcard",
      "old.shaped.test. 300 DNAME new.shaped.test.",
      "host.new.shaped.test. 300 A 192.0.2.8",
  });
}

class FastAnswerTest : public ::testing::Test {
 protected:
  ZoneSet zones_{{flat_zone(), outside_mname_zone(), shaped_zone()}};
  int fast_answers_ = 0;

  void expect_same(const std::vector<std::uint8_t>& query, Transport transport, const std::string& label) {
    std::vector<std::uint8_t> fast;
    std::vector<std::uint8_t> general;
    QueryOutcome fast_outcome = answer_query(zones_, query, transport, fast);
    QueryOutcome general_outcome = answer_query_general(zones_, query, transport, general);
    EXPECT_EQ(fast_outcome.respond, general_outcome.respond) << label;
    EXPECT_EQ(fast_outcome.rcode, general_outcome.rcode) << label;
    EXPECT_EQ(fast_outcome.qname, general_outcome.qname) << label;
    EXPECT_EQ(fast, general) << label;
    EXPECT_FALSE(general_outcome.fast_path) << label;
    if (fast_outcome.fast_path) ++fast_answers_;
  }
};

TEST_F(FastAnswerTest, MatchesGeneralPathForEveryShape) {
  const std::vector<std::string> names = {
      "www.flat.test.", "WwW.Flat.TEST.", "txt.flat.test.", "big.flat.test.", "nothing.flat.test.",
      "ent.flat.test.", "leaf.ent.flat.test.", "flat.test.", "FLAT.test.", "mail.flat.test.", "alias.flat.test.",
      "ns1.flat.test.", "x.ns1.flat.test.", "X.NS1.flat.test.", "hostmaster.flat.test.", "a.hostmaster.flat.test.",
      "a.b.c.d.e.f.flat.test.", "host.out.test.", "missing.out.test.", "out.test.", "ns.sub.shaped.test.",
      "deep.sub.shaped.test.", "x.wild.shaped.test.", "host.old.shaped.test.", "missing.shaped.test.",
      "ns1.shaped.test.", "elsewhere.example.", "test.",
  };
  const std::vector<RRType> types = {RRType::A,    RRType::AAAA, RRType::TXT, RRType::MX,  RRType::NS,
                                     RRType::SOA,  RRType::CNAME, RRType::ANY, RRType::DS, RRType::CAA};
  for (const auto& name : names) {
    for (RRType type : types) {
      for (int edns = 0; edns < 5; ++edns) {
        // 4: EDNS with DO, which both paths must copy into the response (RFC 3225 §3).
        auto query = edns == 0 ? make_query(name, type)
                               : make_query(name, type, true, edns == 1 ? 100 : edns == 2 ? 1232 : 4096, edns == 4);
        for (Transport transport : {Transport::kUdp, Transport::kTcp}) {
          expect_same(query, transport, name + " " + dns::type_to_text(type) + " edns " + std::to_string(edns));
        }
      }
    }
  }
  EXPECT_GT(fast_answers_, 200);  // the fast path really answered most plain shapes
}

// The fast index stores each name without the origin but its first byte; in the root zone
// that is the whole name (the origin is its one zero byte), at a long origin nearly all of it.
TEST(FastAnswerOrigins, MatchesGeneralPathInTheRootZoneAndUnderALongOrigin) {
  ZoneSet zones{{make_zone(".", {". 3600 SOA a.root. admin.root. 1 7200 900 1209600 60", ". 3600 NS a.root.",
                                 "a.root. 3600 A 192.0.2.1", "x. 300 A 192.0.2.2", "y.x. 300 TXT below"}),
                 make_zone("a.very.long.origin.example.", {
                     "a.very.long.origin.example. 3600 SOA ns.a.very.long.origin.example. admin.example. 1 7200 900 1209600 60",
                     "a.very.long.origin.example. 3600 NS ns.a.very.long.origin.example.",
                     "ns.a.very.long.origin.example. 3600 A 192.0.2.53", "b.a.very.long.origin.example. 300 A 192.0.2.3"})}};
  int fast_answers = 0;
  for (const char* name : {".", "x.", "X.", "y.x.", "a.root.", "missing.", "a.very.long.origin.example.",
                           "b.a.very.long.origin.example.", "B.A.Very.long.origin.example.", "c.a.very.long.origin.example.",
                           "ns.a.very.long.origin.example.", "b.very.long.origin.example."}) {
    for (RRType type : {RRType::A, RRType::NS, RRType::SOA, RRType::TXT}) {
      auto query = make_query(name, type);
      std::vector<std::uint8_t> fast, general;
      QueryOutcome outcome = answer_query(zones, query, Transport::kUdp, fast);
      answer_query_general(zones, query, Transport::kUdp, general);
      EXPECT_EQ(fast, general) << name << " " << dns::type_to_text(type);
      if (outcome.fast_path) ++fast_answers;
    }
  }
  EXPECT_GE(fast_answers, 24);  // 30 of the 48 when written: the fast path answered most
}

TEST_F(FastAnswerTest, OddPacketsTakeTheGeneralPath) {
  auto base = make_query("www.flat.test.", RRType::A);
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> cases;
  auto with = [&](const std::string& label, auto change) {
    auto packet = base;
    change(packet);
    cases.emplace_back(label, packet);
  };
  with("trailing byte", [](auto& p) { p.push_back(0); });
  with("truncated", [](auto& p) { p.resize(p.size() - 3); });
  with("response bit", [](auto& p) { p[2] |= 0x80; });
  with("opcode status", [](auto& p) { p[2] |= 0x10; });
  with("two questions", [](auto& p) { p[5] = 2; });
  with("an answer", [](auto& p) { p[7] = 1; });
  // The four counts are read as one word (read_fast_query): each byte of it must count.
  with("no question", [](auto& p) { p[5] = 0; });
  with("257 questions", [](auto& p) { p[4] = 1; });
  with("256 answers", [](auto& p) { p[6] = 1; });
  with("an authority record", [](auto& p) { p[9] = 1; });
  with("256 authority records", [](auto& p) { p[8] = 1; });
  with("two additional records", [](auto& p) { p[11] = 2; });
  with("256 additional records", [](auto& p) { p[10] = 1; });
  with("class CH", [](auto& p) { p[p.size() - 1] = 3; });
  with("compressed name", [](auto& p) { p.insert(p.begin() + 12, {0xC0, 0x0C}); p.resize(12 + 2 + 4); });
  with("header only", [](auto& p) { p.resize(12); });
  with("rd and cd echoed", [](auto& p) { p[2] |= 0x01; p[3] |= 0x10; });
  auto edns = make_query("www.flat.test.", RRType::A, true);
  cases.emplace_back("edns plain", edns);
  auto version = edns;
  version[version.size() - 5] = 1;
  cases.emplace_back("edns version 1", version);
  // The OPT's owner, TYPE and VERSION are read as one word: each byte of them must count.
  auto not_opt = edns;
  not_opt[not_opt.size() - 11 + 2] = 16;  // TYPE TXT
  cases.emplace_back("an additional TXT record", not_opt);
  auto type_297 = edns;
  type_297[type_297.size() - 11 + 1] = 1;  // TYPE 297
  cases.emplace_back("an additional record of type 297", type_297);
  auto dnssec_ok = edns;
  dnssec_ok[dnssec_ok.size() - 4] = 0x80;
  cases.emplace_back("edns with DO", dnssec_ok);
  auto other_flags = edns;
  other_flags[other_flags.size() - 3] = 0x01;  // a Z bit that is not DO: never copied
  cases.emplace_back("edns with a Z bit", other_flags);
  version[version.size() - 4] = 0x80;
  cases.emplace_back("edns version 1 with DO", version);
  auto option = edns;
  option[option.size() - 1] = 4;
  for (std::uint8_t byte : {0, 10, 0, 0}) option.push_back(byte);
  cases.emplace_back("edns with an option", option);
  for (const auto& [label, packet] : cases) expect_same(packet, Transport::kUdp, label);
}

// read_fast_query leaves to the general path exactly the types it treats specially (a bit
// table there, for speed): DS, NS, MX, SRV and the meta types, ANY and transfers among them.
TEST(FastQueryTest, LeavesEveryTypeTheGeneralPathOwnsToIt) {
  int general = 0;
  for (unsigned value = 0; value <= 0xFFFF; ++value) {
    auto type = static_cast<RRType>(value);
    auto packet = make_query("www.flat.test.", type);
    FastQuery question;
    bool owned = type == RRType::DS || type == RRType::NS || type == RRType::MX || type == RRType::SRV ||
                 dns::is_meta_type(type);
    ASSERT_EQ(read_fast_query(packet, Transport::kUdp, question), !owned) << "qtype " << value;
    if (owned) ++general;
  }
  EXPECT_EQ(general, 4 + 2 + 128);  // the four, type 0 and OPT, 128 to 255
}

}  // namespace
}  // namespace cutover::auth
