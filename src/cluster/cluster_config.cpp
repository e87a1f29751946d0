// Reading `cluster:` with config's strict YAML primitives (file:line:column errors).
#include "cluster/cluster_config.h"

#include <any>

#include "config/section.h"
#include "config/yaml_reader.h"

namespace cutover::cluster {
namespace {

constexpr const char* kSectionKey = "cluster";

ClusterConfig read_cluster(const config::YamlReader& reader, const YAML::Node& node, const std::string& path) {
  ClusterConfig out;
  bool has_etcd = false;
  bool has_vantage = false;
  reader.each_entry(node, path, {"etcd", "vantage", "local-checker", "prefix", "suspect-after"},
                    [&](const std::string& key, const YAML::Node& value, const std::string& key_path) {
                      if (key == "etcd") {
                        has_etcd = true;
                        std::vector<YAML::Node> items;
                        if (value.IsSequence()) {
                          for (const auto& item : value) items.push_back(item);
                        } else {
                          items.push_back(value);
                        }
                        if (items.empty()) reader.fail(value.Mark(), key_path, "expected at least one etcd URL");
                        for (std::size_t i = 0; i < items.size(); ++i) {
                          std::string item_path = value.IsSequence() ? key_path + "[" + std::to_string(i) + "]" : key_path;
                          auto members = parse_etcd_urls(reader.scalar(items[i], item_path));
                          if (!members) reader.fail(items[i].Mark(), item_path, members.error().message);
                          out.etcd.insert(out.etcd.end(), members->begin(), members->end());
                        }
                      }
                      if (key == "vantage") {
                        has_vantage = true;
                        out.vantage = reader.scalar(value, key_path);
                        if (!valid_vantage_name(out.vantage)) {
                          reader.fail(value.Mark(), key_path, "expected 1 to 64 of A-Z a-z 0-9 . _ -");
                        }
                      }
                      if (key == "suspect-after") out.suspect_after = reader.duration(value, key_path);
                      if (key == "local-checker") out.local_checker = reader.boolean(value, key_path);
                      if (key == "prefix") {
                        out.prefix = reader.scalar(value, key_path);
                        if (!out.prefix.starts_with("/") || !out.prefix.ends_with("/")) {
                          reader.fail(value.Mark(), key_path, "expected a key prefix that starts and ends with /, like /cutover/");
                        }
                      }
                    });
  if (!has_etcd) reader.fail(node.Mark(), path, "missing required key 'etcd' (the etcd client URLs)");
  if (!has_vantage) reader.fail(node.Mark(), path, "missing required key 'vantage' (this server's vantage name)");
  return out;
}

}  // namespace

void register_cluster_section() {
  config::register_section({kSectionKey, [](const config::YamlReader& reader, const YAML::Node& node,
                                            const std::string& path, const config::Config&) {
                              return std::any(read_cluster(reader, node, path));
                            }});
}

std::optional<ClusterConfig> config_cluster(const config::Config& config) {
  auto found = config.sections.find(kSectionKey);
  if (found == config.sections.end()) return std::nullopt;
  return std::any_cast<const ClusterConfig&>(found->second);
}

bool same_cluster(const std::optional<ClusterConfig>& a, const std::optional<ClusterConfig>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->etcd.size() != b->etcd.size()) return false;
  for (std::size_t i = 0; i < a->etcd.size(); ++i) {
    if (a->etcd[i].url() != b->etcd[i].url()) return false;
  }
  return a->vantage == b->vantage && a->local_checker == b->local_checker && a->prefix == b->prefix &&
         a->suspect_after == b->suspect_after;
}

}  // namespace cutover::cluster
