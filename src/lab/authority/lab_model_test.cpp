// Unit tests: the lab model's zones as the answer engine serves them (capped and uncapped
// negative TTLs, runtime record changes), outage lookup and replies, query counts.
#include "lab/authority/lab_model.h"

#include <gtest/gtest.h>

#include "dns/message.h"
#include "lab/authority/lab_interceptor.h"

namespace cutover::lab {
namespace {

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

std::vector<std::uint8_t> query_wire(const char* qname, dns::RRType type) {
  dns::Message query;
  query.header.id = 7;
  query.questions.push_back({name(qname), type, dns::RRClass::IN});
  return dns::encode_message(query);
}

class LabModelTest : public ::testing::Test {
 protected:
  dns::Message ask(const char* qname, dns::RRType type = dns::RRType::A) {
    std::vector<std::uint8_t> response;
    auto wire = query_wire(qname, type);
    auth::answer_query(*published_, wire, auth::Transport::kUdp, response);
    return *dns::parse_message(response);
  }

  std::shared_ptr<const auth::ZoneSet> published_;
  int publishes_ = 0;
  LabModel model_{[this](std::shared_ptr<const auth::ZoneSet> zones) {
    published_ = std::move(zones);
    ++publishes_;
  }};
};

TEST_F(LabModelTest, CappedNegativeAnswerCarriesMinOfTtlAndMinimum) {
  ASSERT_TRUE(model_.put_zone(name("z.lab."), 30, 6, zone::NegativeTtlMode::kCapped));
  dns::Message reply = ask("missing.z.lab.");
  EXPECT_EQ(reply.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNxDomain));
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].ttl, 6u);
}

TEST_F(LabModelTest, UncappedNegativeAnswerKeepsTheSoaTtl) {
  ASSERT_TRUE(model_.put_zone(name("z.lab."), 60, 6, zone::NegativeTtlMode::kSoaTtl));
  dns::Message reply = ask("missing.z.lab.");
  ASSERT_EQ(reply.authorities.size(), 1u);
  EXPECT_EQ(reply.authorities[0].ttl, 60u);
  auto soa = dns::parse_soa(reply.authorities[0].rdata);
  EXPECT_EQ(soa->minimum, 6u);
}

TEST_F(LabModelTest, RecordsChangeAtRuntimeAndEachChangeIsTimestamped) {
  ASSERT_TRUE(model_.put_zone(name("z.lab."), 60, 60, zone::NegativeTtlMode::kCapped));
  auto first = model_.put_rrset(name("www.z.lab."), dns::RRType::A, {5, {"192.0.2.1"}});
  ASSERT_TRUE(first);
  dns::Message reply = ask("www.z.lab.");
  ASSERT_EQ(reply.answers.size(), 1u);
  EXPECT_EQ(reply.answers[0].ttl, 5u);
  auto second = model_.put_rrset(name("www.z.lab."), dns::RRType::A, {3, {"192.0.2.2"}});
  ASSERT_TRUE(second);
  EXPECT_GE(*second, *first);
  reply = ask("www.z.lab.");
  EXPECT_EQ(reply.answers[0].rdata, (dns::Rdata{192, 0, 2, 2}));
  ASSERT_TRUE(model_.delete_rrset(name("www.z.lab."), std::nullopt));
  EXPECT_EQ(ask("www.z.lab.").header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNxDomain));
  EXPECT_EQ(publishes_, 4);
}

TEST_F(LabModelTest, BadChangesLeaveTheZoneAlone) {
  ASSERT_TRUE(model_.put_zone(name("z.lab."), 60, 60, zone::NegativeTtlMode::kCapped));
  EXPECT_FALSE(model_.put_rrset(name("www.other."), dns::RRType::A, {5, {"192.0.2.1"}}));
  EXPECT_FALSE(model_.put_rrset(name("www.z.lab."), dns::RRType::A, {5, {"not-an-address"}}));
  EXPECT_FALSE(model_.delete_zone(name("nope.lab.")));
  EXPECT_EQ(publishes_, 1);
}

TEST_F(LabModelTest, AZoneFileIsServedAsGivenAndChangesOnlyWhole) {
  const std::string text =
      "$TTL 30\n@ SOA ns hostmaster 2026120601 3600 600 86400 7\n@ NS ns\nns A 192.0.2.53\nwww A 192.0.2.1\n";
  ASSERT_TRUE(model_.put_zone_file(name("f.lab."), text));
  dns::Message reply = ask("f.lab.", dns::RRType::SOA);
  ASSERT_EQ(reply.answers.size(), 1u);
  EXPECT_EQ(dns::parse_soa(reply.answers[0].rdata)->serial, 2026120601u);  // the file's, not a lab serial
  EXPECT_EQ(ask("www.f.lab.").answers.size(), 1u);
  auto edit = model_.put_rrset(name("www.f.lab."), dns::RRType::A, {5, {"192.0.2.2"}});
  ASSERT_FALSE(edit);
  EXPECT_NE(edit.error().message.find("put the whole file again"), std::string::npos);
  EXPECT_FALSE(model_.delete_rrset(name("www.f.lab."), std::nullopt));
  auto bad = model_.put_zone_file(name("f.lab."), text + "www2 A not-an-address\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(":6:"), std::string::npos) << bad.error().message;
  EXPECT_EQ(ask("www.f.lab.").answers.size(), 1u);  // still the first file
  EXPECT_FALSE(model_.put_zone_file(name("f.lab."), text + "$INCLUDE /etc/hostname\n"));
  ASSERT_TRUE(model_.put_zone_file(name("f.lab."), text + "www2 A 192.0.2.3\n"));
  EXPECT_EQ(ask("www2.f.lab.").answers.size(), 1u);
  // Putting it as an ordinary lab zone again starts from an empty one with the lab's SOA.
  ASSERT_TRUE(model_.put_zone(name("f.lab."), 60, 60, zone::NegativeTtlMode::kCapped));
  EXPECT_EQ(ask("www.f.lab.").header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNxDomain));
}

TEST_F(LabModelTest, SeveralZonesLongestOriginWins) {
  ASSERT_TRUE(model_.put_zone(name("lab."), 60, 60, zone::NegativeTtlMode::kCapped));
  ASSERT_TRUE(model_.put_zone(name("child.lab."), 8, 8, zone::NegativeTtlMode::kCapped));
  ASSERT_TRUE(model_.put_rrset(name("www.child.lab."), dns::RRType::A, {5, {"192.0.2.9"}}));
  EXPECT_EQ(ask("www.child.lab.").answers.size(), 1u);
  EXPECT_EQ(ask("gone.child.lab.").authorities[0].ttl, 8u);
}

TEST_F(LabModelTest, NameOutageWinsOverZoneOutage) {
  ASSERT_TRUE(model_.put_zone(name("z.lab."), 60, 60, zone::NegativeTtlMode::kCapped));
  ASSERT_TRUE(model_.set_zone_outage(name("z.lab."), Outage::kRefuse));
  ASSERT_TRUE(model_.set_name_outage(name("www.z.lab."), Outage::kDrop));
  EXPECT_EQ(model_.outage_for(name("www.Z.lab.")), Outage::kDrop);
  EXPECT_EQ(model_.outage_for(name("a.b.z.lab.")), Outage::kRefuse);
  EXPECT_EQ(model_.outage_for(name("other.lab.")), Outage::kNone);
  ASSERT_TRUE(model_.set_zone_outage(name("z.lab."), Outage::kNone));
  EXPECT_EQ(model_.outage_for(name("a.z.lab.")), Outage::kNone);
}

TEST_F(LabModelTest, InterceptorCountsAndAppliesOutages) {
  ASSERT_TRUE(model_.put_zone(name("z.lab."), 60, 60, zone::NegativeTtlMode::kCapped));
  auto interceptor = make_lab_interceptor(model_);
  std::vector<std::uint8_t> response;
  auto wire = query_wire("www.z.lab.", dns::RRType::A);
  EXPECT_EQ(interceptor(wire, net::Transport::kUdp, response), server::Intercept::kContinue);
  ASSERT_TRUE(model_.set_name_outage(name("www.z.lab."), Outage::kServfail));
  EXPECT_EQ(interceptor(wire, net::Transport::kUdp, response), server::Intercept::kRespond);
  dns::Message reply = *dns::parse_message(response);
  EXPECT_EQ(reply.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kServFail));
  EXPECT_EQ(reply.header.id, 7);
  EXPECT_TRUE(reply.header.qr);
  ASSERT_TRUE(model_.set_name_outage(name("www.z.lab."), Outage::kDrop));
  EXPECT_EQ(interceptor(wire, net::Transport::kUdp, response), server::Intercept::kDrop);
  auto counts = model_.counts();
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].name, "www.z.lab.");
  EXPECT_EQ(counts[0].type, "A");
  EXPECT_EQ(counts[0].count, 3u);
}

}  // namespace
}  // namespace cutover::lab
