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
