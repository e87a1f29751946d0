// Tests of message parsing, encoding, EDNS, compression and the all-or-nothing writer.
#include "dns/message.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "dns/test_tokens.h"

namespace cutover::dns {
namespace {

Name name(std::string_view text) { return *Name::from_text(text); }

Rdata rdata(RRType type, std::string_view text) {
  auto parsed = rdata_from_text(type, testing::tokenize(text), name("example."));
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? *parsed : Rdata{};
}

Message sample_response() {
  Message message;
  message.header.id = 0xBEEF;
  message.header.qr = true;
  message.header.aa = true;
  message.header.rd = true;
  message.header.rcode = 3;
  message.questions.push_back({name("www.example."), RRType::A, RRClass::IN});
  message.answers.push_back({name("www.example."), RRType::CNAME, RRClass::IN, 60, rdata(RRType::CNAME, "web")});
  message.answers.push_back({name("web.example."), RRType::A, RRClass::IN, 60, rdata(RRType::A, "192.0.2.7")});
  message.authorities.push_back({name("example."), RRType::SOA, RRClass::IN, 300,
                                 rdata(RRType::SOA, "ns1 hostmaster 1 3600 900 604800 300")});
  message.additionals.push_back({name("ns1.example."), RRType::AAAA, RRClass::IN, 60, rdata(RRType::AAAA, "::1")});
  Edns edns;
  edns.udp_size = 1232;
  edns.extended_rcode = 1;
  edns.dnssec_ok = true;
  edns.options.push_back({10, {1, 2, 3, 4, 5, 6, 7, 8}});
  message.edns = edns;
  return message;
}

void expect_same_records(const std::vector<ResourceRecord>& a, const std::vector<ResourceRecord>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].owner, b[i].owner);
    EXPECT_EQ(a[i].type, b[i].type);
    EXPECT_EQ(a[i].klass, b[i].klass);
    EXPECT_EQ(a[i].ttl, b[i].ttl);
    EXPECT_EQ(a[i].rdata, b[i].rdata);
  }
}

TEST(Message, RoundTripsEverySection) {
  Message original = sample_response();
  auto wire = encode_message(original);
  auto parsed = parse_message(wire);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->header.id, 0xBEEF);
  EXPECT_TRUE(parsed->header.qr && parsed->header.aa && parsed->header.rd);
  EXPECT_FALSE(parsed->header.tc || parsed->header.ra || parsed->header.cd || parsed->header.ad);
  EXPECT_EQ(parsed->header.rcode, 3);
  EXPECT_EQ(parsed->header.qdcount, 1);
  EXPECT_EQ(parsed->header.arcount, 2);  // AAAA and OPT
  ASSERT_EQ(parsed->questions.size(), 1u);
  EXPECT_EQ(parsed->questions[0].name, name("www.example."));
  expect_same_records(parsed->answers, original.answers);
  expect_same_records(parsed->authorities, original.authorities);
  expect_same_records(parsed->additionals, original.additionals);
  ASSERT_TRUE(parsed->edns.has_value());
  EXPECT_EQ(parsed->edns->udp_size, 1232);
  EXPECT_EQ(parsed->edns->extended_rcode, 1);
  EXPECT_TRUE(parsed->edns->dnssec_ok);
  ASSERT_EQ(parsed->edns->options.size(), 1u);
  EXPECT_EQ(parsed->edns->options[0].code, 10);
  EXPECT_EQ(parsed->edns->options[0].data.size(), 8u);
  EXPECT_EQ(encode_message(*parsed), wire);
}

TEST(Message, HeaderFlagsAndOpcode) {
  Header header;
  header.opcode = Opcode::kNotify;
  header.tc = header.ra = header.z = header.ad = header.cd = true;
  header.rcode = 0x0F;
  MessageWriter writer(512);
  writer.set_header(header);
  auto parsed = parse_header(writer.finish());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->opcode, Opcode::kNotify);
  EXPECT_TRUE(parsed->tc && parsed->ra && parsed->z && parsed->ad && parsed->cd);
  EXPECT_FALSE(parsed->qr || parsed->aa || parsed->rd);
  EXPECT_EQ(parsed->rcode, 0x0F);
  EXPECT_FALSE(parse_header(std::vector<std::uint8_t>(11, 0)).ok());
}

TEST(Message, WriterCompressesRepeatedNames) {
  Message message = sample_response();
  message.edns.reset();
  auto wire = encode_message(message);
  // The answer owner is the question name: a pointer to offset 12.
  std::size_t answer_owner = kHeaderSize + name("www.example.").wire().size() + 4;
  EXPECT_EQ(wire[answer_owner], 0xC0);
  EXPECT_EQ(wire[answer_owner + 1], kHeaderSize);
  std::size_t uncompressed = kHeaderSize;
  for (const auto& q : message.questions) uncompressed += q.name.wire().size() + 4;
  for (const auto* section : {&message.answers, &message.authorities, &message.additionals}) {
    for (const auto& rr : *section) uncompressed += rr.owner.wire().size() + 10 + rr.rdata.size();
  }
  EXPECT_LT(wire.size(), uncompressed - 30);
}

TEST(Message, CompressionIsCaseInsensitiveButParsedNamesCompareEqual) {
  Message message;
  message.questions.push_back({name("WWW.Example."), RRType::A, RRClass::IN});
  message.answers.push_back({name("www.example."), RRType::NS, RRClass::IN, 1, rdata(RRType::NS, "www.example.")});
  auto parsed = parse_message(encode_message(message));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->answers[0].owner, name("www.example."));
  EXPECT_EQ(rdata_canonical(RRType::NS, parsed->answers[0].rdata), rdata(RRType::NS, "www.example."));
}

TEST(MessageParse, RejectsEveryTruncation) {
  auto wire = encode_message(sample_response());
  for (std::size_t size = 0; size < wire.size(); ++size) {
    std::vector<std::uint8_t> prefix(wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(size));
    EXPECT_FALSE(parse_message(prefix).ok()) << size;
  }
}

TEST(MessageParse, RejectsTrailingBytes) {
  auto wire = encode_message(sample_response());
  wire.push_back(0);
  EXPECT_FALSE(parse_message(wire).ok());
}

TEST(MessageParse, RejectsCountsBeyondTheBytes) {
  auto wire = encode_message(sample_response());
  wire[6] = 0xFF;  // ancount 0xFF02
  auto parsed = parse_message(wire);
  ASSERT_FALSE(parsed.ok());
}

ResourceRecord opt_record(Name owner = Name()) {
  return {std::move(owner), RRType::OPT, static_cast<RRClass>(1232), 0, {}};
}

TEST(MessageParse, RejectsMisplacedOrRepeatedOpt) {
  struct Case {
    std::string_view what;
    Section section;
    ResourceRecord record;
  };
  const Case cases[] = {
      {"two OPT records", Section::kAdditional, opt_record()},
      {"OPT in answer", Section::kAnswer, opt_record()},
      {"OPT in authority", Section::kAuthority, opt_record()},
  };
  for (const Case& c : cases) {
    MessageWriter writer(4096);
    writer.set_edns(Edns{});
    ASSERT_TRUE(writer.add_record(c.section, c.record));
    EXPECT_FALSE(parse_message(writer.finish()).ok()) << c.what;
  }
  MessageWriter writer(4096);
  ASSERT_TRUE(writer.add_record(Section::kAdditional, opt_record(name("example."))));
  EXPECT_FALSE(parse_message(writer.finish()).ok()) << "OPT owner not root";
}

TEST(MessageParse, RejectsOptWithTruncatedOption) {
  MessageWriter writer(4096);
  ResourceRecord opt = opt_record();
  opt.rdata = {0, 10, 0, 8, 1, 2};
  ASSERT_TRUE(writer.add_record(Section::kAdditional, opt));
  EXPECT_FALSE(parse_message(writer.finish()).ok());
}

TEST(MessageParse, RejectsPointerLoopInOwner) {
  std::vector<std::uint8_t> wire = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 1, 0, 1};
  EXPECT_FALSE(parse_message(wire).ok());
  wire[13] = 14;  // forward pointer
  EXPECT_FALSE(parse_message(wire).ok());
}

TEST(MessageParse, AcceptsEmptyRdataInUpdateDeletes) {
  MessageWriter writer(512);
  ASSERT_TRUE(writer.add_record(Section::kAuthority, {name("a.example."), RRType::A, RRClass::ANY, 0, {}}));
  EXPECT_TRUE(parse_message(writer.finish()).ok());
  MessageWriter in_class(512);
  ASSERT_TRUE(in_class.add_record(Section::kAuthority, {name("a.example."), RRType::A, RRClass::IN, 0, {}}));
  EXPECT_FALSE(parse_message(in_class.finish()).ok());
}

TEST(MessageWriter, RollbackNeverLeavesHalfAnRrset) {
  MessageWriter writer(200);
  ASSERT_TRUE(writer.add_question({name("big.example."), RRType::TXT, RRClass::IN}));
  std::vector<Rdata> big;
  for (int i = 0; i < 4; ++i) big.push_back(rdata(RRType::TXT, std::string(40, static_cast<char>('a' + i))));
  std::size_t before = writer.size();
  EXPECT_FALSE(writer.add_rrset(Section::kAnswer, name("new.big.example."), RRType::TXT, RRClass::IN, 60, big));
  EXPECT_EQ(writer.size(), before);
  // Names first written by the rolled-back set must not be pointed at afterwards.
  std::vector<Rdata> small = {rdata(RRType::NS, "ns.new.big.example.")};
  ASSERT_TRUE(writer.add_rrset(Section::kAnswer, name("new.big.example."), RRType::NS, RRClass::IN, 60, small));
  auto parsed = parse_message(writer.finish());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->answers.size(), 1u);
  EXPECT_EQ(parsed->answers[0].owner, name("new.big.example."));
  EXPECT_EQ(parsed->answers[0].type, RRType::NS);
}

TEST(MessageWriter, ReservesRoomForOpt) {
  Edns edns;
  edns.options.push_back({15, {0, 1}});
  const std::size_t limit = 100;
  MessageWriter writer(limit);
  writer.set_edns(edns);
  ASSERT_TRUE(writer.add_question({name("example."), RRType::A, RRClass::IN}));
  int added = 0;
  while (writer.add_record(Section::kAnswer, {name("example."), RRType::A, RRClass::IN, 1, {192, 0, 2, 1}})) ++added;
  EXPECT_GT(added, 0);
  auto wire = writer.finish();
  EXPECT_LE(wire.size(), limit);
  auto parsed = parse_message(wire);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->answers.size(), static_cast<std::size_t>(added));
  ASSERT_TRUE(parsed->edns.has_value());
  EXPECT_EQ(parsed->edns->options.size(), 1u);
}

TEST(MessageWriter, QuestionThatDoesNotFitIsRefused) {
  MessageWriter writer(kHeaderSize + 5);
  EXPECT_FALSE(writer.add_question({name("example."), RRType::A, RRClass::IN}));
  EXPECT_EQ(writer.size(), kHeaderSize);
  EXPECT_TRUE(writer.add_question({Name(), RRType::A, RRClass::IN}));
}

TEST(Edns, FlagsAndVersionInTtl) {
  Edns edns;
  edns.udp_size = 4096;
  edns.extended_rcode = 0xAB;
  edns.version = 1;
  edns.dnssec_ok = true;
  edns.other_flags = 0x0001;
  std::vector<std::uint8_t> wire;
  base::ByteWriter out(wire);
  write_opt_record(edns, out);
  ASSERT_EQ(wire.size(), edns_wire_size(edns));
  const std::vector<std::uint8_t> expected = {0, 0, 41, 0x10, 0, 0xAB, 1, 0x80, 0x01, 0, 0};
  EXPECT_EQ(wire, expected);
  ResourceRecord opt{Name(), RRType::OPT, static_cast<RRClass>(4096), 0xAB018001, {}};
  auto decoded = edns_from_opt_record(opt);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->udp_size, 4096);
  EXPECT_EQ(decoded->extended_rcode, 0xAB);
  EXPECT_EQ(decoded->version, 1);
  EXPECT_TRUE(decoded->dnssec_ok);
  EXPECT_EQ(decoded->other_flags, 0x0001);
}

// The named seeds (*.bin: fuzz/make_corpus.py and captures) must parse; the regression inputs
// (regression-*, refused since their fix) and the inputs a fuzz campaign added (named by
// their SHA-1, docs/testing.md) need not.
TEST(MessageParse, EveryFuzzSeedIsAValidMessage) {
  std::filesystem::path corpus = std::filesystem::path(CUTOVER_SOURCE_DIR) / "fuzz" / "corpus" / "parse_message";
  std::size_t seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".bin") continue;
    std::ifstream file(entry.path(), std::ios::binary);
    std::vector<std::uint8_t> wire((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    auto parsed = parse_message(wire);
    EXPECT_TRUE(parsed.ok()) << entry.path() << ": " << (parsed.ok() ? "" : parsed.error().message);
    ++seeds;
  }
  EXPECT_GE(seeds, 12u);
}

}  // namespace
}  // namespace cutover::dns

namespace cutover::dns {
namespace {

TEST(Compression, NamesInUncompressedRdataAreTargetsForLaterNames) {
  // A DNAME answer: the DNAME's target goes out whole (RFC 6672 §2.5), and the synthesized
  // CNAME's target, which ends in it, points into it.
  auto owner = *Name::from_text("old.example.test.");
  auto target = *Name::from_text("a-rather-long-label-for-the-target.new-zone-name.example.test.");
  auto synthesized = *Name::from_text("host.a-rather-long-label-for-the-target.new-zone-name.example.test.");
  Message message;
  message.questions.push_back({*Name::from_text("host.old.example.test."), RRType::A, RRClass::IN});
  message.answers.push_back({owner, RRType::DNAME, RRClass::IN, 300, target.wire()});
  message.answers.push_back({*Name::from_text("host.old.example.test."), RRType::CNAME, RRClass::IN, 300, synthesized.wire()});
  auto wire = encode_message(message);
  // The CNAME's rdata is "host" plus a pointer: 5 + 2 bytes.
  EXPECT_EQ(wire[wire.size() - 9], 0);
  EXPECT_EQ(wire[wire.size() - 8], 7);
  auto parsed = parse_message(wire);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->answers[0].rdata, target.wire());  // the DNAME target itself stays whole
  EXPECT_EQ(parsed->answers[1].rdata, synthesized.wire());
}

}  // namespace
}  // namespace cutover::dns
