// Answer-shape tests for the engine: positive, negative, wildcard, CNAME, DNAME, referral.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "auth/lookup.h"
#include "auth/test_support.h"

namespace cutover::auth {
namespace {

using dns::Rcode;
using dns::RRType;
using ::testing::ElementsAre;
using testing::ask;
using testing::make_query;
using testing::make_zone;
using testing::texts;

// SOA TTL 3600, MINIMUM 300: negative answers must carry 300.
std::shared_ptr<const zone::Zone> example_zone() {
  return make_zone("example.test.", {
      "example.test. 3600 SOA ns1.example.test. hostmaster.example.test. 1 7200 900 1209600 300",
      "example.test. 3600 NS ns1.example.test.",
      "example.test. 3600 MX 10 mail.example.test.",
      "ns1.example.test. 3600 A 192.0.2.53",
      "mail.example.test. 3600 A 192.0.2.25",
      "mail.example.test. 3600 AAAA 2001:db8::25",
      "www.example.test. 300 A 192.0.2.1",
      "www.example.test. 300 A 192.0.2.2",
      "alias.example.test. 300 CNAME www.example.test.",
      "chain.example.test. 300 CNAME alias.example.test.",
      "loop1.example.test. 300 CNAME loop2.example.test.",
      "loop2.example.test. 300 CNAME loop1.example.test.",
      "away.example.test. 300 CNAME www.elsewhere.test.",
      "dangling.example.test. 300 CNAME missing.example.test.",
      "*.wild.example.test. 300 A 192.0.2.99",
      "*.wild.example.test. 300 TXT wildcard",
      "deep.ent.wild.example.test. 300 A 192.0.2.98",
      "_sip._udp.example.test. 300 SRV 0 5 5060 mail.example.test.",
      "sub.example.test. 86400 NS ns1.sub.example.test.",
      "sub.example.test. 86400 NS ns.outside.test.",
      "ns1.sub.example.test. 86400 A 192.0.2.54",
      "old.example.test. 300 DNAME new.example.test.",
      "host.new.example.test. 300 A 192.0.2.77",
  });
}

class AnswerTest : public ::testing::Test {
 protected:
  ZoneSet zones_{{example_zone()}};
};

TEST_F(AnswerTest, ExactMatchIsAuthoritative) {
  auto reply = ask(zones_, make_query("www.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_TRUE(reply.header.aa);
  EXPECT_TRUE(reply.header.qr);
  EXPECT_EQ(reply.header.id, 0x1234);
  EXPECT_TRUE(reply.header.rd);
  EXPECT_FALSE(reply.header.ra);
  EXPECT_THAT(texts(reply.answers),
              ElementsAre("www.example.test. 300 A 192.0.2.1", "www.example.test. 300 A 192.0.2.2"));
  EXPECT_TRUE(reply.authorities.empty());  // minimal responses: no unsolicited NS
}

TEST_F(AnswerTest, NxDomainCarriesSoaWithNegativeTtl) {
  auto reply = ask(zones_, make_query("nothing.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kNxDomain));
  EXPECT_TRUE(reply.header.aa);
  EXPECT_TRUE(reply.answers.empty());
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].type, RRType::SOA);
  EXPECT_EQ(reply.authorities[0].ttl, 300u);  // min(3600, 300)
}

TEST_F(AnswerTest, NoDataCarriesSoaWithNegativeTtl) {
  auto reply = ask(zones_, make_query("www.example.test.", RRType::AAAA));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_TRUE(reply.header.aa);
  EXPECT_TRUE(reply.answers.empty());
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].ttl, 300u);
}

TEST(NegativeTtl, SoaTtlSmallerThanMinimumWins) {
  ZoneSet zones({make_zone("neg.test.", {
      "neg.test. 60 SOA ns.neg.test. h.neg.test. 1 7200 900 1209600 86400",
      "neg.test. 60 NS ns.neg.test.",
      "ns.neg.test. 60 A 192.0.2.1",
  })});
  auto nx = ask(zones, make_query("missing.neg.test.", RRType::A));
  ASSERT_EQ(nx.authorities.size(), 1u);
  EXPECT_EQ(nx.authorities[0].ttl, 60u);
  auto nodata = ask(zones, make_query("ns.neg.test.", RRType::TXT));
  ASSERT_EQ(nodata.authorities.size(), 1u);
  EXPECT_EQ(nodata.authorities[0].ttl, 60u);
}

TEST_F(AnswerTest, WildcardSynthesizesWithQueryOwner) {
  auto reply = ask(zones_, make_query("anything.wild.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_THAT(texts(reply.answers), ElementsAre("anything.wild.example.test. 300 A 192.0.2.99"));
}

TEST_F(AnswerTest, WildcardNoDataForMissingType) {
  auto reply = ask(zones_, make_query("anything.wild.example.test.", RRType::MX));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_TRUE(reply.answers.empty());
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].type, RRType::SOA);
}

TEST_F(AnswerTest, EmptyNonTerminalBlocksWildcard) {
  // ent.wild exists only because deep.ent.wild does: NODATA, not the wildcard (RFC 4592 §2.2.2).
  auto reply = ask(zones_, make_query("ent.wild.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_TRUE(reply.answers.empty());
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].type, RRType::SOA);
}

TEST_F(AnswerTest, WildcardAppliesBelowClosestEncloserOnly) {
  // The closest encloser of x.ent.wild is ent.wild, which has no wildcard child.
  auto reply = ask(zones_, make_query("x.ent.wild.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kNxDomain));
}

TEST_F(AnswerTest, CnameChainFollowedInsideZone) {
  auto reply = ask(zones_, make_query("chain.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_TRUE(reply.header.aa);
  EXPECT_THAT(texts(reply.answers),
              ElementsAre("chain.example.test. 300 CNAME alias.example.test.",
                          "alias.example.test. 300 CNAME www.example.test.", "www.example.test. 300 A 192.0.2.1",
                          "www.example.test. 300 A 192.0.2.2"));
}

TEST_F(AnswerTest, CnameQueryReturnsCnameItself) {
  auto reply = ask(zones_, make_query("alias.example.test.", RRType::CNAME));
  EXPECT_THAT(texts(reply.answers), ElementsAre("alias.example.test. 300 CNAME www.example.test."));
}

TEST_F(AnswerTest, CnameLoopStops) {
  auto reply = ask(zones_, make_query("loop1.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_EQ(reply.answers.size(), 2u);
}

TEST_F(AnswerTest, LongCnameChainStopsAfterSixteenLinksWithNoError) {
  // A deliberate choice (docs/rfc-coverage.md): the chain so far, NOERROR, no SOA; the
  // resolver continues from the last target.
  std::vector<std::string> lines = {"long.test. 3600 SOA ns.long.test. h.long.test. 1 7200 900 1209600 300"};
  for (int i = 0; i < 20; ++i) {
    lines.push_back("c" + std::to_string(i) + ".long.test. 300 CNAME c" + std::to_string(i + 1) + ".long.test.");
  }
  lines.push_back("c20.long.test. 300 A 192.0.2.20");
  ZoneSet zones({make_zone("long.test.", lines)});
  auto reply = ask(zones, make_query("c0.long.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_EQ(reply.answers.size(), static_cast<std::size_t>(kMaxChainLength));
  EXPECT_EQ(reply.answers.back().type, RRType::CNAME);
  EXPECT_TRUE(reply.authorities.empty());
}

TEST_F(AnswerTest, CnameOutOfZoneStopsAtTarget) {
  auto reply = ask(zones_, make_query("away.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_THAT(texts(reply.answers), ElementsAre("away.example.test. 300 CNAME www.elsewhere.test."));
  EXPECT_TRUE(reply.authorities.empty());
}

TEST_F(AnswerTest, CnameToMissingNameIsNxDomain) {
  // RFC 6604: the rcode describes the last name in the chain.
  auto reply = ask(zones_, make_query("dangling.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kNxDomain));
  EXPECT_EQ(reply.answers.size(), 1u);
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].type, RRType::SOA);
}

TEST_F(AnswerTest, DnameSynthesizesCname) {
  auto reply = ask(zones_, make_query("host.old.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_THAT(texts(reply.answers),
              ElementsAre("old.example.test. 300 DNAME new.example.test.",
                          "host.old.example.test. 300 CNAME host.new.example.test.",
                          "host.new.example.test. 300 A 192.0.2.77"));
}

TEST_F(AnswerTest, DnameOwnerItselfIsNotRedirected) {
  auto reply = ask(zones_, make_query("old.example.test.", RRType::A));
  EXPECT_EQ(reply.header.rcode, 0);
  EXPECT_TRUE(reply.answers.empty());
}

TEST_F(AnswerTest, ReferralWithGlue) {
  for (const char* qname : {"sub.example.test.", "www.sub.example.test.", "a.b.sub.example.test."}) {
    auto reply = ask(zones_, make_query(qname, RRType::A));
    EXPECT_EQ(reply.header.rcode, 0) << qname;
    EXPECT_FALSE(reply.header.aa) << qname;
    EXPECT_TRUE(reply.answers.empty()) << qname;
    EXPECT_THAT(texts(reply.authorities),
                ElementsAre("sub.example.test. 86400 NS ns1.sub.example.test.",
                            "sub.example.test. 86400 NS ns.outside.test."))
        << qname;
    EXPECT_THAT(texts(reply.additionals), ElementsAre("ns1.sub.example.test. 86400 A 192.0.2.54")) << qname;
  }
}

TEST_F(AnswerTest, DsAtCutIsAnsweredByParent) {
  auto reply = ask(zones_, make_query("sub.example.test.", RRType::DS));
  EXPECT_TRUE(reply.header.aa);
  EXPECT_TRUE(reply.answers.empty());
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].type, RRType::SOA);
}

// RFC 4035 §3.1.4.1: a served parent answers DS at a served child's apex, from its side.
TEST(DsAtServedChildTest, ParentAnswersDsAtChildApex) {
  auto parent = make_zone("parent.test.", {
      "parent.test. 3600 SOA ns.parent.test. h.parent.test. 1 7200 900 1209600 300",
      "parent.test. 3600 NS ns.parent.test.",
      "ns.parent.test. 3600 A 192.0.2.1",
      "child.parent.test. 3600 NS ns.child.parent.test.",
      "child.parent.test. 3600 DS 12345 13 2 4F6B3C2D1E0F9A8B7C6D5E4F3A2B1C0D9E8F7A6B5C4D3E2F1A0B9C8D7E6F5A4B",
      "ns.child.parent.test. 3600 A 192.0.2.2",
      "nods.parent.test. 3600 NS ns.nods.parent.test.",
      "ns.nods.parent.test. 3600 A 192.0.2.3",
      "sub.parent.test. 3600 NS ns.elsewhere.example.",
  });
  auto child_zone = [](const std::string& origin) {
    return make_zone(origin, {origin + " 3600 SOA ns." + origin + " h." + origin + " 1 7200 900 1209600 60",
                              origin + " 3600 NS ns." + origin, "ns." + origin + " 3600 A 192.0.2.2",
                              "www." + origin + " 3600 A 192.0.2.80"});
  };
  auto lone = child_zone("lone.example.");
  ZoneSet zones({child_zone("child.parent.test."), child_zone("nods.parent.test."), parent, lone,
                 child_zone("stray.parent.test."), child_zone("a.nods.parent.test."), child_zone("b.sub.parent.test.")});

  auto ds = ask(zones, make_query("Child.Parent.test.", RRType::DS), Transport::kTcp);
  EXPECT_TRUE(ds.header.aa);
  ASSERT_EQ(ds.answers.size(), 1u);
  EXPECT_EQ(ds.answers[0].type, RRType::DS);
  EXPECT_EQ(ds.answers[0].owner.to_text(), "Child.Parent.test.");
  EXPECT_TRUE(ds.authorities.empty());

  auto nodata = ask(zones, make_query("nods.parent.test.", RRType::DS));
  EXPECT_EQ(nodata.header.rcode, static_cast<int>(Rcode::kNoError));
  EXPECT_TRUE(nodata.answers.empty());
  EXPECT_THAT(texts(nodata.authorities),
              ElementsAre("parent.test. 300 SOA ns.parent.test. h.parent.test. 1 7200 900 1209600 300"));

  // Below the apex, and every other type at it, stay the child's.
  auto below = ask(zones, make_query("www.child.parent.test.", RRType::DS));
  ASSERT_EQ(below.authorities.size(), 1u);
  EXPECT_EQ(below.authorities[0].owner.to_text(), "child.parent.test.");
  auto soa = ask(zones, make_query("child.parent.test.", RRType::SOA));
  ASSERT_EQ(soa.answers.size(), 1u);
  EXPECT_EQ(soa.answers[0].owner.to_text(), "child.parent.test.");
  EXPECT_TRUE(soa.header.aa);

  // No parent served, a served parent without a cut at the apex (parent.test. for stray,
  // nods.parent.test. for a.nods), or one whose cut lies higher (sub.parent.test., served by
  // someone else, is b.sub's parent): the zone answers DS at its apex itself.
  for (const char* apex : {"lone.example.", "stray.parent.test.", "a.nods.parent.test.", "b.sub.parent.test."}) {
    auto alone = ask(zones, make_query(apex, RRType::DS));
    EXPECT_TRUE(alone.header.aa) << apex;
    EXPECT_EQ(alone.header.rcode, static_cast<int>(Rcode::kNoError)) << apex;
    ASSERT_EQ(alone.authorities.size(), 1u) << apex;
    EXPECT_EQ(alone.authorities[0].owner.to_text(), apex);
  }
}

// RFC 4035 §2.5: RRSIG and NSEC live next to a CNAME; asking for them does not follow it.
TEST(AliasCompanionTest, RrsigAndNsecAtCnameOwnerAreAnswered) {
  auto zone = make_zone("signed.test.", {
      "signed.test. 3600 SOA ns.signed.test. h.signed.test. 1 7200 900 1209600 300",
      "signed.test. 3600 NS ns.signed.test.",
      "ns.signed.test. 3600 A 192.0.2.1",
      "cn.signed.test. 300 CNAME www.signed.test.",
      "cn.signed.test. 300 RRSIG CNAME 13 3 300 20270101000000 20261201000000 12345 signed.test. c2lnbmF0dXJl",
      "cn.signed.test. 300 NSEC ns.signed.test. CNAME RRSIG NSEC",
      "www.signed.test. 300 A 192.0.2.80",
      "www.signed.test. 300 RRSIG A 13 3 300 20270101000000 20261201000000 12345 signed.test. c2lnbmF0dXJl",
      "bare.signed.test. 300 CNAME www.signed.test.",
  });
  ZoneSet zones({zone});
  auto rrsig = ask(zones, make_query("cn.signed.test.", RRType::RRSIG));
  ASSERT_EQ(rrsig.answers.size(), 1u);
  EXPECT_EQ(rrsig.answers[0].type, RRType::RRSIG);
  EXPECT_EQ(rrsig.answers[0].owner.to_text(), "cn.signed.test.");
  auto nsec = ask(zones, make_query("cn.signed.test.", RRType::NSEC));
  EXPECT_THAT(texts(nsec.answers), ElementsAre("cn.signed.test. 300 NSEC ns.signed.test. CNAME RRSIG NSEC"));
  auto address = ask(zones, make_query("cn.signed.test.", RRType::A));
  ASSERT_EQ(address.answers.size(), 2u);
  EXPECT_EQ(address.answers[0].type, RRType::CNAME);
  // An alias without an RRSIG RRset: the CNAME is followed as for any other type.
  auto unsigned_alias = ask(zones, make_query("bare.signed.test.", RRType::RRSIG));
  ASSERT_EQ(unsigned_alias.answers.size(), 2u);
  EXPECT_EQ(unsigned_alias.answers[0].type, RRType::CNAME);
  EXPECT_EQ(unsigned_alias.answers[1].owner.to_text(), "www.signed.test.");
}

TEST_F(AnswerTest, AdditionalAddressesForMxNsAndSrvTargets) {
  auto mx = ask(zones_, make_query("example.test.", RRType::MX));
  EXPECT_THAT(texts(mx.additionals),
              ElementsAre("mail.example.test. 3600 A 192.0.2.25", "mail.example.test. 3600 AAAA 2001:db8::25"));
  auto ns = ask(zones_, make_query("example.test.", RRType::NS));
  EXPECT_THAT(texts(ns.additionals), ElementsAre("ns1.example.test. 3600 A 192.0.2.53"));
  auto srv = ask(zones_, make_query("_sip._udp.example.test.", RRType::SRV));
  EXPECT_EQ(srv.additionals.size(), 2u);
}

TEST_F(AnswerTest, AnyIsMinimalOverUdpAndFullOverTcp) {
  auto udp = ask(zones_, make_query("example.test.", RRType::ANY));
  EXPECT_EQ(udp.answers.size(), 1u);
  auto tcp = ask(zones_, make_query("example.test.", RRType::ANY), Transport::kTcp);
  EXPECT_EQ(tcp.answers.size(), 3u);  // SOA, NS, MX
}

TEST_F(AnswerTest, OutsideEveryZoneIsRefused) {
  auto reply = ask(zones_, make_query("www.example.org.", RRType::A));
  EXPECT_EQ(reply.header.rcode, static_cast<int>(Rcode::kRefused));
  EXPECT_FALSE(reply.header.aa);
}

TEST_F(AnswerTest, QueryCaseIsPreservedInQuestionAndOwner) {
  auto reply = ask(zones_, make_query("WwW.Example.TEST.", RRType::A));
  ASSERT_EQ(reply.questions.size(), 1u);
  EXPECT_EQ(reply.questions[0].name.to_text(), "WwW.Example.TEST.");
  ASSERT_FALSE(reply.answers.empty());
  EXPECT_EQ(reply.answers[0].owner.to_text(), "WwW.Example.TEST.");
}

}  // namespace
}  // namespace cutover::auth
