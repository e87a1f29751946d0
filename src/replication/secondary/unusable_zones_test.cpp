// UnusableZones: SERVFAIL inside an unusable zone only, nothing while every zone is usable.
#include "replication/secondary/unusable_zones.h"

#include "dns/edns_options.h"

#include <gtest/gtest.h>

#include "dns/message.h"

namespace cutover::replication {
namespace {

std::vector<std::uint8_t> query_for(const char* qname, bool dnssec_ok = false) {
  dns::Message query;
  query.header.id = 4242;
  query.header.rd = true;
  query.questions.push_back({*dns::Name::from_text(qname), dns::RRType::A, dns::RRClass::IN});
  query.edns = dns::Edns{};
  query.edns->dnssec_ok = dnssec_ok;
  return dns::encode_message(query);
}

TEST(UnusableZonesTest, ServfailInsideUnusableZonesOnly) {
  UnusableZones zones;
  std::vector<std::uint8_t> response;
  EXPECT_FALSE(zones.answer(query_for("www.example.test."), response));
  zones.set({{*dns::Name::from_text("example.test."), false}});
  EXPECT_FALSE(zones.answer(query_for("www.other.test."), response));
  ASSERT_TRUE(zones.answer(query_for("www.example.test."), response));
  auto reply = dns::parse_message(response);
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->header.id, 4242);
  EXPECT_TRUE(reply->header.qr);
  EXPECT_TRUE(reply->header.rd);
  EXPECT_EQ(static_cast<dns::Rcode>(reply->header.rcode), dns::Rcode::kServFail);
  ASSERT_TRUE(reply->edns.has_value());
  EXPECT_FALSE(reply->edns->dnssec_ok);
  ASSERT_TRUE(zones.answer(query_for("www.example.test.", true), response));
  auto with_do = dns::parse_message(response);
  ASSERT_TRUE(with_do && with_do->edns);
  EXPECT_TRUE(with_do->edns->dnssec_ok);  // RFC 3225 §3
  zones.set({});
  EXPECT_FALSE(zones.answer(query_for("www.example.test."), response));
}

// RFC 8914: Not Ready (14) before the first transfer, Invalid Data (24) once expired.
TEST(UnusableZonesTest, TheServfailSaysWhetherTheZoneNeverArrivedOrExpired) {
  UnusableZones zones;
  auto never = *dns::Name::from_text("never.test.");
  auto expired = *dns::Name::from_text("expired.test.");
  zones.set({{never, false}, {expired, true}});
  auto code_of = [&](const char* name) {
    std::vector<std::uint8_t> response;
    EXPECT_TRUE(zones.answer(query_for(name), response));
    auto reply = dns::parse_message(response);
    EXPECT_TRUE(reply && reply->edns && reply->edns->options.size() == 1);
    if (!reply || !reply->edns || reply->edns->options.empty()) return -1;
    const auto& option = reply->edns->options.front();
    EXPECT_EQ(option.code, dns::kExtendedErrorOption);
    return option.data[0] << 8 | option.data[1];
  };
  EXPECT_EQ(code_of("www.never.test."), 14);
  EXPECT_EQ(code_of("www.expired.test."), 24);
}

}  // namespace
}  // namespace cutover::replication
