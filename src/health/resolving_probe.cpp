// Hostname endpoints: resolve, then probe the addresses until one passes.
#include "health/resolving_probe.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cutover::health {
namespace {

std::chrono::microseconds since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
}

}  // namespace

ResolvingProbe::ResolvingProbe(std::unique_ptr<Probe> inner, client::ResolverConfig config, const base::Clock& clock,
                               std::chrono::milliseconds budget)
    : inner_(std::move(inner)), resolver_(std::move(config), clock), budget_(budget) {}

ProbeResult ResolvingProbe::run(const Target& target) {
  auto started = std::chrono::steady_clock::now();
  client::Resolution resolution = resolver_.resolve(target.host);
  std::vector<net::SocketAddress> addresses = resolution.addresses(target.port, AF_INET);
  for (const auto& v6 : resolution.addresses(target.port, AF_INET6)) addresses.push_back(v6);
  if (addresses.empty()) {
    // Both families answered and hold no address (NXDOMAIN, NODATA): the target is gone, a
    // failure. A family not answered (no reply, SERVFAIL, a malformed reply) says nothing
    // about the target: an error, which leaves the endpoint unknown and serving, so a lost
    // resolver never empties an answer.
    bool answered = resolution.a.answer.has_value() && resolution.aaaa.answer.has_value();
    ProbeResult failed;
    failed.outcome = answered ? ProbeOutcome::kFail : ProbeOutcome::kError;
    failed.latency = since(started);
    std::string why = resolution.error.empty() ? "no A or AAAA records" : resolution.error;
    failed.detail = answered ? fmt::format("{} does not resolve: {}", target.host, why)
                             : fmt::format("cannot resolve {}: {}", target.host, why);
    return failed;
  }
  if (addresses.size() > kMaxAddresses) addresses.resize(kMaxAddresses);
  ProbeResult last;
  bool any_failed = false;  // an address that answered wrongly, not only probes that could not run
  std::vector<std::string> failed;
  for (const auto& socket : addresses) {
    if (!failed.empty() && since(started) >= budget_) break;  // the first address is always tried
    Target resolved = target;
    resolved.socket = socket;
    resolved.address = net::format_host(socket.storage);  // as probes and signals expect it
    last = inner_->run(resolved);
    if (last.outcome == ProbeOutcome::kPass) {
      last.detail += fmt::format(" (at {})", resolved.address);
      return last;
    }
    any_failed = any_failed || last.outcome == ProbeOutcome::kFail;
    failed.push_back(fmt::format("{}: {}", resolved.address, last.detail));
  }
  // No address passed: a failure when one failed, else (every probe an error) an error.
  if (any_failed) last.outcome = ProbeOutcome::kFail;
  last.latency = since(started);
  last.detail = fmt::format("{}", fmt::join(failed, "; "));
  if (failed.size() < addresses.size()) {
    last.detail += fmt::format("; {} more not tried within the {} ms timeout", addresses.size() - failed.size(),
                               budget_.count());
  }
  return last;
}

base::Result<client::ResolverConfig> target_resolver(const std::vector<std::string>& servers,
                                                     std::chrono::milliseconds timeout) {
  client::ResolverConfig config;
  if (servers.empty()) {
    auto system = client::read_resolv_conf("/etc/resolv.conf");
    if (system) config = *system;
  } else {
    for (const auto& server : servers) {
      auto address = net::parse_socket_address(server);
      if (!address) return address.error();
      config.nameservers.push_back(*address);
    }
    config.source = "resolver:";
  }
  if (config.nameservers.empty()) {
    auto local = net::parse_socket_address("127.0.0.1:53");
    if (local) config.nameservers.push_back(*local);
  }
  config.search.clear();  // targets are absolute names
  config.timeout = timeout;
  config.attempts = 1;
  return config;
}

}  // namespace cutover::health
