// Responder: NOTIFY for a secondary zone is acted on only when it comes from the zone's
// primary (RFC 1996 §3.10) and, for a zone pulled with a primary-key, only when signed with
// that key (RFC 8945); others get REFUSED or NOTAUTH and trigger nothing.
#include "replication/primary/responder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <ctime>

namespace cutover::replication {
namespace {

sockaddr_storage from(const char* address) { return net::parse_socket_address(address)->storage; }

std::vector<std::uint8_t> notify_for(const char* zone) {
  dns::Message message;
  message.header.id = 77;
  message.header.opcode = dns::Opcode::kNotify;
  message.header.aa = true;
  message.questions.push_back({*dns::Name::from_text(zone), dns::RRType::SOA, dns::RRClass::IN});
  return dns::encode_message(message);
}

class ResponderTest : public ::testing::Test {
 protected:
  ResponderTest() {
    config::ZoneReplicationConfig secondary;
    secondary.primary = *net::parse_socket_address("127.0.0.2:5300");
    responder_ = std::make_unique<Responder>(
        [] { return std::make_shared<const auth::ZoneSet>(std::vector<std::shared_ptr<const zone::Zone>>{}); },
        nullptr, std::map<std::string, config::ZoneReplicationConfig>{{"example.test.", secondary}}, logger_);
    responder_->set_notify_listener([this](const dns::Name& zone) { notified_.push_back(zone.to_text()); });
  }

  dns::Rcode notify(const char* zone, const char* client) {
    Messages responses;
    EXPECT_EQ(responder_->handle(notify_for(zone), net::Transport::kUdp, from(client), responses),
              net::Intercept::kRespond);
    auto reply = dns::parse_message(responses.at(0));
    EXPECT_TRUE(reply);
    EXPECT_EQ(reply->header.id, 77);
    return static_cast<dns::Rcode>(reply->header.rcode);
  }

  base::Logger logger_{nullptr, base::LogLevel::kError};
  std::unique_ptr<Responder> responder_;
  std::vector<std::string> notified_;
};

TEST_F(ResponderTest, NotifyFromThePrimaryAnyPortTriggersACheck) {
  EXPECT_EQ(notify("example.test.", "127.0.0.2:40000"), dns::Rcode::kNoError);
  EXPECT_EQ(notified_, std::vector<std::string>{"example.test."});
}

TEST_F(ResponderTest, NotifyFromAnotherAddressIsRefused) {
  EXPECT_EQ(notify("example.test.", "127.0.0.1:5300"), dns::Rcode::kRefused);
  EXPECT_TRUE(notified_.empty());
}

TEST_F(ResponderTest, NotifyForAZoneWithoutPrimaryIsNotAuth) {
  EXPECT_EQ(notify("other.test.", "127.0.0.2:40000"), dns::Rcode::kNotAuth);
  EXPECT_TRUE(notified_.empty());
}

tsig::Key key(const char* name, const char* secret) {
  return tsig::Key{*dns::Name::from_text(name), tsig::Algorithm::kHmacSha256,
                   std::vector<std::uint8_t>(secret, secret + std::strlen(secret))};
}

class SignedNotifyTest : public ::testing::Test {
 protected:
  SignedNotifyTest() {
    config::ZoneReplicationConfig secondary;
    secondary.primary = *net::parse_socket_address("127.0.0.2:5300");
    secondary.primary_key = "notify-key.";
    responder_ = std::make_unique<Responder>(
        [] { return std::make_shared<const auth::ZoneSet>(std::vector<std::shared_ptr<const zone::Zone>>{}); },
        nullptr, std::map<std::string, config::ZoneReplicationConfig>{{"example.test.", secondary}}, logger_);
    responder_->set_tsig_keys(tsig::KeyRing({key_, other_}));
    responder_->set_notify_listener([this](const dns::Name& zone) { notified_.push_back(zone.to_text()); });
  }

  // Sends the NOTIFY (signed with `with` unless null, its MAC spoiled when `spoil`) from the
  // primary's address; returns the reply's rcode and whether the reply verified with `with`.
  std::pair<dns::Rcode, bool> notify(const tsig::Key* with, bool spoil = false) {
    auto wire = notify_for("example.test.");
    auto now = static_cast<std::uint64_t>(std::time(nullptr));
    std::vector<std::uint8_t> mac;
    if (with != nullptr) mac = tsig::sign_request(wire, *with, now);
    if (spoil) wire[wire.size() - 10] ^= 0xFF;  // inside the MAC (followed by original ID, error, other len)
    Messages responses;
    EXPECT_EQ(responder_->handle(wire, net::Transport::kUdp, from("127.0.0.2:40000"), responses),
              net::Intercept::kRespond);
    auto reply = dns::parse_message(responses.at(0));
    EXPECT_TRUE(reply);
    bool verified = false;
    if (with != nullptr) {
      tsig::ResponseVerifier verifier(*with, mac);
      verified = static_cast<bool>(verifier.verify(responses.at(0), now)) && verifier.complete();
    }
    return {static_cast<dns::Rcode>(reply->header.rcode), verified};
  }

  tsig::Key key_ = key("notify-key.", "a-secret-for-the-notify-test-32b");
  tsig::Key other_ = key("other-key.", "another-secret-for-notify-tests!");
  base::Logger logger_{nullptr, base::LogLevel::kError};
  std::unique_ptr<Responder> responder_;
  std::vector<std::string> notified_;
};

TEST_F(SignedNotifyTest, NotifySignedWithThePrimaryKeyIsActedOnAndTheReplySigned) {
  auto [rcode, verified] = notify(&key_);
  EXPECT_EQ(rcode, dns::Rcode::kNoError);
  EXPECT_TRUE(verified);
  EXPECT_EQ(notified_, std::vector<std::string>{"example.test."});
}

TEST_F(SignedNotifyTest, UnsignedOrOtherKeyNotifyIsRefused) {
  EXPECT_EQ(notify(nullptr).first, dns::Rcode::kRefused);
  EXPECT_EQ(notify(&other_).first, dns::Rcode::kRefused);
  EXPECT_TRUE(notified_.empty());
}

TEST_F(SignedNotifyTest, NotifyWithABadSignatureIsNotAuth) {
  EXPECT_EQ(notify(&key_, true).first, dns::Rcode::kNotAuth);
  tsig::Key unknown = key("stranger.", "a-secret-for-the-notify-test-32b");
  EXPECT_EQ(notify(&unknown).first, dns::Rcode::kNotAuth);
  EXPECT_TRUE(notified_.empty());
}

}  // namespace
}  // namespace cutover::replication
