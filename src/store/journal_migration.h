// The journal file's schema 1, as written before zone and pool entries shared one table:
// zone entries in `journal` and `marks` (SHA-256 over binary length-prefixed fields), pool
// entries in `pool_journal` (SHA-256 over decimal "len:" prefixed fields). These functions
// carry such a file over to schema 2 (sqlite_journal.h); they run inside the opener's
// transaction. Not thread-safe: called once, by SqliteJournal::open, before sharing.
#pragma once

#include <sqlite3.h>

#include "base/result.h"

namespace cutover::store {

// True for a file with schema 1 tables (PRAGMA user_version 0 and a zone or pool table).
bool is_schema_1(sqlite3* db);
// Renames the schema 1 tables whose names schema 2 reuses (`journal`, `marks`).
base::Status rename_schema_1(sqlite3* db);
// Copies every schema 1 entry and mark into the schema 2 tables and drops the old tables.
// Each entry's schema 1 checksum is verified: an intact entry gets its schema 2 checksum,
// a damaged one stays damaged (an empty checksum), so the torn-tail rule judges it at load.
base::Status migrate_schema_1(sqlite3* db);

}  // namespace cutover::store
