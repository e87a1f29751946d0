// Shared set-up for the replication tests: the zone, cutover primary and secondary configs,
// NSD / Knot / BIND configs (as secondaries or primaries) in a temp dir, and DNS polling with
// the stub client. Header-only (the area's binary is built from *_test.cpp files only).
#pragma once

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "client/query.h"
#include "dns/rdata.h"
#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {

using Clock = std::chrono::steady_clock;

// The zone every test replicates; `serial`, the www address and SOA timers vary.
inline std::string xfr_zone(std::uint32_t serial, const std::string& www, const std::string& timers = "3600 600 86400 60",
                            const std::string& extra = "") {
  return fmt::format("$ORIGIN example.test.\n$TTL 300\n@ IN SOA ns1 admin {} {}\n@ IN NS ns1\nns1 IN A 127.0.0.1\n"
                     "www IN A {}\n{}",
                     serial, timers, www, extra);
}

// Polls `done` every 10 ms until it holds or `timeout` passes.
inline bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

inline net::SocketAddress loopback(std::uint16_t port) {
  return *net::parse_socket_address(fmt::format("127.0.0.1:{}", port));
}

struct Answer {
  bool replied = false;
  dns::Rcode rcode = dns::Rcode::kNoError;
  std::vector<std::string> addresses;  // A rdata as dotted quads
  std::optional<std::uint32_t> serial;  // from an SOA in the answer
};

// One UDP question to 127.0.0.1:`port` (500 ms, one try).
inline Answer ask(std::uint16_t port, const std::string& name, dns::RRType type) {
  client::QueryOptions options;
  options.timeout = std::chrono::milliseconds(500);
  Answer answer;
  auto reply = client::query(loopback(port), *dns::Name::from_text(name), type, options);
  if (!reply) return answer;
  answer.replied = true;
  answer.rcode = static_cast<dns::Rcode>(reply->response.header.rcode);
  for (const auto& record : reply->response.answers) {
    if (record.type == dns::RRType::A && record.rdata.size() == 4) {
      answer.addresses.push_back(fmt::format("{}.{}.{}.{}", record.rdata[0], record.rdata[1], record.rdata[2], record.rdata[3]));
    }
    if (record.type == dns::RRType::SOA) {
      if (auto soa = dns::parse_soa(record.rdata)) answer.serial = soa->serial;
    }
  }
  return answer;
}

inline std::optional<std::uint32_t> serial_at(std::uint16_t port) { return ask(port, "example.test.", dns::RRType::SOA).serial; }

inline bool serves_www(std::uint16_t port, const std::string& address) {
  auto answer = ask(port, "www.example.test.", dns::RRType::A);
  return answer.addresses == std::vector<std::string>{address};
}

// `cutover set example.test www A ADDRESS` through the primary's control API.
inline CommandResult set_www(int control_port, const std::string& address) {
  return run_command({CUTOVER_BINARY, "set", "example.test", "www", "A", address, "--control",
                      fmt::format("127.0.0.1:{}", control_port)},
                     std::chrono::seconds(10));
}

// A cutover primary config: journal, control API, transfers to 127.0.0.1, NOTIFY to `notify`.
inline std::string primary_config(const std::vector<std::uint16_t>& notify) {
  std::string targets;
  for (auto port : notify) targets += fmt::format("{}127.0.0.1:{}", targets.empty() ? "" : ", ", port);
  return fmt::format("control:\n  listen: 127.0.0.1:0\nwrites:\n  journal: journal.db\nzones:\n"
                     "  - origin: example.test\n    file: zone.db\n    allow-transfer: [127.0.0.1]\n"
                     "    notify: [{}]\n",
                     targets);
}

// A cutover secondary config pulling example.test from 127.0.0.1:`primary_port`.
inline std::string secondary_config(std::uint16_t primary_port, const std::string& extra = "") {
  return fmt::format("zones:\n  - origin: example.test\n    primary: 127.0.0.1:{}\n    allow-transfer: [127.0.0.1]\n{}",
                     primary_port, extra);
}

// NSD 4.6: as a secondary (`primary_port` set) or as a primary serving zone.db and notifying
// `notify_port`. rrl off, no database, everything inside `dir`.
inline std::vector<std::string> nsd_command(const std::string& dir, std::uint16_t port, std::uint16_t primary_port,
                                            std::uint16_t notify_port = 0) {
  std::string zone = primary_port != 0
                         ? fmt::format("  zonefile: \"example.test.zone\"\n  allow-notify: 127.0.0.1 NOKEY\n"
                                       "  request-xfr: 127.0.0.1@{} NOKEY\n",
                                       primary_port)
                         : fmt::format("  zonefile: \"{}/zone.db\"\n  provide-xfr: 127.0.0.1 NOKEY\n"
                                       "  notify: 127.0.0.1@{} NOKEY\n",
                                       dir, notify_port);
  write_file(dir + "/nsd.conf",
             fmt::format("server:\n  ip-address: 127.0.0.1@{0}\n  port: {0}\n  username: \"\"\n  chroot: \"\"\n"
                         "  database: \"\"\n  zonesdir: \"{1}\"\n  pidfile: \"{1}/nsd.pid\"\n  xfrdfile: \"{1}/xfrd.state\"\n"
                         "  zonelistfile: \"{1}/zone.list\"\n  rrl-ratelimit: 0\n  verbosity: 2\n"
                         "remote-control:\n  control-enable: no\nzone:\n  name: example.test\n{2}",
                         port, dir, zone));
  return {"nsd", "-d", "-c", dir + "/nsd.conf"};
}

// Knot 3.2: as a secondary of `primary_port`, or as a primary of zone.db notifying `notify_port`.
inline std::vector<std::string> knot_command(const std::string& dir, std::uint16_t port, std::uint16_t primary_port,
                                             std::uint16_t notify_port = 0) {
  std::string role = primary_port != 0
                         ? fmt::format("remote:\n  - id: peer\n    address: 127.0.0.1@{}\nacl:\n  - id: peer_acl\n"
                                       "    address: 127.0.0.1\n    action: notify\n",
                                       primary_port)
                         : fmt::format("remote:\n  - id: peer\n    address: 127.0.0.1@{}\nacl:\n  - id: peer_acl\n"
                                       "    address: 127.0.0.1\n    action: transfer\n",
                                       notify_port);
  std::string zone = primary_port != 0 ? "    master: peer\n    acl: peer_acl\n"
                                       : fmt::format("    file: \"{}/zone.db\"\n    notify: peer\n    acl: peer_acl\n"
                                                     "    zonefile-load: difference\n",
                                                     dir);
  write_file(dir + "/knot.conf",
             fmt::format("server:\n  listen: 127.0.0.1@{0}\n  rundir: \"{1}\"\n  user: root:root\n"
                         "database:\n  storage: \"{1}\"\nlog:\n  - target: stderr\n    any: info\n{2}"
                         "template:\n  - id: default\n    storage: \"{1}\"\n    zonefile-sync: -1\n"
                         "    journal-content: changes\nzone:\n  - domain: example.test\n{3}",
                         port, dir, role, zone));
  return {"knotd", "-c", dir + "/knot.conf"};
}

// BIND 9.18 as a secondary of `primary_port`.
inline std::vector<std::string> bind_command(const std::string& dir, std::uint16_t port, std::uint16_t primary_port) {
  write_file(dir + "/named.conf",
             fmt::format("options {{\n  directory \"{1}\";\n  listen-on port {0} {{ 127.0.0.1; }};\n"
                         "  listen-on-v6 {{ none; }};\n  pid-file \"{1}/named.pid\";\n"
                         "  session-keyfile \"{1}/session.key\";\n  managed-keys-directory \"{1}\";\n"
                         "  dnssec-validation no;\n  recursion no;\n  notify no;\n}};\ncontrols {{ }};\n"
                         "zone \"example.test\" {{\n  type secondary;\n  primaries port {2} {{ 127.0.0.1; }};\n"
                         "  file \"example.test.bk\";\n  allow-notify {{ 127.0.0.1; }};\n}};\n",
                         port, dir, primary_port));
  return {"named", "-g", "-4", "-n", "1", "-c", dir + "/named.conf"};
}

}  // namespace cutover::testing
