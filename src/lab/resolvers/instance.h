// Running resolver instances: ResolverInstance starts one product with one configuration in
// its own directory on a free port, waits until it answers, and stops it by PID.
// InstancePool starts each (resolver, configuration, isolation) instance once, on first use,
// so concurrent cases share an instance only when they may. The pool is thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/result.h"
#include "lab/process.h"
#include "lab/resolvers/resolver.h"
#include "net/address.h"

namespace cutover::lab {

class ResolverInstance {
 public:
  // `probe_name` is asked until any reply comes back (up to 20 s).
  static base::Result<std::unique_ptr<ResolverInstance>> start(const ResolverAdapter& adapter,
                                                               const ResolverConfig& config, const std::string& dir,
                                                               const std::string& probe_name);
  const net::SocketAddress& address() const { return address_; }
  const std::string& log_path() const { return log_path_; }
  void stop() { process_.stop(); }

 private:
  ResolverInstance() = default;
  ChildProcess process_;
  net::SocketAddress address_;
  std::string log_path_;
};

class InstancePool {
 public:
  // `root_dir` holds one directory per instance; `probe_zone` is where ready probes go.
  InstancePool(const ResolverAdapter& adapter, std::string root_dir);
  ~InstancePool() { stop_all(); }

  // The instance for `config` (+ `isolation`: a non-empty tag gets a private instance).
  // A failed start is remembered and returned to every later caller.
  base::Result<ResolverInstance*> get(const ResolverConfig& config, const std::string& isolation,
                                      const std::string& probe_name);
  void stop_all();

 private:
  struct Slot {
    std::once_flag once;
    std::unique_ptr<ResolverInstance> instance;
    base::Error error;
  };
  const ResolverAdapter& adapter_;
  std::string root_dir_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;
};

}  // namespace cutover::lab
