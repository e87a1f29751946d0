// The monitor's suspect-after tracking on the fake clock, with no local probe (as a cluster
// server with local-checker false): remote vantages' verdicts go in through report_vantage,
// the flags come out in reports(), each change is logged once, and the endpoint's health is
// the quorum's whatever the flags say. Without set_suspect_after nothing is tracked.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "health/health_monitor.h"

namespace cutover::health {
namespace {

using namespace std::chrono_literals;

MonitoredEndpoint endpoint() {
  MonitoredEndpoint out;
  out.pool = "web";
  out.address = "192.0.2.10";
  out.port = 80;
  out.check.interval = 60s;  // remote vantages stay fresh for 3 intervals of fake time
  out.quorum = QuorumRule{QuorumRule::Kind::kQuorum, 2, 0};
  return out;
}

std::string read_all(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) out.append(buffer, n);
  return out;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++found;
  return found;
}

TEST(HealthMonitorSuspicion, AVantageThatDisagreesIsFlaggedLoggedAndStillCounted) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  base::FakeClock clock;
  std::FILE* sink = std::tmpfile();
  ASSERT_NE(sink, nullptr);
  base::Logger logger(sink);
  HealthMonitor monitor(registry, clock, logger, nullptr);
  monitor.set_local_probes(false);
  monitor.set_suspect_after(10s);
  ASSERT_TRUE(monitor.configure({endpoint()}));

  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "fra", HealthState::kDown, "fail: refused"));
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "ams", HealthState::kUp, "pass"));
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "lon", HealthState::kUp, "pass"));
  auto reports = monitor.reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].suspicion_tracked);
  EXPECT_TRUE(reports[0].suspect_vantages.empty());

  clock.advance(11s);
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "fra", HealthState::kDown, "fail: refused"));
  reports = monitor.reports();
  EXPECT_EQ(reports[0].suspect_vantages, std::set<std::string>{"fra"});
  EXPECT_EQ(reports[0].health, HealthState::kUp) << "report only: 2 of 3 say up";
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "fra", HealthState::kDown, "fail: refused"));

  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "fra", HealthState::kUp, "pass"));
  EXPECT_TRUE(monitor.reports()[0].suspect_vantages.empty());
  monitor.stop();
  std::string log = read_all(sink);
  std::fclose(sink);
  EXPECT_EQ(count(log, "cluster.vantage_suspect"), 1u) << log;
  EXPECT_EQ(count(log, "cluster.vantage_trusted"), 1u) << log;
  EXPECT_NE(log.find("vantage=fra"), std::string::npos) << log;
}

TEST(HealthMonitorSuspicion, NotTrackedUnlessAsked) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  base::FakeClock clock;
  std::FILE* sink = std::tmpfile();
  ASSERT_NE(sink, nullptr);
  base::Logger logger(sink);
  HealthMonitor monitor(registry, clock, logger, nullptr);
  monitor.set_local_probes(false);
  ASSERT_TRUE(monitor.configure({endpoint()}));
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "fra", HealthState::kDown, "fail"));
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "ams", HealthState::kUp, "pass"));
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "lon", HealthState::kUp, "pass"));
  clock.advance(120s);
  ASSERT_TRUE(monitor.report_vantage("web", "192.0.2.10", "fra", HealthState::kDown, "fail"));
  auto reports = monitor.reports();
  EXPECT_FALSE(reports[0].suspicion_tracked);
  EXPECT_TRUE(reports[0].suspect_vantages.empty());
  monitor.stop();
  std::string log = read_all(sink);
  std::fclose(sink);
  EXPECT_EQ(log.find("cluster.vantage_suspect"), std::string::npos) << log;
}

}  // namespace
}  // namespace cutover::health
