// Protocol-level tests of answer_query: malformed input, opcodes, EDNS, truncation, ordering.
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "auth/test_support.h"

namespace cutover::auth {
namespace {

using dns::Rcode;
using dns::RRType;
using testing::ask;
using testing::make_query;
using testing::make_zone;

std::vector<std::string> many_txt_records() {
  std::vector<std::string> lines = {
      "big.test. 3600 SOA ns.big.test. h.big.test. 1 7200 900 1209600 300",
      "big.test. 3600 NS ns.big.test.",
      "ns.big.test. 3600 A 192.0.2.1",
  };
  // 40 TXT strings of 60 octets: about 2.9 KB, more than 512 and 1232.
  for (int i = 0; i < 40; ++i) {
    lines.push_back("txt.big.test. 300 TXT " + std::string(58, 'a') + (i < 10 ? "0" : "") + std::to_string(i));
  }
  for (int i = 1; i <= 8; ++i) lines.push_back("rr.big.test. 300 A 192.0.2." + std::to_string(i));
  return lines;
}

class EngineTest : public ::testing::Test {
 protected:
  EngineTest() {
    zone::OrderPolicy order;
    order.per_name.emplace_back(*dns::Name::from_text("rr.big.test."), zone::RRsetOrder::kCyclic);
    zones_ = std::make_unique<ZoneSet>(std::vector<std::shared_ptr<const zone::Zone>>{
        make_zone("big.test.", many_txt_records(), order)});
  }
  std::unique_ptr<ZoneSet> zones_;
};

TEST_F(EngineTest, ShortPacketIsDropped) {
  std::vector<std::uint8_t> response;
  std::vector<std::uint8_t> packet = {0x12, 0x34, 0x01};
  EXPECT_FALSE(answer_query(*zones_, packet, Transport::kUdp, response).respond);
}

TEST_F(EngineTest, ResponsePacketIsDropped) {
  auto packet = make_query("ns.big.test.", RRType::A);
  packet[2] |= 0x80;  // QR
  std::vector<std::uint8_t> response;
  EXPECT_FALSE(answer_query(*zones_, packet, Transport::kUdp, response).respond);
}

TEST_F(EngineTest, GarbageAfterHeaderIsFormErr) {
  auto packet = make_query("ns.big.test.", RRType::A);
  packet.resize(20);  // cut inside the question
  auto reply = ask(*zones_, packet);
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kFormErr));
  EXPECT_EQ(reply.header.id, 0x1234);
}

TEST_F(EngineTest, TwoQuestionsIsFormErr) {
  dns::Message query;
  query.header.id = 7;
  query.questions.push_back(dns::Question{*dns::Name::from_text("ns.big.test."), RRType::A, dns::RRClass::IN});
  query.questions.push_back(dns::Question{*dns::Name::from_text("big.test."), RRType::A, dns::RRClass::IN});
  auto reply = ask(*zones_, dns::encode_message(query));
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kFormErr));
}

TEST_F(EngineTest, NoQuestionIsFormErr) {
  dns::Message query;
  query.header.id = 8;
  auto reply = ask(*zones_, dns::encode_message(query));
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kFormErr));
}

TEST_F(EngineTest, SecondOptIsFormErr) {
  auto packet = make_query("ns.big.test.", RRType::A, true);
  // Append a second copy of the 11-byte OPT record and bump ARCOUNT.
  std::vector<std::uint8_t> opt(packet.end() - 11, packet.end());
  packet.insert(packet.end(), opt.begin(), opt.end());
  packet[11] = 2;
  auto reply = ask(*zones_, packet);
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kFormErr));
}

TEST_F(EngineTest, UnknownOpcodeIsNotImp) {
  auto packet = make_query("ns.big.test.", RRType::A);
  packet[2] = static_cast<std::uint8_t>((packet[2] & 0x87) | (3 << 3));  // opcode 3 (unassigned)
  auto reply = ask(*zones_, packet);
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kNotImp));
}

TEST_F(EngineTest, EdnsVersionOneIsBadVers) {
  dns::Message query;
  query.header.id = 9;
  query.questions.push_back(dns::Question{*dns::Name::from_text("ns.big.test."), RRType::A, dns::RRClass::IN});
  dns::Edns edns;
  edns.version = 1;
  query.edns = edns;
  auto reply = ask(*zones_, dns::encode_message(query));
  ASSERT_TRUE(reply.edns.has_value());
  std::uint16_t rcode = static_cast<std::uint16_t>((reply.edns->extended_rcode << 4) | reply.header.rcode);
  EXPECT_EQ(rcode, static_cast<std::uint16_t>(Rcode::kBadVers));
  EXPECT_EQ(reply.edns->version, 0);
  EXPECT_TRUE(reply.answers.empty());
}

// RFC 3225 §3: DO is copied into the response, whichever path answers and whatever the rcode.
TEST_F(EngineTest, DnssecOkIsCopiedIntoEveryResponse) {
  dns::Message bad_version;
  bad_version.header.id = 11;
  bad_version.questions.push_back(dns::Question{*dns::Name::from_text("ns.big.test."), RRType::A, dns::RRClass::IN});
  bad_version.edns = dns::Edns{};
  bad_version.edns->version = 1;
  dns::Message with_option = bad_version;
  with_option.edns->version = 0;
  with_option.edns->options.push_back(dns::EdnsOption{65001, {1, 2}});
  for (bool dnssec_ok : {false, true}) {
    bad_version.edns->dnssec_ok = dnssec_ok;
    with_option.edns->dnssec_ok = dnssec_ok;
    const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> queries = {
        {"positive", make_query("ns.big.test.", RRType::A, true, 1232, dnssec_ok)},
        {"nodata", make_query("ns.big.test.", RRType::AAAA, true, 1232, dnssec_ok)},
        {"nxdomain", make_query("none.big.test.", RRType::A, true, 1232, dnssec_ok)},
        {"truncated", make_query("txt.big.test.", RRType::TXT, true, 1232, dnssec_ok)},
        {"refused", make_query("www.elsewhere.", RRType::A, true, 1232, dnssec_ok)},
        {"badvers", dns::encode_message(bad_version)},
        {"option", dns::encode_message(with_option)},
    };
    for (const auto& [label, query] : queries) {
      for (Transport transport : {Transport::kUdp, Transport::kTcp}) {
        auto reply = ask(*zones_, query, transport);
        ASSERT_TRUE(reply.edns.has_value()) << label;
        EXPECT_EQ(reply.edns->dnssec_ok, dnssec_ok) << label << (transport == Transport::kTcp ? " tcp" : " udp");
        EXPECT_EQ(reply.edns->other_flags, 0) << label;
      }
    }
  }
}

TEST_F(EngineTest, UnknownEdnsOptionAndFlagsAreIgnored) {
  dns::Message query;
  query.header.id = 10;
  query.questions.push_back(dns::Question{*dns::Name::from_text("ns.big.test."), RRType::A, dns::RRClass::IN});
  dns::Edns edns;
  edns.other_flags = 0x4000;
  edns.options.push_back(dns::EdnsOption{65001, {1, 2, 3}});
  query.edns = edns;
  auto reply = ask(*zones_, dns::encode_message(query));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_EQ(reply.answers.size(), 1u);
  ASSERT_TRUE(reply.edns.has_value());
  EXPECT_TRUE(reply.edns->options.empty());
  EXPECT_EQ(reply.edns->other_flags, 0);
}

TEST_F(EngineTest, EdnsSizeIsCappedAt1232) {
  auto reply = ask(*zones_, make_query("ns.big.test.", RRType::A, true, 4096));
  ASSERT_TRUE(reply.edns.has_value());
  EXPECT_EQ(reply.edns->udp_size, kMaxUdpPayload);
  std::vector<std::uint8_t> response;
  (void)answer_query(*zones_, make_query("txt.big.test.", RRType::TXT, true, 4096), Transport::kUdp, response);
  EXPECT_LE(response.size(), kMaxUdpPayload);
}

TEST_F(EngineTest, TruncatesWithoutSplittingAnRRset) {
  for (bool with_edns : {false, true}) {
    std::vector<std::uint8_t> response;
    (void)answer_query(*zones_, make_query("txt.big.test.", RRType::TXT, with_edns), Transport::kUdp, response);
    EXPECT_LE(response.size(), with_edns ? kMaxUdpPayload : dns::kClassicUdpSize);
    auto reply = dns::parse_message(response);
    ASSERT_TRUE(reply.ok());
    EXPECT_TRUE(reply->header.tc);
    EXPECT_TRUE(reply->answers.empty());  // the only RRset does not fit: none of it is sent
  }
}

TEST_F(EngineTest, TcpCarriesTheWholeRRset) {
  auto reply = ask(*zones_, make_query("txt.big.test.", RRType::TXT), Transport::kTcp);
  EXPECT_FALSE(reply.header.tc);
  EXPECT_EQ(reply.answers.size(), 40u);
}

TEST_F(EngineTest, CyclicOrderRotatesPerQuery) {
  std::vector<std::string> first_members;
  for (int i = 0; i < 8; ++i) {
    auto reply = ask(*zones_, make_query("rr.big.test.", RRType::A));
    ASSERT_EQ(reply.answers.size(), 8u);
    first_members.push_back(dns::rdata_to_text(RRType::A, reply.answers[0].rdata));
    // Rotation keeps the cyclic sequence: each member is followed by the next address.
    for (std::size_t j = 0; j + 1 < reply.answers.size(); ++j) {
      auto here = reply.answers[j].rdata.back();
      auto next = reply.answers[j + 1].rdata.back();
      EXPECT_EQ(next, here == 8 ? 1 : here + 1);
    }
  }
  // Eight consecutive queries start with eight different members.
  EXPECT_EQ(std::set<std::string>(first_members.begin(), first_members.end()).size(), 8u);
}

TEST_F(EngineTest, FixedOrderNeverRotates) {
  auto first = ask(*zones_, make_query("txt.big.test.", RRType::TXT), Transport::kTcp);
  auto second = ask(*zones_, make_query("txt.big.test.", RRType::TXT), Transport::kTcp);
  ASSERT_EQ(first.answers.size(), second.answers.size());
  for (std::size_t i = 0; i < first.answers.size(); ++i) EXPECT_EQ(first.answers[i].rdata, second.answers[i].rdata);
}

TEST(ZoneSetTest, MostSpecificZoneWins) {
  auto parent = make_zone("test.", {"test. 3600 SOA ns.test. h.test. 1 2 3 4 5", "test. 3600 NS ns.test.",
                                    "child.test. 3600 NS ns.child.test.", "ns.child.test. 3600 A 192.0.2.1"});
  auto child = make_zone("child.test.", {"child.test. 3600 SOA ns.child.test. h.test. 1 2 3 4 5",
                                         "child.test. 3600 NS ns.child.test.", "ns.child.test. 3600 A 192.0.2.1",
                                         "www.child.test. 60 A 192.0.2.80"});
  ZoneSet zones({parent, child});
  auto reply = ask(zones, make_query("www.child.test.", RRType::A));
  EXPECT_TRUE(reply.header.aa);
  EXPECT_EQ(reply.answers.size(), 1u);
}

// A set built after another takes the served form (fast index) of every zone the other holds
// as the very same object, and builds it for a changed one.
TEST(ZoneSetTest, ANewSetReusesTheServedFormOfUnchangedZones) {
  auto parent = make_zone("test.", {"test. 3600 SOA ns.test. h.test. 1 2 3 4 5", "test. 3600 NS ns.test.",
                                    "ns.test. 3600 A 192.0.2.1"});
  auto child = make_zone("child.test.", {"child.test. 3600 SOA ns.child.test. h.test. 1 2 3 4 5",
                                         "child.test. 3600 NS ns.child.test.", "ns.child.test. 3600 A 192.0.2.1"});
  auto child_changed = make_zone("child.test.", {"child.test. 3600 SOA ns.child.test. h.test. 2 2 3 4 5",
                                                 "child.test. 3600 NS ns.child.test.", "ns.child.test. 3600 A 192.0.2.1",
                                                 "www.child.test. 60 A 192.0.2.80"});
  ZoneSet first({parent, child});
  ZoneSet second({parent, child_changed}, &first);
  ASSERT_NE(first.served_of(parent.get()), nullptr);
  EXPECT_EQ(second.served_of(parent.get()), first.served_of(parent.get()));
  EXPECT_EQ(second.served_of(child.get()), nullptr);
  ASSERT_NE(second.served_of(child_changed.get()), nullptr);
  EXPECT_NE(second.served_of(child_changed.get()), first.served_of(child.get()));
  auto reply = ask(second, make_query("www.child.test.", RRType::A));
  EXPECT_EQ(reply.answers.size(), 1u);
  std::vector<std::uint8_t> response;
  EXPECT_TRUE(answer_query(second, make_query("ns.test.", RRType::A), Transport::kUdp, response).fast_path);
}

}  // namespace
}  // namespace cutover::auth
