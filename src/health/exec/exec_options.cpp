// Reading of the exec probe's one option, `command` (README.md).
#include "health/exec/exec_options.h"

namespace cutover::health {

void read_exec_option(ExecOptions& options, const std::string& key, const OptionReader& reader) {
  if (key == "command") options.command = reader.scalar(key);
}

}  // namespace cutover::health
