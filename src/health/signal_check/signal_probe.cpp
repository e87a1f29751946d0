// signal probe: one board lookup per interval; no I/O, so it never comes near its timeout.
#include "health/signal_check/signal_probe.h"

#include <fmt/format.h>

#include "health/signal/signal_option.h"

namespace cutover::health {
namespace {

class SignalProbe : public Probe {
 public:
  SignalProbe(std::shared_ptr<SignalBoard> board, std::string name) : board_(std::move(board)), name_(std::move(name)) {}

  ProbeResult run(const Target& target) override {
    return read_signal(*board_, signal_name(name_, target), std::chrono::steady_clock::now());
  }

 private:
  std::shared_ptr<SignalBoard> board_;
  std::string name_;
};

}  // namespace

ProbeResult read_signal(const SignalBoard& board, const std::string& name, base::SteadyTime now) {
  ProbeTimer timer;
  auto state = board.get(name, now);
  if (!state) return timer.finish(ProbeOutcome::kError, fmt::format("signal {} is not set or its TTL ran out", name));
  return timer.finish(*state == SignalState::kUp ? ProbeOutcome::kPass : ProbeOutcome::kFail,
                      fmt::format("signal {} is {}", name, signal_state_to_text(*state)));
}

void register_signal_check_probe(ProbeRegistry& registry) {
  registry.add(ProbeType{
      .name = "signal",
      .needs_port = false,
      .option_keys = {"signal"},
      .options = options_parser<SignalOptions>([](SignalOptions& options, const std::string& key, const OptionReader& reader) {
        if (key == "signal") read_signal_name(options.signal, key, reader);
      }),
      .create = [board = registry.signals()](const CheckSettings& settings) -> base::Result<std::unique_ptr<Probe>> {
        const auto* options = settings.options_as<SignalOptions>();
        return std::unique_ptr<Probe>(std::make_unique<SignalProbe>(board, options ? options->signal : std::string()));
      },
  });
}

}  // namespace cutover::health
