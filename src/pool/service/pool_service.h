// PoolService: health-checked pools inside `cutover serve`. Runs the HealthMonitor over
// every pool endpoint and, on each health change, builds the pools' answers and publishes
// them to the Server at once (the next query sees them); pools in materialize mode go to a
// PoolAnswerSink instead, which writes them into their zone. Its routes (/status, /metrics,
// in-memory overrides) are added by the composition root. Thread-safe: the
// monitor's listener, the API threads and reload() may run at the same time.
#pragma once

#include <array>
#include <functional>
#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <memory>
#include <mutex>

#include "base/clock.h"
#include "control/control_server.h"
#include "health/health_monitor.h"
#include "health/signal/signal_board.h"
#include "pool/answer_builder.h"
#include "pool/status_report.h"
#include "server/server.h"

namespace cutover::pool {

// Where the answers of pools served in materialize mode go (pool/writes/ writes them into the
// zone through the write path). Implementations are thread-safe: PoolService calls them
// from the health monitor's thread and from API threads.
class PoolAnswerSink {
 public:
  virtual ~PoolAnswerSink() = default;
  // The pools now configured (start and every reload), before their first answers.
  virtual void configure(const std::vector<PoolSpec>& specs) = 0;
  // A new answer snapshot of every pool; returns at once.
  virtual void submit(std::shared_ptr<const PoolAnswers> answers) = 0;
  // Who causes the pool's next answer change and how (an operator override), for history.
  virtual void annotate(const std::string& pool, const std::string& who, const std::string& cause) = 0;
  // Waits until everything submitted so far is written (or refused); false on timeout.
  virtual bool flush(std::chrono::milliseconds timeout) = 0;
  // Drops an annotation no change used (an override that changed no verdict).
  virtual void clear_annotation(const std::string& pool) = 0;
};

// A pool's answer as address lists per family (the dry run shows them before and after).
struct PoolPreview {
  std::optional<dns::Name> owner;  // nullopt: no such pool
  std::vector<std::string> a;
  std::vector<std::string> aaaa;
  std::vector<std::string> cname;  // hostname endpoints: the target answered
};

// What the pool write path (pool/writes/) needs of the running pools; PoolService is the
// real one, unit tests use a fake. Thread-safe.
class PoolRuntime {
 public:
  virtual ~PoolRuntime() = default;
  virtual base::Status set_api_pools(std::vector<PoolSpec> specs) = 0;
  virtual base::Status check_api_pools(const std::vector<PoolSpec>& specs) const = 0;
  virtual bool is_config_pool(const std::string& pool) const = 0;
  virtual std::optional<PoolSpec> find_pool(const std::string& pool) const = 0;
  virtual PoolPreview preview(const std::string& pool, const std::vector<PoolSpec>& api_specs,
                              const std::map<std::string, health::Override>& overrides) const = 0;
  virtual PoolPreview current_answer(const std::string& pool) const = 0;
  virtual base::Status set_override(const std::string& pool, const std::string& address, health::Override value,
                                    const std::string& who) = 0;
};

class PoolService : public server::Service, public PoolRuntime {
 public:
  // `server` and `logger` must outlive the service. Registers a query observer on the server.
  PoolService(server::Server& server, base::Logger& logger);
  ~PoolService() override;

  std::string name() const override { return "pools"; }
  base::Status start() override;
  void stop() override;
  base::Status reload(const config::Config& next) override;

  std::string status_json() const;
  // A top-level member of /status beside "pools" (`key`: "cluster") and lines appended to
  // /metrics, from a feature above pools (src/cluster/). Call before start(); the functions
  // are called from API threads and must be thread-safe.
  using StatusSection = std::function<nlohmann::json()>;
  void add_status_section(std::string key, StatusSection section) {
    status_sections_.emplace_back(std::move(key), std::move(section));
  }
  void add_metrics_source(std::function<std::string()> source) { metrics_sources_.push_back(std::move(source)); }
  // The lab run whose client terms /status shows beside each pool's D and K; call before
  // start() (read without a lock afterwards).
  void set_lab_run(LabRun lab) { lab_run_ = std::move(lab); }
  // The probes of the last hour after sequence `after` (render_probe_ticks_json; empty when
  // none), and in `next` the sequence to ask after next time. Thread-safe.
  std::string probe_ticks_json(std::uint64_t after, std::uint64_t& next) const;
  // The pushed external signals that `signal` checks read (PUT /signals/NAME).
  health::SignalBoard& signals() { return *probes_.signals(); }
  const base::Clock& clock() const { return clock_; }
  std::string metrics_text() const;
  // kNotFound when the pool or endpoint does not exist. `who` names the operator for the
  // history of a materialized pool (the override is written through the journal there).
  base::Status set_override(const std::string& pool, const std::string& address, health::Override value,
                            const std::string& who) override;
  // The monitor a cluster's verdict watch reports remote vantages to (src/cluster/);
  // lives as long as the service.
  health::HealthMonitor& monitor() { return *monitor_; }
  const health::HealthMonitor& monitor() const { return *monitor_; }
  // false: this server runs no probe itself (`cluster.local-checker: false`). Before start().
  void set_local_checker(bool on) { monitor_->set_local_probes(on); }
  // Materialized pools are handed to `sink` instead of the engine. Call before start();
  // `sink` must stay usable until stop() returned.
  void set_answer_sink(std::shared_ptr<PoolAnswerSink> sink) { sink_ = std::move(sink); }

  // Pools made through the API (pool/writes/ keeps them in the journal). Before start() they
  // are kept for it; after, applied at once (the next query sees them). Fails, changing
  // nothing, when one clashes with a config pool (id or name), another pool or zone data.
  base::Status set_api_pools(std::vector<PoolSpec> specs) override;
  // The checks of set_api_pools against the current config and zones, applying nothing.
  base::Status check_api_pools(const std::vector<PoolSpec>& specs) const override;
  // True when `pool` comes from the config file (read-only through the API).
  bool is_config_pool(const std::string& pool) const override;
  // The pool as served now (config or API); nullopt when there is none.
  std::optional<PoolSpec> find_pool(const std::string& pool) const override;
  // What pool `pool` would answer per family with `api_specs` as the API pools and
  // `overrides` on its endpoints, from the current health (unknown counts as up): the
  // answer diff of a dry run. Empty lists when the pool would not exist.
  PoolPreview preview(const std::string& pool, const std::vector<PoolSpec>& api_specs,
                      const std::map<std::string, health::Override>& overrides) const override;
  PoolPreview current_answer(const std::string& pool) const override;

 private:
  base::Status apply(const std::vector<PoolSpec>& specs);
  // The config pools followed by the API pools; fails on a clash of ids or names.
  base::Result<std::vector<PoolSpec>> merged(const std::vector<PoolSpec>& config_pools,
                                                   const std::vector<PoolSpec>& api_pools) const;
  base::Status check_against_zones(const std::vector<PoolSpec>& specs) const;
  bool materializes(const std::string& pool) const;
  void on_health(const std::shared_ptr<const health::HealthSnapshot>& snapshot);
  std::optional<std::uint32_t> negative_ttl(const dns::Name& name) const;
  StatusInput status_input(const std::vector<PoolSpec>& specs,
                                 const std::vector<health::EndpointReport>& reports,
                                 const PoolAnswers* answers) const;

  server::Server& server_;
  base::Logger& logger_;
  base::RealClock clock_;
  health::ProbeRegistry probes_;
  PolicyRegistry policies_;
  std::unique_ptr<health::HealthMonitor> monitor_;
  LabRun lab_run_;
  std::vector<std::pair<std::string, StatusSection>> status_sections_;  // set before start()
  std::vector<std::function<std::string()>> metrics_sources_;          // set before start()

  mutable std::mutex builder_mutex_;  // guards builder_
  std::unique_ptr<AnswerBuilder> builder_;
  std::shared_ptr<PoolAnswerSink> sink_;
  mutable std::mutex apply_mutex_;  // one apply (start, reload, API write) at a time; guards the next two
  std::vector<PoolSpec> config_specs_;
  std::vector<PoolSpec> api_specs_;
  bool started_ = false;
  std::mutex override_mutex_;  // one override at a time, so its history entry names it alone
  std::atomic<std::shared_ptr<const PoolAnswers>> answers_;
  std::array<std::atomic<std::uint64_t>, 16> rcodes_{};
};

// Adds GET /status and GET /metrics, and the external signals (signal_routes.cpp).
void add_pool_routes(control::ControlServer& control, PoolService& service);
// Adds PUT, DELETE /signals/NAME and GET /signals.
void add_signal_routes(control::ControlServer& control, PoolService& service);
// Adds POST /pools/NAME/endpoints/ADDR/{drain,undrain,force-up} as in-memory overrides, for
// a server without a journal (with one, pool/writes/pool_api_routes.h adds it as journaled
// writes instead; the composition root adds exactly one of the two).
void add_override_route(control::ControlServer& control, PoolService& service);

}  // namespace cutover::pool
