// The reference client (`cutover fetch`): one HTTP GET at a time through the stub resolver's
// cache, RFC 8305 connection racing and the connection pool that retires addresses that
// left the answer. Each request gives one FetchRecord, the lab's per-request log line.
// Blocking; one Fetcher is used by one thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "base/clock.h"
#include "client/connection_pool.h"
#include "client/happy_eyeballs.h"
#include "client/http.h"
#include "client/resolv_conf.h"
#include "client/stub_resolver.h"

namespace cutover::client {

// The kinds of failure of the per-request log ("error").
enum class FetchError { kNone, kRefused, kTimeout, kReset, kTls, kDns, kOther };

// "refused", "timeout", ... ; "" for kNone.
std::string fetch_error_text(FetchError error);

struct FetchOptions {
  HappyEyeballsOptions connect;
  PoolOptions pool;
  std::chrono::milliseconds response_timeout{10000};  // from sending the request to the whole body
  bool keep_alive = true;  // false: a new connection per request ("Connection: close")
};

struct FetchRecord {
  double time = 0;                    // unix time, seconds, when the request started
  std::optional<std::string> peer;    // "ip:port" of the connection used
  std::optional<bool> new_connection;
  std::optional<Response> response;   // when a response arrived
  FetchError error = FetchError::kNone;
  std::string detail;                 // short text: the HTTP status, or what failed
  std::vector<ConnectAttempt> attempts;  // of a new connection, in start order
  // The origin's identity: the body without surrounding whitespace, when a response arrived.
  std::optional<std::string> origin() const;
};

class Fetcher {
 public:
  // `clock` (for the DNS cache and the pool) must outlive the fetcher; `trace` gets every
  // clock the client reads as it happens (lookups, cache hits and misses with the TTL left,
  // negative TTLs, each connect attempt with its family and delay, pool reuse and retirement).
  Fetcher(ResolverConfig resolver, FetchOptions options, const base::Clock& clock, TraceSink trace = {});

  FetchRecord fetch(const Url& url);

  const ConnectionPool& pool() const { return pool_; }

 private:
  // Sends the request on `connection` and reads the response; fills `record`. Returns whether
  // the connection may be reused, and sets `stale` when a reused connection failed before
  // any byte of a response (the request may then be retried on a new one, RFC 9112 §9.3.1).
  bool exchange(const Url& url, PooledConnection& connection, FetchRecord& record, bool& stale);
  void note(const std::string& line) const {
    if (trace_) trace_(line);
  }

  FetchOptions options_;
  const base::Clock& clock_;
  TraceSink trace_;
  StubResolver resolver_;
  ConnectionPool pool_;
};

}  // namespace cutover::client
