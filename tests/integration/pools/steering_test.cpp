// The health-and-policy parts of steering (docs/steering.md) against the real server with
// real probes: the panic threshold (min-healthy), composite checks with a pushed signal, a
// watched file, an inverted check and check-address, and the per-endpoint counters in
// /metrics and /status. Endpoints live on 127.0.0.171-179 (no other test uses them).
// Timing tolerances: every wait is a bounded poll (at most 10 s) of a state that the fast
// checks (I = 200 ms, F = 2, R = 1) reach within about half a second.
#include <fstream>

#include "pool_fixture.h"

namespace cutover::testing {
namespace {

std::string metric_line(const std::string& metrics, const std::string& prefix) {
  auto at = metrics.find(prefix);
  if (at == std::string::npos) return "";
  return metrics.substr(at, metrics.find('\n', at) - at);
}

// min-healthy 2 of 3 with nodata when all are down, so each state answers differently:
// healthy (the survivors), panic (all three), all down (no address).
TEST(Steering, PanicThresholdAnswersEveryEndpointWhenTooFewAreUp) {
  HttpEndpoint a("127.0.0.171");
  HttpEndpoint b("127.0.0.172");
  HttpEndpoint c("127.0.0.173");
  PoolDir dir;
  dir.write_config(fmt::format("  app:\n    name: app.pool.test\n    shape: all-healthy\n    min-healthy: 2\n"
                               "    when-all-down: nodata\n    check: {}\n    endpoints:\n{}{}{}",
                               kFastHttpCheck, endpoint_yaml(a), endpoint_yaml(b), endpoint_yaml(c)));
  PoolServer server(dir);
  const std::vector<std::string> all{"127.0.0.171", "127.0.0.172", "127.0.0.173"};
  ASSERT_TRUE(server.wait_for_status("\"state\": \"up\""));
  EXPECT_EQ(server.addresses("app.pool.test"), all);
  a.set_reply(500, "down");
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"127.0.0.172", "127.0.0.173"}));  // 2 up: not below 2
  b.set_reply(500, "down");
  ASSERT_TRUE(server.server().wait_for_log("pool.panic pool=app type=A up=1 min_healthy=2")) << server.server().log();
  EXPECT_EQ(server.addresses("app.pool.test"), all);  // the one survivor is not sent everything
  EXPECT_TRUE(server.wait_for_status("\"mode\": \"panic\""));
  std::string metrics = server.get("/metrics").body;
  EXPECT_EQ(metric_line(metrics, "cutover_pool_panic{pool=\"app\",type=\"A\"}"), "cutover_pool_panic{pool=\"app\",type=\"A\"} 1");
  EXPECT_EQ(metric_line(metrics, "cutover_pool_all_down{pool=\"app\",type=\"A\"}"),
            "cutover_pool_all_down{pool=\"app\",type=\"A\"} 0");
  EXPECT_EQ(metric_line(metrics, "cutover_pool_panics_total{pool=\"app\",type=\"A\"}"),
            "cutover_pool_panics_total{pool=\"app\",type=\"A\"} 1");
  c.set_reply(500, "down");  // none up: when-all-down (nodata) decides, not panic
  ASSERT_TRUE(server.server().wait_for_log("pool.all_down pool=app type=A")) << server.server().log();
  EXPECT_TRUE(server.server().wait_for_log("pool.panic_over pool=app type=A up=0"));
  DigResult nodata = dig(server.dns_port(), "app.pool.test", "A");
  EXPECT_EQ(nodata.status, "NOERROR");
  EXPECT_TRUE(nodata.answer.empty());
  c.set_reply(200, "ok");  // one back: panic again
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", all));
  a.set_reply(200, "ok");
  b.set_reply(200, "ok");
  EXPECT_TRUE(server.wait_for_status("\"mode\": \"healthy\""));
  // Healthy needs two of the three: wait until a is back up too (its second flap).
  const std::string flaps_of_a = "cutover_endpoint_flaps_last_hour{pool=\"app\",endpoint=\"127.0.0.171\"}";
  for (int poll = 0; poll < 200 && metric_line(server.get("/metrics").body, flaps_of_a) != flaps_of_a + " 2"; ++poll) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  metrics = server.get("/metrics").body;
  EXPECT_EQ(metric_line(metrics, "cutover_pool_panics_total{pool=\"app\",type=\"A\"}"),
            "cutover_pool_panics_total{pool=\"app\",type=\"A\"} 2");
  // The counters of endpoint a: down once, a flap out and back, a last change time.
  std::string flaps = metric_line(metrics, "cutover_endpoint_flaps_last_hour{pool=\"app\",endpoint=\"127.0.0.171\"}");
  EXPECT_EQ(flaps, "cutover_endpoint_flaps_last_hour{pool=\"app\",endpoint=\"127.0.0.171\"} 2") << metrics;
  std::string down = metric_line(metrics, "cutover_endpoint_down_seconds_total{pool=\"app\",endpoint=\"127.0.0.171\"}");
  ASSERT_FALSE(down.empty()) << metrics;
  EXPECT_GT(std::stod(down.substr(down.rfind(' ') + 1)), 0.0) << down;
  std::string changed = metric_line(metrics, "cutover_endpoint_last_change_timestamp_seconds{pool=\"app\",endpoint=\"127.0.0.171\"}");
  ASSERT_FALSE(changed.empty());
  double at = std::stod(changed.substr(changed.rfind(' ') + 1));
  double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_GT(at, now - 60);  // within this test's minute
  EXPECT_LE(at, now + 1);
}

// Endpoint 192.0.2.174 (not reachable here) is answered while its check-address
// 127.0.0.174 passes AND the pushed signal "web-174" is up (combine: all); endpoint
// 192.0.2.175 is checked through a watched file and an inverted maintenance signal (any
// failing takes it out).
TEST(Steering, CompositeChecksWithSignalsAFileAndCheckAddress) {
  HttpEndpoint probe_a("127.0.0.174");
  HttpEndpoint probe_b("127.0.0.175");
  PoolDir dir;
  std::string states = dir.dir + "/states";
  write_file(states, "192.0.2.175 = UP\n");
  const std::string fast_signal = "interval: 200ms, timeout: 100ms, fall: 1, rise: 1";
  dir.write_config(fmt::format(
      "  app:\n    name: app.pool.test\n    shape: all-healthy\n    check: {0}\n    endpoints:\n"
      "      - address: 192.0.2.174\n        port: {1}\n        check-address: 127.0.0.174\n"
      "        checks:\n          - {{}}\n          - {{type: signal, signal: web-174, {3}}}\n"
      "      - address: 192.0.2.175\n        port: {2}\n        combine: all\n"
      "        checks:\n          - {{check-address: 127.0.0.175}}\n"
      "          - {{type: file, file: states, {3}}}\n"
      "          - {{type: signal, signal: maint, invert: true, {3}}}\n",
      kFastHttpCheck, probe_a.port(), probe_b.port(), fast_signal));
  PoolServer server(dir);
  // web-174 was never pushed: unknown, which serves (as at start-up).
  ASSERT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.174", "192.0.2.175"}));
  HttpReply pushed = server.put("/signals/web-174", R"({"state": "down", "ttl": "1h"})");
  ASSERT_EQ(pushed.status, 200) << pushed.body;
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.175"}));
  EXPECT_NE(server.get("/signals").body.find("\"signal\": \"web-174\""), std::string::npos);
  ASSERT_EQ(server.put("/signals/web-174", R"({"state": "up", "ttl": 60})").status, 200);
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.174", "192.0.2.175"}));
  probe_a.set_reply(500, "down");  // the check-address fails: the answered address goes
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.175"}));
  probe_a.set_reply(200, "ok");
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.174", "192.0.2.175"}));

  // The watched file says DOWN (written whole, then renamed, as a writer should).
  write_file(states + ".new", "192.0.2.175 = DOWN\n");
  ASSERT_EQ(std::rename((states + ".new").c_str(), states.c_str()), 0);
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.174"}));
  write_file(states + ".new", "# back\n192.0.2.175 = UP\n");
  ASSERT_EQ(std::rename((states + ".new").c_str(), states.c_str()), 0);
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.174", "192.0.2.175"}));

  // The inverted maintenance flag: "maint" up takes 192.0.2.175 out.
  ASSERT_EQ(server.put("/signals/maint", R"({"state": "up", "ttl": "1s"})").status, 200);
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.174"}));
  // Its TTL runs out after 1 s: unknown, which serves again.
  EXPECT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.174", "192.0.2.175"}));
  std::string status = server.get("/status").body;
  EXPECT_NE(status.find("\"address\": \"127.0.0.174\""), std::string::npos) << status;  // the probed address
  EXPECT_NE(status.find("\"invert\": true"), std::string::npos);
  EXPECT_NE(status.find("is not set or its TTL ran out"), std::string::npos);

  // Bad pushes are refused with a reason, and change nothing.
  EXPECT_EQ(server.put("/signals/maint", R"({"state": "sideways", "ttl": 60})").status, 400);
  EXPECT_EQ(server.put("/signals/maint", R"({"state": "down"})").status, 400);
  EXPECT_EQ(server.put("/signals/maint", R"({"state": "down", "ttl": "2d"})").status, 400);
  EXPECT_EQ(server.put("/signals/maint", R"({"state": "down", "ttl": "25h"})").status, 400);
  EXPECT_EQ(server.put("/signals/maint", R"({"state": "down", "ttl": 86401})").status, 400);
  EXPECT_EQ(server.put("/signals/maint", "not json").status, 400);
  EXPECT_EQ(http_request(server.control_port(), "DELETE", "/signals/never-set").status, 404);
  EXPECT_EQ(server.addresses("app.pool.test"), (std::vector<std::string>{"192.0.2.174", "192.0.2.175"}));
}

// PUT /signals behind control.token: refused without the token or with a wrong one (the
// signal stays unset), applied with it; a pushed down lasts its TTL and then counts as
// unknown, which serves again. Real time: the TTL is 2 s, each wait at most 10 s.
TEST(Steering, PushedSignalsNeedTheTokenAndTurnUnknownAfterTheirTtl) {
  constexpr const char* kToken = "steer-signal-token";
  PoolDir dir;
  const std::string fast = "interval: 200ms, timeout: 100ms, fall: 1, rise: 1";
  dir.write_config(fmt::format("  app:\n    name: app.pool.test\n    shape: all-healthy\n    endpoints:\n"
                               "      - {{address: 192.0.2.176, check: {{type: signal, signal: web-176, {0}}}}}\n"
                               "      - {{address: 192.0.2.177, check: {{type: signal, {0}}}}}\n",
                               fast),
                   "", fmt::format(", token: {}", kToken));
  PoolServer server(dir);
  const std::vector<std::string> both{"192.0.2.176", "192.0.2.177"};
  ASSERT_TRUE(server.wait_for_answer("app.pool.test", both));  // never pushed: unknown, serving
  const std::string down = R"({"state": "down", "ttl": "2s"})";
  const std::string bearer = fmt::format("Authorization: Bearer {}\r\n", kToken);

  HttpReply anonymous = server.put("/signals/web-176", down);
  EXPECT_EQ(anonymous.status, 401) << anonymous.body;
  EXPECT_EQ(server.put("/signals/web-176", down, "Authorization: Bearer wrong\r\n").status, 401);
  EXPECT_EQ(http_request(server.control_port(), "GET", "/signals", "", bearer).body.find("web-176"), std::string::npos);
  EXPECT_EQ(server.addresses("app.pool.test"), both);

  HttpReply pushed = server.put("/signals/web-176", down, bearer);
  ASSERT_EQ(pushed.status, 200) << pushed.body;
  EXPECT_NE(pushed.body.find("\"ttl_ms\":2000"), std::string::npos) << pushed.body;
  auto pushed_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(server.wait_for_answer("app.pool.test", {"192.0.2.177"}));
  // The second endpoint reads the signal named after its address, never pushed.
  EXPECT_TRUE(server.wait_for_status("signal 192.0.2.177 is not set or its TTL ran out"));
  // After the TTL: unknown (an error reading), which serves.
  ASSERT_TRUE(server.wait_for_answer("app.pool.test", both));
  EXPECT_GE(std::chrono::steady_clock::now() - pushed_at, std::chrono::milliseconds(1900));  // not before the TTL
  EXPECT_TRUE(server.wait_for_status("signal web-176 is not set or its TTL ran out"));
  EXPECT_EQ(http_request(server.control_port(), "GET", "/signals", "", bearer).body.find("web-176"), std::string::npos);
  EXPECT_TRUE(server.server().wait_for_log("health.transition pool=app endpoint=192.0.2.176 from=down to=unknown"))
      << server.server().log();
}

TEST(Steering, ConfigErrorsNameFileLineAndColumn) {
  struct Case {
    std::string endpoint;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"      - {address: 192.0.2.1, port: 80, combine: most}\n",
       "cutover.yaml:10:49: pools.app.endpoints[0].combine: expected all, any or at-least-K"},
      {"      - {address: 192.0.2.1, port: 80, check-address: lb.example}\n",
       "cutover.yaml:10:55: pools.app.endpoints[0].check-address: expected a numeric IPv4 or IPv6 address"},
      {"      - {address: 192.0.2.1, port: 80, checks: [{type: signal, signal: 'a b'}]}\n",
       "cutover.yaml:10:72: pools.app.endpoints[0].checks[0].signal: expected a signal name"},
  };
  for (const auto& test : cases) {
    PoolDir dir;
    dir.write_config("  app:\n    name: app.pool.test\n    min-healthy: 2\n    endpoints:\n" + test.endpoint);
    CommandResult checked = run_command({CUTOVER_BINARY, "serve", "--check", "--config", dir.config_path}, std::chrono::seconds(20));
    EXPECT_NE(checked.exit_code, 0);
    EXPECT_NE(checked.err.find(test.error), std::string::npos) << checked.out << checked.err;
  }
}

}  // namespace
}  // namespace cutover::testing
