// cutover_answer_replay: answers every query of a dnsperf query file against a zone file
// in-process, in batches of 32 through auth::answer_batch as the UDP listener does, so
// callgrind can count the instructions of the answer path alone (--toggle-collect on
// answer_batch, see docs/performance.md). With --pools,
// the names listed in POOL_FILE ("OWNER SHAPE ADDRESS..." per line, every endpoint healthy;
// an ADDRESS ending in a dot is a hostname endpoint, answered as CNAME) are answered by
// health-checked pools, to count what a pool name costs. --edns adds an OPT
// to every query; --cookie client|server adds a DNS Cookie option too (a client cookie
// alone, or with the valid server cookie a resolver sends back), answered with a secret as
// `cutover serve` does, to count what cookies cost (docs/performance.md). --steer PREFIXES
// steers every pool by a networks table of that many /24s (docs/steering.md), the queries
// coming from 1,024 sources in and around them; --ecs sends them all from one trusted resolver
// with each client's /24 in a Client Subnet option instead. --views N configures N views
// (docs/steering.md, "Views"), each serving its own copy of the zone; the query source
// (127.0.0.1; with --ecs the clients' subnets) matches only the last, to count what a view costs.
// --batch N hands the queries over N at a time (default 32, a full receive; 1 is a server at
// a low rate, one datagram per receive, where a batch's fixed costs are paid per query).
// Usage: cutover_answer_replay [--pools POOL_FILE [--steer PREFIXES [--ecs]]] [--views N] [--edns]
//        [--cookie client|server] [--batch N] ORIGIN ZONE_FILE QUERY_FILE [QUERIES]
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "auth/answer_batch.h"
#include "auth/engine.h"
#include "auth/views.h"
#include "base/network_table.h"
#include "dns/edns_options.h"
#include "dns/message.h"
#include "pool/answer_builder.h"
#include "zone/loader.h"

// Under valgrind --instr-atstart=no, instrumentation starts at the answer loop, so loading
// the zone runs at valgrind's uninstrumented speed (the perf gate's run time). Without the
// header (valgrind not installed) the replay still runs; callgrind then instruments all.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CUTOVER_START_INSTRUMENTATION() CALLGRIND_START_INSTRUMENTATION
#else
#define CUTOVER_START_INSTRUMENTATION() ((void)0)
#endif

namespace {

enum class CookieMode { kNone, kClient, kServer };

const std::array<std::uint8_t, 4> kClientAddress = {127, 0, 0, 1};
constexpr std::uint32_t kNow = 1'700'000'000;

// --steer: client networks 10.I.J.0/24 for the first PREFIXES values of I * 256 + J, mapped to
// regions a and b in turn, and the query sources drawn from a little more than they cover.
constexpr std::size_t kClients = 1024;
std::vector<std::array<std::uint8_t, 4>> steering_clients(std::size_t prefixes) {
  std::mt19937 random(7);
  std::size_t span = prefixes + prefixes / 8 + 1;  // about one in nine sources is in no prefix
  std::vector<std::array<std::uint8_t, 4>> clients;
  for (std::size_t i = 0; i < kClients; ++i) {
    std::size_t net = random() % span;
    clients.push_back({10, static_cast<std::uint8_t>(net / 256), static_cast<std::uint8_t>(net % 256),
                       static_cast<std::uint8_t>(random() % 254 + 1)});
  }
  return clients;
}

std::shared_ptr<const cutover::base::NetworkTable> steering_networks(std::size_t prefixes) {
  cutover::base::NetworkTable table;
  for (std::size_t i = 0; i < prefixes; ++i) {
    auto prefix = cutover::base::parse_network_prefix("10." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ".0/24");
    if (!prefix || !table.add(*prefix, static_cast<std::uint32_t>(i % 2)).ok()) return nullptr;
  }
  table.seal();  // as the networks file reader does
  return std::make_shared<const cutover::base::NetworkTable>(std::move(table));
}

// `ecs`: each query carries the Client Subnet of its client's /24 (clients[index % kClients]),
// as a resolver that sends ECS would.
std::vector<std::vector<std::uint8_t>> read_queries(const char* path, bool edns, CookieMode cookie,
                                                    const cutover::dns::CookieSecret& secret,
                                                    const std::vector<std::array<std::uint8_t, 4>>* ecs = nullptr) {
  std::vector<std::vector<std::uint8_t>> queries;
  std::ifstream in(path);
  std::string name, type;
  while (in >> name >> type) {
    auto qname = cutover::dns::Name::from_text(name);
    auto qtype = cutover::dns::type_from_text(type);
    if (!qname || !qtype) continue;
    cutover::dns::Message query;
    query.header.id = static_cast<std::uint16_t>(queries.size());
    query.questions.push_back(cutover::dns::Question{*qname, *qtype, cutover::dns::RRClass::IN});
    if (edns) query.edns = cutover::dns::Edns{};
    if (cookie != CookieMode::kNone) {
      // One client cookie per query source, as a resolver keeps one per server.
      std::vector<std::uint8_t> data = {1, 2, 3, 4, 5, 6, 7, 8};
      if (cookie == CookieMode::kServer) {
        std::array<std::uint8_t, cutover::dns::kServerCookieSize> server{};
        cutover::dns::make_server_cookie(secret, std::span<const std::uint8_t, 8>(data.data(), 8), kClientAddress, kNow, server);
        data.insert(data.end(), server.begin(), server.end());
      }
      query.edns->options.push_back({cutover::dns::kCookieOption, data});
    }
    if (ecs != nullptr) {
      const auto& client = (*ecs)[queries.size() % kClients];
      query.edns->options.push_back({cutover::dns::kClientSubnetOption, {0, 1, 24, 0, client[0], client[1], client[2]}});
    }
    queries.push_back(cutover::dns::encode_message(query));
  }
  return queries;
}

// The pools of POOL_FILE with every endpoint up; null when a line does not parse.
// With `networks`, each pool is steered: its endpoints in regions a and b in turn.
std::shared_ptr<const cutover::pool::PoolAnswers> read_pools(const char* path,
                                                              const cutover::pool::PolicyRegistry& policies,
                                                              std::shared_ptr<const cutover::base::NetworkTable> networks) {
  std::vector<cutover::pool::PoolSpec> specs;
  cutover::health::HealthSnapshot health;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string owner;
    cutover::pool::PoolSpec spec;
    if (!(fields >> owner >> spec.shape)) continue;
    auto name = cutover::dns::Name::from_text(owner);
    if (!name || policies.find(spec.shape) == nullptr) return nullptr;
    spec.name = owner;
    spec.owner = *name;
    for (std::string address; fields >> address;) {
      cutover::pool::EndpointSpec endpoint;
      endpoint.address = address;
      // An absolute name ("lb.example.net.") is a hostname endpoint, answered as CNAME.
      if (!address.empty() && address.back() == '.') endpoint.target = cutover::dns::Name::from_text(address).value();
      if (networks) endpoint.region = spec.endpoints.size() % 2 == 0 ? "a" : "b";
      spec.endpoints.push_back(endpoint);
      health.endpoints.push_back({owner, address, cutover::health::HealthState::kUp, true, {}, false});
    }
    if (networks) {
      spec.steering.networks = networks;
      spec.steering.regions = cutover::pool::default_region_orders({"a", "b"});
    }
    specs.push_back(spec);
  }
  cutover::pool::AnswerBuilder builder(policies, specs);
  std::vector<cutover::pool::AllDownEvent> events;
  return builder.build(health, events);
}

}  // namespace

int main(int argc, char** argv) {
  const char* pool_file = nullptr;
  bool edns = false;
  CookieMode cookie = CookieMode::kNone;
  std::size_t steer = 0;
  std::size_t views = 0;
  bool ecs = false;
  std::size_t batch_size = 32;  // net's recvmmsg batch
  while (argc > 1 && std::strncmp(argv[1], "--", 2) == 0) {
    if (std::strcmp(argv[1], "--edns") == 0 || std::strcmp(argv[1], "--ecs") == 0) {
      edns = true;
      ecs = ecs || std::strcmp(argv[1], "--ecs") == 0;
      argc -= 1;
      argv += 1;
      continue;
    }
    if (argc < 3) break;
    if (std::strcmp(argv[1], "--pools") == 0) {
      pool_file = argv[2];
    } else if (std::strcmp(argv[1], "--steer") == 0) {
      steer = std::strtoul(argv[2], nullptr, 10);
    } else if (std::strcmp(argv[1], "--batch") == 0) {
      batch_size = std::clamp<std::size_t>(std::strtoul(argv[2], nullptr, 10), 1, 32);
    } else if (std::strcmp(argv[1], "--views") == 0) {
      views = std::strtoul(argv[2], nullptr, 10);
    } else if (std::strcmp(argv[1], "--cookie") == 0 && std::strcmp(argv[2], "client") == 0) {
      cookie = CookieMode::kClient;
    } else if (std::strcmp(argv[1], "--cookie") == 0 && std::strcmp(argv[2], "server") == 0) {
      cookie = CookieMode::kServer;
    } else {
      break;
    }
    edns = edns || cookie != CookieMode::kNone;
    argc -= 2;
    argv += 2;
  }
  if (argc < 4) {
    std::fprintf(stderr, "usage: cutover_answer_replay [--pools POOL_FILE [--steer PREFIXES [--ecs]]] [--views N] [--edns] [--cookie client|server] [--batch N] ORIGIN ZONE_FILE "
                 "QUERY_FILE [QUERIES]\n");
    return 2;
  }
  auto origin = cutover::dns::Name::from_text(argv[1]);
  if (!origin) return 2;
  auto load = cutover::zone::load_zone_file(*origin, argv[2]);
  if (!load.zone) {
    std::fprintf(stderr, "cutover_answer_replay: %s did not load\n", argv[2]);
    return 1;
  }
  std::shared_ptr<const cutover::auth::ZoneSet> zone_set = std::make_shared<cutover::auth::ZoneSet>(
      std::vector<std::shared_ptr<const cutover::zone::Zone>>{load.zone});
  if (views != 0) {  // views 1..N-1 match 172.16.I.0/24, the last 127.0.0.0/8 (every query's source)
    std::vector<cutover::auth::View> list;
    for (std::size_t i = 0; i < views; ++i) {
      cutover::auth::View view;
      view.name = "view" + std::to_string(i);
      // With --ecs the views read Client Subnet and the last one holds every client's /24.
      std::string last = ecs ? "10.0.0.0/8" : "127.0.0.0/8";
      std::string prefix = i + 1 == views ? last : "172.16." + std::to_string(i % 256) + ".0/24";
      view.ecs = ecs;
      view.clients = {*cutover::base::parse_network_prefix(prefix)};
      view.zones = cutover::auth::ZoneSet::overlay(cutover::auth::ZoneSet({load.zone}), *zone_set);
      list.push_back(std::move(view));
    }
    zone_set = cutover::auth::ZoneSet::with_views(*zone_set, std::make_shared<const cutover::auth::ViewTable>(std::move(list)));
  }
  const cutover::auth::ZoneSet& zones = *zone_set;
  cutover::pool::PolicyRegistry policies;
  cutover::pool::register_builtin_policies(policies);
  std::shared_ptr<const cutover::pool::PoolAnswers> pools;
  std::shared_ptr<const cutover::base::NetworkTable> networks;
  if (steer != 0 && !(networks = steering_networks(steer))) return 2;
  std::vector<std::array<std::uint8_t, 4>> clients = steering_clients(steer);
  // With --ecs every query comes from the resolver 127.0.0.1, trusted to send Client Subnet.
  cutover::base::NetworkTable trust;
  if (!trust.add(*cutover::base::parse_network_prefix("127.0.0.0/8"), 0).ok()) return 2;
  trust.seal();  // as the server does
  if (pool_file != nullptr && !(pools = read_pools(pool_file, policies, networks))) {
    std::fprintf(stderr, "cutover_answer_replay: %s does not parse\n", pool_file);
    return 1;
  }
  cutover::dns::CookieSecrets secrets;
  secrets.secrets.push_back(cutover::dns::CookieSecret{0x5e, 0xc7, 0xe7});
  secrets.generation = 1;  // as the server publishes them
  auto queries = read_queries(argv[3], edns, cookie, secrets.secrets.front(), ecs ? &clients : nullptr);
  std::size_t count = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : queries.size();
  if (queries.empty()) return 1;
  std::map<int, std::size_t> rcodes;
  std::size_t fast = 0;
  std::size_t pooled = 0;
  const std::size_t kBatch = batch_size;
  std::vector<std::vector<std::uint8_t>> responses(kBatch);
  std::vector<cutover::auth::BatchQuery> batch(kBatch);
  std::vector<cutover::auth::QueryOutcome> outcomes(kBatch);
  CUTOVER_START_INSTRUMENTATION();
  for (std::size_t start = 0; start < count; start += kBatch) {
    std::size_t size = std::min(kBatch, count - start);
    for (std::size_t i = 0; i < size; ++i) {
      responses[i].clear();
      std::size_t query = (start + i) % queries.size();
      // Steered by source address: each query from its client; with ECS, all from the resolver.
      std::span<const std::uint8_t> source = steer != 0 && !ecs ? std::span<const std::uint8_t>(clients[query % kClients])
                                                                : std::span<const std::uint8_t>(kClientAddress);
      batch[i] = {queries[query], &responses[i], source};
    }
    cutover::auth::answer_batch(zones, pools ? pools->dynamic().get() : nullptr, std::span(batch.data(), size),
                                std::span(outcomes.data(), size), &secrets, kNow, ecs ? &trust : nullptr);
    for (std::size_t i = 0; i < size; ++i) {
      const auto& outcome = outcomes[i];
      ++rcodes[outcome.respond ? static_cast<int>(outcome.rcode) : -1];
      fast += outcome.fast_path ? 1 : 0;
      pooled += outcome.dynamic != nullptr ? 1 : 0;
    }
  }
  std::printf("queries %zu fast %zu pool %zu", count, fast, pooled);
  for (auto [rcode, n] : rcodes) std::printf(" rcode%d=%zu", rcode, n);
  std::printf("\n");
  return 0;
}
