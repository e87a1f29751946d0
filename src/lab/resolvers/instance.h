// Running resolver instances: ResolverInstance starts one product with one configuration in
// its own directory on a free port, waits until it answers, and stops it by PID.
// InstancePool starts each (resolver, configuration, isolation) instance once, on first use,
// so concurrent cases share an instance only when they may. The pool is thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "lab/process.h"
#include "lab/resolvers/resolver.h"
#include "net/address.h"

namespace cutover::lab {

using ConfigFiles = std::vector<std::pair<std::string, std::string>>;  // name inside the directory, content

// The configuration one instance ran with: the files the adapter generated (its effective
// configuration, as written on the last start attempt) and whether it started.
struct InstanceRecord {
  std::string key;     // the instance's directory name, e.g. "stale15-e3-drop-stale15"
  std::string status;  // "ok", or the first line of why it did not start
  ConfigFiles files;
};

class ResolverInstance {
 public:
  // `probe_name` is asked until any reply comes back (up to 20 s). `files` receives the
  // generated configuration of the last attempt, whether the start succeeds or not.
  // `fixed_port` (0: a free one) is where it listens on 127.0.0.1; `exec_prefix` runs the
  // command inside something (a client case's `ip netns exec NAME`), in whose network the
  // calling thread must then be for the readiness probe.
  static base::Result<std::unique_ptr<ResolverInstance>> start(const ResolverAdapter& adapter,
                                                               const ResolverConfig& config, const std::string& dir,
                                                               const std::string& probe_name, ConfigFiles* files = nullptr,
                                                               std::uint16_t fixed_port = 0,
                                                               const std::vector<std::string>& exec_prefix = {});
  const net::SocketAddress& address() const { return address_; }
  const std::string& log_path() const { return log_path_; }
  const std::string& dir() const { return dir_; }  // where its generated configuration is
  void stop() { process_.stop(); }

 private:
  ResolverInstance() = default;
  ChildProcess process_;
  net::SocketAddress address_;
  std::string log_path_;
  std::string dir_;
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
  // Every instance asked for so far, in key order, with its generated configuration.
  std::vector<InstanceRecord> records();
  // The key get() files `config` + `isolation` under.
  static std::string key_of(const ResolverConfig& config, const std::string& isolation);

 private:
  struct Slot {
    std::once_flag once;
    std::unique_ptr<ResolverInstance> instance;
    base::Error error;
    ConfigFiles files;
  };
  const ResolverAdapter& adapter_;
  std::string root_dir_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;
};

}  // namespace cutover::lab
