// Table-driven tests of the rdata codecs: text -> wire -> text for every type, the RFC 3597
// generic form, message wire round trips and canonical form.
#include "dns/rdata.h"

#include <gtest/gtest.h>

#include "dns/base_encoding.h"
#include "dns/message.h"
#include "dns/test_tokens.h"

namespace cutover::dns {
namespace {

using testing::tokenize;

const Name& origin() {
  static const Name kOrigin = *Name::from_text("example.");
  return kOrigin;
}

struct RoundTrip {
  RRType type;
  std::string_view input;
  std::string_view printed;  // what rdata_to_text gives back; empty means `input`
};

const RoundTrip kRoundTrips[] = {
    {RRType::A, "192.0.2.1", ""},
    {RRType::AAAA, "2001:db8:0:0:0:0:0:1", "2001:db8::1"},
    {RRType::NS, "ns1", "ns1.example."},
    {RRType::CNAME, "@", "example."},
    {RRType::PTR, "host.Example.ORG.", ""},
    {RRType::SOA, "ns1 hostmaster 2024010101 1h 900 1w 300",
     "ns1.example. hostmaster.example. 2024010101 3600 900 604800 300"},
    {RRType::MX, "10 mail", "10 mail.example."},
    {RRType::TXT, "\"a b\" c \"q\\\"x\\\\y\\010z\"", "\"a b\" \"c\" \"q\\\"x\\\\y\\010z\""},
    {RRType::TXT, "\"\"", ""},
    {RRType::TXT, "\"caf\\195\\169\"", ""},
    {RRType::HINFO, "PC Linux", "\"PC\" \"Linux\""},
    {RRType::SRV, "1 2 3 Target", "1 2 3 Target.example."},
    {RRType::NAPTR, "100 10 \"u\" \"E2U+sip\" \"!^.*$!sip:info@example.com!\" .", ""},
    {RRType::DNAME, "other.example.", ""},
    {RRType::CAA, "0 issue \"letsencrypt.org; foo\"", ""},
    {RRType::CAA, "128 iodef mailto:a@example.com", "128 iodef \"mailto:a@example.com\""},
    {RRType::SSHFP, "1 1 0123456789abcdef0123456789abcdef01234567", "1 1 0123456789ABCDEF0123456789ABCDEF01234567"},
    {RRType::TLSA, "3 1 1 0123456789ABCDEF 0123456789ABCDEF", "3 1 1 0123456789ABCDEF0123456789ABCDEF"},
    {RRType::DS, "12345 8 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE7C4A4B2F2A0D4C0E7F4A9B1C", ""},
    {RRType::DNSKEY, "257 3 8 AwEAAagAIKlV ZrpC6Ia7gEza", "257 3 8 AwEAAagAIKlVZrpC6Ia7gEza"},
    {RRType::RRSIG, "A 8 2 300 20240101000000 20231201000000 12345 example. AwEAAagAIKlVZrpC6Ia7gEzahOR+9W29", ""},
    {RRType::RRSIG, "TYPE65534 8 2 300 1704067200 1701388800 1 Example. AQ==",
     "TYPE65534 8 2 300 20240101000000 20231201000000 1 Example. AQ=="},
    {RRType::NSEC, "y.Example. A NS SOA RRSIG NSEC TYPE65534", ""},
    {RRType::NSEC, "y.example.", ""},
    // Types in any order and repeated: one bit each, windows in order (RFC 4034 §4.1.2).
    {RRType::NSEC, "y.example. TYPE65534 NSEC A TYPE1234 A RRSIG", "y.example. A RRSIG NSEC TYPE1234 TYPE65534"},
    {RRType::NSEC3, "1 1 12 AABB 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR A RRSIG", ""},
    {RRType::NSEC3, "1 0 0 - 2t7b4g4vsa5smi47k61mv5bv1a22bojr", "1 0 0 - 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR"},
    {RRType::NSEC3PARAM, "1 0 10 AABBCCDD", ""},
    {RRType::NSEC3PARAM, "1 0 0 -", ""},
    {RRType::HTTPS,
     "1 . alpn=\"h2,h3\" no-default-alpn port=8443 ipv4hint=1.2.3.4,5.6.7.8 ech=AEj+DQBEAQAgACA= ipv6hint=::1 "
     "mandatory=port,alpn key65000=\"abc\"",
     "1 . mandatory=alpn,port alpn=\"h2,h3\" no-default-alpn port=8443 ipv4hint=1.2.3.4,5.6.7.8 "
     "ech=AEj+DQBEAQAgACA= ipv6hint=::1 key65000=\"abc\""},
    {RRType::SVCB, "0 svc.example.", ""},
    {RRType::SVCB, "16 foo.example.org. alpn=\"f\\\\\\\\oo\\\\,bar,h2\"", ""},
    {RRType::SVCB, "1 . key667=hello key3=53", "1 . port=53 key667=\"hello\""},
    {RRType::SVCB, "1 . key667=\"hello world\" ech=\"AQI=\"", "1 . ech=AQI= key667=\"hello world\""},
    // The other types BIND reads (docs/zone-files.md, "Record types").
    {RRType::MB, "mail", "mail.example."},
    {RRType::MG, "mail.Example.NET.", ""},
    {RRType::MR, "mail", "mail.example."},
    {RRType::MD, "mail", "mail.example."},
    {RRType::MF, "mail", "mail.example."},
    {RRType::MINFO, "rmail emails.example.net.", "rmail.example. emails.example.net."},
    {RRType::WKS, "192.0.2.25 tcp 21 25 80 443", "192.0.2.25 6 21 25 80 443"},
    {RRType::WKS, "192.0.2.25 17 53 123", ""},
    {RRType::WKS, "192.0.2.25 6", ""},
    {RRType::NULL_, "\\# 3 abcdef", "\\# 3 ABCDEF"},
    {RRType::RP, "admin info", "admin.example. info.example."},
    {RRType::RP, ". .", ""},
    {RRType::AFSDB, "1 afs", "1 afs.example."},
    {RRType::X25, "311061700956", "\"311061700956\""},
    {RRType::ISDN, "150862028003217 004", "\"150862028003217\" \"004\""},
    {RRType::ISDN, "\"150862028003218\"", ""},
    {RRType::RT, "10 relay", "10 relay.example."},
    {RRType::NSAP, "0x47.0005.80.005a00.0000.0001.e133.ffffff000161.00", "0x47000580005a0000000001e133ffffff00016100"},
    {RRType::NSAP_PTR, "host", "host.example."},
    {RRType::GPOS, "-32.6882 116.8652 10.0", "\"-32.6882\" \"116.8652\" \"10.0\""},
    {RRType::PX, "10 net2.it. PRMD-net2.ADMD-p400.C-it.", ""},
    {RRType::LOC, "52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m",
     "52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000.00m 10.00m"},
    {RRType::LOC, "42 21 43.952 N 71 5 6.344 W -24m 30m", "42 21 43.952 N 71 5 6.344 W -24.00m 30.00m 10000.00m 10.00m"},
    {RRType::LOC, "0 S 0 W 0", "0 0 0.000 N 0 0 0.000 E 0.00m 1.00m 10000.00m 10.00m"},
    {RRType::LOC, "90 0 0 N 180 0 0 E 42849672.95m 90000000m 90000000m 90000000m",
     "90 0 0.000 N 180 0 0.000 E 42849672.95m 90000000.00m 90000000.00m 90000000.00m"},
    {RRType::LOC, "33 S 151 12 E 5", "33 0 0.000 S 151 12 0.000 E 5.00m 1.00m 10000.00m 10.00m"},
    {RRType::KX, "10 kx", "10 kx.example."},
    {RRType::CERT, "PKIX 12345 RSASHA256 MIIBCgKCAQEAnMb3aWQ=", "1 12345 8 MIIBCgKCAQEAnMb3aWQ="},
    {RRType::CERT, "3 0 0 TUlJQkNnS0NBUUVBbk1iM2FXUT0=", ""},
    {RRType::APL, "1:192.168.32.0/21 !1:192.168.38.0/28", ""},
    {RRType::APL, "2:2001:db8::/32 !2:2001:db8:1::/48 1:0.0.0.0/0", ""},
    {RRType::APL, "", ""},
    {RRType::IPSECKEY, "10 0 2 . AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ==", ""},
    {RRType::IPSECKEY, "10 1 2 192.0.2.38 AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ==", ""},
    {RRType::IPSECKEY, "10 2 2 2001:0DB8:0:8002::2000:1 AQ==", "10 2 2 2001:db8:0:8002::2000:1 AQ=="},
    {RRType::IPSECKEY, "10 3 2 gw AQ==", "10 3 2 gw.example. AQ=="},
    {RRType::DHCID, "AAIBY2/AuCccgoJbsaxcQc9TUapptP69lOjxfNuVAA2kjEA=", ""},
    {RRType::KEY, "256 3 13 AQ==", ""},
    {RRType::KEY, "49152 3 13", ""},
    {RRType::SIG, "A 8 2 300 20240101000000 20231201000000 12345 Signer. AQ==",
     "A 8 2 300 20240101000000 20231201000000 12345 Signer. AQ=="},
    {RRType::CDS, "0 0 0 00", ""},
    {RRType::CDNSKEY, "0 3 0 AA==", ""},
    {RRType::TA, "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118", ""},
    {RRType::DLV, "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118", ""},
    {RRType::RKEY, "0 3 253 AA==", ""},
    {RRType::SMIMEA, "3 1 1 0C72AC70", ""},
    {RRType::HIP, "2 200100107B1A74DF365639CC39F1D578 AwEAAbdxyhNu rvs1.example.com. rvs2",
     "2 200100107B1A74DF365639CC39F1D578 AwEAAbdxyhNu rvs1.example.com. rvs2.example."},
    {RRType::HIP, "2 200100107b1a74df365639cc39f1d578 AwEAAbdxyhNu", "2 200100107B1A74DF365639CC39F1D578 AwEAAbdxyhNu"},
    {RRType::NINFO, "\"status\" \"ok\"", ""},
    {RRType::TALINK, "prev next", "prev.example. next.example."},
    {RRType::OPENPGPKEY, "mQINBFit2jsBEADrbl5vjVxY", ""},
    {RRType::CSYNC, "66 3 A NS AAAA", ""},
    {RRType::ZONEMD, "2018031900 1 1 FEBE3D4CE2EC2FFA4BA99D46CD69D6D2", ""},
    {RRType::SPF, "\"v=spf1 -all\"", ""},
    {RRType::NID, "10 0014:4fff:ff20:ee64", ""},
    {RRType::L32, "10 10.1.2.0", ""},
    {RRType::L64, "10 2001:0DB8:1140:1000", "10 2001:0db8:1140:1000"},
    {RRType::LP, "10 l64-subnet1.example.com.", ""},
    {RRType::EUI48, "00-00-5e-00-53-2a", ""},
    {RRType::EUI64, "00-00-5E-EF-10-00-00-2A", "00-00-5e-ef-10-00-00-2a"},
    {RRType::URI, "10 1 \"ftp://ftp1.example.com/public\"", ""},
    {RRType::AVC, "\"app-name:WOLFGANG|app-class:OAM\"", ""},
    {RRType::RESINFO, "\"qnamemin\" \"exterr=15-17\"", ""},
    {RRType::WALLET, "\"BTC\" \"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh\"", ""},
    {RRType::AMTRELAY, "10 0 0 .", ""},
    {RRType::AMTRELAY, "10 1 1 203.0.113.15", ""},
    {RRType::AMTRELAY, "10 0 2 2001:db8::15", ""},
    {RRType::AMTRELAY, "128 1 3 amtrelays.example.com.", ""},
    {RRType::EID, "3b6f", "3B6F"},
    {RRType::NIMLOC, "3B6F2C", ""},
    {RRType::SINK, "1 0 0 AAAAAQ==", ""},
    {RRType::SINK, "1 0 0", ""},
    {RRType::NXT, "nxt2 A NS SOA MX", "nxt2.example. A NS SOA MX"},
    {RRType::A6, "0 2001:db8::1", ""},
    {RRType::A6, "64 ::1:2:3:4 prefix", "64 ::1:2:3:4 prefix.example."},
    {RRType::A6, "120 ::ffff prefix.example.", "120 ::ff prefix.example."},
    {RRType::A6, "128 prefix", "128 prefix.example."},
    {RRType::ATMA, "+61200000000", ""},
    {RRType::ATMA, "39246f00e7c9c0312dbb", ""},
    {RRType::DOA, "0 1 2 \"\" aGVsbG8=", ""},
    {RRType::DOA, "0 1 2 \"text/plain\" -", ""},
    {static_cast<RRType>(65534), "\\# 4 0a000001", "\\# 4 0A000001"},
    {static_cast<RRType>(65534), "\\# 0", ""},
};

class RdataRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(RdataRoundTrip, TextWireText) {
  const RoundTrip& test = GetParam();
  auto tokens = tokenize(test.input);
  auto rdata = rdata_from_text(test.type, tokens, origin());
  ASSERT_TRUE(rdata.ok()) << rdata.error().message;
  std::string expected(test.printed.empty() ? test.input : test.printed);
  EXPECT_EQ(rdata_to_text(test.type, *rdata), expected);

  auto reparsed = rdata_from_text(test.type, tokenize(expected), origin());
  ASSERT_TRUE(reparsed.ok()) << reparsed.error().message;
  EXPECT_EQ(*reparsed, *rdata);
}

TEST_P(RdataRoundTrip, GenericFormGivesSameWire) {
  const RoundTrip& test = GetParam();
  auto rdata = rdata_from_text(test.type, tokenize(test.input), origin());
  ASSERT_TRUE(rdata.ok());
  std::string generic = "\\# " + std::to_string(rdata->size()) + " " + hex_encode(*rdata);
  auto from_generic = rdata_from_text(test.type, tokenize(generic), origin());
  ASSERT_TRUE(from_generic.ok()) << from_generic.error().message;
  EXPECT_EQ(*from_generic, *rdata);
}

TEST_P(RdataRoundTrip, MessageWireKeepsRdata) {
  const RoundTrip& test = GetParam();
  auto rdata = rdata_from_text(test.type, tokenize(test.input), origin());
  ASSERT_TRUE(rdata.ok());
  Message message;
  message.questions.push_back({origin(), test.type, RRClass::IN});
  // Two records so names in the second one can be compressed against the first.
  message.answers.push_back({origin(), test.type, RRClass::IN, 300, *rdata});
  message.answers.push_back({origin(), test.type, RRClass::IN, 300, *rdata});
  auto parsed = parse_message(encode_message(message));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->answers.size(), 2u);
  EXPECT_EQ(parsed->answers[1].rdata, *rdata);
  EXPECT_EQ(rdata_canonical(test.type, parsed->answers[0].rdata), rdata_canonical(test.type, *rdata));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, RdataRoundTrip, ::testing::ValuesIn(kRoundTrips));

struct BadText {
  RRType type;
  std::string_view input;
  std::size_t where;  // token index the error points at
};

const BadText kBadTexts[] = {
    {RRType::A, "192.0.2", 0},
    {RRType::A, "192.0.2.1 extra", 1},
    {RRType::A, "", 0},
    {RRType::AAAA, "2001:db8::g", 0},
    {RRType::MX, "65536 mail", 0},
    {RRType::MX, "10", 1},
    {RRType::TXT, "abc \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"", 1},
    {RRType::TXT, "\"bad\\", 0},
    {RRType::TXT, "\"\\256\"", 0},
    {RRType::NS, "a..b", 0},
    {RRType::CAA, "0 is-sue x", 1},
    {RRType::DS, "1 8 2 ABC", 3},
    {RRType::DNSKEY, "257 3 8 A", 3},
    {RRType::RRSIG, "A 8 2 300 20241301000000 20231201000000 1 example. AQ==", 4},
    {RRType::NSEC, "next.example. NOTATYPE", 1},
    {RRType::NSEC3, "1 1 12 AABB W A", 4},
    {RRType::SVCB, "1 . port=99999", 2},
    {RRType::SVCB, "1 . port=1 port=2", 4},
    {RRType::SVCB, "1 . alpn=", 2},
    {RRType::SVCB, "1 . key65535=x", 2},
    {RRType::LOC, "91 N 0 E 0", 0},
    {RRType::LOC, "10 60 N 0 E 0", 0},
    {RRType::LOC, "10 N 181 E 0", 2},
    {RRType::LOC, "10 N 10 E", 4},
    {RRType::LOC, "10 N 10 E 0 1x", 5},
    {RRType::APL, "3:1.2.3.4/8", 0},
    {RRType::APL, "1:1.2.3.4/33", 0},
    {RRType::APL, "1:192.0.2.0/24 2:2001:db8::", 1},
    {RRType::EUI48, "00-00-5e-00-53", 0},
    {RRType::EUI64, "00:00:5e:ef:10:00:00:2a", 0},
    {RRType::NID, "10 0014:4fff:ff20", 1},
    {RRType::WKS, "192.0.2.1 6 65536", 2},
    {RRType::A6, "129 ::", 0},
    {RRType::A6, "64 ::1", 2},
    {RRType::HIP, "2 XYZ AQ==", 1},
    {RRType::CERT, "BOGUS 1 1 AQ==", 0},
    {RRType::IPSECKEY, "10 1 2 gw.example. AQ==", 3},
    {RRType::AMTRELAY, "10 0 4 .", 2},
    {RRType::NXT, "next A TYPE200", 2},
    {RRType::ATMA, "+12a", 0},
    {RRType::NSAP, "47.0005", 0},
    {RRType::SVCB, "1 . frobnicate=1", 2},
    {RRType::A, "\\# 4 0a0000", 1},
    {RRType::A, "\\# 3 0a0000", 2},
    {RRType::MX, "\\# 2 000a", 2},
    {static_cast<RRType>(65534), "0a000001", 0},
};

class RdataBadText : public ::testing::TestWithParam<BadText> {};

TEST_P(RdataBadText, IsRejectedAtTheRightToken) {
  const BadText& test = GetParam();
  auto rdata = rdata_from_text(test.type, tokenize(test.input), origin());
  ASSERT_FALSE(rdata.ok()) << rdata_to_text(test.type, *rdata);
  EXPECT_EQ(rdata.error().where, test.where) << rdata.error().message;
}

INSTANTIATE_TEST_SUITE_P(Errors, RdataBadText, ::testing::ValuesIn(kBadTexts));

TEST(RdataText, SvcParamValueMayBeTheNextQuotedToken) {
  // The zone lexer ends a word at a quote, so `alpn="h2,h3"` arrives as two tokens.
  const std::vector<TextToken> tokens = {
      {"1", false}, {".", false}, {"alpn=", false}, {"h2,h3", true}, {"key9=", false}, {"a b", true}};
  auto rdata = rdata_from_text(RRType::HTTPS, tokens, origin());
  ASSERT_TRUE(rdata.ok()) << rdata.error().message;
  EXPECT_EQ(rdata_to_text(RRType::HTTPS, *rdata), "1 . alpn=\"h2,h3\" key9=\"a b\"");
}

TEST(RdataText, UndecodableRdataPrintsGeneric) {
  Rdata short_a = {10, 0, 0};
  EXPECT_EQ(rdata_to_text(RRType::A, short_a), "\\# 3 0A0000");
  EXPECT_EQ(rdata_to_text(RRType::TXT, Rdata{}), "\\# 0");
}

// Wire rdata that is valid but would not print back to the same octets in the type's own
// format is shown in the generic form (the first found by fuzz/parse_message: an NXT bitmap
// naming types above 127, which NXT text cannot).
TEST(RdataText, WireFormsTextCannotRepeatPrintGeneric) {
  Rdata nxt = {0, 0x40};  // "." and type 1 (A)
  EXPECT_EQ(rdata_to_text(RRType::NXT, nxt), ". A");
  Rdata nxt_high(1, 0);
  nxt_high.resize(18, 0);
  nxt_high[17] = 0x01;  // type 135
  EXPECT_EQ(rdata_to_text(RRType::NXT, nxt_high).rfind("\\# 18 ", 0), 0u);
  EXPECT_EQ(rdata_to_text(RRType::NXT, Rdata{0, 0x40, 0}), "\\# 3 004000");  // trailing zero octet
  EXPECT_EQ(rdata_to_text(RRType::WKS, Rdata{192, 0, 2, 1, 6, 0x40, 0}), "\\# 7 C000020106" "4000");
  Rdata apl = {0, 1, 24, 3, 192, 0, 0};  // trailing zero in the address part (RFC 3123 §4)
  EXPECT_EQ(rdata_to_text(RRType::APL, apl), "\\# 7 00011803C00000");
  Rdata loc(16, 0);
  loc[1] = 0x03;  // mantissa 0 with exponent 3: 0 cm, which prints back as 0x00
  loc[4] = 0x80;
  loc[8] = 0x80;
  EXPECT_EQ(rdata_to_text(RRType::LOC, loc).rfind("\\# 16 ", 0), 0u);
  Rdata a6 = {124, 0xFF, 0};  // a prefix bit set in the suffix octet, and a root prefix name
  EXPECT_EQ(rdata_to_text(RRType::A6, a6), "\\# 3 7CFF00");
}

TEST(RdataCanonical, LowercasesOnlyTheListedTypes) {
  auto mx = *rdata_from_text(RRType::MX, tokenize("10 Mail.EXAMPLE."), origin());
  EXPECT_EQ(rdata_to_text(RRType::MX, rdata_canonical(RRType::MX, mx)), "10 mail.example.");
  auto nsec = *rdata_from_text(RRType::NSEC, tokenize("Next.EXAMPLE. A"), origin());
  EXPECT_EQ(rdata_canonical(RRType::NSEC, nsec), nsec);  // RFC 6840 §5.1
  auto txt = *rdata_from_text(RRType::TXT, tokenize("ABC"), origin());
  EXPECT_EQ(rdata_canonical(RRType::TXT, txt), txt);
}

TEST(RdataCanonical, EqualMeansEqualCanonicalForms) {
  auto text = [](RRType type, std::string_view rdata) { return *rdata_from_text(type, tokenize(rdata), origin()); };
  // Names lowered in canonical form compare without case; the rest byte for byte.
  EXPECT_TRUE(rdata_canonical_equal(RRType::MX, text(RRType::MX, "10 Mail.EXAMPLE."), text(RRType::MX, "10 mail.example.")));
  EXPECT_FALSE(rdata_canonical_equal(RRType::MX, text(RRType::MX, "20 mail.example."), text(RRType::MX, "10 mail.example.")));
  EXPECT_FALSE(rdata_canonical_equal(RRType::NS, text(RRType::NS, "ns1"), text(RRType::NS, "ns2")));
  EXPECT_FALSE(rdata_canonical_equal(RRType::NSEC, text(RRType::NSEC, "Next.EXAMPLE. A"), text(RRType::NSEC, "next.example. A")));
  EXPECT_FALSE(rdata_canonical_equal(RRType::TXT, text(RRType::TXT, "ABC"), text(RRType::TXT, "abc")));
  // The same bytes written differently in text (an escape) are the same rdata.
  EXPECT_TRUE(rdata_canonical_equal(RRType::TXT, text(RRType::TXT, "a\\098c"), text(RRType::TXT, "abc")));
  EXPECT_TRUE(rdata_canonical_equal(RRType::A, text(RRType::A, "192.0.2.1"), text(RRType::A, "192.0.2.1")));
  EXPECT_FALSE(rdata_canonical_equal(RRType::A, text(RRType::A, "192.0.2.1"), text(RRType::A, "192.0.2.2")));
  // Types without a codec are opaque.
  EXPECT_FALSE(rdata_canonical_equal(static_cast<RRType>(65280), Rdata{'A'}, Rdata{'a'}));
}

TEST(RdataTarget, NamesTheRecordPointsAt) {
  struct Case {
    RRType type;
    std::string_view input;
    std::optional<std::string_view> target;
  };
  const Case cases[] = {
      {RRType::NS, "ns1.example.", "ns1.example."},  {RRType::MX, "5 mx.example.", "mx.example."},
      {RRType::SRV, "0 0 53 t.example.", "t.example."}, {RRType::DNAME, "d.example.", "d.example."},
      {RRType::A, "192.0.2.1", std::nullopt},        {RRType::TXT, "x.example.", std::nullopt},
  };
  for (const Case& c : cases) {
    auto rdata = *rdata_from_text(c.type, tokenize(c.input), origin());
    auto target = rdata_target_name(c.type, rdata);
    ASSERT_EQ(target.has_value(), c.target.has_value()) << c.input;
    if (target) {
      EXPECT_EQ(target->to_text(), *c.target);
    }
  }
}

TEST(RdataNsec3, HashParametersAreReadFromNsec3ParamAndNsec3) {
  auto param = *rdata_from_text(RRType::NSEC3PARAM, tokenize("1 0 12 aabbccdd"), origin());
  auto fields = parse_nsec3_params(param);
  ASSERT_TRUE(fields);
  EXPECT_EQ(fields->algorithm, 1);
  EXPECT_EQ(fields->flags, 0);
  EXPECT_EQ(fields->iterations, 12);
  EXPECT_EQ(std::vector<std::uint8_t>(fields->salt.begin(), fields->salt.end()), (std::vector<std::uint8_t>{0xaa, 0xbb, 0xcc, 0xdd}));
  auto nsec3 = *rdata_from_text(RRType::NSEC3, tokenize("1 1 0 - 2vptu5timamqttgl4luu9kg21e0aor3s A"), origin());
  EXPECT_EQ(parse_nsec3_params(nsec3)->flags, 1);  // opt-out
  EXPECT_TRUE(parse_nsec3_params(nsec3)->salt.empty());
  EXPECT_FALSE(parse_nsec3_params(Rdata{1, 0, 0, 12, 4, 0xaa}));  // a salt longer than the rdata
}

TEST(RdataSoa, ParseAndEncodeAreInverse) {
  auto rdata = *rdata_from_text(RRType::SOA, tokenize("ns1 host 7 1 2 3 4"), origin());
  auto soa = parse_soa(rdata);
  ASSERT_TRUE(soa.ok());
  EXPECT_EQ(soa->mname.to_text(), "ns1.example.");
  EXPECT_EQ(soa->serial, 7u);
  EXPECT_EQ(soa->minimum, 4u);
  EXPECT_EQ(encode_soa(*soa), rdata);
  EXPECT_FALSE(parse_soa(Rdata{0, 0, 1}).ok());
}

TEST(RdataWire, RejectsFieldsThatDoNotFitRdlength) {
  struct Case {
    RRType type;
    std::vector<std::uint8_t> rdata;
  };
  const Case cases[] = {
      {RRType::A, {1, 2, 3}},
      {RRType::A, {1, 2, 3, 4, 5}},
      {RRType::MX, {0, 10, 3, 'a', 'b'}},
      {RRType::TXT, {}},
      {RRType::TXT, {5, 'a'}},
      {RRType::SRV, {0, 0, 0, 0, 0, 53, 0xC0, 12}},  // SRV targets are never compressed
      {RRType::NSEC, {0, 0, 1}},                     // window with zero length
      {RRType::NSEC, {0, 1, 0x40, 0, 1, 0x40}},      // windows out of order
      {RRType::NSEC, {0, 0, 2, 0x40, 0}},            // trailing zero octet (fuzz regression)
      {RRType::HTTPS, {0, 1, 0, 0, 3, 0, 1, 0, 0, 2, 0, 0}},  // keys descending
      {RRType::DNSKEY, {1, 1, 3, 8}},                         // empty key (fuzz regression)
      {RRType::CAA, {0, 0}},                                  // empty tag
      {RRType::CAA, {0, 2, 'a', ' ', 'x'}},                   // tag not alphanumeric (fuzz regression)
  };
  for (const Case& c : cases) {
    std::vector<std::uint8_t> wire = c.rdata;
    base::ByteReader reader(wire);
    EXPECT_FALSE(rdata_from_wire(c.type, reader, static_cast<std::uint16_t>(wire.size())).ok())
        << type_to_text(c.type);
  }
}


// The reserved key 65535 (RFC 9460 §14.3.2) has no presentation name, so text refuses
// `mandatory=key65535`; the wire parser accepted it and printed text that did not parse back.
TEST(RdataWire, SvcbMandatoryListingReservedKey65535IsRejectedLikeText) {
  // priority 1, target ".", mandatory=key616,key54783,key65535 port=16827
  std::vector<std::uint8_t> wire = {0, 1, 0, 0, 0, 0, 6, 0x02, 0x68, 0xD5, 0xFF, 0xFF, 0xFF, 0, 3, 0, 2, 0x41, 0xBB};
  base::ByteReader reader(wire);
  EXPECT_FALSE(rdata_from_wire(RRType::HTTPS, reader, static_cast<std::uint16_t>(wire.size())).ok());
  auto text = tokenize("1 . mandatory=key616,key54783,key65535 port=16827");
  EXPECT_FALSE(rdata_from_text(RRType::HTTPS, text, origin()).ok());
  // Without the reserved key both forms accept the record and agree.
  std::vector<std::uint8_t> good = {0, 1, 0, 0, 0, 0, 4, 0x02, 0x68, 0xD5, 0xFF, 0, 3, 0, 2, 0x41, 0xBB};
  base::ByteReader good_reader(good);
  auto parsed = rdata_from_wire(RRType::HTTPS, good_reader, static_cast<std::uint16_t>(good.size()));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(rdata_to_text(RRType::HTTPS, *parsed), "1 . mandatory=key616,key54783 port=16827");
  auto good_text = tokenize("1 . mandatory=key616,key54783 port=16827");
  auto from_text = rdata_from_text(RRType::HTTPS, good_text, origin());
  ASSERT_TRUE(from_text.ok());
  EXPECT_EQ(*from_text, *parsed);
}


// A quoted empty token ("") decoded to no bytes, so text accepted an RRSIG, DNSKEY or DS with
// an empty signature, key or digest that the wire parser refuses (found by fuzz/master_file).
TEST(RdataText, EmptyQuotedBase64OrHexIsRefusedLikeOnTheWire) {
  struct Case {
    RRType type;
    std::string_view text;
  };
  const Case cases[] = {
      {RRType::RRSIG, "A 13 3 3600 20300101000000 20240101000000 12345 signer.test. \"\""},
      {RRType::DNSKEY, "257 3 8 \"\""},
      {RRType::DS, "1 8 2 \"\""},
      {RRType::SSHFP, "1 1 \"\""},
      {RRType::TLSA, "3 1 1 \"\""},
  };
  for (const Case& c : cases) {
    auto tokens = tokenize(c.text);
    EXPECT_FALSE(rdata_from_text(c.type, tokens, origin()).ok()) << type_to_text(c.type) << " " << c.text;
  }
}

}  // namespace
}  // namespace cutover::dns
