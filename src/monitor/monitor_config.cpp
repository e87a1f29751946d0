// monitor.yaml through config::YamlReader: every mapping checked against its keys, every
// value against its type, and the checks across keys (a watch list, somewhere to ask).
#include "monitor/monitor_config.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "client/query.h"
#include "config/yaml_reader.h"

namespace cutover::monitor {
namespace {

using config::ConfigError;

class MonitorReader : public config::YamlReader {
 public:
  using YamlReader::YamlReader;

  MonitorConfig read(const YAML::Node& root, bool watches_optional) const {
    MonitorConfig config;
    if (root.IsNull() && watches_optional) return config;
    if (root.IsNull()) fail(root.Mark(), "(document)", "empty document: at least `watch:` is needed");
    YAML::Node watch_node;
    each_entry(root, "",
               {"watch", "authoritatives", "auth-port", "resolvers", "interval", "timeout", "tries", "metrics",
                "metrics-token", "alerts", "webhook"},
               [&](const std::string& key, const YAML::Node& value, const std::string& path) {
                 if (key == "watch") watch_node = value;
                 if (key == "authoritatives") config.authoritatives = servers(value, path, 53);
                 if (key == "auth-port") config.auth_port = static_cast<std::uint16_t>(number(value, path, 1, 65535));
                 if (key == "resolvers") config.resolvers = servers(value, path, 53);
                 if (key == "interval") config.interval = duration(value, path);
                 if (key == "timeout") config.timeout = duration(value, path);
                 if (key == "tries") config.tries = static_cast<int>(number(value, path, 1, 10));
                 if (key == "metrics") metrics(value, path, config);
                 if (key == "metrics-token") config.metrics_token = scalar(value, path);
                 if (key == "alerts") alerts(value, path, config.alerts);
                 if (key == "webhook") config.webhook = webhook(value, path);
               });
    if ((!watch_node || watch_node.IsNull()) && !watches_optional) {
      fail(root.Mark(), "watch", "missing: list the names to watch");
    }
    if (watch_node && !watch_node.IsNull() && (!watch_node.IsSequence() || watch_node.size() == 0)) {
      fail(watch_node.Mark(), "watch", "expected a non-empty list of {name, type} entries");
    }
    for (std::size_t i = 0; watch_node && i < watch_node.size(); ++i) {
      config.watches.push_back(watch(watch_node[i], fmt::format("watch[{}]", i)));
    }
    if (config.resolvers.empty()) {
      for (std::size_t i = 0; i < config.watches.size(); ++i) {
        if (config.authoritatives.empty() && config.watches[i].authoritatives.empty()) {
          fail(watch_node[i].Mark(), fmt::format("watch[{}]", i),
               "no authoritatives listed and no resolvers to find the NS set through");
        }
      }
    }
    if (!config.metrics_token.empty() || net::is_loopback_address(config.metrics_host)) return config;
    fail(root.Mark(), "metrics", "a metrics listener on a non-loopback address needs metrics-token");
  }

 private:
  std::vector<net::SocketAddress> servers(const YAML::Node& node, const std::string& path,
                                          std::uint16_t default_port) const {
    if (!node.IsSequence()) fail(node.Mark(), path, "expected a list of ADDR[:PORT]");
    std::vector<net::SocketAddress> out;
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", path, i);
      auto server = client::parse_server(scalar(node[i], item_path), default_port);
      if (!server) fail(node[i].Mark(), item_path, server.error().message);
      out.push_back(*server);
    }
    return out;
  }

  void metrics(const YAML::Node& node, const std::string& path, MonitorConfig& config) const {
    auto listen = config::parse_control_listen(scalar(node, path));
    if (!listen) fail(node.Mark(), path, "expected ADDRESS:PORT: " + listen.error().message);
    config.metrics_host = listen->host;
    config.metrics_port = listen->port;
  }

  // A duration that may be zero ("0s": at once).
  std::chrono::milliseconds hold(const YAML::Node& node, const std::string& path) const {
    auto value = config::parse_duration(scalar(node, path));
    if (!value) fail(node.Mark(), path, "expected a duration like 0s, 30s or 2m");
    return *value;
  }

  void alerts(const YAML::Node& node, const std::string& path, AlertRules& rules) const {
    each_entry(node, path, {"mismatch", "nxdomain", "authoritative-silent", "plan-window"},
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 AlertRule& rule = key == "mismatch"   ? rules.mismatch
                                   : key == "nxdomain" ? rules.nxdomain
                                   : key == "plan-window" ? rules.plan_window
                                                       : rules.authoritative_silent;
                 each_entry(value, key_path, {"enabled", "for"},
                            [&](const std::string& field, const YAML::Node& item, const std::string& field_path) {
                              if (field == "enabled") rule.enabled = boolean(item, field_path);
                              if (field == "for") rule.hold = hold(item, field_path);
                            });
               });
  }

  WebhookConfig webhook(const YAML::Node& node, const std::string& path) const {
    WebhookConfig hook;
    bool has_url = false;
    each_entry(node, path, {"url", "retries", "backoff", "timeout"},
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "url") {
                   parse_url(value, key_path, hook);
                   has_url = true;
                 }
                 if (key == "retries") hook.retries = static_cast<int>(number(value, key_path, 0, 10));
                 if (key == "backoff") hook.backoff = duration(value, key_path);
                 if (key == "timeout") hook.timeout = duration(value, key_path);
               });
    if (!has_url) fail(node.Mark(), path + ".url", "missing");
    return hook;
  }

  // http://HOST[:PORT][/PATH]; HOST may be [V6]. Only plain HTTP: the webhook is meant for a
  // relay on the same host or network (docs/operations.md, "Monitor").
  void parse_url(const YAML::Node& node, const std::string& path, WebhookConfig& hook) const {
    std::string url = scalar(node, path);
    const std::string scheme = "http://";
    if (url.rfind(scheme, 0) != 0) fail(node.Mark(), path, "expected http://HOST[:PORT]/PATH (https is not supported)");
    std::string rest = url.substr(scheme.size());
    std::size_t slash = rest.find('/');
    std::string authority = rest.substr(0, slash);
    hook.path = slash == std::string::npos ? "/" : rest.substr(slash);
    std::string port_text;
    if (!authority.empty() && authority.front() == '[') {
      std::size_t close = authority.find(']');
      if (close == std::string::npos) fail(node.Mark(), path, "unclosed [ in the host");
      hook.host = authority.substr(1, close - 1);
      if (close + 1 < authority.size()) {
        if (authority[close + 1] != ':') fail(node.Mark(), path, "expected :PORT after ]");
        port_text = authority.substr(close + 2);
      }
    } else {
      std::size_t colon = authority.rfind(':');
      hook.host = authority.substr(0, colon);
      if (colon != std::string::npos) port_text = authority.substr(colon + 1);
    }
    if (hook.host.empty()) fail(node.Mark(), path, "no host in the URL");
    if (!port_text.empty()) {
      int port = 0;
      for (char c : port_text) port = (c >= '0' && c <= '9' && port < 100000) ? port * 10 + (c - '0') : -1;
      if (port <= 0 || port > 65535) fail(node.Mark(), path, "the port must be a number from 1 to 65535");
      hook.port = static_cast<std::uint16_t>(port);
    }
    hook.url = url;
  }

  WatchSpec watch(const YAML::Node& node, const std::string& path) const {
    WatchSpec spec;
    bool has_name = false;
    std::string type_text = "A";
    YAML::Mark type_mark = node.Mark();
    each_entry(node, path, {"name", "type", "expect", "exists", "authoritatives"},
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "name") {
                   spec.name = name(value, key_path, nullptr);
                   has_name = true;
                 }
                 if (key == "type") {
                   type_text = scalar(value, key_path);
                   type_mark = value.Mark();
                 }
                 if (key == "expect") {
                   if (value.IsScalar()) {
                     spec.expect.push_back(value.Scalar());
                   } else if (value.IsSequence()) {
                     for (std::size_t i = 0; i < value.size(); ++i) {
                       spec.expect.push_back(scalar(value[i], fmt::format("{}[{}]", key_path, i)));
                     }
                   } else {
                     fail(value.Mark(), key_path, "expected rdata text or a list of them");
                   }
                 }
                 if (key == "exists") spec.exists = boolean(value, key_path);
                 if (key == "authoritatives") spec.authoritatives = servers(value, key_path, 53);
               });
    if (!node.IsMap()) fail(node.Mark(), path, "expected a mapping with name and type");
    if (!has_name) fail(node.Mark(), path + ".name", "missing");
    auto type = dns::type_from_text(type_text);
    if (!type) fail(type_mark, path + ".type", "unknown RR type '" + type_text + "'");
    spec.type = *type;
    if (!spec.exists && !spec.expect.empty()) {
      fail(node.Mark(), path + ".expect", "a name with exists: false has no answer to expect");
    }
    return spec;
  }
};

}  // namespace

MonitorConfig parse_monitor_config(std::string_view yaml, const std::string& label, bool watches_optional) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", label, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return MonitorReader(label, ".").read(root, watches_optional);
}

MonitorConfig read_monitor_config(const std::string& path, bool watches_optional) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("{}: cannot read the file", path));
  std::stringstream text;
  text << in.rdbuf();
  return parse_monitor_config(text.str(), path, watches_optional);
}

}  // namespace cutover::monitor
