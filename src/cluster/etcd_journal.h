// EtcdJournal: the write path's journal storage (store/journal_storage.h) kept in etcd, so
// that every server of a cluster writes and reads the same pool streams (docs/cluster.md,
// "Shared pool state"). Keys under the cluster prefix:
//   PREFIX journal/marks/STREAM                 {"version": N, "plan_version": M}
//   PREFIX journal/entries/STREAM/VERSION       the entry (VERSION: 20 digits, zero-padded)
// An append reads the stream's mark, and writes the new mark and the entry in one etcd
// transaction that holds only if the mark's mod revision is still the one read (its create
// revision is 0 for a new stream): of two servers appending the same version, exactly one
// wins and the other gets kConflict. etcd acknowledges a transaction once a majority of its
// members has it on disk; a transaction whose reply was lost is looked up by its entry key
// before it is reported as failed. Each entry carries the same SHA-256 as the SQLite journal's
// (entry_checksum) and is verified on read; etcd commits atomically, so there is no torn tail
// to drop. Thread-safe (EtcdClient is; the last marks read are kept for mark() when etcd is
// unreachable).
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "cluster/cluster_config.h"
#include "cluster/etcd_client.h"
#include "store/journal_storage.h"

namespace cutover::cluster {

std::string journal_prefix(const std::string& prefix);
std::string journal_mark_key(const std::string& prefix, const std::string& stream);
std::string journal_entry_key(const std::string& prefix, const std::string& stream, std::uint64_t version);
// The stream a mark key names ("pool web"); empty when `key` is not a mark key under `prefix`.
std::string stream_of_mark_key(const std::string& prefix, const std::string& key);

class EtcdJournal final : public store::JournalStorage {
 public:
  EtcdJournal(const ClusterConfig& config, std::chrono::milliseconds timeout);

  base::Status append(const store::StoredEntry& entry) override;
  base::Result<store::StreamRead> read(const std::string& stream, std::uint64_t after, store::TornTail torn) override;
  // The mark as etcd has it; while etcd is unreachable, the last one read or written here.
  store::StreamMark mark(const std::string& stream) override;
  base::Result<std::vector<std::string>> streams(std::string_view prefix) override;
  base::Status compact(const std::string& stream, std::uint64_t version) override;
  const std::string& where() const override { return where_; }

  // The etcd revision of the last reply that reached this journal (0: none yet).
  std::int64_t revision() const { return revision_.load(); }

 private:
  struct ReadMark {
    store::StreamMark mark;
    std::int64_t mod_revision = 0;  // 0: no mark key (a stream never written)
  };
  base::Result<ReadMark> read_mark(const std::string& stream);
  void remember(const std::string& stream, const store::StreamMark& mark, std::int64_t revision);

  std::string prefix_;
  std::string where_;
  EtcdClient etcd_;
  std::atomic<std::int64_t> revision_{0};
  std::mutex mutex_;  // guards known_
  std::map<std::string, store::StreamMark> known_;
};

}  // namespace cutover::cluster
