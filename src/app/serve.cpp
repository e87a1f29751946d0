// The services of `cutover serve`, added to the server in the order their start() must run
// (Server::run starts them in order and stops them in reverse).
#include "app/serve.h"

#include <algorithm>
#include <ctime>
#include <memory>

#include "app/cluster_wiring.h"
#include "app/console_panels.h"
#include "app/demo_endpoints.h"
#include "app/online_resign.h"
#include "app/online_status.h"
#include "app/replication.h"
#include "app/signed_queries.h"
#include "cluster/cluster_config.h"
#include "cluster/etcd_journal.h"
#include "cluster/pool_state_watcher.h"
#include "cluster/verdict_publisher.h"
#include "cluster/verdict_watcher.h"
#include "control/console/console.h"
#include "dnssec/zone_keys.h"
#include "lab/authority/lab_authority.h"
#include "pool/service/pool_service.h"
#include "pool/writes/pool_api_routes.h"
#include "pool/writes/pool_writes.h"

namespace cutover::app {

Serve::Serve(server::Server::ConfigSource resolve, config::Config config, base::Logger& logger, ServeFeatures features)
    : server_(std::move(resolve), std::move(config), logger) {
  const config::ControlConfig& control = server_.config().control;
  if (!control.host.empty()) control_ = std::make_shared<server::ControlService>(control, logger);
  if (features.lab) {
    if (!control_) throw config::ConfigError(kLabNeedsControl);
    // Added before the control service so the lab zones are published before its API opens.
    server_.add_service(std::make_shared<lab::LabAuthority>(server_, control_->http()));
  }
  control::ControlServer* api = control_api();
  if (features.demo_endpoints) server_.add_service(std::make_shared<DemoEndpoints>(logger, api));
  auto pools = std::make_shared<pool::PoolService>(server_, logger);
  pools->set_lab_run(std::move(features.lab_run));
  server_.add_service(pools);
  // A cluster (docs/cluster.md): other vantages' verdicts reach the same monitor, after the
  // pools have started it.
  std::shared_ptr<cluster::ClusterStatus> cluster_status;
  auto cluster = cluster::config_cluster(server_.config());
  if (cluster) {
    pools->set_local_checker(cluster->local_checker);
    auto watcher = std::make_shared<cluster::VerdictWatcher>(*cluster, pools->monitor(), logger);
    server_.add_service(watcher);
    cluster_status = add_cluster_status(*pools, *cluster, watcher);
    // ...and this server's own probes reach theirs.
    if (cluster->local_checker) {
      cluster::CheckerOptions options{cluster->etcd, cluster->vantage, cluster->prefix};
      server_.add_service(std::make_shared<cluster::LocalVerdicts>(
          std::move(options), cluster::lease_ttl_for(server_.config()), pools->monitor(), logger));
    }
  }
  // Signed zones' keys and signatures in /status, their first expiry on /metrics
  // (docs/dnssec.md, "Keys and signatures").
  auto signed_zones = std::make_shared<dnssec::ServedZonesDnssec>();
  pools->add_metrics_source([signed_zones, &server = server_] {
    auto zones = server.zones();
    return zones != nullptr ? signed_zones->metrics(zones->zones(), static_cast<std::uint32_t>(std::time(nullptr))) : "";
  });
  pools->add_status_section("dnssec", [signed_zones, &server = server_] {
    auto zones = server.zones();
    return zones != nullptr ? signed_zones->status(zones->zones(), static_cast<std::uint32_t>(std::time(nullptr)))
                            : nlohmann::json::array();
  });
  pools->add_metrics_source([] { return online_signing_metrics(); });
  pools->add_status_section("dnssec_online",
                            [] { return online_signing_status(static_cast<std::uint32_t>(std::time(nullptr))); });
  if (api != nullptr) pool::add_pool_routes(*api, *pools);
  if (control_) server_.add_service(control_);
  auto replication = Replication::install(server_, control_.get(), server_.config(), logger);
  // After replication's handler: UPDATE and transfers are signed there; plain queries here.
  install_signed_queries(server_, server_.config());
  if (replication) {
    server_.add_service(replication);
    // Zones signed online that go through the store: their serial moves every refresh / 2 so
    // secondaries re-transfer fresh signatures (app/online_resign.h).
    bool online = std::any_of(server_.config().zones.begin(), server_.config().zones.end(),
                              [](const config::ZoneConfig& zone) { return zone.dnssec.online; });
    if (online && replication->store() != nullptr) {
      server_.add_service(std::make_shared<OnlineResigner>(*replication->store(), logger));
    }
    if (replication->pool_materializer()) pools->set_answer_sink(replication->pool_materializer());
  }
  // Pools CRUD and journaled overrides need both a journal and the API; without one
  // overrides are kept in memory. One handler for the override URL either way. In a cluster
  // the pools' journal is etcd, shared by every server, and a watch applies what the
  // others write (docs/cluster.md, "Shared pool state"); zones keep writes.journal.
  if (control_ && cluster) {
    auto storage = std::make_shared<cluster::EtcdJournal>(*cluster, std::chrono::milliseconds(2000));
    auto pool_writes = std::make_shared<pool::PoolWrites>(*pools, server_.config(), logger, storage);
    pool::add_pool_api_routes(control_->http(), *pool_writes);
    server_.add_service(pool_writes);
    auto state_watcher = std::make_shared<cluster::PoolStateWatcher>(*cluster, *pool_writes, logger);
    server_.add_service(state_watcher);
    if (cluster_status) {
      cluster_status->set_pool_state_revision([state_watcher]() -> std::optional<std::int64_t> {
        return state_watcher->applied_revision();
      });
    }
  } else if (control_ && !server_.config().writes.journal.empty()) {
    auto pool_writes = std::make_shared<pool::PoolWrites>(*pools, server_.config(), logger);
    pool::add_pool_api_routes(control_->http(), *pool_writes);
    server_.add_service(pool_writes);
  } else if (api != nullptr) {
    pool::add_override_route(*api, *pools);
  }
  if (api != nullptr) {
    control::ConsoleOptions options;
    options.title = "cutover serve";
    if (features.demo_endpoints) options.demo_endpoints = {kDemoPrimary, kDemoSecondary};
    control::Console console(std::move(options));
    add_serve_panels(console, server_, *pools, replication.get(), server_.config(),
                     !server_.config().writes.journal.empty());
    if (cluster_status) add_cluster_panel(console, cluster_status);
    console.mount(*api);
  }
}

}  // namespace cutover::app
