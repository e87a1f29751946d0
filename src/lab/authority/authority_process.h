// AuthorityProcess: one lab authority (`cutover serve --lab`) started by the lab runner, and
// the client of its control API. Change methods return the CLOCK_MONOTONIC time (ns) at which
// the authority published the change. Thread-safe: each call opens its own HTTP connection.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "dns/types.h"
#include "lab/process.h"
#include "net/address.h"

namespace cutover::lab {

struct AuthorityOptions {
  std::string cutover_binary;  // the `cutover` executable
  std::string host = "127.0.0.1";
  std::uint16_t dns_port = 0;  // 0: a free port (retried on another if taken)
  std::string work_dir;        // its log goes here
  std::string label = "authority";
  // Runs the authority inside something (a client case's `ip netns exec NAME`); the thread
  // that calls the control API must then be in that network namespace.
  std::vector<std::string> exec_prefix = {};
};

// How a lab zone answers beyond its data.
struct ZoneReplies {
  bool uncapped_negative = false;  // negative answers carry the SOA TTL unchanged (the paper's lab mode)
  bool ns_in_authority = false;    // positive answers carry the zone's NS RRset (non-minimal, like BIND/NSD)
};

class AuthorityProcess {
 public:
  static base::Result<std::unique_ptr<AuthorityProcess>> start(const AuthorityOptions& options);

  const std::string& host() const { return host_; }
  std::uint16_t dns_port() const { return dns_port_; }
  net::SocketAddress dns_address() const;
  const std::string& log_path() const { return log_path_; }

  base::Result<std::int64_t> put_zone(const std::string& origin, std::uint32_t soa_ttl, std::uint32_t minimum,
                                      ZoneReplies replies = {});
  // The zone exactly as master-file `text` has it (a zone signed offline, E14).
  base::Result<std::int64_t> put_zone_file(const std::string& origin, const std::string& text);
  base::Result<std::int64_t> put_rrset(const std::string& name, const std::string& type, std::uint32_t ttl,
                                       const std::vector<std::string>& data);
  base::Result<std::int64_t> delete_name(const std::string& name);
  // `scope` is "zone" or "name"; `mode` none, drop, refuse or servfail.
  base::Result<std::int64_t> set_outage(const std::string& scope, const std::string& target, const std::string& mode);
  // Queries the authority received for (name, type) so far.
  base::Result<std::uint64_t> count(const std::string& name, const std::string& type);
  // Every (name, type) the authority was asked so far, with its count (E15).
  struct QueryCount {
    std::string name;
    std::string type;
    std::uint64_t count = 0;
  };
  base::Result<std::vector<QueryCount>> counts();

 private:
  AuthorityProcess() = default;
  base::Result<std::string> call(const std::string& method, const std::string& path, const std::string& body);
  base::Result<std::int64_t> change(const std::string& method, const std::string& path, const std::string& body);

  ChildProcess process_;
  std::string host_;
  std::uint16_t dns_port_ = 0;
  std::uint16_t control_port_ = 0;
  std::string log_path_;
};

// The running binary's own path (for starting `cutover serve --lab`).
std::string self_executable();

}  // namespace cutover::lab
