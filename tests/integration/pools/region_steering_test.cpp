// Steering by client network (docs/steering.md) against the real server with real probes and
// real dig: the query's source address picks the region (dig -b), a trusted resolver's EDNS
// Client Subnet picks it instead and is echoed with its scope (dig +subnet, RFC 7871), a
// region whose endpoints are all down is answered from the next region of its order and gets
// its own back, and a bad networks file names file, line and column, at start and on reload
// (which keeps the old table); IPv6 sources and subnets over an IPv6 listener. Endpoints live
// on 127.0.0.181-183 and clients on 127.0.0.185-187 (no other test uses them). Every wait is a bounded poll of at most 10 s.
#include <fstream>

#include "pool_fixture.h"

namespace cutover::testing {
namespace {

constexpr const char* kNetworks =
    "# client prefix   region\n"
    "127.0.0.185       eu\n"
    "127.0.0.186/32    us\n"
    "198.51.100.0/24   us\n"
    "203.0.113.0/24    eu\n";

std::string steered_pool(const HttpEndpoint& eu1, const HttpEndpoint& eu2, const HttpEndpoint& us) {
  return fmt::format(
      "  app:\n    name: app.pool.test\n    shape: all-healthy\n    ttl: 20s\n    networks: networks.txt\n"
      "    regions: {{eu: [eu, us], us: [us, eu]}}\n    default-region: us\n    check: {}\n    endpoints:\n"
      "{}{}{}",
      kFastHttpCheck, endpoint_yaml(eu1, ", region: eu"), endpoint_yaml(eu2, ", region: eu"),
      endpoint_yaml(us, ", region: us"));
}

// The three endpoints (eu: .181, .182; us: .183) and a directory with the networks file and
// the config of the steered pool; `extra`: top-level config lines.
constexpr const char* kTrustLoopback = "client-subnet: {trust: 127.0.0.1}\n";
struct Regions {
  HttpEndpoint eu1{"127.0.0.181"};
  HttpEndpoint eu2{"127.0.0.182"};
  HttpEndpoint us{"127.0.0.183"};
  PoolDir dir;

  explicit Regions(const std::string& extra = "") {
    write_file(dir.dir + "/networks.txt", kNetworks);
    dir.write_config(steered_pool(eu1, eu2, us), extra);
  }
};

std::vector<std::string> answer_for(std::uint16_t port, std::vector<std::string> extra) {
  DigResult result = dig(port, "app.pool.test", "A", std::move(extra));
  auto out = DigResult::rdatas(result.answer, "A");
  std::sort(out.begin(), out.end());
  return out;
}

bool wait_for(std::uint16_t port, const std::vector<std::string>& extra, const std::vector<std::string>& expected) {
  for (int poll = 0; poll < 200; ++poll) {
    if (answer_for(port, extra) == expected) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

const std::vector<std::string> kEu{"127.0.0.181", "127.0.0.182"};
const std::vector<std::string> kUs{"127.0.0.183"};
const std::vector<std::string> kFromEu{"-b", "127.0.0.185"};
const std::vector<std::string> kFromUs{"-b", "127.0.0.186"};

TEST(RegionSteering, SourceAddressAndTrustedClientSubnetPickTheRegion) {
  Regions regions(kTrustLoopback);
  auto& [eu1, eu2, us, dir] = regions;
  PoolServer server(dir);
  ASSERT_TRUE(server.wait_for_status("\"region\": \"eu\""));
  EXPECT_TRUE(wait_for(server.dns_port(), kFromEu, kEu));
  EXPECT_EQ(answer_for(server.dns_port(), kFromUs), kUs);
  EXPECT_EQ(answer_for(server.dns_port(), {"-b", "127.0.0.187"}), kUs);  // no prefix: the default region

  // The trusted resolver 127.0.0.1 passes its client's network on; the answer says which
  // leading bits it holds for (SCOPE), so the resolver caches it for the whole /24.
  DigResult eu_client = dig(server.dns_port(), "app.pool.test", "A", {"+subnet=203.0.113.7/32"});
  EXPECT_EQ([&] { auto a = DigResult::rdatas(eu_client.answer, "A"); std::sort(a.begin(), a.end()); return a; }(), kEu);
  EXPECT_NE(eu_client.raw.find("CLIENT-SUBNET: 203.0.113.7/32/24"), std::string::npos) << eu_client.raw;
  DigResult us_client = dig(server.dns_port(), "app.pool.test", "A", {"+subnet=198.51.100.0/24"});
  EXPECT_EQ(DigResult::rdatas(us_client.answer, "A"), kUs);
  EXPECT_NE(us_client.raw.find("CLIENT-SUBNET: 198.51.100.0/24/24"), std::string::npos) << us_client.raw;
  // /0: no tailoring asked; the resolver's own address (us, the default) and scope 0.
  DigResult zero = dig(server.dns_port(), "app.pool.test", "A", {"+subnet=0.0.0.0/0"});
  EXPECT_NE(zero.raw.find("CLIENT-SUBNET: 0.0.0.0/0/0"), std::string::npos) << zero.raw;
  // A zone name is the same for everyone: scope 0.
  DigResult zone_name = dig(server.dns_port(), "ns1.pool.test", "A", {"+subnet=203.0.113.0/24"});
  EXPECT_NE(zone_name.raw.find("CLIENT-SUBNET: 203.0.113.0/24/0"), std::string::npos) << zone_name.raw;
  // From an untrusted sender the option is ignored (no echo) and its source address decides.
  DigResult untrusted = dig(server.dns_port(), "app.pool.test", "A", {"-b", "127.0.0.185", "+subnet=198.51.100.0/24"});
  auto untrusted_answer = DigResult::rdatas(untrusted.answer, "A");
  std::sort(untrusted_answer.begin(), untrusted_answer.end());
  EXPECT_EQ(untrusted_answer, kEu);
  EXPECT_EQ(untrusted.raw.find("CLIENT-SUBNET"), std::string::npos) << untrusted.raw;
  // kdig's ECS too, over TCP.
  DigResult over_tcp = kdig(server.dns_port(), "app.pool.test", "A", {"+tcp", "+subnet=203.0.113.0/24"});
  EXPECT_EQ(DigResult::rdatas(over_tcp.answer, "A").size(), 2u) << over_tcp.raw;

  std::string status = server.get("/status").body;
  EXPECT_NE(status.find("\"default_region\": \"us\""), std::string::npos) << status;
  EXPECT_NE(status.find("\"prefixes\": 4"), std::string::npos) << status;
  CommandResult text = run_command({CUTOVER_BINARY, "status", "--control", fmt::format("127.0.0.1:{}", server.control_port())},
                                   std::chrono::seconds(20));
  EXPECT_NE(text.out.find("steering: 4 prefixes"), std::string::npos) << text.out << text.err;
  EXPECT_NE(text.out.find("region eu: A 127.0.0.181 127.0.0.182"), std::string::npos) << text.out;
}

// IPv6 clients, over an IPv6 listener: the source address ::1 and a trusted resolver's IPv6
// Client Subnet each pick their region through the table's IPv6 trie, the scope echoed.
TEST(RegionSteering, Ipv6SourcesAndIpv6ClientSubnetsPickTheRegion) {
  if (!ipv6_loopback_available()) GTEST_SKIP() << "no IPv6 loopback on this machine";
  HttpEndpoint eu1{"127.0.0.181"};
  HttpEndpoint eu2{"127.0.0.182"};
  HttpEndpoint us{"127.0.0.183"};
  PoolDir dir;
  write_file(dir.dir + "/networks.txt", "::1 eu\n2001:db8:e0::/48 eu\n2001:db8:5::/48 us\n");
  dir.write_config(steered_pool(eu1, eu2, us), "client-subnet: {trust: ['::1']}\n");
  std::uint16_t port = free_port();
  PoolServer server(dir, port, {"--listen", fmt::format("[::1]:{}", port)});
  auto over_v6 = [&](std::vector<std::string> extra) {
    std::vector<std::string> argv{"dig", "@::1", "-p", std::to_string(port), "app.pool.test", "A", "+time=2", "+tries=1"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    CommandResult run = run_command(argv, std::chrono::seconds(10));
    DigResult reply = parse_dig_output(run.out);
    reply.raw = run.out + run.err;
    return reply;
  };
  auto sorted_a = [](const DigResult& reply) {
    auto a = DigResult::rdatas(reply.answer, "A");
    std::sort(a.begin(), a.end());
    return a;
  };
  bool ready = false;
  for (int poll = 0; poll < 200 && !ready; ++poll) {
    ready = sorted_a(over_v6({})) == kEu;  // ::1 is eu's
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(ready) << over_v6({}).raw;
  DigResult us_client = over_v6({"+subnet=2001:db8:5:7::/64"});
  EXPECT_EQ(sorted_a(us_client), kUs) << us_client.raw;
  EXPECT_NE(us_client.raw.find("CLIENT-SUBNET: 2001:db8:5:7::/64/48"), std::string::npos) << us_client.raw;
  DigResult eu_client = over_v6({"+subnet=2001:db8:e0::/56"});
  EXPECT_EQ(sorted_a(eu_client), kEu) << eu_client.raw;
  EXPECT_NE(eu_client.raw.find("CLIENT-SUBNET: 2001:db8:e0::/56/48"), std::string::npos) << eu_client.raw;
  DigResult nobody = over_v6({"+subnet=2001:db8:99::/48"});  // no prefix: the default region, us
  EXPECT_EQ(sorted_a(nobody), kUs) << nobody.raw;
  // From 127.0.0.1, which is not trusted here, the option is ignored: 127.0.0.1 has no
  // prefix, so us, and nothing is echoed.
  DigResult untrusted = dig(port, "app.pool.test", "A", {"+subnet=2001:db8:e0::/56"});
  EXPECT_EQ(sorted_a(untrusted), kUs) << untrusted.raw;
  EXPECT_EQ(untrusted.raw.find("CLIENT-SUBNET"), std::string::npos) << untrusted.raw;
}

TEST(RegionSteering, ARegionFailsOverInItsOrderAndComesBack) {
  Regions regions;
  auto& [eu1, eu2, us, dir] = regions;
  PoolServer server(dir);
  ASSERT_TRUE(wait_for(server.dns_port(), kFromEu, kEu));
  eu1.set_reply(500, "down");
  EXPECT_TRUE(wait_for(server.dns_port(), kFromEu, {"127.0.0.182"}));  // eu keeps its survivor
  EXPECT_EQ(answer_for(server.dns_port(), kFromUs), kUs);
  eu2.set_reply(500, "down");
  ASSERT_TRUE(server.server().wait_for_log("pool.region_served_from pool=app type=A region=eu from=us"))
      << server.server().log();
  EXPECT_TRUE(wait_for(server.dns_port(), kFromEu, kUs));
  EXPECT_TRUE(server.wait_for_status("\"region\": \"us\""));
  std::string metrics = server.get("/metrics").body;
  EXPECT_NE(metrics.find("cutover_pool_region_away{pool=\"app\",type=\"A\",region=\"eu\",from=\"us\"} 1"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("cutover_pool_region_away{pool=\"app\",type=\"A\",region=\"us\",from=\"us\"} 0"),
            std::string::npos);
  // us down too while eu is back: us's clients go to eu.
  eu1.set_reply(200, "ok");
  eu2.set_reply(200, "ok");
  EXPECT_TRUE(server.server().wait_for_log("pool.region_served_from pool=app type=A region=eu from=eu"));
  us.set_reply(500, "down");
  EXPECT_TRUE(server.server().wait_for_log("pool.region_served_from pool=app type=A region=us from=eu"));
  EXPECT_TRUE(wait_for(server.dns_port(), kFromUs, kEu));
  EXPECT_TRUE(wait_for(server.dns_port(), kFromEu, kEu));
  us.set_reply(200, "ok");
  EXPECT_TRUE(wait_for(server.dns_port(), kFromUs, kUs));
}

TEST(RegionSteering, ABadNetworksFileNamesItsPlaceAndAReloadKeepsTheOldTable) {
  Regions regions;
  auto& dir = regions.dir;
  write_file(dir.dir + "/networks.txt", std::string(kNetworks) + "10.1.0.0/8 eu\n");
  CommandResult checked = run_command({CUTOVER_BINARY, "serve", "--check", "--config", dir.config_path}, std::chrono::seconds(20));
  EXPECT_NE(checked.exit_code, 0);
  EXPECT_NE(checked.err.find("pools.app.networks: " + dir.dir + "/networks.txt:6:1: 10.1.0.0/8 has bits set past /8 "
                             "(did you mean 10.0.0.0/8?)"),
            std::string::npos)
      << checked.err;

  write_file(dir.dir + "/networks.txt", kNetworks);
  PoolServer server(dir);
  ASSERT_TRUE(wait_for(server.dns_port(), kFromEu, kEu));
  write_file(dir.dir + "/networks.txt", std::string(kNetworks) + "127.0.0.187 mars\n");
  server.server().reload();
  ASSERT_TRUE(server.server().wait_for_log("networks.txt:6:13: unknown region 'mars' (the pool's regions: eu, us)"))
      << server.server().log();
  EXPECT_EQ(answer_for(server.dns_port(), kFromEu), kEu);  // the old table serves on
  write_file(dir.dir + "/networks.txt", std::string(kNetworks) + "127.0.0.187 eu\n");
  server.server().reload();
  EXPECT_TRUE(wait_for(server.dns_port(), {"-b", "127.0.0.187"}, kEu));
}

// A MaxMind DB in place of the text file (docs/steering.md, "MaxMind databases"), written by
// MaxMind's own writer: country codes mapped to regions pick the answer by source address and
// by trusted ECS, the scope is the database's prefix length, and a new database (as a GeoIP
// update brings) is read on reload.
void write_mmdb(const std::string& path, const std::string& networks) {
  write_file(path + ".txt", networks);
  CommandResult written = run_command(
      {"/bin/sh", "-c", std::string(CUTOVER_SOURCE_DIR) + "/src/pool/steering/testdata/write_mmdb.pl " + path + " < " + path + ".txt"},
      std::chrono::seconds(30));
  ASSERT_EQ(written.exit_code, 0) << written.err;
}

TEST(RegionSteering, AMaxMindDatabaseMapsCountriesToRegions) {
  HttpEndpoint eu1{"127.0.0.181"};
  HttpEndpoint eu2{"127.0.0.182"};
  HttpEndpoint us{"127.0.0.183"};
  PoolDir dir;
  constexpr const char* kCountries =
      "127.0.0.185/32 DE EU\n127.0.0.186/32 US NA\n203.0.113.0/26 FR EU\n198.51.100.0/24 CA NA\n";
  ASSERT_NO_FATAL_FAILURE(write_mmdb(dir.dir + "/geo.mmdb", kCountries));
  dir.write_config(fmt::format("  app:\n    name: app.pool.test\n    shape: all-healthy\n    ttl: 20s\n"
                               "    networks: {{mmdb: geo.mmdb, map: {{eu: [DE, FR], us: [US, CA]}}}}\n"
                               "    default-region: us\n    check: {}\n    endpoints:\n{}{}{}",
                               kFastHttpCheck, endpoint_yaml(eu1, ", region: eu"), endpoint_yaml(eu2, ", region: eu"),
                               endpoint_yaml(us, ", region: us")),
                   kTrustLoopback);
  PoolServer server(dir);
  EXPECT_TRUE(wait_for(server.dns_port(), kFromEu, kEu));
  EXPECT_EQ(answer_for(server.dns_port(), kFromUs), kUs);
  EXPECT_EQ(answer_for(server.dns_port(), {"-b", "127.0.0.187"}), kUs);  // in no network: the default region
  DigResult fr = dig(server.dns_port(), "app.pool.test", "A", {"+subnet=203.0.113.9/32"});
  EXPECT_NE(fr.raw.find("CLIENT-SUBNET: 203.0.113.9/32/26"), std::string::npos) << fr.raw;  // the database's /26
  EXPECT_EQ(DigResult::rdatas(fr.answer, "A").size(), 2u) << fr.raw;
  std::string status = server.get("/status").body;
  EXPECT_NE(status.find("\"prefixes\": 4"), std::string::npos) << status;
  EXPECT_NE(status.find("geo.mmdb"), std::string::npos) << status;

  // The update moves 127.0.0.187 into Germany; a reload reads the new database. A broken one is
  // refused and the table read before serves on.
  write_file(dir.dir + "/geo.mmdb", "not a database");
  server.server().reload();
  ASSERT_TRUE(server.server().wait_for_log("geo.mmdb: cannot read it as a MaxMind DB")) << server.server().log();
  EXPECT_EQ(answer_for(server.dns_port(), kFromEu), kEu);
  ASSERT_NO_FATAL_FAILURE(write_mmdb(dir.dir + "/geo.mmdb", std::string(kCountries) + "127.0.0.187/32 DE EU\n"));
  server.server().reload();
  EXPECT_TRUE(wait_for(server.dns_port(), {"-b", "127.0.0.187"}, kEu));
}

// A real Unbound with its subnet cache sends each client's address on (max /32 here, so that
// two loopback clients differ) to cutover, which trusts it: each client gets its region's
// answer through the resolver, and Unbound caches it per client network, as the scope says.
// Without ECS both clients would get the answer for Unbound's own address (us, the default).
TEST(RegionSteering, ThroughUnboundsSubnetCacheEachClientGetsItsRegion) {
  Regions regions(kTrustLoopback);
  auto& [eu1, eu2, us, dir] = regions;
  PoolServer server(dir);
  ASSERT_TRUE(wait_for(server.dns_port(), kFromEu, kEu));
  UnboundResolver unbound(dir.dir, {{"pool.test.", server.dns_port()}},
                          "  module-config: \"subnetcache iterator\"\n  send-client-subnet: 127.0.0.1\n"
                          "  max-client-subnet-ipv4: 32\n");
  ASSERT_TRUE(unbound.ready()) << unbound.log();
  std::uint16_t unbound_port = unbound.port();
  EXPECT_EQ(answer_for(unbound_port, kFromEu), kEu) << unbound.log();
  EXPECT_EQ(answer_for(unbound_port, kFromUs), kUs);
  auto queries = [&] {
    std::string status = server.get("/status").body;
    auto at = status.find("\"queries\": ");
    return at == std::string::npos ? -1 : std::stol(status.substr(at + 11));
  };
  long before = queries();
  EXPECT_EQ(answer_for(unbound_port, kFromEu), kEu);  // from Unbound's cache for 127.0.0.185/32
  EXPECT_EQ(answer_for(unbound_port, kFromUs), kUs);
  EXPECT_EQ(queries(), before);
}

}  // namespace
}  // namespace cutover::testing
