// JournalStorage: where the write path keeps what it wrote, as named streams of numbered
// entries ("zone example.test.", "pool web"), each stream with a mark (its version and the
// highest plan version applied). The pipeline needs three things of it: append an entry at
// the next version of its stream (a compare-and-set on the stream's version), read a
// stream's entries from a position, and compact a stream's old entries. SqliteJournal is
// today's implementation; a replicated one (etcd) implements this same interface without
// any change to the write pipeline (write_pipeline.h; docs/writes.md, "The write path"). Implementations
// are thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace cutover::store {

// What every entry says about its write, whatever kind of data it holds.
struct EntryHeader {
  std::uint64_t version = 0;       // the stream's version after the write
  std::uint64_t plan_version = 0;  // the plan version the write carried (0: none)
  std::int64_t at_ms = 0;          // Unix time of the write
  std::string who;
  std::string what;
};

struct StoredEntry : EntryHeader {
  std::string stream;
  std::vector<std::uint8_t> body;  // the kind's own encoding (a zone delta, a pool state)
};

// The fence state of a stream, kept even after its entries are compacted away.
struct StreamMark {
  std::uint64_t version = 0;
  std::uint64_t plan_version = 0;
};

struct StreamRead {
  std::vector<StoredEntry> entries;  // in version order
  bool dropped_torn_tail = false;    // the last entry failed its checksum and was removed
};

// What a read does with a damaged entry. Either way damage before the stream's last entry
// stops the read with an error naming the entry.
enum class TornTail {
  kFail,  // any damaged entry is an error (history, IXFR, undo)
  kDrop,  // a damaged last entry was never acknowledged intact: remove it (startup)
};

class JournalStorage {
 public:
  virtual ~JournalStorage() = default;

  // Appends `entry` if its stream's mark is at entry.version - 1 (compare-and-set), and
  // moves the mark to entry.version (its plan version only ever rises), in one
  // transaction; returns once durable. Fails with kInvalidArgument, appending nothing, when
  // the mark moved (another writer appended first: the write path's version conflict);
  // kTimeout when it cannot tell whether the entry landed; kIo for anything else.
  virtual base::Status append(const StoredEntry& entry) = 0;
  // Entries of `stream` with version > `after`, each verified against its checksum.
  // kDrop: a damaged last entry is removed and the mark moved back before it.
  virtual base::Result<StreamRead> read(const std::string& stream, std::uint64_t after, TornTail torn) = 0;
  virtual StreamMark mark(const std::string& stream) = 0;
  // The streams whose name starts with `prefix`, sorted.
  virtual base::Result<std::vector<std::string>> streams(std::string_view prefix) = 0;
  // Deletes the entries of `stream` up to `version` (the mark stays).
  virtual base::Status compact(const std::string& stream, std::uint64_t version) = 0;
  // Where the entries live, for messages (a file path).
  virtual const std::string& where() const = 0;
};

// Stream names: the kind, a space, the key ("zone example.test.", "pool web").
inline std::string zone_stream(std::string_view zone_key) { return "zone " + std::string(zone_key); }
inline std::string pool_stream(std::string_view pool) { return "pool " + std::string(pool); }

}  // namespace cutover::store
