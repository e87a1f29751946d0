// SignedZone and DO answers from a pre-signed zone. The signatures here are placeholders:
// which record goes where is checked here; that real validators accept the answers is checked
// by tests/integration/dnssec/ against zones signed by dnssec-signzone.
#include "auth/dnssec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "auth/test_support.h"
#include "dns/base_encoding.h"

namespace cutover::auth {
namespace {

using dns::Rcode;
using dns::RRType;
using ::testing::ElementsAre;
using testing::make_query;
using testing::make_zone;

std::vector<std::string> types_and_owners(const std::vector<dns::ResourceRecord>& records) {
  std::vector<std::string> out;
  for (const auto& record : records) {
    std::string text = record.owner.to_text() + " " + dns::type_to_text(record.type);
    if (record.type == RRType::RRSIG) {
      text += " " + dns::type_to_text(static_cast<RRType>(record.rdata[0] << 8 | record.rdata[1]));
    }
    out.push_back(text);
  }
  return out;
}

std::string sig(const std::string& owner, const std::string& type, int labels, int ttl = 3600) {
  return owner + " " + std::to_string(ttl) + " RRSIG " + type + " 13 " + std::to_string(labels) + " " +
         std::to_string(ttl) + " 20461201000000 20261201000000 4242 example. c2lnbmF0dXJl";
}

// The NSEC-signed shape of RFC 4035 Appendix A, cut down: apex, a, a wildcard, an empty
// non-terminal (x.y.w has y.w above it) and an unsigned delegation.
std::shared_ptr<const zone::Zone> nsec_zone() {
  return make_zone("example.", {
      "example. 3600 SOA ns1.example. bugs.x.w.example. 1 3600 300 3600000 3600",
      sig("example.", "SOA", 1),
      "example. 3600 NS ns1.example.",
      sig("example.", "NS", 1),
      "example. 3600 DNSKEY 257 3 13 a2V5",
      sig("example.", "DNSKEY", 1),
      "example. 3600 NSEC a.example. NS SOA RRSIG NSEC DNSKEY",
      sig("example.", "NSEC", 1),
      "a.example. 3600 A 192.0.2.1",
      sig("a.example.", "A", 2),
      "a.example. 3600 NSEC insecure.example. A RRSIG NSEC",
      sig("a.example.", "NSEC", 2),
      "insecure.example. 3600 NS ns.insecure.example.",
      "insecure.example. 3600 NSEC ns1.example. NS RRSIG NSEC",
      sig("insecure.example.", "NSEC", 2),
      "ns.insecure.example. 3600 A 192.0.2.9",
      "ns1.example. 3600 A 192.0.2.53",
      sig("ns1.example.", "A", 2),
      "ns1.example. 3600 NSEC *.w.example. A RRSIG NSEC",
      sig("ns1.example.", "NSEC", 2),
      "*.w.example. 3600 MX 1 ai.example.",
      sig("*.w.example.", "MX", 2),
      "*.w.example. 3600 NSEC x.y.w.example. MX RRSIG NSEC",
      sig("*.w.example.", "NSEC", 2),
      "x.y.w.example. 3600 MX 1 xx.example.",
      sig("x.y.w.example.", "MX", 4),
      "x.y.w.example. 3600 NSEC example. MX RRSIG NSEC",
      sig("x.y.w.example.", "NSEC", 4),
  });
}

dns::Message ask_do(const ZoneSet& zones, const std::string& name, RRType type, bool* fast = nullptr) {
  std::vector<std::uint8_t> response;
  auto outcome = answer_query(zones, make_query(name, type, true, 1232, true), Transport::kUdp, response);
  if (fast != nullptr) *fast = outcome.fast_path;
  auto parsed = dns::parse_message(response);
  EXPECT_TRUE(parsed.ok());
  return parsed.ok() ? *parsed : dns::Message{};
}

TEST(SignedZone, Nsec3HashesMatchRfc5155AppendixA) {
  // RFC 5155 Appendix A: hash SHA-1, 12 extra iterations, salt aabbccdd.
  auto zone = make_zone("example.", {
      "example. 3600 SOA ns1.example. bugs.x.w.example. 1 3600 300 3600000 3600",
      "example. 3600 NS ns1.example.",
      "example. 3600 DNSKEY 257 3 13 a2V5",
      sig("example.", "SOA", 1),
      "example. 3600 NSEC3PARAM 1 0 12 aabbccdd",
      "ns1.example. 3600 A 192.0.2.53",
  });
  auto signed_zone = SignedZone::prepare(*zone);
  ASSERT_NE(signed_zone, nullptr);
  EXPECT_TRUE(signed_zone->nsec3());
  auto hash_of = [&](const char* name) { return dns::base32hex_encode(signed_zone->hash(*dns::Name::from_text(name))); };
  EXPECT_EQ(hash_of("example."), "0P9MHAVEQVM6T7VBL5LOP2U3T2RP3TOM");
  EXPECT_EQ(hash_of("a.example."), "35MTHGPGCU1QG68FAB165KLNSNK3DPVL");
  EXPECT_EQ(hash_of("ns1.example."), "2T7B4G4VSA5SMI47K61MV5BV1A22BOJR");
  EXPECT_EQ(hash_of("*.w.example."), "R53BQ7CC2UVMUBFU5OCMM6PERS9TK9EN");
  EXPECT_EQ(hash_of("A.Example."), hash_of("a.example."));  // canonical (lowercase) form
}

TEST(SignedZone, AZoneWithoutDnskeyIsNotSigned) {
  auto zone = make_zone("example.", {
      "example. 3600 SOA ns1.example. bugs.x.w.example. 1 3600 300 3600000 3600",
      sig("example.", "SOA", 1),
      "a.example. 3600 A 192.0.2.1",
  });
  EXPECT_EQ(SignedZone::prepare(*zone), nullptr);
}

TEST(SignedZone, NsecCoveringWrapsRoundAndMatchesExactOwners) {
  auto zone = nsec_zone();
  auto signed_zone = SignedZone::prepare(*zone);
  ASSERT_NE(signed_zone, nullptr);
  EXPECT_FALSE(signed_zone->nsec3());
  auto name = [](const char* text) { return *dns::Name::from_text(text); };
  EXPECT_EQ(zone->owner(*signed_zone->nsec_matching(name("a.example."))), name("a.example."));
  EXPECT_EQ(signed_zone->nsec_matching(name("b.example.")), nullptr);
  EXPECT_EQ(zone->owner(*signed_zone->nsec_covering(name("b.example."))), name("a.example."));
  EXPECT_EQ(zone->owner(*signed_zone->nsec_covering(name("y.w.example."))), name("*.w.example."));
  EXPECT_EQ(zone->owner(*signed_zone->nsec_covering(name("z.example."))), name("x.y.w.example."));  // the last wraps
}

TEST(DnssecAnswers, PositiveAnswerCarriesItsRrsigFromTheFastPath) {
  ZoneSet zones({nsec_zone()});
  bool fast = false;
  auto reply = ask_do(zones, "a.example.", RRType::A, &fast);
  EXPECT_TRUE(fast);
  EXPECT_THAT(types_and_owners(reply.answers), ElementsAre("a.example. A", "a.example. RRSIG A"));
  ASSERT_TRUE(reply.edns.has_value());
  EXPECT_TRUE(reply.edns->dnssec_ok);

  // Without DO nothing changes: the fast path answers, with no RRSIG.
  std::vector<std::uint8_t> response;
  auto outcome = answer_query(zones, make_query("a.example.", RRType::A, true), Transport::kUdp, response);
  EXPECT_TRUE(outcome.fast_path);
  EXPECT_THAT(types_and_owners(dns::parse_message(response)->answers), ElementsAre("a.example. A"));
}

// The fast path answers a signed zone's plain positive DO queries from its signed index and
// must write exactly what the general pipeline writes; everything else it leaves to it.
TEST(DnssecAnswers, FastPathMatchesTheGeneralPipelineByteForByte) {
  ZoneSet zones({nsec_zone()});
  const std::vector<std::pair<std::string, RRType>> queries = {
      {"a.example.", RRType::A},      {"A.EXAMPLE.", RRType::A},          {"example.", RRType::NS},
      {"example.", RRType::DNSKEY},   {"example.", RRType::SOA},          {"a.example.", RRType::NSEC},
      {"a.example.", RRType::RRSIG},  {"a.example.", RRType::MX},         {"b.example.", RRType::A},
      {"y.w.example.", RRType::A},    {"b.w.example.", RRType::MX},       {"x.y.w.example.", RRType::MX},
      {"www.insecure.example.", RRType::A}, {"insecure.example.", RRType::NSEC}, {"ns1.example.", RRType::A},
  };
  std::size_t fast_answers = 0;
  for (const auto& [name, type] : queries) {
    for (std::uint16_t size : {512, 1232}) {
      auto query = make_query(name, type, true, size, true);
      std::vector<std::uint8_t> fast, general;
      auto outcome = answer_query(zones, query, Transport::kUdp, fast);
      answer_query_general(zones, query, Transport::kUdp, general);
      EXPECT_EQ(fast, general) << name << " " << dns::type_to_text(type) << " " << size;
      if (outcome.fast_path) ++fast_answers;
    }
  }
  // At both sizes: a's A in two cases, the apex's DNSKEY, ns1's A. RRsets with names in their
  // rdata (NS, SOA, MX, NSEC) take the general encoder, as without DO; so do the proofs.
  EXPECT_EQ(fast_answers, 8u);
}

// RFC 4035 §3.1.1: an answer RRset's RRSIGs that do not fit set TC; the RRset alone is not
// sent as a complete answer. Over TCP the same query gets both.
TEST(DnssecAnswers, SignaturesThatDoNotFitSetTc) {
  std::string text(200, 'x');  // one TXT string of 200 octets: 230 bytes with its header
  auto zone = make_zone("example.", {
      "example. 3600 SOA ns1.example. bugs.x.w.example. 1 3600 300 3600000 3600",
      sig("example.", "SOA", 1),
      "example. 3600 DNSKEY 257 3 13 a2V5",
      "big.example. 3600 TXT " + text,
      "big.example. 3600 TXT y" + text,
      "big.example. 3600 RRSIG TXT 13 2 3600 20461201000000 20261201000000 4242 example. " + std::string(200, 'A'),
  });
  ZoneSet zones({zone});
  for (bool fast : {true, false}) {
    std::vector<std::uint8_t> response;
    auto query = make_query("big.example.", RRType::TXT, true, 512, true);
    if (fast) {
      answer_query(zones, query, Transport::kUdp, response);
    } else {
      answer_query_general(zones, query, Transport::kUdp, response);
    }
    auto reply = dns::parse_message(response);
    ASSERT_TRUE(reply.ok());
    EXPECT_TRUE(reply->header.tc) << (fast ? "fast" : "general");
    EXPECT_LE(response.size(), 512u);
  }
  std::vector<std::uint8_t> response;
  answer_query(zones, make_query("big.example.", RRType::TXT, true, 512, true), Transport::kTcp, response);
  auto reply = dns::parse_message(response);
  ASSERT_TRUE(reply.ok());
  EXPECT_FALSE(reply->header.tc);
  EXPECT_THAT(types_and_owners(reply->answers),
              ElementsAre("big.example. TXT", "big.example. TXT", "big.example. RRSIG TXT"));
}

TEST(DnssecAnswers, NxDomainProvesTheNameAndTheWildcardAbsent) {
  ZoneSet zones({nsec_zone()});
  auto reply = ask_do(zones, "b.example.", RRType::A);
  EXPECT_EQ(reply.header.rcode, static_cast<std::uint8_t>(Rcode::kNxDomain));
  // a.example. NSEC covers b.example.; example. NSEC covers *.example. (it sorts before a).
  EXPECT_THAT(types_and_owners(reply.authorities),
              ElementsAre("example. SOA", "example. RRSIG SOA", "a.example. NSEC", "a.example. RRSIG NSEC",
                          "example. NSEC", "example. RRSIG NSEC"));
}

TEST(DnssecAnswers, NoDataShowsTheNamesNsecAndAnEmptyNonTerminalTheOneThatCoversIt) {
  ZoneSet zones({nsec_zone()});
  auto nodata = ask_do(zones, "a.example.", RRType::MX);
  EXPECT_THAT(types_and_owners(nodata.authorities),
              ElementsAre("example. SOA", "example. RRSIG SOA", "a.example. NSEC", "a.example. RRSIG NSEC"));
  auto empty = ask_do(zones, "y.w.example.", RRType::A);
  EXPECT_EQ(empty.header.rcode, static_cast<std::uint8_t>(Rcode::kNoError));
  EXPECT_THAT(types_and_owners(empty.authorities),
              ElementsAre("example. SOA", "example. RRSIG SOA", "*.w.example. NSEC", "*.w.example. RRSIG NSEC"));
}

TEST(DnssecAnswers, WildcardAnswerAndNoDataProveTheExactNameAbsent) {
  ZoneSet zones({nsec_zone()});
  auto answer = ask_do(zones, "b.w.example.", RRType::MX);
  EXPECT_THAT(types_and_owners(answer.answers), ElementsAre("b.w.example. MX", "b.w.example. RRSIG MX"));
  EXPECT_THAT(types_and_owners(answer.authorities), ElementsAre("*.w.example. NSEC", "*.w.example. RRSIG NSEC"));
  auto nodata = ask_do(zones, "z.w.example.", RRType::A);
  // x.y.w.example. NSEC covers z.w.example. (it wraps round to the apex); *.w.example. NSEC
  // shows the wildcard has no A.
  EXPECT_THAT(types_and_owners(nodata.authorities),
              ElementsAre("example. SOA", "example. RRSIG SOA", "x.y.w.example. NSEC", "x.y.w.example. RRSIG NSEC",
                          "*.w.example. NSEC", "*.w.example. RRSIG NSEC"));
}

TEST(DnssecAnswers, InsecureReferralCarriesTheCutsNsecAndTheParentAnswersItsNsecQuery) {
  ZoneSet zones({nsec_zone()});
  auto referral = ask_do(zones, "www.insecure.example.", RRType::A);
  EXPECT_FALSE(referral.header.aa);
  EXPECT_THAT(types_and_owners(referral.authorities),
              ElementsAre("insecure.example. NS", "insecure.example. NSEC", "insecure.example. RRSIG NSEC"));
  auto nsec = ask_do(zones, "insecure.example.", RRType::NSEC);
  EXPECT_TRUE(nsec.header.aa);
  EXPECT_THAT(types_and_owners(nsec.answers), ElementsAre("insecure.example. NSEC", "insecure.example. RRSIG NSEC"));
}

TEST(DnssecAnswers, AnRrsigQueryGivesEachCoveredTypeItsOwnTtl) {
  auto zone = make_zone("example.", {
      "example. 3600 SOA ns1.example. bugs.x.w.example. 1 3600 300 3600000 3600",
      sig("example.", "SOA", 1),
      "example. 3600 DNSKEY 257 3 13 a2V5",
      "a.example. 60 A 192.0.2.1",
      sig("a.example.", "A", 2, 60),
      "a.example. 300 NSEC example. A RRSIG NSEC",
      sig("a.example.", "NSEC", 2, 300),
  });
  ZoneSet zones({zone});
  auto reply = ask_do(zones, "a.example.", RRType::RRSIG);
  ASSERT_EQ(reply.answers.size(), 2u);
  EXPECT_EQ(reply.answers[0].ttl, 60u);
  EXPECT_EQ(reply.answers[1].ttl, 300u);
}

TEST(DnssecAnswers, AnNsec3OwnerIsAnsweredAsANameThatDoesNotExist) {
  auto zone = make_zone("example.", {
      "example. 3600 SOA ns1.example. bugs.x.w.example. 1 3600 300 3600000 3600",
      sig("example.", "SOA", 1),
      "example. 3600 DNSKEY 257 3 13 a2V5",
      "example. 3600 NSEC3PARAM 1 0 12 aabbccdd",
      "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example. 3600 NSEC3 1 0 12 aabbccdd 2t7b4g4vsa5smi47k61mv5bv1a22bojr NS SOA "
      "RRSIG DNSKEY NSEC3PARAM",
      "2t7b4g4vsa5smi47k61mv5bv1a22bojr.example. 3600 NSEC3 1 0 12 aabbccdd 0p9mhaveqvm6t7vbl5lop2u3t2rp3tom A RRSIG",
      "ns1.example. 3600 A 192.0.2.53",
  });
  ZoneSet zones({zone});
  for (bool dnssec_ok : {false, true}) {
    for (RRType type : {RRType::NSEC3, RRType::A, RRType::ANY}) {
      std::vector<std::uint8_t> response;
      answer_query(zones, make_query("0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example.", type, true, 1232, dnssec_ok),
                   Transport::kUdp, response);
      auto reply = dns::parse_message(response);
      ASSERT_TRUE(reply.ok());
      EXPECT_EQ(reply->header.rcode, static_cast<std::uint8_t>(Rcode::kNxDomain)) << dns::type_to_text(type);
      EXPECT_TRUE(reply->answers.empty());
    }
  }
  // The NXDOMAIN proof (RFC 5155 §7.2.2): the apex matches the closest encloser, and the
  // NSEC3 of ns1 (the highest hash, wrapping round) covers both the name and *.example.
  auto reply = ask_do(zones, "nothing.example.", RRType::A);
  EXPECT_EQ(reply.header.rcode, static_cast<std::uint8_t>(Rcode::kNxDomain));
  EXPECT_THAT(types_and_owners(reply.authorities),
              ::testing::IsSupersetOf({"0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example. NSEC3"}));
}

}  // namespace
}  // namespace cutover::auth
