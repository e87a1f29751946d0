// Journal: the zone entries of the write path (one per applied write: the delta, the serials,
// who and what), kept in a JournalStorage as the stream "zone ORIGIN" (journal_storage.h);
// the storage gives durability, checksums and the torn-tail rule. Each entry's body is the
// two serials (4 bytes big-endian each) and the removed and added records (record_codec.h),
// each after its length as 8 bytes big-endian. Thread-safe (the storage is).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/journal_storage.h"
#include "store/zone_data.h"

namespace cutover::store {

struct JournalEntry : EntryHeader {
  std::string zone;  // origin in presentation form, lowercased
  std::uint32_t serial_before = 0;
  std::uint32_t serial = 0;
  Delta delta;
};

// The fence state of a zone, kept even after its entries are compacted away.
using ZoneMark = StreamMark;

struct JournalLoad {
  std::vector<JournalEntry> entries;  // in version order
  bool dropped_torn_tail = false;     // the last entry failed its checksum and was removed
};

class Journal {
 public:
  // Opens (creating if needed) the journal database at `path` (SqliteJournal::open).
  static base::Result<std::unique_ptr<Journal>> open(const std::string& path);
  explicit Journal(std::shared_ptr<JournalStorage> storage) : storage_(std::move(storage)) {}

  // Appends one entry and updates the zone's mark in one transaction; returns once durable.
  base::Status append(const JournalEntry& entry);
  // Every entry of `zone`, checksums verified; a damaged last entry is dropped.
  base::Result<JournalLoad> load(const std::string& zone);
  // Entries of `zone` with version > `after`, checksums verified (IXFR, history).
  base::Result<std::vector<JournalEntry>> entries_after(const std::string& zone, std::uint64_t after);
  ZoneMark mark(const std::string& zone);
  // Deletes the entries of `zone` up to `version` (their effect now lives in the zone file).
  base::Status compact(const std::string& zone, std::uint64_t version);

  const std::string& path() const { return storage_->where(); }
  const std::shared_ptr<JournalStorage>& storage() const { return storage_; }

 private:
  std::shared_ptr<JournalStorage> storage_;
};

// A zone entry's body (the serials and the delta), and an entry read back from its stored form.
std::vector<std::uint8_t> zone_entry_body(const JournalEntry& entry);
base::Result<JournalEntry> zone_entry(const std::string& zone, const StoredEntry& stored);
// A zone entry's body from its serials and encoded record lists (also used by the migration).
std::vector<std::uint8_t> zone_entry_body(std::uint32_t serial_before, std::uint32_t serial,
                                          const std::vector<std::uint8_t>& removed,
                                          const std::vector<std::uint8_t>& added);

}  // namespace cutover::store
