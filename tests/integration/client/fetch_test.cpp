// `cutover fetch`, the reference client, against a real `cutover serve` (its nameserver,
// through a resolv.conf override) and real origin HTTP servers on 127.0.0.2 and 127.0.0.3:
// it follows an address change once the record TTL ran out and retires the kept-alive
// connection to the address that left the answer; a dead first address (refused, or silent)
// costs one refusal or one RFC 8305 attempt delay, not a connect timeout.
#include <sys/socket.h>

#include <chrono>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "origin_server.h"
#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

// The lab zone: www with the given address records (each line "TTL TYPE ADDRESS").
std::string client_zone(std::uint32_t serial, const std::vector<std::string>& www) {
  std::string zone = fmt::format(
      "$ORIGIN client.test.\n"
      "$TTL 300\n"
      "@    IN SOA ns1 hostmaster {} 3600 600 86400 1\n"
      "@    IN NS  ns1\n"
      "ns1  IN A   192.0.2.53\n",
      serial);
  for (const auto& record : www) zone += "www  " + record + "\n";
  return zone;
}

struct Lab {
  std::string dir = make_temp_dir("cutover-client");
  std::string zone_path = dir + "/client.test.zone";
  std::string resolv_conf = dir + "/resolv.conf";
  std::unique_ptr<CutoverServer> server;

  explicit Lab(const std::vector<std::string>& www) {
    write_file(zone_path, client_zone(1, www));
    ServerSpec spec;
    spec.zones = {{"client.test.", zone_path}};
    server = std::make_unique<CutoverServer>(spec);
    // The authoritative server is the stub's nameserver: it answers for client.test. itself.
    write_file(resolv_conf, fmt::format("nameserver 127.0.0.1:{}\noptions timeout:1 attempts:2\n", server->port()));
  }
  void change(std::uint32_t serial, const std::vector<std::string>& www) {
    write_file(zone_path, client_zone(serial, www));
    server->reload();
    ASSERT_TRUE(server->wait_for_log("reload.ok", serial - 1)) << server->log();
  }
  std::vector<std::string> fetch_args(const std::string& url, std::vector<std::string> more) const {
    std::vector<std::string> args = {CUTOVER_BINARY, "fetch", url, "--log-json", "--trace", "--resolv-conf", resolv_conf};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
};

// Two origins on one port: 127.0.0.2 ("origin-A") and 127.0.0.3 ("origin-B"). The kernel
// picks A's port; B binds the same one, retried on a new pick when it is taken there.
struct Origins {
  std::unique_ptr<OriginServer> a;
  std::unique_ptr<OriginServer> b;
  std::uint16_t port = 0;
  explicit Origins(bool with_a = true, OriginServer::Options options = {}) {
    for (int tries = 0; tries < 20 && !b; ++tries) {
      // A placeholder on 127.0.0.2 picks the port even when A is not wanted (dead-address
      // tests), then goes away so nothing listens there.
      auto first = std::make_unique<OriginServer>("127.0.0.2", 0, "origin-A", options);
      try {
        b = std::make_unique<OriginServer>("127.0.0.3", first->port(), "origin-B", options);
      } catch (const std::runtime_error&) {
        continue;
      }
      port = first->port();
      if (with_a) a = std::move(first);
    }
    if (!b) throw std::runtime_error("no port free on both 127.0.0.2 and 127.0.0.3");
  }
  std::string url() const { return fmt::format("http://www.client.test:{}/", port); }
};

struct Line {
  double t = 0;
  std::optional<std::string> peer;
  std::optional<bool> new_conn;
  std::optional<std::string> origin;
  std::optional<std::string> error;
  std::string detail;
};

// Every stdout line as the documented object: exactly these six keys, in this order.
std::vector<Line> parse_lines(const std::string& out) {
  std::vector<Line> lines;
  std::istringstream in(out);
  for (std::string text; std::getline(in, text);) {
    auto json = nlohmann::ordered_json::parse(text, nullptr, false);
    EXPECT_FALSE(json.is_discarded()) << text;
    if (json.is_discarded()) continue;
    std::vector<std::string> keys;
    for (const auto& item : json.items()) keys.push_back(item.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"t", "peer", "new_conn", "origin", "error", "detail"})) << text;
    Line line;
    line.t = json["t"].get<double>();
    if (!json["peer"].is_null()) line.peer = json["peer"].get<std::string>();
    if (!json["new_conn"].is_null()) line.new_conn = json["new_conn"].get<bool>();
    if (!json["origin"].is_null()) line.origin = json["origin"].get<std::string>();
    if (!json["error"].is_null()) line.error = json["error"].get<std::string>();
    line.detail = json["detail"].get<std::string>();
    lines.push_back(line);
  }
  return lines;
}

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

TEST(Fetch, FollowsTheChangeAfterTheTtlAndRetiresTheKeptAliveConnection) {
  Origins origins;
  Lab lab({"2 IN A 127.0.0.2"});
  CommandResult run;
  std::thread client([&] {
    run = run_command(lab.fetch_args(origins.url(), {"--interval", "0.25", "--count", "28"}), 30s);
  });
  // Change the record once the client has made a few requests over its first connection.
  for (int i = 0; i < 100 && origins.a->requests() < 5; ++i) std::this_thread::sleep_for(20ms);
  lab.change(2, {"2 IN A 127.0.0.3"});
  double changed = unix_now();
  client.join();
  ASSERT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<Line> lines = parse_lines(run.out);
  ASSERT_EQ(lines.size(), 28u) << run.out << run.err;

  std::string a_peer = fmt::format("127.0.0.2:{}", origins.port);
  std::string b_peer = fmt::format("127.0.0.3:{}", origins.port);
  std::optional<std::size_t> first_b;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    ASSERT_FALSE(line.error) << i << ": " << *line.error << " " << line.detail;
    EXPECT_EQ(line.detail, "HTTP 200 OK");
    ASSERT_TRUE(line.origin && line.peer && line.new_conn) << i;
    if (*line.origin == "origin-B") {
      EXPECT_EQ(*line.peer, b_peer);
      if (!first_b) {
        first_b = i;
        EXPECT_TRUE(*line.new_conn) << "the first request to B opens a connection";
      } else {
        EXPECT_FALSE(*line.new_conn) << i << ": later requests reuse B's connection";
      }
    } else {
      EXPECT_EQ(*line.origin, "origin-A");
      EXPECT_EQ(*line.peer, a_peer);
      EXPECT_FALSE(first_b) << i << ": a request reached A after one had reached B";
      EXPECT_EQ(*line.new_conn, i == 0) << i << ": A's requests share one kept-alive connection";
    }
  }
  ASSERT_TRUE(first_b) << run.err;
  // The client's cache holds the old answer for the record TTL (2 s) from its last lookup,
  // and the next request starts at most one interval (0.25 s) later; 1 s of tolerance for a
  // loaded 2-core machine.
  double switch_after = lines[*first_b].t - changed;
  EXPECT_LE(switch_after, 2.0 + 0.25 + 1.0) << run.err;
  EXPECT_GE(lines[*first_b].t, lines[0].t + 2.0) << "not before the first answer's TTL ran out";
  EXPECT_EQ(origins.a->connections(), 1);
  EXPECT_EQ(origins.b->connections(), 1);
  // The retirement is a decision the trace states: the answer changed, A left it, A's idle
  // connection was closed at once rather than reused.
  EXPECT_THAT(run.err, HasSubstr("the answer changed; 127.0.0.2 left it"));
  EXPECT_THAT(run.err, HasSubstr(fmt::format("pool retire connection #1 to {} (idle, closed now", a_peer)));
  EXPECT_THAT(run.err, HasSubstr("cache hit www.client.test. A: 127.0.0.2 ttl 2 s"));
  EXPECT_THAT(run.err, HasSubstr("NODATA, negative ttl 1 s")) << "AAAA: min(SOA TTL 300, MINIMUM 1)";
}

TEST(Fetch, ARefusedFirstAddressCostsOneRefusal) {
  Origins origins(/*with_a=*/false);
  Lab lab({"60 IN A 127.0.0.2", "60 IN A 127.0.0.3"});
  // The test only means something if the dead address is the first the client is given.
  DigResult answer = dig(lab.server->port(), "www.client.test", "A");
  ASSERT_EQ(DigResult::rdatas(answer.answer, "A"), (std::vector<std::string>{"127.0.0.2", "127.0.0.3"}));
  CommandResult run = run_command(lab.fetch_args(origins.url(), {"--connect-timeout", "3"}), 20s);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<Line> lines = parse_lines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  EXPECT_EQ(lines[0].origin, "origin-B");
  EXPECT_EQ(lines[0].peer, fmt::format("127.0.0.3:{}", origins.port));
  EXPECT_EQ(lines[0].new_conn, true);
  std::string dead = fmt::format("connect attempt to 127.0.0.2:{} refused", origins.port);
  std::string next = fmt::format("connect attempt to 127.0.0.3:{} (IPv4)", origins.port);
  ASSERT_THAT(run.err, HasSubstr(dead));
  ASSERT_THAT(run.err, HasSubstr(next));
  EXPECT_LT(run.err.find(dead), run.err.find(next)) << "the dead address was tried first\n" << run.err;
}

TEST(Fetch, ADeadIpv6AddressIsTriedFirstThenIpv4) {
  Origins origins(/*with_a=*/false);
  Lab lab({"60 IN AAAA ::1", "60 IN A 127.0.0.3"});
  CommandResult run = run_command(lab.fetch_args(origins.url(), {}), 20s);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<Line> lines = parse_lines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  EXPECT_EQ(lines[0].origin, "origin-B");
  std::string v6 = fmt::format("connect attempt to [::1]:{} (IPv6) at +0.", origins.port);
  std::string v4 = fmt::format("connect attempt to 127.0.0.3:{} (IPv4)", origins.port);
  ASSERT_THAT(run.err, HasSubstr(v6));
  EXPECT_LT(run.err.find(v6), run.err.find(v4)) << run.err;
}

// A first address that drops SYNs: a listener with backlog 0 whose accept queue is already
// full (the kernel then drops new SYNs), so the client hears nothing back, as from a
// blackholed address. RFC 8305 §5: the second attempt starts one Connection Attempt Delay
// (250 ms) after the first, which stays pending, and wins.
TEST(Fetch, ASilentFirstAddressCostsOneAttemptDelay) {
  Origins origins(/*with_a=*/false);
  auto silent_address = net::parse_socket_address(fmt::format("127.0.0.2:{}", origins.port));
  net::SocketOptions socket_options;
  socket_options.reuse_port = false;
  auto silent = net::open_listening_socket(*silent_address, net::SocketKind::kTcp, socket_options);
  ASSERT_TRUE(silent) << silent.error().message;
  ASSERT_EQ(::listen(silent->get(), 0), 0);
  std::vector<net::UniqueFd> fillers;
  for (int i = 0; i < 2; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    (void)::connect(fd, reinterpret_cast<const sockaddr*>(&silent_address->storage), silent_address->length);
    fillers.emplace_back(fd);
    std::this_thread::sleep_for(50ms);
  }
  Lab lab({"60 IN A 127.0.0.2", "60 IN A 127.0.0.3"});
  CommandResult run = run_command(lab.fetch_args(origins.url(), {"--connect-timeout", "3"}), 20s);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<Line> lines = parse_lines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  EXPECT_EQ(lines[0].origin, "origin-B");
  std::smatch match;
  std::regex started(fmt::format(R"(connect attempt to 127\.0\.0\.3:{} \(IPv4\) at \+([0-9.]+) ms)", origins.port));
  ASSERT_TRUE(std::regex_search(run.err, match, started)) << run.err;
  double delay_ms = std::stod(match[1]);
  // Tolerance: never before 250 ms; up to 1 s late on a loaded machine.
  EXPECT_GE(delay_ms, 250.0) << run.err;
  EXPECT_LE(delay_ms, 1000.0) << run.err;
  EXPECT_THAT(run.err, HasSubstr(fmt::format("connect attempt to 127.0.0.2:{} abandoned", origins.port)))
      << "the silent attempt was still pending when the second connected";
}

TEST(Fetch, ChunkedBodiesAndConnectionCloseOrigins) {
  OriginServer::Options options;
  options.chunked = true;
  options.connection_close = true;
  Origins origins(/*with_a=*/false, options);
  Lab lab({"60 IN A 127.0.0.3"});
  CommandResult run = run_command(lab.fetch_args(origins.url(), {"--interval", "0.05", "--count", "3"}), 20s);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<Line> lines = parse_lines(run.out);
  ASSERT_EQ(lines.size(), 3u) << run.out;
  for (const auto& line : lines) {
    EXPECT_EQ(line.origin, "origin-B");
    EXPECT_EQ(line.new_conn, true) << "Connection: close: every request needs a new connection";
  }
  EXPECT_EQ(origins.b->connections(), 3);
}

TEST(Fetch, FailuresAreLoggedByKind) {
  Origins origins(/*with_a=*/false);
  Lab lab({"60 IN A 127.0.0.2"});  // nothing listens there
  CommandResult refused = run_command(lab.fetch_args(origins.url(), {"--count", "2", "--interval", "0.05"}), 20s);
  EXPECT_EQ(refused.exit_code, 2) << "no request got a response\n" << refused.err;
  std::vector<Line> lines = parse_lines(refused.out);
  ASSERT_EQ(lines.size(), 2u) << refused.out;
  EXPECT_EQ(lines[0].error, "refused");
  EXPECT_FALSE(lines[0].peer);
  EXPECT_FALSE(lines[0].new_conn);
  EXPECT_FALSE(lines[0].origin);

  CommandResult nxdomain = run_command(lab.fetch_args(fmt::format("http://gone.client.test:{}/", origins.port), {}), 20s);
  EXPECT_EQ(nxdomain.exit_code, 2);
  lines = parse_lines(nxdomain.out);
  ASSERT_EQ(lines.size(), 1u) << nxdomain.out;
  EXPECT_EQ(lines[0].error, "dns");
  EXPECT_THAT(lines[0].detail, HasSubstr("NXDOMAIN"));
  EXPECT_THAT(nxdomain.err, HasSubstr("NXDOMAIN, negative ttl 1 s"));

  // Plain mode prints the body; --json one document.
  CommandResult plain = run_command({CUTOVER_BINARY, "fetch", fmt::format("http://127.0.0.3:{}/", origins.port)}, 20s);
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, "origin-B\n");
  CommandResult json = run_command({CUTOVER_BINARY, "fetch", fmt::format("http://127.0.0.3:{}/", origins.port), "--json"}, 20s);
  EXPECT_EQ(json.exit_code, 0) << json.err;
  auto document = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << json.out;
  EXPECT_EQ(document["answered"], 1);
  EXPECT_EQ(document["requests"][0]["origin"], "origin-B");
}

}  // namespace
}  // namespace cutover::testing
