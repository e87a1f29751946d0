// Answer shapes of `cutover serve` as the real dig and kdig see them on loopback:
// positive, negative TTLs, wildcard vs empty non-terminal, CNAME, DNAME, referral, EDNS, TC.
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "auth/auth_suite.h"
#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

class AnswersTest : public OneServerSuite {
 protected:
  static void SetUpTestSuite() {
    start_server({{"shapes.test.", "shapes.zone"}, {"lowttl.test.", "lowttl.zone"}, {"big.test.", "big.zone"}});
  }
};

TEST_F(AnswersTest, PositiveAnswerWithDigAndKdig) {
  for (const auto& reply : {dig(port(), "www.shapes.test", "A"), kdig(port(), "www.shapes.test", "A")}) {
    EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
    EXPECT_TRUE(reply.has_flag("aa")) << reply.raw;
    EXPECT_FALSE(reply.has_flag("ra")) << reply.raw;
    EXPECT_THAT(DigResult::rdatas(reply.answer, "A"), UnorderedElementsAre("192.0.2.1", "192.0.2.2", "192.0.2.3"));
    ASSERT_FALSE(reply.answer.empty());
    EXPECT_EQ(reply.answer[0].ttl, 300u);
  }
}

TEST_F(AnswersTest, NxDomainSoaTtlIsMinimumWhenMinimumIsSmaller) {
  auto reply = dig(port(), "nothing.shapes.test", "A");
  EXPECT_EQ(reply.status, "NXDOMAIN") << reply.raw;
  EXPECT_TRUE(reply.has_flag("aa"));
  ASSERT_EQ(reply.authority.size(), 1u) << reply.raw;
  EXPECT_EQ(reply.authority[0].type, "SOA");
  EXPECT_EQ(reply.authority[0].ttl, 300u);
}

TEST_F(AnswersTest, NoDataSoaTtlIsMinimumWhenMinimumIsSmaller) {
  auto reply = kdig(port(), "www.shapes.test", "AAAA");
  EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
  EXPECT_TRUE(reply.answer.empty());
  ASSERT_EQ(reply.authority.size(), 1u) << reply.raw;
  EXPECT_EQ(reply.authority[0].ttl, 300u);
}

TEST_F(AnswersTest, NegativeSoaTtlIsSoaTtlWhenSoaTtlIsSmaller) {
  auto nx = dig(port(), "nothing.lowttl.test", "A");
  EXPECT_EQ(nx.status, "NXDOMAIN") << nx.raw;
  ASSERT_EQ(nx.authority.size(), 1u) << nx.raw;
  EXPECT_EQ(nx.authority[0].ttl, 60u);
  auto nodata = dig(port(), "ns.lowttl.test", "TXT");
  EXPECT_EQ(nodata.status, "NOERROR") << nodata.raw;
  ASSERT_EQ(nodata.authority.size(), 1u) << nodata.raw;
  EXPECT_EQ(nodata.authority[0].ttl, 60u);
}

TEST_F(AnswersTest, WildcardSynthesisVersusEmptyNonTerminal) {
  auto wild = dig(port(), "anything.wild.shapes.test", "A");
  EXPECT_EQ(wild.status, "NOERROR") << wild.raw;
  ASSERT_EQ(wild.answer.size(), 1u) << wild.raw;
  EXPECT_EQ(wild.answer[0].owner, "anything.wild.shapes.test.");
  EXPECT_EQ(wild.answer[0].rdata, "192.0.2.99");

  auto ent = dig(port(), "ent.wild.shapes.test", "A");
  EXPECT_EQ(ent.status, "NOERROR") << ent.raw;
  EXPECT_TRUE(ent.answer.empty()) << ent.raw;
  ASSERT_EQ(ent.authority.size(), 1u) << ent.raw;
  EXPECT_EQ(ent.authority[0].type, "SOA");

  auto below_ent = dig(port(), "x.ent.wild.shapes.test", "A");
  EXPECT_EQ(below_ent.status, "NXDOMAIN") << below_ent.raw;
}

TEST_F(AnswersTest, CnameFollowedInZone) {
  auto reply = kdig(port(), "alias.shapes.test", "A");
  EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
  ASSERT_GE(reply.answer.size(), 2u) << reply.raw;
  EXPECT_EQ(reply.answer[0].type, "CNAME");
  EXPECT_EQ(reply.answer[0].rdata, "www.shapes.test.");
  EXPECT_EQ(DigResult::rdatas(reply.answer, "A").size(), 3u);
}

TEST_F(AnswersTest, DnameSynthesizesCname) {
  auto reply = dig(port(), "host.old.shapes.test", "A");
  EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
  ASSERT_EQ(reply.answer.size(), 3u) << reply.raw;
  EXPECT_EQ(reply.answer[0].type, "DNAME");
  EXPECT_EQ(reply.answer[1].type, "CNAME");
  EXPECT_EQ(reply.answer[1].owner, "host.old.shapes.test.");
  EXPECT_EQ(reply.answer[1].rdata, "host.new.shapes.test.");
  EXPECT_EQ(reply.answer[2].rdata, "192.0.2.77");
}

TEST_F(AnswersTest, ReferralWithGlue) {
  for (const char* name : {"sub.shapes.test", "deep.below.sub.shapes.test"}) {
    auto reply = dig(port(), name, "A");
    EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
    EXPECT_FALSE(reply.has_flag("aa")) << reply.raw;
    EXPECT_TRUE(reply.answer.empty()) << reply.raw;
    EXPECT_THAT(DigResult::rdatas(reply.authority, "NS"),
                UnorderedElementsAre("ns1.sub.shapes.test.", "ns.outside.test."));
    EXPECT_THAT(DigResult::rdatas(reply.additional, "A"), ElementsAre("192.0.2.54")) << reply.raw;
  }
}

TEST_F(AnswersTest, AdditionalAddressesForMx) {
  auto reply = dig(port(), "shapes.test", "MX");
  EXPECT_THAT(DigResult::rdatas(reply.additional, "A"), ElementsAre("192.0.2.25")) << reply.raw;
  EXPECT_THAT(DigResult::rdatas(reply.additional, "AAAA"), ElementsAre("2001:db8::25")) << reply.raw;
}

TEST_F(AnswersTest, OutsideZonesIsRefused) {
  auto reply = dig(port(), "www.example.org", "A");
  EXPECT_EQ(reply.status, "REFUSED") << reply.raw;
}

TEST_F(AnswersTest, TruncatedOverUdpThenCompleteOverTcp) {
  auto udp_only = dig(port(), "txt.big.test", "TXT", {"+noedns", "+ignore"});
  EXPECT_TRUE(udp_only.has_flag("tc")) << udp_only.raw;
  EXPECT_TRUE(udp_only.answer.empty()) << udp_only.raw;  // never half an RRset

  auto retried = dig(port(), "txt.big.test", "TXT", {"+noedns"});
  EXPECT_NE(retried.raw.find("Truncated, retrying in TCP mode"), std::string::npos) << retried.raw;
  EXPECT_FALSE(retried.has_flag("tc")) << retried.raw;
  EXPECT_EQ(retried.answer.size(), 12u) << retried.raw;

  auto with_edns = kdig(port(), "txt.big.test", "TXT", {"+bufsize=1232"});
  EXPECT_FALSE(with_edns.has_flag("tc")) << with_edns.raw;
  EXPECT_EQ(with_edns.answer.size(), 12u) << with_edns.raw;
}

TEST_F(AnswersTest, EdnsVersionOneGetsBadVers) {
  auto reply = dig(port(), "www.shapes.test", "A", {"+edns=1", "+noednsnegotiation"});
  EXPECT_EQ(reply.status, "BADVERS") << reply.raw;
  EXPECT_TRUE(reply.edns) << reply.raw;
  EXPECT_EQ(reply.edns_version, 0u) << reply.raw;
}

TEST_F(AnswersTest, UnknownEdnsOptionIsIgnored) {
  auto reply = dig(port(), "www.shapes.test", "A", {"+ednsopt=65001:0102"});
  EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
  EXPECT_TRUE(reply.edns) << reply.raw;
  EXPECT_EQ(reply.udp_size, 1232u) << reply.raw;
  EXPECT_EQ(reply.answer.size(), 3u);
}

TEST_F(AnswersTest, AnyIsMinimalOverUdpAndFullOverTcp) {
  auto udp = dig(port(), "shapes.test", "ANY", {"+notcp"});
  EXPECT_EQ(udp.status, "NOERROR") << udp.raw;
  EXPECT_EQ(udp.answer.size(), 1u) << udp.raw;  // RFC 8482 §4.2
  auto tcp = dig(port(), "shapes.test", "ANY", {"+tcp"});
  EXPECT_EQ(tcp.answer.size(), 3u) << tcp.raw;  // SOA, NS, MX
}

TEST(CyclicOrderTest, RotatesAcrossQueries) {
  std::string dir = make_temp_dir("cutover-cyclic");
  write_file(dir + "/cutover.yaml",
             "zones:\n"
             "  - origin: big.test.\n"
             "    file: " + data_file("big.zone") + "\n"
             "    rrset-order: cyclic\n");
  ServerSpec spec;
  spec.config = dir + "/cutover.yaml";
  spec.probe_name = "big.test.";
  CutoverServer server(spec);
  std::set<std::string> first_addresses;
  std::vector<std::string> previous;
  for (int i = 0; i < 4; ++i) {
    auto reply = dig(server.port(), "rr.big.test", "A");
    auto addresses = DigResult::rdatas(reply.answer, "A");
    ASSERT_EQ(addresses.size(), 4u) << reply.raw;
    first_addresses.insert(addresses.front());
    if (!previous.empty()) {
      // Each answer is the previous one rotated left by one.
      std::vector<std::string> rotated(previous.begin() + 1, previous.end());
      rotated.push_back(previous.front());
      EXPECT_EQ(addresses, rotated);
    }
    previous = addresses;
  }
  EXPECT_EQ(first_addresses.size(), 4u);
}

}  // namespace
}  // namespace cutover::testing
