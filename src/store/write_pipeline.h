// WritePipeline: the steps every write of served data takes, whatever kind of data it
// writes (a zone: store.cpp; a pool: pool/writes/pool_writes.cpp), in one order: the fence,
// the change, the no-change check, the floor, the kind's finishing step, the dry run, the
// journal entry (durable before anything is served), publication, and the acknowledgement
// (docs/writes.md, "The write path"). A kind of data plugs in as a PendingWrite, which
// computes and serves its own state and encodes its own entry body; the pipeline owns the
// order, the refusal texts, the entry's header fields and the journal. History and undo
// follow one model too: the state at version V is computed by the kind from the stream's
// entries, and undo is an ordinary fenced write of that state. Stateless apart from the
// storage; thread-safe (callers serialise the writes of one stream under their own lock).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "base/result.h"
#include "store/journal_storage.h"
#include "store/write_result.h"

namespace cutover::store {

// What is written: "zone example.test." or "pool web" (refusal texts), its journal stream,
// and its version and last applied plan version now.
struct WriteSubject {
  std::string name;
  std::string stream;
  StreamMark current;
};

// A refusal from one of a kind's steps.
struct Refusal {
  WriteStatus status = WriteStatus::kInvalid;
  std::string message;
};
using Step = std::optional<Refusal>;

// One write of one kind of data, driven by WritePipeline::run. The kind computes the new
// state in prepare() and keeps the old one aside: a write that is refused, changes nothing
// or is a dry run is never published, and the kind then restores what it had (in its
// destructor), so nothing outside the caller's lock sees a half-applied write.
class PendingWrite {
 public:
  virtual ~PendingWrite() = default;
  // The change itself: the caller's precondition, the edits or the target, their validity.
  virtual Step prepare() = 0;
  virtual bool changes_anything() const = 0;
  // What would lose its last address (the text names it); nullopt when nothing would.
  virtual std::optional<std::string> floor_violation() const = 0;
  // What the kind derives from the new state before it can be served (a zone's serial and
  // built form, a pool's check against the others); may still refuse.
  virtual Step finish() = 0;
  // A dry run: works out what the new state would answer. Nothing is journaled or served.
  virtual void preview() = 0;
  // The journal entry's body, in the kind's own encoding (a zone delta, a pool state).
  virtual std::vector<std::uint8_t> entry_body() const = 0;
  // Serves the new state; called once its entry is durable. `entry` is what was journaled,
  // `mark` the subject's version and last applied plan version from now on.
  virtual void publish(const StoredEntry& entry, const StreamMark& mark) = 0;
};

struct WriteOutcome {
  WriteStatus status = WriteStatus::kApplied;
  std::string message;  // why, for refusals (names the subject, gives the version)
  StreamMark mark;      // the subject's version now (after the write when applied)
};

struct HistoryRead {
  Step refusal;
  std::vector<StoredEntry> entries;
};

class WritePipeline {
 public:
  // `storage`, `logger` and `clock` must outlive the pipeline (the clock stamps entries).
  WritePipeline(std::shared_ptr<JournalStorage> storage, base::Logger& logger, const base::Clock& clock);

  // Runs one write through every step, in order; the caller holds its lock for `subject`.
  WriteOutcome run(const WriteSubject& subject, const WriteOptions& options, PendingWrite& write);

  // The entries undo to `to_version` needs, from `first_needed` to the subject's current
  // version, checksums verified. A kind whose entries hold deltas needs those after
  // to_version (first_needed = to_version + 1: it inverts them over the current state); one
  // whose entries hold whole states needs entry to_version itself (first_needed =
  // to_version). Refused with kNotFound when to_version is in the future or those entries
  // were compacted away, with kIo when the journal cannot be read.
  HistoryRead undo_entries(const WriteSubject& subject, std::uint64_t to_version, std::uint64_t first_needed);

 private:
  std::shared_ptr<JournalStorage> storage_;
  base::Logger& logger_;
  const base::Clock& clock_;
};

// The clock writes are stamped with when the caller has none of its own.
const base::Clock& wall_clock();

}  // namespace cutover::store
