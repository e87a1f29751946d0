// The http and https probes (libcurl): one request to the endpoint's address, checked for
// status, optional body substring and, over TLS, a valid certificate for the configured
// host name (sent as SNI). Each probe owns its settings; run() is used by one thread.
#pragma once

#include "health/http/http_options.h"
#include "health/probe.h"

namespace cutover::health {

void register_http_probe(ProbeRegistry& registry);

// "Jun 12 00:00:00 2030 GMT" (OpenSSL's certificate date format) to whole days from `now`
// (negative once expired); nullopt when the text does not parse.
std::optional<int> days_until(const std::string& expire_text, std::chrono::system_clock::time_point now);

// True when `status` lies in one of the ranges.
bool status_expected(int status, const std::vector<StatusRange>& ranges);

}  // namespace cutover::health
