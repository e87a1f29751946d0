// The built-in client profiles. Every figure is copied from the table in docs/tools.md, "cutover calc" (measured, one
// laptop, emulated linux/amd64, two runs that agree); the cache lifetime is the one the text
// derives for the worst case: a change landing just after the client's own lookup.
#include "tools/calc/client_profiles.h"

#include <array>
#include <limits>

#include <fmt/format.h>

namespace cutover::tools {
namespace {

constexpr std::string_view kTable61 = "DNS in Production (CC BY 4.0), Table 6.1 and §6.5, measured (M)";

const std::array<ClientProfile, 9> kProfiles = {{
    {"openjdk21-default", "OpenJDK 21.0.13, HttpURLConnection", "default (no networkaddress.cache.ttl)", 30.0,
     "new address 26.66 s after a change 3.58 s after the first lookup: 30 s from that lookup", kTable61},
    {"openjdk21-ttl0", "OpenJDK 21.0.13", "networkaddress.cache.ttl=0", 0.0, "switched 1.68 s after the change (TTL 2 s)",
     kTable61},
    {"openjdk21-ttl5", "OpenJDK 21.0.13", "networkaddress.cache.ttl=5", 5.0,
     "switched 1.38 s after the change, 5 s from its first lookup", kTable61},
    {"openjdk21-forever", "OpenJDK 21.0.13", "networkaddress.cache.ttl=-1", std::nullopt,
     "no switch within the 45 s run (last old request 40.47 s after the change)", kTable61},
    {"curl-long-lived", "curl 7.88.1, one long-lived process", "default 60 s DNS cache", 60.0,
     "kept the old address until 55.66 s after the change (expected 56.4 s)", kTable61},
    {"curl-per-process", "curl 7.88.1, new process per request", "default", 0.0,
     "switched 1.76 s after the change (record TTL 2 s): no cache of its own", kTable61},
    {"python312-glibc", "Python 3.12.16, urllib, glibc 2.36", "default, no cache of its own", 0.0,
     "switched 2.45 s after the change (record TTL 2 s)", kTable61},
    {"go123-pure", "Go 1.23.12, pure Go resolver", "default", 0.0, "switched 1.96 s after the change (record TTL 2 s)",
     kTable61},
    {"go123-cgo", "Go 1.23.12, cgo resolver", "default", 0.0, "switched 1.96 s after the change (record TTL 2 s)",
     kTable61},
}};

}  // namespace

std::span<const ClientProfile> client_profiles() { return kProfiles; }

const ClientProfile* find_client_profile(std::string_view name) {
  for (const auto& profile : kProfiles) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

std::optional<ClientTerms> find_client_terms(std::string_view name, std::span<const MeasuredClient> measured) {
  constexpr double kUnbounded = std::numeric_limits<double>::infinity();
  for (const auto& client : measured) {
    if (client.id != name) continue;
    ClientTerms terms;
    terms.name = client.id;
    terms.cache = client.cache_seconds.value_or(kUnbounded);
    if (client.reuse_measured) terms.reuse = client.reuse_seconds.value_or(kUnbounded);
    terms.basis = fmt::format("{} {} ({}): {}", client.runtime, client.version, client.setting, client.cache_basis);
    if (client.reuse_measured) terms.basis += "; " + client.reuse_basis;
    terms.source = client.source;
    terms.measured_here = true;
    return terms;
  }
  if (const auto* profile = find_client_profile(name)) {
    ClientTerms terms;
    terms.name = std::string(profile->name);
    terms.cache = profile->cache_seconds.value_or(kUnbounded);
    terms.basis = fmt::format("{} ({}): {}", profile->runtime, profile->setting, profile->measured);
    terms.source = std::string(profile->source);
    return terms;
  }
  return std::nullopt;
}

std::string client_terms_source(std::span<const MeasuredClient> measured) {
  if (!measured.empty()) return "client terms from the lab run " + measured.front().source;
  return "client terms from the paper (" + std::string(kTable61) +
         "); measure them on this machine with cutover lab run --clients and pass --lab-results";
}

}  // namespace cutover::tools
