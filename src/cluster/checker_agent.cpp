// CheckerAgent: the config's probes on a HealthMonitor of its own -> VerdictPublisher.
#include "cluster/checker_agent.h"

#include "pool/config/pool_config.h"
#include "pool/monitored_endpoints.h"

namespace cutover::cluster {

CheckerAgent::CheckerAgent(const config::Config& config, CheckerOptions options, base::Logger& logger)
    : config_(config), logger_(logger),
      publisher_(std::make_unique<VerdictPublisher>(std::move(options), lease_ttl_for(config), logger)) {
  health::register_builtin_probes(probes_);
  monitor_ = std::make_unique<health::HealthMonitor>(probes_, clock_, logger_, nullptr);
  monitor_->set_verdict_observer([this](const health::VantageVerdict& verdict) { publisher_->on_verdict(verdict); });
}

CheckerAgent::~CheckerAgent() { stop(); }

base::Status CheckerAgent::start() {
  const auto& specs = pool::config_pools(config_);
  if (specs.empty()) return base::make_error(base::ErrorCode::kInvalidArgument, "the config has no pools: nothing to check");
  publisher_->start();
  auto configured = monitor_->configure(pool::monitored_endpoints(specs));
  if (!configured) return configured;
  const CheckerOptions& options = publisher_->options();
  logger_.info("checker.started", {{"vantage", options.vantage},
                                   {"prefix", options.prefix},
                                   {"lease_ttl_s", std::to_string(publisher_->lease_ttl().count())},
                                   {"etcd", publisher_->current_member()}});
  return {};
}

nlohmann::json CheckerAgent::status_json() const {
  nlohmann::json cluster = publisher_->status_json();
  cluster["role"] = "checker";
  cluster["etcd"]["members"] =
      member_statuses_json(member_statuses(publisher_->options().members, kMemberStatusTimeout));
  return {{"role", "checker"}, {"cluster", std::move(cluster)}};
}

void CheckerAgent::stop() {
  if (monitor_) monitor_->stop();
  publisher_->stop();
}

}  // namespace cutover::cluster
