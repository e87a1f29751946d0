// The pools section of the config: inheritance of the pool check, per-endpoint overrides,
// and rejection of bad values with file:line:col and the config path.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "config/config.h"
#include "pool/config/pool_config.h"
#include "health/dns/dns_options.h"
#include "health/exec/exec_options.h"
#include "health/http/http_options.h"

namespace cutover::pool {
namespace {

using config::Config;
using config::ConfigError;
using config::parse_config;

// The section is registered once for this test binary, as cmd's main does for cutover.
const bool kSectionRegistered = (register_config_section(), true);

constexpr const char* kZones = "zones:\n  - {origin: example.test., file: z.db}\n";

Config parse(const std::string& pools) { return parse_config(std::string(kZones) + "pools:\n" + pools, "t.yaml", "/d"); }

std::string error_of(const std::string& pools) {
  try {
    parse(pools);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(PoolConfig, ReadsAPoolWithInheritedAndOverriddenChecks) {
  Config config = parse(
      "  app:\n"
      "    name: app.example.test\n"
      "    shape: weighted\n"
      "    max-answers: 2\n"
      "    ttl: 30s\n"
      "    when-all-down: fallback\n"
      "    fallback: [192.0.2.99]\n"
      "    check: {type: http, path: /health, interval: 5s, timeout: 1s, fall: 4, expect-status: '200-299,301'}\n"
      "    endpoints:\n"
      "      - {address: 192.0.2.30, port: 8080, weight: 3}\n"
      "      - {address: '2001:db8::30', port: 8080, check: {timeout: 2s, fall: 2}}\n");
  ASSERT_EQ(config_pools(config).size(), 1u);
  const PoolSpec& spec = config_pools(config)[0];
  EXPECT_EQ(spec.name, "app");
  EXPECT_EQ(spec.owner.to_text(), "app.example.test.");
  EXPECT_EQ(spec.shape, "weighted");
  EXPECT_EQ(spec.max_answers, 2u);
  EXPECT_EQ(spec.ttl, 30u);
  EXPECT_EQ(spec.when_all_down, AllDownPolicy::kFallback);
  ASSERT_EQ(spec.endpoints.size(), 2u);
  EXPECT_EQ(spec.endpoints[0].weight, 3u);
  EXPECT_EQ(spec.endpoints[0].check.fall, 4);
  EXPECT_EQ(spec.endpoints[0].check.options_as<health::HttpOptions>()->path, "/health");
  ASSERT_EQ(spec.endpoints[0].check.options_as<health::HttpOptions>()->expect_status.size(), 2u);
  EXPECT_EQ(spec.endpoints[0].check.options_as<health::HttpOptions>()->expect_status[1].low, 301);
  EXPECT_EQ(spec.endpoints[1].check.fall, 2);
  EXPECT_EQ(spec.endpoints[1].check.timeout, std::chrono::seconds(2));
  EXPECT_EQ(spec.endpoints[1].check.interval, std::chrono::seconds(5));
  EXPECT_EQ(spec.endpoints[1].check.options_as<health::HttpOptions>()->path, "/health");
}

TEST(PoolConfig, DefaultsAreDocumented) {
  Config config = parse("  app: {name: app.example.test, endpoints: [{address: 192.0.2.1, port: 80}]}\n");
  const PoolSpec& spec = config_pools(config).at(0);
  EXPECT_EQ(spec.shape, "failover");
  EXPECT_EQ(spec.ttl, 60u);
  EXPECT_EQ(spec.when_all_down, AllDownPolicy::kFailOpen);
  EXPECT_EQ(spec.check.type, "tcp");
  EXPECT_EQ(spec.check.interval, std::chrono::seconds(10));
  EXPECT_EQ(spec.check.timeout, std::chrono::seconds(2));
  EXPECT_EQ(spec.check.fall, 3);
  EXPECT_EQ(spec.check.rise, 2);
}

TEST(PoolConfig, RejectsBadPoolsWithTheirPlaceAndPath) {
  struct Case {
    std::string pools;
    std::string error;
  };
  const std::string ok_endpoint = "    endpoints: [{address: 192.0.2.1, port: 80}]\n";
  std::vector<Case> cases = {
      {"  app:\n    name: app.example.test\n    check: {type: smtp}\n" + ok_endpoint,
       "t.yaml:6:19: pools.app.check.type: unknown probe type 'smtp' (expected one of: dns, exec, file, http, https, signal, tcp, tcp-banner)"},
      {"  app:\n    name: app.example.test\n    check: {interval: -5s}\n" + ok_endpoint,
       "pools.app.check.interval: expected a positive duration"},
      {"  app:\n    name: app.example.test\n    check: {fall: 0}\n" + ok_endpoint, "pools.app.check.fall: expected a whole number from 1"},
      {"  app:\n    name: app.example.test\n    check: {rise: 0}\n" + ok_endpoint, "pools.app.check.rise: expected a whole number from 1"},
      {"  app:\n    name: app.other.test\n" + ok_endpoint, "pools.app.name: app.other.test. is outside every zone"},
      {"  app:\n    name: app.example.test\n    check: {interval: 1s, timeout: 2s}\n" + ok_endpoint,
       "pools.app.endpoints[0]: check timeout (2000 ms) must not exceed its interval (1000 ms)"},
      {"  app:\n    name: app.example.test\n    check: {type: tcp, path: /}\n" + ok_endpoint,
       "pools.app.check.path: only for http and https checks, this one is tcp"},
      {"  app:\n    name: app.example.test\n    endpoints: [{address: 192.0.2.1}]\n",
       "pools.app.endpoints[0]: a tcp check needs a port"},
      {"  app:\n    name: app.example.test\n    shape: roundrobin\n" + ok_endpoint, "pools.app.shape: unknown shape 'roundrobin'"},
      {"  app:\n    name: app.example.test\n    when-all-down: fallback\n" + ok_endpoint, "needs a 'fallback' list"},
      {"  app:\n    name: app.example.test\n    endpoints: []\n", "pools.app.endpoints: expected a non-empty list"},
      {"  app:\n    name: app.example.test\n    colour: red\n" + ok_endpoint, "pools.app.colour: unknown key"},
      {"  a: {name: app.example.test, endpoints: [{address: 192.0.2.1, port: 80}]}\n"
       "  b: {name: app.example.test, endpoints: [{address: 192.0.2.1, port: 80}]}\n",
       "pools.b.name: app.example.test. already belongs to pool a"},
  };
  for (const auto& test : cases) {
    std::string error = error_of(test.pools);
    EXPECT_NE(error.find(test.error), std::string::npos) << "expected: " << test.error << "\ngot: " << error;
  }
}

// Hostname endpoints (docs/pools.md, "Hostname endpoints"): `target:` instead of `address:`,
// a fallback of names, a check's `resolver:`, and each mistake with its place.
TEST(PoolConfig, ReadsHostnameEndpoints) {
  Config config = parse(
      "  app:\n"
      "    name: app.example.test\n"
      "    when-all-down: fallback\n"
      "    fallback: [sorry.example.net]\n"
      "    check: {type: http, port: 8080, path: /health, resolver: ['127.0.0.1:5353', '::1']}\n"
      "    endpoints:\n"
      "      - {target: lb-eu.example.net., priority: 1}\n"
      "      - {target: LB-US.example.net, priority: 2, check-address: 192.0.2.7}\n");
  const PoolSpec& spec = config_pools(config)[0];
  EXPECT_TRUE(spec.alias());
  ASSERT_EQ(spec.endpoints.size(), 2u);
  ASSERT_TRUE(spec.endpoints[0].target.has_value());
  EXPECT_EQ(spec.endpoints[0].target->to_text(), "lb-eu.example.net.");
  EXPECT_EQ(spec.endpoints[0].address, "lb-eu.example.net.");  // names the endpoint in health and status
  EXPECT_EQ(spec.endpoints[1].address, "LB-US.example.net.");
  EXPECT_EQ(spec.endpoints[1].check.address, "192.0.2.7");
  EXPECT_EQ(spec.fallback, std::vector<std::string>{"sorry.example.net."});
  EXPECT_EQ(spec.endpoints[0].check.resolvers, (std::vector<std::string>{"127.0.0.1:5353", "[::1]:53"}));
}

TEST(PoolConfig, HostnameEndpointMistakesNameTheirPlace) {
  const std::string head = "  app:\n    name: app.example.test\n    check: {type: tcp, port: 80}\n";
  for (const auto& [yaml, error] : std::vector<std::pair<std::string, std::string>>{
           {"    endpoints: [{target: lb.example.net, address: 192.0.2.1}]\n",
            "t.yaml:7:51: pools.app.endpoints[0].address: an endpoint has either 'address' or 'target', not both"},
           {"    endpoints: [{target: 'bad..name'}]\n", "t.yaml:7:26: pools.app.endpoints[0].target: invalid domain name"},
           {"    endpoints: [{target: lb.example.net}, {address: 192.0.2.1}]\n",
            "t.yaml:7:43: pools.app.endpoints[1]: a pool's endpoints are all addresses or all hostnames (target:); this "
            "one differs from the first"},
           {"    when-all-down: fallback\n    fallback: [192.0.2.9]\n    endpoints: [{target: lb.example.net}]\n",
            "t.yaml:8:16: pools.app.fallback[0]: expected a name: a pool of hostname endpoints falls back to names"},
           {"    when-all-down: fallback\n    fallback: [sorry.example.net]\n    endpoints: [{address: 192.0.2.1}]\n",
            "pools.app.fallback[0]: expected a numeric IPv4 or IPv6 address"},
           {"    when-all-down: fallback\n    endpoints: [{target: lb.example.net}]\n",
            "when-all-down: fallback needs a 'fallback' list of names"},
           {"    endpoints: [{target: lb.example.net, check: {resolver: 'not a server'}}]\n",
            "pools.app.endpoints[0].check.resolver: expected a DNS server as ADDRESS or ADDRESS:PORT"},
           {"    endpoints: [{target: lb.example.net, check: {resolver: []}}]\n",
            "pools.app.endpoints[0].check.resolver: expected a DNS server or a list of 1 to 3"},
           {"    endpoints: [{address: 192.0.2.1, check: {resolver: 127.0.0.1}}]\n",
            "pools.app.endpoints[0]: a check's resolver: resolves a hostname endpoint (target:); endpoint 192.0.2.1 is an "
            "address"},
           {"    serve: materialize\n    endpoints: [{target: lb.example.net}]\n",
            "t.yaml:7:12: pools.app.serve: a pool of hostname endpoints answers a CNAME chosen by health and cannot be "
            "materialized"},
           {"    endpoints: [{}]\n", "missing required key 'address' (or 'target', a hostname to answer as CNAME)"},
       }) {
    std::string got = error_of(head + yaml);
    EXPECT_NE(got.find(error), std::string::npos) << "expected: " << error << "\ngot: " << got;
  }
}

// `checkers:` (docs/cluster.md): quorum K or healthy-above P%, the default the local rule,
// and each bad value with its place.
TEST(PoolConfig, CheckersQuorumAndHealthyAbove) {
  const std::string endpoint = "    endpoints: [{address: 192.0.2.1, port: 80}]\n";
  Config plain = parse("  app:\n    name: app.example.test\n" + endpoint);
  EXPECT_EQ(config_pools(plain)[0].checkers.kind, health::QuorumRule::Kind::kLocal);
  Config quorum = parse("  app:\n    name: app.example.test\n    checkers: {quorum: 2}\n" + endpoint);
  EXPECT_EQ(config_pools(quorum)[0].checkers.kind, health::QuorumRule::Kind::kQuorum);
  EXPECT_EQ(config_pools(quorum)[0].checkers.quorum, 2u);
  Config above = parse("  app:\n    name: app.example.test\n    checkers: {healthy-above: 18%}\n" + endpoint);
  EXPECT_EQ(config_pools(above)[0].checkers.kind, health::QuorumRule::Kind::kHealthyAbove);
  EXPECT_EQ(config_pools(above)[0].checkers.healthy_above, 18u);
  struct Case {
    std::string checkers;
    std::string error;
  };
  const std::vector<Case> cases{
      {"{quorum: 0}", "t.yaml:6:24: pools.app.checkers.quorum: expected a whole number from 1 to 64"},
      {"{quorum: two}", "t.yaml:6:24: pools.app.checkers.quorum: expected a whole number from 1 to 64"},
      {"{healthy-above: 18}", "t.yaml:6:31: pools.app.checkers.healthy-above: expected a percentage from 0% to 99%"},
      {"{healthy-above: 100%}", "pools.app.checkers.healthy-above: expected a percentage from 0% to 99%"},
      {"{quorum: 2, healthy-above: 18%}", "pools.app.checkers: give either quorum or healthy-above, not both"},
      {"{}", "pools.app.checkers: expected quorum: K or healthy-above: P%"},
      {"{vantages: 3}", "pools.app.checkers.vantages: unknown key"},
  };
  for (const auto& test : cases) {
    std::string error = error_of("  app:\n    name: app.example.test\n    checkers: " + test.checkers + "\n" + endpoint);
    EXPECT_NE(error.find(test.error), std::string::npos) << "expected: " << test.error << "\ngot: " << error;
  }
}

TEST(PoolConfig, MaterializeNeedsAJournalAndOneAnswerForEveryQuery) {
  const std::string pool = "  app:\n    name: app.example.test\n    serve: materialize\n";
  const std::string endpoint = "    endpoints: [{address: 192.0.2.1, port: 80}]\n";
  EXPECT_NE(error_of(pool + endpoint).find("t.yaml:6:12: pools.app.serve: materialize writes the pool's answer "
                                           "through the write path, which needs a journal (writes.journal)"),
            std::string::npos);
  auto with_journal = [](const std::string& pools) {
    return parse_config("writes: {journal: j.db}\n" + std::string(kZones) + "pools:\n" + pools, "t.yaml", "/d");
  };
  Config config = with_journal(pool + endpoint);
  EXPECT_EQ(config_pools(config).at(0).serve, ServeMode::kMaterialize);
  EXPECT_EQ(config_pools(parse("  app: {name: app.example.test, endpoints: [{address: 192.0.2.1, port: 80}]}\n")).at(0).serve,
            ServeMode::kPerQuery);
  for (const auto& [extra, error] : std::vector<std::pair<std::string, std::string>>{
           {"    shape: weighted\n", "pools.app.serve: a weighted pool draws per query"},
           {"    suspicion-ttl: true\n", "pools.app.serve: suspicion-ttl changes the TTL per query"},
           {"    serve: sometimes\n", "duplicate key"}}) {
    std::string got;
    try {
      with_journal(pool + extra + endpoint);
    } catch (const ConfigError& e) {
      got = e.what();
    }
    EXPECT_NE(got.find(error), std::string::npos) << got;
  }
  EXPECT_NE(error_of("  app:\n    name: app.example.test\n    serve: sometimes\n" + endpoint)
                .find("pools.app.serve: expected per-query or materialize"),
            std::string::npos);
}

// Each probe type and shape reads its own keys (health/*/README.md, pool/*/README.md); the
// config only dispatches, so these errors and inheritance rules are the types' own.
TEST(PoolConfig, ProbeTypesAndShapesReadTheirOwnKeys) {
  const std::string pool = "  app:\n    name: app.example.test\n";
  const std::string endpoint = "    endpoints: [{address: 192.0.2.1, port: 80}]\n";
  for (const auto& [yaml, error] : std::vector<std::pair<std::string, std::string>>{
           {"    check: {type: http, qtype: A}\n", "t.yaml:6:32: pools.app.check.qtype: only for dns checks, this one is http"},
           {"    check: {command: 'true'}\n", "t.yaml:6:22: pools.app.check.command: only for exec checks, this one is tcp"},
           {"    check: {type: exec}\n", "t.yaml:7:17: pools.app.endpoints[0]: an exec check needs a command"},
           {"    check: {type: dns, qtype: NOPE}\n", "t.yaml:6:31: pools.app.check.qtype: unknown record type"},
           {"    check: {type: dns, rcode: OK}\n", "pools.app.check.rcode: unknown rcode (expected e.g. NOERROR"},
           {"    check: {type: dns, qname: 'a..b'}\n", "pools.app.check.qname: invalid domain name"},
           {"    check: {type: http, expect-status: '200-99'}\n",
            "pools.app.check.expect-status: expected status codes or ranges like 200-299,301"},
           {"    check: {type: http, headers: [a]}\n", "pools.app.check.headers: expected a mapping of header: value"},
           {"    check: {type: http, headers: {X-A: [1]}}\n", "pools.app.check.headers.X-A: expected a single value"},
           {"    check: {type: http, body-limit: 0}\n", "pools.app.check.body-limit: expected a whole number from 1 to 16777216"},
           {"    check: {type: dns, tcp: maybe}\n", "pools.app.check.tcp: expected true or false"},
           {"    check: {colour: red}\n",
            "t.yaml:6:13: pools.app.check.colour: unknown key (expected one of: type, interval, timeout, fall, rise, port, "
            "invert, check-address, resolver, method, path, host, expect-status, body-contains, body-limit, headers, ca-file, qname, "
            "qtype, rcode, expect-answer, tcp, command, expect, signal, file)"},
           {"    colour: red\n",
            "t.yaml:6:5: pools.app.colour: unknown key (expected one of: name, shape, max-answers, ttl, min-healthy, "
            "checkers, when-all-down, fallback, suspicion-ttl, wait-for-first-check, serve, networks, regions, "
            "default-region, views, check, endpoints)"},
           {"    max-answers: 0\n", "t.yaml:6:18: pools.app.max-answers: expected a whole number from 1 to 64"},
       }) {
    EXPECT_NE(error_of(pool + yaml + endpoint).find(error), std::string::npos)
        << "expected: " << error << "\ngot: " << error_of(pool + yaml + endpoint);
  }

  // https inherits http's options; an endpoint that changes type starts from its type's defaults.
  Config config = parse(pool +
                        "    shape: failover\n    max-answers: 3\n"
                        "    check: {type: http, path: /up, ca-file: ca.pem, headers: {X-A: b}}\n"
                        "    endpoints:\n"
                        "      - {address: 192.0.2.1, port: 443, check: {type: https}}\n"
                        "      - {address: 192.0.2.2, check: {type: dns, qtype: A}}\n"
                        "      - {address: 192.0.2.3, check: {type: exec, command: 'exit 0'}}\n");
  const PoolSpec& spec = config_pools(config).at(0);
  EXPECT_EQ(spec.max_answers, 3u);
  const auto* https = spec.endpoints[0].check.options_as<health::HttpOptions>();
  ASSERT_NE(https, nullptr);
  EXPECT_EQ(spec.endpoints[0].check.type, "https");
  EXPECT_EQ(https->path, "/up");
  EXPECT_EQ(https->ca_file, "/d/ca.pem");
  EXPECT_EQ(https->headers, (std::vector<std::pair<std::string, std::string>>{{"X-A", "b"}}));
  const auto* dns = spec.endpoints[1].check.options_as<health::DnsOptions>();
  ASSERT_NE(dns, nullptr);
  EXPECT_EQ(dns->qtype, dns::RRType::A);
  EXPECT_EQ(dns->rcode, dns::Rcode::kNoError);
  ASSERT_NE(spec.endpoints[2].check.options_as<health::ExecOptions>(), nullptr);
  EXPECT_EQ(spec.endpoints[2].check.options_as<health::ExecOptions>()->command, "exit 0");
  EXPECT_EQ(api_refusal(spec, "body"), "body: pools.app.endpoints[2].check.type: exec checks run commands on the server "
                                       "and are accepted only from the config file");
  EXPECT_EQ(api_refusal(config_pools(parse(pool + endpoint)).at(0), "body"),
            std::nullopt);
}

// The keys of docs/steering.md: min-healthy, checks, combine, invert and check-address, and
// the signal and file checks' own keys, read into the spec.
// `views:` (docs/steering.md, "Views"): names of the config's views and "default", as a mask.
TEST(PoolConfig, ReadsTheViewsAPoolIsAnsweredIn) {
  const std::string views =
      "views:\n"
      "  - {name: internal, match-clients: 10.0.0.0/8, zones: [{origin: example.test., file: i.db}]}\n"
      "  - {name: lab, match-clients: 10.1.0.0/16, zones: [{origin: lab.test., file: l.db}]}\n";
  auto read = [&](const std::string& pools) {
    return parse_config(std::string(kZones) + views + "pools:\n" + pools, "t.yaml", "/d");
  };
  auto error = [&](const std::string& pools) {
    try {
      read(pools);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string endpoint = "    endpoints: [{address: 192.0.2.10, port: 80}]\n";
  Config config = read("  app:\n    name: app.example.test\n    views: [default, lab]\n" + endpoint +
                       "  every:\n    name: every.example.test\n" + endpoint +
                       "  inlab:\n    name: www.lab.test\n    views: [lab]\n" + endpoint);
  const auto& pools = config_pools(config);
  ASSERT_EQ(pools.size(), 3u);
  EXPECT_EQ(pools[0].views, (std::vector<std::string>{"default", "lab"}));
  EXPECT_EQ(pools[0].view_mask, 1 | 4);
  EXPECT_EQ(pools[1].view_mask, 0xFFFF);
  EXPECT_EQ(pools[2].view_mask, 4);  // a name in the lab view's own zone
  struct BadCase {
    std::string pools;
    std::string expected;
  };
  const BadCase cases[] = {
      {"  app:\n    name: app.example.test\n    views: [nope]\n" + endpoint,
       "t.yaml:9:13: pools.app.views[0]: no view named 'nope' (views: default, internal, lab)"},
      {"  app:\n    name: app.example.test\n    views: [lab, lab]\n" + endpoint,
       "pools.app.views[1]: view 'lab' is listed twice"},
      {"  app:\n    name: app.example.test\n    views: []\n" + endpoint, "pools.app.views: expected a non-empty list"},
      {"  app:\n    name: www.lab.test\n    views: [internal]\n" + endpoint,
       "pools.app.name: www.lab.test. is outside every zone"},
  };
  for (const auto& bad : cases) EXPECT_NE(error(bad.pools).find(bad.expected), std::string::npos) << error(bad.pools);
  // One name, two pools: only when both are limited to views and none is in both.
  Config apart = read("  public:\n    name: app.example.test\n    views: [default, lab]\n" + endpoint +
                      "  inside:\n    name: app.example.test\n    views: [internal]\n" + endpoint);
  EXPECT_EQ(config_pools(apart).size(), 2u);
  for (const std::string& second : {std::string("    views: [internal, lab]\n"), std::string("")}) {
    std::string got = error("  public:\n    name: app.example.test\n    views: [default, lab]\n" + endpoint +
                            "  inside:\n    name: app.example.test\n" + second + endpoint);
    EXPECT_NE(got.find("pools.inside.name: app.example.test. already belongs to pool public (two pools may share a "
                       "name only when both are limited to views, none in common)"),
              std::string::npos)
        << got;
  }
  // A view may not take the name that stands for the top-level zones.
  try {
    parse_config(std::string(kZones) + "views:\n  - {name: default, match-clients: 10.0.0.0/8, zones: [{origin: "
                                       "example.test., file: i.db}]}\n",
                 "t.yaml", "/d");
    ADD_FAILURE() << "a view named default was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'default' names the top-level zones"), std::string::npos) << e.what();
  }
}

TEST(PoolConfig, ReadsTheSteeringKeys) {
  Config config = parse(
      "  app:\n"
      "    name: app.example.test\n"
      "    min-healthy: 50%\n"
      "    check: {type: http, path: /up}\n"
      "    endpoints:\n"
      "      - address: 192.0.2.1\n"
      "        port: 80\n"
      "        check-address: 10.0.0.1\n"
      "        combine: at-least-2\n"
      "        checks:\n"
      "          - {}\n"
      "          - {type: signal, signal: web-1, check-address: 10.0.0.9}\n"
      "          - {type: file, file: states, invert: true}\n"
      "      - {address: 192.0.2.2, port: 80, check: {invert: true}}\n");
  const PoolSpec& spec = config_pools(config).at(0);
  EXPECT_TRUE(spec.min_healthy.percent);
  EXPECT_EQ(spec.min_healthy.value, 50u);
  EXPECT_EQ(spec.min_healthy.to_text(), "50%");
  const EndpointSpec& first = spec.endpoints[0];
  ASSERT_EQ(first.checks.size(), 3u);
  EXPECT_EQ(first.combine.kind, health::CombineKind::kAtLeast);
  EXPECT_EQ(first.combine.at_least, 2u);
  EXPECT_EQ(first.checks[0].type, "http");  // inherited from the pool's check
  EXPECT_EQ(first.checks[0].options_as<health::HttpOptions>()->path, "/up");
  EXPECT_EQ(first.checks[0].address, "10.0.0.1");  // the endpoint's check-address
  EXPECT_EQ(first.checks[1].type, "signal");
  EXPECT_EQ(first.checks[1].address, "10.0.0.9");  // its own wins
  EXPECT_FALSE(first.checks[1].invert);
  EXPECT_EQ(first.checks[2].type, "file");
  EXPECT_TRUE(first.checks[2].invert);
  EXPECT_EQ(first.check.type, "http");  // check is checks[0]
  EXPECT_TRUE(spec.endpoints[1].checks.empty());
  EXPECT_TRUE(spec.endpoints[1].check.invert);
  EXPECT_EQ(spec.endpoints[1].combine.kind, health::CombineKind::kAll);  // the default
  EXPECT_FALSE(config_pools(parse("  app: {name: app.example.test, endpoints: [{address: 192.0.2.1, port: 80}]}\n"))
                   .at(0)
                   .min_healthy.enabled());
}

// Every steering key's bad value names file:line:column and the key's path.
TEST(PoolConfig, SteeringKeyErrorsNameTheirPlace) {
  const std::string pool = "  app:\n    name: app.example.test\n";
  const std::string ok = "    endpoints: [{address: 192.0.2.1, port: 80}]\n";
  auto endpoint = [](const std::string& mapping) { return "    endpoints:\n      - " + mapping + "\n"; };
  const std::string min_healthy = "expected a number of endpoints from 1 to 1000 or a percentage from 1% to 100%";
  for (const auto& [yaml, error] : std::vector<std::pair<std::string, std::string>>{
           {"    min-healthy: 0\n" + ok, "t.yaml:6:18: pools.app.min-healthy: " + min_healthy},
           {"    min-healthy: 101%\n" + ok, "t.yaml:6:18: pools.app.min-healthy: " + min_healthy},
           {"    min-healthy: half\n" + ok, "t.yaml:6:18: pools.app.min-healthy: " + min_healthy},
           {"    check: {invert: maybe}\n" + ok, "t.yaml:6:21: pools.app.check.invert: expected true or false"},
           {"    check: {check-address: lb.example}\n" + ok,
            "t.yaml:6:28: pools.app.check.check-address: expected a numeric IPv4 or IPv6 address"},
           {endpoint("{address: 192.0.2.1, port: 80, combine: most}"),
            "t.yaml:7:49: pools.app.endpoints[0].combine: expected all, any or at-least-K"},
           {endpoint("{address: 192.0.2.1, port: 80, check-address: lb.example}"),
            "t.yaml:7:55: pools.app.endpoints[0].check-address: expected a numeric IPv4 or IPv6 address"},
           {endpoint("{address: 192.0.2.1, port: 80, checks: []}"),
            "t.yaml:7:48: pools.app.endpoints[0].checks: expected a list of 1 to 16 check mappings"},
           {endpoint("{address: 192.0.2.1, port: 80, check: {}, checks: [{}]}"),
            "t.yaml:7:59: pools.app.endpoints[0].checks: an endpoint has either 'check' or 'checks', not both"},
           {endpoint("{address: 192.0.2.1, port: 80, checks: [{}, {}], combine: at-least-3}"),
            "t.yaml:7:67: pools.app.endpoints[0].combine: at-least-3 needs at least 3 checks, this endpoint has 2"},
           {endpoint("{address: 192.0.2.1, port: 80, checks: [{type: signal, signal: 'a b'}]}"),
            "t.yaml:7:72: pools.app.endpoints[0].checks[0].signal: expected a signal name"},
           {endpoint("{address: 192.0.2.1, port: 80, checks: [{}, {invert: maybe}]}"),
            "t.yaml:7:62: pools.app.endpoints[0].checks[1].invert: expected true or false"},
           {endpoint("{address: 192.0.2.1, port: 80, checks: [{}, {type: file}]}"),
            "t.yaml:7:53: pools.app.endpoints[0].checks[1]: a file check needs 'file'"},
           {endpoint("{address: 192.0.2.1, port: 80, colour: red}"),
            "t.yaml:7:40: pools.app.endpoints[0].colour: unknown key (expected one of: address, target, port, priority, weight, "
            "check, checks, combine, check-address, region)"},
           {endpoint("{address: 192.0.2.1, port: 80, checks: [{type: file, file: s, path: /}]}"),
            "t.yaml:7:77: pools.app.endpoints[0].checks[0].path: only for http and https checks, this one is file"},
       }) {
    EXPECT_NE(error_of(pool + yaml).find(error), std::string::npos)
        << "expected: " << error << "\ngot: " << error_of(pool + yaml);
  }
}

// Steering (docs/steering.md): the networks file is read relative to the config's directory
// and every mistake, in the YAML or in the file, names its place.
class PoolSteeringConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("pool_steering_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "nets.txt") << "# clients\n127.0.0.2 eu\n127.0.0.3/32 us\n10.0.0.0/8 us\n";
    std::ofstream(dir_ / "bad.txt") << "127.0.0.2 eu\n127.0.0.3 mars\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Config parse_here(const std::string& pools) const {
    return parse_config(std::string(kZones) + "pools:\n" + pools, "t.yaml", dir_.string());
  }
  std::string error_here(const std::string& pools) const {
    try {
      parse_here(pools);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }

  std::filesystem::path dir_;
};

constexpr const char* kSteeredEndpoints =
    "    endpoints:\n"
    "      - {address: 192.0.2.1, region: eu}\n"
    "      - {address: 192.0.2.2, region: us}\n"
    "      - {address: 192.0.2.3, region: ap}\n";

TEST_F(PoolSteeringConfig, ReadsNetworksRegionsAndOrders) {
  Config config = parse_here(
      "  app:\n"
      "    name: app.example.test\n"
      "    check: {type: tcp, port: 80}\n"
      "    networks: nets.txt\n"
      "    regions: {us: [us, eu], eu: [eu, ap, us], ap: [ap]}\n"
      "    default-region: eu\n" +
      std::string(kSteeredEndpoints));
  const PoolSpec& spec = config_pools(config).at(0);
  ASSERT_TRUE(spec.steering.enabled());
  EXPECT_EQ(spec.steering.networks_file, (dir_ / "nets.txt").string());
  EXPECT_EQ(spec.steering.networks->size(), 3u);
  ASSERT_EQ(spec.steering.regions.size(), 3u);
  EXPECT_EQ(spec.steering.regions[0].name, "us");  // the order of the regions mapping
  EXPECT_EQ(spec.steering.regions[1].order, (std::vector<std::string>{"eu", "ap", "us"}));
  EXPECT_EQ(spec.steering.regions[2].order, (std::vector<std::string>{"ap"}));
  EXPECT_EQ(spec.steering.default_region, 1u);
  EXPECT_EQ(spec.endpoints[2].region, "ap");

  // Without `regions`, the endpoints' regions in the order first named, each itself first.
  Config plain = parse_here("  app:\n    name: app.example.test\n    check: {type: tcp, port: 80}\n    networks: nets.txt\n" +
                            std::string(kSteeredEndpoints));
  const SteeringSpec& steering = config_pools(plain).at(0).steering;
  ASSERT_EQ(steering.regions.size(), 3u);
  EXPECT_EQ(steering.regions[0].order, (std::vector<std::string>{"eu", "us", "ap"}));
  EXPECT_EQ(steering.regions[2].order, (std::vector<std::string>{"ap", "eu", "us"}));
  EXPECT_EQ(steering.default_region, 0u);
  EXPECT_FALSE(config_pools(parse_here("  app:\n    name: app.example.test\n    check: {type: tcp, port: 80}\n"
                                       "    endpoints: [{address: 192.0.2.1}]\n"))
                   .at(0)
                   .steering.enabled());
}

// `networks: {mmdb: ...}`: a MaxMind DB (written here by MaxMind's own writer) in place of
// the text file, its field mapped to regions (docs/steering.md, "MaxMind databases").
TEST_F(PoolSteeringConfig, ReadsAMaxMindDatabaseAndItsMistakesNameTheirPlace) {
  std::ofstream(dir_ / "geo.txt") << "127.0.0.2/32 DE EU\n127.0.0.3/32 US NA\n10.0.0.0/8 FR EU\n2001:db8::/32 JP AS\n";
  std::string command = std::string(CUTOVER_SOURCE_DIR) + "/src/pool/steering/testdata/write_mmdb.pl " +
                        (dir_ / "geo.mmdb").string() + " < " + (dir_ / "geo.txt").string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string head = "  app:\n    name: app.example.test\n    check: {type: tcp, port: 80}\n";
  Config config = parse_here(head + "    networks: {mmdb: geo.mmdb, map: {eu: [DE, FR], ap: [JP]}}\n" +
                             std::string(kSteeredEndpoints));
  const SteeringSpec& steering = config_pools(config).at(0).steering;
  ASSERT_TRUE(steering.enabled());
  EXPECT_EQ(steering.networks_file, (dir_ / "geo.mmdb").string());
  EXPECT_EQ(steering.networks->size(), 3u);  // US maps to no region
  Config by_continent = parse_here(head + "    networks:\n      mmdb: geo.mmdb\n      field: continent.code\n"
                                          "      map: {eu: [EU], us: [NA]}\n" + std::string(kSteeredEndpoints));
  EXPECT_EQ(config_pools(by_continent).at(0).steering.networks->size(), 3u);
  // Two pools reading the database the same way share one table; another map reads its own.
  const std::string geo = "    networks: {mmdb: geo.mmdb, map: {eu: [DE, FR], ap: [JP]}}\n" + std::string(kSteeredEndpoints);
  Config two = parse_here(head + geo + "  api:\n    name: api.example.test\n    check: {type: tcp, port: 80}\n" + geo +
                          "  cdn:\n    name: cdn.example.test\n    check: {type: tcp, port: 80}\n"
                          "    networks: {mmdb: geo.mmdb, map: {eu: [DE]}}\n" + kSteeredEndpoints);
  const auto& pools = config_pools(two);
  ASSERT_EQ(pools.size(), 3u);
  EXPECT_EQ(pools[0].steering.networks.get(), pools[1].steering.networks.get());
  EXPECT_NE(pools[0].steering.networks.get(), pools[2].steering.networks.get());
  EXPECT_EQ(pools[2].steering.networks->size(), 1u);

  for (const auto& [yaml, error] : std::vector<std::pair<std::string, std::string>>{
           {"    networks: {mmdb: geo.mmdb, format: x}\n",
            "t.yaml:7:32: pools.app.networks.format: unknown key (expected one of: mmdb, field, map)"},
           {"    networks: {field: country.iso_code}\n",
            "t.yaml:7:15: pools.app.networks.mmdb: a networks mapping needs mmdb: (the MaxMind DB file)"},
           {"    networks: {mmdb: geo.mmdb, map: {mars: [DE]}}\n", "t.yaml:7:38: pools.app.networks.map.mars: unknown region 'mars'"},
           {"    networks: {mmdb: geo.mmdb, map: {eu: [DE], us: [DE]}}\n",
            "t.yaml:7:53: pools.app.networks.map.us[0]: 'DE' is mapped to region 'eu' already"},
           {"    networks: {mmdb: geo.mmdb, map: {eu: []}}\n",
            "pools.app.networks.map.eu: expected a non-empty list of field values, like [DE, FR]"},
           {"    networks: {mmdb: geo.mmdb, field: country..iso_code}\n",
            "t.yaml:7:39: pools.app.networks.field: 'country..iso_code' is not a field path"},
           {"    networks: {mmdb: geo.mmdb, field: city.names.en, map: {eu: [Berlin]}}\n",
            "t.yaml:7:22: pools.app.networks.mmdb: " + (dir_ / "geo.mmdb").string() +
                ": no network's city.names.en maps to a region of the pool (4 networks read; no record has it)"},
           {"    networks: {mmdb: nets.txt}\n",
            "t.yaml:7:22: pools.app.networks.mmdb: " + (dir_ / "nets.txt").string() + ": cannot read it as a MaxMind DB"},
       }) {
    std::string got = error_here(head + yaml + kSteeredEndpoints);
    EXPECT_NE(got.find(error), std::string::npos) << "expected: " << error << "\ngot: " << got;
  }
}

TEST_F(PoolSteeringConfig, TheApiMayNotNameANetworksFile) {
  Config config = parse_here("  app:\n    name: app.example.test\n    check: {type: tcp, port: 80}\n"
                             "    endpoints: [{address: 192.0.2.1}]\n");
  std::string error;
  try {
    read_pool("web", "{\"name\": \"web.example.test\", \"networks\": \"/etc/passwd\", "
                     "\"endpoints\": [{\"address\": \"192.0.2.1\", \"region\": \"eu\"}]}",
              "body", config);
  } catch (const ConfigError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("pools.web.networks: a networks file is read from the server's disk and is accepted only from "
                       "the config file"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("root"), std::string::npos);
}

TEST_F(PoolSteeringConfig, MistakesNameTheirPlace) {
  const std::string head = "  app:\n    name: app.example.test\n    check: {type: tcp, port: 80}\n";
  for (const auto& [yaml, error] : std::vector<std::pair<std::string, std::string>>{
           {"    endpoints: [{address: 192.0.2.1, region: eu}]\n",
            "t.yaml:7:46: pools.app.endpoints[0].region: a region needs the pool's networks file (networks:) to steer by"},
           {"    networks: nets.txt\n    endpoints: [{address: 192.0.2.1, region: eu}, {address: 192.0.2.2}]\n",
            "pools.app.endpoints[1]: every endpoint of a steered pool needs a region"},
           {"    regions: {eu: [eu]}\n    endpoints: [{address: 192.0.2.1}]\n",
            "t.yaml:7:14: pools.app.regions: regions needs networks: (the networks file)"},
           {"    default-region: eu\n    endpoints: [{address: 192.0.2.1}]\n",
            "pools.app.default-region: default-region needs networks: (the networks file)"},
           {"    networks: nets.txt\n    regions: {eu: [eu, mars], us: [us]}\n" + std::string(kSteeredEndpoints),
            "t.yaml:8:24: pools.app.regions.eu[1]: unknown region 'mars' (not a key of regions)"},
           {"    networks: nets.txt\n    regions: {eu: [eu, eu], us: [us], ap: [ap]}\n" + std::string(kSteeredEndpoints),
            "pools.app.regions.eu[1]: region 'eu' is listed twice"},
           {"    networks: nets.txt\n    regions: {eu: [], us: [us], ap: [ap]}\n" + std::string(kSteeredEndpoints),
            "pools.app.regions.eu: expected a non-empty list of regions, most preferred first"},
           {"    networks: nets.txt\n    regions: {eu: [eu], us: [us]}\n" + std::string(kSteeredEndpoints),
            "pools.app.endpoints[2].region: unknown region 'ap' (not a key of regions)"},
           {"    networks: nets.txt\n    default-region: mars\n" + std::string(kSteeredEndpoints),
            "pools.app.default-region: unknown region 'mars'"},
           {"    networks: absent.txt\n" + std::string(kSteeredEndpoints),
            "pools.app.networks: " + (dir_ / "absent.txt").string() + ": cannot read the networks file"},
           {"    networks: bad.txt\n" + std::string(kSteeredEndpoints),
            (dir_ / "bad.txt").string() + ":2:11: unknown region 'mars' (the pool's regions: eu, us, ap)"},
       }) {
    std::string got = error_here(head + yaml);
    EXPECT_NE(got.find(error), std::string::npos) << "expected: " << error << "\ngot: " << got;
  }
}

}  // namespace
}  // namespace cutover::pool
