// The cluster section: one pass over the endpoints' vantages, grouped by vantage.
#include "cluster/cluster_status.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "pool/service/pool_service.h"
#include "pool/status_report.h"

namespace cutover::cluster {
namespace {

using nlohmann::json;

struct VantageRow {
  bool remote = false;
  std::optional<base::SteadyTime> last_verdict;
  std::size_t endpoints = 0;  // endpoints it has a verdict on (up, down or unknown)
  std::size_t reporting = 0;  // of those, up or down
  json suspect_on = json::array();
};

// When the vantage last told anything about the endpoint: a remote verdict's arrival, or the
// latest of the local checks' reports.
std::optional<base::SteadyTime> last_report(const health::VantageView& view) {
  std::optional<base::SteadyTime> latest = view.last_report;
  for (const auto& check : view.checks) {
    if (check.last_report && (!latest || *check.last_report > *latest)) latest = check.last_report;
  }
  return latest;
}

json time_json(const std::optional<std::chrono::system_clock::time_point>& when) {
  return when ? json(pool::format_utc(*when)) : json(nullptr);
}

}  // namespace

json cluster_status_json(const ClusterStatusInput& input) {
  const ClusterConfig& config = *input.config;
  json members = json::array();
  for (const auto& member : config.etcd) members.push_back(member.url());
  std::map<std::string, VantageRow> rows;
  for (const auto& report : *input.reports) {
    for (const auto& [name, view] : report.checkers) {
      VantageRow& row = rows[name];
      row.remote = row.remote || view.remote;
      ++row.endpoints;
      if (view.state != health::HealthState::kUnknown) ++row.reporting;
      auto latest = last_report(view);
      if (latest && (!row.last_verdict || *latest > *row.last_verdict)) row.last_verdict = latest;
      if (report.suspect_vantages.count(name) != 0) {
        row.suspect_on.push_back({{"pool", report.pool}, {"endpoint", report.address}});
      }
    }
  }
  json vantages = json::array();
  for (const auto& [name, row] : rows) {
    std::optional<std::chrono::system_clock::time_point> wall;
    if (row.last_verdict) wall = base::to_wall(*input.clock, *row.last_verdict);
    vantages.push_back({{"name", name},
                        {"remote", row.remote},
                        {"last_verdict", time_json(wall)},
                        {"endpoints", row.endpoints},
                        {"reporting", row.reporting},
                        {"suspect", !row.suspect_on.empty()},
                        {"suspect_on", row.suspect_on}});
  }
  const WatchState& watch = input.watch;
  return {{"vantage", config.vantage},
          {"local_checker", config.local_checker},
          {"prefix", config.prefix},
          {"suspect_after_ms", config.suspect_after.count()},
          {"etcd",
           {{"endpoints", members},
            {"member", watch.member},
            {"reached", watch.reached},
            {"last_reached", time_json(watch.last_reached)},
            {"last_error", watch.last_error},
            {"members", member_statuses_json(input.members)}}},
          {"verdicts_revision", watch.revision},
          {"pool_state_revision", input.pool_state_revision ? json(*input.pool_state_revision) : json(nullptr)},
          {"vantages", vantages}};
}

std::string render_cluster_metrics(const ClusterStatusInput& input) {
  std::string out;
  out += "# HELP cutover_cluster_etcd_reachable Whether the last call of the verdict watch reached an etcd member.\n"
         "# TYPE cutover_cluster_etcd_reachable gauge\n";
  out += fmt::format("cutover_cluster_etcd_reachable {}\n", input.watch.reached ? 1 : 0);
  out += "# HELP cutover_cluster_verdicts_revision The etcd revision whose verdicts this server has applied.\n"
         "# TYPE cutover_cluster_verdicts_revision gauge\n";
  out += fmt::format("cutover_cluster_verdicts_revision {}\n", input.watch.revision);
  out += "# HELP cutover_cluster_vantage_suspect Whether a vantage has disagreed with the majority on the endpoint "
         "for longer than suspect-after (1).\n"
         "# TYPE cutover_cluster_vantage_suspect gauge\n";
  for (const auto& report : *input.reports) {
    for (const auto& [name, view] : report.checkers) {
      out += fmt::format("cutover_cluster_vantage_suspect{{pool=\"{}\",endpoint=\"{}\",vantage=\"{}\"}} {}\n",
                         pool::metric_label_value(report.pool), pool::metric_label_value(report.address),
                         pool::metric_label_value(name), report.suspect_vantages.count(name) != 0 ? 1 : 0);
    }
  }
  return out;
}

void ClusterStatus::set_pool_state_revision(std::function<std::optional<std::int64_t>()> source) {
  std::lock_guard lock(mutex_);
  pool_state_revision_ = std::move(source);
}

ClusterStatusInput ClusterStatus::input(const std::vector<health::EndpointReport>& reports) const {
  ClusterStatusInput out;
  out.config = &config_;
  out.watch = watcher_.state();
  out.reports = &reports;
  out.clock = &clock_;
  std::function<std::optional<std::int64_t>()> source;
  {
    std::lock_guard lock(mutex_);
    source = pool_state_revision_;
  }
  if (source) out.pool_state_revision = source();
  return out;
}

json ClusterStatus::to_json() const {
  auto reports = monitor_.reports();
  ClusterStatusInput in = input(reports);
  in.members = member_statuses(config_.etcd, kMemberStatusTimeout);
  return cluster_status_json(in);
}

std::string ClusterStatus::metrics() const {
  auto reports = monitor_.reports();
  return render_cluster_metrics(input(reports));
}

void add_cluster_status(pool::PoolService& pools, std::shared_ptr<const ClusterStatus> status) {
  pools.add_status_section("cluster", [status] { return status->to_json(); });
  pools.add_metrics_source([status] { return status->metrics(); });
}

}  // namespace cutover::cluster
