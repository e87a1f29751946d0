// The dns probe: asks the endpoint one question (client::query) and passes when the rcode
// matches and, if configured, one answer record prints as expected. One thread per probe.
#pragma once

#include "health/dns/dns_options.h"
#include "health/probe.h"

namespace cutover::health {

void register_dns_probe(ProbeRegistry& registry);

}  // namespace cutover::health
