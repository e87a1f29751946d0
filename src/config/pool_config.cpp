// Reading of pools: pool keys, the check mapping (common keys plus the keys of its probe
// type, inherited by every endpoint and overridable per endpoint) and the endpoints.
#include "config/pool_config.h"

#include <arpa/inet.h>

#include <charconv>

#include "health/probe.h"
#include "pool/answer_builder.h"
#include "pool/policy.h"

namespace cutover::config {
namespace {

constexpr std::size_t kMaxFall = 100;
constexpr std::size_t kMaxBodyLimit = 16 * 1024 * 1024;
constexpr std::size_t kMaxPoolTtl = 86400;

bool is_numeric_address(const std::string& text) {
  in6_addr v6{};
  in_addr v4{};
  return ::inet_pton(AF_INET, text.c_str(), &v4) == 1 || ::inet_pton(AF_INET6, text.c_str(), &v6) == 1;
}

class PoolReader {
 public:
  explicit PoolReader(const YamlReader& reader) : reader_(reader) {
    health::register_builtin_probes(probes_);
    pool::register_builtin_policies(policies_);
  }

  pool::PoolSpec pool(const std::string& id, const YAML::Node& node, const std::string& path,
                      const Config& config) const {
    pool::PoolSpec spec;
    spec.name = id;
    bool has_name = false;
    bool has_check = false;
    bool has_endpoints = false;
    YAML::Node check_node;
    YAML::Node endpoints_node;
    YAML::Node serve_node;
    std::string check_path;
    std::string endpoints_path;
    reader_.each_entry(node, path,
                       {"name", "shape", "max-answers", "ttl", "when-all-down", "fallback", "suspicion-ttl",
                        "wait-for-first-check", "serve", "check", "endpoints"},
                       [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                         if (key == "name") {
                           spec.owner = reader_.name(value, key_path, nullptr);
                           has_name = true;
                         }
                         if (key == "shape") spec.shape = shape(value, key_path);
                         if (key == "max-answers") spec.max_answers = reader_.count(value, key_path, 64);
                         if (key == "ttl") spec.ttl = ttl(value, key_path);
                         if (key == "when-all-down") spec.when_all_down = all_down(value, key_path);
                         if (key == "fallback") spec.fallback = addresses(value, key_path);
                         if (key == "suspicion-ttl") spec.suspicion_ttl = reader_.boolean(value, key_path);
                         if (key == "wait-for-first-check") spec.wait_for_first_check = reader_.boolean(value, key_path);
                         if (key == "serve") {
                           spec.serve = serve_mode(value, key_path);
                           serve_node = value;
                         }
                         if (key == "check") {
                           has_check = true;
                           check_node = value;
                           check_path = key_path;
                         }
                         if (key == "endpoints") {
                           has_endpoints = true;
                           endpoints_node = value;
                           endpoints_path = key_path;
                         }
                       });
    if (!has_name) reader_.fail(node.Mark(), path, "missing required key 'name' (the DNS name the pool answers for)");
    bool inside = std::any_of(config.zones.begin(), config.zones.end(),
                              [&](const ZoneConfig& zone) { return spec.owner.is_subdomain_of(zone.origin); });
    if (!inside) reader_.fail(node["name"].Mark(), path + ".name", spec.owner.to_text() + " is outside every zone");
    if (has_check) spec.check = check(check_node, check_path, spec.check);
    if (!has_endpoints || !endpoints_node.IsSequence() || endpoints_node.size() == 0) {
      reader_.fail(has_endpoints ? endpoints_node.Mark() : node.Mark(), has_endpoints ? endpoints_path : path,
                   "expected a non-empty list of endpoints");
    }
    for (std::size_t i = 0; i < endpoints_node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", endpoints_path, i);
      pool::EndpointSpec endpoint = this->endpoint(endpoints_node[i], item_path, spec.check);
      for (const auto& other : spec.endpoints) {
        if (other.address == endpoint.address) {
          reader_.fail(endpoints_node[i].Mark(), item_path, "endpoint " + endpoint.address + " is listed twice");
        }
      }
      spec.endpoints.push_back(std::move(endpoint));
    }
    if (spec.when_all_down == pool::AllDownPolicy::kFallback && spec.fallback.empty()) {
      reader_.fail(node.Mark(), path, "when-all-down: fallback needs a 'fallback' list of addresses");
    }
    if (spec.serve == pool::ServeMode::kMaterialize) check_materialize(spec, serve_node, path + ".serve", config);
    return spec;
  }

 private:
  pool::ServeMode serve_mode(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (text == "per-query") return pool::ServeMode::kPerQuery;
    if (text == "materialize") return pool::ServeMode::kMaterialize;
    reader_.fail(node.Mark(), path, "expected per-query or materialize");
  }

  // Materialized answers are zone records written through the journaled write path, with
  // one TTL and one record set for every query.
  void check_materialize(const pool::PoolSpec& spec, const YAML::Node& node, const std::string& path,
                         const Config& config) const {
    if (config.writes.journal.empty()) {
      reader_.fail(node.Mark(), path, "materialize writes the pool's answer through the write path, which needs a "
                                      "journal (writes.journal)");
    }
    if (spec.shape == "weighted") {
      reader_.fail(node.Mark(), path, "a weighted pool draws per query and cannot be materialized (use failover or "
                                      "all-healthy)");
    }
    if (spec.suspicion_ttl) {
      reader_.fail(node.Mark(), path, "suspicion-ttl changes the TTL per query and cannot be materialized");
    }
  }

  std::string shape(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (!policies_.knows(text)) reader_.fail(node.Mark(), path, "unknown shape '" + text + "' (expected " + list(policies_.shapes()) + ")");
    return text;
  }

  std::uint32_t ttl(const YAML::Node& node, const std::string& path) const {
    auto value = parse_duration(reader_.scalar(node, path));
    if (!value || value->count() % 1000 != 0 || *value > std::chrono::seconds(kMaxPoolTtl)) {
      reader_.fail(node.Mark(), path, "expected whole seconds up to 1 day, like 60 or 60s");
    }
    return static_cast<std::uint32_t>(value->count() / 1000);
  }

  pool::AllDownPolicy all_down(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (text == "fail-open") return pool::AllDownPolicy::kFailOpen;
    if (text == "fallback") return pool::AllDownPolicy::kFallback;
    if (text == "nodata") return pool::AllDownPolicy::kNoData;
    reader_.fail(node.Mark(), path, "expected fail-open, fallback or nodata");
  }

  std::string address(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (!is_numeric_address(text)) reader_.fail(node.Mark(), path, "expected a numeric IPv4 or IPv6 address");
    return text;
  }

  std::vector<std::string> addresses(const YAML::Node& node, const std::string& path) const {
    if (!node.IsSequence()) reader_.fail(node.Mark(), path, "expected a list of addresses");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < node.size(); ++i) out.push_back(address(node[i], fmt::format("{}[{}]", path, i)));
    return out;
  }

  pool::EndpointSpec endpoint(const YAML::Node& node, const std::string& path, const health::CheckSettings& pool_check) const {
    pool::EndpointSpec endpoint;
    endpoint.check = pool_check;
    bool has_address = false;
    reader_.each_entry(node, path, {"address", "port", "priority", "weight", "check"},
                       [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                         if (key == "address") {
                           endpoint.address = address(value, key_path);
                           has_address = true;
                         }
                         if (key == "port") endpoint.port = static_cast<std::uint16_t>(reader_.count(value, key_path, 65535));
                         if (key == "priority") endpoint.priority = static_cast<int>(reader_.number(value, key_path, 0, 1000));
                         if (key == "weight") endpoint.weight = static_cast<std::uint32_t>(reader_.count(value, key_path, 1000000));
                         if (key == "check") endpoint.check = check(value, key_path, pool_check);
                       });
    if (!has_address) reader_.fail(node.Mark(), path, "missing required key 'address'");
    validate_check(endpoint, node, path);
    return endpoint;
  }

  void validate_check(const pool::EndpointSpec& endpoint, const YAML::Node& node, const std::string& path) const {
    const health::CheckSettings& check = endpoint.check;
    if (check.timeout > check.interval) {
      reader_.fail(node.Mark(), path, fmt::format("check timeout ({} ms) must not exceed its interval ({} ms)",
                                                 check.timeout.count(), check.interval.count()));
    }
    bool has_port = endpoint.port != 0 || check.port.has_value() || probes_.default_port(check.type) != 0;
    if (!has_port && check.type != "exec") {
      reader_.fail(node.Mark(), path, "a " + check.type + " check needs a port (on the endpoint or the check)");
    }
    if (check.type == "exec" && check.exec.command.empty()) reader_.fail(node.Mark(), path, "an exec check needs a command");
  }

  health::CheckSettings check(const YAML::Node& node, const std::string& path, health::CheckSettings base) const;
  std::vector<health::StatusRange> status_ranges(const YAML::Node& node, const std::string& path) const;
  dns::Rcode rcode(const YAML::Node& node, const std::string& path) const;

  std::string list(const std::vector<std::string>& words) const {
    std::string out;
    for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
    return out;
  }

  const YamlReader& reader_;
  health::ProbeRegistry probes_;
  pool::PolicyRegistry policies_;
};

health::CheckSettings PoolReader::check(const YAML::Node& node, const std::string& path,
                                        health::CheckSettings base) const {
  if (!node.IsMap()) reader_.fail(node.Mark(), path, "expected a mapping");
  if (node["type"]) {
    std::string type = reader_.scalar(node["type"], path + ".type");
    if (!probes_.knows(type)) {
      reader_.fail(node["type"].Mark(), path + ".type",
                   "unknown probe type '" + type + "' (expected one of: " + list(probes_.types()) + ")");
    }
    base.type = type;
  }
  const std::string& type = base.type;
  bool http = type == "http" || type == "https";
  auto only_for = [&](bool applies, const YAML::Node& value, const std::string& key_path, const char* types) {
    if (!applies) reader_.fail(value.Mark(), key_path, fmt::format("only for {} checks, this one is {}", types, type));
  };
  health::HttpCheck& h = base.http;
  health::DnsCheck& d = base.dns;
  reader_.each_entry(
      node, path,
      {"type", "interval", "timeout", "fall", "rise", "port", "method", "path", "host", "expect-status", "body-contains",
       "body-limit", "headers", "ca-file", "qname", "qtype", "rcode", "expect-answer", "tcp", "command"},
      [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
        if (key == "interval") base.interval = reader_.duration(value, key_path);
        if (key == "timeout") base.timeout = reader_.duration(value, key_path);
        if (key == "fall") base.fall = static_cast<int>(reader_.count(value, key_path, kMaxFall));
        if (key == "rise") base.rise = static_cast<int>(reader_.count(value, key_path, kMaxFall));
        if (key == "port") base.port = static_cast<std::uint16_t>(reader_.count(value, key_path, 65535));
        if (key == "method" || key == "path" || key == "host" || key == "expect-status" || key == "body-contains" ||
            key == "body-limit" || key == "headers" || key == "ca-file") {
          only_for(http, value, key_path, "http and https");
        }
        if (key == "method") h.method = reader_.scalar(value, key_path);
        if (key == "path") h.path = reader_.scalar(value, key_path);
        if (key == "host") h.host = reader_.scalar(value, key_path);
        if (key == "expect-status") h.expect_status = status_ranges(value, key_path);
        if (key == "body-contains") h.body_contains = reader_.scalar(value, key_path);
        if (key == "body-limit") h.body_limit = reader_.count(value, key_path, kMaxBodyLimit);
        if (key == "ca-file") h.ca_file = reader_.path_value(value, key_path);
        if (key == "headers") {
          h.headers.clear();
          if (!value.IsMap()) reader_.fail(value.Mark(), key_path, "expected a mapping of header: value");
          for (const auto& header : value) {
            h.headers.emplace_back(header.first.Scalar(), reader_.scalar(header.second, key_path + "." + header.first.Scalar()));
          }
        }
        if (key == "qname" || key == "qtype" || key == "rcode" || key == "expect-answer" || key == "tcp") {
          only_for(type == "dns", value, key_path, "dns");
        }
        if (key == "qname") d.qname = reader_.name(value, key_path, nullptr);
        if (key == "qtype") {
          auto qtype = dns::type_from_text(reader_.scalar(value, key_path));
          if (!qtype) reader_.fail(value.Mark(), key_path, "unknown record type");
          d.qtype = *qtype;
        }
        if (key == "rcode") d.rcode = rcode(value, key_path);
        if (key == "expect-answer") d.expect_answer = reader_.scalar(value, key_path);
        if (key == "tcp") d.tcp = reader_.boolean(value, key_path);
        if (key == "command") {
          only_for(type == "exec", value, key_path, "exec");
          base.exec.command = reader_.scalar(value, key_path);
        }
      });
  return base;
}

std::vector<health::StatusRange> PoolReader::status_ranges(const YAML::Node& node, const std::string& path) const {
  std::string text = reader_.scalar(node, path);
  std::vector<health::StatusRange> ranges;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string part = text.substr(start, comma - start);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    std::size_t dash = part.find('-');
    int low = 0;
    int high = 0;
    auto read = [&](std::string_view digits, int& out) {
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
      return ec == std::errc() && end == digits.data() + digits.size() && out >= 100 && out <= 599;
    };
    std::string_view view(part);
    bool ok = dash == std::string::npos ? read(view, low) && read(view, high)
                                        : read(view.substr(0, dash), low) && read(view.substr(dash + 1), high);
    if (!ok || low > high) reader_.fail(node.Mark(), path, "expected status codes or ranges like 200-299,301");
    ranges.push_back({low, high});
    start = comma + 1;
  }
  return ranges;
}

dns::Rcode PoolReader::rcode(const YAML::Node& node, const std::string& path) const {
  std::string text = reader_.scalar(node, path);
  for (std::uint16_t value = 0; value < 24; ++value) {
    auto rcode = static_cast<dns::Rcode>(value);
    if (dns::rcode_to_text(rcode) == text) return rcode;
  }
  reader_.fail(node.Mark(), path, "unknown rcode (expected e.g. NOERROR, NXDOMAIN, SERVFAIL)");
}

}  // namespace

void read_pools(const YamlReader& reader, const YAML::Node& node, const std::string& path, Config& config) {
  if (node.IsNull()) return;
  if (!node.IsMap()) reader.fail(node.Mark(), path, "expected a mapping of pool name: settings");
  PoolReader pools(reader);
  for (const auto& entry : node) {
    std::string id = entry.first.Scalar();
    std::string pool_path = path + "." + id;
    pool::PoolSpec spec = pools.pool(id, entry.second, pool_path, config);
    for (const auto& other : config.pools) {
      if (other.name == id) reader.fail(entry.first.Mark(), pool_path, "duplicate pool");
      if (other.owner == spec.owner) {
        reader.fail(entry.second["name"].Mark(), pool_path + ".name",
                    spec.owner.to_text() + " already belongs to pool " + other.name);
      }
    }
    config.pools.push_back(std::move(spec));
  }
}

pool::PoolSpec read_pool(const std::string& id, const std::string& text, const std::string& label, const Config& config) {
  YAML::Node node;
  try {
    node = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", label, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  YamlReader reader(label, "");
  std::string path = "pools." + id;
  if (!node.IsMap()) reader.fail(node.Mark(), path, "expected a mapping of pool settings");
  return PoolReader(reader).pool(id, node, path, config);
}

}  // namespace cutover::config
