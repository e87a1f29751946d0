// YamlOptionReader: health::OptionReader over one YAML mapping of the config, so that
// probe types and pool shapes read their own keys while errors still name
// "FILE:LINE:COL: path.to.key: ..." as every other config error does. Internal to
// src/pool/config; holds references to the reader and the node, which must outlive it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/yaml_reader.h"
#include "health/probe_options.h"

namespace cutover::pool {

class YamlOptionReader : public health::OptionReader {
 public:
  // `node` is the mapping; `path` its config path (pools.app.check).
  YamlOptionReader(const config::YamlReader& reader, const YAML::Node& node, std::string path)
      : reader_(reader), node_(node), path_(std::move(path)) {}

  std::string scalar(const std::string& key) const override { return reader_.scalar(value(key), path_of(key)); }
  bool boolean(const std::string& key) const override { return reader_.boolean(value(key), path_of(key)); }
  std::size_t number(const std::string& key, std::size_t min, std::size_t max) const override {
    return reader_.number(value(key), path_of(key), min, max);
  }
  std::chrono::milliseconds duration(const std::string& key) const override {
    return reader_.duration(value(key), path_of(key));
  }
  std::string file_path(const std::string& key) const override { return reader_.path_value(value(key), path_of(key)); }
  std::vector<std::pair<std::string, std::string>> string_map(const std::string& key,
                                                              const std::string& what) const override {
    YAML::Node map = value(key);
    if (!map.IsMap()) reader_.fail(map.Mark(), path_of(key), what);
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& entry : map) {
      std::string name = entry.first.Scalar();
      out.emplace_back(name, reader_.scalar(entry.second, path_of(key) + "." + name));
    }
    return out;
  }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const override {
    reader_.fail(value(key).Mark(), path_of(key), message);
  }

 private:
  YAML::Node value(const std::string& key) const { return node_[key]; }
  std::string path_of(const std::string& key) const { return path_ + "." + key; }

  const config::YamlReader& reader_;
  const YAML::Node& node_;
  std::string path_;
};

}  // namespace cutover::pool
