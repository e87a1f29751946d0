// monitor.yaml: the keys it accepts and the file:line:column errors for everything else.
#include "monitor/monitor_config.h"

#include <gtest/gtest.h>

#include "config/config.h"

namespace cutover::monitor {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    parse_monitor_config(yaml, "monitor.yaml");
  } catch (const config::ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(MonitorConfig, ReadsEveryKey) {
  MonitorConfig config = parse_monitor_config(R"(
interval: 5s
timeout: 500ms
tries: 3
auth-port: 5300
metrics: 127.0.0.1:0
authoritatives: ["127.0.0.1:5301", "127.0.0.2"]
resolvers: ["127.0.0.1:5302"]
watch:
  - name: www.example.test
    type: AAAA
    expect: ["2001:db8::1"]
  - name: gone.example.test
    exists: false
    authoritatives: ["127.0.0.3:53"]
alerts:
  mismatch: {for: 2m}
  nxdomain: {enabled: false}
  authoritative-silent: {for: 0s}
webhook:
  url: http://127.0.0.1:8080/hooks/dns
  retries: 2
  backoff: 250ms
)",
                                              "monitor.yaml");
  EXPECT_EQ(config.interval, std::chrono::seconds(5));
  EXPECT_EQ(config.timeout, std::chrono::milliseconds(500));
  EXPECT_EQ(config.tries, 3);
  EXPECT_EQ(config.auth_port, 5300);
  EXPECT_EQ(config.metrics_host, "127.0.0.1");
  EXPECT_EQ(config.metrics_port, 0);
  ASSERT_EQ(config.authoritatives.size(), 2U);
  EXPECT_EQ(config.authoritatives[1].port(), 53);
  ASSERT_EQ(config.watches.size(), 2U);
  EXPECT_EQ(config.watches[0].name.to_text(), "www.example.test.");
  EXPECT_EQ(config.watches[0].type, dns::RRType::AAAA);
  EXPECT_EQ(config.watches[0].expect, std::vector<std::string>{"2001:db8::1"});
  EXPECT_EQ(config.watches[1].type, dns::RRType::A);
  EXPECT_FALSE(config.watches[1].exists);
  EXPECT_EQ(config.watches[1].authoritatives.size(), 1U);
  EXPECT_EQ(config.alerts.mismatch.hold, std::chrono::minutes(2));
  EXPECT_FALSE(config.alerts.nxdomain.enabled);
  EXPECT_EQ(config.alerts.authoritative_silent.hold, std::chrono::milliseconds(0));
  ASSERT_TRUE(config.webhook);
  EXPECT_EQ(config.webhook->host, "127.0.0.1");
  EXPECT_EQ(config.webhook->port, 8080);
  EXPECT_EQ(config.webhook->path, "/hooks/dns");
  EXPECT_EQ(config.webhook->retries, 2);
  EXPECT_EQ(config.webhook->backoff, std::chrono::milliseconds(250));
}

TEST(MonitorConfig, DefaultsNeedOnlyAWatchAndSomewhereToAsk) {
  MonitorConfig config = parse_monitor_config("resolvers: [127.0.0.1]\nwatch:\n  - name: example.test.\n", "m.yaml");
  EXPECT_EQ(config.metrics_host, "127.0.0.1");
  EXPECT_EQ(config.metrics_port, 9153);
  EXPECT_EQ(config.interval, std::chrono::seconds(10));
  EXPECT_TRUE(config.authoritatives.empty());  // found through the NS set
  EXPECT_TRUE(config.alerts.mismatch.enabled);
  EXPECT_FALSE(config.webhook);
}

struct ErrorCase {
  const char* yaml;
  const char* error;
};

class MonitorConfigErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(MonitorConfigErrors, NamesFileLineColumnAndKey) {
  EXPECT_EQ(error_of(GetParam().yaml), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Table, MonitorConfigErrors,
    ::testing::Values(
        ErrorCase{"resolvers: [127.0.0.1]\nwatch:\n  - name: a.test\n    colour: red\n",
                  "monitor.yaml:4:5: watch[0].colour: unknown key (expected one of: name, type, expect, exists, "
                  "authoritatives)"},
        ErrorCase{"resolvers: [127.0.0.1]\nwatchs: []\n",
                  "monitor.yaml:2:1: watchs: unknown key (expected one of: watch, authoritatives, auth-port, "
                  "resolvers, interval, timeout, tries, metrics, metrics-token, alerts, webhook)"},
        ErrorCase{"resolvers: [127.0.0.1]\n", "monitor.yaml:1:1: watch: missing: list the names to watch"},
        ErrorCase{"resolvers: [127.0.0.1]\nwatch:\n  - name: a.test\n    type: BOGUS\n",
                  "monitor.yaml:4:11: watch[0].type: unknown RR type 'BOGUS'"},
        ErrorCase{"resolvers: [127.0.0.1, 'not an address']\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:1:24: resolvers[1]: invalid listen address 'not an address:53': not a numeric IPv4 "
                  "or IPv6 address (IPv6 goes in brackets)"},
        ErrorCase{"resolvers: [127.0.0.1]\ninterval: soon\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:2:11: interval: expected a positive duration like 10s, 500ms or 14d"},
        ErrorCase{"resolvers: [127.0.0.1]\nalerts:\n  mismatch: {for: never}\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:3:19: alerts.mismatch.for: expected a duration like 0s, 30s or 2m"},
        ErrorCase{"resolvers: [127.0.0.1]\nalerts:\n  flapping: {}\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:3:3: alerts.flapping: unknown key (expected one of: mismatch, nxdomain, "
                  "authoritative-silent, plan-window)"},
        ErrorCase{"resolvers: [127.0.0.1]\nwebhook:\n  url: https://hooks.example/x\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:3:8: webhook.url: expected http://HOST[:PORT]/PATH (https is not supported)"},
        ErrorCase{"resolvers: [127.0.0.1]\nwebhook:\n  retries: 2\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:3:3: webhook.url: missing"},
        ErrorCase{"resolvers: [127.0.0.1]\nmetrics: 192.0.2.1:9153\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:1:1: metrics: a metrics listener on a non-loopback address needs metrics-token"},
        ErrorCase{"watch:\n  - name: a.test\n",
                  "monitor.yaml:2:5: watch[0]: no authoritatives listed and no resolvers to find the NS set through"},
        ErrorCase{"resolvers: [127.0.0.1]\nwatch:\n  - name: a.test\n    exists: false\n    expect: 192.0.2.1\n",
                  "monitor.yaml:3:5: watch[0].expect: a name with exists: false has no answer to expect"},
        ErrorCase{"resolvers: [127.0.0.1]\nwatch: [\n", "monitor.yaml:3:1: end of sequence flow not found"},
        ErrorCase{"resolvers: [127.0.0.1]\ntries: 0\nwatch:\n  - name: a.test\n",
                  "monitor.yaml:2:8: tries: expected a whole number from 1 to 10"}));

// `cutover monitor --plan` takes its names from the runbook: `watch:` may be left out then,
// and only then; the plan-window rule reads like the others.
TEST(MonitorConfig, WatchesAreOptionalOnlyForAPlan) {
  const std::string yaml = "resolvers: [\"127.0.0.1:5301\"]\nalerts:\n  plan-window: {for: 5s}\n";
  MonitorConfig config = parse_monitor_config(yaml, "monitor.yaml", true);
  EXPECT_TRUE(config.watches.empty());
  EXPECT_EQ(config.alerts.plan_window.hold, std::chrono::seconds(5));
  EXPECT_TRUE(parse_monitor_config("", "monitor.yaml", true).watches.empty());
  EXPECT_EQ(error_of(yaml), "monitor.yaml:1:1: watch: missing: list the names to watch");
}

TEST(MonitorConfig, MissingFileIsAConfigError) {
  EXPECT_THROW(read_monitor_config("/nonexistent/monitor.yaml"), config::ConfigError);
}

}  // namespace
}  // namespace cutover::monitor
