// Zone entries as stored entries: the body's encoding, and the reads and writes of a zone.
#include "store/journal.h"

#include <fmt/format.h>

#include "store/record_codec.h"
#include "store/sqlite_journal.h"

namespace cutover::store {
namespace {

using base::ErrorCode;
using base::make_error;

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(value >> shift));
}

// Reads `bytes` big-endian bytes at `at`; false when the body is too short.
bool get(const std::vector<std::uint8_t>& body, std::size_t& at, int bytes, std::uint64_t& value) {
  if (at > body.size() || body.size() - at < static_cast<std::size_t>(bytes)) return false;
  value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | body[at++];
  return true;
}

base::Result<std::vector<dns::ResourceRecord>> get_records(const std::vector<std::uint8_t>& body, std::size_t& at) {
  std::uint64_t length = 0;
  if (!get(body, at, 8, length) || length > body.size() - at) {
    return make_error(ErrorCode::kMalformed, "record list runs past the entry");
  }
  auto records = decode_records(std::span<const std::uint8_t>(body).subspan(at, length));
  at += length;
  return records;
}

}  // namespace

base::Result<JournalEntry> zone_entry(const std::string& zone, const StoredEntry& stored) {
  JournalEntry entry;
  static_cast<EntryHeader&>(entry) = stored;
  entry.zone = zone;
  std::size_t at = 0;
  std::uint64_t serial_before = 0;
  std::uint64_t serial = 0;
  bool serials = get(stored.body, at, 4, serial_before) && get(stored.body, at, 4, serial);
  auto removed = serials ? get_records(stored.body, at) : make_error(ErrorCode::kMalformed, "no serials");
  auto added = removed ? get_records(stored.body, at) : removed;
  if (!removed || !added || at != stored.body.size()) {
    // The checksum matched, so these bytes are what was written: a writer this reader does not know.
    return make_error(ErrorCode::kMalformed,
                      fmt::format("entry {} of zone {} does not read as a zone entry: {}", stored.version, zone,
                                  !removed ? removed.error().message
                                  : !added ? added.error().message
                                           : std::string("trailing bytes")));
  }
  entry.serial_before = static_cast<std::uint32_t>(serial_before);
  entry.serial = static_cast<std::uint32_t>(serial);
  entry.delta = Delta{std::move(*removed), std::move(*added)};
  return entry;
}

namespace {

base::Result<std::vector<JournalEntry>> zone_entries(const std::string& zone, const std::vector<StoredEntry>& stored) {
  std::vector<JournalEntry> entries;
  for (const auto& one : stored) {
    auto entry = zone_entry(zone, one);
    if (!entry) return entry.error();
    entries.push_back(std::move(*entry));
  }
  return entries;
}

}  // namespace

std::vector<std::uint8_t> zone_entry_body(const JournalEntry& entry) {
  return zone_entry_body(entry.serial_before, entry.serial, encode_records(entry.delta.removed),
                         encode_records(entry.delta.added));
}

std::vector<std::uint8_t> zone_entry_body(std::uint32_t serial_before, std::uint32_t serial,
                                          const std::vector<std::uint8_t>& removed,
                                          const std::vector<std::uint8_t>& added) {
  std::vector<std::uint8_t> body;
  put_u64(body, serial_before, 4);
  put_u64(body, serial, 4);
  put_u64(body, removed.size(), 8);
  body.insert(body.end(), removed.begin(), removed.end());
  put_u64(body, added.size(), 8);
  body.insert(body.end(), added.begin(), added.end());
  return body;
}

base::Result<std::unique_ptr<Journal>> Journal::open(const std::string& path) {
  auto storage = SqliteJournal::open(path);
  if (!storage) return storage.error();
  return std::make_unique<Journal>(std::move(*storage));
}

base::Status Journal::append(const JournalEntry& entry) {
  StoredEntry stored;
  static_cast<EntryHeader&>(stored) = entry;
  stored.stream = zone_stream(entry.zone);
  stored.body = zone_entry_body(entry);
  return storage_->append(stored);
}

base::Result<JournalLoad> Journal::load(const std::string& zone) {
  auto read = storage_->read(zone_stream(zone), 0, TornTail::kDrop);
  if (!read) return read.error();
  auto entries = zone_entries(zone, read->entries);
  if (!entries) return entries.error();
  return JournalLoad{std::move(*entries), read->dropped_torn_tail};
}

base::Result<std::vector<JournalEntry>> Journal::entries_after(const std::string& zone, std::uint64_t after) {
  auto read = storage_->read(zone_stream(zone), after, TornTail::kFail);
  if (!read) return read.error();
  return zone_entries(zone, read->entries);
}

ZoneMark Journal::mark(const std::string& zone) { return storage_->mark(zone_stream(zone)); }

base::Status Journal::compact(const std::string& zone, std::uint64_t version) {
  return storage_->compact(zone_stream(zone), version);
}

}  // namespace cutover::store
