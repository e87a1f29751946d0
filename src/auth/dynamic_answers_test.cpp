// The engine's dynamic-answer interface on its own, with snapshots built here (no pool):
// fixed sets in cyclic order, weighted draws, the TTL capped at the deadline, NODATA for
// other types, the general path and the fast path byte for byte alike.
#include "auth/dynamic_answers.h"

#include <gtest/gtest.h>

#include <set>

#include "auth/engine.h"
#include "auth/test_support.h"

namespace cutover::auth {
namespace {

using testing::make_query;
using testing::make_zone;
using Bytes = std::vector<std::uint8_t>;

dns::Rdata v4(std::uint8_t last) { return dns::Rdata{192, 0, 2, last}; }

DynamicAnswer entry(const std::string& owner, const std::string& source) {
  DynamicAnswer answer;
  answer.source = source;
  answer.owner = *dns::Name::from_text(owner);
  answer.ttl = 30;
  answer.a.type = dns::RRType::A;
  answer.aaaa.type = dns::RRType::AAAA;
  answer.counters = std::make_shared<AnswerCounters>();
  return answer;
}

class DynamicAnswersTest : public ::testing::Test {
 protected:
  DynamicAnswersTest()
      : zones_({make_zone("dyn.test.", {"dyn.test. 300 SOA ns.dyn.test. admin.dyn.test. 1 3600 600 86400 60",
                                        "dyn.test. 300 NS ns.dyn.test.", "ns.dyn.test. 300 A 192.0.2.53"})}) {
    DynamicAnswer fixed = entry("fixed.dyn.test.", "fixed-source");
    fixed.a.fixed = zone::RRset(dns::RRType::A, 30);
    fixed.a.fixed.order = zone::RRsetOrder::kCyclic;
    fixed.a.fixed.rdatas = {v4(1), v4(2)};
    DynamicAnswer drawn = entry("drawn.dyn.test.", "drawn-source");
    drawn.a.draw = {v4(10), v4(11), v4(12)};
    drawn.a.weights = {1, 1, 1};
    drawn.a.per_query = 1;
    DynamicAnswer capped = entry("capped.dyn.test.", "capped-source");
    capped.suspicion_ttl = true;
    capped.a.fixed = zone::RRset(dns::RRType::A, 30);
    capped.a.fixed.rdatas = {v4(20)};
    capped.a.suspicion_deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);  // passed: TTL 0
    dynamic_ = std::make_shared<const DynamicAnswers>(std::vector<DynamicAnswer>{fixed, drawn, capped});
  }

  dns::Message ask(const std::string& name, dns::RRType type, QueryOutcome* outcome_out = nullptr, bool general = false) {
    Bytes response;
    QueryOutcome outcome = general ? answer_query_general(zones_, make_query(name, type), Transport::kUdp, response, dynamic_.get())
                                   : answer_query(zones_, dynamic_.get(), make_query(name, type), Transport::kUdp, response);
    if (outcome_out != nullptr) *outcome_out = outcome;
    auto parsed = dns::parse_message(response);
    EXPECT_TRUE(parsed.ok());
    return parsed.ok() ? *parsed : dns::Message{};
  }

  ZoneSet zones_;
  std::shared_ptr<const DynamicAnswers> dynamic_;
};

TEST_F(DynamicAnswersTest, AFixedSetIsAnsweredInCyclicOrderOnBothPaths) {
  for (bool general : {false, true}) {
    QueryOutcome outcome;
    dns::Message first = ask("FIXED.dyn.test.", dns::RRType::A, &outcome, general);
    ASSERT_EQ(first.answers.size(), 2u);
    EXPECT_EQ(first.answers[0].ttl, 30u);
    ASSERT_NE(outcome.dynamic, nullptr);
    EXPECT_EQ(outcome.dynamic->source, "fixed-source");
    EXPECT_EQ(outcome.fast_path, !general);
    dns::Message second = ask("fixed.dyn.test.", dns::RRType::A, nullptr, general);
    ASSERT_EQ(second.answers.size(), 2u);
    EXPECT_NE(first.answers[0].rdata, second.answers[0].rdata);  // rotated
  }
}

TEST_F(DynamicAnswersTest, AWeightedSetDrawsPerQueryFromItsCandidates) {
  std::set<dns::Rdata> seen;
  for (int i = 0; i < 200; ++i) {
    dns::Message reply = ask("drawn.dyn.test.", dns::RRType::A, nullptr, i % 2 == 1);
    ASSERT_EQ(reply.answers.size(), 1u);
    seen.insert(reply.answers[0].rdata);
  }
  EXPECT_EQ(seen, (std::set<dns::Rdata>{v4(10), v4(11), v4(12)}));  // 200 draws of 3: all seen
}

TEST_F(DynamicAnswersTest, TheTtlIsCappedAtThePassedDeadline) {
  for (bool general : {false, true}) {
    dns::Message reply = ask("capped.dyn.test.", dns::RRType::A, nullptr, general);
    ASSERT_EQ(reply.answers.size(), 1u);
    EXPECT_EQ(reply.answers[0].ttl, 0u);
  }
}

TEST_F(DynamicAnswersTest, OtherTypesAndEmptyFamiliesAreNodataAndOtherNamesAreZoneData) {
  for (bool general : {false, true}) {
    for (dns::RRType type : {dns::RRType::MX, dns::RRType::AAAA}) {
      dns::Message reply = ask("fixed.dyn.test.", type, nullptr, general);
      EXPECT_EQ(reply.header.rcode, 0);
      EXPECT_TRUE(reply.answers.empty());
      ASSERT_EQ(reply.authorities.size(), 1u);
      EXPECT_EQ(reply.authorities[0].type, dns::RRType::SOA);
    }
    QueryOutcome outcome;
    dns::Message ns = ask("ns.dyn.test.", dns::RRType::A, &outcome, general);
    ASSERT_EQ(ns.answers.size(), 1u);
    EXPECT_EQ(outcome.dynamic, nullptr);
  }
}

// SplitMix64's published outputs for seed 0 (Vigna's reference splitmix64.c): the generator
// the weighted draws use is that one, not a look-alike.
TEST(DrawGeneratorTest, GivesSplitMix64sReferenceSequence) {
  DrawGenerator generator(0);
  EXPECT_EQ(generator(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(generator(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(generator(), 0x06C45D188009454Full);
  EXPECT_TRUE(draw_generator().seeded());
}

TEST_F(DynamicAnswersTest, FindsByNameAndByLowercaseWire) {
  EXPECT_EQ(dynamic_->find(*dns::Name::from_text("drawn.dyn.test."))->source, "drawn-source");
  EXPECT_EQ(dynamic_->find(*dns::Name::from_text("absent.dyn.test.")), nullptr);
  auto wire = dns::Name::from_text("capped.dyn.test.")->lowercased().wire();
  std::size_t position = dynamic_->find_lower(wire, zone::hash_lower_wire(wire));
  ASSERT_NE(position, DynamicAnswers::kNone);
  EXPECT_EQ(dynamic_->answers()[position].source, "capped-source");
}


// Alias entries (hostname endpoints, docs/pools.md): a CNAME for every type, followed inside
// the zone as a zone CNAME is (RFC 1034 §4.3.2 step 3a), left to the resolver outside it.
class AliasAnswersTest : public DynamicAnswersTest {
 protected:
  static dns::Rdata name_rdata(const std::string& text) {
    auto name = dns::Name::from_text(text);
    return dns::Rdata(name->wire().begin(), name->wire().end());
  }
  static DynamicAnswer alias(const std::string& owner, std::vector<std::string> targets) {
    DynamicAnswer answer = entry(owner, owner);
    answer.alias = true;
    answer.cname.type = dns::RRType::CNAME;
    answer.cname.fixed = zone::RRset(dns::RRType::CNAME, 30);
    if (targets.size() == 1) {
      answer.cname.fixed.rdatas = {name_rdata(targets[0])};
    } else {
      for (const auto& target : targets) answer.cname.draw.push_back(name_rdata(target));
      answer.cname.weights.assign(targets.size(), 1);
      answer.cname.per_query = 1;
    }
    return answer;
  }
  AliasAnswersTest() {
    dynamic_ = std::make_shared<const DynamicAnswers>(std::vector<DynamicAnswer>{
        alias("inside.dyn.test.", {"ns.dyn.test."}), alias("outside.dyn.test.", {"lb.example.net."}),
        alias("shared.dyn.test.", {"lb.Test."}), alias("drawn.dyn.test.", {"ns.dyn.test.", "lb.example.net."})});
  }
  static std::string target_of(const dns::ResourceRecord& record) {
    EXPECT_EQ(record.type, dns::RRType::CNAME);
    return dns::Name::from_uncompressed(record.rdata)->to_text();
  }
};

TEST_F(AliasAnswersTest, TheCnameIsFollowedInsideTheZoneForEveryType) {
  QueryOutcome outcome;
  dns::Message a = ask("inside.dyn.test.", dns::RRType::A, &outcome);
  EXPECT_EQ(a.header.rcode, 0);
  EXPECT_TRUE(a.header.aa);
  ASSERT_EQ(a.answers.size(), 2u);
  EXPECT_EQ(a.answers[0].owner.to_text(), "inside.dyn.test.");
  EXPECT_EQ(target_of(a.answers[0]), "ns.dyn.test.");
  EXPECT_EQ(a.answers[0].ttl, 30u);
  EXPECT_EQ(a.answers[1].type, dns::RRType::A);
  EXPECT_EQ(a.answers[1].rdata, (dns::Rdata{192, 0, 2, 53}));
  EXPECT_FALSE(outcome.fast_path);  // chains are the general path's
  ASSERT_NE(outcome.dynamic, nullptr);
  // The target holds no AAAA or MX: the CNAME, then the target's NODATA (SOA in authority).
  for (dns::RRType type : {dns::RRType::AAAA, dns::RRType::MX}) {
    dns::Message reply = ask("inside.dyn.test.", type);
    EXPECT_EQ(reply.header.rcode, 0);
    ASSERT_EQ(reply.answers.size(), 1u);
    EXPECT_EQ(target_of(reply.answers[0]), "ns.dyn.test.");
    ASSERT_EQ(reply.authorities.size(), 1u);
    EXPECT_EQ(reply.authorities[0].type, dns::RRType::SOA);
  }
  // CNAME and ANY are answered with the CNAME alone.
  for (dns::RRType type : {dns::RRType::CNAME, dns::RRType::ANY}) {
    dns::Message reply = ask("inside.dyn.test.", type);
    ASSERT_EQ(reply.answers.size(), 1u);
    EXPECT_EQ(target_of(reply.answers[0]), "ns.dyn.test.");
    EXPECT_TRUE(reply.authorities.empty());
  }
}

// The fast path answers it, byte for byte as the general path, the target compressed against
// the question where they share a suffix ("test." of SHARED.dyn.TEST and lb.Test.).
TEST_F(AliasAnswersTest, ATargetOutsideTheZoneIsLeftToTheResolverOnTheFastPath) {
  for (const auto& [qname, target] : std::vector<std::pair<std::string, std::string>>{
           {"OUTSIDE.dyn.test.", "lb.example.net."}, {"SHARED.dyn.TEST.", "lb.Test."}}) {
    for (dns::RRType type : {dns::RRType::A, dns::RRType::AAAA, dns::RRType::CNAME, dns::RRType::MX}) {
      Bytes fast, general;
      for (int edns = 0; edns < 2; ++edns) {
        Bytes query = make_query(qname, type, edns == 1);
        QueryOutcome outcome = answer_query(zones_, dynamic_.get(), query, Transport::kUdp, fast);
        // MX pulls in additional addresses elsewhere, so its queries take the general path.
        EXPECT_EQ(outcome.fast_path, type != dns::RRType::MX) << qname << " " << dns::type_to_text(type);
        answer_query_general(zones_, query, Transport::kUdp, general, dynamic_.get());
        EXPECT_EQ(fast, general) << qname << " " << dns::type_to_text(type) << " edns " << edns;
      }
      auto reply = dns::parse_message(fast);
      ASSERT_TRUE(reply.ok());
      EXPECT_EQ(reply->header.rcode, 0);
      EXPECT_TRUE(reply->header.aa);
      ASSERT_EQ(reply->answers.size(), 1u);
      // A compressed suffix reads back in the question's case.
      EXPECT_EQ(dns::Name::from_text(target_of(reply->answers[0]))->lowercased().to_text(),
                dns::Name::from_text(target)->lowercased().to_text());
      EXPECT_TRUE(reply->authorities.empty());
    }
  }
  // The shared suffix is a pointer: "lb" (3 bytes) and 2 bytes of pointer.
  Bytes fast;
  answer_query(zones_, dynamic_.get(), make_query("shared.dyn.test.", dns::RRType::A), Transport::kUdp, fast);
  auto reply = dns::parse_message(fast);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(fast.size(), 12u + 17u + 4u + 12u + 5u);  // header, question name, type and class, record
}

TEST_F(AliasAnswersTest, ADrawnAliasAnswersOneTargetPerQuery) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    dns::Message reply = ask("drawn.dyn.test.", dns::RRType::CNAME, nullptr, i % 2 == 1);
    ASSERT_EQ(reply.answers.size(), 1u);
    seen.insert(target_of(reply.answers[0]));
  }
  EXPECT_EQ(seen, (std::set<std::string>{"ns.dyn.test.", "lb.example.net."}));
}
}  // namespace
}  // namespace cutover::auth
