// ResolvingProbe: the probe of a hostname endpoint (docs/pools.md, "Hostname endpoints").
// Before each run the endpoint's name is resolved (A and AAAA, through the check's
// `resolver:` servers or /etc/resolv.conf, answers cached for their TTL), and the wrapped
// probe runs against its addresses, IPv4 first, each in answer order: the first that passes
// makes the run pass, and no further address is tried once the check's timeout is spent. A
// name that does not resolve (NXDOMAIN, no address) is a failed run, so an endpoint whose
// target vanishes goes down like one that stops answering; a resolver that does not answer
// makes the run an error (unknown: the endpoint keeps serving). One per checker thread, as
// every Probe.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "client/resolv_conf.h"
#include "client/stub_resolver.h"
#include "health/probe.h"

namespace cutover::health {

class ResolvingProbe : public Probe {
 public:
  // At most this many addresses of one name are probed in one run.
  static constexpr std::size_t kMaxAddresses = 4;

  // `budget`: the check's timeout; an address is tried only while less than that has passed.
  ResolvingProbe(std::unique_ptr<Probe> inner, client::ResolverConfig config, const base::Clock& clock,
                 std::chrono::milliseconds budget);

  // `target.host` is the name; `target.port` the port to probe at each address.
  ProbeResult run(const Target& target) override;

 private:
  std::unique_ptr<Probe> inner_;
  client::StubResolver resolver_;
  std::chrono::milliseconds budget_;
};

// The resolver a hostname endpoint's check uses: `servers` ("ADDRESS:PORT" or "[v6]:PORT",
// validated by the config) when given, else /etc/resolv.conf's nameservers (127.0.0.1:53 when
// it cannot be read); one try per server, each waiting at most the check's timeout.
base::Result<client::ResolverConfig> target_resolver(const std::vector<std::string>& servers,
                                                     std::chrono::milliseconds timeout);

}  // namespace cutover::health
