// Reloading a running `cutover serve`: SIGHUP and `cutover reload` swap in new data, a
// broken zone or config keeps the old data serving and is logged with file:line:col, and
// queries running during reloads never fail.
#include <atomic>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "serve/serve_fixture.h"
#include "support/dig.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

std::vector<std::string> www_addresses(std::uint16_t port) {
  return DigResult::rdatas(dig(port, "www.serve.test", "A").answer, "A");
}

TEST(Reload, SighupSwapsInTheNewZone) {
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  EXPECT_EQ(www_addresses(server.port()), std::vector<std::string>{"192.0.2.1"});
  zone.write_zone(2, "192.0.2.2");
  server.reload();
  ASSERT_TRUE(server.wait_for_log("reload.ok")) << server.log();
  EXPECT_EQ(www_addresses(server.port()), std::vector<std::string>{"192.0.2.2"});
  EXPECT_THAT(server.log(), HasSubstr("zone.loaded origin=serve.test. serial=2"));
}

TEST(Reload, ReloadCommandSignalsTheServerFromItsConfig) {
  ZoneDir zone;
  zone.write_config("pid-file: cutover.pid\n");
  CutoverServer server(config_spec(zone));
  zone.write_zone(2, "192.0.2.22");
  CommandResult run = run_command({CUTOVER_BINARY, "reload", "--config", zone.config_path}, std::chrono::seconds(10));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(server.wait_for_log("reload.ok")) << server.log();
  EXPECT_EQ(www_addresses(server.port()), std::vector<std::string>{"192.0.2.22"});
}

TEST(Reload, ReloadCommandFailsWithoutAServer) {
  ZoneDir zone;
  write_file(zone.dir + "/stale.pid", "not a pid\n");
  CommandResult run =
      run_command({CUTOVER_BINARY, "reload", "--pid-file", zone.dir + "/stale.pid"}, std::chrono::seconds(10));
  EXPECT_EQ(run.exit_code, 2);  // could not run: there is no server to signal (docs/cli.md)
  EXPECT_THAT(run.err, HasSubstr("does not hold a process id"));
}

TEST(Reload, ZoneWithSyntaxErrorKeepsTheOldData) {
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  write_file(zone.zone_path, small_zone("serve.test.", 2, "192.0.2.2") + "broken IN A 300.1.2.3\n");
  server.reload();
  ASSERT_TRUE(server.wait_for_log("reload.failed")) << server.log();
  EXPECT_THAT(server.log(), HasSubstr(zone.zone_path + ":7:"));
  EXPECT_EQ(www_addresses(server.port()), std::vector<std::string>{"192.0.2.1"});
  // Fixing the file and reloading again works.
  zone.write_zone(3, "192.0.2.3");
  server.reload();
  ASSERT_TRUE(server.wait_for_log("reload.ok")) << server.log();
  EXPECT_EQ(www_addresses(server.port()), std::vector<std::string>{"192.0.2.3"});
}

TEST(Reload, BrokenConfigKeepsServingAndNamesTheLine) {
  ZoneDir zone;
  zone.write_config();
  CutoverServer server(config_spec(zone));
  write_file(zone.config_path, "zones:\n  - origin: serve.test.\n    file: zone.db\n    colour: blue\n");
  server.reload();
  ASSERT_TRUE(server.wait_for_log("reload.failed")) << server.log();
  EXPECT_THAT(server.log(), HasSubstr(zone.config_path + ":4:5: zones[0].colour: unknown key"));
  EXPECT_EQ(www_addresses(server.port()), std::vector<std::string>{"192.0.2.1"});
}

TEST(Reload, QueriesDuringReloadsNeverFail) {
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  std::atomic<bool> done{false};
  std::atomic<int> reloads{0};
  std::thread reloader([&] {
    for (std::uint32_t serial = 2; !done.load() && serial < 200; ++serial) {
      zone.write_zone(serial, serial % 2 == 0 ? "192.0.2.2" : "192.0.2.1");
      server.reload();
      reloads.fetch_add(1);
      server.wait_for_log("reload.ok", serial - 1);
    }
  });
  int failures = 0;
  for (int i = 0; i < 200; ++i) {
    DigResult reply = dig(server.port(), "www.serve.test", "A", {i % 4 == 0 ? "+tcp" : "+notcp"});
    auto addresses = DigResult::rdatas(reply.answer, "A");
    bool good = reply.status == "NOERROR" && addresses.size() == 1 &&
                (addresses[0] == "192.0.2.1" || addresses[0] == "192.0.2.2");
    if (!good) {
      ++failures;
      ADD_FAILURE() << "query " << i << " failed:\n" << reply.raw;
    }
  }
  done.store(true);
  reloader.join();
  EXPECT_EQ(failures, 0);
  EXPECT_GT(reloads.load(), 1);
  EXPECT_EQ(count_occurrences(server.log(), "reload.failed"), 0u) << server.log();
}

}  // namespace
}  // namespace cutover::testing
