// MonitorConfig: what `cutover monitor` watches, where it asks, how often, its metrics
// listener, alert rules and webhook, read from monitor.yaml with the config module's strict
// reader (unknown keys and wrong types are ConfigErrors "FILE:LINE:COL: key.path: message";
// docs/operations.md, "Monitor"). Plain values.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dns/name.h"
#include "dns/types.h"
#include "net/address.h"

namespace cutover::monitor {

struct WatchSpec {
  dns::Name name;
  dns::RRType type = dns::RRType::A;
  // The rdata the answer should carry, as dig prints it ("192.0.2.1"); empty: not checked.
  std::vector<std::string> expect;
  bool exists = true;  // false: NXDOMAIN is the expected answer, never an alert
  std::vector<net::SocketAddress> authoritatives;  // empty: the top-level list, then the NS set
};

// A rule fires once its condition has held for `hold` (0: the first round it holds).
struct AlertRule {
  bool enabled = true;
  std::chrono::milliseconds hold{0};
};

struct AlertRules {
  AlertRule mismatch{true, std::chrono::seconds(60)};
  AlertRule nxdomain{true, std::chrono::milliseconds(0)};
  AlertRule authoritative_silent{true, std::chrono::seconds(30)};
  AlertRule plan_window{true, std::chrono::milliseconds(0)};  // only with --plan
};

struct WebhookConfig {
  std::string host;  // from url: http://HOST[:PORT]/PATH
  std::uint16_t port = 80;
  std::string path = "/";
  std::string url;
  int retries = 3;                               // further attempts after the first failure
  std::chrono::milliseconds backoff{1000};       // before the first retry; doubled each time
  std::chrono::milliseconds timeout{2000};       // connect and read, per attempt
};

struct MonitorConfig {
  std::vector<WatchSpec> watches;
  std::vector<net::SocketAddress> authoritatives;  // empty: each name's NS set through the resolvers
  std::vector<net::SocketAddress> resolvers;
  std::uint16_t auth_port = 53;  // for authoritatives found through the NS set
  std::chrono::milliseconds interval{10000};
  std::chrono::milliseconds timeout{2000};  // per try of each question
  int tries = 2;
  std::string metrics_host = "127.0.0.1";
  std::uint16_t metrics_port = 9153;  // 0: the kernel picks one
  std::string metrics_token;          // required off loopback
  AlertRules alerts;
  std::optional<WebhookConfig> webhook;
};

// Throws config::ConfigError; `label` names the document in errors. With `watches_optional`
// (`cutover monitor --plan`, whose runbook names what to watch) `watch:` may be left out.
MonitorConfig parse_monitor_config(std::string_view yaml, const std::string& label, bool watches_optional = false);
// Reads and parses the file; a missing or unreadable file is a ConfigError too.
MonitorConfig read_monitor_config(const std::string& path, bool watches_optional = false);

}  // namespace cutover::monitor
