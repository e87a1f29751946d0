// Watch mode: rounds at a fixed interval, per-resolver switch times, stop on agreement.
#include <map>
#include <thread>

#include "tools/sweep/sweep.h"

namespace cutover::tools {

SweepWatch sweep_watch(const SweepSpec& spec, const WatchOptions& options) {
  using Clock = std::chrono::steady_clock;
  SweepWatch watch;
  std::map<std::string, bool> differed;  // resolver -> seen differing in an earlier round
  const auto start = Clock::now();
  const auto deadline = start + options.max_duration;
  for (auto next = start;; next += options.interval) {
    SweepRound round = sweep_once(spec);
    round.elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    for (const auto& source : round.sources) {
      if (source.authoritative || source.status == "silent") continue;
      bool& seen = differed[source.probe.server];
      if (source.status == "differs") {
        seen = true;
      } else if (seen && source.status == "ok") {
        watch.switches.push_back({source.probe.server, round.elapsed});
        seen = false;
      }
    }
    bool agreed = round.all_agree;
    if (agreed && !watch.agreed_after) watch.agreed_after = round.elapsed;
    watch.rounds.push_back(std::move(round));
    if (agreed && options.until_agree) break;
    if (next + options.interval > deadline) break;
    std::this_thread::sleep_until(next + options.interval);
  }
  return watch;
}

}  // namespace cutover::tools
