// Pool entries as stored entries: a pool's state is the entry's body, as text.
#include "pool/journal/pool_journal.h"

#include "store/sqlite_journal.h"

namespace cutover::pool {
namespace {

constexpr std::string_view kPoolPrefix = "pool ";

PoolEntry pool_entry(const store::StoredEntry& stored) {
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
  auto storage = store::SqliteJournal::open(path);
  if (!storage) return storage.error();
  return std::make_unique<PoolJournal>(std::move(*storage));
}

base::Status PoolJournal::append(const PoolEntry& entry) {
  store::StoredEntry stored;
  stored.stream = store::pool_stream(entry.pool);
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
    auto read = storage_->read(stream, 0, store::TornTail::kDrop);
    if (!read) return read.error();
    load.dropped_torn_tail = load.dropped_torn_tail || read->dropped_torn_tail;
    if (!read->entries.empty()) load.latest.push_back(pool_entry(read->entries.back()));
  }
  return load;
}

base::Result<std::vector<PoolEntry>> PoolJournal::history(const std::string& pool, std::uint64_t after) {
  auto read = storage_->read(store::pool_stream(pool), after, store::TornTail::kFail);
  if (!read) return read.error();
  std::vector<PoolEntry> entries;
  for (const auto& stored : read->entries) entries.push_back(pool_entry(stored));
  return entries;
}

}  // namespace cutover::pool
