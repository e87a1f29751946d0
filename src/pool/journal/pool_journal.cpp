// Pool entries as stored entries: a pool's state is the entry's body, as text.
#include "pool/journal/pool_journal.h"

#include "store/sqlite_journal.h"

namespace cutover::pool {
namespace {

constexpr std::string_view kPoolPrefix = "pool ";

}  // namespace

PoolEntry pool_entry(const store::StoredEntry& stored) {
  PoolEntry entry;
  static_cast<store::EntryHeader&>(entry) = stored;
  entry.pool = stored.stream.substr(kPoolPrefix.size());
  entry.state.assign(stored.body.begin(), stored.body.end());
  return entry;
}

std::vector<std::uint8_t> pool_entry_body(const std::string& state) { return {state.begin(), state.end()}; }

base::Result<std::unique_ptr<PoolJournal>> PoolJournal::open(const std::string& path) {
  auto storage = store::SqliteJournal::open(path);
  if (!storage) return storage.error();
  return std::make_unique<PoolJournal>(std::move(*storage));
}

base::Status PoolJournal::append(const PoolEntry& entry) {
  store::StoredEntry stored;
  static_cast<store::EntryHeader&>(stored) = entry;
  stored.stream = store::pool_stream(entry.pool);
  stored.body = pool_entry_body(entry.state);
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
    if (!read->entries.empty()) load.pools.push_back({pool_entry(read->entries.back()), storage_->mark(stream)});
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
