// The stub resolver against a real UDP peer on loopback, with the cache on a FakeClock: what
// is asked, in which order (search list, ndots), what the cache answers and when it asks
// again (record TTL, RFC 2308 negative TTL), and nameserver failover.
#include <gtest/gtest.h>

#include "client/client_test_support.h"
#include "client/stub_resolver.h"

namespace cutover::client {
namespace {

using namespace std::chrono_literals;
using testing::UdpDnsPeer;

dns::Name name(const std::string& text) { return *dns::Name::from_text(text); }

// The lab zone: www.lab.test A 127.0.0.2 (TTL 2), no AAAA (NODATA); SOA TTL 60, MINIMUM 1;
// everything else NXDOMAIN.
std::vector<dns::Message> lab_zone(const dns::Message& request) {
  dns::Message reply = testing::authoritative_reply(request);
  const auto& question = request.questions[0];
  dns::ResourceRecord soa_record = testing::soa_record("lab.test.", 60, 1);
  if (question.name == name("www.lab.test.")) {
    if (question.type == dns::RRType::A) {
      reply.answers.push_back({question.name, dns::RRType::A, dns::RRClass::IN, 2, {127, 0, 0, 2}});
    } else {
      reply.authorities.push_back(soa_record);
    }
  } else {
    reply.header.rcode = static_cast<std::uint8_t>(dns::Rcode::kNxDomain);
    if (question.name.is_subdomain_of(name("lab.test."))) reply.authorities.push_back(soa_record);
  }
  return {reply};
}

ResolverConfig config_for(const std::string& text) {
  auto config = parse_resolv_conf(text, "test");
  EXPECT_TRUE(config) << config.error().message;
  config->timeout = 1000ms;
  return *config;
}

std::vector<std::string> texts(const std::vector<dns::Name>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(n.to_text());
  return out;
}

TEST(SearchCandidates, FollowNdotsAndTheSearchList) {
  ResolverConfig one_dot = config_for("search a.test b.test\n");
  ResolverConfig five_dots = config_for("search a.test\noptions ndots:5\n");
  struct Case {
    const char* host;
    const ResolverConfig* config;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"www", &one_dot, {"www.a.test.", "www.b.test.", "www."}},
      {"www.lab.test", &one_dot, {"www.lab.test.", "www.lab.test.a.test.", "www.lab.test.b.test."}},
      {"www.lab.test.", &one_dot, {"www.lab.test."}},
      {"www.lab.test", &five_dots, {"www.lab.test.a.test.", "www.lab.test."}},
  };
  for (const auto& c : cases) {
    auto names = search_candidates(c.host, *c.config);
    ASSERT_TRUE(names) << c.host;
    EXPECT_EQ(texts(*names), c.expected) << c.host;
  }
  EXPECT_FALSE(search_candidates("bad..name", one_dot));
  EXPECT_FALSE(search_candidates("", one_dot));
}

TEST(StubResolver, AnswersFromTheCacheUntilEachTtlRunsOut) {
  UdpDnsPeer peer(lab_zone);
  base::FakeClock clock;
  std::vector<std::string> trace;
  StubResolver resolver(config_for("nameserver " + peer.address() + "\n"), clock,
                        [&trace](const std::string& line) { trace.push_back(line); });

  Resolution first = resolver.resolve("www.lab.test");
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_EQ(peer.queries(), 2) << "A and AAAA";
  ASSERT_TRUE(first.a.answer && first.aaaa.answer);
  EXPECT_EQ(first.a.answer->ttl, 2u);
  EXPECT_EQ(first.aaaa.answer->kind, AnswerKind::kNoData);
  EXPECT_EQ(first.aaaa.answer->negative_ttl, 1u) << "min(SOA TTL 60, MINIMUM 1)";
  EXPECT_EQ(format_hosts(first.a.answer->addresses), "127.0.0.2");
  EXPECT_FALSE(first.a.from_cache);

  clock.advance(999ms);
  Resolution cached = resolver.resolve("www.lab.test");
  EXPECT_EQ(peer.queries(), 2) << "both families from the cache";
  EXPECT_TRUE(cached.a.from_cache && cached.aaaa.from_cache);
  EXPECT_EQ(cached.a.remaining, 1001ms);
  EXPECT_EQ(cached.aaaa.remaining, 1ms);
  EXPECT_EQ(cached.generations(), first.generations()) << "nothing was refreshed";

  clock.advance(1ms);
  Resolution negative_expired = resolver.resolve("www.lab.test");
  EXPECT_EQ(peer.queries(), 3) << "the negative entry expired after 1 s; the A entry lives";
  EXPECT_TRUE(negative_expired.a.from_cache);
  EXPECT_FALSE(negative_expired.aaaa.from_cache);

  clock.advance(1000ms);
  Resolution refreshed = resolver.resolve("www.lab.test");
  EXPECT_EQ(peer.queries(), 5);
  EXPECT_NE(refreshed.generations().second, first.generations().second) << "the A entry was refreshed";

  bool saw_hit = false;
  bool saw_negative = false;
  for (const auto& line : trace) {
    saw_hit = saw_hit || line.rfind("cache hit www.lab.test. A: 127.0.0.2 ttl 2 s, 1.001 s left", 0) == 0;
    saw_negative = saw_negative || line.find("NODATA, negative ttl 1 s") != std::string::npos;
  }
  EXPECT_TRUE(saw_hit) << "the trace says what the cache answered and how long it has left";
  EXPECT_TRUE(saw_negative);
}

TEST(StubResolver, WalksTheSearchListPastNxdomain) {
  UdpDnsPeer peer(lab_zone);
  base::FakeClock clock;
  StubResolver resolver(config_for("nameserver " + peer.address() + "\nsearch other.test lab.test\n"), clock);
  Resolution resolution = resolver.resolve("www");
  ASSERT_TRUE(resolution.ok()) << resolution.error;
  EXPECT_EQ(resolution.name->to_text(), "www.lab.test.");
  auto asked = peer.questions();
  ASSERT_EQ(asked.size(), 4u);
  // The two families of one candidate go out together, so their order is not fixed.
  EXPECT_EQ(asked[0].substr(0, 15), "www.other.test.");
  EXPECT_EQ(asked[1].substr(0, 15), "www.other.test.");
  EXPECT_EQ(asked[2].substr(0, 13), "www.lab.test.");
}

TEST(StubResolver, ReportsNxdomainWhenNoCandidateExists) {
  UdpDnsPeer peer(lab_zone);
  base::FakeClock clock;
  StubResolver resolver(config_for("nameserver " + peer.address() + "\n"), clock);
  Resolution resolution = resolver.resolve("gone.lab.test");
  EXPECT_FALSE(resolution.ok());
  EXPECT_NE(resolution.error.find("NXDOMAIN"), std::string::npos) << resolution.error;
  ASSERT_TRUE(resolution.a.answer);
  EXPECT_EQ(resolution.a.answer->negative_ttl, 1u);
  int before = peer.queries();
  EXPECT_FALSE(resolver.resolve("gone.lab.test").ok());
  EXPECT_EQ(peer.queries(), before) << "the NXDOMAIN is cached for its negative TTL";
}

TEST(StubResolver, MovesToTheNextNameserverWhenOneFails) {
  UdpDnsPeer silent([](const dns::Message&) { return std::vector<dns::Message>{}; });
  UdpDnsPeer peer(lab_zone);
  base::FakeClock clock;
  auto config = config_for("nameserver " + silent.address() + "\nnameserver " + peer.address() + "\noptions attempts:1\n");
  config.timeout = 100ms;  // the silent server costs one timeout per family
  StubResolver resolver(config, clock);
  Resolution resolution = resolver.resolve("www.lab.test");
  ASSERT_TRUE(resolution.ok()) << resolution.error;
  EXPECT_EQ(silent.queries(), 2);
  EXPECT_EQ(peer.queries(), 2);
}

}  // namespace
}  // namespace cutover::client
