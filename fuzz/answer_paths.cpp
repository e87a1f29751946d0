// libFuzzer target: the answer engine on arbitrary query bytes, with a steered dynamic name,
// alias names (hostname endpoints: a CNAME followed inside the zone, and one leaving it, one of
// them steered) and Client Subnet trusted and not, without views and with two (one reading
// Client Subnet, one pool limited to the default view). The fast path (answer_query) and the
// general pipeline (answer_query_general, in the view the engine chose) must give the same bytes
// for every input, and whatever is answered must parse; a malformed option is FORMERR on both,
// never a crash (RFC 7871 §7.2.1). Beside it the engine serves a pre-signed NSEC3 opt-out zone
// (tests/zones/signed-optout.test.zone): queries with DO get its RRSIGs and proofs
// (auth/dnssec.h), the positive ones from the fast path's signed index; and example.test. is
// signed online (auth/online_signing.h, an Ed25519 key made at start): DO queries to it, its
// pools included, get RRSIGs made as answered and compact denial, on both paths alike.
#include <array>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <memory>
#include <vector>

#include "auth/dynamic_answers.h"
#include "auth/engine.h"
#include "auth/fast_query.h"
#include "auth/online_signing.h"
#include "auth/views.h"
#include "dns/message.h"
#include "fuzz_check.h"
#include "zone/master_parser.h"

namespace {

using namespace cutover;
using fuzz::check;

constexpr char kZoneText[] = R"zone($TTL 300
@ IN SOA ns1 hostmaster 1 3600 600 86400 60
@ IN NS ns1
ns1 IN A 192.0.2.53
www IN A 192.0.2.1
alias IN CNAME www
sub IN NS ns.sub
ns.sub IN A 192.0.2.54
)zone";

struct Engine {
  auth::ZoneSet zones;
  std::shared_ptr<const auth::DynamicAnswers> dynamic;
  base::NetworkTable trust;
  std::shared_ptr<const auth::ZoneSet> viewed;  // `zones` with two views
};

// A view's own example.test.: other addresses, no delegation, a wildcard.
constexpr char kViewZoneText[] = R"zone($TTL 300
@ IN SOA ns1 hostmaster 2 3600 600 86400 60
@ IN NS ns1
ns1 IN A 10.0.0.53
www IN A 10.0.0.1
* IN A 10.0.0.9
)zone";

std::shared_ptr<const zone::Zone> build_zone(const char* text, const char* origin_text = "example.test.") {
  dns::Name origin = *dns::Name::from_text(origin_text);
  auto parsed = zone::parse_master_text(origin, text, "answer_paths.cpp");
  std::vector<dns::ResourceRecord> records;
  for (auto& record : parsed.records) records.push_back(std::move(record.record));
  auto zone = zone::Zone::build(origin, records);
  check(zone.ok(), "the fuzz zone builds");
  return *zone;
}

auth::DynamicFamily fixed(dns::RRType type, std::vector<dns::Rdata> rdatas) {
  auth::DynamicFamily family;
  family.type = type;
  family.fixed = zone::RRset(type, 30);
  family.fixed.order = zone::RRsetOrder::kCyclic;
  family.fixed.rdatas = zone::RdataList(rdatas);
  return family;
}

const Engine& engine() {
  static const Engine built = [] {
    std::shared_ptr<const zone::Zone> zone = build_zone(kZoneText);
    base::NetworkTable networks;
    for (const auto& [text, group] : std::vector<std::pair<const char*, std::uint32_t>>{
             {"10.1.0.0/16", 0}, {"10.1.2.0/24", 1}, {"127.0.0.2/32", 0}, {"2001:db8::/32", 1}, {"0.0.0.0/1", 1}}) {
      check(networks.add(*base::parse_network_prefix(text), group).ok(), "a prefix adds");
    }
    auth::DynamicAnswer steered;
    steered.source = "app";
    steered.owner = *dns::Name::from_text("app.example.test.");
    steered.ttl = 30;
    steered.counters = std::make_shared<auth::AnswerCounters>();
    networks.seal();  // as the networks file reader does
    steered.networks = std::make_shared<const base::NetworkTable>(std::move(networks));
    steered.groups = {{"eu", fixed(dns::RRType::A, {{192, 0, 2, 10}, {192, 0, 2, 11}}), fixed(dns::RRType::AAAA, {}), {}},
                      {"us", fixed(dns::RRType::A, {{198, 51, 100, 10}}),
                       fixed(dns::RRType::AAAA, {{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}}), {}}};
    steered.a = steered.groups[1].a;
    steered.aaaa = steered.groups[1].aaaa;
    auth::DynamicAnswer plain;
    plain.source = "plain";
    plain.owner = *dns::Name::from_text("plain.example.test.");
    plain.ttl = 20;
    plain.counters = std::make_shared<auth::AnswerCounters>();
    plain.a = fixed(dns::RRType::A, {{192, 0, 2, 20}});
    plain.aaaa = fixed(dns::RRType::AAAA, {});
    plain.views = auth::kDefaultViewBit | 4;  // the default zones and the second view
    auth::DynamicAnswer inside = plain;         // the same name for the first view: its own pool
    inside.source = "plain-inside";
    inside.a = fixed(dns::RRType::A, {{10, 0, 0, 20}, {10, 0, 0, 21}});
    inside.views = 2;
    std::vector<auth::DynamicAnswer> answers{steered, plain, inside};
    auto cname_to = [](const char* target) {
      dns::Name name = *dns::Name::from_text(target);
      return fixed(dns::RRType::CNAME, {dns::Rdata(name.wire().begin(), name.wire().end())});
    };
    auto alias_entry = [](const char* owner) {
      auth::DynamicAnswer alias;
      alias.source = owner;
      alias.owner = *dns::Name::from_text(owner);
      alias.ttl = 20;
      alias.counters = std::make_shared<auth::AnswerCounters>();
      alias.alias = true;
      return alias;
    };
    for (const auto& [owner, target] : std::vector<std::pair<const char*, const char*>>{
             {"lb.example.test.", "www.example.test."}, {"away.example.test.", "lb.example.net."},
             {"near.example.test.", "lb.Test."}}) {
      auth::DynamicAnswer alias = alias_entry(owner);
      alias.cname = cname_to(target);
      answers.push_back(std::move(alias));
    }
    // A steered alias: the eu group's clients to a target outside the zone (the fast path), the
    // us group's to one inside it (followed by the general path).
    auth::DynamicAnswer regional = alias_entry("regional.example.test.");
    regional.networks = steered.networks;
    regional.groups = {{"eu", {}, {}, cname_to("lb-eu.example.net.")}, {"us", {}, {}, cname_to("www.example.test.")}};
    regional.cname = regional.groups[1].cname;
    answers.push_back(std::move(regional));
    base::NetworkTable trust;
    check(trust.add(*base::parse_network_prefix("127.0.0.0/8"), 0).ok(), "trust adds");
    std::ifstream signed_file(CUTOVER_SOURCE_DIR "/tests/zones/signed-optout.test.zone");
    std::string signed_text((std::istreambuf_iterator<char>(signed_file)), std::istreambuf_iterator<char>());
    check(!signed_text.empty(), "the signed test zone is readable");
    auto signed_zone = build_zone(signed_text.c_str(), "signed-optout.test.");
    auto key = dnssec::SigningKey::generate(zone->origin(), dnssec::kEd25519, 257);
    check(key.ok(), "a signing key is made");
    auth::set_online_signer(zone->origin(), std::make_shared<const auth::OnlineSigner>(
                                                zone->origin(), std::vector<std::shared_ptr<const dnssec::SigningKey>>{*key},
                                                auth::OnlinePolicy{}, std::time(nullptr)));
    Engine engine{auth::ZoneSet({zone, signed_zone}), std::make_shared<const auth::DynamicAnswers>(std::move(answers)),
                  std::move(trust), nullptr};
    std::vector<auth::View> views(2);
    views[0].name = "inside";
    views[0].clients = {*base::parse_network_prefix("10.0.0.0/8"), *base::parse_network_prefix("127.0.0.2/32")};
    views[0].ecs = true;
    views[0].zones = auth::ZoneSet::overlay(auth::ZoneSet({build_zone(kViewZoneText)}), engine.zones);
    views[1].name = "lab";
    views[1].clients = {*base::parse_network_prefix("192.0.2.0/24"), *base::parse_network_prefix("10.1.0.0/16")};
    views[1].zones = auth::ZoneSet::overlay(auth::ZoneSet(std::vector<std::shared_ptr<const zone::Zone>>{}), engine.zones);
    engine.viewed = auth::ZoneSet::with_views(engine.zones, std::make_shared<const auth::ViewTable>(std::move(views)));
    return engine;
  }();
  return built;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Engine& e = engine();
  std::span<const std::uint8_t> query(data, size);
  // From a trusted resolver, an untrusted client, and with no trust table at all.
  const std::array<std::array<std::uint8_t, 4>, 3> sources = {{{127, 0, 0, 2}, {192, 0, 2, 77}, {127, 0, 0, 3}}};
  for (std::size_t i = 0; i < sources.size(); ++i) {
    auth::ClientContext client{sources[i], nullptr, 0, i == 2 ? nullptr : &e.trust};
    for (auto transport : {auth::Transport::kUdp, auth::Transport::kTcp}) {
      for (bool with_views : {false, true}) {
        std::vector<std::uint8_t> first, general;
        const auth::ZoneSet& served = with_views ? *e.viewed : e.zones;
        auto outcome = auth::answer_query(served, e.dynamic.get(), query, transport, first, true, &client);
        // The general path in the view the engine chose, told what the choice told the engine.
        auth::ClientContext in_view = client;
        const auth::ZoneSet* reference_zones = &e.zones;
        if (with_views) {
          auth::FastQuery read;
          bool readable = auth::read_fast_query(query, transport, read);
          auth::ViewChoice choice = auth::choose_view(*e.viewed->views(), query, readable ? &read : nullptr, client);
          check(outcome.view == choice.view, "the engine answered in the view it chose");
          in_view.subnet_scope_floor = choice.scope;
          in_view.view_bit = choice.view != nullptr ? choice.view->bit : auth::kDefaultViewBit;
          reference_zones = choice.view != nullptr ? choice.view->zones.get() : e.viewed.get();
        }
        auto reference = auth::answer_query_general(*reference_zones, query, transport, general, e.dynamic.get(), &in_view);
        check(outcome.respond == reference.respond, "both paths respond or drop alike");
        // Cyclic rotation advances per answer, so the fixed sets of two members can differ in
        // order between the two calls: compare everything but the order of the answer records.
        if (!outcome.respond) continue;
        auto a = dns::parse_message(first);
        auto b = dns::parse_message(general);
        check(a.ok() && b.ok(), "every response parses");
        check(first.size() == general.size(), "both paths give responses of one size");
        check(a->header.rcode == b->header.rcode && a->header.tc == b->header.tc, "rcode and TC agree");
        check(a->answers.size() == b->answers.size() && a->authorities.size() == b->authorities.size(), "sections agree");
        check(a->edns.has_value() == b->edns.has_value(), "OPT presence agrees");
        if (a->edns) {
          check(a->edns->options.size() == b->edns->options.size(), "options agree");
          for (std::size_t k = 0; k < a->edns->options.size(); ++k) {
            check(a->edns->options[k].code == b->edns->options[k].code && a->edns->options[k].data == b->edns->options[k].data,
                  "option bytes agree");
          }
        }
      }
    }
  }
  return 0;
}
