// Column layout for TextTable and the human duration format.
#include "tools/report/text_table.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace cutover::tools {

std::string TextTable::render() const {
  std::vector<std::size_t> widths(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      const std::string cell = i < row.size() ? row[i] : std::string();
      line += cell;
      if (i + 1 < widths.size()) line += std::string(widths[i] - cell.size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  emit(header_);
  std::vector<std::string> rule;
  for (std::size_t width : widths) rule.emplace_back(std::max<std::size_t>(width, 1), '-');
  emit(rule);
  for (const auto& row : rows_) emit(row);
  return out;
}

std::string human_duration(double seconds) {
  if (!std::isfinite(seconds)) return "unbounded";
  if (seconds < 60) return fmt::format("{:g}s", std::round(seconds * 100) / 100);
  auto whole = static_cast<long long>(std::llround(seconds));
  if (whole < 3600) return fmt::format("{}m {}s", whole / 60, whole % 60);
  if (whole < 86400) return fmt::format("{}h {}m", whole / 3600, (whole % 3600) / 60);
  return fmt::format("{}d {}h", whole / 86400, (whole % 86400) / 3600);
}

}  // namespace cutover::tools
