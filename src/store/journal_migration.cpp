// Schema 1 to schema 2: rename, copy with checksums re-made, drop.
#include "store/journal_migration.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "store/checksum_content.h"
#include "store/journal.h"
#include "store/record_codec.h"
#include "store/sqlite_journal.h"
#include "store/sqlite_statement.h"

namespace cutover::store {
namespace {

using base::ErrorCode;
using base::make_error;

bool has_table(sqlite3* db, const char* table, const char* column) {
  Statement query(db, "SELECT 1 FROM pragma_table_info(?) WHERE name=?");
  if (!query.ok()) return false;
  query.text(1, table);
  query.text(2, column);
  return query.step() == SQLITE_ROW;
}

// Schema 1 zone checksum: zone, version, plan version, serials, time, who, what, and the
// removed and added records re-encoded, integers and lengths as 8 bytes big-endian.
std::vector<std::uint8_t> zone_checksum_1(const std::string& zone, std::uint64_t version, std::uint64_t plan_version,
                                          std::uint64_t serial_before, std::uint64_t serial, std::int64_t at_ms,
                                          const std::string& who, const std::string& what,
                                          const std::vector<std::uint8_t>& removed,
                                          const std::vector<std::uint8_t>& added) {
  std::vector<std::uint8_t> content;
  put_bytes(content, zone);
  put_u64(content, version);
  put_u64(content, plan_version);
  put_u64(content, serial_before);
  put_u64(content, serial);
  put_u64(content, static_cast<std::uint64_t>(at_ms));
  put_bytes(content, who);
  put_bytes(content, what);
  put_bytes(content, removed);
  put_bytes(content, added);
  return sha256(content.data(), content.size());
}

// Schema 1 pool checksum: each field as decimal length, ':', the field (numbers in decimal).
std::vector<std::uint8_t> pool_checksum_1(const std::vector<std::string>& fields) {
  std::string content;
  for (const auto& field : fields) content += fmt::format("{}:{}", field.size(), field);
  return sha256(content.data(), content.size());
}

base::Status insert(sqlite3* db, const StoredEntry& entry, bool intact) {
  RowWrite row = insert_entry_row(db, entry, intact ? entry_checksum(entry) : std::vector<std::uint8_t>{});
  if (row == RowWrite::kPrepareFailed) return make_error(ErrorCode::kIo, sqlite3_errmsg(db));
  if (row != RowWrite::kDone) {
    return make_error(ErrorCode::kIo, fmt::format("migrating entry {} of {}: {}", entry.version, entry.stream,
                                                  sqlite3_errmsg(db)));
  }
  return {};
}

base::Status migrate_zones(sqlite3* db) {
  Statement rows(db,
                 "SELECT zone, version, plan_version, serial_before, serial, at_ms, who, what, removed, added, checksum "
                 "FROM journal_v1 ORDER BY zone, version");
  if (!rows.ok()) return make_error(ErrorCode::kIo, sqlite3_errmsg(db));
  int step = 0;
  while ((step = rows.step()) == SQLITE_ROW) {
    std::string zone = rows.column_text(0);
    StoredEntry entry;
    entry.stream = zone_stream(zone);
    entry.version = static_cast<std::uint64_t>(rows.column_integer(1));
    entry.plan_version = static_cast<std::uint64_t>(rows.column_integer(2));
    auto serial_before = static_cast<std::uint32_t>(rows.column_integer(3));
    auto serial = static_cast<std::uint32_t>(rows.column_integer(4));
    entry.at_ms = rows.column_integer(5);
    entry.who = rows.column_text(6);
    entry.what = rows.column_text(7);
    auto removed = rows.column_blob(8);
    auto added = rows.column_blob(9);
    // Schema 1 summed the records as decoded and encoded again: undecodable ones are damage.
    auto removed_records = decode_records(removed);
    auto added_records = decode_records(added);
    bool intact = removed_records && added_records &&
                  zone_checksum_1(zone, entry.version, entry.plan_version, serial_before, serial, entry.at_ms, entry.who,
                                  entry.what, encode_records(*removed_records),
                                  encode_records(*added_records)) == rows.column_blob(10);
    entry.body = zone_entry_body(serial_before, serial, removed, added);
    if (auto inserted = insert(db, entry, intact); !inserted) return inserted;
  }
  if (step != SQLITE_DONE) return make_error(ErrorCode::kIo, sqlite3_errmsg(db));
  return {};
}

base::Status migrate_pools(sqlite3* db) {
  Statement rows(db,
                 "SELECT pool, version, plan_version, at_ms, who, what, state, checksum FROM pool_journal "
                 "ORDER BY pool, version");
  if (!rows.ok()) return make_error(ErrorCode::kIo, sqlite3_errmsg(db));
  int step = 0;
  while ((step = rows.step()) == SQLITE_ROW) {
    std::string pool = rows.column_text(0);
    StoredEntry entry;
    entry.stream = pool_stream(pool);
    entry.version = static_cast<std::uint64_t>(rows.column_integer(1));
    entry.plan_version = static_cast<std::uint64_t>(rows.column_integer(2));
    entry.at_ms = rows.column_integer(3);
    entry.who = rows.column_text(4);
    entry.what = rows.column_text(5);
    std::string state = rows.column_text(6);
    bool intact = pool_checksum_1({pool, std::to_string(entry.version), std::to_string(entry.plan_version),
                                   std::to_string(entry.at_ms), entry.who, entry.what, state}) == rows.column_blob(7);
    entry.body.assign(state.begin(), state.end());
    if (auto inserted = insert(db, entry, intact); !inserted) return inserted;
  }
  if (step != SQLITE_DONE) return make_error(ErrorCode::kIo, sqlite3_errmsg(db));
  return {};
}

}  // namespace

bool is_schema_1(sqlite3* db) {
  Statement version(db, "PRAGMA user_version");
  if (!version.ok() || version.step() != SQLITE_ROW || version.column_integer(0) != 0) return false;
  return has_table(db, "journal", "zone") || has_table(db, "pool_journal", "pool");
}

base::Status rename_schema_1(sqlite3* db) {
  if (has_table(db, "journal", "zone")) {
    if (auto renamed = exec(db, "ALTER TABLE journal RENAME TO journal_v1"); !renamed) return renamed;
  }
  if (has_table(db, "marks", "zone")) {
    if (auto renamed = exec(db, "ALTER TABLE marks RENAME TO marks_v1"); !renamed) return renamed;
  }
  return {};
}

base::Status migrate_schema_1(sqlite3* db) {
  if (has_table(db, "journal_v1", "zone")) {
    if (auto copied = migrate_zones(db); !copied) return copied;
  }
  if (has_table(db, "marks_v1", "zone")) {
    auto copied = exec(db, "INSERT INTO marks(stream, version, plan_version) "
                           "SELECT 'zone ' || zone, version, plan_version FROM marks_v1");
    if (!copied) return copied;
  }
  if (has_table(db, "pool_journal", "pool")) {
    if (auto copied = migrate_pools(db); !copied) return copied;
    // Schema 1 kept no pool marks: a pool's mark is its newest entry.
    auto marks = exec(db, "INSERT INTO marks(stream, version, plan_version) "
                          "SELECT 'pool ' || pool, max(version), max(plan_version) FROM pool_journal GROUP BY pool");
    if (!marks) return marks;
  }
  return exec(db, "DROP TABLE IF EXISTS journal_v1; DROP TABLE IF EXISTS marks_v1; DROP TABLE IF EXISTS pool_journal;");
}

}  // namespace cutover::store
