// Real secondaries of cutover: NSD, Knot and BIND (Debian packages) pull example.test from a
// cutover primary on loopback, then follow five API writes via NOTIFY + IXFR. Each write's
// propagation time P (API acknowledged -> the secondary answers the new address) is printed.
// Also: an IXFR from a serial the journal does not know is answered with the whole zone.
#include <gtest/gtest.h>

#include <iostream>

#include "xfr/xfr_peers.h"

namespace cutover::testing {
namespace {

constexpr int kWrites = 5;

struct Peer {
  const char* name;
  const char* program;
  std::vector<std::string> (*command)(const std::string&, std::uint16_t, std::uint16_t);
};

std::vector<std::string> nsd_secondary(const std::string& dir, std::uint16_t port, std::uint16_t primary) {
  return nsd_command(dir, port, primary);
}
std::vector<std::string> knot_secondary(const std::string& dir, std::uint16_t port, std::uint16_t primary) {
  return knot_command(dir, port, primary);
}

class SecondariesTest : public ::testing::TestWithParam<Peer> {};

TEST_P(SecondariesTest, ConvergesAfterEachWriteViaNotifyAndIxfr) {
  const Peer& peer = GetParam();
  if (!have_program(peer.program)) GTEST_SKIP() << peer.program << " is not installed";
  std::string dir = make_temp_dir(std::string("cutover-xfr-") + peer.name);
  std::uint16_t secondary_port = free_port();
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10"));
  write_file(dir + "/config.yaml", primary_config({secondary_port}));
  CutoverServer primary(ServerSpec{{}, dir + "/config.yaml", "example.test.", 0, {}, {}});
  ASSERT_TRUE(primary.wait_for_log("control.listen"));
  int control = primary.control_port();
  ASSERT_NE(control, 0);

  std::filesystem::create_directories(dir + "/peer");
  ChildProcess secondary(peer.command(dir + "/peer", secondary_port, primary.port()), dir + "/peer/out.log");
  ASSERT_TRUE(wait_until([&] { return serial_at(secondary_port) == 10u; }))
      << peer.name << " never served serial 10; its log:\n" << secondary.log() << "\nprimary log:\n" << primary.log();

  std::vector<long> propagation_ms;
  for (int i = 1; i <= kWrites; ++i) {
    std::string address = fmt::format("198.51.100.{}", i);
    auto set = set_www(control, address);
    ASSERT_EQ(set.exit_code, 0) << set.out << set.err;
    auto acknowledged = Clock::now();
    ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, address); }))
        << peer.name << " did not serve " << address << " within 20 s; its log:\n" << secondary.log();
    propagation_ms.push_back(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - acknowledged).count());
  }
  EXPECT_EQ(serial_at(secondary_port), serial_at(primary.port()));
  EXPECT_GE(count_occurrences(primary.log(), "xfr.ixfr "), 1u) << "no IXFR was served; primary log:\n" << primary.log();
  std::sort(propagation_ms.begin(), propagation_ms.end());
  std::cout << "[ P ] " << peer.name << " propagation ms (sorted):";
  for (long ms : propagation_ms) std::cout << ' ' << ms;
  std::cout << "  median " << propagation_ms[propagation_ms.size() / 2] << '\n';
  RecordProperty("p_median_ms", static_cast<int>(propagation_ms[propagation_ms.size() / 2]));
  secondary.stop();
}

INSTANTIATE_TEST_SUITE_P(RealPeers, SecondariesTest,
                         ::testing::Values(Peer{"nsd", "nsd", nsd_secondary}, Peer{"knot", "knotd", knot_secondary},
                                           Peer{"bind", "named", bind_command}),
                         [](const auto& info) { return std::string(info.param.name); });

// RFC 1995 §4: a client whose serial the journal does not hold gets the zone AXFR-style.
TEST(IxfrFallbackTest, UnknownSerialGetsTheWholeZone) {
  std::string dir = make_temp_dir("cutover-xfr-unknown");
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10"));
  write_file(dir + "/config.yaml", primary_config({}));
  CutoverServer primary(ServerSpec{{}, dir + "/config.yaml", "example.test.", 0, {}, {}});
  ASSERT_TRUE(primary.wait_for_log("control.listen"));
  ASSERT_EQ(set_www(primary.control_port(), "192.0.2.20").exit_code, 0);
  auto records = [&](const std::string& type) {
    auto result = run_command({"dig", "@127.0.0.1", "-p", std::to_string(primary.port()), "example.test.", type,
                               "+noall", "+answer", "+tcp", "+time=3", "+tries=1"},
                              std::chrono::seconds(10));
    std::vector<std::string> lines;
    std::istringstream in(result.out);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line[0] != ';') lines.push_back(line);
    }
    return lines;
  };
  auto axfr = records("AXFR");
  ASSERT_EQ(axfr.size(), 5u);  // SOA, NS, ns1 A, www A, SOA
  auto unknown = records("IXFR=7");
  EXPECT_EQ(unknown, axfr);
  EXPECT_EQ(records("IXFR=10").size(), 6u);  // SOA, old SOA, -www, new SOA, +www, SOA
  EXPECT_TRUE(primary.wait_for_log("xfr.ixfr_fallback"));
}

}  // namespace
}  // namespace cutover::testing
