// PoolMaterializer: materialize mode. Takes every pool answer snapshot from the PoolService
// and writes the answer of each materialized pool into its zone as ordinary A/AAAA records
// through Store::write (one fenced, journaled write per changed pool, author "pool:NAME"),
// so the serial moves, NOTIFY goes out and plain secondaries serve health-aware answers.
// Writes run on the materializer's own thread, so a journal fsync never delays the health
// checker. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "pool/materialized.h"
#include "pool/service/pool_service.h"
#include "store/store.h"

namespace cutover::pool {

// The edits that make the zone hold exactly `records` at the pool's name: each of A, AAAA
// and the TXT marker is replaced, or deleted when there is none.
std::vector<store::Edit> materialize_edits(const MaterializedRecords& records);

class PoolMaterializer : public PoolAnswerSink {
 public:
  // `store`, `clock` and `logger` must outlive the materializer. Nothing runs before start().
  PoolMaterializer(store::Store& store, const base::Clock& clock, base::Logger& logger);
  ~PoolMaterializer() override;

  void configure(const std::vector<PoolSpec>& specs) override;
  void submit(std::shared_ptr<const PoolAnswers> answers) override;
  void annotate(const std::string& pool, const std::string& who, const std::string& cause) override;
  bool flush(std::chrono::milliseconds timeout) override;
  void clear_annotation(const std::string& pool) override;

  // The writer thread: folds bursts of snapshots, writing only the newest.
  void start();
  void stop();

  // One pass over `answers` (the thread's work; tests call it directly): writes each
  // materialized pool whose records differ from what it last wrote, once the pool is
  // settled or its first-verdict deadline passed. `ticket` orders annotations. Returns the
  // write results and when to look again (a first-verdict deadline or a retry), if ever.
  struct Pass {
    std::vector<store::WriteResult> writes;
    std::optional<base::SteadyTime> wake_at;
  };
  Pass write_changes(const PoolAnswers& answers, std::uint64_t ticket);

 private:
  struct PoolState {
    std::uint32_t ttl = 0;
    base::SteadyTime first_write_deadline;  // write even if some endpoint is still unknown
    std::optional<MaterializedRecords> written;
  };
  struct Cause {
    std::string who;
    std::string what;
    std::uint64_t after_ticket = 0;  // applies to snapshots submitted after it
  };

  void run();
  std::optional<dns::Name> zone_of(const dns::Name& owner) const;
  std::optional<Cause> take_cause(const std::string& pool, std::uint64_t ticket);

  store::Store& store_;
  const base::Clock& clock_;
  base::Logger& logger_;

  std::mutex pools_mutex_;  // guards pools_ (write_changes and configure)
  std::map<std::string, PoolState> pools_;

  std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  std::shared_ptr<const PoolAnswers> latest_;
  std::uint64_t submitted_ = 0;  // tickets of snapshots submitted...
  std::uint64_t taken_ = 0;      // ...taken by the thread...
  std::uint64_t done_ = 0;       // ...and written
  std::map<std::string, Cause> causes_;
  bool running_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cutover::pool
