// ZoneTimers: when a secondary zone is next checked against its primary and when its copy
// expires, from the SOA's REFRESH, RETRY and EXPIRE (RFC 1035 §4.3.5) and NOTIFY (RFC 1996
// §4.7). Pure state driven by the caller's time, so it is tested without waiting.
// Not thread-safe (the secondary's worker thread owns it).
//
//   no copy ──transfer ok──> fresh ──refresh elapsed──> checking ──ok──> fresh
//      │ fail: retry               ^                      │ fail: retry every RETRY
//      v                           └──────── ok ──────────┤
//   (still no copy)                                        └──EXPIRE since last ok──> expired
#pragma once

#include <chrono>
#include <cstdint>

#include "base/clock.h"
#include "dns/rdata.h"

namespace cutover::replication {

class ZoneTimers {
 public:
  using Duration = std::chrono::steady_clock::duration;
  // Until a first SOA is known, a zone without a copy retries this often.
  static constexpr Duration kInitialRetry = std::chrono::seconds(5);
  // SOA timers below this are raised to it, so a zero in the SOA cannot make a busy loop.
  static constexpr Duration kMinimumTimer = std::chrono::seconds(1);

  // A zone with no copy yet: checked at once, unusable until a transfer succeeds.
  static ZoneTimers without_copy(base::SteadyTime now);
  // A zone that starts from a copy (zone file or journal): served, checked at once, and
  // expiring EXPIRE from now unless a check succeeds.
  static ZoneTimers with_copy(base::SteadyTime now, const dns::SoaFields& soa);

  // The primary was reached and our copy is now current (transfer applied or same serial).
  void succeeded(base::SteadyTime now, const dns::SoaFields& soa);
  // The check or the transfer failed: try again after RETRY.
  void failed(base::SteadyTime now);
  // A NOTIFY from the primary: check now.
  void notified(base::SteadyTime now) { next_check_ = now; }

  base::SteadyTime next_check() const { return next_check_; }
  bool due(base::SteadyTime now) const { return now >= next_check_; }
  bool has_copy() const { return has_copy_; }
  // True when the copy may not be served: never transferred, or not confirmed for EXPIRE.
  bool unusable(base::SteadyTime now) const { return !has_copy_ || now >= expires_at_; }
  base::SteadyTime expires_at() const { return expires_at_; }

 private:
  void take_soa(const dns::SoaFields& soa);

  bool has_copy_ = false;
  Duration refresh_ = kInitialRetry;
  Duration retry_ = kInitialRetry;
  Duration expire_ = kInitialRetry;
  base::SteadyTime next_check_{};
  base::SteadyTime expires_at_{};
};

}  // namespace cutover::replication
