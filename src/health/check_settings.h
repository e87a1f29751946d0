// CheckSettings: how one endpoint is probed (type, timing, thresholds and the type's own
// options), as read from the config. Plain value type; thread-compatible.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dns/name.h"
#include "dns/types.h"

namespace cutover::health {

// Defaults give D = [(F-1)·I + T, F·I + T] = [22 s, 32 s]: as fast as Route 53's "fast"
// 10 s checks, while two tolerated failures keep one lost probe from flapping an answer.
constexpr std::chrono::milliseconds kDefaultInterval{10'000};
constexpr std::chrono::milliseconds kDefaultTimeout{2'000};
constexpr int kDefaultFall = 3;
constexpr int kDefaultRise = 2;
constexpr std::size_t kDefaultBodyLimit = 64 * 1024;

struct StatusRange {
  int low = 200;
  int high = 399;
};

struct HttpCheck {
  std::string method = "GET";
  std::string path = "/";
  std::string host;  // Host header, and for https the SNI name and the name the certificate must match
  std::vector<StatusRange> expect_status{StatusRange{}};
  std::string body_contains;  // empty: the body is not checked
  std::size_t body_limit = kDefaultBodyLimit;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string ca_file;  // https: trust anchors; empty uses the system store
};

struct DnsCheck {
  dns::Name qname;  // the root (empty) means: the pool's own name
  dns::RRType qtype = dns::RRType::SOA;
  dns::Rcode rcode = dns::Rcode::kNoError;
  std::string expect_answer;  // empty: any answer; else one answer rdata must print as this
  bool tcp = false;
};

struct ExecCheck {
  std::string command;  // run by /bin/sh -c with CUTOVER_ENDPOINT_* in its environment
};

struct CheckSettings {
  std::string type = "tcp";
  std::chrono::milliseconds interval = kDefaultInterval;
  std::chrono::milliseconds timeout = kDefaultTimeout;
  int fall = kDefaultFall;  // consecutive failures to go down
  int rise = kDefaultRise;  // consecutive passes to come back up
  std::optional<std::uint16_t> port;  // probe port when it differs from the endpoint's
  HttpCheck http;
  DnsCheck dns;
  ExecCheck exec;
};

}  // namespace cutover::health
