// Key tags and DS digests against the RFCs' examples; the signature window of a small zone.
#include "dnssec/zone_keys.h"

#include <gtest/gtest.h>

#include "dns/base_encoding.h"
#include "zone/loader.h"

namespace cutover::dnssec {
namespace {

using dns::RRType;

dns::Rdata rdata_of(RRType type, const std::string& text, const char* origin = "example.com.") {
  std::vector<dns::TextToken> tokens;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) tokens.push_back(dns::TextToken{text.substr(start, end - start), false, 1, 1});
    start = end + 1;
  }
  auto rdata = dns::rdata_from_text(type, tokens, *dns::Name::from_text(origin));
  EXPECT_TRUE(rdata.ok()) << text;
  return rdata.ok() ? *rdata : dns::Rdata{};
}

// RFC 4509 §2.3: dskey.example.com.'s DNSKEY and the SHA-256 DS the parent publishes for it.
constexpr const char* kRfc4509Key =
    "256 3 5 AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/"
    "M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==";

TEST(ZoneKeys, KeyTagAndDsMatchRfc4509) {
  dns::Rdata key = rdata_of(RRType::DNSKEY, kRfc4509Key);
  EXPECT_EQ(key_tag(key), 60485);
  dns::Rdata ds = ds_rdata(*dns::Name::from_text("dskey.example.com."), key, 2);
  EXPECT_EQ(dns::rdata_to_text(RRType::DS, ds),
            "60485 5 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A");
  // The owner is hashed in canonical (lowercase) form.
  EXPECT_EQ(ds_rdata(*dns::Name::from_text("DSKEY.Example.COM."), key, 2), ds);
  EXPECT_TRUE(ds_rdata(*dns::Name::from_text("dskey.example.com."), key, 3).empty());
}

constexpr const char* kZone = R"(
$ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
@ IN DNSKEY 257 3 13 a2V5LXNpZ25pbmcta2V5
@ IN DNSKEY 256 3 13 em9uZS1zaWduaW5nLWtleQ==
@ IN DNSKEY 385 3 13 cmV2b2tlZA==
@ IN NSEC3PARAM 1 0 0 -
@ IN RRSIG SOA 13 2 300 20270101000000 20261201000000 1 example.test. c2ln
ns1 IN A 192.0.2.1
ns1 IN RRSIG A 13 3 300 20261210000000 20261201000000 1 example.test. c2ln
old IN A 192.0.2.2
old IN RRSIG A 13 3 300 20261130000000 20261101000000 1 example.test. c2ln
new IN A 192.0.2.3
new IN RRSIG A 13 3 300 20270101000000 20261207000000 1 example.test. c2ln
)";

TEST(ZoneKeys, DescribeListsKeysDenialAndTheSignatureWindow) {
  auto load = zone::load_zone_text(*dns::Name::from_text("example.test."), kZone, "test");
  ASSERT_TRUE(load.zone);
  std::uint32_t now = 1796515200;  // 2026-12-06 00:00:00 UTC
  ZoneDnssec info = describe(*load.zone, now);
  EXPECT_TRUE(info.signed_zone);
  EXPECT_EQ(info.denial, "NSEC3 (hash 1, 0 extra iterations, salt -)");
  ASSERT_EQ(info.keys.size(), 3u);
  EXPECT_TRUE(info.keys[0].sep);
  EXPECT_FALSE(info.keys[0].ds.empty());
  EXPECT_EQ(info.keys[0].ds[2], 13);  // algorithm
  EXPECT_FALSE(info.keys[1].sep);
  EXPECT_TRUE(info.keys[1].ds.empty());
  EXPECT_TRUE(info.keys[2].revoked);
  EXPECT_TRUE(info.keys[2].ds.empty());
  EXPECT_EQ(info.signatures.signatures, 4u);
  EXPECT_EQ(info.signatures.expired, 1u);        // old: expired 2026-11-30
  EXPECT_EQ(info.signatures.not_yet_valid, 1u);  // new: valid from 2026-12-07
  EXPECT_EQ(info.signatures.earliest_owner, *dns::Name::from_text("old.example.test."));
  EXPECT_EQ(*info.signatures.earliest_expiry_in, -6 * 86400);
  EXPECT_EQ(earliest_expiry_in(*load.zone, now), -6 * 86400);
}

TEST(ZoneKeys, AnUnsignedZoneHasNoKeysAndNoSignatures) {
  auto load = zone::load_zone_text(*dns::Name::from_text("example.test."),
                                   "$ORIGIN example.test.\n@ 300 IN SOA ns1 admin 1 3600 600 86400 60\n"
                                   "@ 300 IN NS ns1\nns1 300 IN A 192.0.2.1\n",
                                   "test");
  ASSERT_TRUE(load.zone);
  ZoneDnssec info = describe(*load.zone, 1796515200);
  EXPECT_FALSE(info.signed_zone);
  EXPECT_EQ(info.denial, "none");
  EXPECT_EQ(info.signatures.signatures, 0u);
  EXPECT_FALSE(earliest_expiry_in(*load.zone, 1796515200).has_value());
}

// RFC 7344 §4.1: every CDS and CDNSKEY must match a DNSKEY of the zone; a CDS for a key the zone
// does not hold is the bad DS of lab E14 in waiting. RFC 8078 §4's removal requests are noted.
TEST(ZoneKeys, CdsAndCdnskeyMustMatchAKeyOfTheZone) {
  const std::string key = "257 3 13 a2V5LXNpZ25pbmcta2V5";
  const std::string other = "257 3 13 b3RoZXIta2V5";
  auto origin = *dns::Name::from_text("example.test.");
  std::string good_cds = dns::rdata_to_text(RRType::DS, ds_rdata(origin, rdata_of(RRType::DNSKEY, key), 2));
  std::string stray_cds = dns::rdata_to_text(RRType::DS, ds_rdata(origin, rdata_of(RRType::DNSKEY, other), 2));
  auto describe_text = [&](const std::string& apex) {
    std::string text = "$ORIGIN example.test.\n$TTL 300\n@ SOA ns1 admin 10 3600 600 86400 60\n@ NS ns1\n@ DNSKEY " +
                       key + "\n" + apex + "ns1 A 192.0.2.1\n";
    auto load = zone::load_zone_text(origin, text, "test");
    EXPECT_TRUE(load.zone) << text;
    return load.zone ? describe(*load.zone, 1796515200) : ZoneDnssec{};
  };
  ZoneDnssec good = describe_text("@ CDS " + good_cds + "\n@ CDNSKEY " + key + "\n");
  EXPECT_TRUE(good.publishes_cds);
  EXPECT_TRUE(good.parent_signal_problems.empty());
  EXPECT_FALSE(good.asks_ds_removal);
  ZoneDnssec stray = describe_text("@ CDS " + good_cds + "\n@ CDS " + stray_cds + "\n@ CDNSKEY " + other + "\n");
  ASSERT_EQ(stray.parent_signal_problems.size(), 2u);
  EXPECT_NE(stray.parent_signal_problems[0].find("CDS " + stray_cds + " matches no DNSKEY"), std::string::npos)
      << stray.parent_signal_problems[0];
  EXPECT_NE(stray.parent_signal_problems[1].find("is not one of the zone's DNSKEYs"), std::string::npos);
  ZoneDnssec removal = describe_text("@ CDS 0 0 0 00\n@ CDNSKEY 0 3 0 AA==\n");
  EXPECT_TRUE(removal.asks_ds_removal);
  EXPECT_TRUE(removal.parent_signal_problems.empty());
  EXPECT_EQ(to_json(stray)["parent_signal_problems"].size(), 2u);
}

}  // namespace
}  // namespace cutover::dnssec
