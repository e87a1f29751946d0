// monitored_endpoints: pool specs -> the health monitor's endpoints.
#include "pool/monitored_endpoints.h"

namespace cutover::pool {

std::vector<health::MonitoredEndpoint> monitored_endpoints(const std::vector<PoolSpec>& specs) {
  std::vector<health::MonitoredEndpoint> out;
  for (const auto& spec : specs) {
    for (std::size_t i = 0; i < spec.endpoints.size(); ++i) {
      const EndpointSpec& endpoint = spec.endpoints[i];
      health::MonitoredEndpoint monitored;
      monitored.pool = spec.name;
      monitored.pool_name = spec.owner;
      monitored.address = endpoint.address;
      monitored.hostname = endpoint.target.has_value();
      monitored.port = endpoint.port;
      monitored.check = endpoint.check;
      monitored.checks = endpoint.checks;
      monitored.combine = endpoint.combine;
      monitored.wait_for_first_check = spec.wait_for_first_check;
      monitored.quorum = spec.checkers;
      // Spread the pool's probes over the interval instead of firing them together.
      monitored.start_offset = endpoint.check.interval * static_cast<long>(i) / static_cast<long>(spec.endpoints.size());
      out.push_back(std::move(monitored));
    }
  }
  return out;
}

}  // namespace cutover::pool
