// Secondary: the secondary role. For each zone with a `primary`, one worker thread pulls the
// zone (AXFR at first, then IXFR with AXFR fallback, RFC 1995/5936), checks the primary's SOA
// on the REFRESH/RETRY timers, checks at once on NOTIFY (RFC 1996), and marks the zone
// unusable (SERVFAIL) while it has no copy or the copy expired. Every copy is applied through
// Store::write as a transfer-in write, so queries see the old zone or the new one, with the
// primary's serial. Thread-safe: notified() and unusable() may be called from any thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "net/address.h"
#include "replication/secondary/puller.h"
#include "replication/secondary/unusable_zones.h"
#include "replication/secondary/zone_timers.h"
#include "store/store.h"
#include "tsig/key.h"

namespace cutover::replication {

// Transfers larger than this are refused unless the zone sets max-transfer-bytes.
constexpr std::size_t kDefaultMaxTransferBytes = std::size_t{256} << 20;

struct SecondaryZone {
  dns::Name origin;
  net::SocketAddress primary;
  std::size_t max_transfer_bytes = kDefaultMaxTransferBytes;
  // Configured without a zone file: the store holds a placeholder until the first transfer
  // (or a journal that replayed one).
  bool starts_empty = false;
  std::optional<tsig::Key> key;  // primary-key: transfers are TSIG-signed and verified
};

class Secondary {
 public:
  // `store` and `logger` must outlive the secondary; every zone must be in the store by start().
  Secondary(std::vector<SecondaryZone> zones, store::Store& store, base::Logger& logger,
            std::shared_ptr<const base::Clock> clock = std::make_shared<base::RealClock>());
  ~Secondary();
  Secondary(const Secondary&) = delete;
  Secondary& operator=(const Secondary&) = delete;

  void start();
  void stop();
  // A NOTIFY for `zone` arrived from its primary: check it now. Never blocks.
  void notified(const dns::Name& zone);
  const UnusableZones& unusable() const { return unusable_; }
  // A secondary zone's file is read once, as its first copy: for such a zone this returns the
  // copy `loaded` was the first time, so a reload never edits transferred data. Other zones
  // pass through. Called on the reload thread only.
  std::shared_ptr<const zone::Zone> first_copy(std::shared_ptr<const zone::Zone> loaded);

 private:
  struct ZoneState {
    SecondaryZone config;
    ZoneTimers timers;
  };
  struct Pulled {
    store::ZoneData data;
    std::string method;  // "axfr", "ixfr", "ixfr-full" (the primary sent the whole zone)
    Transfer transfer;
  };

  void run();
  void check(ZoneState& zone);
  base::Result<Pulled> pull(const ZoneState& zone, const store::ZoneView& view,
                            const std::optional<dns::ResourceRecord>& current_soa);
  void fail(ZoneState& zone, const std::string& stage, const std::string& reason);
  void publish_unusable();

  store::Store& store_;
  base::Logger& logger_;
  std::shared_ptr<const base::Clock> clock_;
  std::map<std::string, std::shared_ptr<const zone::Zone>> first_copies_;
  std::vector<ZoneState> zones_;  // the worker thread's, after start()
  UnusableZones unusable_;
  std::vector<UnusableZone> unusable_now_;  // the set last published (worker thread)

  std::mutex mutex_;
  std::condition_variable wake_;
  std::set<std::string> notified_;  // zone keys with a NOTIFY not yet acted on
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cutover::replication
