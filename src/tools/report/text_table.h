// TextTable: rows of cells printed as left-aligned columns for the tools' default output.
// Not thread-safe per object.
#pragma once

#include <string>
#include <vector>

namespace cutover::tools {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  // Rows shorter than the header are padded with empty cells.
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Header, a dashed rule, then the rows; columns separated by two spaces, no trailing blanks.
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// "1d 0h", "2h 5m", "4m 10s", "42s": a duration in seconds for people, exact below a minute.
std::string human_duration(double seconds);

}  // namespace cutover::tools
