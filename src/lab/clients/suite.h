// ClientSuite: the client runtimes of one `cutover lab run --clients`: their adapters, the
// shipped programs written out once, each runtime built and its version read once (on first
// use), the resolver adapter the client cases run inside their namespaces (the first of
// --resolvers), and where the raw per-request logs go. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <vector>

#include "lab/clients/client.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {

class ClientSuite {
 public:
  // `out_dir`/clients receives the raw logs, `out_dir`/work/clients the programs and builds.
  ClientSuite(std::vector<std::string> ids, const std::string& resolver_spec, const std::string& out_dir,
              const std::string& cutover_binary);

  struct Client {
    std::unique_ptr<ClientAdapter> adapter;  // null for an unknown id
    std::string version;
    std::string unavailable;  // why it cannot run ("not supported: ..."), empty when it can
    std::string log_tail;     // of a failed build
  };
  // The client `id`, prepared on first use.
  const Client& client(const std::string& id);

  const std::vector<std::string>& ids() const { return ids_; }
  const ClientPaths& paths() const { return paths_; }
  const std::string& out_dir() const { return out_dir_; }
  std::string logs_dir() const { return out_dir_ + "/clients"; }
  std::string work_dir() const { return out_dir_ + "/work/clients"; }
  const ResolverAdapter* resolver() const { return resolver_.get(); }
  const std::string& resolver_version() const { return resolver_version_; }
  // Why the cases cannot start their resolver inside a namespace, empty when they can.
  const std::string& resolver_unavailable() const { return resolver_unavailable_; }

  // Starting a case's world and its client is the CPU-heavy part (an authority, a resolver,
  // a JVM); on a small machine dozens at once delay each other by seconds (Unbound took 15 s
  // to start with 70 cases starting together on 2 cores), which the measurements would then
  // include. A case holds this gate while it starts, so only a few start at once; the
  // measured phases run concurrently. Thread-safe.
  class StartGate {
   public:
    explicit StartGate(ClientSuite& suite) : suite_(suite) { suite_.starting_.acquire(); }
    ~StartGate() { release(); }
    StartGate(const StartGate&) = delete;
    StartGate& operator=(const StartGate&) = delete;
    void release() {
      if (held_) suite_.starting_.release();
      held_ = false;
    }

   private:
    ClientSuite& suite_;
    bool held_ = true;
  };

 private:
  struct Slot {
    std::once_flag once;
    Client client;
  };
  std::vector<std::string> ids_;
  std::string out_dir_;
  ClientPaths paths_;
  std::string programs_error_;
  std::unique_ptr<ResolverAdapter> resolver_;
  std::string resolver_version_;
  std::string resolver_unavailable_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;
  static constexpr std::ptrdiff_t kConcurrentStarts = 3;
  std::counting_semaphore<kConcurrentStarts> starting_{kConcurrentStarts};
};

}  // namespace cutover::lab
