// Responder: NOTIFY for a secondary zone is acted on only when it comes from the zone's
// primary (RFC 1996 §3.10); others get REFUSED and trigger nothing.
#include "xfr/responder.h"

#include <gtest/gtest.h>

namespace cutover::xfr {
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
              server::Intercept::kRespond);
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

}  // namespace
}  // namespace cutover::xfr
