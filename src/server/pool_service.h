// PoolService: health-checked pools inside `cutover serve`. Runs the HealthMonitor over
// every pool endpoint and, on each health change, builds the pools' answers and publishes
// them to the Server at once (the next query sees them). Offers /status, /metrics and the
// drain/undrain/force-up API on the control server when there is one. Thread-safe: the
// monitor's listener, the API threads and reload() may run at the same time.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include "base/clock.h"
#include "control/control_server.h"
#include "health/health_monitor.h"
#include "pool/answer_builder.h"
#include "pool/status_report.h"
#include "server/server.h"

namespace cutover::server {

class PoolService : public Service {
 public:
  // `server` and `logger` must outlive the service; `control` may be null (no API) and,
  // when given, must not have started yet. Registers a query observer on the server.
  PoolService(Server& server, base::Logger& logger, control::ControlServer* control);
  ~PoolService() override;

  std::string name() const override { return "pools"; }
  base::Status start() override;
  void stop() override;
  base::Status reload(const config::Config& next) override;

  std::string status_json() const;
  std::string metrics_text() const;
  // kNotFound when the pool or endpoint does not exist.
  base::Status set_override(const std::string& pool, const std::string& address, health::Override value);

 private:
  base::Status apply(const std::vector<pool::PoolSpec>& specs);
  base::Status check_against_zones(const std::vector<pool::PoolSpec>& specs) const;
  void on_health(const std::shared_ptr<const health::HealthSnapshot>& snapshot);
  std::optional<std::uint32_t> negative_ttl(const dns::Name& name) const;
  pool::StatusInput status_input(const std::vector<pool::PoolSpec>& specs,
                                 const std::vector<health::EndpointReport>& reports,
                                 const pool::PoolAnswers* answers) const;

  Server& server_;
  base::Logger& logger_;
  base::RealClock clock_;
  health::ProbeRegistry probes_;
  pool::PolicyRegistry policies_;
  std::unique_ptr<health::HealthMonitor> monitor_;

  mutable std::mutex builder_mutex_;  // guards builder_
  std::unique_ptr<pool::AnswerBuilder> builder_;
  std::atomic<std::shared_ptr<const pool::PoolAnswers>> answers_;
  std::array<std::atomic<std::uint64_t>, 16> rcodes_{};
};

// Adds GET /status, GET /metrics and POST /pools/NAME/endpoints/ADDR/{drain,undrain,force-up}.
void add_pool_routes(control::ControlServer& control, PoolService& service);

}  // namespace cutover::server
