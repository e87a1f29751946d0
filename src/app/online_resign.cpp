// OnlineResigner: a serial bump per online zone every refresh / 2, so secondaries re-transfer.
#include "app/online_resign.h"

#include <algorithm>

#include "auth/online_signing.h"
#include "base/load.h"
#include "store/serial.h"

namespace cutover::app {

base::Status OnlineResigner::start() {
  std::lock_guard lock(mutex_);
  stopping_ = false;
  last_.clear();
  auto now = std::chrono::steady_clock::now();
  for (const auto& signer : auth::online_signers()) last_[signer->origin()] = now;
  thread_ = std::thread([this] { run(); });
  return {};
}

void OnlineResigner::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void OnlineResigner::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    // A second is fine-grained enough for periods of hours or days (and of seconds in tests).
    wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    tick(std::chrono::steady_clock::now());
    lock.lock();
  }
}

std::size_t OnlineResigner::tick(std::chrono::steady_clock::time_point now) {
  std::size_t written = 0;
  auto zones = store_.zone_names();
  for (const auto& signer : auth::online_signers()) {
    const dns::Name& origin = signer->origin();
    if (std::find(zones.begin(), zones.end(), origin) == zones.end()) continue;
    auto period = std::chrono::seconds(std::max<std::uint32_t>(1, signer->policy().refresh / 2));
    {
      std::lock_guard lock(mutex_);
      auto [at, added] = last_.try_emplace(origin, now);
      if (added || now - at->second < period) continue;
      at->second = now;
    }
    auto view = store_.view(origin);
    if (!view) continue;
    const auto* soa = view->data.find(origin, dns::RRType::SOA);
    if (soa == nullptr || soa->rdatas.empty() || soa->rdatas.front().size() < 20) continue;
    // RFC 1035 §3.3.13: the serial is the first of the five 32-bit fields that end the rdata.
    dns::Rdata rdata = soa->rdatas.front();
    std::size_t at = rdata.size() - 20;
    std::uint32_t serial = store::serial_next(base::load_u32(rdata.data() + at));
    for (int i = 0; i < 4; ++i) rdata[at + i] = static_cast<std::uint8_t>(serial >> (24 - 8 * i));
    store::WriteRequest request;
    request.zone = origin;
    request.edits.push_back(store::Edit{store::Edit::Op::kReplaceRRset, origin, dns::RRType::SOA, soa->ttl, {rdata}});
    request.who = "dnssec";
    request.what = "serial raised so that secondaries transfer fresh signatures (online signing)";
    auto result = store_.write(std::move(request));
    if (result.ok()) {
      ++written;
      logger_.info("dnssec.resign", {{"zone", origin.to_text()}, {"serial", std::to_string(result.serial)}});
    } else {
      logger_.warn("dnssec.resign_failed", {{"zone", origin.to_text()}, {"reason", result.message}});
    }
  }
  return written;
}

}  // namespace cutover::app
