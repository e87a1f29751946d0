// Views in the engine (auth/views.h): the first view whose match-clients holds the source
// address answers from its own zones, over the default ones it does not replace; a view with
// ecs reads a trusted resolver's Client Subnet instead and the echoed scope covers the bits
// the choice read, on the fast path and the general path alike; match-keys is by_key's.
#include <gtest/gtest.h>

#include "auth/answer_batch.h"
#include "auth/dynamic_answers.h"
#include "auth/engine.h"
#include "auth/test_support.h"
#include "auth/views.h"
#include "dns/edns_options.h"

namespace cutover::auth {
namespace {

using dns::RRType;
using testing::find_option;
using testing::make_query;
using testing::make_zone;
using Bytes = std::vector<std::uint8_t>;

std::shared_ptr<const zone::Zone> example(const std::string& www, const std::string& ns) {
  return make_zone("example.test.", {"example.test. 300 SOA ns.example.test. admin.example.test. 1 3600 600 86400 60",
                                     "example.test. 300 NS ns.example.test.", "ns.example.test. 300 A " + ns,
                                     "www.example.test. 300 A " + www});
}

std::shared_ptr<const zone::Zone> other() {
  return make_zone("other.test.", {"other.test. 300 SOA ns.other.test. admin.other.test. 1 3600 600 86400 60",
                                   "other.test. 300 NS ns.other.test.", "ns.other.test. 300 A 192.0.2.54"});
}

std::vector<base::NetworkPrefix> prefixes(std::initializer_list<const char*> texts) {
  std::vector<base::NetworkPrefix> out;
  for (const char* text : texts) out.push_back(*base::parse_network_prefix(text));
  return out;
}

base::NetworkTable table(std::initializer_list<const char*> texts) {
  base::NetworkTable out;
  for (const auto& prefix : prefixes(texts)) EXPECT_TRUE(out.add(prefix, 0).ok());
  out.seal();
  return out;
}

dns::EdnsOption ecs(std::uint8_t source, Bytes address) {
  Bytes data = {0, 1, source, 0};
  address.resize((source + 7) / 8);
  data.insert(data.end(), address.begin(), address.end());
  return {dns::kClientSubnetOption, data};
}

class ViewsTest : public ::testing::Test {
 protected:
  ViewsTest() : base_({example("192.0.2.10", "192.0.2.53"), other()}) {
    View internal;
    internal.name = "internal";
    internal.clients = prefixes({"10.0.0.0/8", "127.0.0.2/32"});
    internal.ecs = true;
    internal.keys = {*dns::Name::from_text("internal-key.")};
    internal.zones = ZoneSet::overlay(ZoneSet({example("10.0.0.10", "10.0.0.53")}), base_);
    View lab;
    lab.name = "lab";
    lab.clients = prefixes({"127.0.0.0/24"});  // holds 127.0.0.2 too: the first view wins
    lab.zones = ZoneSet::overlay(ZoneSet({example("198.51.100.10", "198.51.100.53")}), base_);
    zones_ = ZoneSet::with_views(base_, std::make_shared<const ViewTable>(std::vector<View>{internal, lab}));
  }

  // Answered for `source` by answer_query (the fast path when it can) and, in the view
  // answer_query chose, by the general path alone: byte for byte the same.
  // `compare` = false for queries whose Client Subnet picks the view (the scope the general
  // path needs is the choice's; the ECS test compares those itself).
  dns::Message ask(const Bytes& query, std::array<std::uint8_t, 4> source, const View** view = nullptr,
                   bool* fast = nullptr, bool compare = true) {
    ClientContext client{source, nullptr, 0, &trust_};
    Bytes first, general;
    QueryOutcome outcome = answer_query(*zones_, nullptr, query, Transport::kUdp, first, true, &client);
    if (view != nullptr) *view = outcome.view;
    if (fast != nullptr) *fast = outcome.fast_path;
    if (compare) {
      EXPECT_EQ(outcome.view, zones_->views()->choose(source, std::nullopt).view);
      answer_query_general(outcome.view != nullptr ? *outcome.view->zones : *zones_, query, Transport::kUdp, general,
                           nullptr, &client);
      EXPECT_EQ(first, general);
    }
    auto parsed = dns::parse_message(first);
    EXPECT_TRUE(parsed.ok());
    return parsed.ok() ? *parsed : dns::Message{};
  }

  static std::string address(const dns::Message& reply) {
    EXPECT_EQ(reply.answers.size(), 1u);
    if (reply.answers.empty()) return "";
    return dns::rdata_to_text(RRType::A, reply.answers[0].rdata);
  }

  ZoneSet base_;
  std::shared_ptr<const ZoneSet> zones_;
  base::NetworkTable trust_ = table({"127.0.0.1/32"});
};

TEST_F(ViewsTest, TheFirstMatchingViewAnswersFromItsZonesOnTheFastPath) {
  const View* view = nullptr;
  bool fast = false;
  EXPECT_EQ(address(ask(make_query("www.example.test.", RRType::A), {127, 0, 0, 2}, &view, &fast)), "10.0.0.10");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->name, "internal");  // listed first, though lab's 127.0.0.0/24 holds it too
  EXPECT_TRUE(fast);
  EXPECT_EQ(address(ask(make_query("www.example.test.", RRType::A), {127, 0, 0, 9}, &view)), "198.51.100.10");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->name, "lab");
  // No view matches: the default zones.
  EXPECT_EQ(address(ask(make_query("www.example.test.", RRType::A, true), {192, 0, 2, 1}, &view)), "192.0.2.10");
  EXPECT_EQ(view, nullptr);
  // The general path's shapes too: NXDOMAIN carries the view's SOA, ANY the view's data.
  dns::Message nx = ask(make_query("nope.example.test.", RRType::A), {127, 0, 0, 2});
  EXPECT_EQ(nx.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kNxDomain));
  ask(make_query("example.test.", RRType::ANY), {127, 0, 0, 2});
}

TEST_F(ViewsTest, ZonesAViewDoesNotReplaceAreTheDefaults) {
  const View* view = nullptr;
  EXPECT_EQ(address(ask(make_query("ns.other.test.", RRType::A), {127, 0, 0, 2}, &view)), "192.0.2.54");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->name, "internal");
  // ...shared, not copied: the view's set holds the default's prepared zone itself.
  const ZoneSet& internal = *zones_->views()->views()[0].zones;
  ASSERT_EQ(internal.zones().size(), 2u);
  EXPECT_EQ(internal.find(*dns::Name::from_text("other.test.")), base_.find(*dns::Name::from_text("other.test.")));
  EXPECT_NE(internal.find(*dns::Name::from_text("example.test.")), base_.find(*dns::Name::from_text("example.test.")));
  // A name in no zone of the view or the default is refused in the view as outside.
  dns::Message refused = ask(make_query("www.elsewhere.test.", RRType::A), {127, 0, 0, 2});
  EXPECT_EQ(refused.header.rcode, static_cast<std::uint8_t>(dns::Rcode::kRefused));
}

TEST_F(ViewsTest, ATrustedResolversSubnetPicksAnEcsViewAndTheScopeSaysHowFar) {
  // From the trusted resolver 127.0.0.1 (itself in lab), client 10.1.2.0/24: internal.
  const View* view = nullptr;
  bool fast = false;
  dns::Message reply = ask(testing::query_with_options("www.example.test.", RRType::A, {ecs(24, {10, 1, 2})}),
                           {127, 0, 0, 1}, &view, &fast, false);
  EXPECT_EQ(address(reply), "10.0.0.10");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->name, "internal");
  EXPECT_TRUE(fast);
  const dns::EdnsOption* echoed = find_option(reply, dns::kClientSubnetOption);
  ASSERT_NE(echoed, nullptr);
  EXPECT_EQ(echoed->data[2], 24);
  EXPECT_EQ(echoed->data[3], 8);  // all of 10.0.0.0/8 gets this view
  // Client 192.0.2.0/24: not internal (decided by the first bit), then lab by the resolver's
  // own address (lab reads no subnet): scope 1.
  reply = ask(testing::query_with_options("www.example.test.", RRType::A, {ecs(24, {192, 0, 2})}), {127, 0, 0, 1}, &view,
              nullptr, false);
  EXPECT_EQ(address(reply), "198.51.100.10");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->name, "lab");
  echoed = find_option(reply, dns::kClientSubnetOption);
  ASSERT_NE(echoed, nullptr);
  EXPECT_EQ(echoed->data[3], 1);
  // The same query through the general path in the chosen view, told the view's scope,
  // writes the same bytes as the fast path did.
  for (auto [prefix, expected_view] : std::vector<std::pair<Bytes, std::string>>{{{10, 1, 2}, "internal"},
                                                                                 {{192, 0, 2}, "lab"}}) {
    Bytes query = testing::query_with_options("www.example.test.", RRType::A, {ecs(24, prefix)});
    const std::array<std::uint8_t, 4> resolver = {127, 0, 0, 1};
    ClientContext client{resolver, nullptr, 0, &trust_};
    Bytes first, general;
    QueryOutcome outcome = answer_query(*zones_, nullptr, query, Transport::kUdp, first, true, &client);
    ASSERT_NE(outcome.view, nullptr);
    EXPECT_EQ(outcome.view->name, expected_view);
    std::array<std::uint8_t, 16> bytes{};
    std::copy(prefix.begin(), prefix.end(), bytes.begin());
    client.subnet_scope_floor =
        zones_->views()->choose(resolver, ClientNetwork{std::span<const std::uint8_t>(bytes.data(), 4), 24}).scope;
    answer_query_general(*outcome.view->zones, query, Transport::kUdp, general, nullptr, &client);
    EXPECT_EQ(first, general) << expected_view;
  }
  // From an untrusted sender the option is ignored: its source address decides, no echo.
  reply = ask(testing::query_with_options("www.example.test.", RRType::A, {ecs(24, {10, 1, 2})}), {192, 0, 2, 1}, &view);
  EXPECT_EQ(address(reply), "192.0.2.10");
  EXPECT_EQ(find_option(reply, dns::kClientSubnetOption), nullptr);
  // /0 asks for no tailoring (RFC 7871 §7.1.2): the resolver's own address (lab), scope 0.
  reply = ask(testing::query_with_options("www.example.test.", RRType::A, {ecs(0, {})}), {127, 0, 0, 1}, &view, nullptr,
              false);
  EXPECT_EQ(address(reply), "198.51.100.10");
  ASSERT_NE(find_option(reply, dns::kClientSubnetOption), nullptr);
  EXPECT_EQ(find_option(reply, dns::kClientSubnetOption)->data[3], 0);
}

TEST_F(ViewsTest, ABatchAnswersEachQueryInItsOwnView) {
  Bytes query = make_query("www.example.test.", RRType::A);
  const std::array<std::array<std::uint8_t, 4>, 3> sources = {{{127, 0, 0, 2}, {127, 0, 0, 9}, {192, 0, 2, 1}}};
  std::array<Bytes, 3> responses;
  std::vector<BatchQuery> batch;
  for (std::size_t i = 0; i < sources.size(); ++i) batch.push_back({query, &responses[i], sources[i]});
  std::array<QueryOutcome, 3> outcomes;
  answer_batch(*zones_, nullptr, batch, outcomes, nullptr, 0, &trust_);
  const std::array<const char*, 3> expected = {"10.0.0.10", "198.51.100.10", "192.0.2.10"};
  for (std::size_t i = 0; i < sources.size(); ++i) {
    auto reply = dns::parse_message(responses[i]);
    ASSERT_TRUE(reply.ok());
    EXPECT_EQ(address(*reply), expected[i]) << i;
  }
}

TEST_F(ViewsTest, KeysAndNamesFindTheirView) {
  const ViewTable& views = *zones_->views();
  ASSERT_NE(views.by_key(*dns::Name::from_text("INTERNAL-key.")), nullptr);  // names compare case-insensitively
  EXPECT_EQ(views.by_key(*dns::Name::from_text("INTERNAL-key."))->name, "internal");
  EXPECT_EQ(views.by_key(*dns::Name::from_text("other-key.")), nullptr);
  ASSERT_NE(views.by_name("lab"), nullptr);
  EXPECT_EQ(views.by_name("nope"), nullptr);
  // A view matched only by key never matches an address.
  View keyed;
  keyed.name = "keyed";
  keyed.keys = {*dns::Name::from_text("k.")};
  keyed.zones = std::make_shared<const ZoneSet>(std::vector<std::shared_ptr<const zone::Zone>>{});
  ViewTable only_keys({keyed});
  const std::array<std::uint8_t, 4> anyone = {10, 0, 0, 1};
  EXPECT_EQ(only_keys.choose(anyone, std::nullopt).view, nullptr);
}

// One table answers every source lookup (and every subnet one when all views read Client
// Subnet); its longest match must still be the first matching view's, in config order.
TEST(ViewTable, TheFirstMatchingViewWinsOverALongerPrefixOfALaterOne) {
  auto view = [](const char* name, std::initializer_list<const char*> texts, bool ecs = false) {
    View out;
    out.name = name;
    out.clients = prefixes(texts);
    out.ecs = ecs;
    return out;
  };
  auto name_of = [](ViewChoice choice) { return choice.view != nullptr ? choice.view->name : std::string("-"); };
  const std::array<std::uint8_t, 4> in_both = {10, 1, 2, 3};
  const std::array<std::uint8_t, 4> wide_only = {10, 2, 0, 1};
  const std::array<std::uint8_t, 4> doc = {192, 0, 2, 1};
  const std::array<std::uint8_t, 4> nowhere = {198, 51, 100, 1};
  ViewTable wide_first({view("wide", {"10.0.0.0/8"}), view("narrow", {"10.1.0.0/16", "192.0.2.0/24"})});
  EXPECT_EQ(name_of(wide_first.choose_by_source(in_both)), "wide");
  EXPECT_EQ(name_of(wide_first.choose_by_source(doc)), "narrow");
  EXPECT_EQ(name_of(wide_first.choose_by_source(nowhere)), "-");
  ViewTable narrow_first({view("narrow", {"10.1.0.0/16", "192.0.2.0/24"}), view("wide", {"10.0.0.0/8"})});
  EXPECT_EQ(name_of(narrow_first.choose_by_source(in_both)), "narrow");
  EXPECT_EQ(name_of(narrow_first.choose_by_source(wide_only)), "wide");
  // Every view reads Client Subnet: the same table decides, and its scope is the choice's.
  ViewTable by_subnet({view("wide", {"10.0.0.0/8"}, true), view("narrow", {"10.1.0.0/16", "192.0.2.0/24"}, true)});
  auto subnet = [](const std::array<std::uint8_t, 4>& address, unsigned bits) {
    return std::optional<ClientNetwork>(ClientNetwork{address, bits});
  };
  ViewChoice wide = by_subnet.choose(nowhere, subnet(in_both, 24));
  EXPECT_EQ(name_of(wide), "wide");
  EXPECT_EQ(wide.scope, 8);  // all of 10/8 goes to wide
  ViewChoice narrow = by_subnet.choose(nowhere, subnet(doc, 24));
  EXPECT_EQ(name_of(narrow), "narrow");
  EXPECT_EQ(narrow.scope, 24);
  ViewChoice none = by_subnet.choose(in_both, subnet(nowhere, 24));
  EXPECT_EQ(name_of(none), "-");  // the resolver's own address in 10/8 does not count
  EXPECT_GT(none.scope, 0);
}

// A dynamic entry (a pool) limited to views is answered only there; in the other views the
// name is answered from zone data, or from another entry of the same name limited to them, on
// the fast path and the general path alike.
TEST_F(ViewsTest, AnEntryLimitedToViewsIsZoneDataElsewhere) {
  auto fixed_a = [](dns::Rdata address) {
    DynamicFamily family;
    family.type = RRType::A;
    family.fixed = zone::RRset(RRType::A, 30);
    family.fixed.rdatas = {std::move(address)};
    return family;
  };
  DynamicFamily family = fixed_a({203, 0, 113, 7});
  DynamicAnswer entry;
  entry.source = "web";
  entry.owner = *dns::Name::from_text("www.example.test.");
  entry.ttl = 30;
  entry.counters = std::make_shared<AnswerCounters>();
  entry.a = family;
  entry.aaaa.type = RRType::AAAA;
  entry.views = kDefaultViewBit;  // the default zones only
  std::shared_ptr<const DynamicAnswers> dynamic = std::make_shared<const DynamicAnswers>(std::vector<DynamicAnswer>{entry});
  ASSERT_TRUE(dynamic->restricted());
  auto ask_pool = [&](std::array<std::uint8_t, 4> source, bool edns) {
    ClientContext client{source, nullptr, 0, &trust_};
    Bytes first;
    QueryOutcome outcome =
        answer_query(*zones_, dynamic.get(), make_query("www.example.test.", RRType::A, edns), Transport::kUdp, first, true, &client);
    // The general path in the same view, told the same view, writes the same bytes.
    ClientContext same = client;
    same.view_bit = outcome.view != nullptr ? outcome.view->bit : kDefaultViewBit;
    Bytes general;
    answer_query_general(outcome.view != nullptr ? *outcome.view->zones : *zones_, make_query("www.example.test.", RRType::A, edns),
                         Transport::kUdp, general, dynamic.get(), &same);
    EXPECT_EQ(first, general);
    auto parsed = dns::parse_message(first);
    EXPECT_TRUE(parsed.ok());
    return std::make_pair(parsed.ok() ? address(*parsed) : std::string(), outcome.dynamic != nullptr);
  };
  for (bool edns : {false, true}) {
    EXPECT_EQ(ask_pool({192, 0, 2, 1}, edns), std::make_pair(std::string("203.0.113.7"), true));     // default: the pool
    EXPECT_EQ(ask_pool({127, 0, 0, 2}, edns), std::make_pair(std::string("10.0.0.10"), false));      // internal: its zone
    EXPECT_EQ(ask_pool({127, 0, 0, 9}, edns), std::make_pair(std::string("198.51.100.10"), false));  // lab: its zone
  }
  // Each view has its own bit, the default bit 0.
  EXPECT_EQ(zones_->views()->views()[0].bit, 2);
  EXPECT_EQ(zones_->views()->views()[1].bit, 4);
  // Unlimited entries are not tested at all.
  DynamicAnswer every = entry;
  every.views = kEveryView;
  EXPECT_FALSE(DynamicAnswers(std::vector<DynamicAnswer>{every}).restricted());

  // A second entry for the same name in the internal view: each view meets its own, lab none.
  DynamicAnswer internal = entry;
  internal.source = "web-internal";
  internal.a = fixed_a({10, 0, 0, 77});
  internal.views = zones_->views()->views()[0].bit;
  dynamic = std::make_shared<const DynamicAnswers>(std::vector<DynamicAnswer>{internal, entry});
  for (bool edns : {false, true}) {
    EXPECT_EQ(ask_pool({192, 0, 2, 1}, edns), std::make_pair(std::string("203.0.113.7"), true));
    EXPECT_EQ(ask_pool({127, 0, 0, 2}, edns), std::make_pair(std::string("10.0.0.77"), true));
    EXPECT_EQ(ask_pool({127, 0, 0, 9}, edns), std::make_pair(std::string("198.51.100.10"), false));
  }
  const dns::Name www = *dns::Name::from_text("www.example.test.");
  EXPECT_EQ(dynamic->find(www, kDefaultViewBit)->source, "web");
  EXPECT_EQ(dynamic->find(www, zones_->views()->views()[0].bit)->source, "web-internal");
  EXPECT_EQ(dynamic->find(www, zones_->views()->views()[1].bit), nullptr);
}

TEST_F(ViewsTest, WithoutViewsNothingIsChosen) {
  EXPECT_EQ(base_.views(), nullptr);
  auto stripped = ZoneSet::with_views(*zones_, nullptr);
  EXPECT_EQ(stripped->views(), nullptr);
  const std::array<std::uint8_t, 4> internal = {127, 0, 0, 2};
  ClientContext client{internal, nullptr, 0, &trust_};
  Bytes response;
  QueryOutcome outcome =
      answer_query(*stripped, nullptr, make_query("www.example.test.", RRType::A), Transport::kUdp, response, true, &client);
  EXPECT_EQ(outcome.view, nullptr);
  auto reply = dns::parse_message(response);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(address(*reply), "192.0.2.10");
}

}  // namespace
}  // namespace cutover::auth
