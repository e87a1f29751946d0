// SplitLab: the authority of E13 (split horizon behind one resolver cache). One `cutover serve
// --config` (the production server) serves the zone kZone to two client populations: A, on
// kPopulationA's network, has a view of its own, B and everyone else get the default zone. Two
// views answer A, one matched by the source address (names under src.) and one by a trusted
// resolver's Client Subnet (names under ecs.), so one run shows what each way of choosing a
// view gives behind a shared cache. Every query is logged with its view. Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "lab/fixture.h"
#include "lab/process.h"
#include "net/address.h"

namespace cutover::lab {

class SplitLab : public Fixture {
 public:
  static constexpr const char* kZone = "cutover-e13.";
  // The two populations' source addresses, on different /24s (a resolver sends at most a /24
  // of its client in Client Subnet by default).
  static constexpr const char* kPopulationA = "127.0.13.1";
  static constexpr const char* kPopulationB = "127.0.14.1";
  static constexpr const char* kNetworkA = "127.0.13.0/24";
  static constexpr const char* kAnswerA = "192.0.2.13";  // A's view
  static constexpr const char* kAnswerB = "192.0.2.14";  // the default zone
  static constexpr std::uint32_t kTtl = 10;

  static base::Result<std::unique_ptr<SplitLab>> start(const std::string& cutover_binary, const std::string& work_dir);

  std::uint16_t dns_port() const { return dns_port_; }
  net::SocketAddress dns_address() const;
  const std::string& log_path() const { return log_path_; }
  std::string describe() const override;
  // The views that answered `qname` so far, one per query the server logged, in order
  // ("a-src", "a-ecs", "-" for the default); from the server's query log.
  std::vector<std::string> views_for(const std::string& qname) const;

 private:
  SplitLab() = default;
  ChildProcess server_;
  std::uint16_t dns_port_ = 0;
  std::string log_path_;
};

// The fixture kind of E13's authority.
const FixtureKind& split_fixture();

}  // namespace cutover::lab
