// The server configuration: the YAML schema of `cutover serve --config`, read strictly
// (unknown keys and wrong types are errors with file:line:column). Plain values once
// loaded; loading is stateless and thread-safe.
#pragma once

#include <any>
#include <array>
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/log.h"
#include "base/network_table.h"
#include "config/replication.h"
#include "dns/name.h"
#include "net/address.h"
#include "net/tcp_listener.h"
#include "zone/zone.h"

namespace cutover::config {

// A configuration problem: what() is "FILE:LINE:COL: path.to.key: message" (or shorter
// when the place is unknown). Thrown only while starting or reloading, never while serving.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where the server listens when the config names no address.
constexpr const char* kDefaultListen = "127.0.0.1:5353";

struct ListenConfig {
  std::string text;  // as written, for logs
  net::SocketAddress address;
};

struct LogConfig {
  base::LogLevel level = base::LogLevel::kInfo;
  bool queries = false;  // one line per answered query
  std::string file;      // empty: stderr
};

// zones[].dnssec (docs/dnssec.md): online signing with the zone's keys. Unset (or mode
// presigned): the zone is served as its file holds it, signed offline or not at all.
struct ZoneDnssecConfig {
  bool online = false;
  std::string keys;  // directory of BIND key files; absolute, or relative to the config file's directory
  std::chrono::seconds signature_lifetime{std::chrono::hours(24 * 14)};
  std::chrono::seconds refresh{std::chrono::hours(24 * 7)};  // re-signed when less than this is left
  bool publish_cds = true;  // CDS and CDNSKEY for the active KSKs (RFC 7344, RFC 8078)
};

struct ZoneConfig {
  dns::Name origin;
  std::string file;  // absolute, or relative to the config file's directory once loaded
  // The zone's text itself, for zones compiled into the binary; `file` then only labels
  // diagnostics.
  std::optional<std::string> text;
  zone::OrderPolicy order;
  ZoneReplicationConfig replication;  // NOTIFY, transfer/update ACLs, primary
  ZoneDnssecConfig dnssec;
};

// The HTTP control API (pools, lab, writes). Off unless `control.listen` is set.
struct ControlConfig {
  std::string host;   // empty: no control API
  std::uint16_t port = 0;
  std::string token;  // bearer token; required when host is not a loopback address
  bool remote_writes = false;  // accept write actions from peers off loopback (with the token)
};

// DNS Cookies (RFC 7873, RFC 9018 server cookies; docs/configuration.md#cookies).
struct CookieConfig {
  bool enabled = true;
  // BADCOOKIE for UDP queries that carry a client cookie but no valid server cookie.
  bool require = false;
  // Shared secrets, 16 bytes each as 32 hex digits: the first makes cookies, every one is
  // accepted. Empty: a random secret per process, replaced every `rotate`.
  std::vector<std::array<std::uint8_t, 16>> secrets;
  std::chrono::milliseconds rotate{std::chrono::hours(24)};
};

// EDNS Client Subnet (RFC 7871; docs/steering.md#client-subnet): the resolvers whose option is
// used to steer and is answered with a scope. Empty: the option is ignored from everyone.
struct ClientSubnetConfig {
  std::vector<base::NetworkPrefix> trust;
};

// One view (docs/steering.md, "Views"): which clients it answers and the zones it serves in
// place of (or beside) the default zones. Views are tried in order; the first that matches
// answers, and a query no view matches is answered from the top-level `zones`.
struct ViewConfig {
  std::string name;
  std::vector<base::NetworkPrefix> match_clients;  // the source address, or a trusted ECS prefix
  std::vector<dns::Name> match_keys;               // queries signed with one of these TSIG keys
  bool ecs = false;  // match-clients reads a trusted resolver's Client Subnet (RFC 7871)
  std::vector<ZoneConfig> zones;
};

struct Config {
  std::string source;  // the config file, or "<embedded>"
  std::vector<ListenConfig> listen;
  std::size_t threads = 1;
  net::TcpOptions tcp;
  LogConfig log;
  std::string pid_file;
  ControlConfig control;
  CookieConfig cookies;
  ClientSubnetConfig client_subnet;
  WritesConfig writes;  // journal and TSIG keys
  std::vector<ZoneConfig> zones;
  std::vector<ViewConfig> views;  // empty: every client gets the zones above
  // The values of the keys owned by feature modules (config/section.h), by key; a key the
  // file does not set has no entry. `pools` holds src/pool's (pool::config_pools).
  std::map<std::string, std::any> sections;
};

// Reads and validates a config file; relative paths in it are taken relative to its
// directory. Throws ConfigError.
Config load_config_file(const std::string& path);
// The same from text; `label` names it in errors and `base_dir` anchors relative paths.
Config parse_config(const std::string& yaml, const std::string& label, const std::string& base_dir);

// The replication checks that span sections (parse_config runs them on every document, so
// whoever builds a server from a Config only looks keys up): every TSIG key a zone names
// (transfer-key, allow-update, and primary-key of a zone with a primary) is one of
// writes.tsig-keys, and a secondary zone has no allow-update (its content comes from its
// primary, RFC 1996 §2; UPDATE goes to the primary, RFC 2136 §6). Throws ConfigError naming
// the zone; the transfer-key and allow-update of every zone are checked before any
// primary-key.
void check_zone_keys(const Config& config);

// The configuration compiled into the binary: zone example.test. on 127.0.0.1:5353.
// `feature_yaml` is appended to its YAML: top-level keys of registered sections (cmd adds
// the demo pool of `cutover serve`, config/section.h).
Config embedded_default_config(const std::string& feature_yaml = "");

// "10s", "500ms", "2m" or a bare number of seconds; nullopt when malformed.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);
// The control API's "ADDRESS:PORT" (port 0: any free port), without a token.
base::Result<ControlConfig> parse_control_listen(std::string_view text);
// "fixed", "cyclic", "random"; nullopt otherwise.
std::optional<zone::RRsetOrder> parse_rrset_order(std::string_view text);

}  // namespace cutover::config
