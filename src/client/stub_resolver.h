// The reference client's stub resolver: A and AAAA for one host through the nameservers of a
// ResolverConfig (resolv.conf), the search list and ndots as resolv.conf(5) describes them,
// answered from its DnsCache while entries live. resolve() blocks (both families are asked
// in parallel); one StubResolver is used from one thread at a time.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "client/dns_cache.h"
#include "client/resolv_conf.h"

namespace cutover::client {

// One line of the --trace output, without its timestamp; may be empty (no tracing).
using TraceSink = std::function<void(const std::string&)>;

// The outcome for one family of one candidate name.
struct FamilyLookup {
  FamilyLookup() = default;
  explicit FamilyLookup(dns::RRType asked) : type(asked) {}

  dns::RRType type = dns::RRType::A;
  std::optional<CachedAnswer> answer;   // nullopt: the lookup failed (see `failure`)
  bool from_cache = false;
  std::chrono::nanoseconds remaining{0};  // of the entry's lifetime when it was read
  std::string failure;                    // no answer: timeouts, SERVFAIL, malformed replies
};

struct Resolution {
  std::string host;
  std::optional<dns::Name> name;  // the candidate that gave addresses
  FamilyLookup aaaa{dns::RRType::AAAA};
  FamilyLookup a{dns::RRType::A};
  std::string error;  // when neither family gave addresses: why, for people

  bool ok() const { return name.has_value(); }
  // AAAA then A addresses (each family in answer order), with `port` set.
  std::vector<net::SocketAddress> addresses(std::uint16_t port, int family) const;
  // The generation of each family's entry (0 when it has none): changes when either entry
  // is refreshed from the network.
  std::pair<std::uint64_t, std::uint64_t> generations() const;
};

// The names tried for `host`, in order (resolv.conf(5), "search" and "ndots"): a name with a
// trailing dot as it is; one with at least `ndots` dots first as it is, then with each
// suffix; a shorter one with each suffix first, then as it is. Fails when `host` is not a
// valid name.
base::Result<std::vector<dns::Name>> search_candidates(std::string_view host, const ResolverConfig& config);

class StubResolver {
 public:
  // `clock` must outlive the resolver; `trace` receives one line per cache hit, miss,
  // query and answer.
  StubResolver(ResolverConfig config, const base::Clock& clock, TraceSink trace = {});

  Resolution resolve(std::string_view host);

  const ResolverConfig& config() const { return config_; }
  const DnsCache& cache() const { return cache_; }

 private:
  // Fills both families of `name` from the cache or the network.
  void lookup(const dns::Name& name, FamilyLookup& aaaa, FamilyLookup& a);
  void note(const std::string& line) const {
    if (trace_) trace_(line);
  }

  ResolverConfig config_;
  const base::Clock& clock_;
  DnsCache cache_;
  TraceSink trace_;
};

// "127.0.0.2, 127.0.0.3" (addresses without ports).
std::string format_hosts(const std::vector<net::SocketAddress>& addresses);
// The address alone, "127.0.0.2" or "::1".
std::string format_host(const net::SocketAddress& address);

}  // namespace cutover::client
