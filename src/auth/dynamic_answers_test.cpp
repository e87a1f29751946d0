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

TEST_F(DynamicAnswersTest, FindsByNameAndByLowercaseWire) {
  EXPECT_EQ(dynamic_->find(*dns::Name::from_text("drawn.dyn.test."))->source, "drawn-source");
  EXPECT_EQ(dynamic_->find(*dns::Name::from_text("absent.dyn.test.")), nullptr);
  auto wire = dns::Name::from_text("capped.dyn.test.")->lowercased().wire();
  std::size_t position = dynamic_->find_lower(wire, zone::hash_lower_wire(wire));
  ASSERT_NE(position, DynamicAnswers::kNone);
  EXPECT_EQ(dynamic_->answers()[position].source, "capped-source");
}

}  // namespace
}  // namespace cutover::auth
