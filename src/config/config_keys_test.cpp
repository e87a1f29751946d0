// The key table (keys.h) against the reader: every key the reader handles is in the table and
// every table key is accepted by the reader, so the man page generated from it cannot drift.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "config/config.h"
#include "config/keys.h"

namespace cutover::config {
namespace {

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(CUTOVER_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(in) << relative;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The last component of a table path: "zones[].origin" -> "origin".
std::string leaf(std::string_view path) {
  auto dot = path.rfind('.');
  return std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

// The key names the reader's code dispatches on (`key == "..."`, `item["..."]`).
std::set<std::string> handled_by_reader() {
  std::set<std::string> names;
  std::regex pattern(R"re((?:key == |item\[)"([a-z0-9-]+)")re");
  for (const char* file : {"src/config/config.cpp", "src/config/replication.cpp"}) {
    std::string text = read_source(file);
    for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) names.insert((*it)[1]);
  }
  return names;
}

TEST(ConfigKeys, EveryKeyTheReaderHandlesIsInTheTableAndViceVersa) {
  std::set<std::string> table;
  for (const auto& key : config_keys()) {
    if (!key.section) table.insert(leaf(key.path));
  }
  std::set<std::string> reader = handled_by_reader();
  for (const auto& name : reader) EXPECT_TRUE(table.count(name)) << name << " is read but not in config/keys.cpp";
  for (const auto& name : table) EXPECT_TRUE(reader.count(name)) << name << " is in config/keys.cpp but not read";
  EXPECT_GT(reader.size(), 20u);  // the scan itself found the reader's keys
}

TEST(ConfigKeys, EveryEntryHasATypeAMeaningAndAParent) {
  std::set<std::string> paths;
  for (const auto& key : config_keys()) {
    EXPECT_FALSE(key.type.empty()) << key.path;
    EXPECT_FALSE(key.meaning.empty()) << key.path;
    EXPECT_TRUE(paths.insert(std::string(key.path)).second) << key.path << " twice";
    auto dot = key.path.rfind('.');
    if (dot == std::string_view::npos) continue;
    std::string parent(key.path.substr(0, dot));
    if (parent.size() > 2 && parent.substr(parent.size() - 2) == "[]") parent.resize(parent.size() - 2);
    EXPECT_TRUE(paths.count(parent)) << key.path << ": parent " << parent << " must come first";
  }
}

// A document setting `key` to its example value, with what it needs around it.
std::string document_for(const KeySpec& key) {
  std::string path(key.path);
  std::string value(key.example);
  const std::string tsig = "writes: {tsig-keys: [{name: k1, algorithm: hmac-sha256, secret: c2VjcmV0}]}\n";
  if (path.rfind("zones[].", 0) == 0) {
    std::string name = leaf(path);
    std::string zone = "{origin: example.test., file: x.zone, ";
    if (name == "origin") zone = "{file: x.zone, ";
    if (name == "file") zone = "{origin: example.test., ";
    if (name == "forward-updates") zone = "{origin: example.test., primary: \"127.0.0.1:5355\", ";
    if (path.rfind("zones[].dnssec.", 0) == 0) {  // mode online needs its keys beside it
      return tsig + "zones: [" + zone + "dnssec: {" + (name == "mode" ? "keys: k, " : "") + name + ": " + value + "}}]\n";
    }
    return tsig + "zones: [" + zone + name + ": " + value + "}]\n";
  }
  if (path.rfind("views[].", 0) == 0) {  // a whole view around the key, as views need one
    std::vector<std::pair<std::string, std::string>> zone = {{"origin", "example.test."}, {"file", "x.zone"}};
    std::vector<std::pair<std::string, std::string>> view = {{"name", "v"}, {"match-clients", "[\"10.0.0.0/8\"]"}};
    auto set = [](auto& entries, const std::string& key, const std::string& text) {
      for (auto& entry : entries) {
        if (entry.first == key) {
          entry.second = text;
          return;
        }
      }
      entries.emplace_back(key, text);
    };
    auto flow = [](const auto& entries) {
      std::string out = "{";
      for (const auto& [key, text] : entries) out += (out.size() > 1 ? ", " : "") + key + ": " + text;
      return out + "}";
    };
    std::string rest = path.substr(8);
    if (rest.rfind("zones[].", 0) == 0) set(zone, leaf(path), value);
    set(view, "zones", "[" + flow(zone) + "]");
    if (rest != "zones" && rest.rfind("zones[].", 0) != 0) set(view, rest, value);
    if (rest == "zones[].allow-update") set(view, "match-keys", "[k1]");  // a view zone's updaters are the view's keys
    return tsig + "client-subnet: {trust: 127.0.0.1}\nviews: [" + flow(view) + "]\n";
  }
  auto dot = path.find('.');
  if (dot == std::string::npos) return path + ": " + value + "\n";
  return path.substr(0, dot) + ": {" + path.substr(dot + 1) + ": " + value + "}\n";
}

TEST(ConfigKeys, EveryTableKeyWithItsExampleIsAccepted) {
  for (const auto& key : config_keys()) {
    // The examples of tsig-keys and allow-update cover their items' keys.
    if (key.section || key.path.find("tsig-keys[]") != std::string_view::npos ||
        key.path.find("allow-update[]") != std::string_view::npos) {
      continue;
    }
    std::string yaml = document_for(key);
    EXPECT_NO_THROW(parse_config(yaml, "keys.yaml", "/tmp")) << key.path << ":\n" << yaml;
  }
}

TEST(ConfigKeys, ASectionKeyIsUnknownUntilItsSectionIsRegistered) {
  // config_test does not register src/pool's section, so `pools:` is rejected at its place.
  try {
    parse_config("threads: 1\npools: {}\n", "t.yaml", ".");
    FAIL() << "pools accepted without its section";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("t.yaml:2:1: pools: unknown key"), std::string::npos) << e.what();
  }
}

TEST(ConfigKeys, DefaultsInTheTableAreTheReadersDefaults) {
  Config config = parse_config("threads: 1\n", "t.yaml", ".");
  auto default_of = [](std::string_view path) {
    for (const auto& key : config_keys()) {
      if (key.path == path) return std::string(key.default_value);
    }
    return std::string("<missing>");
  };
  EXPECT_EQ(default_of("listen"), config.listen.front().text);
  EXPECT_EQ(default_of("tcp.idle-timeout"), std::to_string(config.tcp.idle_timeout.count() / 1000) + "s");
  EXPECT_EQ(default_of("tcp.max-connections"), std::to_string(config.tcp.max_connections));
  EXPECT_EQ(default_of("tcp.busy-idle-timeout"), std::to_string(config.tcp.busy_idle_timeout.count()) + "ms");
  EXPECT_EQ(default_of("tcp.max-connections-per-client"), std::to_string(config.tcp.max_connections_per_client));
  EXPECT_EQ(default_of("log.level"), "info");
  EXPECT_EQ(config.log.level, base::LogLevel::kInfo);
  EXPECT_EQ(default_of("cookies.enabled"), config.cookies.enabled ? "true" : "false");
  EXPECT_EQ(default_of("cookies.require"), config.cookies.require ? "true" : "false");
  EXPECT_EQ(default_of("cookies.rotate"), std::to_string(config.cookies.rotate.count() / 3'600'000) + "h");
  EXPECT_EQ(default_of("log.queries"), config.log.queries ? "true" : "false");
}

}  // namespace
}  // namespace cutover::config
