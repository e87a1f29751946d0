// What a write asks for and what it got: the options every write carries, a zone write's
// request (edits or a whole target state) and the result (status, versions, delta, answer diff, cache tail).
// Plain values; thread-compatible.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dns/name.h"
#include "dns/types.h"
#include "store/zone_data.h"

namespace cutover::store {

enum class WriteStatus {
  kApplied,       // journaled, fsynced and published
  kNoChange,      // valid, but changed nothing: no version, no serial bump
  kDryRun,        // valid; nothing applied, see `answers`
  kConflict,      // expected_version is not the current version
  kStale,         // plan_version is not above the last applied plan version
  kFloor,         // would leave a name that had addresses with none
  kInvalid,       // an edit or the resulting zone is not acceptable
  kNotFound,      // no such zone (or version in history)
  kPrecondition,  // the caller's precondition refused (DNS UPDATE prerequisites)
  kIo,            // the journal could not be written: nothing was applied
};

std::string write_status_text(WriteStatus status);

// A write's own check of the current data, run under the write lock (so the data cannot
// change between check and write). nullopt lets the write go on.
struct PreconditionFailure {
  dns::Rcode rcode = dns::Rcode::kServFail;
  std::string message;
};
using Precondition = std::function<std::optional<PreconditionFailure>(const ZoneData& current)>;

// What every write carries besides its change, zone or pool: the fence, the floor's escape
// and the dry run, and the author for history (docs/writes.md, "The write path").
struct WriteOptions {
  std::optional<std::uint64_t> expected_version;  // compare-and-set on the subject's version
  std::optional<std::uint64_t> plan_version;      // must exceed the last applied plan version
  bool allow_empty = false;                       // let a name lose its last address
  bool dry_run = false;
  std::string who;   // the writer, for history (token name, TSIG key, client address)
  std::string what;  // a short description, for history
};

struct WriteRequest : WriteOptions {
  dns::Name zone;
  std::vector<Edit> edits;
  // Replaces the whole zone content instead of `edits` (reload, undo, zone transfer in).
  std::optional<ZoneData> target;
  bool skip_ignored_edits = false;  // DNS UPDATE: edits RFC 2136 ignores are skipped, not errors
  bool keep_target_serial = false;  // zone transfer in: serve the primary's serial unchanged
  Precondition precondition;
};

// One answer the write changes, as text lines (RR in presentation form, or the rcode).
struct AnswerChange {
  dns::Name name;
  dns::RRType type = dns::RRType::A;
  std::vector<std::string> before;
  std::vector<std::string> after;
};

// When a change is visible everywhere (docs/writes.md, "Undo and its cache tail"): caches may keep the old records for
// their TTL, and a name (or type) that did not exist may stay negatively cached.
struct CacheTail {
  std::uint32_t longest_ttl = 0;   // the longest TTL among records the write removes or replaces
  std::uint32_t negative_ttl = 0;  // the zone's negative TTL when the write re-creates data, else 0
  std::vector<std::string> recreated;  // "name TYPE" that did not exist before
  std::uint32_t seconds() const { return longest_ttl > negative_ttl ? longest_ttl : negative_ttl; }
};

struct WriteResult {
  WriteStatus status = WriteStatus::kApplied;
  std::string message;              // why, for refusals (names the name, gives the version)
  std::uint64_t version = 0;        // the zone version now (after the write when applied)
  std::uint64_t plan_version = 0;   // the last applied plan version
  std::uint32_t serial = 0;         // the SOA serial now
  dns::Rcode rcode = dns::Rcode::kNoError;  // for kPrecondition
  Delta delta;                      // applied, or would be applied (dry run)
  std::vector<AnswerChange> answers;  // dry run only
  CacheTail cache_tail;

  bool ok() const {
    return status == WriteStatus::kApplied || status == WriteStatus::kNoChange || status == WriteStatus::kDryRun;
  }
};

}  // namespace cutover::store
