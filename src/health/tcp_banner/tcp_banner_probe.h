// The tcp-banner probe: connects, reads the first bytes the endpoint sends and passes when
// they start with the configured prefix (SMTP "220 ", SSH "SSH-2.0-"). Each probe owns its
// options; run() is used by one checker thread at a time.
#pragma once

#include <string>

#include "health/probe.h"

namespace cutover::health {

struct TcpBannerOptions : ProbeOptions {
  std::string expect;  // the banner's first bytes; required
};

void register_tcp_banner_probe(ProbeRegistry& registry);

// Connects to `target.socket` and reads at most expect.size() bytes within `timeout` in all
// (connect included). Stops reading as soon as the bytes read differ from the prefix.
ProbeResult probe_tcp_banner(const Target& target, const std::string& expect, std::chrono::milliseconds timeout);

}  // namespace cutover::health
