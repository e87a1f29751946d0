// Fresh signatures for the secondaries of zones signed online (docs/dnssec.md, "Online
// signing"): a secondary serves the signed copy it transferred (AXFR of an online zone is
// signed) and transfers again only when the SOA serial moves, so a zone that is not written
// for longer than its signature lifetime would leave its secondaries serving expired
// signatures. Every `refresh / 2` this service raises the serial of each online zone in the
// store by one, as a journaled write (who "dnssec"), which notifies the secondaries; the
// transfer they make then carries signatures with at least `refresh` left. The same answer
// BIND's and Knot's inline signing give by bumping the serial when they re-sign.
// Thread-safe; one thread while started.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "base/log.h"
#include "dns/name.h"
#include "server/server.h"
#include "store/store.h"

namespace cutover::app {

class OnlineResigner : public server::Service {
 public:
  // `store` holds the zones (a journal, or secondary zones); it must outlive the service.
  OnlineResigner(store::Store& store, base::Logger& logger) : store_(store), logger_(logger) {}
  ~OnlineResigner() override { stop(); }

  std::string name() const override { return "dnssec-resign"; }
  base::Status start() override;
  void stop() override;

  // One pass at `now`: every online zone of the store whose last serial bump (or the start) is
  // `refresh / 2` ago gets one. Returns how many zones it wrote.
  std::size_t tick(std::chrono::steady_clock::time_point now);

 private:
  void run();

  store::Store& store_;
  base::Logger& logger_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  std::map<dns::Name, std::chrono::steady_clock::time_point, dns::NameCanonicalLess> last_;  // by zone
};

}  // namespace cutover::app
