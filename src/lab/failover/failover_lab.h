// FailoverLab: the real health-checked pool server of E10. One `cutover serve --config` (the
// production server, not the lab authority) serves the zone kZone with one failover pool per
// (resolver tag, answer TTL): a primary and a backup endpoint that this process owns as TCP
// listeners (TcpEndpoints), checked by cutover's tcp probe. E10 kills a primary and watches
// the answer move. Thread-safe: kill_primary may be called from concurrent cases.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "lab/failover/tcp_endpoints.h"
#include "lab/fixture.h"
#include "lab/process.h"
#include "net/address.h"

namespace cutover::lab {

// The health check of every E10 pool: interval I, timeout T, fall F, rise R.
struct FailoverCheck {
  double interval = 1.0;  // seconds
  double timeout = 0.5;   // seconds
  std::uint32_t fall = 2;
  std::uint32_t rise = 2;
};

class FailoverLab : public Fixture {
 public:
  static constexpr const char* kZone = "cutover-e10.";
  static constexpr const char* kPrimary = "127.0.10.1";
  static constexpr const char* kBackup = "127.0.10.2";
  // Pool answer TTLs: one longer and one shorter than the detection time F·I.
  static constexpr std::array<std::uint32_t, 2> kTtls = {5, 2};

  // Starts the endpoints and the server with a pool for every (tag, TTL of kTtls).
  static base::Result<std::unique_ptr<FailoverLab>> start(const std::string& cutover_binary, const std::string& work_dir,
                                                         const std::vector<std::string>& tags,
                                                         const FailoverCheck& check = {});

  // The pool's DNS name, e.g. "ttl5.unbound.cutover-e10.".
  static std::string pool_name(const std::string& tag, std::uint32_t ttl);

  const FailoverCheck& check() const { return check_; }
  std::uint16_t dns_port() const { return dns_port_; }
  net::SocketAddress dns_address() const;
  const std::string& log_path() const { return log_path_; }
  std::string describe() const override;
  // Closes the primary endpoint of the pool (tag, ttl); returns the monotonic time of the close.
  base::Result<std::int64_t> kill_primary(const std::string& tag, std::uint32_t ttl);

 private:
  FailoverLab() = default;
  base::Status open_endpoints(const std::vector<std::string>& tags);
  std::string config_text() const;

  struct Pool {
    std::string tag;
    std::uint32_t ttl = 0;
    std::uint16_t primary_port = 0;
    std::uint16_t backup_port = 0;
  };
  FailoverCheck check_;
  TcpEndpoints endpoints_;
  std::map<std::string, Pool> pools_;  // by pool_name; fixed after start
  ChildProcess server_;
  std::uint16_t dns_port_ = 0;
  std::string log_path_;
};

// The fixture kind of the failover pool server: one pool pair per resolver tag of the run.
const FixtureKind& failover_fixture();

}  // namespace cutover::lab
