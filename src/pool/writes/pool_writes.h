// PoolWrites: pools as a kind of the write pipeline (store/write_pipeline.h; zones are the
// other kind, store/store.h). Every change to a pool made through the API and every
// operator override (drain, undrain, force-up) goes through write(), which runs the
// pipeline's steps under one mutex: the fence (expected_version: compare-and-set on the
// pool's version; plan_version: above the pool's last applied one), the target state
// (settings read exactly like a config file's pool, checked against the zones and the
// other pools), the floor (deleting a pool, or draining its last serving endpoint, is
// refused unless allow_empty, naming the pool), the journal entry (fsynced), applying it
// (the checker probes new endpoints and the next query sees the new answer), and only then
// the acknowledgement. Config pools are read-only here (409) except for overrides.
// Also a server::Service: start() re-applies the journaled overrides. Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/log.h"
#include "config/config.h"
#include "pool/service/pool_service.h"
#include "pool/journal/pool_journal.h"
#include "store/write_pipeline.h"
#include "store/write_result.h"
#include "pool/writes/pool_state.h"

namespace cutover::pool {

struct PoolWriteRequest : store::WriteOptions {
  std::string pool;
  // The target state from the current one, run under the write lock. Its error code picks
  // the reply: kNotFound 404 (409 for a config pool, read-only here), anything else 400.
  std::function<base::Result<PoolState>(const PoolState& current)> change;
};

struct PoolWriteResult {
  store::WriteStatus status = store::WriteStatus::kApplied;
  bool bad_input = false;  // with kInvalid: the request itself is wrong (400, not 422)
  std::string message;
  std::uint64_t version = 0;  // the pool's version now (after the write when applied)
  std::uint64_t plan_version = 0;
  PoolState before;
  PoolState after;
  PoolPreview answer_before;  // what the pool answers (answered) before the write
  PoolPreview answer_after;   // ...and after it (a dry run: would answer)
};

class PoolWrites : public server::Service {
 public:
  // Opens the pool journal in `config.writes.journal` and hands the API pools it holds to
  // `pools` (call before pools.start()). Throws config::ConfigError when the journal is
  // damaged or a journaled pool no longer reads. `pools` and `logger` must outlive this.
  PoolWrites(PoolRuntime& pools, const config::Config& config, base::Logger& logger);
  // The same over a storage other servers write too (etcd: docs/cluster.md, "Shared pool
  // state"): every write first takes what the storage holds for its pool (sync), a lost
  // compare-and-set is a version conflict, and a storage that cannot be read at start is
  // not an error (the pools start from the config, and sync_all() catches up later).
  PoolWrites(PoolRuntime& pools, const config::Config& config, base::Logger& logger,
             std::shared_ptr<store::JournalStorage> shared_storage);

  std::string name() const override { return "pool-writes"; }
  base::Status start() override;
  void stop() override {}
  base::Status reload(const config::Config& next) override;

  PoolWriteResult write(PoolWriteRequest request);
  // Returns the pool to its state at `to_version` (0: before its first write) as one
  // ordinary fenced write; fence options and author come from `fence`.
  PoolWriteResult undo(const std::string& pool, std::uint64_t to_version, PoolWriteRequest fence);

  // Every pool the API knows (config pools and pools with a journaled state), by id.
  std::map<std::string, PoolState> states() const;
  bool is_config_pool(const std::string& pool) const { return pools_.is_config_pool(pool); }
  base::Result<std::vector<PoolEntry>> history(const std::string& pool, std::uint64_t after);
  // Takes the newest state the storage holds for `pool` when it is newer than the one
  // served (written by another server), and serves it; sync_all() does so for every pool
  // stream. kIo when the storage cannot be read; a state that no longer reads is logged
  // and left unserved (the served one stays).
  base::Status sync(const std::string& pool);
  base::Status sync_all();
  // Reads API pool settings; errors name the field (400).
  base::Result<PoolSpec> read_settings(const std::string& pool, const nlohmann::json& settings) const;

 private:
  class PoolWrite;

  PoolWrites(PoolRuntime& pools, const config::Config& config, base::Logger& logger,
             std::unique_ptr<PoolJournal> journal, bool shared);
  PoolWriteResult write_locked(PoolWriteRequest& request);
  base::Status sync_locked(const std::string& pool);
  // Serves `after` (journaled) in place of `before`: the API pools `specs` when the settings
  // changed, the overrides that changed, and the state kept for the next write.
  void install_locked(const std::string& pool, const PoolState& before, const PoolState& after,
                      const std::vector<PoolSpec>& specs, const std::string& who);
  store::WriteSubject subject_locked(const std::string& pool) const;
  // The API pools with `pool` set to `settings` (removed when null).
  base::Result<std::vector<PoolSpec>> api_specs_with(const std::string& pool,
                                                           const std::optional<nlohmann::json>& settings) const;
  std::optional<std::string> floor_problem(const std::string& pool, const PoolState& before, const PoolState& after,
                                           const std::optional<PoolSpec>& spec_after) const;
  void apply_overrides(const std::string& pool, const PoolState& before, const PoolState& after, const std::string& who);

  PoolRuntime& pools_;
  base::Logger& logger_;
  std::unique_ptr<PoolJournal> journal_;
  bool shared_ = false;  // other servers write the same storage
  store::WritePipeline pipeline_;
  mutable std::mutex mutex_;  // serialises writes; guards the members below
  config::Config config_;     // zones and journal the settings are checked against
  std::map<std::string, PoolState> states_;
  std::map<std::string, PoolSpec> api_specs_;  // the parsed settings of API pools
};

}  // namespace cutover::pool
