// SOA timer arithmetic for secondary zones.
#include "replication/secondary/zone_timers.h"

#include <algorithm>

namespace cutover::replication {
namespace {

ZoneTimers::Duration seconds_at_least(std::uint32_t seconds) {
  return std::max<ZoneTimers::Duration>(std::chrono::seconds(seconds), ZoneTimers::kMinimumTimer);
}

}  // namespace

ZoneTimers ZoneTimers::without_copy(base::SteadyTime now) {
  ZoneTimers timers;
  timers.next_check_ = now;
  timers.expires_at_ = now;
  return timers;
}

ZoneTimers ZoneTimers::with_copy(base::SteadyTime now, const dns::SoaFields& soa) {
  ZoneTimers timers;
  timers.take_soa(soa);
  timers.has_copy_ = true;
  timers.next_check_ = now;
  timers.expires_at_ = now + timers.expire_;
  return timers;
}

void ZoneTimers::take_soa(const dns::SoaFields& soa) {
  refresh_ = seconds_at_least(soa.refresh);
  retry_ = seconds_at_least(soa.retry);
  expire_ = seconds_at_least(soa.expire);
}

void ZoneTimers::succeeded(base::SteadyTime now, const dns::SoaFields& soa) {
  take_soa(soa);
  has_copy_ = true;
  next_check_ = now + refresh_;
  expires_at_ = now + expire_;
}

void ZoneTimers::failed(base::SteadyTime now) { next_check_ = now + retry_; }

}  // namespace cutover::replication
