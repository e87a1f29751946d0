// The cache's clocks on a FakeClock: the record TTL, the RFC 2308 negative TTL (min of SOA TTL
// and MINIMUM) for NXDOMAIN and NODATA, CNAME chains, and what is not cached.
#include <gtest/gtest.h>

#include "client/dns_cache.h"

namespace cutover::client {
namespace {

using namespace std::chrono_literals;

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

dns::ResourceRecord a_record(const char* owner, std::uint32_t ttl, std::uint8_t last) {
  return {name(owner), dns::RRType::A, dns::RRClass::IN, ttl, {127, 0, 0, last}};
}

dns::ResourceRecord soa_record(const char* owner, std::uint32_t ttl, std::uint32_t minimum) {
  dns::SoaFields soa;
  soa.mname = name("ns.lab.test.");
  soa.rname = name("hostmaster.lab.test.");
  soa.serial = 1;
  soa.minimum = minimum;
  return {name(owner), dns::RRType::SOA, dns::RRClass::IN, ttl, dns::encode_soa(soa)};
}

dns::Message response(dns::Rcode rcode) {
  dns::Message message;
  message.header.qr = true;
  message.header.aa = true;
  message.header.rcode = static_cast<std::uint8_t>(rcode);
  return message;
}

TEST(DnsCache, KeepsAnAnswerForItsTtlAndNoLonger) {
  base::FakeClock clock;
  DnsCache cache(clock);
  auto reply = response(dns::Rcode::kNoError);
  reply.answers = {a_record("www.lab.test.", 2, 2), a_record("www.lab.test.", 5, 3)};
  auto read = read_answer(name("www.lab.test."), dns::RRType::A, reply);
  ASSERT_TRUE(read.answer) << read.reason;
  EXPECT_EQ(read.answer->ttl, 2u) << "the smallest TTL of the RRset";
  cache.store(*read.answer);

  clock.advance(1500ms);
  auto hit = cache.find(name("WWW.lab.test."), dns::RRType::A);
  ASSERT_TRUE(hit) << "names compare without case";
  EXPECT_EQ(hit->remaining, 500ms);
  ASSERT_EQ(hit->answer.addresses.size(), 2u);
  EXPECT_EQ(net::format_address(hit->answer.addresses[1].storage), "127.0.0.3:0");
  EXPECT_FALSE(cache.find(name("www.lab.test."), dns::RRType::AAAA));

  clock.advance(500ms);
  EXPECT_FALSE(cache.find(name("www.lab.test."), dns::RRType::A)) << "expired at exactly the TTL";
  EXPECT_EQ(cache.purge_expired(), 1u);
}

TEST(DnsCache, NegativeTtlIsTheSmallerOfSoaTtlAndMinimum) {
  struct Case {
    dns::Rcode rcode;
    std::uint32_t soa_ttl;
    std::uint32_t minimum;
    AnswerKind kind;
    std::uint32_t expected;
  };
  const Case cases[] = {
      {dns::Rcode::kNxDomain, 30, 6, AnswerKind::kNxDomain, 6},
      {dns::Rcode::kNxDomain, 3, 60, AnswerKind::kNxDomain, 3},
      {dns::Rcode::kNoError, 8, 8, AnswerKind::kNoData, 8},
      {dns::Rcode::kNoError, 0x80000001u, 5, AnswerKind::kNoData, 0},  // RFC 2181 §8: top bit set is 0
  };
  for (const auto& c : cases) {
    base::FakeClock clock;
    DnsCache cache(clock);
    auto reply = response(c.rcode);
    reply.authorities = {soa_record("lab.test.", c.soa_ttl, c.minimum)};
    auto read = read_answer(name("gone.lab.test."), dns::RRType::A, reply);
    ASSERT_TRUE(read.answer) << read.reason;
    EXPECT_EQ(read.answer->kind, c.kind);
    EXPECT_EQ(read.answer->negative_ttl, c.expected) << c.soa_ttl << " / " << c.minimum;
    cache.store(*read.answer);
    if (c.expected == 0) {
      EXPECT_FALSE(cache.find(name("gone.lab.test."), dns::RRType::A)) << "a zero TTL is never a hit";
      continue;
    }
    clock.advance(std::chrono::seconds(c.expected) - 1ms);
    auto hit = cache.find(name("gone.lab.test."), dns::RRType::A);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->answer.kind, c.kind);
    EXPECT_EQ(hit->remaining, 1ms);
    clock.advance(1ms);
    EXPECT_FALSE(cache.find(name("gone.lab.test."), dns::RRType::A));
  }
}

TEST(DnsCache, FollowsACnameChainAndTakesTheSmallestTtlOfIt) {
  auto reply = response(dns::Rcode::kNoError);
  dns::ResourceRecord cname{name("app.lab.test."), dns::RRType::CNAME, dns::RRClass::IN, 1,
                            name("www.lab.test.").wire()};
  reply.answers = {cname, a_record("www.lab.test.", 30, 2)};
  auto read = read_answer(name("app.lab.test."), dns::RRType::A, reply);
  ASSERT_TRUE(read.answer) << read.reason;
  EXPECT_EQ(read.answer->canonical.to_text(), "www.lab.test.");
  EXPECT_EQ(read.answer->ttl, 1u);
  ASSERT_EQ(read.answer->addresses.size(), 1u);
}

TEST(DnsCache, NegativeAnswersWithoutSoaAndFailuresAreNotCached) {
  auto nxdomain = response(dns::Rcode::kNxDomain);
  auto read = read_answer(name("gone.lab.test."), dns::RRType::A, nxdomain);
  EXPECT_FALSE(read.answer);
  EXPECT_NE(read.reason.find("RFC 2308"), std::string::npos) << read.reason;

  auto servfail = response(dns::Rcode::kServFail);
  read = read_answer(name("www.lab.test."), dns::RRType::A, servfail);
  EXPECT_FALSE(read.answer);
  EXPECT_EQ(read.reason, "SERVFAIL");

  auto unrelated_soa = response(dns::Rcode::kNxDomain);
  unrelated_soa.authorities = {soa_record("other.test.", 30, 30)};
  EXPECT_FALSE(read_answer(name("gone.lab.test."), dns::RRType::A, unrelated_soa).answer)
      << "an SOA of a zone that does not enclose the name says nothing about it";
}

TEST(DnsCache, EveryStoreHasANewGeneration) {
  base::FakeClock clock;
  DnsCache cache(clock);
  auto reply = response(dns::Rcode::kNoError);
  reply.answers = {a_record("www.lab.test.", 2, 2)};
  auto first = cache.store(*read_answer(name("www.lab.test."), dns::RRType::A, reply).answer).generation;
  auto second = cache.store(*read_answer(name("www.lab.test."), dns::RRType::A, reply).answer).generation;
  EXPECT_GT(second, first);
  EXPECT_EQ(cache.size(), 1u) << "the second replaced the first";
}

}  // namespace
}  // namespace cutover::client
