// CookieJar: the DNS Cookie secrets every listener thread answers with (RFC 7873, RFC 9018).
// Configured secrets are taken as they are (and replaced on reload, so servers that share
// them can roll them without a restart); without them a random secret is made at start and
// replaced every `rotate`, the previous one still accepted for as long as its cookies live.
// Thread-safe: current() is lock-free for the hot path.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "base/published.h"
#include "config/config.h"
#include "dns/edns_options.h"

namespace cutover::server {

class CookieJar {
 public:
  explicit CookieJar(const config::CookieConfig& config);
  ~CookieJar();
  CookieJar(const CookieJar&) = delete;
  CookieJar& operator=(const CookieJar&) = delete;

  // The secrets as this thread last saw them; null when cookies are off. Valid until this
  // thread's next current().
  const dns::CookieSecrets* current() const;
  // Takes the cookie settings of a reloaded config.
  void reload(const config::CookieConfig& config);
  // Makes a new random secret the current one and keeps the previous for validation (the
  // rotation thread's step; tests call it directly). No-op with configured secrets.
  void rotate();

 private:
  void publish_locked();
  void run();

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  config::CookieConfig config_;
  std::vector<dns::CookieSecret> generated_;  // newest first, at most two
  std::uint64_t generation_ = 0;
  base::Published<dns::CookieSecrets> published_;
  bool stopping_ = false;
  std::thread rotator_;
};

}  // namespace cutover::server
