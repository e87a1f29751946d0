// The exec probe: runs an operator's command with the endpoint in its environment; exit
// status 0 passes. The command is killed (its whole process group) at the timeout.
// One thread per probe.
#pragma once

#include "health/exec/exec_options.h"
#include "health/probe.h"

namespace cutover::health {

void register_exec_probe(ProbeRegistry& registry);

}  // namespace cutover::health
