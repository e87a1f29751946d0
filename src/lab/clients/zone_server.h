// ZoneServer: an authoritative server of a client case other than the lab authority, for
// E12's rotation: `cutover serve --config` (the production server, a static zone with
// `rrset-order: cyclic`, optionally a health-checked pool) or BIND `named` as the control
// (`rrset-order { order cyclic; };`, named.conf(5)). Started inside the case's namespace
// (`exec_prefix`) on 127.0.0.1, on a port that was free there; ready once it answers
// `probe_name`. Stopped by the destructor. Not thread-safe: one case thread owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "lab/process.h"
#include "net/address.h"

namespace cutover::lab {

struct ZoneServerSpec {
  enum class Kind { kCutover, kBind };
  Kind kind = Kind::kCutover;
  std::string zone;        // the origin, e.g. "cutover-lab."
  std::string zone_text;   // the master file, $ORIGIN and SOA included
  std::string pools_yaml;  // cutover only: a `pools:` section appended to its config ("" for none)
};
std::string zone_server_kind_text(ZoneServerSpec::Kind kind);

class ZoneServer {
 public:
  static base::Result<std::unique_ptr<ZoneServer>> start(const ZoneServerSpec& spec, const std::string& dir,
                                                         const std::vector<std::string>& exec_prefix,
                                                         const std::string& cutover_binary,
                                                         const std::string& probe_name);
  ~ZoneServer() { process_.stop(500); }
  ZoneServer(const ZoneServer&) = delete;
  ZoneServer& operator=(const ZoneServer&) = delete;

  std::uint16_t port() const { return port_; }
  net::SocketAddress address() const;
  // "cutover 0.x" or "BIND 9.18.x" as the program reports it.
  const std::string& version() const { return version_; }
  const std::string& log_path() const { return log_path_; }

 private:
  ZoneServer() = default;
  ChildProcess process_;
  std::uint16_t port_ = 0;
  std::string version_;
  std::string log_path_;
};

}  // namespace cutover::lab
