// Pool shapes, all-down policies, operator overrides through the API (also across SIGHUP),
// suspicion TTL, wait-for-first-check, /metrics and config errors, against the real server.
#include "pool_fixture.h"

namespace cutover::testing {
namespace {

std::string pool_yaml(const std::string& shape, const std::string& extra, const std::string& endpoints,
                      const std::string& check = kFastHttpCheck) {
  return fmt::format("  app:\n    name: app.pool.test\n    shape: {}\n{}    check: {}\n    endpoints:\n{}", shape, extra,
                     check, endpoints);
}

TEST(PoolShapes, FailoverAnswersPrimaryThenSecondaryThenPrimary) {
  HttpEndpoint primary("127.0.0.31");
  HttpEndpoint secondary("127.0.0.32");
  PoolDir dir;
  dir.write_config(pool_yaml("failover", "", endpoint_yaml(primary, ", priority: 1") + endpoint_yaml(secondary, ", priority: 2")));
  PoolServer server(dir);
  EXPECT_EQ(server.addresses("app.pool.test"), std::vector<std::string>{"127.0.0.31"});
  primary.set_reply(500, "down");
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"127.0.0.32"}));
  primary.set_reply(200, "ok");
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"127.0.0.31"}));
  DigResult aaaa = dig(server.dns_port(), "app.pool.test", "AAAA");
  EXPECT_EQ(aaaa.status, "NOERROR");  // no IPv6 endpoints: NODATA, never NXDOMAIN
  EXPECT_TRUE(aaaa.answer.empty());
}

TEST(PoolShapes, AllHealthyAnswersEveryHealthyEndpointUpToMax) {
  HttpEndpoint a("127.0.0.33");
  HttpEndpoint b("127.0.0.34");
  HttpEndpoint c("127.0.0.35");
  PoolDir dir;
  dir.write_config(pool_yaml("all-healthy", "    max-answers: 2\n", endpoint_yaml(a) + endpoint_yaml(b) + endpoint_yaml(c)));
  PoolServer server(dir);
  EXPECT_EQ(server.addresses("app.pool.test"), (std::vector<std::string>{"127.0.0.33", "127.0.0.34"}));
  a.set_reply(503, "");
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"127.0.0.34", "127.0.0.35"}));
}

TEST(PoolShapes, WeightedDrawFollowsWeights) {
  HttpEndpoint heavy("127.0.0.36");
  HttpEndpoint light("127.0.0.37");
  PoolDir dir;
  dir.write_config(pool_yaml("weighted", "", endpoint_yaml(heavy, ", weight: 9") + endpoint_yaml(light, ", weight: 1")));
  PoolServer server(dir);
  int heavy_count = 0;
  constexpr int kQueries = 100;
  for (int i = 0; i < kQueries; ++i) {
    auto answer = server.addresses("app.pool.test");
    ASSERT_EQ(answer.size(), 1u);
    if (answer.front() == "127.0.0.36") ++heavy_count;
  }
  // Expected 90; P(count outside [75, 99]) under Binomial(100, 0.9) is below 1e-4.
  EXPECT_GE(heavy_count, 75);
  EXPECT_LE(heavy_count, 99);
  heavy.set_reply(500, "");
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"127.0.0.37"}));
}

struct AllDownCase {
  std::string policy_yaml;
  std::vector<std::string> expected;
};

void expect_all_down_answer(const std::string& shape, const AllDownCase& test) {
  HttpEndpoint a("127.0.0.38");
  HttpEndpoint b("127.0.0.39");
  PoolDir dir;
  dir.write_config(pool_yaml(shape, test.policy_yaml, endpoint_yaml(a, ", priority: 1") + endpoint_yaml(b, ", priority: 2")));
  PoolServer server(dir);
  a.set_reply(500, "");
  b.set_reply(500, "");
  ASSERT_TRUE(server.server().wait_for_log("pool.all_down pool=app type=A")) << server.server().log();
  DigResult result = dig(server.dns_port(), "app.pool.test", "A");
  EXPECT_EQ(result.status, "NOERROR") << shape;
  auto answer = DigResult::rdatas(result.answer, "A");
  std::sort(answer.begin(), answer.end());
  if (shape == "weighted" && test.expected.size() == 2) {
    ASSERT_EQ(answer.size(), 1u);  // fail-open draws among every endpoint
  } else {
    EXPECT_EQ(answer, test.expected) << shape;
  }
  if (test.expected.empty()) {
    ASSERT_EQ(result.authority.size(), 1u);
    EXPECT_EQ(result.authority.front().type, "SOA");
    EXPECT_EQ(result.authority.front().ttl, 45u);
    EXPECT_NE(server.get("/status").body.find("\"nodata_negative_ttl\": 45"), std::string::npos);
    EXPECT_NE(server.server().log().find("nodata_negative_ttl=45"), std::string::npos);
  }
  a.set_reply(200, "ok");
  EXPECT_TRUE(server.server().wait_for_log("pool.recovered pool=app type=A"));
}

TEST(PoolShapes, AllDownUnderEveryPolicyAndShape) {
  std::vector<AllDownCase> cases = {
      {"", {"127.0.0.38", "127.0.0.39"}},
      {"    when-all-down: fallback\n    fallback: [192.0.2.99]\n", {"192.0.2.99"}},
      {"    when-all-down: nodata\n", {}},
  };
  for (const std::string shape : {"failover", "all-healthy", "weighted"}) {
    for (const auto& test : cases) {
      SCOPED_TRACE(shape + " " + test.policy_yaml);
      expect_all_down_answer(shape, test);
    }
  }
}

TEST(PoolApi, DrainUndrainForceUpTakeEffectAtTheNextQueryAndSurviveReload) {
  HttpEndpoint a("127.0.0.41");
  HttpEndpoint b("127.0.0.42");
  PoolDir dir;
  dir.write_config(pool_yaml("all-healthy", "", endpoint_yaml(a) + endpoint_yaml(b)));
  PoolServer server(dir);
  ASSERT_EQ(server.addresses("app.pool.test"), (std::vector<std::string>{"127.0.0.41", "127.0.0.42"}));

  EXPECT_EQ(server.post("/pools/app/endpoints/127.0.0.41/drain").status, 200);
  EXPECT_EQ(server.addresses("app.pool.test"), std::vector<std::string>{"127.0.0.42"});  // the very next query
  server.server().reload();
  ASSERT_TRUE(server.server().wait_for_log("reload.ok"));
  EXPECT_EQ(server.addresses("app.pool.test"), std::vector<std::string>{"127.0.0.42"});
  EXPECT_NE(server.get("/status").body.find("\"override\": \"drain\""), std::string::npos);

  EXPECT_EQ(server.post("/pools/app/endpoints/127.0.0.41/undrain").status, 200);
  EXPECT_EQ(server.addresses("app.pool.test"), (std::vector<std::string>{"127.0.0.41", "127.0.0.42"}));

  b.set_reply(500, "");
  ASSERT_TRUE(server.wait_for_answer("app.pool.test", {"127.0.0.41"}));
  EXPECT_EQ(server.post("/pools/app/endpoints/127.0.0.42/force-up").status, 200);
  EXPECT_EQ(server.addresses("app.pool.test"), (std::vector<std::string>{"127.0.0.41", "127.0.0.42"}));

  EXPECT_EQ(server.post("/pools/app/endpoints/192.0.2.1/drain").status, 404);
  EXPECT_EQ(server.post("/pools/nope/endpoints/127.0.0.41/drain").status, 404);
}

TEST(PoolApi, MetricsAndStatusDescribeTheLiveState) {
  HttpEndpoint a("127.0.0.43");
  PoolDir dir;
  dir.write_config(pool_yaml("failover", "", endpoint_yaml(a)));
  PoolServer server(dir);
  ASSERT_TRUE(server.wait_for_status("\"result\": \"pass\""));
  server.addresses("app.pool.test");
  std::string metrics = server.get("/metrics").body;
  EXPECT_NE(metrics.find("cutover_probes_total{pool=\"app\",endpoint=\"127.0.0.43\",result=\"pass\"}"), std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("cutover_probe_latency_seconds_bucket{pool=\"app\",endpoint=\"127.0.0.43\",le=\"+Inf\"}"),
            std::string::npos);
  EXPECT_NE(metrics.find("cutover_endpoint_state{pool=\"app\",endpoint=\"127.0.0.43\",state=\"up\"} 1"), std::string::npos);
  EXPECT_NE(metrics.find("cutover_health_transitions_total{pool=\"app\",endpoint=\"127.0.0.43\"} 1"), std::string::npos);
  EXPECT_NE(metrics.find("cutover_pool_queries_total{pool=\"app\"} 1"), std::string::npos);
  EXPECT_NE(metrics.find("cutover_queries_total{rcode=\"NOERROR\"}"), std::string::npos);
  std::string status = server.get("/status").body;
  for (const char* needle : {"\"d_min_ms\": 350", "\"d_max_ms\": 550", "\"addresses\": [", "\"to\": \"up\"",
                             "\"latency_ms\"", "\"checkers\""}) {
    EXPECT_NE(status.find(needle), std::string::npos) << needle << "\n" << status;
  }
  auto table = run_command({CUTOVER_BINARY, "status", "--control", "127.0.0.1:" + std::to_string(server.control_port())},
                           std::chrono::seconds(10));
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("127.0.0.43"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("pass: HTTP 200"), std::string::npos) << table.out;
}

TEST(PoolShapes, SuspicionTtlShrinksWhileTheEndpointIsFailing) {
  HttpEndpoint a("127.0.0.44");
  PoolDir dir;
  dir.write_config(pool_yaml("failover", "    ttl: 60\n    suspicion-ttl: true\n", endpoint_yaml(a),
                             "{type: http, interval: 1s, timeout: 200ms, fall: 10, rise: 1}"));
  PoolServer server(dir);
  EXPECT_EQ(dig(server.dns_port(), "app.pool.test", "A").answer.at(0).ttl, 60u);
  a.set_reply(500, "");
  ASSERT_TRUE(server.wait_for_status("\"consecutive_failures\": 1"));
  // 9 more failures one interval apart, from a probe that started up to T earlier: < 9 s.
  std::uint32_t ttl = dig(server.dns_port(), "app.pool.test", "A").answer.at(0).ttl;
  EXPECT_LE(ttl, 9u);
  EXPECT_GE(ttl, 6u);
}

TEST(PoolShapes, WaitForFirstCheckKeepsAFailingEndpointOutOfTheFirstAnswer) {
  HttpEndpoint good("127.0.0.45");
  HttpEndpoint bad("127.0.0.46");
  bad.set_reply(500, "");
  PoolDir dir;
  dir.write_config(pool_yaml("all-healthy", "    wait-for-first-check: true\n", endpoint_yaml(good) + endpoint_yaml(bad),
                             "{type: http, interval: 1s, timeout: 300ms, fall: 3, rise: 1}"));
  PoolServer server(dir);
  EXPECT_EQ(server.addresses("app.pool.test"), std::vector<std::string>{"127.0.0.45"});
}

struct BadConfig {
  std::string pools;
  std::string message;
};

TEST(PoolConfig, BadPoolsAreRejectedWithTheirPath) {
  std::vector<BadConfig> cases = {
      {"  app:\n    name: app.pool.test\n    check: {type: smtp}\n    endpoints: [{address: 192.0.2.1, port: 80}]\n",
       "pools.app.check.type: unknown probe type 'smtp'"},
      {"  app:\n    name: app.pool.test\n    check: {interval: -1s}\n    endpoints: [{address: 192.0.2.1, port: 80}]\n",
       "pools.app.check.interval: expected a positive duration"},
      {"  app:\n    name: app.pool.test\n    check: {fall: 0}\n    endpoints: [{address: 192.0.2.1, port: 80}]\n",
       "pools.app.check.fall: expected a whole number from 1"},
      {"  app:\n    name: app.pool.test\n    endpoints: [{address: 192.0.2.1, port: 80, check: {rise: 0}}]\n",
       "pools.app.endpoints[0].check.rise: expected a whole number from 1"},
      {"  app:\n    name: app.elsewhere.test\n    endpoints: [{address: 192.0.2.1, port: 80}]\n",
       "pools.app.name: app.elsewhere.test. is outside every zone"},
      {"  app:\n    name: app.pool.test\n    endpoints: [{address: not-an-ip, port: 80}]\n",
       "pools.app.endpoints[0].address: expected a numeric IPv4 or IPv6 address"},
      {"  app:\n    name: ns1.pool.test\n    endpoints: [{address: 192.0.2.1, port: 80}]\n",
       "pools.app.name: ns1.pool.test. also has static records"},
  };
  for (const auto& test : cases) {
    PoolDir dir;
    dir.write_config(test.pools);
    auto result = run_command({CUTOVER_BINARY, "serve", "--config", dir.config_path, "--listen", "127.0.0.1:0"},
                              std::chrono::seconds(10));
    EXPECT_NE(result.exit_code, 0) << test.pools;
    EXPECT_NE(result.err.find(test.message), std::string::npos) << test.message << "\n" << result.err;
  }
}

}  // namespace
}  // namespace cutover::testing
