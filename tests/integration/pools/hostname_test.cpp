// Hostname endpoints (docs/pools.md, "Hostname endpoints") against the real server with real
// probes: a pool of `target:` endpoints answers a CNAME to a serving target; the targets'
// names are served by a second cutover, which the checks ask (`resolver:`); a target whose
// HTTP check fails, and then one whose name stops resolving, is left out; a target inside the
// pool's own zone is followed in the same answer. Endpoints live on 127.0.0.191-193 (no other
// test uses them). Every wait is a bounded poll (at most 10 s) of a state the fast checks
// (I = 200 ms, F = 2, R = 1; records with TTL 1) reach within about two seconds.
#include "pool_fixture.h"

namespace cutover::testing {
namespace {

// The targets' zone, served by a second cutover: lb-eu and lb-us (TTL 1, negative TTL 1, so
// a checker's cached answer lives a second).
std::string target_zone(bool with_eu) {
  std::string text =
      "$ORIGIN target.test.\n$TTL 1\n"
      "@      IN SOA ns hostmaster 1 3600 600 86400 1\n"
      "@      IN NS  ns\n"
      "ns     IN A   192.0.2.53\n"
      "lb-us  IN A   127.0.0.192\n";
  if (with_eu) text += "lb-eu  IN A   127.0.0.191\n";
  return text;
}

// Two targets with HTTP endpoints on one port and their zone served by a second cutover, and
// the pool's YAML over them.
struct Targets {
  HttpEndpoint eu{"127.0.0.191"};
  HttpEndpoint us{"127.0.0.192", eu.port()};
  std::string dir = make_temp_dir("cutover-targets");
  std::unique_ptr<CutoverServer> server;

  Targets() {
    set_zone(true);
    ServerSpec spec;
    spec.zones = {{"target.test.", dir + "/target.db"}};
    server = std::make_unique<CutoverServer>(spec);
  }
  void set_zone(bool with_eu) const { write_file(dir + "/target.db", target_zone(with_eu)); }
  // Pool `app` (app.pool.test) over lb-eu (priority 1) and lb-us (priority 2), its checks
  // resolving through the targets' server; `keys`: more pool keys ("    ttl: 1\n").
  std::string pool_yaml(const std::string& keys = "") const {
    return fmt::format(
        "  app:\n    name: app.pool.test\n    shape: failover\n{}"
        "    check: {{type: http, path: /health, interval: 200ms, timeout: 150ms, fall: 2, rise: 1, "
        "resolver: '127.0.0.1:{}'}}\n"
        "    endpoints:\n"
        "      - {{target: lb-eu.target.test., port: {}, priority: 1}}\n"
        "      - {{target: lb-us.target.test., port: {}, priority: 2}}\n",
        keys, server->port(), eu.port(), us.port());
  }
};

// The CNAME target answered for NAME, or "" when the answer holds none.
std::string cname_of(std::uint16_t port, const std::string& name) {
  DigResult result = dig(port, name, "A");
  auto targets = DigResult::rdatas(result.answer, "CNAME");
  return targets.size() == 1 ? targets.front() : "";
}

bool wait_for_cname(std::uint16_t port, const std::string& name, const std::string& expected) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (cname_of(port, name) == expected) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

TEST(HostnameEndpoints, ACnameToAServingTargetFailingOverOnItsCheckAndOnItsName) {
  Targets targets;
  HttpEndpoint& eu = targets.eu;
  CutoverServer& target_server = *targets.server;
  PoolDir dir;
  dir.write_config(targets.pool_yaml());
  PoolServer server(dir);
  ASSERT_TRUE(server.wait_for_status("\"state\": \"up\"")) << server.server().log();

  // The pool's name holds a CNAME and nothing else; the target is another zone's, so the
  // answer stops there (the resolver follows it).
  DigResult answer = dig(server.dns_port(), "app.pool.test", "A");
  EXPECT_EQ(answer.status, "NOERROR");
  EXPECT_TRUE(answer.has_flag("aa"));
  ASSERT_EQ(answer.answer.size(), 1u) << answer.raw;
  EXPECT_EQ(answer.answer[0].type, "CNAME");
  EXPECT_EQ(answer.answer[0].rdata, "lb-eu.target.test.");
  EXPECT_EQ(answer.answer[0].ttl, 60u);  // the pool's TTL
  DigResult aaaa = dig(server.dns_port(), "app.pool.test", "AAAA");
  EXPECT_EQ(DigResult::rdatas(aaaa.answer, "CNAME"), std::vector<std::string>{"lb-eu.target.test."});
  EXPECT_TRUE(DigResult::rdatas(aaaa.answer, "AAAA").empty());
  // The endpoint is probed at the address its name resolves to.
  EXPECT_TRUE(server.wait_for_status("(at 127.0.0.191)")) << server.get("/status").body;

  eu.set_reply(500, "down");
  EXPECT_TRUE(wait_for_cname(server.dns_port(), "app.pool.test", "lb-us.target.test.")) << server.server().log();
  eu.set_reply(200, "ok");
  EXPECT_TRUE(wait_for_cname(server.dns_port(), "app.pool.test", "lb-eu.target.test.")) << server.server().log();

  // lb-eu leaves the targets' zone: its HTTP server still answers, but its name no longer
  // resolves, so the endpoint goes down.
  targets.set_zone(false);
  target_server.reload();
  ASSERT_TRUE(target_server.wait_for_log("reload.ok")) << target_server.log();
  EXPECT_TRUE(wait_for_cname(server.dns_port(), "app.pool.test", "lb-us.target.test.")) << server.server().log();
  EXPECT_TRUE(server.server().wait_for_log("lb-eu.target.test. does not resolve")) << server.server().log();
  std::string status = server.get("/status").body;
  EXPECT_NE(status.find("\"CNAME\""), std::string::npos) << status;
  std::string metrics = server.get("/metrics").body;
  EXPECT_NE(metrics.find("cutover_pool_endpoints_up{pool=\"app\",type=\"CNAME\"} 1"), std::string::npos) << metrics;

  targets.set_zone(true);  // back
  target_server.reload();
  ASSERT_TRUE(target_server.wait_for_log("reload.ok", 2)) << target_server.log();
  EXPECT_TRUE(wait_for_cname(server.dns_port(), "app.pool.test", "lb-eu.target.test.")) << server.server().log();
}

// A target inside the pool's own zone: the answer carries the CNAME and the target's A
// (RFC 1034 §4.3.2), and the check asks the same server for the target's address.
TEST(HostnameEndpoints, ATargetInTheSameZoneIsFollowedInTheAnswer) {
  HttpEndpoint web("127.0.0.193");
  PoolDir dir;
  write_file(dir.dir + "/pool.db", pool_zone_text() + "web-a IN A 127.0.0.193\n");
  std::uint16_t port = free_port();
  dir.write_config(fmt::format(
      "  app:\n    name: app.pool.test\n    when-all-down: nodata\n"
      "    check: {{type: http, path: /health, interval: 200ms, timeout: 150ms, fall: 2, rise: 1, resolver: '127.0.0.1:{}'}}\n"
      "    endpoints: [{{target: web-a.pool.test., port: {}}}]\n",
      port, web.port()));
  PoolServer server(dir, port);
  ASSERT_TRUE(server.wait_for_status("\"state\": \"up\"")) << server.server().log();
  DigResult answer = dig(server.dns_port(), "app.pool.test", "A");
  ASSERT_EQ(answer.answer.size(), 2u) << answer.raw;
  EXPECT_EQ(answer.answer[0].type, "CNAME");
  EXPECT_EQ(answer.answer[0].rdata, "web-a.pool.test.");
  EXPECT_EQ(answer.answer[1].owner, "web-a.pool.test.");
  EXPECT_EQ(answer.answer[1].rdata, "127.0.0.193");
  // Down, with nodata when all are down: the name answers NOERROR with no record.
  web.set_reply(500, "down");
  ASSERT_TRUE(server.server().wait_for_log("pool.all_down pool=app type=CNAME")) << server.server().log();
  DigResult nodata = dig(server.dns_port(), "app.pool.test", "A");
  EXPECT_EQ(nodata.status, "NOERROR");
  EXPECT_TRUE(nodata.answer.empty()) << nodata.raw;
}

// Through a real Unbound (stub zones for the pool's zone and the targets' zone): a client gets
// the CNAME and the target's address in one answer, and, with the pool's TTL of 1 s, the
// other target's address soon after a failover.
TEST(HostnameEndpoints, AResolverFollowsTheCnameToTheServingTargetsAddress) {
  Targets targets;
  PoolDir dir;
  dir.write_config(targets.pool_yaml("    ttl: 1\n"));
  PoolServer server(dir);
  ASSERT_TRUE(server.wait_for_status("\"state\": \"up\"")) << server.server().log();
  UnboundResolver unbound(dir.dir, {{"pool.test.", server.dns_port()}, {"target.test.", targets.server->port()}});
  ASSERT_TRUE(unbound.ready()) << unbound.log();
  std::uint16_t unbound_port = unbound.port();
  auto resolved = [&] {
    DigResult result = dig(unbound_port, "app.pool.test", "A");
    auto cnames = DigResult::rdatas(result.answer, "CNAME");
    auto addresses = DigResult::rdatas(result.answer, "A");
    return (cnames.empty() ? "" : cnames.front()) + " " + (addresses.empty() ? "" : addresses.front());
  };
  EXPECT_EQ(resolved(), "lb-eu.target.test. 127.0.0.191") << unbound.log();
  targets.eu.set_reply(500, "down");
  bool moved = false;
  for (int poll = 0; poll < 200 && !moved; ++poll) {
    moved = resolved() == "lb-us.target.test. 127.0.0.192";
    if (!moved) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(moved) << resolved() << "\n" << server.server().log();
}

// A check that connects nowhere (a pushed signal) is not wrapped in name resolution: without
// `signal:` it reads the signal named after the target, and a pushed DOWN takes the target
// out at once (wrapped, an unresolvable name would have left it unknown and serving).
TEST(HostnameEndpoints, ASignalCheckReadsTheTargetsNameAndResolvesNothing) {
  PoolDir dir;
  dir.write_config(
      "  app:\n    name: app.pool.test\n    shape: failover\n"
      "    check: {type: signal, interval: 200ms, timeout: 100ms, fall: 1, rise: 1}\n"
      "    endpoints:\n"
      "      - {target: lb-a.unresolvable.invalid., priority: 1}\n"
      "      - {target: lb-b.unresolvable.invalid., priority: 2}\n");
  PoolServer server(dir);
  EXPECT_TRUE(wait_for_cname(server.dns_port(), "app.pool.test", "lb-a.unresolvable.invalid."));  // unknown serves
  ASSERT_EQ(server.put("/signals/lb-a.unresolvable.invalid.", R"({"state": "down", "ttl": "1h"})").status, 200);
  EXPECT_TRUE(wait_for_cname(server.dns_port(), "app.pool.test", "lb-b.unresolvable.invalid.")) << server.server().log();
  ASSERT_EQ(server.put("/signals/lb-a.unresolvable.invalid.", R"({"state": "up", "ttl": "1h"})").status, 200);
  EXPECT_TRUE(wait_for_cname(server.dns_port(), "app.pool.test", "lb-a.unresolvable.invalid.")) << server.server().log();
  EXPECT_EQ(server.server().log().find("resolve"), std::string::npos) << server.server().log();
}

TEST(HostnameEndpoints, ConfigMistakesNameTheirPlace) {
  PoolDir dir;
  dir.write_config("  app:\n    name: app.pool.test\n    check: {type: tcp, port: 80}\n"
                   "    endpoints: [{target: lb.example.net}, {address: 192.0.2.1}]\n");
  CommandResult checked = run_command({CUTOVER_BINARY, "serve", "--check", "--config", dir.config_path}, std::chrono::seconds(20));
  EXPECT_NE(checked.exit_code, 0);
  EXPECT_NE(checked.err.find("cutover.yaml:9:43: pools.app.endpoints[1]: a pool's endpoints are all addresses or all "
                             "hostnames (target:)"),
            std::string::npos)
      << checked.out << checked.err;
}

}  // namespace
}  // namespace cutover::testing
