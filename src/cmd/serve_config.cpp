// Merging the config file with the serve command line.
#include "cmd/serve_config.h"

#include "control/control_server.h"

namespace cutover::cmd {
namespace {

constexpr const char* kCommandLine = "command line";

config::ZoneConfig zone_from_argument(const std::string& argument) {
  auto equals = argument.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == argument.size()) {
    throw config::ConfigError(std::string(kCommandLine) + ": --zone " + argument + ": expected ORIGIN=FILE");
  }
  std::string origin = argument.substr(0, equals);
  if (origin.back() != '.') origin.push_back('.');
  auto name = dns::Name::from_text(origin);
  if (!name) {
    throw config::ConfigError(std::string(kCommandLine) + ": --zone " + argument + ": " + name.error().message);
  }
  config::ZoneConfig zone;
  zone.origin = *name;
  zone.file = argument.substr(equals + 1);
  return zone;
}

// The embedded default's health-checked failover pool over two demo HTTP endpoints that
// `cutover serve` starts itself (app/demo_endpoints.h): 127.0.0.11 answers while healthy,
// 127.0.0.12 after. Appended to the embedded config, so errors name "<embedded>".
constexpr const char* kDemoPoolYaml = R"(
pools:
  app:
    name: app.example.test
    shape: failover
    check: {type: http, path: /health, body-contains: ok, interval: 1s, timeout: 500ms, fall: 2, rise: 2}
    endpoints:
      - {address: 127.0.0.11, port: 5380, priority: 1}
      - {address: 127.0.0.12, port: 5380, priority: 2}
)";

}  // namespace

bool serves_embedded_default(const ServeOptions& options) { return options.config.empty() && options.zones.empty(); }

config::Config resolve_serve_config(const ServeOptions& options) {
  config::Config config;
  if (!options.config.empty()) {
    config = config::load_config_file(options.config);
  } else if (serves_embedded_default(options)) {
    config = config::embedded_default_config(kDemoPoolYaml);
  } else {
    config = config::parse_config("{}", kCommandLine, ".");
  }

  if (!options.listen.empty()) {
    config.listen.clear();
    for (const auto& text : options.listen) {
      auto address = net::parse_socket_address(text);
      if (!address) throw config::ConfigError(std::string(kCommandLine) + ": --listen: " + address.error().message);
      config.listen.push_back({text, *address});
    }
  }
  for (const auto& argument : options.zones) {
    config::ZoneConfig zone = zone_from_argument(argument);
    for (const auto& existing : config.zones) {
      if (existing.origin == zone.origin) {
        throw config::ConfigError(std::string(kCommandLine) + ": --zone " + argument + ": zone " +
                                  zone.origin.to_text() + " is already configured");
      }
    }
    config.zones.push_back(std::move(zone));
  }
  if (config.zones.empty()) throw config::ConfigError(config.source + ": no zones configured");
  if (options.threads > 0) config.threads = options.threads;
  if (!options.log_level.empty() && !base::parse_log_level(options.log_level, config.log.level)) {
    throw config::ConfigError(std::string(kCommandLine) + ": --log-level: expected debug, info, warn or error");
  }
  if (options.query_log) config.log.queries = true;
  if (!options.control.empty()) {
    auto control = config::parse_control_listen(options.control);
    if (!control) throw config::ConfigError(std::string(kCommandLine) + ": --control: " + control.error().message);
    control->token = config.control.token;
    if (control->token.empty() && !control::is_loopback_address(control->host)) {
      throw config::ConfigError(std::string(kCommandLine) + ": --control: a non-loopback address needs a token in the config");
    }
    config.control = *control;
  }
  return config;
}

}  // namespace cutover::cmd
