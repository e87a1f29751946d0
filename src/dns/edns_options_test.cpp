// DNS Cookies, Extended DNS Errors and Client Subnet: SipHash and RFC 9018 vectors, RFC 7873
// §5.2's verdicts for every shape of COOKIE option, and RFC 7871 §6's rules for ECS.
#include "dns/edns_options.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "dns/base_encoding.h"

namespace cutover::dns {
namespace {

std::vector<std::uint8_t> hex(std::string_view text) {
  std::vector<std::uint8_t> bytes;
  EXPECT_TRUE(hex_decode(text, bytes)) << text;
  return bytes;
}

CookieSecret secret_from(std::string_view text) {
  auto bytes = hex(text);
  CookieSecret secret{};
  std::copy(bytes.begin(), bytes.end(), secret.begin());
  return secret;
}

const std::array<std::uint8_t, 4> kClient = {198, 51, 100, 100};

TEST(SipHash, MatchesTheReferenceVector) {
  // The SipHash paper's example: key 00..0f, message 00..0e.
  CookieSecret key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  std::vector<std::uint8_t> message(15);
  for (std::size_t i = 0; i < message.size(); ++i) message[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(siphash24(key, message), 0xa129ca6149be45e5ULL);
}

TEST(ServerCookie, MatchesRfc9018AppendixA) {
  // RFC 9018 A.1: a client learning a new server cookie.
  auto client_cookie = hex("2464c4abcf10c957");
  std::array<std::uint8_t, kServerCookieSize> out{};
  make_server_cookie(secret_from("e5e973e5a6b2a43f48e7dc849e37bfcf"),
                     std::span<const std::uint8_t, kClientCookieSize>(client_cookie.data(), kClientCookieSize), kClient,
                     1559731985, out);
  EXPECT_EQ(hex_encode(out), "010000005CF79F111F8130C3EEE29480");
}

class AnswerCookieTest : public ::testing::Test {
 protected:
  CookieSecrets secrets_{{secret_from("e5e973e5a6b2a43f48e7dc849e37bfcf")}, false};
  std::uint32_t now_ = 1'700'000'000;
  std::vector<std::uint8_t> client_cookie_ = hex("0102030405060708");

  CookieAnswer ask(const std::vector<std::uint8_t>& data, std::uint32_t at) {
    return answer_cookie(secrets_, data, kClient, at);
  }
  std::vector<std::uint8_t> fresh() {
    auto answer = ask(client_cookie_, now_);
    return {answer.reply.begin(), answer.reply.end()};
  }
};

TEST_F(AnswerCookieTest, MalformedLengthsAreFormErr) {
  for (std::size_t size : {0u, 1u, 7u, 9u, 15u, 41u, 60u}) {
    EXPECT_EQ(ask(std::vector<std::uint8_t>(size, 7), now_).verdict, CookieVerdict::kMalformed) << size;
  }
}

TEST_F(AnswerCookieTest, ClientCookieAloneGetsANewServerCookie) {
  auto answer = ask(client_cookie_, now_);
  EXPECT_EQ(answer.verdict, CookieVerdict::kNew);
  EXPECT_TRUE(std::equal(client_cookie_.begin(), client_cookie_.end(), answer.reply.begin()));
  EXPECT_EQ(answer.reply[8], 1);  // version 1
}

TEST_F(AnswerCookieTest, TheCookieSentBackIsValidAndEchoedWhileYoung) {
  auto sent = fresh();
  auto answer = ask(sent, now_ + 100);
  EXPECT_EQ(answer.verdict, CookieVerdict::kValid);
  EXPECT_TRUE(std::equal(sent.begin(), sent.end(), answer.reply.begin()));
}

TEST_F(AnswerCookieTest, AnOldCookieIsValidButReplaced) {
  auto sent = fresh();
  auto answer = ask(sent, now_ + kCookieRefreshAge + 1);
  EXPECT_EQ(answer.verdict, CookieVerdict::kValid);
  EXPECT_FALSE(std::equal(sent.begin(), sent.end(), answer.reply.begin()));
}

TEST_F(AnswerCookieTest, ExpiredFutureTamperedOrForeignCookiesAreInvalid) {
  auto sent = fresh();
  EXPECT_EQ(ask(sent, now_ + kCookieMaxAge + 1).verdict, CookieVerdict::kNew);
  EXPECT_EQ(ask(sent, now_ - kCookieMaxAhead - 1).verdict, CookieVerdict::kNew);
  EXPECT_EQ(ask(sent, now_ - kCookieMaxAhead + 1).verdict, CookieVerdict::kValid);
  auto tampered = sent;
  tampered.back() ^= 1;
  EXPECT_EQ(ask(tampered, now_).verdict, CookieVerdict::kNew);
  std::array<std::uint8_t, 4> other = {198, 51, 100, 101};
  EXPECT_EQ(answer_cookie(secrets_, sent, other, now_).verdict, CookieVerdict::kNew);
  auto other_format = sent;
  other_format.push_back(0);  // 17-byte server cookie: not ours, so invalid, not malformed
  EXPECT_EQ(ask(other_format, now_).verdict, CookieVerdict::kNew);
}

TEST_F(AnswerCookieTest, ARotatedOutSecretIsStillAcceptedAndItsCookieReplaced) {
  auto sent = fresh();
  secrets_.secrets.insert(secrets_.secrets.begin(), secret_from("00112233445566778899aabbccddeeff"));
  auto answer = ask(sent, now_ + 10);
  EXPECT_EQ(answer.verdict, CookieVerdict::kValid);
  EXPECT_FALSE(std::equal(sent.begin(), sent.end(), answer.reply.begin()));
  std::vector<std::uint8_t> replaced(answer.reply.begin(), answer.reply.end());
  EXPECT_EQ(ask(replaced, now_ + 10).verdict, CookieVerdict::kValid);
  secrets_.secrets.pop_back();  // the old secret gone for good
  EXPECT_EQ(ask(sent, now_ + 10).verdict, CookieVerdict::kNew);
}

TEST_F(AnswerCookieTest, TheCacheAnswersExactlyAsTheHashWouldWhileTheCookieIsYoung) {
  secrets_.generation = 1;
  CookieCache cache;
  auto sent = fresh();
  std::vector<std::vector<std::uint8_t>> shapes = {client_cookie_, sent};
  auto tampered = sent;
  tampered[20] ^= 0x40;
  shapes.push_back(tampered);
  for (std::uint32_t age : {0u, 1u, 100u, kCookieRefreshAge - 1, kCookieRefreshAge, kCookieMaxAge + 1}) {
    for (const auto& data : shapes) {
      auto direct = answer_cookie(secrets_, data, kClient, now_ + age);
      std::array<std::uint8_t, kCookieReplySize> reply{};
      EXPECT_EQ(cache.answer(secrets_, data, kClient, now_ + age, reply), direct.verdict) << age;
      if (data.size() == kCookieReplySize) {
        EXPECT_EQ(reply, direct.reply) << age;  // a valid cookie is echoed, a bad one replaced
      }
      // A client cookie alone may get the cookie given earlier instead of a fresh one, but
      // always one that the hash accepts.
      std::vector<std::uint8_t> given(reply.begin(), reply.end());
      EXPECT_EQ(answer_cookie(secrets_, given, kClient, now_ + age).verdict, CookieVerdict::kValid) << age;
    }
  }
  // A new generation of secrets forgets everything: the old cookie is checked again.
  secrets_.secrets = {secret_from("00112233445566778899aabbccddeeff")};
  secrets_.generation = 2;
  std::array<std::uint8_t, kCookieReplySize> reply{};
  EXPECT_EQ(cache.answer(secrets_, sent, kClient, now_, reply), CookieVerdict::kNew);
  // Another address with the same client cookie is another client.
  secrets_.generation = 3;
  cache.answer(secrets_, client_cookie_, kClient, now_, reply);
  std::vector<std::uint8_t> mine(reply.begin(), reply.end());
  std::array<std::uint8_t, 4> other = {198, 51, 100, 101};
  EXPECT_EQ(cache.answer(secrets_, mine, other, now_, reply), CookieVerdict::kNew);
  EXPECT_EQ(cache.answer(secrets_, mine, kClient, now_, reply), CookieVerdict::kValid);
}

TEST(ExtendedError, IsCodeThenText) {
  Edns edns;
  add_extended_error(edns, ExtendedError::kNotAuthoritative, "not here");
  ASSERT_EQ(edns.options.size(), 1u);
  EXPECT_EQ(edns.options[0].code, kExtendedErrorOption);
  EXPECT_EQ(hex_encode(edns.options[0].data), "00146E6F742068657265");
}

TEST(ClientSubnet, ReadsBothFamiliesAndEchoesWithTheScope) {
  auto v4 = parse_client_subnet(hex("00011800C63364"));  // 198.51.100.0/24
  ASSERT_TRUE(v4) << v4.error().message;
  EXPECT_EQ(v4->family, 1);
  EXPECT_EQ(v4->source, 24);
  EXPECT_EQ(hex_encode(v4->bytes()), "C6336400");
  Edns edns;
  add_client_subnet(edns, *v4, 20);
  ASSERT_EQ(edns.options.size(), 1u);
  EXPECT_EQ(edns.options[0].code, kClientSubnetOption);
  EXPECT_EQ(hex_encode(edns.options[0].data), "00011814C63364");
  auto v6 = parse_client_subnet(hex("0002380020010DB8000001"));  // 2001:db8:0:1::/56
  ASSERT_TRUE(v6) << v6.error().message;
  EXPECT_EQ(v6->bytes().size(), 16u);
  auto none = parse_client_subnet(hex("00010000"));  // /0: no address octets at all
  ASSERT_TRUE(none);
  EXPECT_EQ(none->source, 0);
  auto odd = parse_client_subnet(hex("00011400C63360"));  // 198.51.96.0/20: the bits past 20 are clear
  ASSERT_TRUE(odd);
}

TEST(ClientSubnet, RefusesWhatSection6Forbids) {
  const std::pair<const char*, const char*> cases[] = {
      {"0001", "a client subnet option holds family, two prefix lengths and an address"},
      {"00031800C63364", "client subnet family is neither IPv4 (1) nor IPv6 (2)"},
      {"00012100C6336400FF", "client subnet source prefix is longer than the address"},
      {"00011818C63364", "client subnet scope prefix must be 0 in a query"},
      {"00011800C6336400", "client subnet address is not ceil(source / 8) octets long"},
      {"00011800C633", "client subnet address is not ceil(source / 8) octets long"},
      {"00011400C63364", "client subnet address has bits set past the source prefix"},
  };
  for (const auto& [data, message] : cases) {
    auto subnet = parse_client_subnet(hex(data));
    ASSERT_FALSE(subnet) << data;
    EXPECT_EQ(subnet.error().message, message) << data;
  }
}

}  // namespace
}  // namespace cutover::dns
