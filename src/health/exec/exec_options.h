// The options of the exec probe, and the reading of its one key of a check mapping.
// ExecOptions is a plain value type; read_exec_option is stateless.
#pragma once

#include <string>

#include "health/probe_options.h"

namespace cutover::health {

struct ExecOptions : ProbeOptions {
  std::string command;  // run by /bin/sh -c with CUTOVER_ENDPOINT_* in its environment
};

void read_exec_option(ExecOptions& options, const std::string& key, const OptionReader& reader);

}  // namespace cutover::health
