// Pool entries as stored entries: a pool's state is the entry's body, as text.
#include "store/pool_journal.h"

#include "store/sqlite_journal.h"

namespace cutover::store {
namespace {

constexpr std::string_view kPoolPrefix = "pool ";

PoolEntry pool_entry(const StoredEntry& stored) {
  PoolEntry entry;
  entry.pool = stored.stream.substr(kPoolPrefix.size());
  entry.version = stored.version;
  entry.plan_version = stored.plan_version;
  entry.at_ms = stored.at_ms;
  entry.who = stored.who;
  entry.what = stored.what;
  entry.state.assign(stored.body.begin(), stored.body.end());
  return entry;
}

}  // namespace

base::Result<std::unique_ptr<PoolJournal>> PoolJournal::open(const std::string& path) {
  auto storage = SqliteJournal::open(path);
  if (!storage) return storage.error();
  return std::make_unique<PoolJournal>(std::move(*storage));
}

base::Status PoolJournal::append(const PoolEntry& entry) {
  StoredEntry stored;
  stored.stream = pool_stream(entry.pool);
  stored.version = entry.version;
  stored.plan_version = entry.plan_version;
  stored.at_ms = entry.at_ms;
  stored.who = entry.who;
  stored.what = entry.what;
  stored.body.assign(entry.state.begin(), entry.state.end());
  return storage_->append(stored);
}

base::Result<PoolJournalLoad> PoolJournal::load() {
  auto streams = storage_->streams(kPoolPrefix);
  if (!streams) return streams.error();
  PoolJournalLoad load;
  for (const auto& stream : *streams) {
    auto read = storage_->read(stream, 0, TornTail::kDrop);
    if (!read) return read.error();
    load.dropped_torn_tail = load.dropped_torn_tail || read->dropped_torn_tail;
    if (!read->entries.empty()) load.latest.push_back(pool_entry(read->entries.back()));
  }
  return load;
}

base::Result<std::vector<PoolEntry>> PoolJournal::history(const std::string& pool, std::uint64_t after) {
  auto read = storage_->read(pool_stream(pool), after, TornTail::kFail);
  if (!read) return read.error();
  std::vector<PoolEntry> entries;
  for (const auto& stored : read->entries) entries.push_back(pool_entry(stored));
  return entries;
}

}  // namespace cutover::store
