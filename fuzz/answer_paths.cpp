// libFuzzer target: the answer engine on arbitrary query bytes, with a steered dynamic name,
// alias names (hostname endpoints: a CNAME followed inside the zone, and one leaving it, one of
// them steered) and Client Subnet trusted and not. The fast path (answer_query) and the general pipeline
// (answer_query_general) must give the same bytes for every input, and whatever is answered
// must parse; a malformed option is FORMERR on both, never a crash (RFC 7871 §7.2.1).
#include <array>
#include <memory>
#include <vector>

#include "auth/dynamic_answers.h"
#include "auth/engine.h"
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
};

auth::DynamicFamily fixed(dns::RRType type, std::vector<dns::Rdata> rdatas) {
  auth::DynamicFamily family;
  family.type = type;
  family.fixed = zone::RRset(type, 30);
  family.fixed.order = zone::RRsetOrder::kCyclic;
  family.fixed.rdatas = std::move(rdatas);
  return family;
}

const Engine& engine() {
  static const Engine built = [] {
    dns::Name origin = *dns::Name::from_text("example.test.");
    auto parsed = zone::parse_master_text(origin, kZoneText, "answer_paths.cpp");
    std::vector<dns::ResourceRecord> records;
    for (auto& record : parsed.records) records.push_back(std::move(record.record));
    auto zone = zone::Zone::build(origin, records);
    check(zone.ok(), "the fuzz zone builds");
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
    std::vector<auth::DynamicAnswer> answers{steered, plain};
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
    return Engine{auth::ZoneSet({*zone}),
                  std::make_shared<const auth::DynamicAnswers>(std::move(answers)),
                  std::move(trust)};
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
      std::vector<std::uint8_t> first, general;
      auto outcome = auth::answer_query(e.zones, e.dynamic.get(), query, transport, first, true, &client);
      auto reference = auth::answer_query_general(e.zones, query, transport, general, e.dynamic.get(), &client);
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
  return 0;
}
