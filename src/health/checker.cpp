// Checker: a fixed-rate probe schedule; a probe that overran skips the slots it missed
// rather than firing a burst.
#include "health/checker.h"

namespace cutover::health {

Checker::Checker(std::unique_ptr<Probe> probe, Target target, std::chrono::milliseconds interval,
                 std::chrono::steady_clock::time_point first_start, ReportFn report)
    : probe_(std::move(probe)),
      target_(std::move(target)),
      interval_(interval),
      next_start_(first_start),
      report_(std::move(report)) {}

Checker::~Checker() {
  request_stop();
  join();
}

void Checker::start() { thread_ = std::thread([this] { loop(); }); }

void Checker::request_stop() {
  std::lock_guard lock(mutex_);
  stopping_ = true;
  wake_.notify_all();
}

void Checker::join() {
  if (thread_.joinable()) thread_.join();
}

void Checker::loop() {
  while (true) {
    {
      std::unique_lock lock(mutex_);
      if (wake_.wait_until(lock, next_start_, [this] { return stopping_; })) return;
    }
    ProbeResult result = probe_->run(target_);
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    report_(result);
    auto now = std::chrono::steady_clock::now();
    next_start_ += interval_;
    while (next_start_ <= now) next_start_ += interval_;
  }
}

}  // namespace cutover::health
