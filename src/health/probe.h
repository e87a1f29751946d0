// Probes: one check of one endpoint, reporting raw pass/fail with timing and a precise
// reason. Probe types are plugins registered from one explicit list
// (register_builtin_probes). A Probe is used by one checker thread at a time; the
// registry is read-only once filled, so concurrent create() calls are safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "dns/name.h"
#include "health/check_settings.h"
#include "health/probe_options.h"
#include "net/address.h"

namespace cutover::health {

// What a probe tests: one endpoint of one pool.
struct Target {
  std::string pool;
  std::string address;  // numeric IPv4 or IPv6, as configured: the address probed
  // The endpoint's own (answered) address; differs from `address` under check-address.
  // Empty: the same as `address`.
  std::string endpoint;
  std::uint16_t port = 0;
  net::SocketAddress socket;  // address and port, ready for connect()
  // A hostname endpoint probed at what its name resolves to (no check-address): the name;
  // ResolvingProbe fills `address` and `socket` before each run. Empty otherwise.
  std::string host;
  dns::Name pool_name;        // the pool's DNS name (default question of the dns probe)
};

enum class ProbeOutcome {
  kPass,
  kFail,   // the endpoint answered wrongly or not at all
  kError,  // the probe could not run (no socket, no fork): says nothing about the endpoint
};

const char* outcome_to_text(ProbeOutcome outcome);

struct ProbeResult {
  ProbeOutcome outcome = ProbeOutcome::kError;
  std::chrono::microseconds latency{0};
  std::string detail;                   // why it failed, or what passed ("HTTP 200")
  std::optional<int> cert_days_left;    // https: days until the certificate expires
};

class Probe {
 public:
  virtual ~Probe() = default;
  // Blocking; returns within the configured timeout plus a few milliseconds.
  virtual ProbeResult run(const Target& target) = 0;
};

using ProbeFactory = std::function<base::Result<std::unique_ptr<Probe>>(const CheckSettings& settings)>;
// A problem of a complete check (after inheritance), e.g. "an exec check needs a command".
using CheckProblem = std::function<std::optional<std::string>(const CheckSettings& settings)>;

// One probe type: everything the config, the API and the monitor need to know about it.
struct ProbeType {
  std::string name{};
  std::uint16_t default_port = 0;  // used when neither the endpoint nor the check names one (0: none)
  bool needs_port = true;          // false: the probe runs without one (exec)
  // Empty: the type may be set through the API. Else what its checks do that only the
  // config file may ask for, e.g. "run commands on the server".
  std::string config_file_only{};
  std::vector<std::string> option_keys{};  // its own keys of a check mapping
  OptionsParserFactory options{};        // reads option_keys; null when there are none
  CheckProblem problem{};                // may be null
  ProbeFactory create{};
};

class SignalBoard;

class ProbeRegistry {
 public:
  ProbeRegistry();

  void add(ProbeType type);
  bool knows(const std::string& type) const { return types_.count(type) != 0; }
  const ProbeType* find(const std::string& type) const;
  std::vector<std::string> types() const;
  // The types that declare `key` among their options, in name order.
  std::vector<std::string> types_with_option(const std::string& key) const;
  // Every type's option keys, each once, in registration order.
  std::vector<std::string> option_keys() const;
  std::uint16_t default_port(const std::string& type) const;
  base::Result<std::unique_ptr<Probe>> create(const CheckSettings& settings) const;
  // The pushed signals that this registry's `signal` checks read (signal/signal_board.h); the
  // control API writes them (PUT /signals/NAME). Never null.
  const std::shared_ptr<SignalBoard>& signals() const { return signals_; }

 private:
  std::shared_ptr<SignalBoard> signals_;
  std::map<std::string, ProbeType> types_;
  std::vector<std::string> order_;  // registration order
};

// The probe types cutover ships, from the one table in probe_registry.cpp.
void register_builtin_probes(ProbeRegistry& registry);

// Measures from construction; used by every probe for its latency.
class ProbeTimer {
 public:
  ProbeTimer() : start_(std::chrono::steady_clock::now()) {}
  std::chrono::microseconds elapsed() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_);
  }
  ProbeResult finish(ProbeOutcome outcome, std::string detail) const {
    return ProbeResult{outcome, elapsed(), std::move(detail), std::nullopt};
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cutover::health
