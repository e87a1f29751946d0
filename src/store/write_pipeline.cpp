// The steps of a write, in order, and the journal reads of undo.
#include "store/write_pipeline.h"

#include <fmt/format.h>

#include "store/fence.h"

namespace cutover::store {
namespace {

WriteOutcome refused(const WriteSubject& subject, WriteStatus status, std::string message) {
  return WriteOutcome{status, std::move(message), subject.current};
}

WriteOutcome refused(const WriteSubject& subject, Refusal refusal) {
  return refused(subject, refusal.status, std::move(refusal.message));
}

}  // namespace

const base::Clock& wall_clock() {
  static const base::RealClock clock;
  return clock;
}

WritePipeline::WritePipeline(std::shared_ptr<JournalStorage> storage, base::Logger& logger, const base::Clock& clock)
    : storage_(std::move(storage)), logger_(logger), clock_(clock) {}

WriteOutcome WritePipeline::run(const WriteSubject& subject, const WriteOptions& options, PendingWrite& write) {
  // 1. The fence (fence.h).
  if (auto refusal = check_fence(subject.name, subject.current.version, subject.current.plan_version,
                                 options.expected_version, options.plan_version)) {
    return refused(subject, refusal->status, std::move(refusal->message));
  }
  // 2. The change, computed by the kind on the data it holds under the caller's lock.
  if (auto refusal = write.prepare()) return refused(subject, std::move(*refusal));
  if (!write.changes_anything()) return refused(subject, WriteStatus::kNoChange, "nothing to change");
  // 3. The floor.
  if (!options.allow_empty) {
    if (auto violation = write.floor_violation()) return refused(subject, WriteStatus::kFloor, std::move(*violation));
  }
  // 4. What the kind derives from the new state (a zone's serial and built form).
  if (auto refusal = write.finish()) return refused(subject, std::move(*refusal));
  // 5. A dry run stops here, with what the change would answer.
  if (options.dry_run) {
    write.preview();
    return refused(subject, WriteStatus::kDryRun, "dry run: nothing applied");
  }
  // 6. The journal entry, durable before anything is served.
  StoredEntry entry;
  entry.stream = subject.stream;
  entry.version = subject.current.version + 1;
  entry.plan_version = options.plan_version.value_or(0);
  entry.at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(clock_.wall_now().time_since_epoch()).count();
  entry.who = options.who;
  entry.what = options.what;
  entry.body = write.entry_body();
  if (auto appended = storage_->append(entry); !appended) {
    // A storage shared with other writers (etcd: docs/cluster.md) lost its compare-and-set (kInvalidArgument, journal_storage.h):
    // another writer appended first. The same refusal as the fence's, with the version now.
    if (appended.error().code == base::ErrorCode::kInvalidArgument) {
      StreamMark now = storage_->mark(subject.stream);
      return WriteOutcome{WriteStatus::kConflict,
                          fmt::format("{}: version conflict: expected {}, current version is {} (written elsewhere)",
                                      subject.name, subject.current.version, now.version),
                          now};
    }
    logger_.error("write.journal_failed", {{"subject", subject.name}, {"reason", appended.error().message}});
    // kTimeout: the storage cannot say whether the entry landed (its reply was lost).
    const char* outcome = appended.error().code == base::ErrorCode::kTimeout ? "not confirmed: " : "not applied: ";
    return refused(subject, WriteStatus::kIo, outcome + appended.error().message);
  }
  // 7. Served, and only then acknowledged.
  StreamMark mark{entry.version, options.plan_version.value_or(subject.current.plan_version)};
  write.publish(entry, mark);
  return WriteOutcome{WriteStatus::kApplied, {}, mark};
}

HistoryRead WritePipeline::undo_entries(const WriteSubject& subject, std::uint64_t to_version,
                                        std::uint64_t first_needed) {
  HistoryRead history;
  std::uint64_t current = subject.current.version;
  if (to_version > current) {
    history.refusal = Refusal{WriteStatus::kNotFound, fmt::format("{}: version {} is in the future (current version {})",
                                                                  subject.name, to_version, current)};
    return history;
  }
  auto read = storage_->read(subject.stream, first_needed > 0 ? first_needed - 1 : 0, TornTail::kFail);
  if (!read) {
    history.refusal = Refusal{WriteStatus::kIo, read.error().message};
    return history;
  }
  const auto& entries = read->entries;
  bool whole = first_needed > current ? entries.empty()
                                      : !entries.empty() && entries.front().version == first_needed &&
                                            entries.back().version == current;
  if (!whole) {
    history.refusal =
        Refusal{WriteStatus::kNotFound,
                fmt::format("{}: the history before version {} was compacted away", subject.name,
                            entries.empty() ? current + 1 : entries.front().version)};
    return history;
  }
  history.entries = std::move(read->entries);
  return history;
}

}  // namespace cutover::store
