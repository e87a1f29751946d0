// The write path: fence, precondition, edits, floor, serial, journal, publish, ack.
#include "store/store.h"

#include <chrono>

#include <fmt/format.h>

#include "store/answer_diff.h"
#include "store/checks.h"
#include "store/fence.h"
#include "store/serial.h"
#include "store/zone_file_writer.h"

namespace cutover::store {
namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

WriteResult refuse(WriteStatus status, std::string message) {
  WriteResult result;
  result.status = status;
  result.message = std::move(message);
  return result;
}

// Turns a file-to-file delta into edits, so a reload keeps what the API wrote meanwhile.
std::vector<Edit> edits_from(const Delta& delta) {
  std::vector<Edit> edits;
  for (const auto& record : delta.removed) {
    if (record.type != dns::RRType::SOA) edits.push_back({Edit::Op::kDeleteRecord, record.owner, record.type, 0, {record.rdata}});
  }
  for (const auto& record : delta.added) {
    // The file's SOA replaces ours whatever its serial; the write path then keeps the serial moving.
    Edit::Op op = record.type == dns::RRType::SOA ? Edit::Op::kReplaceRRset : Edit::Op::kAddRecord;
    edits.push_back({op, record.owner, record.type, record.ttl, {record.rdata}});
  }
  return edits;
}

// Puts the touched owners of a zone back as they were, unless the write was kept.
class RollbackGuard {
 public:
  RollbackGuard(ZoneData& data, const ZoneData& before, const NameSet& owners)
      : data_(data), before_(before), owners_(owners) {}
  ~RollbackGuard() {
    if (!kept_) data_.take_nodes(before_, owners_);
  }
  RollbackGuard(const RollbackGuard&) = delete;
  RollbackGuard& operator=(const RollbackGuard&) = delete;
  void keep() { kept_ = true; }

 private:
  ZoneData& data_;
  const ZoneData& before_;
  const NameSet& owners_;
  bool kept_ = false;
};

}  // namespace

std::string zone_key(const dns::Name& origin) { return origin.lowercased().to_text(); }

std::string write_status_text(WriteStatus status) {
  switch (status) {
    case WriteStatus::kApplied: return "applied";
    case WriteStatus::kNoChange: return "no_change";
    case WriteStatus::kDryRun: return "dry_run";
    case WriteStatus::kConflict: return "conflict";
    case WriteStatus::kStale: return "stale";
    case WriteStatus::kFloor: return "floor";
    case WriteStatus::kInvalid: return "invalid";
    case WriteStatus::kNotFound: return "not_found";
    case WriteStatus::kPrecondition: return "precondition";
    case WriteStatus::kIo: return "io_error";
  }
  return "unknown";
}

Store::Store(std::unique_ptr<Journal> journal, Publisher publisher, base::Logger& logger)
    : journal_(std::move(journal)), publisher_(std::move(publisher)), logger_(logger) {}

void Store::add_listener(ChangeListener listener) {
  std::lock_guard lock(mutex_);
  listeners_.push_back(std::move(listener));
}

base::Result<Store::Managed> Store::replay(const ZoneSource& source) {
  Managed managed;
  managed.file_base = ZoneData::from_zone(*source.zone);
  managed.data = managed.file_base;
  managed.order = source.order;
  managed.file = source.file;
  std::string key = zone_key(source.zone->origin());
  auto load = journal_->load(key);
  if (!load) return load.error();
  if (load->dropped_torn_tail) {
    logger_.warn("journal.torn_tail_dropped", {{"zone", key}, {"journal", journal_->path()}});
  }
  for (const auto& entry : load->entries) managed.data.apply_delta(entry.delta);
  ZoneMark mark = journal_->mark(key);
  managed.version = mark.version;
  managed.plan_version = mark.plan_version;
  auto built = managed.data.build(managed.order);
  if (!built) {
    return base::make_error(built.error().code, fmt::format("zone {}: journal replay: {}", key, built.error().message));
  }
  managed.served = *built;
  logger_.info("journal.replayed", {{"zone", key},
                                    {"entries", std::to_string(load->entries.size())},
                                    {"version", std::to_string(managed.version)},
                                    {"serial", std::to_string(managed.served->soa_fields().serial)}});
  return managed;
}

base::Status Store::load(const std::vector<ZoneSource>& zones) {
  std::vector<std::unique_ptr<Managed>> loaded;
  for (const auto& source : zones) {
    auto managed = replay(source);
    if (!managed) return managed.error();
    loaded.push_back(std::make_unique<Managed>(std::move(*managed)));
  }
  std::lock_guard lock(mutex_);
  zones_ = std::move(loaded);
  publish_locked();
  return {};
}

base::Status Store::reload(const std::vector<ZoneSource>& zones) {
  std::vector<std::unique_ptr<Managed>> next;
  std::vector<std::pair<std::size_t, Delta>> file_changes;  // index into next, file delta
  {
    std::lock_guard lock(mutex_);
    for (const auto& source : zones) {
      Managed* existing = find_locked(source.zone->origin());
      if (existing == nullptr) {
        auto managed = replay(source);
        if (!managed) return managed.error();
        next.push_back(std::make_unique<Managed>(std::move(*managed)));
        continue;
      }
      ZoneData file = ZoneData::from_zone(*source.zone);
      Delta changed = diff(existing->file_base, file);
      existing->file_base = std::move(file);
      existing->order = source.order;
      existing->file = source.file;
      for (auto& managed : zones_) {
        if (managed.get() == existing) next.push_back(std::move(managed));
      }
      if (!changed.empty()) file_changes.emplace_back(next.size() - 1, std::move(changed));
    }
    zones_ = std::move(next);
    publish_locked();
  }
  for (auto& [index, delta] : file_changes) {
    WriteRequest request;
    {
      std::lock_guard lock(mutex_);
      request.zone = zones_[index]->data.origin();
    }
    request.edits = edits_from(delta);
    request.allow_empty = true;  // the operator edited the file: the file is the plan
    request.skip_ignored_edits = true;
    request.who = "reload";
    request.what = "zone file changed";
    WriteResult result = write(std::move(request));
    if (!result.ok()) return base::make_error(base::ErrorCode::kInvalidArgument, result.message);
  }
  return {};
}

Store::Managed* Store::find_locked(const dns::Name& zone) {
  for (auto& managed : zones_) {
    if (managed->data.origin() == zone) return managed.get();
  }
  return nullptr;
}

void Store::publish_locked() {
  std::vector<std::shared_ptr<const zone::Zone>> served;
  for (const auto& managed : zones_) served.push_back(managed->served);
  publisher_(std::make_shared<const auth::ZoneSet>(std::move(served)));
}

WriteResult Store::write(WriteRequest request) {
  std::lock_guard lock(mutex_);
  return write_locked(request);
}

WriteResult Store::write_locked(WriteRequest& request) {
  Managed* managed = find_locked(request.zone);
  if (managed == nullptr) return refuse(WriteStatus::kNotFound, "no zone " + request.zone.to_text() + " is served here");
  auto stamp = [managed](WriteResult result) {
    result.version = managed->version;
    result.plan_version = managed->plan_version;
    result.serial = managed->served->soa_fields().serial;
    return result;
  };
  // 1. Fence (fence.h: the same checks and texts as a pool write's).
  if (auto refusal = check_fence("zone " + request.zone.to_text(), managed->version, managed->plan_version,
                                 request.expected_version, request.plan_version)) {
    return stamp(refuse(refusal->status, std::move(refusal->message)));
  }
  // 2. The caller's own check (UPDATE prerequisites), on the data the write will change.
  if (request.precondition) {
    if (auto failure = request.precondition(managed->data)) {
      WriteResult result = refuse(WriteStatus::kPrecondition, failure->message);
      result.rcode = failure->rcode;
      return stamp(std::move(result));
    }
  }
  // 3. The new state, computed in place on the owners the write touches (and the apex, whose
  // serial moves): `before` holds their old nodes, and every refusal below puts them back
  // before the lock is released, so nothing outside this call ever sees a half-applied
  // write. The cost is that of the change, not of the zone (docs/writes.md, throughput).
  NameSet touched = request.target ? request.target->owners() : NameSet{};
  if (request.target) touched.merge(managed->data.owners());
  for (const auto& edit : request.edits) touched.insert(edit.owner);
  touched.insert(managed->data.origin());
  const ZoneData before = managed->data.slice(touched);
  RollbackGuard rollback(managed->data, before, touched);
  if (request.target) {
    managed->data.take_nodes(*request.target, touched);
  } else {
    for (const auto& edit : request.edits) {
      auto applied = managed->data.apply(edit);
      if (!applied && !(request.skip_ignored_edits && applied.error().code == base::ErrorCode::kUnsupported)) {
        return stamp(refuse(WriteStatus::kInvalid, applied.error().message));
      }
    }
  }
  ZoneData after = managed->data.slice(touched);
  auto old_soa = before.soa();
  auto new_soa = after.soa();
  if (!old_soa || !new_soa) return stamp(refuse(WriteStatus::kInvalid, "the zone would have no valid SOA"));
  Delta delta = diff(before, after);
  if (delta.empty()) return stamp(refuse(WriteStatus::kNoChange, "nothing to change"));
  // 4. Floor.
  if (!request.allow_empty) {
    if (auto violation = floor_violation(before, after, delta)) return stamp(refuse(WriteStatus::kFloor, *violation));
  }
  // 5. Serial: RFC 1982 increment, unless the write itself raised it (UPDATE of the SOA, a
  // reloaded file with a higher serial) or serves a primary's serial as is.
  if (!request.keep_target_serial && !serial_greater(new_soa->serial, old_soa->serial)) {
    new_soa->serial = serial_next(old_soa->serial);
  }
  after.set_soa(*new_soa, after.soa_ttl());
  managed->data.set_soa(*new_soa, after.soa_ttl());
  delta = diff(before, after);
  auto built = managed->data.build(managed->order);
  if (!built) return stamp(refuse(WriteStatus::kInvalid, built.error().message));

  WriteResult result;
  result.delta = delta;
  result.cache_tail = cache_tail(before, delta);
  if (request.dry_run) {
    std::vector<std::shared_ptr<const zone::Zone>> current;
    std::vector<std::shared_ptr<const zone::Zone>> changed;
    for (const auto& zone : zones_) {
      current.push_back(zone->served);
      changed.push_back(zone.get() == managed ? *built : zone->served);
    }
    result.answers = answer_diff(auth::ZoneSet(std::move(current)), auth::ZoneSet(std::move(changed)), delta);
    result.status = WriteStatus::kDryRun;
    result.message = "dry run: nothing applied";
    result = stamp(std::move(result));
    result.serial = new_soa->serial;
    return result;
  }
  // 6. Journal and fsync: the write exists once this returns.
  JournalEntry entry;
  entry.zone = zone_key(request.zone);
  entry.version = managed->version + 1;
  entry.plan_version = request.plan_version.value_or(0);
  entry.serial_before = old_soa->serial;
  entry.serial = new_soa->serial;
  entry.at_ms = now_ms();
  entry.who = request.who;
  entry.what = request.what;
  entry.delta = delta;
  if (auto appended = journal_->append(entry); !appended) {
    logger_.error("write.journal_failed", {{"zone", entry.zone}, {"reason", appended.error().message}});
    return stamp(refuse(WriteStatus::kIo, "not applied: " + appended.error().message));
  }
  // 7. Apply atomically: queries see the old zone set or the new one.
  rollback.keep();
  managed->served = *built;
  managed->version = entry.version;
  if (request.plan_version) managed->plan_version = *request.plan_version;
  publish_locked();
  for (const auto& listener : listeners_) listener(request.zone, entry.serial);
  logger_.info("write.applied", {{"zone", entry.zone},
                                 {"version", std::to_string(entry.version)},
                                 {"serial", std::to_string(entry.serial)},
                                 {"who", entry.who},
                                 {"what", entry.what},
                                 {"removed", std::to_string(delta.removed.size())},
                                 {"added", std::to_string(delta.added.size())}});
  result.status = WriteStatus::kApplied;
  return stamp(std::move(result));
}

base::Result<ZoneView> Store::view(const dns::Name& zone) const {
  std::lock_guard lock(mutex_);
  for (const auto& managed : zones_) {
    if (managed->data.origin() == zone) {
      return ZoneView{managed->data, managed->version, managed->plan_version, managed->served->soa_fields().serial};
    }
  }
  return base::make_error(base::ErrorCode::kNotFound, "no zone " + zone.to_text() + " is served here");
}

std::vector<dns::Name> Store::zone_names() const {
  std::lock_guard lock(mutex_);
  std::vector<dns::Name> names;
  for (const auto& managed : zones_) names.push_back(managed->data.origin());
  return names;
}

base::Result<std::vector<JournalEntry>> Store::entries_after(const dns::Name& zone, std::uint64_t after) {
  return journal_->entries_after(zone_key(zone), after);
}

WriteResult Store::undo(const dns::Name& zone, std::uint64_t to_version, WriteRequest fence) {
  std::lock_guard lock(mutex_);
  Managed* managed = find_locked(zone);
  if (managed == nullptr) return refuse(WriteStatus::kNotFound, "no zone " + zone.to_text() + " is served here");
  if (to_version > managed->version) {
    return refuse(WriteStatus::kNotFound, fmt::format("version {} is in the future (current version {})", to_version,
                                                      managed->version));
  }
  auto entries = journal_->entries_after(zone_key(zone), to_version);
  if (!entries) return refuse(WriteStatus::kIo, entries.error().message);
  std::uint64_t first = entries->empty() ? managed->version + 1 : entries->front().version;
  if (first != to_version + 1 || (!entries->empty() && entries->back().version != managed->version)) {
    return refuse(WriteStatus::kNotFound,
                  fmt::format("history before version {} was compacted into the zone file", first));
  }
  ZoneData target = managed->data;
  for (auto it = entries->rbegin(); it != entries->rend(); ++it) target.apply_delta(invert(it->delta));
  fence.zone = zone;
  fence.target = std::move(target);
  fence.edits.clear();
  if (fence.what.empty()) fence.what = fmt::format("undo to version {}", to_version);
  return write_locked(fence);
}

base::Result<std::uint64_t> Store::compact(const dns::Name& zone) {
  std::lock_guard lock(mutex_);
  Managed* managed = find_locked(zone);
  if (managed == nullptr) return base::make_error(base::ErrorCode::kNotFound, "no zone " + zone.to_text());
  if (managed->file.empty()) {
    return base::make_error(base::ErrorCode::kUnsupported, "zone " + zone.to_text() + " has no zone file to compact into");
  }
  if (auto written = write_zone_file(managed->file, managed->data); !written) return written.error();
  managed->file_base = managed->data;
  if (auto compacted = journal_->compact(zone_key(zone), managed->version); !compacted) return compacted.error();
  logger_.info("journal.compacted", {{"zone", zone_key(zone)}, {"version", std::to_string(managed->version)},
                                     {"file", managed->file}});
  return managed->version;
}

}  // namespace cutover::store
