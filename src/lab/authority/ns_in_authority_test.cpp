// Unit tests: lab zones that answer non-minimally (their NS RRset in the authority section of
// positive answers) through the lab interceptor, as `cutover serve --lab` runs it, and the
// cases that must stay minimal (negative answers, other zones, replies that would not fit).
#include "lab/authority/ns_in_authority.h"

#include <gtest/gtest.h>

#include "lab/authority/lab_interceptor.h"
#include "lab/authority/lab_model.h"

namespace cutover::lab {
namespace {

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

std::vector<std::uint8_t> query_wire(const char* qname) {
  dns::Message query;
  query.header.id = 9;
  query.questions.push_back({name(qname), dns::RRType::A, dns::RRClass::IN});
  return dns::encode_message(query);
}

class NsInAuthorityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(model_.put_zone(name("child.e8."), 60, 60, zone::NegativeTtlMode::kCapped, true));
    ASSERT_TRUE(model_.put_rrset(name("child.e8."), dns::RRType::NS, {30, {"ns.child.e8."}}));
    ASSERT_TRUE(model_.put_rrset(name("ns.child.e8."), dns::RRType::A, {30, {"127.0.0.1"}}));
    ASSERT_TRUE(model_.put_rrset(name("www.child.e8."), dns::RRType::A, {5, {"192.0.2.1"}}));
    ASSERT_TRUE(model_.put_zone(name("minimal.lab."), 60, 60, zone::NegativeTtlMode::kCapped));
    ASSERT_TRUE(model_.put_rrset(name("www.minimal.lab."), dns::RRType::A, {5, {"192.0.2.1"}}));
  }

  // Runs the interceptor; returns the parsed reply when it answered itself.
  std::optional<dns::Message> intercept(const char* qname) {
    auto wire = query_wire(qname);
    std::vector<std::uint8_t> response;
    if (interceptor_(wire, net::Transport::kUdp, response) != server::Intercept::kRespond) return std::nullopt;
    return *dns::parse_message(response);
  }

  std::shared_ptr<const auth::ZoneSet> published_;
  LabModel model_{[this](std::shared_ptr<const auth::ZoneSet> zones) { published_ = std::move(zones); }};
  server::QueryInterceptor interceptor_ = make_lab_interceptor(model_);
};

TEST_F(NsInAuthorityTest, PositiveAnswerCarriesTheChildNsRRsetWithItsOwnTtl) {
  auto reply = intercept("www.child.e8.");
  ASSERT_TRUE(reply);
  ASSERT_EQ(reply->answers.size(), 1u);
  EXPECT_EQ(reply->answers[0].ttl, 5u);
  ASSERT_EQ(reply->authorities.size(), 1u);
  EXPECT_EQ(reply->authorities[0].type, dns::RRType::NS);
  EXPECT_EQ(reply->authorities[0].owner, name("child.e8."));
  EXPECT_EQ(reply->authorities[0].ttl, 30u);
  EXPECT_TRUE(reply->header.aa);
  EXPECT_EQ(reply->header.id, 9);
}

TEST_F(NsInAuthorityTest, NegativeAnswerKeepsOnlyTheSoa) {
  auto reply = intercept("missing.child.e8.");
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNxDomain));
  ASSERT_EQ(reply->authorities.size(), 1u);
  EXPECT_EQ(reply->authorities[0].type, dns::RRType::SOA);
}

TEST_F(NsInAuthorityTest, OtherZonesStayMinimal) {
  EXPECT_FALSE(intercept("www.minimal.lab."));
  ASSERT_TRUE(model_.put_zone(name("child.e8."), 60, 60, zone::NegativeTtlMode::kCapped, false));
  EXPECT_FALSE(intercept("www.child.e8."));
}

TEST_F(NsInAuthorityTest, AReplyThatWouldNotFitKeepsItsMinimalForm) {
  auto wire = query_wire("www.child.e8.");
  std::vector<std::uint8_t> response;
  auth::answer_query_general(*published_, wire, auth::Transport::kUdp, response);
  std::vector<std::uint8_t> minimal = response;
  EXPECT_FALSE(add_ns_in_authority(*published_, minimal.size() + 4, response));
  EXPECT_EQ(response, minimal);
  EXPECT_TRUE(add_ns_in_authority(*published_, 512, response));
  EXPECT_GT(response.size(), minimal.size());
}

TEST(ReplySizeLimit, FollowsTransportAndEdns) {
  EXPECT_EQ(reply_size_limit(false, std::nullopt), 65535u);
  EXPECT_EQ(reply_size_limit(true, std::nullopt), 512u);
  dns::Edns edns;
  edns.udp_size = 4096;
  EXPECT_EQ(reply_size_limit(true, edns), auth::kMaxUdpPayload);
  edns.udp_size = 100;
  EXPECT_EQ(reply_size_limit(true, edns), 512u);
}

}  // namespace
}  // namespace cutover::lab
