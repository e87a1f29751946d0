// Checker: the probe loop of one endpoint on its own thread. Probe k starts at
// first_start + k·I on the steady clock (no drift, no matter how long probes take), so
// detection time stays within [(F-1)·I + T, F·I + T]. Results go to a callback.
// start/stop from one thread; the callback runs on the checker's thread.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "health/probe.h"

namespace cutover::health {

class Checker {
 public:
  using ReportFn = std::function<void(const ProbeResult&)>;

  Checker(std::unique_ptr<Probe> probe, Target target, std::chrono::milliseconds interval,
          std::chrono::steady_clock::time_point first_start, ReportFn report);
  ~Checker();
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  void start();
  // Asks the loop to end; returns at once. join() waits (at most one probe timeout).
  void request_stop();
  void join();

 private:
  void loop();

  std::unique_ptr<Probe> probe_;
  Target target_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point next_start_;
  ReportFn report_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cutover::health
