// Reading of pools: pool keys, the check mapping (common keys plus the keys of its probe
// type, inherited by every endpoint and overridable per endpoint) and the endpoints.
#include "pool/config/pool_config.h"

#include <arpa/inet.h>

#include <algorithm>
#include <map>
#include <memory>

#include "config/section.h"
#include "config/yaml_reader.h"
#include "pool/config/yaml_option_reader.h"
#include "health/probe.h"
#include "client/query.h"
#include "client/resolv_conf.h"
#include "net/address.h"
#include "auth/dynamic_answers.h"
#include "pool/answer_builder.h"
#include "pool/policy.h"
#include "pool/steering/mmdb.h"

namespace cutover::pool {
namespace {

using config::Config;
using config::ConfigError;
using config::YamlReader;
using config::ZoneConfig;

constexpr const char* kSectionKey = "pools";

constexpr std::size_t kMaxFall = 100;
constexpr std::size_t kMaxPoolTtl = 86400;
constexpr std::size_t kMaxEndpoints = 1000;
constexpr std::size_t kMaxChecks = 16;  // checks of one endpoint

bool is_numeric_address(const std::string& text) {
  in6_addr v6{};
  in_addr v4{};
  return ::inet_pton(AF_INET, text.c_str(), &v4) == 1 || ::inet_pton(AF_INET6, text.c_str(), &v6) == 1;
}

class PoolReader {
 public:
  explicit PoolReader(const YamlReader& reader) : reader_(reader) {
    health::register_builtin_probes(probes_);
    register_builtin_policies(policies_);
  }

  PoolSpec pool(const std::string& id, const YAML::Node& node, const std::string& path,
                      const Config& config) const {
    PoolSpec spec;
    spec.name = id;
    bool has_name = false;
    bool has_check = false;
    bool has_endpoints = false;
    YAML::Node check_node;
    YAML::Node endpoints_node;
    YAML::Node serve_node;
    YAML::Node fallback_node(YAML::NodeType::Undefined);
    // Steering keys; an absent one stays undefined (YAML::Node(YAML::NodeType::Undefined)).
    YAML::Node networks_node(YAML::NodeType::Undefined);
    YAML::Node regions_node(YAML::NodeType::Undefined);
    YAML::Node default_region_node(YAML::NodeType::Undefined);
    YAML::Node views_node(YAML::NodeType::Undefined);
    std::string check_path;
    std::string endpoints_path;
    // The shape's own keys go to the shape, so it is looked up first; a bad `shape` value
    // still fails at its own place below.
    const Shape* shape = policies_.find_shape(spec.shape);
    if (node.IsMap() && node["shape"] && node["shape"].IsScalar() && policies_.knows(node["shape"].Scalar())) {
      shape = policies_.find_shape(node["shape"].Scalar());
    }
    YamlOptionReader shape_options(reader_, node, path);
    reader_.each_entry(node, path, pool_keys(),
                       [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                         if (owns(shape->option_keys, key)) {
                           shape->read_option(spec, key, shape_options);
                           return;
                         }
                         if (owns(policies_.option_keys(), key)) {
                           only_for(value, key_path, policies_.shapes_with_option(key), "pools", shape->name);
                         }
                         if (key == "name") {
                           spec.owner = reader_.name(value, key_path, nullptr);
                           has_name = true;
                         }
                         if (key == "shape") spec.shape = this->shape(value, key_path);
                         if (key == "ttl") spec.ttl = ttl(value, key_path);
                         if (key == "when-all-down") spec.when_all_down = all_down(value, key_path);
                         if (key == "fallback") fallback_node = value;
                         if (key == "min-healthy") spec.min_healthy = min_healthy(value, key_path);
                         if (key == "checkers") spec.checkers = checkers(value, key_path);
                         if (key == "suspicion-ttl") spec.suspicion_ttl = reader_.boolean(value, key_path);
                         if (key == "wait-for-first-check") spec.wait_for_first_check = reader_.boolean(value, key_path);
                         if (key == "serve") {
                           spec.serve = serve_mode(value, key_path);
                           serve_node = value;
                         }
                         if (key == "views") views_node = value;
                         if (key == "networks") networks_node = value;
                         if (key == "regions") regions_node = value;
                         if (key == "default-region") default_region_node = value;
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
    if (views_node.IsDefined()) views(views_node, path + ".views", config, spec);
    // Inside a zone of the default view, or of one of the views it is answered in.
    auto in_zones = [&](const std::vector<ZoneConfig>& zones) {
      return std::any_of(zones.begin(), zones.end(),
                         [&](const ZoneConfig& zone) { return spec.owner.is_subdomain_of(zone.origin); });
    };
    bool inside = in_zones(config.zones);
    for (std::size_t v = 0; v < config.views.size() && !inside; ++v) {
      bool answered = spec.views.empty() ||
                      std::find(spec.views.begin(), spec.views.end(), config.views[v].name) != spec.views.end();
      inside = answered && in_zones(config.views[v].zones);
    }
    if (!inside) reader_.fail(node["name"].Mark(), path + ".name", spec.owner.to_text() + " is outside every zone");
    if (has_check) spec.check = check(check_node, check_path, spec.check);
    if (!has_endpoints || !endpoints_node.IsSequence() || endpoints_node.size() == 0) {
      reader_.fail(has_endpoints ? endpoints_node.Mark() : node.Mark(), has_endpoints ? endpoints_path : path,
                   "expected a non-empty list of endpoints");
    }
    for (std::size_t i = 0; i < endpoints_node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", endpoints_path, i);
      EndpointSpec endpoint = this->endpoint(endpoints_node[i], item_path, spec.check);
      for (const auto& other : spec.endpoints) {
        if (other.address == endpoint.address) {
          reader_.fail(endpoints_node[i].Mark(), item_path, "endpoint " + endpoint.address + " is listed twice");
        }
      }
      if (!spec.endpoints.empty() && spec.endpoints.front().target.has_value() != endpoint.target.has_value()) {
        reader_.fail(endpoints_node[i].Mark(), item_path,
                     "a pool's endpoints are all addresses or all hostnames (target:); this one differs from the first");
      }
      spec.endpoints.push_back(std::move(endpoint));
    }
    // An alias pool falls back to names (answered as CNAME), another to addresses.
    if (fallback_node.IsDefined()) {
      spec.fallback = spec.alias() ? names(fallback_node, path + ".fallback") : addresses(fallback_node, path + ".fallback");
    }
    if (spec.when_all_down == AllDownPolicy::kFallback && spec.fallback.empty()) {
      reader_.fail(node.Mark(), path, spec.alias() ? "when-all-down: fallback needs a 'fallback' list of names"
                                                   : "when-all-down: fallback needs a 'fallback' list of addresses");
    }
    if (spec.alias() && spec.serve == ServeMode::kMaterialize) {
      reader_.fail(serve_node.Mark(), path + ".serve",
                   "a pool of hostname endpoints answers a CNAME chosen by health and cannot be materialized");
    }
    steering(spec, node, path, networks_node, regions_node, default_region_node, endpoints_node, endpoints_path);
    if (spec.serve == ServeMode::kMaterialize) check_materialize(spec, serve_node, path + ".serve", config);
    return spec;
  }

 private:
  ServeMode serve_mode(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (text == "per-query") return ServeMode::kPerQuery;
    if (text == "materialize") return ServeMode::kMaterialize;
    reader_.fail(node.Mark(), path, "expected per-query or materialize");
  }

  // `networks`, `regions`, `default-region` and the endpoints' `region` (docs/steering.md):
  // all of them or none. The regions are the keys of `regions` in order, or else the
  // endpoints' regions in the order first named, each ordered itself first.
  void steering(PoolSpec& spec, const YAML::Node& node, const std::string& path, const YAML::Node& networks_node,
                const YAML::Node& regions_node, const YAML::Node& default_region_node,
                const YAML::Node& endpoints_node, const std::string& endpoints_path) const {
    SteeringSpec& steering = spec.steering;
    bool steered = networks_node.IsDefined();
    for (std::size_t i = 0; i < spec.endpoints.size(); ++i) {
      bool has_region = !spec.endpoints[i].region.empty();
      std::string item_path = fmt::format("{}[{}]", endpoints_path, i);
      if (has_region && !steered) {
        reader_.fail(endpoints_node[i]["region"].Mark(), item_path + ".region",
                     "a region needs the pool's networks file (networks:) to steer by");
      }
      if (!has_region && steered) {
        reader_.fail(endpoints_node[i].Mark(), item_path, "every endpoint of a steered pool needs a region");
      }
    }
    if (!steered) {
      if (regions_node.IsDefined()) reader_.fail(regions_node.Mark(), path + ".regions", "regions needs networks: (the networks file)");
      if (default_region_node.IsDefined()) {
        reader_.fail(default_region_node.Mark(), path + ".default-region", "default-region needs networks: (the networks file)");
      }
      return;
    }
    if (regions_node.IsDefined()) {
      if (!regions_node.IsMap() || regions_node.size() == 0) {
        reader_.fail(regions_node.Mark(), path + ".regions", "expected a mapping of region: [regions in order of preference]");
      }
      for (const auto& entry : regions_node) steering.regions.push_back(RegionSpec{entry.first.Scalar(), {}});
      std::size_t at = 0;
      for (const auto& entry : regions_node) {
        std::string region_path = path + ".regions." + entry.first.Scalar();
        for (std::size_t j = 0; j < at; ++j) {
          if (steering.regions[j].name == entry.first.Scalar()) reader_.fail(entry.first.Mark(), region_path, "duplicate region");
        }
        const YAML::Node& order = entry.second;
        if (!order.IsSequence() || order.size() == 0) {
          reader_.fail(order.Mark(), region_path, "expected a non-empty list of regions, most preferred first");
        }
        for (std::size_t k = 0; k < order.size(); ++k) {
          std::string item_path = fmt::format("{}[{}]", region_path, k);
          std::string name = reader_.scalar(order[k], item_path);
          if (steering.find(name) == steering.regions.size()) {
            reader_.fail(order[k].Mark(), item_path, "unknown region '" + name + "' (not a key of regions)");
          }
          auto& list = steering.regions[at].order;
          if (std::find(list.begin(), list.end(), name) != list.end()) {
            reader_.fail(order[k].Mark(), item_path, "region '" + name + "' is listed twice");
          }
          list.push_back(name);
        }
        ++at;
      }
      for (std::size_t i = 0; i < spec.endpoints.size(); ++i) {
        if (steering.find(spec.endpoints[i].region) == steering.regions.size()) {
          reader_.fail(endpoints_node[i]["region"].Mark(), fmt::format("{}[{}].region", endpoints_path, i),
                       "unknown region '" + spec.endpoints[i].region + "' (not a key of regions)");
        }
      }
    } else {
      std::vector<std::string> names;
      for (const auto& endpoint : spec.endpoints) {
        if (std::find(names.begin(), names.end(), endpoint.region) == names.end()) names.push_back(endpoint.region);
      }
      steering.regions = default_region_orders(names);
    }
    if (default_region_node.IsDefined()) {
      std::string name = reader_.scalar(default_region_node, path + ".default-region");
      steering.default_region = steering.find(name);
      if (steering.default_region == steering.regions.size()) {
        reader_.fail(default_region_node.Mark(), path + ".default-region", "unknown region '" + name + "'");
      }
    }
    steering.networks = networks(steering, networks_node, path + ".networks");
    if (spec.serve == ServeMode::kMaterialize) {
      reader_.fail(node["serve"].Mark(), path + ".serve",
                   "a steered pool answers each client network differently and cannot be materialized");
    }
  }

  // `networks: FILE` (prefix and region per line) or `networks: {mmdb: FILE, field: F, map:
  // {REGION: [VALUES]}}` (a MaxMind DB, docs/steering.md "MaxMind databases"); the table either gives.
  std::shared_ptr<const base::NetworkTable> networks(SteeringSpec& steering, const YAML::Node& node,
                                                     const std::string& path) const {
    if (!node.IsMap()) {
      steering.networks_file = reader_.path_value(node, path);
      auto table = load_networks_file(steering.networks_file, steering.regions);
      if (!table) reader_.fail(node.Mark(), path, table.error().message);
      return std::make_shared<const base::NetworkTable>(std::move(*table));
    }
    MmdbNetworks source;
    YAML::Node field_node(YAML::NodeType::Undefined);
    reader_.each_entry(node, path, {"mmdb", "field", "map"}, [&](const std::string& key, const YAML::Node& value,
                                                                  const std::string& key_path) {
      if (key == "mmdb") source.path = reader_.path_value(value, key_path);
      if (key == "field") {
        field_node = value;
        auto field = parse_mmdb_field(reader_.scalar(value, key_path));
        if (!field) reader_.fail(value.Mark(), key_path, field.error().message);
        source.field = std::move(*field);
      }
      if (key == "map") source.map = mmdb_map(steering, value, key_path);
    });
    if (source.path.empty()) reader_.fail(node.Mark(), path + ".mmdb", "a networks mapping needs mmdb: (the MaxMind DB file)");
    steering.networks_file = source.path;
    // Pools that read the same database the same way share one table (a GeoIP database's table
    // is tens of megabytes, docs/steering.md).
    std::string key = source.path + '\n' + list(source.field);
    for (const auto& [value, region] : source.map) key += '\n' + value + '=' + region;
    for (const auto& region : steering.regions) key += "\nregion " + region.name;
    if (auto known = mmdb_tables_.find(key); known != mmdb_tables_.end()) return known->second;
    auto table = load_mmdb_networks(source, steering.regions);
    if (!table) reader_.fail(node["mmdb"].Mark(), path + ".mmdb", table.error().message);
    auto shared = std::make_shared<const base::NetworkTable>(std::move(*table));
    mmdb_tables_.emplace(key, shared);
    return shared;
  }

  // `map: {REGION: [VALUES]}` read as value -> region; each value under one region only.
  std::map<std::string, std::string> mmdb_map(const SteeringSpec& steering, const YAML::Node& node,
                                              const std::string& path) const {
    if (!node.IsMap() || node.size() == 0) {
      reader_.fail(node.Mark(), path, "expected a mapping of region: [field values], like eu: [DE, FR]");
    }
    std::map<std::string, std::string> out;
    for (const auto& entry : node) {
      std::string region = entry.first.Scalar();
      std::string region_path = path + "." + region;
      if (steering.find(region) == steering.regions.size()) {
        reader_.fail(entry.first.Mark(), region_path, "unknown region '" + region + "'");
      }
      const YAML::Node& values = entry.second;
      if (!values.IsSequence() || values.size() == 0) {
        reader_.fail(values.Mark(), region_path, "expected a non-empty list of field values, like [DE, FR]");
      }
      for (std::size_t k = 0; k < values.size(); ++k) {
        std::string item_path = fmt::format("{}[{}]", region_path, k);
        std::string value = reader_.scalar(values[k], item_path);
        auto [at, added] = out.emplace(value, region);
        if (!added) {
          reader_.fail(values[k].Mark(), item_path, fmt::format("'{}' is mapped to region '{}' already", value, at->second));
        }
      }
    }
    return out;
  }

  // Materialized answers are zone records written through the journaled write path, with
  // one TTL and one record set for every query.
  void check_materialize(const PoolSpec& spec, const YAML::Node& node, const std::string& path,
                         const Config& config) const {
    if (config.writes.journal.empty()) {
      reader_.fail(node.Mark(), path, "materialize writes the pool's answer through the write path, which needs a "
                                      "journal (writes.journal)");
    }
    if (policies_.find_shape(spec.shape)->draws_per_query) {
      reader_.fail(node.Mark(), path, fmt::format("a {} pool draws per query and cannot be materialized (use {})",
                                                  spec.shape, either(policies_.fixed_answer_shapes(), "or")));
    }
    if (spec.suspicion_ttl) {
      reader_.fail(node.Mark(), path, "suspicion-ttl changes the TTL per query and cannot be materialized");
    }
    if (!spec.views.empty()) {
      reader_.fail(node.Mark(), path, "a pool limited to views answers some clients only and cannot be materialized "
                                      "into the zone every view shares");
    }
  }

  std::string shape(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (!policies_.knows(text)) reader_.fail(node.Mark(), path, "unknown shape '" + text + "' (expected " + list(policies_.shapes()) + ")");
    return text;
  }

  std::uint32_t ttl(const YAML::Node& node, const std::string& path) const {
    auto value = config::parse_duration(reader_.scalar(node, path));
    if (!value || value->count() % 1000 != 0 || *value > std::chrono::seconds(kMaxPoolTtl)) {
      reader_.fail(node.Mark(), path, "expected whole seconds up to 1 day, like 60 or 60s");
    }
    return static_cast<std::uint32_t>(value->count() / 1000);
  }

  // `min-healthy: 2` (endpoints) or `min-healthy: 50%` (of each family's endpoints).
  MinHealthy min_healthy(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    MinHealthy out;
    out.percent = !text.empty() && text.back() == '%';
    std::string digits = out.percent ? text.substr(0, text.size() - 1) : text;
    std::size_t limit = out.percent ? 100 : kMaxEndpoints;
    bool number = !digits.empty() && digits.size() <= 4 &&
                  std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (number) out.value = std::stoul(digits);
    if (!number || out.value < 1 || out.value > limit) {
      reader_.fail(node.Mark(), path, fmt::format("expected a number of endpoints from 1 to {} or a percentage "
                                                  "from 1% to 100%, like 2 or 50%", kMaxEndpoints));
    }
    return out;
  }

  // `checkers: {quorum: K}` or `checkers: {healthy-above: P%}`: how the vantages of a
  // cluster combine (health/quorum.h, docs/cluster.md).
  health::QuorumRule checkers(const YAML::Node& node, const std::string& path) const {
    health::QuorumRule rule;
    bool set = false;
    reader_.each_entry(node, path, {"quorum", "healthy-above"},
                       [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                         if (set) reader_.fail(value.Mark(), path, "give either quorum or healthy-above, not both");
                         set = true;
                         if (key == "quorum") {
                           rule.kind = health::QuorumRule::Kind::kQuorum;
                           rule.quorum = reader_.number(value, key_path, 1, 64);
                           return;
                         }
                         std::string text = reader_.scalar(value, key_path);
                         std::string digits = !text.empty() && text.back() == '%' ? text.substr(0, text.size() - 1) : "";
                         bool number = !digits.empty() && digits.size() <= 2 &&
                                       std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
                         if (!number) reader_.fail(value.Mark(), key_path, "expected a percentage from 0% to 99%, like 18%");
                         rule.kind = health::QuorumRule::Kind::kHealthyAbove;
                         rule.healthy_above = static_cast<unsigned>(std::stoul(digits));
                       });
    if (!set) reader_.fail(node.Mark(), path, "expected quorum: K or healthy-above: P%");
    return rule;
  }

  AllDownPolicy all_down(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (text == "fail-open") return AllDownPolicy::kFailOpen;
    if (text == "fallback") return AllDownPolicy::kFallback;
    if (text == "nodata") return AllDownPolicy::kNoData;
    reader_.fail(node.Mark(), path, "expected fail-open, fallback or nodata");
  }

  std::string address(const YAML::Node& node, const std::string& path) const {
    std::string text = reader_.scalar(node, path);
    if (!is_numeric_address(text)) reader_.fail(node.Mark(), path, "expected a numeric IPv4 or IPv6 address");
    return text;
  }

  // Names as text, absolute ("sorry.example.net."): an alias pool's fallback.
  std::vector<std::string> names(const YAML::Node& node, const std::string& path) const {
    if (!node.IsSequence()) reader_.fail(node.Mark(), path, "expected a list of names");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", path, i);
      if (node[i].IsScalar() && is_numeric_address(node[i].Scalar())) {
        reader_.fail(node[i].Mark(), item_path, "expected a name: a pool of hostname endpoints falls back to names, answered as CNAME");
      }
      out.push_back(reader_.name(node[i], item_path, nullptr).to_text());
    }
    return out;
  }

  // `resolver: ADDRESS[:PORT]` or a list of them (port 53 when left out): where a hostname
  // endpoint's name is resolved before each probe.
  std::vector<std::string> resolvers(const YAML::Node& node, const std::string& path) const {
    std::vector<std::string> out;
    auto one = [&](const YAML::Node& item, const std::string& item_path) {
      auto server = client::parse_server(reader_.scalar(item, item_path));
      if (!server) {
        reader_.fail(item.Mark(), item_path, "expected a DNS server as ADDRESS or ADDRESS:PORT, like 127.0.0.1:5353 or [::1]:53");
      }
      out.push_back(net::format_address(server->storage));
    };
    if (node.IsSequence()) {
      if (node.size() == 0 || node.size() > client::kMaxNameservers) {
        reader_.fail(node.Mark(), path, fmt::format("expected a DNS server or a list of 1 to {}", client::kMaxNameservers));
      }
      for (std::size_t i = 0; i < node.size(); ++i) one(node[i], fmt::format("{}[{}]", path, i));
    } else {
      one(node, path);
    }
    return out;
  }

  std::vector<std::string> addresses(const YAML::Node& node, const std::string& path) const {
    if (!node.IsSequence()) reader_.fail(node.Mark(), path, "expected a list of addresses");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < node.size(); ++i) out.push_back(address(node[i], fmt::format("{}[{}]", path, i)));
    return out;
  }

  EndpointSpec endpoint(const YAML::Node& node, const std::string& path, const health::CheckSettings& pool_check) const {
    EndpointSpec endpoint;
    endpoint.check = pool_check;
    bool has_address = false;
    // A default YAML::Node is a defined null node, so presence is kept apart.
    YAML::Node check_node;
    YAML::Node checks_node;
    YAML::Node combine_node;
    bool has_check = false;
    bool has_checks = false;
    bool has_combine = false;
    std::optional<std::string> check_address;
    reader_.each_entry(node, path,
                       {"address", "target", "port", "priority", "weight", "check", "checks", "combine", "check-address",
                        "region"},
                       [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                         if (key == "address" || key == "target") {
                           if (has_address) reader_.fail(value.Mark(), key_path, "an endpoint has either 'address' or 'target', not both");
                           has_address = true;
                         }
                         if (key == "address") endpoint.address = address(value, key_path);
                         if (key == "target") {
                           // A hostname endpoint (docs/pools.md): answered as a CNAME to this name.
                           endpoint.target = reader_.name(value, key_path, nullptr);
                           endpoint.address = endpoint.target->to_text();
                         }
                         if (key == "port") endpoint.port = static_cast<std::uint16_t>(reader_.count(value, key_path, 65535));
                         if (key == "priority") endpoint.priority = static_cast<int>(reader_.number(value, key_path, 0, 1000));
                         if (key == "weight") endpoint.weight = static_cast<std::uint32_t>(reader_.count(value, key_path, 1000000));
                         if (key == "check") {
                           check_node = value;
                           has_check = true;
                           endpoint.check = check(value, key_path, pool_check);
                         }
                         if (key == "checks") {
                           checks_node = value;
                           has_checks = true;
                         }
                         if (key == "combine") {
                           combine_node = value;
                           has_combine = true;
                           endpoint.combine = combine(value, key_path);
                         }
                         if (key == "check-address") check_address = address(value, key_path);
                         if (key == "region") {
                           endpoint.region = reader_.scalar(value, key_path);
                           if (endpoint.region.empty()) reader_.fail(value.Mark(), key_path, "expected a region name");
                         }
                       });
    if (!has_address) reader_.fail(node.Mark(), path, "missing required key 'address' (or 'target', a hostname to answer as CNAME)");
    if (has_checks) {
      if (has_check) {
        reader_.fail(checks_node.Mark(), path + ".checks", "an endpoint has either 'check' or 'checks', not both");
      }
      if (!checks_node.IsSequence() || checks_node.size() == 0 || checks_node.size() > kMaxChecks) {
        reader_.fail(checks_node.Mark(), path + ".checks",
                     fmt::format("expected a list of 1 to {} check mappings", kMaxChecks));
      }
      for (std::size_t i = 0; i < checks_node.size(); ++i) {
        endpoint.checks.push_back(check(checks_node[i], fmt::format("{}.checks[{}]", path, i), pool_check));
      }
    }
    // The endpoint's check-address is for every check that does not name its own.
    if (check_address) {
      if (endpoint.check.address.empty()) endpoint.check.address = *check_address;
      for (auto& each : endpoint.checks) {
        if (each.address.empty()) each.address = *check_address;
      }
    }
    if (!endpoint.checks.empty()) endpoint.check = endpoint.checks.front();
    std::size_t count = endpoint.checks.empty() ? 1 : endpoint.checks.size();
    if (has_combine && endpoint.combine.kind == health::CombineKind::kAtLeast && endpoint.combine.at_least > count) {
      reader_.fail(combine_node.Mark(), path + ".combine",
                   fmt::format("{} needs at least {} checks, this endpoint has {}", endpoint.combine.to_text(),
                               endpoint.combine.at_least, count));
    }
    if (endpoint.checks.empty()) {
      validate_check(endpoint, endpoint.check, node, path);
    } else {
      for (std::size_t i = 0; i < endpoint.checks.size(); ++i) {
        validate_check(endpoint, endpoint.checks[i], checks_node[i], fmt::format("{}.checks[{}]", path, i));
      }
    }
    return endpoint;
  }

  health::Combine combine(const YAML::Node& node, const std::string& path) const {
    auto parsed = health::parse_combine(reader_.scalar(node, path));
    if (!parsed) reader_.fail(node.Mark(), path, "expected all, any or at-least-K (K from 1 to 64), like at-least-2");
    return *parsed;
  }

  void validate_check(const EndpointSpec& endpoint, const health::CheckSettings& check, const YAML::Node& node,
                      const std::string& path) const {
    if (check.timeout > check.interval) {
      reader_.fail(node.Mark(), path, fmt::format("check timeout ({} ms) must not exceed its interval ({} ms)",
                                                 check.timeout.count(), check.interval.count()));
    }
    const health::ProbeType& type = *probes_.find(check.type);
    bool has_port = endpoint.port != 0 || check.port.has_value() || type.default_port != 0;
    if (!has_port && type.needs_port) {
      reader_.fail(node.Mark(), path, "a " + check.type + " check needs a port (on the endpoint or the check)");
    }
    if (type.problem) {
      if (auto problem = type.problem(check)) reader_.fail(node.Mark(), path, *problem);
    }
    if (!check.resolvers.empty() && !endpoint.target) {
      reader_.fail(node.Mark(), path,
                   "a check's resolver: resolves a hostname endpoint (target:); endpoint " + endpoint.address +
                       " is an address");
    }
  }

  health::CheckSettings check(const YAML::Node& node, const std::string& path, health::CheckSettings base) const;

  // The keys of a pool mapping: the common ones and every registered shape's.
  // `views: [NAME, ...]`: views of the config, and "default" for the top-level zones.
  void views(const YAML::Node& node, const std::string& path, const Config& config, PoolSpec& spec) const {
    if (!node.IsSequence() || node.size() == 0) reader_.fail(node.Mark(), path, "expected a non-empty list of view names");
    if (config.views.size() > auth::kMaxMaskedViews) {
      reader_.fail(node.Mark(), path,
                   fmt::format("a pool can be limited to views in a config of at most {} views (this one has {})",
                               auth::kMaxMaskedViews, config.views.size()));
    }
    spec.view_mask = 0;
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", path, i);
      std::string name = reader_.scalar(node[i], item_path);
      std::uint16_t bit = 0;
      if (name == "default") bit = auth::kDefaultViewBit;
      for (std::size_t v = 0; v < config.views.size(); ++v) {
        if (config.views[v].name == name) bit = static_cast<std::uint16_t>(1u << (v + 1));
      }
      if (bit == 0) {
        std::string known = "default";
        for (const auto& view : config.views) known += ", " + view.name;
        reader_.fail(node[i].Mark(), item_path, fmt::format("no view named '{}' (views: {})", name, known));
      }
      if ((spec.view_mask & bit) != 0) reader_.fail(node[i].Mark(), item_path, "view '" + name + "' is listed twice");
      spec.view_mask = static_cast<std::uint16_t>(spec.view_mask | bit);
      spec.views.push_back(name);
    }
  }

  std::vector<std::string> pool_keys() const {
    std::vector<std::string> keys = {"name", "shape"};
    for (const auto& key : policies_.option_keys()) keys.push_back(key);
    for (const char* key : {"ttl", "min-healthy", "checkers", "when-all-down", "fallback", "suspicion-ttl", "wait-for-first-check", "serve", "networks",
                            "regions", "default-region", "views", "check", "endpoints"}) {
      keys.push_back(key);
    }
    return keys;
  }

  // The keys of a check mapping: the common ones and every registered probe type's.
  std::vector<std::string> check_keys() const {
    std::vector<std::string> keys = {"type", "interval", "timeout", "fall", "rise", "port", "invert", "check-address", "resolver"};
    for (const auto& key : probes_.option_keys()) keys.push_back(key);
    return keys;
  }

  static bool owns(const std::vector<std::string>& keys, const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  }

  // A key of other probe types or shapes than this one: "only for http and https checks, this one is tcp".
  [[noreturn]] void only_for(const YAML::Node& value, const std::string& path, const std::vector<std::string>& owners,
                             const std::string& kind, const std::string& mine) const {
    reader_.fail(value.Mark(), path, fmt::format("only for {} {}, this one is {}", either(owners, "and"), kind, mine));
  }

  // "a", "a and b", "a, b and c".
  static std::string either(const std::vector<std::string>& words, const char* last) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (i > 0) out += i + 1 == words.size() ? fmt::format(" {} ", last) : ", ";
      out += words[i];
    }
    return out;
  }

  std::string list(const std::vector<std::string>& words) const {
    std::string out;
    for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
    return out;
  }

  const YamlReader& reader_;
  health::ProbeRegistry probes_;
  PolicyRegistry policies_;
  // MaxMind DB tables read so far by this config's pools, by source and regions.
  mutable std::map<std::string, std::shared_ptr<const base::NetworkTable>> mmdb_tables_;
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
  const health::ProbeType& type = *probes_.find(base.type);
  // The type reads its own keys, over what this mapping inherits (the pool's check).
  std::unique_ptr<health::OptionsParser> options;
  if (type.options) options = type.options(base.options.get());
  YamlOptionReader option_reader(reader_, node, path);
  reader_.each_entry(node, path, check_keys(),
                     [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                       if (key == "interval") base.interval = reader_.duration(value, key_path);
                       if (key == "timeout") base.timeout = reader_.duration(value, key_path);
                       if (key == "fall") base.fall = static_cast<int>(reader_.count(value, key_path, kMaxFall));
                       if (key == "rise") base.rise = static_cast<int>(reader_.count(value, key_path, kMaxFall));
                       if (key == "port") base.port = static_cast<std::uint16_t>(reader_.count(value, key_path, 65535));
                       if (key == "invert") base.invert = reader_.boolean(value, key_path);
                       if (key == "check-address") base.address = address(value, key_path);
                       if (key == "resolver") base.resolvers = resolvers(value, key_path);
                       if (!owns(probes_.option_keys(), key)) return;
                       if (!owns(type.option_keys, key)) {
                         only_for(value, key_path, probes_.types_with_option(key), "checks", type.name);
                       }
                       options->read(key, option_reader);
                     });
  base.options = options ? options->finish() : nullptr;
  return base;
}

std::vector<PoolSpec> read_pools(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                                 const Config& config) {
  std::vector<PoolSpec> specs;
  if (node.IsNull()) return specs;
  if (!node.IsMap()) reader.fail(node.Mark(), path, "expected a mapping of pool name: settings");
  PoolReader pools(reader);
  for (const auto& entry : node) {
    std::string id = entry.first.Scalar();
    std::string pool_path = path + "." + id;
    PoolSpec spec = pools.pool(id, entry.second, pool_path, config);
    for (const auto& other : specs) {
      if (other.name == id) reader.fail(entry.first.Mark(), pool_path, "duplicate pool");
      if (other.owner == spec.owner && !answered_apart(other, spec)) {
        reader.fail(entry.second["name"].Mark(), pool_path + ".name",
                    spec.owner.to_text() + " already belongs to pool " + other.name +
                        " (two pools may share a name only when both are limited to views, none in common)");
      }
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace

void register_config_section() {
  config::register_section({kSectionKey, [](const YamlReader& reader, const YAML::Node& node, const std::string& path,
                                            const Config& read_so_far) {
                              return std::any(read_pools(reader, node, path, read_so_far));
                            }});
}

const std::vector<PoolSpec>& config_pools(const Config& config) {
  static const std::vector<PoolSpec> kNone;
  auto found = config.sections.find(kSectionKey);
  if (found == config.sections.end()) return kNone;
  return std::any_cast<const std::vector<PoolSpec>&>(found->second);
}

void set_config_pools(Config& config, std::vector<PoolSpec> pools) {
  if (pools.empty()) {
    config.sections.erase(kSectionKey);
  } else {
    config.sections[kSectionKey] = std::move(pools);
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
  // A networks file is read from the server's disk, which a request must not name (its
  // errors would quote the file): steered pools come from the config file only.
  if (node["networks"]) {
    reader.fail(node["networks"].Mark(), path + ".networks",
                "a networks file is read from the server's disk and is accepted only from the config file");
  }
  return PoolReader(reader).pool(id, node, path, config);
}

std::optional<std::string> api_refusal(const PoolSpec& spec, const std::string& label) {
  health::ProbeRegistry probes;
  health::register_builtin_probes(probes);
  for (std::size_t i = 0; i < spec.endpoints.size(); ++i) {
    std::vector<health::CheckSettings> checks = all_checks(spec.endpoints[i]);
    for (std::size_t c = 0; c < checks.size(); ++c) {
      const std::string& type = checks[c].type;
      const health::ProbeType* entry = probes.find(type);
      if (entry == nullptr || entry->config_file_only.empty()) continue;
      std::string where = spec.endpoints[i].checks.empty() ? "check" : fmt::format("checks[{}]", c);
      return fmt::format("{}: pools.{}.endpoints[{}].{}.type: {} checks {} and are accepted only from the config file",
                         label, spec.name, i, where, type, entry->config_file_only);
    }
  }
  return std::nullopt;
}

}  // namespace cutover::pool
