// The `file` probe (gdnsd's extfile): an external system writes a file of `NAME = UP|DOWN`
// lines (the format of health/signal/signal_file.h); the check reads the line of its signal
// name, re-reading the file whenever its modification time, size or inode changed. UP is a pass, DOWN a failure; no such line, no
// file, or a line that does not parse is an error (unknown). Options are a plain value; a
// probe instance is used by one checker thread.
#pragma once

#include <string>

#include "health/probe.h"
#include "health/signal/signal_file.h"

namespace cutover::health {

struct FileOptions : ProbeOptions {
  std::string file;    // absolute path (relative ones are taken from the config's directory)
  std::string signal;  // the line's name; empty: the endpoint's address
};

}  // namespace cutover::health
