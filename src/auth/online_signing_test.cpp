// Online signing through the engine: DO answers carry RRSIGs that verify with the DNSKEY,
// negative answers are compact (RFC 9824), the signature cache ignores record order and signs
// again before expiry, and the key records follow the keys' states. Validation by real
// validators is in tests/integration/dnssec/online_test.cpp.
#include "auth/online_signing.h"

#include <ctime>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "auth/dnssec.h"
#include "auth/engine.h"
#include "auth/test_support.h"
#include "dnssec/zone_keys.h"

namespace cutover::auth {
namespace {

using dns::RRType;
using ::testing::ElementsAre;
using testing::make_query;
using testing::make_zone;

std::shared_ptr<const dnssec::SigningKey> ed25519_key(std::uint16_t flags) {
  auto key = dnssec::SigningKey::generate(*dns::Name::from_text("example."), dnssec::kEd25519, flags);
  EXPECT_TRUE(key.ok()) << key.error().message;
  return *key;
}

std::shared_ptr<const zone::Zone> plain_zone() {
  return make_zone("example.", {
                                   "example. 3600 SOA ns1.example. host.example. 1 3600 600 86400 300",
                                   "example. 3600 NS ns1.example.",
                                   "ns1.example. 3600 A 192.0.2.53",
                                   "www.example. 300 A 192.0.2.1",
                                   "www.example. 300 A 192.0.2.2",
                               });
}

class OnlineSigningTest : public ::testing::Test {
 protected:
  void SetUp() override {
    zsk_ = ed25519_key(256);
    signer_ = std::make_shared<const OnlineSigner>(*dns::Name::from_text("example."),
                                                   std::vector<std::shared_ptr<const dnssec::SigningKey>>{zsk_},
                                                   OnlinePolicy{}, std::time(nullptr));
    set_online_signer(signer_->origin(), signer_);
  }
  void TearDown() override { set_online_signer(signer_->origin(), nullptr); }

  dns::Message ask(const ZoneSet& zones, const std::string& name, RRType type, bool dnssec_ok, bool* fast = nullptr) {
    std::vector<std::uint8_t> response;
    auto outcome = answer_query(zones, make_query(name, type, true, 1232, dnssec_ok), Transport::kUdp, response);
    if (fast != nullptr) *fast = outcome.fast_path;
    auto message = dns::parse_message(response);
    EXPECT_TRUE(message.ok());
    return message.ok() ? *message : dns::Message{};
  }

  std::shared_ptr<const dnssec::SigningKey> zsk_;
  std::shared_ptr<const OnlineSigner> signer_;
};

TEST_F(OnlineSigningTest, DoAnswersCarryRrsigsThatVerifyWithTheDnskey) {
  ZoneSet zones({plain_zone()});
  bool fast = true;
  auto reply = ask(zones, "www.example.", RRType::A, true, &fast);
  EXPECT_FALSE(fast);  // signed as answered: the general pipeline
  ASSERT_EQ(reply.answers.size(), 3u);
  const auto& rrsig = reply.answers[2];
  ASSERT_EQ(rrsig.type, RRType::RRSIG);
  std::size_t head = rrsig.rdata.size() - 64;
  auto data = dnssec::rrsig_signed_data(std::span(rrsig.rdata).first(head), rrsig.owner, RRType::A, 300,
                                        {reply.answers[0].rdata, reply.answers[1].rdata});
  EXPECT_TRUE(dnssec::verify_signature(zsk_->dnskey(), data, std::span(rrsig.rdata).subspan(head)));

  // Without DO nothing changes: the fast path, no RRSIG.
  auto plain = ask(zones, "www.example.", RRType::A, false, &fast);
  EXPECT_TRUE(fast);
  EXPECT_EQ(plain.answers.size(), 2u);
}

TEST_F(OnlineSigningTest, ANameThatDoesNotExistGetsCompactDenial) {
  ZoneSet zones({plain_zone()});
  auto reply = ask(zones, "nx.example.", RRType::A, true);
  EXPECT_EQ(reply.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNoError));  // RFC 9824 §3.2
  ASSERT_EQ(reply.authorities.size(), 4u);
  EXPECT_EQ(reply.authorities[0].type, RRType::SOA);
  EXPECT_EQ(reply.authorities[1].type, RRType::RRSIG);
  const auto& nsec = reply.authorities[2];
  EXPECT_EQ(nsec.type, RRType::NSEC);
  EXPECT_EQ(nsec.owner.to_text(), "nx.example.");
  EXPECT_EQ(nsec.ttl, 300u);  // min(SOA TTL, MINIMUM)
  // Next name "\000.nx.example.", then window 0 of 17 octets: RRSIG (46) and NSEC (47) are
  // the last two bits of octet 5, NXNAME (128) the first bit of octet 16.
  dns::Rdata want = {1, 0, 2, 'n', 'x', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 0};
  dns::Rdata bitmap(2 + 17, 0);
  bitmap[1] = 17;
  bitmap[2 + 5] = 0x03;
  bitmap[2 + 16] = 0x80;
  want.insert(want.end(), bitmap.begin(), bitmap.end());
  EXPECT_EQ(nsec.rdata, want);
  EXPECT_EQ(reply.authorities[3].type, RRType::RRSIG);

  auto plain = ask(zones, "nx.example.", RRType::A, false);
  EXPECT_EQ(plain.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNxDomain));
  EXPECT_EQ(plain.authorities.size(), 1u);
}

TEST_F(OnlineSigningTest, TheCacheIgnoresRecordOrderAndSignsAgainBeforeExpiry) {
  std::vector<std::uint8_t> a = {192, 0, 2, 1}, b = {192, 0, 2, 2};
  auto owner = *dns::Name::from_text("www.example.");
  const std::uint32_t now = 2'000'000'000;
  auto first = signer_->signatures(owner, RRType::A, 60, {a, b}, now);
  auto again = signer_->signatures(owner, RRType::A, 60, {b, a}, now + 100);
  EXPECT_EQ(first, again);
  auto counters = signer_->counters(now);
  EXPECT_EQ(counters.signed_rrsets, 1u);
  EXPECT_EQ(counters.cache_hits, 1u);
  // Less than `refresh` left: made again, with a later expiration.
  const auto& policy = signer_->policy();
  auto renewed = signer_->signatures(owner, RRType::A, 60, {a, b}, now + policy.signature_lifetime - policy.refresh + 1);
  EXPECT_NE(renewed, first);
  EXPECT_EQ(signer_->counters(now).signed_rrsets, 2u);
}

TEST(OnlineSignerCache, AFullCacheDropsOneEntryNotAll) {
  OnlinePolicy policy;
  policy.cache_entries = 32;  // two per shard
  OnlineSigner signer(*dns::Name::from_text("example."), {ed25519_key(256)}, policy, 1'000);
  std::vector<std::uint8_t> a = {192, 0, 2, 1};
  const std::uint32_t now = 2'000'000'000;
  for (int i = 0; i < 200; ++i) {
    auto owner = *dns::Name::from_text("n" + std::to_string(i) + ".example.");
    ASSERT_EQ(signer.signatures(owner, RRType::A, 60, {a}, now).size(), 1u);
  }
  auto counters = signer.counters(now);
  EXPECT_EQ(counters.signed_rrsets, 200u);
  EXPECT_EQ(counters.cached, 32u);  // every shard full: none started over
  // The RRset signed last is still there.
  signer.signatures(*dns::Name::from_text("n199.example."), RRType::A, 60, {a}, now);
  EXPECT_EQ(signer.counters(now).cache_hits, 1u);
}

TEST(OnlineSignerKeys, KeyRecordsFollowTheKeysStatesAtTheLoad) {
  auto ksk = ed25519_key(257);
  auto zsk = ed25519_key(256);
  auto late = ed25519_key(256);
  const_cast<dnssec::SigningKey&>(*zsk).activate = 1'000'000;  // published at the load, active later
  const_cast<dnssec::SigningKey&>(*late).publish = 3'000'000;  // published after the load
  const_cast<dnssec::SigningKey&>(*late).activate = 3'000'000;
  OnlineSigner signer(*dns::Name::from_text("example."), {ksk, zsk, late}, OnlinePolicy{}, 500'000);
  std::vector<std::string> types;
  for (const auto& record : signer.key_records(3600)) types.push_back(dns::type_to_text(record.type));
  EXPECT_THAT(types, ElementsAre("DNSKEY", "CDNSKEY", "CDS", "DNSKEY"));
  auto records = signer.key_records(3600);
  EXPECT_EQ(records[2].rdata, dnssec::ds_rdata(signer.origin(), ksk->dnskey(), 2));
  EXPECT_EQ(records[3].rdata, zsk->dnskey());
  auto tag_of = [](const dns::Rdata& rrsig) { return rrsig[16] << 8 | rrsig[17]; };
  auto owner = *dns::Name::from_text("www.example.");
  std::vector<std::uint8_t> a = {192, 0, 2, 1};
  // Before its activation the ZSK is published but does not sign: the KSK signs everything.
  auto early = signer.signatures(owner, RRType::A, 60, {a}, 500'000);
  ASSERT_EQ(early.size(), 1u);
  EXPECT_EQ(tag_of(early[0]), ksk->key_tag());
  // Its Activate time passes while the server runs: it signs, without a reload.
  auto later = signer.signatures(owner, RRType::A, 61, {a}, 2'000'000);
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(tag_of(later[0]), zsk->key_tag());
  // A key not in the DNSKEY RRset of the load never signs, whatever its times say by now.
  auto after = signer.signatures(owner, RRType::A, 62, {a}, 4'000'000);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(tag_of(after[0]), zsk->key_tag());
  OnlinePolicy no_cds;
  no_cds.publish_cds = false;
  OnlineSigner quiet(*dns::Name::from_text("example."), {ksk, zsk}, no_cds, 500'000);
  EXPECT_EQ(quiet.key_records(3600).size(), 2u);
}

}  // namespace
}  // namespace cutover::auth
