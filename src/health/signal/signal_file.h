// The signal file format that `file` checks read (health/file/, gdnsd's extfile): one
// `NAME = UP|DOWN` per line, states in any case, blanks around `=` optional, `#` starts a
// comment. Names follow valid_signal_name (signal_board.h), so a file line and a pushed
// signal name the same things. Pure functions over text; thread-safe.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "health/signal/signal_board.h"

namespace cutover::health {

// One file's contents. Lines that do not parse are listed by number and skipped; a name
// given twice takes its last line.
struct SignalFile {
  std::map<std::string, SignalState> states;
  std::vector<std::size_t> bad_lines;  // 1-based
};
SignalFile parse_signal_file(std::string_view text);

}  // namespace cutover::health
