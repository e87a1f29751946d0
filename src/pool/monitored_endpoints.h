// The endpoints the health monitor probes for a set of pools: one MonitoredEndpoint per pool
// endpoint, its probes spread over the interval. The pool service and `cutover checker`
// (src/cluster/) run the same list. Pure function; thread-safe.
#pragma once

#include <vector>

#include "health/health_monitor.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

std::vector<health::MonitoredEndpoint> monitored_endpoints(const std::vector<PoolSpec>& specs);

}  // namespace cutover::pool
