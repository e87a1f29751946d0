// The networks file and region orders of steered pools.
#include "pool/steering/steering.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace cutover::pool {

std::size_t SteeringSpec::find(const std::string& region) const {
  for (std::size_t i = 0; i < regions.size(); ++i) {
    if (regions[i].name == region) return i;
  }
  return regions.size();
}

std::vector<RegionSpec> default_region_orders(const std::vector<std::string>& names) {
  std::vector<RegionSpec> out;
  for (const auto& name : names) {
    RegionSpec region{name, {name}};
    for (const auto& other : names) {
      if (other != name) region.order.push_back(other);
    }
    out.push_back(std::move(region));
  }
  return out;
}

namespace {

base::Error place_error(const std::string& label, std::size_t line, std::size_t column, const std::string& message) {
  return base::make_error(base::ErrorCode::kMalformed, fmt::format("{}:{}:{}: {}", label, line, column, message));
}

}  // namespace

base::Result<base::NetworkTable> parse_networks(const std::string& text, const std::string& label,
                                                const std::vector<RegionSpec>& regions) {
  base::NetworkTable table;
  std::istringstream lines(text);
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    // Words with their columns (1-based).
    std::vector<std::pair<std::string, std::size_t>> words;
    for (std::size_t i = 0; i < line.size();) {
      if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
        ++i;
        continue;
      }
      std::size_t end = line.find_first_of(" \t\r", i);
      if (end == std::string::npos) end = line.size();
      words.emplace_back(line.substr(i, end - i), i + 1);
      i = end;
    }
    if (words.empty()) continue;
    if (words.size() != 2) {
      return place_error(label, number, words.size() < 2 ? line.size() + 1 : words[2].second,
                         "expected PREFIX REGION, like 192.0.2.0/24 eu");
    }
    auto prefix = base::parse_network_prefix(words[0].first);
    if (!prefix) {
      return place_error(label, number, words[0].second,
                         fmt::format("'{}' is not an address or address/prefix", words[0].first));
    }
    if (!prefix->host_bits_clear()) {
      return place_error(label, number, words[0].second,
                         fmt::format("{} has bits set past /{} (did you mean {}?)", words[0].first, prefix->bits,
                                     prefix->masked().to_text()));
    }
    std::size_t region = regions.size();
    for (std::size_t i = 0; i < regions.size(); ++i) {
      if (regions[i].name == words[1].first) region = i;
    }
    if (region == regions.size()) {
      std::string known;
      for (const auto& each : regions) known += (known.empty() ? "" : ", ") + each.name;
      return place_error(label, number, words[1].second,
                         fmt::format("unknown region '{}' (the pool's regions: {})", words[1].first, known));
    }
    if (auto added = table.add(*prefix, static_cast<std::uint32_t>(region)); !added) {
      return place_error(label, number, words[0].second, added.error().message);
    }
  }
  table.seal();  // every query looks its client up here
  return table;
}

base::Result<base::NetworkTable> load_networks_file(const std::string& path, const std::vector<RegionSpec>& regions) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return base::make_error(base::ErrorCode::kNotFound, fmt::format("{}: cannot read the networks file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_networks(text.str(), path, regions);
}

}  // namespace cutover::pool
