// Tests for the YAML config reader: the full schema, strictness (unknown keys, wrong
// types with line:column), relative paths, and the embedded default.
#include "config/config.h"

#include <any>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/section.h"
#include "config/yaml_reader.h"

namespace cutover::config {
namespace {

using ::testing::HasSubstr;

Config parse(const std::string& yaml) { return parse_config(yaml, "test.yaml", "/etc/cutover"); }

std::string error_of(const std::string& yaml) {
  try {
    parse(yaml);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Config, ReadsEveryKey) {
  Config config = parse(R"(
listen: ["127.0.0.1:5353", "[::1]:5353"]
threads: 4
tcp: {idle-timeout: 1500ms, busy-idle-timeout: 100ms, max-connections: 16, max-connections-per-client: 4}
log: {level: debug, queries: true, file: logs/cutover.log}
pid-file: /run/cutover.pid
zones:
  - origin: example.test
    file: zones/example.test.zone
    rrset-order: random
    rrset-order-names: {www: cyclic, "@": fixed}
)");
  ASSERT_EQ(config.listen.size(), 2u);
  EXPECT_EQ(config.listen[1].text, "[::1]:5353");
  EXPECT_EQ(config.listen[1].address.port(), 5353);
  EXPECT_EQ(config.threads, 4u);
  EXPECT_EQ(config.tcp.idle_timeout, std::chrono::milliseconds(1500));
  EXPECT_EQ(config.tcp.max_connections, 16u);
  EXPECT_EQ(config.tcp.busy_idle_timeout, std::chrono::milliseconds(100));
  EXPECT_EQ(config.tcp.max_connections_per_client, 4u);
  EXPECT_EQ(config.log.level, base::LogLevel::kDebug);
  EXPECT_TRUE(config.log.queries);
  EXPECT_EQ(config.log.file, "/etc/cutover/logs/cutover.log");
  EXPECT_EQ(config.pid_file, "/run/cutover.pid");
  ASSERT_EQ(config.zones.size(), 1u);
  const ZoneConfig& zone = config.zones[0];
  EXPECT_EQ(zone.origin.to_text(), "example.test.");
  EXPECT_EQ(zone.file, "/etc/cutover/zones/example.test.zone");
  EXPECT_EQ(zone.order.zone_default, zone::RRsetOrder::kRandom);
  ASSERT_EQ(zone.order.per_name.size(), 2u);
  EXPECT_EQ(zone.order.per_name[0].first.to_text(), "www.example.test.");
  EXPECT_EQ(zone.order.per_name[0].second, zone::RRsetOrder::kCyclic);
  EXPECT_EQ(zone.order.per_name[1].first.to_text(), "example.test.");
}

TEST(Config, ReadsTheControlApi) {
  Config loopback = parse("control: {listen: \"127.0.0.1:8053\"}\n");
  EXPECT_EQ(loopback.control.host, "127.0.0.1");
  EXPECT_EQ(loopback.control.port, 8053);
  EXPECT_TRUE(loopback.control.token.empty());
  EXPECT_TRUE(parse("listen: \"127.0.0.1:53\"\n").control.host.empty());
  EXPECT_THAT(error_of("control: {listen: \"0.0.0.0:8053\"}\n"), HasSubstr("needs a token"));
  EXPECT_EQ(parse("control: {listen: \"[::]:8053\", token: t0k}\n").control.host, "::");
  EXPECT_FALSE(loopback.control.remote_writes);
  EXPECT_TRUE(parse("control: {listen: \"[::]:8053\", token: t0k, remote-writes: true}\n").control.remote_writes);
  EXPECT_THAT(error_of("control: {listen: \"127.0.0.1:8053\", remote-writes: maybe}\n"),
              HasSubstr("control.remote-writes"));
}

TEST(Config, RejectsNamesOutsideTheZone) {
  EXPECT_THAT(error_of("zones: [{origin: a.test., file: f, rrset-order-names: {other.test.: fixed}}]"),
              HasSubstr("zones[0].rrset-order-names.other.test.: name is outside the zone"));
}

TEST(Config, DefaultsWhenKeysAreAbsent) {
  Config config = parse("zones: []\n");
  ASSERT_EQ(config.listen.size(), 1u);
  EXPECT_EQ(config.listen[0].text, kDefaultListen);
  EXPECT_EQ(config.threads, 1u);
  EXPECT_EQ(config.tcp.idle_timeout, std::chrono::seconds(10));
  EXPECT_EQ(config.tcp.max_connections, 256u);
  EXPECT_EQ(config.tcp.busy_idle_timeout, std::chrono::milliseconds(200));
  EXPECT_EQ(config.tcp.max_connections_per_client, 64u);
  EXPECT_EQ(parse("tcp: {max-connections-per-client: 0}\n").tcp.max_connections_per_client, 0u);  // no limit
  EXPECT_FALSE(config.log.queries);
  EXPECT_TRUE(config.zones.empty());
}

struct BadCase {
  const char* yaml;
  const char* expected;  // a substring of the error
};

TEST(Config, ReportsEveryProblemWithItsPlace) {
  const BadCase cases[] = {
      {"listen: [\"127.0.0.1:53\"]\nthread: 2\n", "test.yaml:2:1: thread: unknown key"},
      {"tcp:\n  idle-timeout: 10s\n  max-conections: 5\n", "test.yaml:3:3: tcp.max-conections: unknown key"},
      {"threads: many\n", "test.yaml:1:10: threads: expected a whole number from 1 to 64"},
      {"threads: 0\n", "threads: expected a whole number"},
      {"tcp: {idle-timeout: soon}\n", "tcp.idle-timeout: expected a positive duration"},
      {"tcp:\n  idle-timeout: 1s\n  busy-idle-timeout: 2s\n",
       "test.yaml:3:22: tcp.busy-idle-timeout: must not be longer than idle-timeout"},
      {"tcp:\n  busy-idle-timeout: 0ms\n", "test.yaml:2:22: tcp.busy-idle-timeout: expected a positive duration"},
      {"tcp:\n  max-connections-per-client: -1\n",
       "test.yaml:2:31: tcp.max-connections-per-client: expected a whole number from 0 to 1000000"},
      {"log: {level: loud}\n", "log.level: expected debug, info, warn or error"},
      {"log: {queries: maybe}\n", "log.queries: expected true or false"},
      {"listen: [\"localhost:53\"]\n", "test.yaml:1:10: listen[0]: invalid listen address 'localhost:53'"},
      {"listen: []\n", "listen: expected an ADDRESS:PORT or a non-empty list"},
      {"zones:\n  - file: a.zone\n", "test.yaml:2:5: zones[0]: missing required key 'origin'"},
      {"zones:\n  - origin: a.test.\n", "zones[0]: missing required key 'file'"},
      {"zones:\n  - {origin: a.test., file: a, rrset-order: sorted}\n", "zones[0].rrset-order: expected fixed"},
      {"zones:\n  - {origin: a.test., file: a}\n  - {origin: A.test., file: b}\n", "zones[1]: zone a.test. is listed twice"},
      {"zones: {origin: a.test.}\n", "zones: expected a list of zones"},
      {"tcp: 5\n", "tcp: expected a mapping"},
      {"threads: 1\nthreads: 2\n", "threads: duplicate key"},
      {"listen: [unclosed\n", "test.yaml:2:1: "},
  };
  for (const auto& bad : cases) EXPECT_THAT(error_of(bad.yaml), HasSubstr(bad.expected)) << bad.yaml;
}

TEST(Config, ReadsCookies) {
  Config defaults = parse("threads: 1\n");
  EXPECT_TRUE(defaults.cookies.enabled);
  EXPECT_FALSE(defaults.cookies.require);
  EXPECT_TRUE(defaults.cookies.secrets.empty());
  EXPECT_EQ(defaults.cookies.rotate, std::chrono::hours(24));
  Config set = parse(
      "cookies:\n  require: true\n  rotate: 10m\n"
      "  secrets: [\"e5e973e5a6b2a43f48e7dc849e37bfcf\", \"00112233445566778899AABBCCDDEEFF\"]\n");
  EXPECT_TRUE(set.cookies.require);
  EXPECT_EQ(set.cookies.rotate, std::chrono::minutes(10));
  ASSERT_EQ(set.cookies.secrets.size(), 2u);
  EXPECT_EQ(set.cookies.secrets[0][0], 0xe5);
  EXPECT_EQ(set.cookies.secrets[1][15], 0xff);
  EXPECT_FALSE(parse("cookies: {enabled: false}\n").cookies.enabled);

  const BadCase cases[] = {
      {"cookies:\n  secrets: [\"e5e973\"]\n", "test.yaml:2:13: cookies.secrets[0]: expected 32 hex digits"},
      {"cookies:\n  secrets: [\"zz e973e5a6b2a43f48e7dc849e37bfcf\"]\n", "cookies.secrets[0]: expected 32 hex digits"},
      {"cookies:\n  secrets: []\n", "cookies.secrets: expected a non-empty list"},
      {"cookies:\n  rotate: never\n", "cookies.rotate: expected a positive duration"},
      {"cookies:\n  requires: true\n", "test.yaml:2:3: cookies.requires: unknown key"},
  };
  for (const auto& bad : cases) EXPECT_THAT(error_of(bad.yaml), HasSubstr(bad.expected)) << bad.yaml;
}

// The key names zones use must be writes.tsig-keys' (config/replication.cpp, check_zone_keys),
// whether or not a journal is configured; names compare as DNS names (case-insensitively).
TEST(Config, ReadsClientSubnetTrust) {
  EXPECT_TRUE(parse("").client_subnet.trust.empty());  // off: every ECS option is ignored
  Config one = parse("client-subnet: {trust: 127.0.0.0/8}\n");
  ASSERT_EQ(one.client_subnet.trust.size(), 1u);
  EXPECT_EQ(one.client_subnet.trust[0].to_text(), "127.0.0.0/8");
  Config list = parse("client-subnet:\n  trust: [192.0.2.53, '2001:db8::/32']\n");
  ASSERT_EQ(list.client_subnet.trust.size(), 2u);
  EXPECT_EQ(list.client_subnet.trust[0].bits, 32u);
  EXPECT_TRUE(list.client_subnet.trust[1].v6);
  struct Case {
    const char* yaml;
    const char* expected;
  };
  const Case cases[] = {
      {"client-subnet:\n  trust: 10.0.0/8\n",
       "test.yaml:2:10: client-subnet.trust: expected an address or address/prefix, e.g. 192.0.2.0/24"},
      {"client-subnet:\n  trust: [10.0.0.0/8, 10.1.0.0/8]\n",
       "test.yaml:2:23: client-subnet.trust[1]: 10.1.0.0/8 has bits set past /8"},
      {"client-subnet:\n  trust: [10.0.0.0/8, 10.0.0.0/8]\n", "client-subnet.trust[1]:"},
      {"client-subnet:\n  trust: {a: b}\n", "client-subnet.trust: expected an address/prefix or a list of them"},
      {"client-subnet:\n  trusted: 10.0.0.0/8\n", "test.yaml:2:3: client-subnet.trusted: unknown key"},
  };
  for (const auto& bad : cases) EXPECT_THAT(error_of(bad.yaml), HasSubstr(bad.expected)) << bad.yaml;
}

// Views (docs/steering.md, "Views"): read in order, after writes and client-subnet wherever
// those stand in the file; every problem names its place.
TEST(Config, ReadsViews) {
  const std::string prefix =
      "writes:\n  tsig-keys:\n    - {name: inside, algorithm: hmac-sha256, secret: c2VjcmV0}\n"
      "zones:\n  - {origin: example.test., file: ext.zone}\n";
  Config config = parse("views:\n"
                        "  - name: internal\n"
                        "    match-clients: [10.0.0.0/8, '2001:db8::/32']\n"
                        "    match-keys: Inside\n"
                        "    ecs: true\n"
                        "    zones:\n      - {origin: example.test., file: int.zone, rrset-order: cyclic}\n"
                        "  - name: keyed\n    match-keys: [inside]\n"
                        "    zones: [{origin: other.test., file: other.zone}]\n" +
                        prefix + "client-subnet: {trust: 127.0.0.1}\n");
  ASSERT_EQ(config.views.size(), 2u);
  const ViewConfig& internal = config.views[0];
  EXPECT_EQ(internal.name, "internal");
  ASSERT_EQ(internal.match_clients.size(), 2u);
  EXPECT_EQ(internal.match_clients[1].to_text(), "2001:db8::/32");
  ASSERT_EQ(internal.match_keys.size(), 1u);
  EXPECT_EQ(internal.match_keys[0], *dns::Name::from_text("inside."));
  EXPECT_TRUE(internal.ecs);
  ASSERT_EQ(internal.zones.size(), 1u);
  EXPECT_EQ(internal.zones[0].file, "/etc/cutover/int.zone");
  EXPECT_EQ(internal.zones[0].order.zone_default, zone::RRsetOrder::kCyclic);
  EXPECT_FALSE(config.views[1].ecs);
  EXPECT_TRUE(config.views[1].match_clients.empty());
  EXPECT_TRUE(parse("").views.empty());

  const BadCase cases[] = {
      {"views: {a: b}\n", "test.yaml:1:8: views: expected a list of views"},
      {"views:\n  - {match-clients: 10.0.0.0/8, zones: [{origin: a.test., file: a}]}\n",
       "test.yaml:2:5: views[0]: missing required key 'name'"},
      {"views:\n  - {name: 'in side', match-clients: 10.0.0.0/8, zones: [{origin: a.test., file: a}]}\n",
       "test.yaml:2:12: views[0].name: expected 1 to 64 of A-Z a-z 0-9 . _ -"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8, zones: [{origin: a.test., file: a}]}\n"
       "  - {name: a, match-clients: 10.0.0.0/8, zones: [{origin: a.test., file: a}]}\n",
       "test.yaml:3:12: views[1].name: view a is listed twice"},
      {"views:\n  - {name: a, zones: [{origin: a.test., file: a}]}\n",
       "views[0]: view a matches no client: give match-clients or match-keys"},
      {"views:\n  - {name: a, match-clients: 10.0.0/8, zones: [{origin: a.test., file: a}]}\n",
       "test.yaml:2:30: views[0].match-clients: expected an address or address/prefix"},
      {"views:\n  - {name: a, match-keys: nokey, zones: [{origin: a.test., file: a}]}\n",
       "test.yaml:2:27: views[0].match-keys: TSIG key nokey. is not defined in writes.tsig-keys"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8, ecs: true, zones: [{origin: a.test., file: a}]}\n",
       "test.yaml:2:47: views[0].ecs: no resolver's client subnet is trusted: set client-subnet.trust"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8}\n",
       "views[0].zones: expected a non-empty list of zones"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8, zones: []}\n" ,
       "test.yaml:2:49: views[0].zones: expected a non-empty list of zones"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8, zones: [{origin: a.test.}]}\n",
       "views[0].zones[0]: missing required key 'file'"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8, zones: [{origin: a.test., file: a, primary: '127.0.0.1:53'}]}\n",
       "views[0].zones[0].primary: unknown key"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8, zones: [{origin: a.test., file: a}, {origin: A.test., file: b}]}\n",
       "views[0].zones[1]: zone a.test. is listed twice in this view"},
      {"views:\n  - {name: a, match-clients: 10.0.0.0/8, colour: red, zones: [{origin: a.test., file: a}]}\n",
       "views[0].colour: unknown key"},
      {"writes:\n  tsig-keys: [{name: k1, algorithm: hmac-sha256, secret: c2VjcmV0}]\n"
       "zones: [{origin: a.test., file: a, allow-update: [k1]}]\n"
       "views:\n  - {name: v, match-keys: [k1], zones: [{origin: a.test., file: b}]}\n",
       "test.yaml:5:5: views[0].match-keys: key k1. may update zone a.test. (allow-update), but it picks view v, which "
       "serves its own copy"},
      {"writes:\n  tsig-keys: [{name: k1, algorithm: hmac-sha256, secret: c2VjcmV0}]\n"
       "views:\n  - {name: v, match-clients: 10.0.0.0/8, zones: [{origin: a.test., file: b, allow-update: [k1]}]}\n",
       "test.yaml:4:91: views[0].zones[0].allow-update: key k1. does not pick view v"},
      {"writes:\n  tsig-keys: [{name: k1, algorithm: hmac-sha256, secret: c2VjcmV0}]\n"
       "views:\n  - {name: u, match-keys: k1, zones: [{origin: b.test., file: b}]}\n"
       "  - {name: v, match-keys: k1, zones: [{origin: a.test., file: b, allow-update: [k1]}]}\n",
       "views[1].zones[0].allow-update: key k1. does not pick view v"},
  };
  for (const auto& bad : cases) EXPECT_THAT(error_of(bad.yaml), HasSubstr(bad.expected)) << bad.yaml;
}

TEST(Config, ZoneKeyNamesMustBeDefinedTsigKeys) {
  const std::string keys = "writes:\n  tsig-keys:\n    - {name: Xfer-Key, algorithm: hmac-sha256, secret: c2VjcmV0}\n";
  Config ok = parse(keys +
                    "zones:\n"
                    "  - {origin: a.test., file: a, transfer-key: xfer-key, allow-update: [XFER-KEY.]}\n"
                    "  - {origin: b.test., primary: \"127.0.0.1:5300\", primary-key: xfer-key}\n");
  EXPECT_EQ(ok.zones[0].replication.transfer_key, "xfer-key.");
  EXPECT_EQ(ok.zones[1].replication.primary_key, "xfer-key.");

  const BadCase cases[] = {
      {"zones:\n  - {origin: A.test., file: a, transfer-key: nokey}\n",
       "zone a.test.: TSIG key nokey. is not defined in writes.tsig-keys"},
      {"zones:\n  - {origin: a.test., file: a, allow-update: [xfer-key, nokey]}\n",
       "zone a.test.: TSIG key nokey. is not defined in writes.tsig-keys"},
      {"zones:\n  - {origin: a.test., primary: \"127.0.0.1:5300\", primary-key: nokey}\n",
       "zone a.test.: TSIG key nokey. is not defined in writes.tsig-keys"},
      {"zones:\n  - {origin: a.test., primary: \"127.0.0.1:5300\", allow-update: [xfer-key]}\n",
       "zone a.test.: allow-update on a secondary zone; its primary applies updates: set forward-updates: true to "
       "relay them there (RFC 2136 §6), and allow-update on the primary"},
  };
  for (const auto& bad : cases) {
    EXPECT_EQ(error_of(keys + bad.yaml), bad.expected) << bad.yaml;
    std::string without_keys = error_of(bad.yaml);
    EXPECT_THAT(without_keys, HasSubstr("zone a.test.: ")) << bad.yaml;
  }
}

// allow-update: today's key names, or {key, allow-empty} per key (docs/steering.md,
// "Automation that deletes"); bad items name their file:line:column.
TEST(Config, AllowUpdateTakesKeyNamesOrPerKeyPolicies) {
  const std::string keys = "writes:\n  tsig-keys:\n"
                           "    - {name: k1, algorithm: hmac-sha256, secret: c2VjcmV0}\n"
                           "    - {name: edns, algorithm: hmac-sha256, secret: c2VjcmV0}\n";
  Config plain = parse(keys + "zones:\n  - {origin: a.test., file: a, allow-update: k1}\n");
  ASSERT_EQ(plain.zones[0].replication.allow_update.size(), 1u);
  EXPECT_EQ(plain.zones[0].replication.allow_update[0].key, "k1.");
  EXPECT_FALSE(plain.zones[0].replication.allow_update[0].allow_empty);
  Config mixed = parse(keys +
                       "zones:\n  - origin: a.test.\n    file: a\n    allow-update:\n      - k1\n"
                       "      - {key: edns, allow-empty: true}\n");
  const auto& policies = mixed.zones[0].replication.allow_update;
  ASSERT_EQ(policies.size(), 2u);
  EXPECT_EQ(policies[0].key, "k1.");
  EXPECT_FALSE(policies[0].allow_empty);
  EXPECT_EQ(policies[1].key, "edns.");
  EXPECT_TRUE(policies[1].allow_empty);

  const BadCase cases[] = {
      {"zones:\n  - origin: a.test.\n    file: a\n    allow-update:\n      - {key: edns, allow-empty: maybe}\n",
       "test.yaml:9:34: zones[0].allow-update[0].allow-empty: expected true or false"},
      {"zones:\n  - origin: a.test.\n    file: a\n    allow-update:\n      - {allow-empty: true}\n",
       "test.yaml:9:9: zones[0].allow-update[0]: missing required key 'key'"},
      {"zones:\n  - origin: a.test.\n    file: a\n    allow-update:\n      - {key: edns, delete: true}\n",
       "test.yaml:9:21: zones[0].allow-update[0].delete: unknown key (expected one of: key, allow-empty)"},
      {"zones:\n  - origin: a.test.\n    file: a\n    allow-update:\n      - [edns]\n",
       "test.yaml:9:9: zones[0].allow-update[0]: expected a key name or a mapping {key: NAME, allow-empty: true}"},
      {"zones:\n  - origin: a.test.\n    file: a\n    allow-update:\n      - k1\n      - {key: K1}\n",
       "test.yaml:10:9: zones[0].allow-update[1]: key k1. is listed twice"},
      {"zones:\n  - origin: a.test.\n    file: a\n    allow-update: {key: k1}\n",
       "test.yaml:8:19: zones[0].allow-update: expected a key name or a list"},
      {"zones:\n  - origin: a.test.\n    file: a\n    allow-update: [{key: nokey, allow-empty: true}]\n",
       "zone a.test.: TSIG key nokey. is not defined in writes.tsig-keys"},
  };
  for (const auto& bad : cases) EXPECT_THAT(error_of(keys + bad.yaml), HasSubstr(bad.expected)) << bad.yaml;
}

// forward-updates: a secondary zone relays DNS UPDATE to its primary (docs/replication.md,
// "Updates sent to a secondary"); off unless set, strict true/false, only with primary.
TEST(Config, ForwardUpdatesIsASecondaryZonesFlag) {
  Config off = parse("zones:\n  - {origin: a.test., primary: \"127.0.0.1:5300\"}\n");
  EXPECT_FALSE(off.zones[0].replication.forward_updates);
  Config on = parse("zones:\n  - origin: a.test.\n    primary: \"127.0.0.1:5300\"\n    forward-updates: true\n");
  EXPECT_TRUE(on.zones[0].replication.forward_updates);
  EXPECT_FALSE(parse("zones:\n  - {origin: a.test., primary: \"127.0.0.1:5300\", forward-updates: false}\n")
                   .zones[0]
                   .replication.forward_updates);

  const BadCase cases[] = {
      {"zones:\n  - origin: a.test.\n    primary: \"127.0.0.1:5300\"\n    forward-updates: maybe\n",
       "test.yaml:4:22: zones[0].forward-updates: expected true or false, got 'maybe'"},
      {"zones:\n  - origin: a.test.\n    primary: \"127.0.0.1:5300\"\n    forward-updates: [true]\n",
       "test.yaml:4:22: zones[0].forward-updates: expected a single value"},
      {"zones:\n  - origin: a.test.\n    file: a\n    forward-updates: true\n",
       "test.yaml:4:22: zones[0].forward-updates: forward-updates needs primary: only a secondary zone relays updates"},
      {"zones:\n  - origin: a.test.\n    primary: \"127.0.0.1:5300\"\n    forward-update: true\n",
       "test.yaml:4:5: zones[0].forward-update: unknown key"},
  };
  for (const auto& bad : cases) EXPECT_THAT(error_of(bad.yaml), HasSubstr(bad.expected)) << bad.yaml;
}

TEST(Config, RelativePathsFollowTheConfigFile) {
  Config config = parse("zones: [{origin: a.test., file: /abs/a.zone}, {origin: b.test., file: ../b.zone}]\n");
  EXPECT_EQ(config.zones[0].file, "/abs/a.zone");
  EXPECT_EQ(config.zones[1].file, "/etc/b.zone");
}

TEST(Config, MissingFileIsAConfigError) {
  EXPECT_THROW(load_config_file("/nonexistent/cutover.yaml"), ConfigError);
}

TEST(Config, EmbeddedDefaultServesExampleTestOnPort5353) {
  Config config = embedded_default_config();
  ASSERT_EQ(config.listen.size(), 1u);
  EXPECT_EQ(config.listen[0].text, "127.0.0.1:5353");
  ASSERT_EQ(config.zones.size(), 1u);
  EXPECT_EQ(config.zones[0].origin.to_text(), "example.test.");
  EXPECT_TRUE(config.zones[0].text.has_value());
  EXPECT_EQ(config.zones[0].order.zone_default, zone::RRsetOrder::kCyclic);
}

TEST(ParseDuration, AcceptsUnits) {
  EXPECT_EQ(parse_duration("250ms"), std::chrono::milliseconds(250));
  EXPECT_EQ(parse_duration("10s"), std::chrono::seconds(10));
  EXPECT_EQ(parse_duration("7"), std::chrono::seconds(7));
  EXPECT_EQ(parse_duration("2m"), std::chrono::minutes(2));
  EXPECT_FALSE(parse_duration("s").has_value());
  EXPECT_EQ(parse_duration("10h"), std::chrono::hours(10));
  EXPECT_EQ(parse_duration("14d"), std::chrono::hours(24 * 14));
  EXPECT_FALSE(parse_duration("10y").has_value());
  EXPECT_FALSE(parse_duration("-1s").has_value());
}

TEST(ConfigSection, ARegisteredKeyIsReadAfterTheZonesAndKeptUnderItsKey) {
  register_section({"test-section", [](const YamlReader& reader, const YAML::Node& node, const std::string& path,
                                       const Config& so_far) {
                      if (!node.IsScalar()) reader.fail(node.Mark(), path, "expected a word");
                      return std::any(node.Scalar() + " after " + std::to_string(so_far.zones.size()) + " zones");
                    }});
  // Listed before the zones, read after them.
  Config config = parse("test-section: hello\nzones:\n  - {origin: a.test., file: a.zone}\n");
  ASSERT_EQ(config.sections.count("test-section"), 1u);
  EXPECT_EQ(std::any_cast<std::string>(config.sections.at("test-section")), "hello after 1 zones");
  EXPECT_EQ(parse("zones: []\n").sections.count("test-section"), 0u);
  try {
    parse("test-section: [1, 2]\n");
    FAIL() << "a bad section value was accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "test.yaml:1:15: test-section: expected a word");
  }
}

TEST(ConfigSection, AKeyNoModuleRegisteredIsUnknown) {
  try {
    parse("not-registered-section: 1\n");
    FAIL() << "an unregistered key was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("not-registered-section: unknown key (expected one of: listen,"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cutover::config

namespace cutover::config {
namespace {

TEST(ConfigDnssec, OnlineSigningIsReadWithItsDefaultsAndChecked) {
  Config config = parse("zones:\n  - origin: a.test.\n    file: a.zone\n    dnssec: {mode: online, keys: keys, refresh: 1d}\n");
  const ZoneDnssecConfig& dnssec = config.zones.at(0).dnssec;
  EXPECT_TRUE(dnssec.online);
  EXPECT_EQ(dnssec.keys, "/etc/cutover/keys");
  EXPECT_EQ(dnssec.signature_lifetime, std::chrono::hours(24 * 14));
  EXPECT_EQ(dnssec.refresh, std::chrono::hours(24));
  EXPECT_TRUE(dnssec.publish_cds);
  EXPECT_FALSE(parse("zones:\n  - origin: a.test.\n    file: a.zone\n").zones.at(0).dnssec.online);

  EXPECT_EQ(error_of("zones:\n  - origin: a.test.\n    file: a.zone\n    dnssec: {mode: online}\n"),
            "test.yaml:4:13: zones[0].dnssec: mode online needs keys: the directory of the zone's key files");
  EXPECT_EQ(error_of("zones:\n  - origin: a.test.\n    file: a.zone\n    dnssec: {mode: inline, keys: k}\n"),
            "test.yaml:4:20: zones[0].dnssec.mode: expected online or presigned");
  EXPECT_THAT(error_of("zones:\n  - origin: a.test.\n    file: a.zone\n"
                       "    dnssec: {mode: online, keys: k, signature-lifetime: 7d, refresh: 7d}\n"),
              HasSubstr("zones[0].dnssec.refresh: refresh must be shorter than signature-lifetime"));
}

}  // namespace
}  // namespace cutover::config
