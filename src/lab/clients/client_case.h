// ClientCase: the world of one client case, owned by the case's thread: a private network
// namespace (entered by that thread for as long as the case lives), a lab authority and the
// run's resolver inside it (the resolver on 127.0.0.1:53, named by the namespace's
// resolv.conf), the origins, optional nftables rules, and the client program, whose stdout
// (the per-request log) is read as it grows, each line stamped with when the lab saw it.
// Everything stops and the namespace is deleted when the ClientCase is destroyed.
// Not thread-safe: one case thread uses it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "lab/authority/authority_process.h"
#include "lab/case_result.h"
#include "lab/clients/client.h"
#include "lab/clients/netns.h"
#include "lab/clients/origin.h"
#include "lab/clients/request_log.h"
#include "lab/clients/suite.h"
#include "lab/clients/zone_server.h"
#include "lab/process.h"
#include "lab/resolvers/instance.h"

namespace cutover::lab {

struct ClientCaseSetup {
  std::string label;  // unique in the run: the raw logs' file stem, e.g. "E6-python"
  std::vector<OriginOptions> origins;
  std::string nft_rules;  // loaded inside the namespace; empty for none
  std::uint32_t negative_ttl = 2;  // the lab zone's SOA TTL and MINIMUM (RFC 2308 §5)
  std::vector<std::string> resolver_lines;  // extra lines in the resolver's own syntax
  // Set: the zone kZone is served by this server (E12: cutover serve or BIND, cyclic order)
  // instead of the lab authority, which is then not started; its zone must hold `ready`.
  std::optional<ZoneServerSpec> zone_server;
  // Unbound rotates RRsets by default (rrset-roundrobin); false leaves that default on (E12
  // measures what the resolver does to the order), true makes it keep the authority's order.
  bool resolver_keeps_order = true;
  // Lines after `nameserver 127.0.0.1` in the namespace's resolv.conf (E15: search, options).
  std::vector<std::string> resolv_conf_lines;
};

class ClientCase {
 public:
  static constexpr const char* kZone = "cutover-lab.";
  static base::Result<std::unique_ptr<ClientCase>> open(ClientSuite& suite, const ClientCaseSetup& setup);
  ~ClientCase();
  ClientCase(const ClientCase&) = delete;
  ClientCase& operator=(const ClientCase&) = delete;

  AuthorityProcess& authority() { return *authority_; }
  // The setup's zone server (null when the lab authority serves the zone).
  ZoneServer* zone_server() { return zone_server_.get(); }
  NetNamespace& network() { return *ns_; }
  Origin& origin(std::size_t index) { return *origins_.at(index); }
  const net::SocketAddress& resolver_address() const { return resolver_->address(); }
  // A name in the case's own zone: "LABEL.cutover-lab.".
  static std::string name(const std::string& label) { return label + "." + kZone; }

  base::Status start_client(const ClientAdapter& adapter, const ClientPaths& paths, const ClientInvocation& run);
  // Reads the client's output until it holds `lines` lines, the client exits or `deadline`
  // (unix seconds) passes; true when the lines are there.
  bool wait_for_lines(std::size_t lines, double deadline);
  // Reads until the client exits or `deadline` passes, then stops it; true when it exited
  // by itself.
  bool wait_for_exit(double deadline);
  const std::vector<std::string>& lines() const { return lines_; }
  const std::vector<double>& seen() const { return seen_; }

  // Writes the raw logs (logs_dir/LABEL.jsonl as printed, .seen, .origins.jsonl, .stderr)
  // and records, in `result`, the paths, the observations from the log relative to
  // `reference` (unix seconds) and any line that is not a request.
  void record(CaseResult& result, double reference, RequestClock clock);
  // The case keeps the suite's start gate from its opening until its client has started
  // (release_start_gate, or when the case ends).
  void hold_start_gate(std::shared_ptr<ClientSuite::StartGate> gate) { gate_ = std::move(gate); }
  void release_start_gate() {
    if (gate_) gate_->release();
    gate_.reset();
  }

  // The tail of the client's stderr, for a case that could not be measured.
  std::string stderr_tail() const { return log_tail(stderr_path_); }

 private:
  ClientCase() = default;
  void read_output();

  std::string label_;
  std::string dir_;
  std::string logs_dir_;
  std::unique_ptr<NetNamespace> ns_;
  std::unique_ptr<NetNamespace::Entered> entered_;
  std::unique_ptr<AuthorityProcess> authority_;
  std::unique_ptr<ZoneServer> zone_server_;
  std::unique_ptr<ResolverInstance> resolver_;
  std::vector<std::unique_ptr<Origin>> origins_;
  ChildProcess client_;
  bool client_started_ = false;
  std::string stdout_path_;
  std::string stderr_path_;
  std::size_t read_offset_ = 0;
  std::string partial_;
  std::vector<std::string> lines_;
  std::vector<double> seen_;
  std::shared_ptr<ClientSuite::StartGate> gate_;
};

// Unix time now, in seconds.
double unix_now();
// The monotonic reading (base::monotonic_ns) that corresponds to unix time `unix_seconds`.
std::int64_t monotonic_at(double unix_seconds);
// The unix time of a monotonic reading.
double unix_at(std::int64_t monotonic_ns);

}  // namespace cutover::lab
