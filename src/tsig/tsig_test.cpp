// TSIG: a known-answer vector computed independently (python3 hmac), request verification
// outcomes, and signed multi-message responses.
#include "tsig/tsig.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "dns/base_encoding.h"
#include "dns/message.h"
#include "tsig/mac.h"

namespace cutover::tsig {
namespace {

constexpr std::uint64_t kNow = 1700000000;

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

Key test_key(Algorithm algorithm = Algorithm::kHmacSha256) {
  Key key;
  key.name = name("test-key.");
  key.algorithm = algorithm;
  EXPECT_TRUE(dns::base64_decode("c2VjcmV0LWtleS1mb3ItY3V0b3Zlci10ZXN0cw==", key.secret));  // "secret-key-for-cutover-tests"
  return key;
}

// ID 0x1234, no flags, one question: example.test. SOA IN.
std::vector<std::uint8_t> query() {
  dns::Message message;
  message.header.id = 0x1234;
  message.questions.push_back(dns::Question{name("example.test."), dns::RRType::SOA, dns::RRClass::IN});
  return dns::encode_message(message);
}

std::string hex(std::span<const std::uint8_t> bytes) {
  std::string out;
  char buffer[3];
  for (auto byte : bytes) {
    std::snprintf(buffer, sizeof buffer, "%02x", byte);
    out += buffer;
  }
  return out;
}

RequestContext verified(std::span<const std::uint8_t> request, std::uint64_t now = kNow,
                        Algorithm algorithm = Algorithm::kHmacSha256) {
  auto context = verify_request(request, KeyRing({test_key(algorithm)}), now);
  EXPECT_TRUE(context.ok());
  return context.ok() ? *context : RequestContext{};
}

// Expected MACs from python3: hmac.new(secret, msg + variables, sha256/512), where the
// variables are test-key. ANY 0 hmac-sha256. (or -sha512.) time 1700000000 fudge 300,
// error 0, no other data.
TEST(TsigKnownAnswer, RequestMacMatchesIndependentComputation) {
  auto sha256 = query();
  EXPECT_EQ(hex(sign_request(sha256, test_key(), kNow)),
            "a39736f1c0b168a7278a4c49369a695f84a031d89772b410ed4d856f914ae863");
  auto sha512 = query();
  EXPECT_EQ(hex(sign_request(sha512, test_key(Algorithm::kHmacSha512), kNow)),
            "cd0bde1b3027c36aca96f0345153d430a642f5c4bc3458dde2ff9093d520a1bf"
            "3c4e9a3c4842edf095ede693092e9ffb5931abedff9aea70eb6d0b0d29ac5469");
}

TEST(TsigRecordCodec, AppendedRecordLocatesAndStripsBackToTheOriginal) {
  auto original = query();
  auto signed_request = original;
  sign_request(signed_request, test_key(), kNow);
  auto located = locate_tsig(signed_request);
  ASSERT_TRUE(located.ok());
  ASSERT_TRUE(located->has_value());
  EXPECT_EQ((*located)->offset, original.size());
  EXPECT_EQ((*located)->record.fudge, kDefaultFudge);
  EXPECT_EQ((*located)->record.original_id, 0x1234);
  EXPECT_EQ(strip_tsig(signed_request, **located), original);
  auto parsed = dns::parse_message(signed_request);  // still an ordinary message to the parser
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->header.arcount, 1);
}

TEST(TsigVerify, ValidRequestsWithBothAlgorithms) {
  for (auto algorithm : {Algorithm::kHmacSha256, Algorithm::kHmacSha512}) {
    auto request = query();
    sign_request(request, test_key(algorithm), kNow);
    RequestContext context = verified(request, kNow + 10, algorithm);
    EXPECT_TRUE(context.valid());
    ASSERT_TRUE(context.key.has_value());
    EXPECT_EQ(context.key->algorithm, algorithm);
  }
}

TEST(TsigVerify, UnsignedRequestIsNotAnError) {
  RequestContext context = verified(query());
  EXPECT_FALSE(context.signed_request);
  EXPECT_FALSE(context.failed());
  auto response = query();
  ResponseSigner(context, kNow).sign(response);
  EXPECT_EQ(response, query());
}

TEST(TsigVerify, OutcomesOfBrokenRequests) {
  struct Case {
    const char* what;
    std::function<void(std::vector<std::uint8_t>&)> sign;
    std::uint64_t now;
    TsigError error;
  };
  Key unknown = test_key();
  unknown.name = name("other-key.");
  Key wrong_secret = test_key();
  wrong_secret.secret[0] ^= 1;
  Key wrong_algorithm = test_key(Algorithm::kHmacSha512);
  wrong_algorithm.name = name("TEST-KEY.");  // names compare case-insensitively: this is BADKEY by algorithm
  std::vector<Case> cases = {
      {"unknown key name", [&](auto& m) { sign_request(m, unknown, kNow); }, kNow, TsigError::kBadKey},
      {"wrong secret", [&](auto& m) { sign_request(m, wrong_secret, kNow); }, kNow, TsigError::kBadSig},
      {"tampered after signing",
       [&](auto& m) {
         sign_request(m, test_key(), kNow);
         m[3] ^= 0x10;
       },
       kNow, TsigError::kBadSig},
      {"time past the fudge", [&](auto& m) { sign_request(m, test_key(), kNow); }, kNow + kDefaultFudge + 1,
       TsigError::kBadTime},
      {"time before the fudge", [&](auto& m) { sign_request(m, test_key(), kNow); }, kNow - kDefaultFudge - 1,
       TsigError::kBadTime},
  };
  KeyRing keys({test_key()});
  for (const auto& c : cases) {
    auto request = query();
    c.sign(request);
    auto context = verify_request(request, keys, c.now);
    ASSERT_TRUE(context.ok()) << c.what;
    EXPECT_TRUE(context->failed()) << c.what;
    EXPECT_EQ(context->error, c.error) << c.what;
    EXPECT_EQ(context->response_rcode(), dns::Rcode::kNotAuth) << c.what;
  }
  auto other_algorithm = query();
  sign_request(other_algorithm, wrong_algorithm, kNow);
  EXPECT_EQ(verify_request(other_algorithm, keys, kNow)->error, TsigError::kBadKey);
  auto within = query();
  sign_request(within, test_key(), kNow);
  EXPECT_TRUE(verify_request(within, keys, kNow + kDefaultFudge)->valid());
}

TEST(TsigVerify, TruncatedMacIsRefusedAndLongerIsMalformed) {
  for (std::size_t size : {16U, 40U}) {
    auto request = query();
    TsigRecord tsig;
    tsig.key_name = name("test-key.");
    tsig.algorithm = algorithm_name(Algorithm::kHmacSha256);
    tsig.time_signed = kNow;
    tsig.original_id = 0x1234;
    tsig.mac = compute_mac(test_key(), {}, request, tsig, Covered::kVariables);
    tsig.mac.resize(size);
    append_tsig(request, tsig);
    auto context = verify_request(request, KeyRing({test_key()}), kNow);
    if (size < 32) {
      ASSERT_TRUE(context.ok());
      EXPECT_EQ(context->error, TsigError::kBadTrunc);
    } else {
      EXPECT_FALSE(context.ok());
    }
  }
}

TEST(TsigVerify, TsigThatIsNotLastIsMalformed) {
  auto request = query();
  sign_request(request, test_key(), kNow);
  // A second additional record after the TSIG: root A, TTL 0, 4 bytes.
  const std::uint8_t extra[] = {0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1};
  request.insert(request.end(), std::begin(extra), std::end(extra));
  request[11] = 2;
  EXPECT_FALSE(verify_request(request, KeyRing({test_key()}), kNow).ok());
}

TEST(TsigResponse, MultiMessageResponseVerifiesInOrderAndDetectsTampering) {
  auto request = query();
  auto request_mac = sign_request(request, test_key(), kNow);
  RequestContext context = verified(request);
  ASSERT_TRUE(context.valid());
  std::vector<std::vector<std::uint8_t>> messages(3, query());
  for (std::size_t i = 0; i < messages.size(); ++i) messages[i][2] = static_cast<std::uint8_t>(0x80 | i);
  ResponseSigner signer(context, kNow + 1);
  for (auto& message : messages) signer.sign(message);

  ResponseVerifier good(test_key(), request_mac);
  for (const auto& message : messages) EXPECT_TRUE(good.verify(message, kNow + 2).ok());
  EXPECT_TRUE(good.complete());

  ResponseVerifier out_of_order(test_key(), request_mac);
  EXPECT_TRUE(out_of_order.verify(messages[0], kNow).ok());
  EXPECT_FALSE(out_of_order.verify(messages[2], kNow).ok());

  auto tampered = messages[1];
  tampered[5] ^= 1;
  ResponseVerifier detects(test_key(), request_mac);
  EXPECT_TRUE(detects.verify(messages[0], kNow).ok());
  EXPECT_FALSE(detects.verify(tampered, kNow).ok());

  ResponseVerifier other_request(test_key(), std::vector<std::uint8_t>(32, 0));
  EXPECT_FALSE(other_request.verify(messages[0], kNow).ok());
}

TEST(TsigResponse, UnsignedMiddleMessageIsCoveredByTheNextSignature) {
  auto request = query();
  auto request_mac = sign_request(request, test_key(), kNow);
  RequestContext context = verified(request);
  auto first = query();
  ResponseSigner(context, kNow).sign(first);
  auto first_tsig = locate_tsig(first);
  ASSERT_TRUE(first_tsig.ok() && first_tsig->has_value());
  auto middle = query();
  auto last = query();
  TsigRecord tsig;
  tsig.key_name = test_key().name;
  tsig.algorithm = algorithm_name(Algorithm::kHmacSha256);
  tsig.time_signed = kNow;
  tsig.original_id = 0x1234;
  std::vector<std::uint8_t> covered = middle;
  covered.insert(covered.end(), last.begin(), last.end());
  tsig.mac = compute_mac(test_key(), (*first_tsig)->record.mac, covered, tsig, Covered::kTimers);
  append_tsig(last, tsig);

  ResponseVerifier verifier(test_key(), request_mac);
  EXPECT_TRUE(verifier.verify(first, kNow).ok());
  EXPECT_TRUE(verifier.verify(middle, kNow).ok());
  EXPECT_FALSE(verifier.complete());
  EXPECT_TRUE(verifier.verify(last, kNow).ok());
  EXPECT_TRUE(verifier.complete());
}

TEST(TsigResponse, ErrorResponses) {
  Key wrong_secret = test_key();
  wrong_secret.secret[0] ^= 1;
  auto bad = query();
  sign_request(bad, wrong_secret, kNow);
  RequestContext badsig = verified(bad);
  auto response = query();
  ResponseSigner(badsig, kNow).sign(response);
  auto tsig = locate_tsig(response);
  ASSERT_TRUE(tsig.ok() && tsig->has_value());
  EXPECT_EQ((*tsig)->record.error, static_cast<std::uint16_t>(TsigError::kBadSig));
  EXPECT_TRUE((*tsig)->record.mac.empty());  // RFC 8945 §5.3.2: not signed

  auto late = query();
  auto request_mac = sign_request(late, test_key(), kNow);
  RequestContext badtime = verified(late, kNow + 1000);
  ASSERT_EQ(badtime.error, TsigError::kBadTime);
  auto time_response = query();
  ResponseSigner(badtime, kNow + 1000).sign(time_response);
  auto time_tsig = locate_tsig(time_response);
  ASSERT_TRUE(time_tsig.ok() && time_tsig->has_value());
  EXPECT_EQ((*time_tsig)->record.time_signed, kNow);  // the request's, so the client can check the MAC
  EXPECT_EQ((*time_tsig)->record.other, (std::vector<std::uint8_t>{0, 0, 0x65, 0x53, 0xf4, 0xe8}));  // kNow + 1000
  EXPECT_EQ((*time_tsig)->record.mac.size(), 32U);
  ResponseVerifier client(test_key(), request_mac);
  auto status = client.verify(time_response, kNow);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("BADTIME"), std::string::npos);
}

}  // namespace
}  // namespace cutover::tsig
