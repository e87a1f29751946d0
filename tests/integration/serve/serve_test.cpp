// `cutover serve` end to end: answers over UDP, TCP and IPv6 with dig and kdig, the
// embedded default zone, config errors at startup (exit 2, docs/cli.md), clean exit on SIGTERM,
// --check (validates without binding) and --json (log lines as JSON objects).
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/sanitized.h"
#include "serve/serve_fixture.h"
#include "support/dig.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

TEST(Serve, AnswersOverUdpAndTcp) {
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  for (const auto& reply : {dig(server.port(), "www.serve.test", "A"), dig(server.port(), "www.serve.test", "A", {"+tcp"}),
                            kdig(server.port(), "www.serve.test", "A"),
                            kdig(server.port(), "www.serve.test", "A", {"+tcp"})}) {
    EXPECT_EQ(reply.status, "NOERROR") << reply.raw;
    EXPECT_TRUE(reply.has_flag("aa")) << reply.raw;
    EXPECT_EQ(DigResult::rdatas(reply.answer, "A"), std::vector<std::string>{"192.0.2.1"}) << reply.raw;
  }
  EXPECT_THAT(dig(server.port(), "www.serve.test", "A", {"+tcp"}).raw, HasSubstr("(TCP)"));
}

TEST(Serve, AnswersOnAnIpv6Listener) {
  if (!ipv6_loopback_available()) GTEST_SKIP() << "no IPv6 loopback on this machine";
  ZoneDir zone;
  std::uint16_t port = free_port();
  ServerSpec spec = zone_spec(zone);
  spec.port = port;
  spec.extra_listen = {"[::1]:" + std::to_string(port)};
  CutoverServer server(spec);
  for (std::string transport : {"+notcp", "+tcp"}) {
    CommandResult run = run_command({"dig", "@::1", "-p", std::to_string(port), "www.serve.test", "A", "+time=2",
                                     "+tries=1", transport},
                                    std::chrono::seconds(10));
    DigResult reply = parse_dig_output(run.out);
    EXPECT_EQ(reply.status, "NOERROR") << run.out << run.err;
    EXPECT_EQ(DigResult::rdatas(reply.answer, "A"), std::vector<std::string>{"192.0.2.1"});
  }
}

TEST(Serve, EmbeddedDefaultServesExampleTest) {
  CutoverServer server{ServerSpec()};
  DigResult www = dig(server.port(), "www.example.test", "A");
  EXPECT_EQ(www.status, "NOERROR") << www.raw;
  EXPECT_THAT(DigResult::rdatas(www.answer, "A"), UnorderedElementsAre("192.0.2.10", "192.0.2.11", "192.0.2.12"));
  DigResult soa = dig(server.port(), "example.test", "SOA");
  ASSERT_EQ(soa.answer.size(), 1u) << soa.raw;
  EXPECT_EQ(soa.answer[0].ttl, 3600u);
  DigResult referral = dig(server.port(), "host.sub.example.test", "A");
  EXPECT_FALSE(referral.has_flag("aa")) << referral.raw;
  EXPECT_EQ(DigResult::rdatas(referral.authority, "NS"), std::vector<std::string>{"ns1.sub.example.test."});
  EXPECT_EQ(DigResult::rdatas(referral.additional, "A"), std::vector<std::string>{"192.0.2.100"});
  EXPECT_THAT(server.log(), HasSubstr("dig @127.0.0.1 -p " + std::to_string(server.port()) + " www.example.test A"));
}

TEST(Serve, EmbeddedDefaultRotatesAddresses) {
  CutoverServer server{ServerSpec()};
  std::set<std::string> first_addresses;
  for (int i = 0; i < 3; ++i) {
    DigResult reply = dig(server.port(), "www.example.test", "A");
    ASSERT_FALSE(reply.answer.empty()) << reply.raw;
    first_addresses.insert(reply.answer.front().rdata);
  }
  EXPECT_EQ(first_addresses.size(), 3u);
}

TEST(Serve, SigtermExitsZero) {
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  EXPECT_EQ(server.stop(), 0) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("serve.stop"));
}

// `serve` with zone files of 8 MiB or more starts itself once more with glibc's huge-page
// heap (src/cmd/huge_page_heap.h, docs/operations.md "Large zones and the heap"): the
// process that answers, under the PID the harness started, began with the tunable in its
// environment, and glibc advised its heap for huge pages ("hg" among the [heap] mapping's
// VmFlags). With a small zone it does not. A sanitizer replaces malloc, so a sanitized build
// never restarts itself.
struct HeapOf {
  bool tunable = false;     // the process started with GLIBC_TUNABLES=glibc.malloc.hugetlb=1
  bool huge_pages = false;  // its [heap] is advised for huge pages
};

HeapOf heap_of(pid_t pid) {
  std::string proc = "/proc/" + std::to_string(pid);
  HeapOf out;
  out.tunable = read_file(proc + "/environ").find(std::string("GLIBC_TUNABLES=glibc.malloc.hugetlb=1\0", 38)) != std::string::npos;
  std::istringstream maps(read_file(proc + "/smaps"));
  bool in_heap = false;
  for (std::string line; std::getline(maps, line);) {
    if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) && line.find('-') < 17) in_heap = line.ends_with("[heap]");
    if (in_heap && line.starts_with("VmFlags:") && (line + " ").find(" hg ") != std::string::npos) out.huge_pages = true;
  }
  return out;
}

TEST(Serve, LargeZoneFilesLoadFromAHugePageHeap) {
  if (base::kSanitized) GTEST_SKIP() << "sanitized build: malloc is the sanitizer's";
  ZoneDir zone;
  // The zone of the other tests, then comments up to the 8 MiB threshold (the size of the
  // files counts, not their records).
  std::string padding = "; " + std::string(1022, 'x') + "\n";
  std::string text = small_zone("serve.test.", 1, "192.0.2.1");
  while (text.size() < (std::size_t{8} << 20) + 4096) text += padding;
  write_file(zone.zone_path, text);
  CutoverServer server(zone_spec(zone));
  EXPECT_EQ(DigResult::rdatas(dig(server.port(), "www.serve.test", "A").answer, "A"), std::vector<std::string>{"192.0.2.1"});
  HeapOf heap = heap_of(server.pid());
  EXPECT_TRUE(heap.tunable) << "not restarted with the tunable";
  EXPECT_TRUE(heap.huge_pages) << "no [heap] mapping advised for huge pages";
  EXPECT_EQ(server.stop(), 0) << server.log();
}

TEST(Serve, SmallZoneFilesKeepTheOrdinaryHeap) {
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  HeapOf heap = heap_of(server.pid());
  EXPECT_FALSE(heap.tunable);
  EXPECT_FALSE(heap.huge_pages);
}

TEST(Serve, ConfigFileWithPidFileAndQueryLog) {
  ZoneDir zone;
  zone.write_config("pid-file: serve.pid\nlog: {queries: true}\n");
  CutoverServer server(config_spec(zone));
  EXPECT_EQ(read_file(zone.dir + "/serve.pid"), std::to_string(server.pid()) + "\n");
  DigResult reply = dig(server.port(), "nothing.serve.test", "AAAA");
  EXPECT_EQ(reply.status, "NXDOMAIN") << reply.raw;
  EXPECT_TRUE(server.wait_for_log("qname=nothing.serve.test. qtype=AAAA rcode=NXDOMAIN transport=udp"))
      << server.log();
  EXPECT_EQ(server.stop(), 0);
  EXPECT_EQ(::access((zone.dir + "/serve.pid").c_str(), F_OK), -1);
}

TEST(Serve, UnknownConfigKeyIsRejectedWithItsLine) {
  ZoneDir zone;
  zone.write_config("threads: 1\nlisten: [\"127.0.0.1:0\"]\nthread: 2\n");
  CommandResult run = run_command({CUTOVER_BINARY, "serve", "--config", zone.config_path}, std::chrono::seconds(10));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr(zone.config_path + ":3:1: thread: unknown key"));
}

TEST(Serve, BrokenZoneAtStartupExitsNonZeroWithLocation) {
  ZoneDir zone;
  write_file(zone.zone_path, small_zone("serve.test.", 1, "192.0.2.1") + "bad  IN A  not-an-address\n");
  auto server = CutoverServer::launch(zone_spec(zone));
  auto status = server->wait_for_exit(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value()) << server->log();
  EXPECT_EQ(*status, 2);
  EXPECT_THAT(server->log(), HasSubstr(zone.zone_path + ":7:"));
}

// A plain (non reuse-port) TCP socket listening on 127.0.0.1:`port`, or -1.
int listen_on(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 1) != 0) {
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

TEST(Serve, ListenAddressInUseByAnotherProgramFails) {
  // A plain (non reuse-port) TCP socket on the port makes the server's bind fail.
  std::uint16_t port = free_port();
  int blocker = listen_on(port);
  ASSERT_GE(blocker, 0);
  ZoneDir zone;
  ServerSpec spec = zone_spec(zone);
  spec.port = port;
  auto server = CutoverServer::launch(spec);
  auto status = server->wait_for_exit(std::chrono::seconds(10));
  ::close(blocker);
  ASSERT_TRUE(status.has_value()) << server->log();
  EXPECT_EQ(*status, 2);
  EXPECT_THAT(server->log(), HasSubstr("serve.failed"));
}

// --check binds nothing: it passes while another program holds the listen port.
TEST(ServeCheck, AGoodConfigPassesWithoutBinding) {
  std::uint16_t port = free_port();
  int blocker = listen_on(port);
  ASSERT_GE(blocker, 0);
  ZoneDir zone;
  zone.write_config("pools:\n  web:\n    name: web.serve.test\n    endpoints: [{address: 127.0.0.1, port: 1}]\n");
  CommandResult run = run_command({CUTOVER_BINARY, "serve", "--check", "--config", zone.config_path, "--listen",
                                   "127.0.0.1:" + std::to_string(port)},
                                  std::chrono::seconds(10));
  ::close(blocker);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("serve.test.: loaded serial 1, 4 records"));
  EXPECT_THAT(run.out, HasSubstr("ok, 1 zones, 1 pools; nothing was bound"));

  CommandResult json = run_command({CUTOVER_BINARY, "serve", "--check", "--json", "--config", zone.config_path},
                                   std::chrono::seconds(10));
  EXPECT_EQ(json.exit_code, 0) << json.err;
  auto report = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << json.out;
  EXPECT_EQ(report["ok"], true);
  ASSERT_EQ(report["zones"].size(), 1u);
  EXPECT_EQ(report["zones"][0]["origin"], "serve.test.");
  EXPECT_EQ(report["pools"], 1);
}

// Each thing serve refuses at start, refused by --check with exit 2 and the same words.
TEST(ServeCheck, RefusesWhatServeWouldRefuse) {
  struct Case {
    std::string name;
    std::string config;  // top-level YAML before the zones
    std::string zone;    // zone.db's text ("" keeps the good one)
    std::string error;   // in stderr, after the config's path when it starts with ':'
  };
  const std::string good = small_zone("serve.test.", 1, "192.0.2.1");
  const std::vector<Case> cases = {
      {"unknown key", "thread: 2\n", "", ":1:1: thread: unknown key"},
      {"broken zone", "", good + "bad  IN A  not-an-address\n", "zone.db:7:"},
      {"pool outside the zones", "pools:\n  web:\n    name: web.other.test\n    endpoints: [{address: 127.0.0.1, port: 1}]\n",
       "", ":3:11: pools.web.name: web.other.test. is outside every zone"},
      {"pool on zone data", "pools:\n  web:\n    name: www.serve.test\n    endpoints: [{address: 127.0.0.1, port: 1}]\n",
       "", "pools.web.name: www.serve.test. also has static records in zone serve.test."},
      {"log file in a missing directory", "log: {file: /nonexistent/dir/cutover.log}\n", "",
       "/nonexistent/dir/cutover.log: cannot open log file"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ZoneDir zone;
    if (!c.zone.empty()) write_file(zone.zone_path, c.zone);
    zone.write_config(c.config);
    CommandResult run = run_command({CUTOVER_BINARY, "serve", "--check", "--config", zone.config_path},
                                    std::chrono::seconds(10));
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
    std::string want = c.error.front() == ':' ? zone.config_path + c.error : c.error;
    EXPECT_THAT(run.err, HasSubstr(want));
    CommandResult json = run_command({CUTOVER_BINARY, "serve", "--check", "--json", "--config", zone.config_path},
                                     std::chrono::seconds(10));
    EXPECT_EQ(json.exit_code, 2);
    auto error = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_TRUE(error.is_object()) << json.out;
    EXPECT_EQ(error["command"], "serve");
    EXPECT_EQ(error["exit_code"], 2);
    EXPECT_THAT(error["error"].get<std::string>(), HasSubstr(want));
  }
  // And serve itself refuses the pool on zone data with the same words, and exit 2.
  ZoneDir zone;
  zone.write_config(cases[3].config);
  auto server = CutoverServer::launch(config_spec(zone));
  auto status = server->wait_for_exit(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value()) << server->log();
  EXPECT_EQ(*status, 2);
  EXPECT_THAT(server->log(), HasSubstr(cases[3].error));
}

TEST(Serve, JsonLogLinesAreJsonObjects) {
  ZoneDir zone;
  ServerSpec spec = zone_spec(zone);
  spec.port = free_port();  // the harness reads the port from text log lines otherwise
  spec.extra_args = {"--json", "--query-log"};
  CutoverServer server(spec);
  EXPECT_EQ(dig(server.port(), "www.serve.test", "A").status, "NOERROR");
  ASSERT_TRUE(server.wait_for_log("\"event\":\"query\"")) << server.log();
  EXPECT_EQ(server.stop(), 0);
  std::istringstream lines(server.log());
  std::set<std::string> events;
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line);) {
    auto object = nlohmann::json::parse(line, nullptr, false);
    ASSERT_TRUE(object.is_object()) << "not a JSON object: " << line;
    for (const char* key : {"time", "level", "event"}) ASSERT_TRUE(object[key].is_string()) << line;
    events.insert(object["event"].get<std::string>());
    ++count;
  }
  EXPECT_GE(count, 3u);
  EXPECT_TRUE(events.contains("zone.loaded")) << server.log();
  EXPECT_TRUE(events.contains("serve.stop")) << server.log();
}

}  // namespace
}  // namespace cutover::testing
