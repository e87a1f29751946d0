// The cluster section of /status and its /metrics lines, from written-out endpoint reports
// on the fake clock: who reports, when each vantage last did, on how many endpoints, which
// is suspect and where, the etcd state and the revisions (the pool state's hook included).
#include "cluster/cluster_status.h"

#include <gtest/gtest.h>

#include "pool/status_report.h"

namespace cutover::cluster {
namespace {

using namespace std::chrono_literals;
using health::HealthState;

health::VantageView remote(HealthState state, base::SteadyTime at) {
  health::VantageView view;
  view.state = state;
  view.remote = true;
  view.last_report = at;
  return view;
}

health::EndpointReport endpoint(const std::string& pool, const std::string& address,
                                std::map<std::string, health::VantageView> vantages, std::set<std::string> suspect) {
  health::EndpointReport report;
  report.pool = pool;
  report.address = address;
  report.checkers = std::move(vantages);
  report.suspicion_tracked = true;
  report.suspect_vantages = std::move(suspect);
  return report;
}

struct Fixture {
  base::FakeClock clock;
  ClusterConfig config;
  std::vector<health::EndpointReport> reports;

  Fixture() {
    config.etcd = {{"127.0.0.1", 2379}, {"127.0.0.2", 2379}};
    config.vantage = "dns1";
    config.local_checker = true;
    config.suspect_after = 90s;
    const base::SteadyTime early = clock.now();
    clock.advance(5s);
    const base::SteadyTime late = clock.now();
    health::VantageView local;
    local.state = HealthState::kUp;
    local.checks.resize(1);
    local.checks[0].state = HealthState::kUp;
    local.checks[0].last_report = late;
    reports.push_back(endpoint("web", "192.0.2.10",
                               {{"fra", remote(HealthState::kDown, early)}, {"ams", remote(HealthState::kUp, late)},
                                {"local", local}},
                               {"fra"}));
    reports.push_back(endpoint("web", "192.0.2.11",
                               {{"fra", remote(HealthState::kUp, late)}, {"ams", remote(HealthState::kUnknown, early)}}, {}));
    clock.advance(1s);
  }

  ClusterStatusInput input() const {
    ClusterStatusInput out;
    out.config = &config;
    out.reports = &reports;
    out.clock = &clock;
    out.watch.reached = true;
    out.watch.member = "http://127.0.0.2:2379";
    out.watch.revision = 42;
    out.watch.last_reached = clock.wall_now();
    return out;
  }
};

TEST(ClusterStatus, ListsEachVantageWithItsLastVerdictEndpointsAndSuspicion) {
  Fixture fixture;
  auto json = cluster_status_json(fixture.input());
  EXPECT_EQ(json["vantage"], "dns1");
  EXPECT_EQ(json["local_checker"], true);
  EXPECT_EQ(json["prefix"], "/cutover/");
  EXPECT_EQ(json["suspect_after_ms"], 90000);
  EXPECT_EQ(json["etcd"]["endpoints"], nlohmann::json::array({"http://127.0.0.1:2379", "http://127.0.0.2:2379"}));
  EXPECT_EQ(json["etcd"]["member"], "http://127.0.0.2:2379");
  EXPECT_EQ(json["etcd"]["reached"], true);
  EXPECT_EQ(json["etcd"]["last_reached"], pool::format_utc(fixture.clock.wall_now()));
  EXPECT_EQ(json["verdicts_revision"], 42);
  EXPECT_TRUE(json["pool_state_revision"].is_null()) << "no shared pool state is wired";

  const auto& vantages = json["vantages"];
  ASSERT_EQ(vantages.size(), 3u);  // by name: ams, fra, local
  EXPECT_EQ(vantages[0]["name"], "ams");
  EXPECT_EQ(vantages[0]["endpoints"], 2);
  EXPECT_EQ(vantages[0]["reporting"], 1) << "unknown on .11: it has a key there but does not report";
  EXPECT_EQ(vantages[0]["suspect"], false);
  EXPECT_EQ(vantages[1]["name"], "fra");
  EXPECT_EQ(vantages[1]["remote"], true);
  EXPECT_EQ(vantages[1]["suspect"], true);
  EXPECT_EQ(vantages[1]["suspect_on"], nlohmann::json::parse(R"([{"pool": "web", "endpoint": "192.0.2.10"}])"));
  // fra's latest verdict is the one on .11, 5 s after its verdict on .10, 1 s ago.
  EXPECT_EQ(vantages[1]["last_verdict"], pool::format_utc(fixture.clock.wall_now() - 1s));
  EXPECT_EQ(vantages[2]["name"], "local");
  EXPECT_EQ(vantages[2]["remote"], false);
  EXPECT_EQ(vantages[2]["last_verdict"], pool::format_utc(fixture.clock.wall_now() - 1s)) << "from its check's report";
  EXPECT_EQ(vantages[2]["endpoints"], 1);
}

TEST(ClusterStatus, UnreachedEtcdAndAPoolStateRevision) {
  Fixture fixture;
  ClusterStatusInput input = fixture.input();
  input.watch = WatchState{};
  input.watch.last_error = "no etcd member answered";
  input.pool_state_revision = 7;
  auto json = cluster_status_json(input);
  EXPECT_EQ(json["etcd"]["reached"], false);
  EXPECT_TRUE(json["etcd"]["last_reached"].is_null());
  EXPECT_EQ(json["etcd"]["last_error"], "no etcd member answered");
  EXPECT_EQ(json["verdicts_revision"], 0);
  EXPECT_EQ(json["pool_state_revision"], 7);
}

TEST(ClusterStatus, MetricsFlagEachVantageOnEachEndpoint) {
  Fixture fixture;
  std::string metrics = render_cluster_metrics(fixture.input());
  EXPECT_NE(metrics.find("cutover_cluster_etcd_reachable 1\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("cutover_cluster_verdicts_revision 42\n"), std::string::npos);
  EXPECT_NE(metrics.find("cutover_cluster_vantage_suspect{pool=\"web\",endpoint=\"192.0.2.10\",vantage=\"fra\"} 1\n"),
            std::string::npos);
  EXPECT_NE(metrics.find("cutover_cluster_vantage_suspect{pool=\"web\",endpoint=\"192.0.2.10\",vantage=\"ams\"} 0\n"),
            std::string::npos);
  EXPECT_NE(metrics.find("cutover_cluster_vantage_suspect{pool=\"web\",endpoint=\"192.0.2.11\",vantage=\"fra\"} 0\n"),
            std::string::npos);
  EXPECT_EQ(metrics.find("# TYPE cutover_cluster_vantage_suspect gauge"),
            metrics.rfind("# TYPE cutover_cluster_vantage_suspect gauge"))
      << "one header";
}

}  // namespace
}  // namespace cutover::cluster
