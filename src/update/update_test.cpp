// UPDATE: message parsing, prerequisite and prescan rcodes, and the handler end to end on a
// real store (TSIG outcomes, policy, all-or-nothing application, the floor).
#include "update/handler.h"

#include <gtest/gtest.h>

#include "dns/edns_options.h"
#include <unistd.h>

#include "base/bytes.h"
#include "tsig/tsig.h"
#include "update/update_message.h"
#include "zone/loader.h"

namespace cutover::update {
namespace {

using dns::RRClass;
using dns::RRType;

constexpr std::uint64_t kNow = 1700000000;

constexpr const char* kZone = R"(
$ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 192.0.2.1
www IN A 192.0.2.10
www IN A 192.0.2.11
mail IN A 192.0.2.20
)";

dns::Name name(const char* text) { return *dns::Name::from_text(text); }

dns::Rdata a(std::uint8_t last) { return {192, 0, 2, last}; }

struct Rr {
  const char* owner;
  RRType type;
  RRClass klass;
  std::uint32_t ttl;
  dns::Rdata rdata;
};

// Builds an UPDATE by hand (the message encoder has no notion of empty typed rdata).
std::vector<std::uint8_t> build(const char* zone, std::vector<Rr> prerequisites, std::vector<Rr> updates,
                                RRType zone_type = RRType::SOA) {
  std::vector<std::uint8_t> wire;
  base::ByteWriter out(wire);
  out.write_u16(0x4242);
  out.write_u16(static_cast<std::uint16_t>(static_cast<unsigned>(dns::Opcode::kUpdate) << 11));
  out.write_u16(1);
  out.write_u16(static_cast<std::uint16_t>(prerequisites.size()));
  out.write_u16(static_cast<std::uint16_t>(updates.size()));
  out.write_u16(0);
  out.write_bytes(name(zone).wire());
  out.write_u16(static_cast<std::uint16_t>(zone_type));
  out.write_u16(static_cast<std::uint16_t>(RRClass::IN));
  for (const auto* section : {&prerequisites, &updates}) {
    for (const auto& rr : *section) {
      out.write_bytes(name(rr.owner).wire());
      out.write_u16(static_cast<std::uint16_t>(rr.type));
      out.write_u16(static_cast<std::uint16_t>(rr.klass));
      out.write_u32(rr.ttl);
      out.write_u16(static_cast<std::uint16_t>(rr.rdata.size()));
      out.write_bytes(rr.rdata);
    }
  }
  return wire;
}

tsig::Key key(const char* key_name, std::uint8_t fill = 7) {
  return tsig::Key{name(key_name), tsig::Algorithm::kHmacSha256, std::vector<std::uint8_t>(32, fill)};
}

TEST(UpdateMessage, ParsesSectionsAndRefusesBadZoneSections) {
  auto parsed = parse_update(build("example.test.", {{"www.example.test.", RRType::A, RRClass::ANY, 0, {}}},
                                   {{"new.example.test.", RRType::A, RRClass::IN, 60, a(1)}}));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->zone, name("example.test."));
  ASSERT_EQ(parsed->prerequisites.size(), 1U);
  EXPECT_TRUE(parsed->prerequisites[0].rdata.empty());
  ASSERT_EQ(parsed->updates.size(), 1U);
  EXPECT_EQ(parsed->updates[0].rdata, a(1));
  EXPECT_FALSE(parse_update(build("example.test.", {}, {}, RRType::A)).ok());
  auto two_zones = build("example.test.", {}, {});
  two_zones[5] = 2;
  EXPECT_FALSE(parse_update(two_zones).ok());
  auto trailing = build("example.test.", {}, {});
  trailing.push_back(0);
  EXPECT_FALSE(parse_update(trailing).ok());
  auto short_rdata = build("example.test.", {}, {{"new.example.test.", RRType::A, RRClass::IN, 60, {1, 2, 3}}});
  EXPECT_FALSE(parse_update(short_rdata).ok());
}

class UpdateHandlerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/update_test.XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    auto journal = store::Journal::open(std::string(dir) + "/journal.db");
    ASSERT_TRUE(journal) << journal.error().message;
    store_ = std::make_unique<store::Store>(std::move(*journal), [](auto) {}, logger_);
    auto loaded = zone::load_zone_text(name("example.test."), kZone, "test");
    ASSERT_TRUE(loaded.zone);
    ASSERT_TRUE(store_->load({store::ZoneSource{loaded.zone, {}, ""}}));
    handler_ = std::make_unique<UpdateHandler>(
        store_.get(), tsig::KeyRing({key("writer."), key("reader.", 9), key("controller.", 7)}),
        std::map<std::string, std::vector<UpdateKey>>{
            {"example.test.", {UpdateKey{name("writer."), false}, UpdateKey{name("controller."), true}}}},
        logger_,
        [this] { return now_; });
  }

  struct Reply {
    dns::Rcode rcode = dns::Rcode::kServFail;
    std::uint16_t tsig_error = 0;
    bool signature_verifies = false;
  };

  Reply send(std::vector<std::uint8_t> request, const tsig::Key* signer = nullptr) {
    std::vector<std::uint8_t> request_mac;
    if (signer != nullptr) request_mac = tsig::sign_request(request, *signer, kNow);
    auto response = handler_->handle(request, "test");
    Reply reply;
    auto header = dns::parse_header(response);
    EXPECT_TRUE(header.ok());
    if (!header) return reply;
    EXPECT_EQ(header->id, 0x4242);
    EXPECT_TRUE(header->qr);
    reply.rcode = static_cast<dns::Rcode>(header->rcode);
    auto tsig = tsig::locate_tsig(response);
    if (tsig.ok() && tsig->has_value()) reply.tsig_error = (*tsig)->record.error;
    if (signer != nullptr) reply.signature_verifies = tsig::ResponseVerifier(*signer, request_mac).verify(response, kNow).ok();
    return reply;
  }

  Reply send_signed(std::vector<std::uint8_t> request) {
    tsig::Key writer = key("writer.");
    return send(std::move(request), &writer);
  }

  std::size_t count(const char* owner, RRType type) {
    auto view = store_->view(name("example.test."));
    const store::RRsetData* rrset = view->data.find(name(owner), type);
    return rrset == nullptr ? 0 : rrset->rdatas.size();
  }

  std::uint64_t version() { return store_->view(name("example.test."))->version; }

  base::Logger logger_{nullptr, base::LogLevel::kError};
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<UpdateHandler> handler_;
  std::uint64_t now_ = kNow;
};

TEST_F(UpdateHandlerTest, SignedAddAndDeletesApplyAndTheReplyIsSigned) {
  Reply added = send_signed(build("example.test.", {}, {{"new.example.test.", RRType::A, RRClass::IN, 60, a(1)},
                                                        {"new.example.test.", RRType::A, RRClass::IN, 60, a(2)}}));
  EXPECT_EQ(added.rcode, dns::Rcode::kNoError);
  EXPECT_TRUE(added.signature_verifies);
  EXPECT_EQ(count("new.example.test.", RRType::A), 2U);
  EXPECT_EQ(store_->view(name("example.test."))->serial, 11U);

  EXPECT_EQ(send_signed(build("example.test.", {}, {{"www.example.test.", RRType::A, RRClass::NONE, 0, a(10)}})).rcode,
            dns::Rcode::kNoError);
  EXPECT_EQ(count("www.example.test.", RRType::A), 1U);
  EXPECT_EQ(send_signed(build("example.test.", {}, {{"new.example.test.", RRType::ANY, RRClass::ANY, 0, {}}})).rcode,
            dns::Rcode::kRefused);  // the floor: new would lose its last address
  EXPECT_EQ(count("new.example.test.", RRType::A), 2U);
}

// allow-update: [{key: controller, allow-empty: true}]: that key may delete a name's last
// address (external-dns deleting a record it owns); the same update from writer is refused.
TEST_F(UpdateHandlerTest, AnAllowEmptyKeyMayDeleteANamesLastAddressAndOnlyIt) {
  std::vector<std::uint8_t> add = build("example.test.", {}, {{"gone.example.test.", RRType::A, RRClass::IN, 60, a(7)}});
  ASSERT_EQ(send_signed(add).rcode, dns::Rcode::kNoError);
  std::vector<std::uint8_t> remove =
      build("example.test.", {}, {{"gone.example.test.", RRType::A, RRClass::NONE, 0, a(7)}});
  EXPECT_EQ(send_signed(remove).rcode, dns::Rcode::kRefused);
  EXPECT_EQ(count("gone.example.test.", RRType::A), 1U);
  tsig::Key controller = key("controller.", 7);
  Reply deleted = send(remove, &controller);
  EXPECT_EQ(deleted.rcode, dns::Rcode::kNoError);
  EXPECT_TRUE(deleted.signature_verifies);
  EXPECT_EQ(count("gone.example.test.", RRType::A), 0U);
}

TEST_F(UpdateHandlerTest, RefusalsChangeNothing) {
  std::vector<std::uint8_t> add = build("example.test.", {}, {{"new.example.test.", RRType::A, RRClass::IN, 60, a(1)}});
  tsig::Key wrong_secret = key("writer.", 8);
  tsig::Key not_allowed = key("reader.", 9);
  tsig::Key unknown = key("stranger.");
  struct Case {
    const char* what;
    std::vector<std::uint8_t> request;
    const tsig::Key* signer;
    dns::Rcode rcode;
    std::uint16_t tsig_error;
  };
  std::vector<Case> cases = {
      {"unsigned", add, nullptr, dns::Rcode::kRefused, 0},
      {"wrong secret", add, &wrong_secret, dns::Rcode::kNotAuth, 16},
      {"unknown key", add, &unknown, dns::Rcode::kNotAuth, 17},
      {"key not in allow-update", add, &not_allowed, dns::Rcode::kRefused, 0},
  };
  std::uint64_t before = version();
  for (auto& c : cases) {
    Reply reply = send(c.request, c.signer);
    EXPECT_EQ(reply.rcode, c.rcode) << c.what;
    EXPECT_EQ(reply.tsig_error, c.tsig_error) << c.what;
  }
  now_ = kNow + 1000;
  Reply late = send_signed(add);
  EXPECT_EQ(late.rcode, dns::Rcode::kNotAuth);
  EXPECT_EQ(late.tsig_error, 18);  // BADTIME, and signed
  EXPECT_EQ(version(), before);
  EXPECT_EQ(count("new.example.test.", RRType::A), 0U);
}

TEST_F(UpdateHandlerTest, SectionRcodes) {
  struct Case {
    const char* what;
    std::vector<std::uint8_t> request;
    dns::Rcode rcode;
  };
  Rr add{"new.example.test.", RRType::A, RRClass::IN, 60, a(1)};
  std::vector<Case> cases = {
      {"zone not served", build("other.test.", {}, {{"new.other.test.", RRType::A, RRClass::IN, 60, a(1)}}),
       dns::Rcode::kNotAuth},
      {"update outside the zone", build("example.test.", {}, {{"www.other.test.", RRType::A, RRClass::IN, 60, a(1)}}),
       dns::Rcode::kNotZone},
      {"prerequisite outside the zone", build("example.test.", {{"x.other.test.", RRType::ANY, RRClass::ANY, 0, {}}}, {add}),
       dns::Rcode::kNotZone},
      {"name not in use, but it is", build("example.test.", {{"www.example.test.", RRType::ANY, RRClass::NONE, 0, {}}}, {add}),
       dns::Rcode::kYxDomain},
      {"name in use, but it is not", build("example.test.", {{"nope.example.test.", RRType::ANY, RRClass::ANY, 0, {}}}, {add}),
       dns::Rcode::kNxDomain},
      {"RRset exists, but it does not", build("example.test.", {{"www.example.test.", RRType::MX, RRClass::ANY, 0, {}}}, {add}),
       dns::Rcode::kNxRrset},
      {"RRset does not exist, but it does", build("example.test.", {{"www.example.test.", RRType::A, RRClass::NONE, 0, {}}}, {add}),
       dns::Rcode::kYxRrset},
      {"value-dependent RRset differs",
       build("example.test.", {{"www.example.test.", RRType::A, RRClass::IN, 0, a(10)}}, {add}), dns::Rcode::kNxRrset},
      {"prerequisite TTL not 0", build("example.test.", {{"www.example.test.", RRType::A, RRClass::ANY, 5, {}}}, {add}),
       dns::Rcode::kFormErr},
      {"delete with rdata in class ANY", build("example.test.", {}, {{"www.example.test.", RRType::A, RRClass::ANY, 0, a(10)}}),
       dns::Rcode::kFormErr},
      {"add of a meta type", build("example.test.", {}, {{"www.example.test.", RRType::AXFR, RRClass::IN, 0, a(10)}}),
       dns::Rcode::kFormErr},
      {"class CH", build("example.test.", {}, {{"www.example.test.", RRType::A, RRClass::CH, 0, a(10)}}),
       dns::Rcode::kFormErr},
  };
  std::uint64_t before = version();
  for (auto& c : cases) EXPECT_EQ(send_signed(c.request).rcode, c.rcode) << c.what;
  EXPECT_EQ(version(), before);
  EXPECT_EQ(count("new.example.test.", RRType::A), 0U);

  auto whole_set = build("example.test.", {{"www.example.test.", RRType::A, RRClass::IN, 0, a(11)},
                                           {"www.example.test.", RRType::A, RRClass::IN, 0, a(10)}},
                         {add});
  EXPECT_EQ(send_signed(whole_set).rcode, dns::Rcode::kNoError);
  EXPECT_EQ(count("new.example.test.", RRType::A), 1U);
}

TEST_F(UpdateHandlerTest, ApexRulesAndGarbage) {
  // §3.4.2: the SOA cannot be deleted and the apex keeps its NS; such updates are ignored.
  Reply ignored = send_signed(build("example.test.", {}, {{"example.test.", RRType::SOA, RRClass::ANY, 0, {}},
                                                          {"example.test.", RRType::NS, RRClass::ANY, 0, {}}}));
  EXPECT_EQ(ignored.rcode, dns::Rcode::kNoError);
  EXPECT_EQ(count("example.test.", RRType::SOA), 1U);
  EXPECT_EQ(count("example.test.", RRType::NS), 1U);

  std::vector<std::uint8_t> garbage = {0x42, 0x42, 0x28, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  EXPECT_EQ(send(garbage).rcode, dns::Rcode::kFormErr);
  EXPECT_TRUE(handler_->handle(std::vector<std::uint8_t>{1, 2, 3}, "test").empty());
}

TEST(UpdateHandlerWithoutStore, RefusesEverything) {
  base::Logger logger{nullptr, base::LogLevel::kError};
  UpdateHandler handler(nullptr, tsig::KeyRing(), {}, logger);
  auto response = handler.handle(build("example.test.", {}, {}), "test");
  auto header = dns::parse_header(response);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(static_cast<dns::Rcode>(header->rcode), dns::Rcode::kRefused);
}

// RFC 8914: a refusal to a request with an OPT says why (18 Prohibited); without one, no OPT.
TEST(UpdateHandlerWithoutStore, RefusalCarriesProhibitedWhenTheRequestHadAnOpt) {
  base::Logger logger{nullptr, base::LogLevel::kError};
  UpdateHandler handler(nullptr, tsig::KeyRing(), {}, logger);
  auto request = build("example.test.", {}, {});
  dns::Edns edns;
  base::ByteWriter out(request);
  dns::write_opt_record(edns, out);
  request[11] = 1;  // ARCOUNT
  auto reply = dns::parse_message(handler.handle(request, "test"));
  ASSERT_TRUE(reply.ok());
  ASSERT_TRUE(reply->edns.has_value());
  ASSERT_EQ(reply->edns->options.size(), 1u);
  const auto& option = reply->edns->options.front();
  EXPECT_EQ(option.code, dns::kExtendedErrorOption);
  EXPECT_EQ(option.data[0] << 8 | option.data[1], static_cast<int>(dns::ExtendedError::kProhibited));
  EXPECT_EQ(std::string(option.data.begin() + 2, option.data.end()), "no journal configured: updates are off");
  auto without = dns::parse_message(handler.handle(build("example.test.", {}, {}), "test"));
  ASSERT_TRUE(without.ok());
  EXPECT_FALSE(without->edns.has_value());
}

}  // namespace
}  // namespace cutover::update
