// Strict reading of the YAML config: every mapping is checked against its known keys and
// every value against its type, so a typo fails loudly at its line instead of being ignored.
#include "config/config.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <initializer_list>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "config/keys.h"
#include "config/section.h"
#include "config/yaml_reader.h"
#include "dns/base_encoding.h"
#include "net/address.h"

namespace cutover::config {
namespace {

constexpr std::size_t kMaxThreads = 64;

// Walks one parsed document, turning every problem into a ConfigError with its place.
class Reader : public YamlReader {
 public:
  using YamlReader::YamlReader;

  zone::RRsetOrder order(const YAML::Node& node, const std::string& path) const {
    auto value = parse_rrset_order(scalar(node, path));
    if (!value) fail(node.Mark(), path, "expected fixed, cyclic or random");
    return *value;
  }

  void listen(const YAML::Node& node, const std::string& path, Config& config) const {
    std::vector<YAML::Node> items;
    if (node.IsScalar()) {
      items.push_back(node);
    } else if (node.IsSequence() && node.size() > 0) {
      for (const auto& item : node) items.push_back(item);
    } else {
      fail(node.Mark(), path, "expected an ADDRESS:PORT or a non-empty list of them");
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::string item_path = node.IsScalar() ? path : fmt::format("{}[{}]", path, i);
      std::string text = scalar(items[i], item_path);
      auto address = net::parse_socket_address(text);
      if (!address) fail(items[i].Mark(), item_path, address.error().message);
      config.listen.push_back({text, *address});
    }
  }

  void tcp(const YAML::Node& node, const std::string& path, Config& config) const {
    YAML::Node busy;
    each_entry(node, path, child_keys("tcp"),
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "idle-timeout") config.tcp.idle_timeout = duration(value, key_path);
                 if (key == "busy-idle-timeout") {
                   config.tcp.busy_idle_timeout = duration(value, key_path);
                   busy = value;
                 }
                 if (key == "max-connections") config.tcp.max_connections = count(value, key_path, 1'000'000);
                 if (key == "max-connections-per-client") {
                   config.tcp.max_connections_per_client = number(value, key_path, 0, 1'000'000);
                 }
               });
    if (busy && config.tcp.busy_idle_timeout > config.tcp.idle_timeout) {
      fail(busy.Mark(), path + ".busy-idle-timeout", "must not be longer than idle-timeout");
    }
  }

  void cookies(const YAML::Node& node, const std::string& path, Config& config) const {
    each_entry(node, path, child_keys("cookies"),
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "enabled") config.cookies.enabled = boolean(value, key_path);
                 if (key == "require") config.cookies.require = boolean(value, key_path);
                 if (key == "rotate") config.cookies.rotate = duration(value, key_path);
                 if (key == "secrets") config.cookies.secrets = cookie_secrets(value, key_path);
               });
    if (config.cookies.rotate.count() <= 0) fail(node.Mark(), path + ".rotate", "must be longer than zero");
  }

  void client_subnet(const YAML::Node& node, const std::string& path, Config& config) const {
    each_entry(node, path, child_keys("client-subnet"),
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "trust") config.client_subnet.trust = prefixes(value, key_path);
               });
  }

  // One prefix or a list of them; host bits must be clear so that the range is the one meant.
  // One value or a list of them, each with its path ("key" alone, "key[i]" in a list); anything
  // else (or an empty list unless `empty_ok`) fails with `expected`.
  std::vector<std::pair<YAML::Node, std::string>> one_or_list(const YAML::Node& node, const std::string& path,
                                                              const char* expected, bool empty_ok) const {
    std::vector<std::pair<YAML::Node, std::string>> items;
    if (node.IsScalar()) {
      items.emplace_back(node, path);
    } else if (node.IsSequence() && (empty_ok || node.size() > 0)) {
      for (std::size_t i = 0; i < node.size(); ++i) items.emplace_back(node[i], fmt::format("{}[{}]", path, i));
    } else {
      fail(node.Mark(), path, expected);
    }
    return items;
  }

  std::vector<base::NetworkPrefix> prefixes(const YAML::Node& node, const std::string& path) const {
    std::vector<base::NetworkPrefix> out;
    base::NetworkTable seen;
    for (const auto& [item, item_path] : one_or_list(node, path, "expected an address/prefix or a list of them", true)) {
      std::string text = scalar(item, item_path);
      auto prefix = base::parse_network_prefix(text);
      if (!prefix) fail(item.Mark(), item_path, "expected an address or address/prefix, e.g. 192.0.2.0/24");
      if (!prefix->host_bits_clear()) {
        fail(item.Mark(), item_path, fmt::format("{} has bits set past /{}", text, prefix->bits));
      }
      if (auto added = seen.add(*prefix, 0); !added) fail(item.Mark(), item_path, added.error().message);
      out.push_back(*prefix);
    }
    return out;
  }

  // A list of 128-bit secrets written as 32 hex digits each (as BIND's cookie-secret).
  std::vector<std::array<std::uint8_t, 16>> cookie_secrets(const YAML::Node& node, const std::string& path) const {
    if (!node.IsSequence() || node.size() == 0) fail(node.Mark(), path, "expected a non-empty list of 32-hex-digit secrets");
    std::vector<std::array<std::uint8_t, 16>> secrets;
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", path, i);
      std::string text = scalar(node[i], item_path);
      std::vector<std::uint8_t> bytes;
      bool ok = dns::hex_decode(text, bytes) && bytes.size() == 16;
      std::array<std::uint8_t, 16> secret{};
      if (ok) std::copy(bytes.begin(), bytes.end(), secret.begin());
      if (!ok) fail(node[i].Mark(), item_path, "expected 32 hex digits (a 128-bit secret)");
      secrets.push_back(secret);
    }
    return secrets;
  }

  void log(const YAML::Node& node, const std::string& path, Config& config) const {
    each_entry(node, path, child_keys("log"),
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "level" && !base::parse_log_level(scalar(value, key_path), config.log.level)) {
                   fail(value.Mark(), key_path, "expected debug, info, warn or error");
                 }
                 if (key == "queries") config.log.queries = boolean(value, key_path);
                 if (key == "file") config.log.file = path_value(value, key_path);
               });
  }

  void control(const YAML::Node& node, const std::string& path, Config& config) const {
    each_entry(node, path, child_keys("control"),
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "listen") {
                   auto listen = parse_control_listen(scalar(value, key_path));
                   if (!listen) fail(value.Mark(), key_path, listen.error().message);
                   config.control.host = listen->host;
                   config.control.port = listen->port;
                 }
                 if (key == "token") config.control.token = scalar(value, key_path);
                 if (key == "remote-writes") config.control.remote_writes = boolean(value, key_path);
               });
    if (!config.control.host.empty() && config.control.token.empty() &&
        !net::is_loopback_address(config.control.host)) {
      fail(node.Mark(), path, "a control API on a non-loopback address needs a token");
    }
  }

  // zones[].dnssec (docs/dnssec.md, "Online signing").
  void dnssec(const YAML::Node& node, const std::string& path, const std::string& table_path,
              ZoneDnssecConfig& dnssec) const {
    bool has_keys = false;
    YAML::Node refresh_node;
    each_entry(node, path, child_keys(table_path),
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "mode") {
                   std::string mode = scalar(value, key_path);
                   if (mode != "online" && mode != "presigned") fail(value.Mark(), key_path, "expected online or presigned");
                   dnssec.online = mode == "online";
                 }
                 if (key == "keys") {
                   dnssec.keys = path_value(value, key_path);
                   has_keys = true;
                 }
                 if (key == "signature-lifetime") {
                   dnssec.signature_lifetime = std::chrono::duration_cast<std::chrono::seconds>(duration(value, key_path));
                 }
                 if (key == "refresh") {
                   dnssec.refresh = std::chrono::duration_cast<std::chrono::seconds>(duration(value, key_path));
                   refresh_node = value;
                 }
                 if (key == "publish-cds") dnssec.publish_cds = boolean(value, key_path);
               });
    if (dnssec.online && !has_keys) fail(node.Mark(), path, "mode online needs keys: the directory of the zone's key files");
    if (dnssec.refresh >= dnssec.signature_lifetime) {
      fail(refresh_node.IsDefined() ? refresh_node.Mark() : node.Mark(), path + ".refresh",
           "refresh must be shorter than signature-lifetime (a signature is made again when less than refresh is left)");
    }
  }

  // `parent`: "zones[]" for a top-level zone, "views[].zones[]" for a view's (of the
  // replication keys only allow-update).
  ZoneConfig zone(const YAML::Node& node, const std::string& path, std::string_view parent = "zones[]") const {
    ZoneConfig zone;
    bool has_origin = false;
    bool has_file = false;
    YAML::Node order_names;
    std::string order_names_path;
    YAML::Node forward_updates;
    std::string forward_updates_path;
    each_entry(node, path, child_keys(parent),
               [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                 if (key == "origin") {
                   zone.origin = name(value, key_path, nullptr);
                   has_origin = true;
                 }
                 if (key == "file") {
                   zone.file = path_value(value, key_path);
                   has_file = true;
                 }
                 if (key == "rrset-order") zone.order.zone_default = order(value, key_path);
                 read_zone_replication(key, value, key_path, label_, zone.replication);
                 if (key == "rrset-order-names") {
                   order_names = value;
                   order_names_path = key_path;
                 }
                 if (key == "forward-updates") {
                   forward_updates = value;
                   forward_updates_path = key_path;
                 }
                 if (key == "dnssec") dnssec(value, key_path, std::string(parent) + ".dnssec", zone.dnssec);
               });
    if (!has_origin) fail(node.Mark(), path, "missing required key 'origin'");
    if (zone.replication.forward_updates && !zone.replication.primary) {
      fail(forward_updates.Mark(), forward_updates_path,
           "forward-updates needs primary: only a secondary zone relays updates (a primary applies them: allow-update)");
    }
    if (!has_file && !zone.replication.primary) fail(node.Mark(), path, "missing required key 'file'");
    if (!has_file) {  // a secondary starts empty and fills itself by zone transfer
      zone.text = secondary_placeholder_text();
      zone.file = "<secondary " + zone.origin.to_text() + ">";
    }
    // Owner names are relative to the origin, so they are read once the origin is known.
    if (order_names.IsDefined() && !order_names.IsNull()) {
      if (!order_names.IsMap()) fail(order_names.Mark(), order_names_path, "expected a mapping of name: order");
      for (const auto& entry : order_names) {
        std::string entry_path = order_names_path + "." + entry.first.Scalar();
        dns::Name owner = name(entry.first, entry_path, &zone.origin);
        if (!owner.is_subdomain_of(zone.origin)) fail(entry.first.Mark(), entry_path, "name is outside the zone");
        zone.order.per_name.emplace_back(owner, order(entry.second, entry_path));
      }
    }
    return zone;
  }

  void zones(const YAML::Node& node, const std::string& path, Config& config) const {
    if (node.IsNull()) return;
    if (!node.IsSequence()) fail(node.Mark(), path, "expected a list of zones");
    config.zones = zone_list(node, path, "zones[]", "");
  }

  // The zones of a list (the top level's, or a view's: `parent` names their keys), each origin
  // once; `where` ends the message of one listed twice.
  std::vector<ZoneConfig> zone_list(const YAML::Node& node, const std::string& path, std::string_view parent,
                                    const std::string& where) const {
    std::vector<ZoneConfig> out;
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", path, i);
      ZoneConfig zone_config = zone(node[i], item_path, parent);
      for (const auto& existing : out) {
        if (existing.origin == zone_config.origin) {
          fail(node[i].Mark(), item_path, "zone " + existing.origin.to_text() + " is listed twice" + where);
        }
      }
      out.push_back(std::move(zone_config));
    }
    return out;
  }

  // A view's name: it goes into the query log, transfer logs and the lab's reports.
  static bool valid_view_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
             c == '-';
    });
  }

  // TSIG key names: one or a list, each one of writes.tsig-keys.
  std::vector<dns::Name> key_names(const YAML::Node& node, const std::string& path, const Config& config) const {
    std::vector<dns::Name> out;
    for (const auto& [item, item_path] :
         one_or_list(node, path, "expected a TSIG key name or a non-empty list of them", false)) {
      dns::Name key = name(item, item_path, nullptr);
      bool known = std::any_of(config.writes.keys.begin(), config.writes.keys.end(),
                               [&](const auto& defined) { return defined.name == key; });
      if (!known) fail(item.Mark(), item_path, "TSIG key " + key.to_text() + " is not defined in writes.tsig-keys");
      if (std::find(out.begin(), out.end(), key) != out.end()) {
        fail(item.Mark(), item_path, "key " + key.to_text() + " is listed twice");
      }
      out.push_back(std::move(key));
    }
    return out;
  }

  // Who writes a view's own zones (docs/steering.md, "Writes to a view's zones"): an UPDATE is
  // routed to the first view whose match-keys lists its key, and there to the view's copy of
  // the zone when it has one. So each key of a view zone's allow-update must pick this view,
  // and a key that does may not be a top-level updater of a zone the view replaces (its
  // UPDATEs would never reach the top-level copy).
  void check_view_updaters(const YAML::Node& view_node, const YAML::Node& zones_node, const std::string& item_path,
                           const ViewConfig& view, const Config& config) const {
    auto picks_this_view = [&](const dns::Name& key) {
      for (const auto& earlier : config.views) {
        if (std::find(earlier.match_keys.begin(), earlier.match_keys.end(), key) != earlier.match_keys.end()) {
          return false;
        }
      }
      return std::find(view.match_keys.begin(), view.match_keys.end(), key) != view.match_keys.end();
    };
    for (std::size_t j = 0; j < view.zones.size(); ++j) {
      const ZoneConfig& own = view.zones[j];
      std::string path = fmt::format("{}.zones[{}].allow-update", item_path, j);
      for (const auto& policy : own.replication.allow_update) {
        auto key = dns::Name::from_text(policy.key);
        if (key && picks_this_view(*key)) continue;
        fail(zones_node[j]["allow-update"].Mark(), path,
             fmt::format("key {} does not pick view {}: an UPDATE writes the zones of the first view whose "
                         "match-keys lists its key; list it in this view's match-keys (and no earlier view's)",
                         policy.key, view.name));
      }
    }
    for (const auto& key : view.match_keys) {
      if (!picks_this_view(key)) continue;
      for (const auto& own : view.zones) {
        for (const auto& shared : config.zones) {
          if (!(shared.origin == own.origin)) continue;
          for (const auto& policy : shared.replication.allow_update) {
            auto name = dns::Name::from_text(policy.key);
            if (!name || !(*name == key)) continue;
            fail(view_node.Mark(), item_path + ".match-keys",
                 fmt::format("key {} may update zone {} (allow-update), but it picks view {}, which serves its own "
                             "copy: its UPDATEs write that copy; list the key in the view zone's allow-update instead",
                             key.to_text(), own.origin.to_text(), view.name));
          }
        }
      }
    }
  }

  // Read after writes and client-subnet, wherever they are in the file: match-keys names keys
  // of writes.tsig-keys, and ecs needs trusted resolvers.
  void views(const YAML::Node& node, const std::string& path, Config& config) const {
    if (node.IsNull()) return;
    if (!node.IsSequence()) fail(node.Mark(), path, "expected a list of views");
    for (std::size_t i = 0; i < node.size(); ++i) {
      std::string item_path = fmt::format("{}[{}]", path, i);
      ViewConfig view;
      bool has_name = false;
      YAML::Node zones_node;
      YAML::Node ecs_node;
      each_entry(node[i], item_path, child_keys("views[]"),
                 [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                   if (key == "name") {
                     view.name = scalar(value, key_path);
                     if (!valid_view_name(view.name)) {
                       fail(value.Mark(), key_path, "expected 1 to 64 of A-Z a-z 0-9 . _ -");
                     }
                     if (view.name == "default") {  // pools' `views:` name the top-level zones so
                       fail(value.Mark(), key_path, "'default' names the top-level zones; choose another name");
                     }
                     for (const auto& other : config.views) {
                       if (other.name == view.name) fail(value.Mark(), key_path, "view " + view.name + " is listed twice");
                     }
                     has_name = true;
                   }
                   if (key == "match-clients") view.match_clients = prefixes(value, key_path);
                   if (key == "match-keys") view.match_keys = key_names(value, key_path, config);
                   if (key == "ecs") {
                     view.ecs = boolean(value, key_path);
                     ecs_node = value;
                   }
                   if (key == "zones") zones_node = value;
                 });
      if (!has_name) fail(node[i].Mark(), item_path, "missing required key 'name'");
      if (view.match_clients.empty() && view.match_keys.empty()) {
        fail(node[i].Mark(), item_path, "view " + view.name + " matches no client: give match-clients or match-keys");
      }
      if (view.ecs && view.match_clients.empty()) {
        fail(ecs_node.Mark(), item_path + ".ecs", "ecs matches client subnets against match-clients, which is not set");
      }
      if (view.ecs && config.client_subnet.trust.empty()) {
        fail(ecs_node.Mark(), item_path + ".ecs",
             "no resolver's client subnet is trusted: set client-subnet.trust to the resolvers that send it");
      }
      std::string zones_path = item_path + ".zones";
      if (!zones_node.IsDefined() || zones_node.IsNull() || !zones_node.IsSequence() || zones_node.size() == 0) {
        fail(zones_node.IsDefined() ? zones_node.Mark() : node[i].Mark(), zones_path,
             "expected a non-empty list of zones (a view without zones answers as the default does)");
      }
      view.zones = zone_list(zones_node, zones_path, "views[].zones[]", " in this view");
      check_view_updaters(node[i], zones_node, item_path, view, config);
      config.views.push_back(std::move(view));
    }
  }

  Config document(const YAML::Node& root) const {
    Config config;
    config.source = label_;
    std::vector<Section> sections = registered_sections();
    // A key owned by a section is accepted only when that section is registered.
    std::vector<std::string> keys;
    for (const auto& key : child_keys("")) {
      bool owned = false;
      for (const auto& spec : config_keys()) owned = owned || (spec.path == key && spec.section);
      if (!owned) keys.push_back(key);
    }
    for (const auto& section : sections) keys.push_back(section.key);
    std::map<std::string, std::pair<YAML::Node, std::string>> section_nodes;
    std::optional<std::pair<YAML::Node, std::string>> views_node;
    each_entry(root, "", keys, [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
      if (key == "listen") listen(value, key_path, config);
      if (key == "threads") config.threads = count(value, key_path, kMaxThreads);
      if (key == "tcp") tcp(value, key_path, config);
      if (key == "log") log(value, key_path, config);
      if (key == "pid-file") config.pid_file = path_value(value, key_path);
      if (key == "control") control(value, key_path, config);
      if (key == "cookies") cookies(value, key_path, config);
      if (key == "client-subnet") client_subnet(value, key_path, config);
      if (key == "writes") read_writes(value, key_path, label_, base_dir_, config.writes);
      if (key == "zones") zones(value, key_path, config);
      if (key == "views") views_node = {value, key_path};
      if (std::any_of(sections.begin(), sections.end(), [&](const Section& s) { return s.key == key; })) {
        section_nodes[key] = {value, key_path};
      }
    });
    if (views_node) views(views_node->first, views_node->second, config);
    // Sections are read last, in registration order: pools must lie inside one of the
    // zones, wherever the zones are listed.
    for (const auto& section : sections) {
      auto found = section_nodes.find(section.key);
      if (found == section_nodes.end()) continue;
      config.sections[section.key] = section.read(*this, found->second.first, found->second.second, config);
    }
    if (config.listen.empty()) config.listen.push_back({kDefaultListen, *net::parse_socket_address(kDefaultListen)});
    check_zone_keys(config);
    return config;
  }

};

}  // namespace

namespace {
std::mutex sections_mutex;
std::vector<Section>& sections_list() {
  static std::vector<Section> list;
  return list;
}
}  // namespace

void register_section(Section section) {
  std::lock_guard lock(sections_mutex);
  auto& list = sections_list();
  for (auto& existing : list) {
    if (existing.key == section.key) {
      existing = std::move(section);
      return;
    }
  }
  list.push_back(std::move(section));
}

std::vector<Section> registered_sections() {
  std::lock_guard lock(sections_mutex);
  return sections_list();
}

Config parse_config(const std::string& yaml, const std::string& label, const std::string& base_dir) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", label, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return Reader(label, base_dir).document(root);
}

Config load_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open config file");
  std::ostringstream text;
  text << in.rdbuf();
  auto directory = std::filesystem::path(path).parent_path();
  return parse_config(text.str(), path, directory.empty() ? "." : directory.string());
}

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || value > 86'400'000) return std::nullopt;
  std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (unit == "ms") return std::chrono::milliseconds(value);
  if (unit.empty() || unit == "s") return std::chrono::seconds(value);
  if (unit == "m") return std::chrono::minutes(value);
  if (unit == "h") return std::chrono::hours(value);
  if (unit == "d") return std::chrono::hours(24 * value);
  return std::nullopt;
}

base::Result<ControlConfig> parse_control_listen(std::string_view text) {
  auto address = net::parse_socket_address(text);
  if (!address) return address.error();
  ControlConfig control;
  control.host = net::format_host(address->storage);
  control.port = address->port();
  return control;
}

std::optional<zone::RRsetOrder> parse_rrset_order(std::string_view text) {
  if (text == "fixed") return zone::RRsetOrder::kFixed;
  if (text == "cyclic") return zone::RRsetOrder::kCyclic;
  if (text == "random") return zone::RRsetOrder::kRandom;
  return std::nullopt;
}

}  // namespace cutover::config
