// Notifier: sends NOTIFY (RFC 1996) for a zone to its configured secondaries after every
// change, from one background thread, retrying each target a few times until it answers.
// changed() never blocks (it only queues), so the write path may call it under its lock.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/log.h"
#include "dns/name.h"
#include "net/address.h"
#include "tsig/key.h"

namespace cutover::replication {

// Where one zone's NOTIFYs go, and the key that signs them (the zone's transfer-key, so a
// secondary that pulls with that key can tell the NOTIFY is its primary's, RFC 8945 §5).
struct NotifyTargets {
  std::vector<net::SocketAddress> addresses;
  std::optional<tsig::Key> key;
};

class Notifier {
 public:
  // `targets` maps a zone's journal key (store::zone_key, or store::view_zone_key for a view's
  // own copy) to where its NOTIFYs go.
  Notifier(std::map<std::string, NotifyTargets> targets, base::Logger& logger);
  ~Notifier();
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  void start();
  void stop();
  void changed(const dns::Name& zone, std::uint32_t serial);
  // The same for the copy of `zone` under journal key `key` (a view's own zone).
  void changed(const std::string& key, const dns::Name& zone, std::uint32_t serial);

 private:
  struct Pending {
    std::string key;
    dns::Name zone;
    std::uint32_t serial = 0;
  };
  void run();
  void send_all(const Pending& pending);

  std::map<std::string, NotifyTargets> targets_;
  base::Logger& logger_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cutover::replication
