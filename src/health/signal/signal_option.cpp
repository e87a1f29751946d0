// read_signal_name: the shared `signal:` key.
#include "health/signal/signal_option.h"

#include "health/signal/signal_board.h"

namespace cutover::health {

void read_signal_name(std::string& name, const std::string& key, const OptionReader& reader) {
  name = reader.scalar(key);
  if (!valid_signal_name(name)) reader.fail(key, "expected a signal name of 1 to 64 letters, digits, '.', '_' or '-'");
}

}  // namespace cutover::health
