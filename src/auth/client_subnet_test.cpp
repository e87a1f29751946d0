// Steering by client network in the engine, and EDNS Client Subnet (RFC 7871): a steered name
// is answered by the source address on both paths alike; a trusted resolver's ECS option
// decides instead and is echoed with the scope the answer holds for; from anyone else the
// option is ignored; a malformed or repeated option from a trusted resolver is FORMERR.
#include <gtest/gtest.h>

#include "auth/dynamic_answers.h"
#include "auth/engine.h"
#include "auth/test_support.h"
#include "dns/edns_options.h"

namespace cutover::auth {
namespace {

using dns::RRType;
using testing::find_option;
using testing::make_query;
using testing::make_zone;
using Bytes = std::vector<std::uint8_t>;

dns::Rdata v4(std::uint8_t last) { return dns::Rdata{192, 0, 2, last}; }

DynamicFamily fixed(std::vector<dns::Rdata> rdatas) {
  DynamicFamily family;
  family.type = RRType::A;
  family.fixed = zone::RRset(RRType::A, 30);
  family.fixed.order = zone::RRsetOrder::kCyclic;
  family.fixed.rdatas = zone::RdataList(rdatas);
  return family;
}

base::NetworkTable networks() {
  base::NetworkTable table;
  EXPECT_TRUE(table.add(*base::parse_network_prefix("10.1.0.0/16"), 0).ok());   // eu
  EXPECT_TRUE(table.add(*base::parse_network_prefix("10.2.0.0/16"), 1).ok());   // us
  EXPECT_TRUE(table.add(*base::parse_network_prefix("127.0.0.2/32"), 0).ok());  // eu
  EXPECT_TRUE(table.add(*base::parse_network_prefix("2001:db8::/32"), 1).ok());
  return table;
}

base::NetworkTable trusted() {
  base::NetworkTable table;
  EXPECT_TRUE(table.add(*base::parse_network_prefix("127.0.0.0/8"), 0).ok());
  return table;
}

// ECS option data: family, source prefix, scope 0, the address cut to the prefix (RFC 7871 §6).
dns::EdnsOption ecs(std::uint16_t family, std::uint8_t source, Bytes address, std::uint8_t scope = 0) {
  Bytes data = {static_cast<std::uint8_t>(family >> 8), static_cast<std::uint8_t>(family), source, scope};
  address.resize((source + 7) / 8);
  data.insert(data.end(), address.begin(), address.end());
  return {dns::kClientSubnetOption, data};
}

Bytes query_with(std::vector<dns::EdnsOption> options, RRType type = RRType::A,
                 const std::string& name = "app.steer.test.") {
  return testing::query_with_options(name, type, std::move(options));
}

class ClientSubnetTest : public ::testing::Test {
 protected:
  ClientSubnetTest()
      : zones_({make_zone("steer.test.", {"steer.test. 300 SOA ns.steer.test. admin.steer.test. 1 3600 600 86400 60",
                                          "steer.test. 300 NS ns.steer.test.", "ns.steer.test. 300 A 192.0.2.53"})}) {
    DynamicAnswer entry;
    entry.source = "app";
    entry.owner = *dns::Name::from_text("app.steer.test.");
    entry.ttl = 30;
    entry.counters = std::make_shared<AnswerCounters>();
    entry.networks = std::make_shared<const base::NetworkTable>(networks());
    DynamicGroup eu{"eu", fixed({v4(1)}), {}, {}};
    DynamicGroup us{"us", fixed({v4(2)}), {}, {}};
    eu.aaaa.type = us.aaaa.type = RRType::AAAA;
    entry.groups = {eu, us};
    entry.default_group = 1;
    entry.a = us.a;
    entry.aaaa = us.aaaa;
    dynamic_ = std::make_shared<const DynamicAnswers>(std::vector<DynamicAnswer>{entry});
  }

  // Answers from `source` through both paths, checks they agree byte for byte, and parses.
  dns::Message ask(const Bytes& query, std::array<std::uint8_t, 4> source, bool* fast = nullptr, bool trust = true) {
    ClientContext client{source, nullptr, 0, trust ? &trust_ : nullptr};
    Bytes first, general;
    QueryOutcome outcome = answer_query(zones_, dynamic_.get(), query, Transport::kUdp, first, true, &client);
    answer_query_general(zones_, query, Transport::kUdp, general, dynamic_.get(), &client);
    EXPECT_EQ(first, general);
    if (fast != nullptr) *fast = outcome.fast_path;
    auto parsed = dns::parse_message(first);
    EXPECT_TRUE(parsed.ok());
    return parsed.ok() ? *parsed : dns::Message{};
  }

  static std::uint8_t last_octet(const dns::Message& reply) {
    EXPECT_EQ(reply.answers.size(), 1u);
    return reply.answers.empty() ? 0 : reply.answers[0].rdata.back();
  }

  ZoneSet zones_;
  std::shared_ptr<const DynamicAnswers> dynamic_;
  base::NetworkTable trust_ = trusted();
};

TEST_F(ClientSubnetTest, TheSourceAddressSteersOnBothPaths) {
  bool fast = false;
  EXPECT_EQ(last_octet(ask(make_query("app.steer.test.", RRType::A), {127, 0, 0, 2}, &fast)), 1);  // eu
  EXPECT_TRUE(fast);
  EXPECT_EQ(last_octet(ask(make_query("app.steer.test.", RRType::A, true), {127, 0, 0, 3}, &fast)), 2);  // default
  EXPECT_TRUE(fast);
  dns::Message plain = ask(make_query("app.steer.test.", RRType::A, true), {127, 0, 0, 2});
  EXPECT_EQ(find_option(plain, dns::kClientSubnetOption), nullptr);  // none asked, none sent
}

TEST_F(ClientSubnetTest, ATrustedResolversSubnetSteersAndIsEchoedWithItsScope) {
  bool fast = true;
  // 10.1.2.0/24 from the resolver 127.0.0.3 (which itself would be answered us): eu.
  dns::Message reply = ask(query_with({ecs(1, 24, {10, 1, 2, 0})}), {127, 0, 0, 3}, &fast);
  EXPECT_TRUE(fast);  // the fast path reads ECS too, byte for byte as the general one
  EXPECT_EQ(last_octet(reply), 1);
  const dns::EdnsOption* echoed = find_option(reply, dns::kClientSubnetOption);
  ASSERT_NE(echoed, nullptr);
  ASSERT_EQ(echoed->data.size(), 4u + 3u);
  EXPECT_EQ(echoed->data[2], 24);  // SOURCE PREFIX-LENGTH as asked
  EXPECT_EQ(echoed->data[3], 16);  // SCOPE: the whole 10.1.0.0/16 gets this answer
  EXPECT_EQ(Bytes(echoed->data.begin() + 4, echoed->data.end()), (Bytes{10, 1, 2}));

  EXPECT_EQ(last_octet(ask(query_with({ecs(1, 24, {10, 2, 7, 0})}), {127, 0, 0, 2})), 2);  // us, not the resolver's eu
  // IPv6 client networks steer too.
  EXPECT_EQ(last_octet(ask(query_with({ecs(2, 48, {0x20, 0x01, 0x0d, 0xb8, 0, 1})}), {127, 0, 0, 2})), 2);
}

TEST_F(ClientSubnetTest, SourceZeroAndUnsteeredNamesAreScopeZero) {
  // /0: the resolver asks for no tailoring (RFC 7871 §7.1.2): its own address steers, scope 0.
  dns::Message zero = ask(query_with({ecs(1, 0, {})}), {127, 0, 0, 2});
  EXPECT_EQ(last_octet(zero), 1);
  const dns::EdnsOption* echoed = find_option(zero, dns::kClientSubnetOption);
  ASSERT_NE(echoed, nullptr);
  EXPECT_EQ(echoed->data, (Bytes{0, 1, 0, 0}));
  // A zone name is the same for every client: scope 0.
  dns::Message ns = ask(query_with({ecs(1, 24, {10, 1, 2, 0})}, RRType::A, "ns.steer.test."), {127, 0, 0, 2});
  ASSERT_EQ(ns.answers.size(), 1u);
  echoed = find_option(ns, dns::kClientSubnetOption);
  ASSERT_NE(echoed, nullptr);
  EXPECT_EQ(echoed->data[3], 0);
}

TEST_F(ClientSubnetTest, BothPathsAgreeOnEveryShapeOfOption) {
  bool fast = false;
  // NODATA and NXDOMAIN carry the echo too: scope of the steered name's choice, 0 elsewhere.
  dns::Message nodata = ask(query_with({ecs(1, 24, {10, 1, 2, 0})}, RRType::MX), {127, 0, 0, 2});
  ASSERT_NE(find_option(nodata, dns::kClientSubnetOption), nullptr);
  EXPECT_EQ(find_option(nodata, dns::kClientSubnetOption)->data[3], 16);
  dns::Message nxdomain = ask(query_with({ecs(1, 24, {10, 1, 2, 0})}, RRType::A, "absent.steer.test."), {127, 0, 0, 2});
  EXPECT_EQ(nxdomain.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNxDomain));
  ASSERT_NE(find_option(nxdomain, dns::kClientSubnetOption), nullptr);
  EXPECT_EQ(find_option(nxdomain, dns::kClientSubnetOption)->data[3], 0);
  // Untrusted (both paths ignore it), with a cookie beside it (the general path), odd lengths.
  ask(query_with({ecs(1, 24, {10, 1, 2, 0})}), {192, 0, 2, 77});
  ask(query_with({ecs(1, 24, {10, 1, 2, 0})}), {127, 0, 0, 2}, nullptr, false);
  ask(query_with({{dns::kCookieOption, {1, 2, 3, 4, 5, 6, 7, 8}}, ecs(1, 24, {10, 1, 2, 0})}), {127, 0, 0, 2});
  ask(query_with({ecs(2, 128, Bytes(16, 0x20))}), {127, 0, 0, 2});
  // Every length an IPv4 ADDRESS can have (the fast path reads the option, which ends the
  // packet, as one word ending there): the same bytes as the general path, echo included.
  struct Shape {
    std::uint8_t source;
    Bytes address;
    std::uint8_t group_octet;  // v4(1): eu (10.1/16), v4(2): us (10.2/16)
  };
  for (const auto& shape : std::vector<Shape>{{7, {10}, 2},  // 10.0.0.0/7 is no region: the default (us)
                                              {8, {10}, 2},
                                              {16, {10, 2}, 2},
                                              {20, {10, 1, 0x30}, 1},
                                              {25, {10, 1, 2, 0x80}, 1},
                                              {32, {10, 2, 3, 4}, 2}}) {
    dns::Message steered = ask(query_with({ecs(1, shape.source, shape.address)}), {127, 0, 0, 2}, &fast);
    EXPECT_TRUE(fast) << int{shape.source};
    EXPECT_EQ(last_octet(steered), shape.group_octet) << int{shape.source};
    const dns::EdnsOption* echo = find_option(steered, dns::kClientSubnetOption);
    ASSERT_NE(echo, nullptr);
    EXPECT_EQ(Bytes(echo->data.begin() + 4, echo->data.end()), shape.address) << int{shape.source};
  }
  dns::Message source_zero = ask(query_with({ecs(1, 0, {})}), {127, 0, 0, 2}, &fast);
  EXPECT_TRUE(fast);
  ASSERT_NE(find_option(source_zero, dns::kClientSubnetOption), nullptr);
  EXPECT_EQ(find_option(source_zero, dns::kClientSubnetOption)->data.size(), 4u);
  for (const auto& data : std::vector<Bytes>{{}, {0, 1}, {0, 1, 0}, Bytes(21, 0)}) {
    dns::Message odd = ask(query_with({{dns::kClientSubnetOption, data}}), {127, 0, 0, 2});
    EXPECT_EQ(odd.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kFormErr)) << data.size();
  }
  // DO is copied beside the echo.
  auto parsed = dns::parse_message(query_with({ecs(1, 24, {10, 1, 2, 0})}));
  parsed->edns->dnssec_ok = true;
  dns::Message with_do = ask(dns::encode_message(*parsed), {127, 0, 0, 2}, &fast);
  EXPECT_TRUE(fast);
  EXPECT_TRUE(with_do.edns->dnssec_ok);
}

TEST_F(ClientSubnetTest, AnUntrustedSendersOptionIsIgnored) {
  const std::array<std::uint8_t, 4> outside = {192, 0, 2, 77};
  ClientContext client{outside, nullptr, 0, &trust_};
  Bytes response;
  answer_query(zones_, dynamic_.get(), query_with({ecs(1, 24, {10, 1, 2, 0})}), Transport::kUdp, response, true, &client);
  auto reply = dns::parse_message(response);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(last_octet(*reply), 2);  // the source address (default), not the option's eu
  EXPECT_EQ(find_option(*reply, dns::kClientSubnetOption), nullptr);
  // ...even a malformed one, as a server without ECS would.
  answer_query(zones_, dynamic_.get(), query_with({ecs(1, 33, {10, 1, 2, 0, 0})}), Transport::kUdp, response, true, &client);
  reply = dns::parse_message(response);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->header.rcode, 0);
  // No trust table at all: ignored too.
  const std::array<std::uint8_t, 4> loopback = {127, 0, 0, 3};
  ClientContext none{loopback, nullptr, 0, nullptr};
  answer_query(zones_, dynamic_.get(), query_with({ecs(1, 24, {10, 1, 2, 0})}), Transport::kUdp, response, true, &none);
  reply = dns::parse_message(response);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(last_octet(*reply), 2);
}

TEST_F(ClientSubnetTest, MalformedOrRepeatedFromATrustedResolverIsFormErr) {
  Bytes bits_past_source = {0, 1, 20, 0, 10, 1, 0xff};
  for (const auto& options : std::vector<std::vector<dns::EdnsOption>>{
           {ecs(1, 33, {10, 1, 2, 0, 0})},                          // prefix longer than IPv4
           {ecs(3, 8, {10})},                                        // unknown family
           {ecs(1, 24, {10, 1, 2}, 8)},                              // scope set in a query
           {{dns::kClientSubnetOption, {0, 1, 24, 0, 10, 1}}},       // address shorter than the prefix
           {{dns::kClientSubnetOption, bits_past_source}},           // bits past the prefix
           {ecs(1, 24, {10, 1, 2, 0}), ecs(1, 24, {10, 2, 2, 0})},  // twice
       }) {
    dns::Message reply = ask(query_with(options), {127, 0, 0, 2});
    EXPECT_EQ(reply.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kFormErr));
    EXPECT_TRUE(reply.answers.empty());
  }
}

}  // namespace
}  // namespace cutover::auth
