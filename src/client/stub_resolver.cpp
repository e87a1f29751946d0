// Search-list expansion, cache-or-network lookups of both families, and the trace lines.
#include "client/stub_resolver.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <future>

#include <fmt/format.h>

#include "client/query.h"

namespace cutover::client {
namespace {

using base::ErrorCode;
using base::make_error;

double seconds(std::chrono::nanoseconds span) { return static_cast<double>(span.count()) / 1e9; }

// What the network said for one (name, type): an answer read from a response, or why none.
struct NetworkAnswer {
  ReadAnswer read;
  std::string server;
  std::chrono::microseconds round_trip{0};
  std::string failure;  // set when no server gave a usable response
};

// resolv.conf(5): `attempts` rounds over the nameservers, `timeout` per try. SERVFAIL,
// REFUSED and the like move on to the next server; NOERROR and NXDOMAIN end the search.
NetworkAnswer ask(const ResolverConfig& config, const dns::Name& name, dns::RRType type) {
  NetworkAnswer outcome;
  QueryOptions options;
  options.timeout = config.timeout;
  options.tries = 1;
  options.recursion_desired = true;
  std::vector<std::string> failures;
  for (int attempt = 0; attempt < config.attempts; ++attempt) {
    for (const auto& server : config.nameservers) {
      std::string server_text = net::format_address(server.storage);
      auto reply = query(server, name, type, options);
      if (!reply) {
        failures.push_back(reply.error().message);
        continue;
      }
      auto rcode = static_cast<dns::Rcode>(reply->response.header.rcode);
      if (rcode != dns::Rcode::kNoError && rcode != dns::Rcode::kNxDomain) {
        failures.push_back(fmt::format("{}: {}", server_text, dns::rcode_to_text(rcode)));
        continue;
      }
      outcome.read = read_answer(name, type, reply->response);
      outcome.server = server_text;
      outcome.round_trip = reply->round_trip;
      return outcome;
    }
  }
  outcome.failure = failures.empty() ? "no nameserver" : failures.back();
  if (failures.size() > 1) outcome.failure += fmt::format(" (and {} more failed tries)", failures.size() - 1);
  return outcome;
}

std::string describe(const CachedAnswer& answer) {
  if (answer.kind == AnswerKind::kAddresses) {
    std::string text = fmt::format("{} ttl {} s", format_hosts(answer.addresses), answer.ttl);
    if (!(answer.canonical == answer.name)) text += fmt::format(" (via CNAME {})", answer.canonical.to_text());
    return text;
  }
  return fmt::format("{}, negative ttl {} s (RFC 2308: min of SOA TTL and MINIMUM)", answer_kind_text(answer.kind),
                     answer.negative_ttl);
}

}  // namespace

std::string format_host(const net::SocketAddress& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.family() == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address.storage).sin_addr, text, sizeof(text));
  } else if (address.family() == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address.storage).sin6_addr, text, sizeof(text));
  }
  return text;
}

std::string format_hosts(const std::vector<net::SocketAddress>& addresses) {
  std::string text;
  for (const auto& address : addresses) text += (text.empty() ? "" : ", ") + format_host(address);
  return text.empty() ? "(none)" : text;
}

std::vector<net::SocketAddress> Resolution::addresses(std::uint16_t port, int family) const {
  std::vector<net::SocketAddress> out;
  const FamilyLookup& lookup = family == AF_INET6 ? aaaa : a;
  if (!lookup.answer) return out;
  for (const auto& address : lookup.answer->addresses) out.push_back(address.with_port(port));
  return out;
}

std::pair<std::uint64_t, std::uint64_t> Resolution::generations() const {
  return {aaaa.answer ? aaaa.answer->generation : 0, a.answer ? a.answer->generation : 0};
}

base::Result<std::vector<dns::Name>> search_candidates(std::string_view host, const ResolverConfig& config) {
  if (host.empty()) return make_error(ErrorCode::kInvalidArgument, "empty host name");
  bool absolute = host.back() == '.';
  std::string as_is(host);
  if (!absolute) as_is += '.';
  auto name = dns::Name::from_text(as_is);
  if (!name) return make_error(ErrorCode::kInvalidArgument, fmt::format("'{}' is not a host name: {}", host, name.error().message));
  if (absolute) return std::vector<dns::Name>{*name};
  auto dots = static_cast<int>(std::count(host.begin(), host.end(), '.'));
  std::vector<dns::Name> with_suffixes;
  for (const auto& suffix : config.search) {
    std::string joined = std::string(host) + "." + suffix.to_text();
    if (auto candidate = dns::Name::from_text(joined)) with_suffixes.push_back(*candidate);  // too long: skipped
  }
  std::vector<dns::Name> out;
  if (dots >= config.ndots) out.push_back(*name);
  out.insert(out.end(), with_suffixes.begin(), with_suffixes.end());
  if (dots < config.ndots) out.push_back(*name);
  return out;
}

StubResolver::StubResolver(ResolverConfig config, const base::Clock& clock, TraceSink trace)
    : config_(std::move(config)), clock_(clock), cache_(clock), trace_(std::move(trace)) {}

void StubResolver::lookup(const dns::Name& name, FamilyLookup& aaaa, FamilyLookup& a) {
  FamilyLookup* families[] = {&aaaa, &a};
  std::future<NetworkAnswer> pending[2];
  for (int i = 0; i < 2; ++i) {
    FamilyLookup& family = *families[i];
    std::string type_text = dns::type_to_text(family.type);
    if (auto hit = cache_.find(name, family.type)) {
      family.answer = hit->answer;
      family.from_cache = true;
      family.remaining = hit->remaining;
      note(fmt::format("cache hit {} {}: {}, {:.3f} s left", name.to_text(), type_text, describe(hit->answer),
                       seconds(hit->remaining)));
      continue;
    }
    note(fmt::format("cache miss {} {}: asking {}", name.to_text(), type_text,
                     net::format_address(config_.nameservers.front().storage)));
    // RFC 8305 §3: both queries go out at once.
    pending[i] = std::async(std::launch::async, [this, name, type = family.type] { return ask(config_, name, type); });
  }
  for (int i = 0; i < 2; ++i) {
    if (!pending[i].valid()) continue;
    FamilyLookup& family = *families[i];
    std::string type_text = dns::type_to_text(family.type);
    NetworkAnswer reply = pending[i].get();
    if (!reply.failure.empty()) {
      family.failure = reply.failure;
      note(fmt::format("lookup {} {} failed: {}", name.to_text(), type_text, reply.failure));
      continue;
    }
    if (!reply.read.answer) {
      family.failure = fmt::format("{} from {}", reply.read.reason, reply.server);
      note(fmt::format("answer {} {} from {} not cached: {}", name.to_text(), type_text, reply.server,
                       reply.read.reason));
      continue;
    }
    const CachedAnswer& stored = cache_.store(std::move(*reply.read.answer));
    family.answer = stored;
    family.remaining = stored.expires_at - stored.stored_at;
    note(fmt::format("answer {} {} from {} in {:.1f} ms: {}; cached for {:.3f} s", name.to_text(), type_text,
                     reply.server, static_cast<double>(reply.round_trip.count()) / 1000.0, describe(stored),
                     seconds(family.remaining)));
  }
}

Resolution StubResolver::resolve(std::string_view host) {
  Resolution resolution;
  resolution.host = std::string(host);
  auto candidates = search_candidates(host, config_);
  if (!candidates) {
    resolution.error = candidates.error().message;
    return resolution;
  }
  std::string first_problem;
  for (const auto& name : *candidates) {
    FamilyLookup aaaa{dns::RRType::AAAA};
    FamilyLookup a{dns::RRType::A};
    lookup(name, aaaa, a);
    bool has_addresses = (aaaa.answer && aaaa.answer->kind == AnswerKind::kAddresses) ||
                         (a.answer && a.answer->kind == AnswerKind::kAddresses);
    resolution.aaaa = aaaa;
    resolution.a = a;
    if (has_addresses) {
      resolution.name = name;
      return resolution;
    }
    // Like glibc's res_search, an NXDOMAIN moves on quietly; NODATA and failures move on too
    // but are what gets reported if no candidate answers.
    std::string problem;
    for (const FamilyLookup* family : {&a, &aaaa}) {
      if (!family->failure.empty()) {
        problem = fmt::format("{} {}: {}", name.to_text(), dns::type_to_text(family->type), family->failure);
        break;
      }
    }
    if (problem.empty() && a.answer) problem = fmt::format("{} {}", name.to_text(), answer_kind_text(a.answer->kind));
    bool nxdomain = a.answer && a.answer->kind == AnswerKind::kNxDomain;
    if (first_problem.empty() || (!nxdomain && first_problem.find("NXDOMAIN") != std::string::npos)) {
      first_problem = problem;
    }
  }
  resolution.error = first_problem;
  if (candidates->size() > 1) resolution.error += fmt::format(" ({} names tried)", candidates->size());
  return resolution;
}

}  // namespace cutover::client
