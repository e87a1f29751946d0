// The `file` probe (gdnsd's extfile): an external system writes a file of `NAME = UP|DOWN`
// lines; the check reads the line of its signal name, re-reading the file whenever its
// modification time, size or inode changed. UP is a pass, DOWN a failure; no such line, no
// file, or a line that does not parse is an error (unknown). Options are a plain value; a
// probe instance is used by one checker thread.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "health/probe.h"
#include "health/signal_board.h"

namespace cutover::health {

struct FileOptions : ProbeOptions {
  std::string file;    // absolute path (relative ones are taken from the config's directory)
  std::string signal;  // the line's name; empty: the probed address
};

// One file's contents: `NAME = UP|DOWN` per line (states in any case, blanks around `=`
// optional), `#` starts a comment. Lines that do not parse are listed by number and
// skipped; a name given twice takes its last line.
struct SignalFile {
  std::map<std::string, SignalState> states;
  std::vector<std::size_t> bad_lines;  // 1-based
};
SignalFile parse_signal_file(std::string_view text);

}  // namespace cutover::health
