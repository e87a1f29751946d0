// A `cutover serve --config DIR/cutover.yaml` that a lab fixture starts (E10's pool server,
// E13's views): on a free port of 127.0.0.1, again on another port when the first was taken
// meanwhile, and ready once it answers a probe question. Thread-safe free function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "dns/types.h"
#include "lab/process.h"

namespace cutover::lab {

struct ServeProcess {
  ChildProcess process;
  std::uint16_t port = 0;
};

// `extra_args` follow the config and listen arguments; `probe`/`type` is asked until it is
// answered (10 s per try, 4 tries); `what` names the server in the error, with its log's tail.
base::Result<ServeProcess> start_cutover_serve(const std::string& cutover_binary, const std::string& dir,
                                               const std::string& log_path, const std::vector<std::string>& extra_args,
                                               const std::string& probe, dns::RRType type, const std::string& what);

}  // namespace cutover::lab
