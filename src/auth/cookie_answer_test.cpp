// DNS Cookies and Extended DNS Errors in the engine: both answer paths give the same bytes
// with a cookie, BADCOOKIE only over UDP when cookies are required, FORMERR for malformed
// options, and the error rcodes carry an Extended DNS Error when the query had an OPT.
#include <gtest/gtest.h>

#include "auth/engine.h"
#include "auth/test_support.h"
#include "dns/edns_options.h"

namespace cutover::auth {
namespace {

using dns::RRType;
using testing::find_option;
using testing::make_query;
using testing::query_with_options;
using testing::make_zone;

const std::array<std::uint8_t, 4> kClient = {127, 0, 0, 1};

dns::EdnsOption cookie(std::vector<std::uint8_t> data) { return {dns::kCookieOption, std::move(data)}; }

const std::vector<std::uint8_t> kClientCookie = {1, 2, 3, 4, 5, 6, 7, 8};

class CookieAnswerTest : public ::testing::Test {
 protected:
  ZoneSet zones_{{make_zone("flat.test.", {"flat.test. 3600 SOA ns1.flat.test. hostmaster.flat.test. 1 7200 900 1209600 300",
                                           "flat.test. 3600 NS ns1.flat.test.", "ns1.flat.test. 3600 A 192.0.2.53",
                                           "www.flat.test. 300 A 192.0.2.1", "alias.flat.test. 300 CNAME www.flat.test."})}};
  dns::CookieSecrets secrets_{{dns::CookieSecret{1, 2, 3}}, false};
  ClientContext client_{kClient, &secrets_, 1'700'000'000};

  // Answers through both paths, checks they agree byte for byte, and parses the answer.
  dns::Message ask(const std::vector<std::uint8_t>& query, Transport transport = Transport::kUdp,
                   bool* fast = nullptr) {
    std::vector<std::uint8_t> first, general;
    QueryOutcome outcome = answer_query(zones_, query, transport, first, true, &client_);
    answer_query_general(zones_, query, transport, general, nullptr, &client_);
    EXPECT_EQ(first, general);
    if (fast != nullptr) *fast = outcome.fast_path;
    auto parsed = dns::parse_message(first);
    EXPECT_TRUE(parsed.ok());
    return parsed.ok() ? *parsed : dns::Message{};
  }
};

TEST_F(CookieAnswerTest, ClientCookieGetsAServerCookieOnTheFastPath) {
  bool fast = false;
  auto answer = ask(query_with_options("www.flat.test.", RRType::A, {cookie(kClientCookie)}), Transport::kUdp, &fast);
  EXPECT_TRUE(fast);
  EXPECT_EQ(answer.header.rcode, 0);
  EXPECT_EQ(answer.answers.size(), 1u);
  const auto* reply = find_option(answer, dns::kCookieOption);
  ASSERT_NE(reply, nullptr);
  ASSERT_EQ(reply->data.size(), dns::kCookieReplySize);
  EXPECT_TRUE(std::equal(kClientCookie.begin(), kClientCookie.end(), reply->data.begin()));

  // Sent back, it is valid and echoed.
  auto again = ask(query_with_options("www.flat.test.", RRType::A, {cookie(reply->data)}), Transport::kUdp, &fast);
  EXPECT_TRUE(fast);
  const auto* echoed = find_option(again, dns::kCookieOption);
  ASSERT_NE(echoed, nullptr);
  EXPECT_EQ(echoed->data, reply->data);
}

TEST_F(CookieAnswerTest, EveryShapeMatchesTheGeneralPath) {
  auto first = ask(query_with_options("www.flat.test.", RRType::A, {cookie(kClientCookie)}));
  auto server = find_option(first, dns::kCookieOption)->data;
  for (const char* name : {"www.flat.test.", "nothing.flat.test.", "flat.test.", "alias.flat.test.", "elsewhere.example."}) {
    for (RRType type : {RRType::A, RRType::AAAA, RRType::NS, RRType::SOA}) {
      for (const auto& data : {kClientCookie, server}) {
        for (Transport transport : {Transport::kUdp, Transport::kTcp}) {
          auto answer = ask(query_with_options(name, type, {cookie(data)}), transport);
          EXPECT_NE(find_option(answer, dns::kCookieOption), nullptr) << name;
        }
      }
    }
  }
}

TEST_F(CookieAnswerTest, CachedCookiesMatchTheGeneralPathToo) {
  secrets_.generation = 7;  // as the server publishes them: the thread's cookie cache is used
  auto first = ask(query_with_options("www.flat.test.", RRType::A, {cookie(kClientCookie)}));
  auto server = find_option(first, dns::kCookieOption)->data;
  for (int i = 0; i < 3; ++i) {
    bool fast = false;
    auto again = ask(query_with_options("www.flat.test.", RRType::A, {cookie(server)}), Transport::kUdp, &fast);
    EXPECT_TRUE(fast);
    EXPECT_EQ(find_option(again, dns::kCookieOption)->data, server);
    auto referral = ask(query_with_options("nothing.flat.test.", RRType::NS, {cookie(server)}));
    EXPECT_EQ(find_option(referral, dns::kCookieOption)->data, server);
  }
}

TEST_F(CookieAnswerTest, WithoutSecretsTheOptionIsIgnored) {
  client_.cookies = nullptr;
  auto answer = ask(query_with_options("www.flat.test.", RRType::A, {cookie(kClientCookie)}));
  EXPECT_EQ(answer.answers.size(), 1u);
  EXPECT_EQ(find_option(answer, dns::kCookieOption), nullptr);
}

TEST_F(CookieAnswerTest, RequiredCookiesAnswerBadCookieOverUdpOnly) {
  secrets_.require = true;
  auto udp = ask(query_with_options("www.flat.test.", RRType::A, {cookie(kClientCookie)}));
  EXPECT_EQ((udp.edns->extended_rcode << 4) | udp.header.rcode, static_cast<int>(dns::Rcode::kBadCookie));
  EXPECT_TRUE(udp.answers.empty());
  const auto* reply = find_option(udp, dns::kCookieOption);
  ASSERT_NE(reply, nullptr);  // the cookie to retry with (RFC 7873 §5.2.3)
  auto retry = ask(query_with_options("www.flat.test.", RRType::A, {cookie(reply->data)}));
  EXPECT_EQ(retry.header.rcode, 0);
  EXPECT_EQ(retry.answers.size(), 1u);
  auto tcp = ask(query_with_options("www.flat.test.", RRType::A, {cookie(kClientCookie)}), Transport::kTcp);
  EXPECT_EQ(tcp.header.rcode, 0);
  EXPECT_EQ(tcp.answers.size(), 1u);
  // A query without any cookie is answered as always.
  EXPECT_EQ(ask(make_query("www.flat.test.", RRType::A, true)).answers.size(), 1u);
}

TEST_F(CookieAnswerTest, MalformedOrRepeatedCookieIsFormErr) {
  for (const auto& options : std::vector<std::vector<dns::EdnsOption>>{
           {cookie({1, 2, 3})}, {cookie(std::vector<std::uint8_t>(12, 1))}, {cookie(kClientCookie), cookie(kClientCookie)}}) {
    auto answer = ask(query_with_options("www.flat.test.", RRType::A, options));
    EXPECT_EQ(answer.header.rcode, static_cast<int>(dns::Rcode::kFormErr));
    EXPECT_NE(find_option(answer, dns::kExtendedErrorOption), nullptr);
  }
}

std::uint16_t info_code(const dns::Message& answer) {
  const auto* option = find_option(answer, dns::kExtendedErrorOption);
  if (option == nullptr || option->data.size() < 2) return 0xFFFF;
  return static_cast<std::uint16_t>(option->data[0] << 8 | option->data[1]);
}

TEST_F(CookieAnswerTest, ErrorsCarryAnExtendedError) {
  auto refused = ask(make_query("elsewhere.example.", RRType::A, true));
  EXPECT_EQ(refused.header.rcode, static_cast<int>(dns::Rcode::kRefused));
  EXPECT_EQ(info_code(refused), static_cast<std::uint16_t>(dns::ExtendedError::kNotAuthoritative));
  auto maila = ask(make_query("www.flat.test.", RRType::MAILA, true));
  EXPECT_EQ(maila.header.rcode, static_cast<int>(dns::Rcode::kNotImp));
  EXPECT_EQ(info_code(maila), static_cast<std::uint16_t>(dns::ExtendedError::kNotSupported));
  auto axfr = ask(make_query("flat.test.", RRType::AXFR, true), Transport::kTcp);
  EXPECT_EQ(axfr.header.rcode, static_cast<int>(dns::Rcode::kRefused));
  EXPECT_EQ(info_code(axfr), static_cast<std::uint16_t>(dns::ExtendedError::kProhibited));
  auto notify = make_query("flat.test.", RRType::SOA, true);
  notify[2] = static_cast<std::uint8_t>((notify[2] & 0x87) | (4 << 3));  // opcode NOTIFY
  auto notimp = ask(notify);
  EXPECT_EQ(notimp.header.rcode, static_cast<int>(dns::Rcode::kNotImp));
  EXPECT_EQ(info_code(notimp), static_cast<std::uint16_t>(dns::ExtendedError::kNotSupported));
  // TYPE0 is reserved, not meta: NODATA, as BIND answers it.
  auto type0 = ask(make_query("www.flat.test.", static_cast<RRType>(0), true));
  EXPECT_EQ(type0.header.rcode, 0);
  EXPECT_TRUE(type0.answers.empty());
  EXPECT_EQ(type0.authorities.size(), 1u);
  // Without an OPT in the query there is none in the answer (RFC 8914 §3).
  auto plain = ask(make_query("elsewhere.example.", RRType::A));
  EXPECT_FALSE(plain.edns.has_value());
}

}  // namespace
}  // namespace cutover::auth
