// DNSSEC-related answer rules of `cutover serve` as the real dig and kdig see them on
// loopback: the DO bit echoed (RFC 3225 §3), DS at a served child's apex answered by the
// served parent (RFC 4035 §3.1.4.1), RRSIG/NSEC queries at a CNAME owner (RFC 4035 §2.5).
#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "auth/auth_suite.h"
#include "support/dig.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

bool has_do(const DigResult& reply) {
  return std::find(reply.edns_flags.begin(), reply.edns_flags.end(), "do") != reply.edns_flags.end();
}

std::vector<std::string> types_of(const std::vector<DigRecord>& section) {
  std::vector<std::string> types;
  for (const auto& record : section) types.push_back(record.type);
  return types;
}

class DnssecRulesTest : public OneServerSuite {
 protected:
  static void SetUpTestSuite() {
    start_server({{"shapes.test.", "shapes.zone"},
                  {"big.test.", "big.zone"},
                  {"parent.test.", "parent.zone"},
                  {"child.parent.test.", "child.zone"},
                  {"nods.parent.test.", "nods.zone"},
                  {"orphan.example.", "orphan.zone"},
                  {"stray.parent.test.", "stray.zone"},
                  {"signed.test.", "signed.zone"}});
  }
};

// Shapes that take the fast path (positive, NODATA, NXDOMAIN) and the general one
// (referral, CNAME chain, DNAME, an EDNS option, a truncated answer, an apex DS).
const std::vector<std::pair<std::string, std::string>> kShapes = {
    {"www.shapes.test", "A"},        {"www.shapes.test", "AAAA"},   {"nothing.shapes.test", "A"},
    {"sub.shapes.test", "A"},        {"alias.shapes.test", "A"},    {"host.old.shapes.test", "A"},
    {"shapes.test", "MX"},           {"txt.big.test", "TXT"},       {"child.parent.test", "DS"},
};

TEST_F(DnssecRulesTest, DoBitIsCopiedIntoEveryAnswerOverUdpAndTcp) {
  for (const auto& [name, type] : kShapes) {
    for (const char* transport : {"+notcp", "+tcp"}) {
      auto reply = dig(port(), name, type, {"+dnssec", transport, "+ignore"});
      EXPECT_TRUE(reply.edns) << reply.raw;
      EXPECT_TRUE(has_do(reply)) << name << " " << type << " " << transport << "\n" << reply.raw;
      auto with_option = dig(port(), name, type, {"+dnssec", "+ednsopt=65001:0102", transport, "+ignore"});
      EXPECT_TRUE(has_do(with_option)) << name << " " << type << " " << transport << "\n" << with_option.raw;
    }
    auto by_kdig = kdig(port(), name, type, {"+dnssec", "+ignore"});
    EXPECT_TRUE(has_do(by_kdig)) << name << " " << type << "\n" << by_kdig.raw;
  }
}

TEST_F(DnssecRulesTest, DoBitStaysClearWhenTheQueryLeftItClear) {
  for (const auto& [name, type] : kShapes) {
    auto reply = dig(port(), name, type, {"+nodnssec", "+ignore"});
    EXPECT_TRUE(reply.edns) << reply.raw;
    EXPECT_FALSE(has_do(reply)) << name << " " << type << "\n" << reply.raw;
  }
}

TEST_F(DnssecRulesTest, BadVersKeepsTheDoBit) {
  for (const char* transport : {"+notcp", "+tcp"}) {
    auto reply = dig(port(), "www.shapes.test", "A", {"+edns=1", "+noednsnegotiation", "+dnssec", transport});
    EXPECT_EQ(reply.status, "BADVERS") << reply.raw;
    EXPECT_EQ(reply.edns_version, 0u) << reply.raw;
    EXPECT_TRUE(has_do(reply)) << transport << "\n" << reply.raw;
  }
}

TEST_F(DnssecRulesTest, DsAtServedChildApexComesFromTheParent) {
  for (const char* transport : {"+notcp", "+tcp"}) {
    auto reply = dig(port(), "child.parent.test", "DS", {transport});
    EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
    EXPECT_TRUE(reply.has_flag("aa")) << reply.raw;
    ASSERT_EQ(reply.answer.size(), 1u) << reply.raw;
    EXPECT_EQ(reply.answer[0].owner, "child.parent.test.");
    EXPECT_EQ(reply.answer[0].type, "DS");
    EXPECT_EQ(reply.answer[0].ttl, 3600u);
    EXPECT_EQ(reply.answer[0].rdata.rfind("12345 13 2 ", 0), 0u) << reply.raw;
    EXPECT_THAT(reply.authority, IsEmpty()) << reply.raw;
  }
  auto by_kdig = kdig(port(), "CHILD.parent.test", "DS");
  ASSERT_EQ(by_kdig.answer.size(), 1u) << by_kdig.raw;
  EXPECT_EQ(by_kdig.answer[0].type, "DS");
}

TEST_F(DnssecRulesTest, MissingDsAtServedChildApexIsTheParentsNoData) {
  auto reply = dig(port(), "nods.parent.test", "DS");
  EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
  EXPECT_TRUE(reply.has_flag("aa")) << reply.raw;
  EXPECT_THAT(reply.answer, IsEmpty()) << reply.raw;
  ASSERT_EQ(reply.authority.size(), 1u) << reply.raw;
  EXPECT_EQ(reply.authority[0].type, "SOA");
  EXPECT_EQ(reply.authority[0].owner, "parent.test.") << reply.raw;
  EXPECT_EQ(reply.authority[0].ttl, 300u);  // the parent's MINIMUM, not the child's 120
}

TEST_F(DnssecRulesTest, ChildStillAnswersEverythingElseAtItsApex) {
  auto soa = dig(port(), "child.parent.test", "SOA");
  EXPECT_TRUE(soa.has_flag("aa")) << soa.raw;
  ASSERT_EQ(soa.answer.size(), 1u) << soa.raw;
  EXPECT_EQ(soa.answer[0].owner, "child.parent.test.");
  auto ns = dig(port(), "child.parent.test", "NS");
  EXPECT_TRUE(ns.has_flag("aa")) << ns.raw;  // the child's own NS, not the parent's referral
  EXPECT_THAT(DigResult::rdatas(ns.answer, "NS"), ElementsAre("ns1.child.parent.test."));
}

// No served parent, or a served parent.test. that does not delegate stray.parent.test.
TEST_F(DnssecRulesTest, DsAtApexWithoutServedParentIsTheZonesOwnNoData) {
  for (const char* apex : {"orphan.example.", "stray.parent.test."}) {
    auto reply = dig(port(), apex, "DS");
    EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
    EXPECT_TRUE(reply.has_flag("aa")) << reply.raw;
    EXPECT_THAT(reply.answer, IsEmpty()) << reply.raw;
    ASSERT_EQ(reply.authority.size(), 1u) << reply.raw;
    EXPECT_EQ(reply.authority[0].owner, apex) << reply.raw;
  }
}

TEST_F(DnssecRulesTest, RrsigAndNsecAtCnameOwnerAreAnsweredThere) {
  for (const auto& reply : {dig(port(), "cn.signed.test", "RRSIG"), kdig(port(), "cn.signed.test", "RRSIG")}) {
    EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
    EXPECT_TRUE(reply.has_flag("aa")) << reply.raw;
    EXPECT_THAT(types_of(reply.answer), ElementsAre("RRSIG", "RRSIG")) << reply.raw;
    for (const auto& record : reply.answer) EXPECT_EQ(record.owner, "cn.signed.test.");
  }
  auto nsec = dig(port(), "cn.signed.test", "NSEC", {"+tcp"});
  EXPECT_EQ(nsec.status, "NOERROR") << nsec.raw;
  ASSERT_THAT(types_of(nsec.answer), ElementsAre("NSEC")) << nsec.raw;
  EXPECT_EQ(nsec.answer[0].owner, "cn.signed.test.");
  EXPECT_EQ(nsec.answer[0].rdata, "ns1.signed.test. CNAME RRSIG NSEC");
}

TEST_F(DnssecRulesTest, OtherTypesAtTheCnameOwnerStillFollowTheChain) {
  auto address = dig(port(), "cn.signed.test", "A");
  EXPECT_THAT(types_of(address.answer), ElementsAre("CNAME", "A")) << address.raw;
  auto cname = dig(port(), "cn.signed.test", "CNAME");
  EXPECT_THAT(types_of(cname.answer), ElementsAre("CNAME")) << cname.raw;
  // No RRSIG RRset at the alias: step 3a of RFC 1034 §4.3.2 applies as before.
  auto unsigned_alias = dig(port(), "bare.signed.test", "RRSIG");
  EXPECT_THAT(types_of(unsigned_alias.answer), ElementsAre("CNAME", "RRSIG")) << unsigned_alias.raw;
  EXPECT_EQ(unsigned_alias.answer[1].owner, "www.signed.test.");
}

}  // namespace
}  // namespace cutover::testing
