// TransferReader and apply_transfer: AXFR over several messages, IXFR deltas, IXFR answered
// with the whole zone or the SOA alone, the byte limit, malformed streams, deltas that do
// not fit the copy.
#include "replication/secondary/transfer_reader.h"

#include <gtest/gtest.h>

#include "dns/rdata.h"

namespace cutover::replication {
namespace {

const dns::Name kOrigin = *dns::Name::from_text("example.test.");

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

dns::ResourceRecord soa(std::uint32_t serial) {
  dns::SoaFields fields{name("ns1.example.test."), name("admin.example.test."), serial, 3600, 600, 86400, 60};
  return {kOrigin, dns::RRType::SOA, dns::RRClass::IN, 300, dns::encode_soa(fields)};
}

dns::ResourceRecord a(const char* owner, std::uint8_t last) {
  return {name(owner), dns::RRType::A, dns::RRClass::IN, 300, {192, 0, 2, last}};
}

dns::ResourceRecord ns() {
  const std::string wire("\3ns1\7example\4test", 17);
  dns::Rdata rdata(wire.begin(), wire.end());
  rdata.push_back(0);
  return {kOrigin, dns::RRType::NS, dns::RRClass::IN, 300, rdata};
}

dns::Message reply(std::vector<dns::ResourceRecord> records, dns::Rcode rcode = dns::Rcode::kNoError) {
  dns::Message message;
  message.header.qr = true;
  message.header.rcode = static_cast<std::uint8_t>(rcode);
  message.answers = std::move(records);
  return message;
}

store::ZoneData copy_at(std::uint32_t serial) {
  return store::ZoneData::from_records(kOrigin, {soa(serial), ns(), a("www.example.test.", 10)});
}

TEST(TransferReaderTest, AxfrSpreadOverMessagesIsOneZone) {
  TransferReader reader(kOrigin, dns::RRType::AXFR, 1 << 20);
  auto first = reader.add(reply({soa(7), ns()}), 100);
  ASSERT_TRUE(first);
  EXPECT_FALSE(*first);
  auto second = reader.add(reply({a("www.example.test.", 20), soa(7)}), 100);
  ASSERT_TRUE(second);
  EXPECT_TRUE(*second);
  Transfer transfer = reader.take();
  EXPECT_EQ(transfer.kind, TransferKind::kFull);
  EXPECT_EQ(transfer.serial, 7u);
  EXPECT_EQ(transfer.records.size(), 3u);  // the closing SOA is not zone data
  EXPECT_EQ(transfer.messages, 2u);
  auto next = apply_transfer(transfer, copy_at(5));
  ASSERT_TRUE(next);
  EXPECT_EQ(next->soa()->serial, 7u);
  EXPECT_EQ(next->find(name("www.example.test."), dns::RRType::A)->rdatas.front(), (dns::Rdata{192, 0, 2, 20}));
}

TEST(TransferReaderTest, IxfrDeltasApplyInOrder) {
  TransferReader reader(kOrigin, dns::RRType::IXFR, 1 << 20);
  // 5 -> 6: www .10 becomes .20; 6 -> 7: add mail .30.
  auto done = reader.add(reply({soa(7), soa(5), a("www.example.test.", 10), soa(6), a("www.example.test.", 20), soa(6),
                                soa(7), a("mail.example.test.", 30), soa(7)}),
                         200);
  ASSERT_TRUE(done);
  ASSERT_TRUE(*done);
  Transfer transfer = reader.take();
  ASSERT_EQ(transfer.kind, TransferKind::kIncremental);
  ASSERT_EQ(transfer.deltas.size(), 2u);
  auto next = apply_transfer(transfer, copy_at(5));
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_EQ(next->soa()->serial, 7u);
  EXPECT_EQ(next->find(name("www.example.test."), dns::RRType::A)->rdatas, (std::vector<dns::Rdata>{{192, 0, 2, 20}}));
  EXPECT_NE(next->find(name("mail.example.test."), dns::RRType::A), nullptr);
}

TEST(TransferReaderTest, IxfrDeltasForAnotherSerialAreRefused) {
  TransferReader reader(kOrigin, dns::RRType::IXFR, 1 << 20);
  ASSERT_TRUE(reader.add(reply({soa(7), soa(6), soa(7), a("mail.example.test.", 30), soa(7)}), 100));
  auto next = apply_transfer(reader.take(), copy_at(5));
  ASSERT_FALSE(next);
  EXPECT_EQ(next.error().code, base::ErrorCode::kInvalidArgument);
}

TEST(TransferReaderTest, IxfrDeletingWhatTheCopyLacksIsRefused) {
  TransferReader reader(kOrigin, dns::RRType::IXFR, 1 << 20);
  ASSERT_TRUE(reader.add(reply({soa(6), soa(5), a("www.example.test.", 99), soa(6), soa(6)}), 100));
  EXPECT_FALSE(apply_transfer(reader.take(), copy_at(5)));
}

TEST(TransferReaderTest, IxfrAnsweredWithTheWholeZoneIsFull) {
  // RFC 1995 §4: a server without the history answers AXFR-style.
  TransferReader reader(kOrigin, dns::RRType::IXFR, 1 << 20);
  auto done = reader.add(reply({soa(9), ns(), a("www.example.test.", 40), soa(9)}), 100);
  ASSERT_TRUE(done && *done);
  Transfer transfer = reader.take();
  EXPECT_EQ(transfer.kind, TransferKind::kFull);
  EXPECT_EQ(transfer.records.size(), 3u);
}

TEST(TransferReaderTest, IxfrAnsweredWithTheSoaAloneIsUpToDate) {
  TransferReader reader(kOrigin, dns::RRType::IXFR, 1 << 20);
  auto done = reader.add(reply({soa(5)}), 60);
  ASSERT_TRUE(done && *done);
  Transfer transfer = reader.take();
  EXPECT_EQ(transfer.kind, TransferKind::kUpToDate);
  EXPECT_EQ(transfer.serial, 5u);
}

TEST(TransferReaderTest, OversizedTransferStopsAtTheLimit) {
  TransferReader reader(kOrigin, dns::RRType::AXFR, 250);
  ASSERT_TRUE(reader.add(reply({soa(7), ns()}), 200));
  auto over = reader.add(reply({a("www.example.test.", 20)}), 100);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, base::ErrorCode::kLimit);
}

TEST(TransferReaderTest, ErrorRcodeIsUnsupported) {
  TransferReader reader(kOrigin, dns::RRType::IXFR, 1 << 20);
  auto refused = reader.add(reply({}, dns::Rcode::kNotImp), 12);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, base::ErrorCode::kUnsupported);
}

TEST(TransferReaderTest, MalformedStreamsAreRefused) {
  struct Case {
    const char* what;
    std::vector<dns::ResourceRecord> records;
  };
  std::vector<Case> cases{
      {"first record not the SOA", {ns(), soa(7)}},
      {"record outside the zone", {soa(7), a("www.other.test.", 1), soa(7)}},
      {"closing SOA with another serial", {soa(7), ns(), soa(8)}},
  };
  for (const auto& c : cases) {
    TransferReader reader(kOrigin, dns::RRType::AXFR, 1 << 20);
    auto result = reader.add(reply(c.records), 100);
    ASSERT_FALSE(result) << c.what;
    EXPECT_EQ(result.error().code, base::ErrorCode::kMalformed) << c.what;
  }
}

}  // namespace
}  // namespace cutover::replication
