// ProbeRegistry: probe types by name, and the one list of built-in types.
#include <fmt/format.h>

#include "health/dns/dns_probe.h"
#include "health/exec/exec_probe.h"
#include "health/http/http_probe.h"
#include "health/probe.h"
#include "health/tcp/tcp_probe.h"

namespace cutover::health {

const char* outcome_to_text(ProbeOutcome outcome) {
  switch (outcome) {
    case ProbeOutcome::kPass: return "pass";
    case ProbeOutcome::kFail: return "fail";
    case ProbeOutcome::kError: return "error";
  }
  return "error";
}

void ProbeRegistry::add(const std::string& type, std::uint16_t default_port, ProbeFactory factory) {
  entries_[type] = Entry{default_port, std::move(factory)};
}

std::vector<std::string> ProbeRegistry::types() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : entries_) names.push_back(name);
  return names;
}

std::uint16_t ProbeRegistry::default_port(const std::string& type) const {
  auto it = entries_.find(type);
  return it == entries_.end() ? 0 : it->second.default_port;
}

base::Result<std::unique_ptr<Probe>> ProbeRegistry::create(const CheckSettings& settings) const {
  auto it = entries_.find(settings.type);
  if (it == entries_.end()) {
    return base::make_error(base::ErrorCode::kNotFound, fmt::format("unknown probe type '{}'", settings.type));
  }
  return it->second.factory(settings);
}

void register_builtin_probes(ProbeRegistry& registry) {
  register_tcp_probe(registry);
  register_http_probes(registry);
  register_dns_probe(registry);
  register_exec_probe(registry);
}

}  // namespace cutover::health
