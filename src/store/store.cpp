// The zone kind of the write pipeline: edits, floor, serial, built zone, delta entries; replay, reload, undo.
#include "store/store.h"

#include <fmt/format.h>

#include "store/answer_diff.h"
#include "store/checks.h"
#include "store/fence.h"
#include "store/serial.h"
#include "store/zone_file_writer.h"

namespace cutover::store {
namespace {

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

std::string view_zone_key(const dns::Name& origin, const std::string& view) { return zone_key(origin) + " view " + view; }

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

Store::Store(std::unique_ptr<Journal> journal, Publisher publisher, base::Logger& logger, std::string view)
    : journal_(std::move(journal)),
      pipeline_(journal_->storage(), logger, wall_clock()),
      publisher_(std::move(publisher)),
      logger_(logger),
      view_(std::move(view)) {}

std::string Store::key(const dns::Name& zone) const { return view_.empty() ? zone_key(zone) : view_zone_key(zone, view_); }

std::string Store::describe(const dns::Name& zone) const {
  return view_.empty() ? "zone " + zone.to_text() : "zone " + zone.to_text() + " in view " + view_;
}

void Store::add_listener(ChangeListener listener) {
  std::lock_guard lock(mutex_);
  listeners_.push_back(std::move(listener));
}

base::Result<Store::Managed> Store::replay(const ZoneSource& source) {
  Managed managed;
  managed.file_base = source.zone;
  managed.data = ZoneData::from_zone(*source.zone);
  managed.order = source.order;
  managed.file = source.file;
  std::string key = this->key(source.zone->origin());
  auto load = journal_->load(key);
  if (!load) return load.error();
  if (load->dropped_torn_tail) {
    logger_.warn("journal.torn_tail_dropped", {{"zone", key}, {"journal", journal_->path()}});
  }
  NameSet touched;
  for (const auto& entry : load->entries) {
    managed.data.apply_delta(entry.delta);
    for (const auto& record : entry.delta.removed) touched.insert(record.owner);
    for (const auto& record : entry.delta.added) touched.insert(record.owner);
  }
  ZoneMark mark = journal_->mark(key);
  managed.version = mark.version;
  managed.plan_version = mark.plan_version;
  // The zone as loaded is served as it is when the journal changes nothing, and patched with
  // the owners the journal touched when it does, so the file's zone and the served one share
  // their blocks instead of being two whole copies.
  auto built = touched.empty() ? base::Result<std::shared_ptr<const zone::Zone>>(source.zone)
                               : managed.data.build_from(source.zone, touched, managed.order);
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
    // Everything is read and checked before anything changes: a zone that fails to replay
    // leaves every zone as it was. (Moving zones out of zones_ while still looking others up
    // in it once dereferenced the moved-from slot: a reload of two or more zones crashed.)
    struct Kept {
      Managed* existing = nullptr;            // null: a new zone, `fresh`
      std::unique_ptr<Managed> fresh;
      Delta changed;
    };
    std::vector<Kept> kept;
    for (const auto& source : zones) {
      Managed* existing = find_locked(source.zone->origin());
      if (existing == nullptr) {
        auto managed = replay(source);
        if (!managed) return managed.error();
        kept.push_back({nullptr, std::make_unique<Managed>(std::move(*managed)), {}});
        continue;
      }
      Delta changed = diff(ZoneData::from_zone(*existing->file_base), ZoneData::from_zone(*source.zone));
      kept.push_back({existing, nullptr, std::move(changed)});
    }
    for (std::size_t i = 0; i < kept.size(); ++i) {
      Kept& zone = kept[i];
      if (zone.existing == nullptr) {
        next.push_back(std::move(zone.fresh));
        continue;
      }
      const ZoneSource& source = zones[i];
      zone.existing->file_base = source.zone;
      zone.existing->order = source.order;
      zone.existing->file = source.file;
      for (auto& managed : zones_) {
        if (managed.get() == zone.existing) next.push_back(std::move(managed));
      }
      if (!zone.changed.empty()) file_changes.emplace_back(next.size() - 1, std::move(zone.changed));
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
  // Unchanged zones keep their served form (fast index) from the last set: a write rebuilds
  // only the zone it changed.
  auto set = std::make_shared<const auth::ZoneSet>(std::move(served), published_.get());
  published_ = set;
  publisher_(std::move(set));
}

// A zone write as the write pipeline drives it (write_pipeline.h). The new state is computed
// in place on the owners the write touches (and the apex, whose serial moves): `before_`
// holds their old nodes, and unless the write is published they are put back when this
// object goes, still under the store's lock, so nothing outside ever sees a half-applied
// write. The cost is that of the change, not of the zone (docs/writes.md, throughput).

class Store::ZoneWrite : public PendingWrite {
 public:
  ZoneWrite(Store& store, Managed& managed, WriteRequest& request, WriteResult& result)
      : store_(store), managed_(managed), request_(request), result_(result) {}

  Step prepare() override {
    // A pre-signed zone's records carry signatures made offline: an edit would serve data no
    // signature covers (docs/dnssec.md). A whole new state (reload of a re-signed file,
    // transfer in from a signing primary, undo to a signed version) is still taken.
    if (!request_.target && zone::is_signed(*managed_.served)) {
      return Refusal{WriteStatus::kInvalid, store_.describe(request_.zone) +
                                                " is signed offline (dnssec mode presigned: its apex holds DNSKEY "
                                                "and RRSIG records): a write would serve records without valid signatures; "
                                                "sign the zone again and reload it"};
    }
    if (request_.precondition) {  // UPDATE prerequisites, on the data the write will change
      if (auto failure = request_.precondition(managed_.data)) {
        result_.rcode = failure->rcode;
        return Refusal{WriteStatus::kPrecondition, failure->message};
      }
    }
    // A write of a whole state (reload, undo, transfer in) touches only the owners it changes,
    // so it too is a patch when those are few.
    if (request_.target) touched_ = managed_.data.differing_owners(*request_.target);
    for (const auto& edit : request_.edits) touched_.insert(edit.owner);
    touched_.insert(managed_.data.origin());
    before_ = managed_.data.slice(touched_);
    rollback_.emplace(managed_.data, before_, touched_);
    if (request_.target) {
      managed_.data.take_nodes(*request_.target, touched_);
    } else {
      for (const auto& edit : request_.edits) {
        auto applied = managed_.data.apply(edit);
        if (!applied && !(request_.skip_ignored_edits && applied.error().code == base::ErrorCode::kUnsupported)) {
          return Refusal{WriteStatus::kInvalid, applied.error().message};
        }
      }
    }
    after_ = managed_.data.slice(touched_);
    if (auto soa = before_.soa()) old_soa_ = *soa;
    if (auto soa = after_.soa()) new_soa_ = *soa;
    if (!old_soa_ || !new_soa_) return Refusal{WriteStatus::kInvalid, "the zone would have no valid SOA"};
    delta_ = diff(before_, after_);
    return std::nullopt;
  }

  bool changes_anything() const override { return !delta_.empty(); }

  std::optional<std::string> floor_violation() const override {
    return store::floor_violation(before_, after_, delta_);
  }

  // The serial: RFC 1982 increment, unless the write itself raised it (UPDATE of the SOA, a
  // reloaded file with a higher serial) or serves a primary's serial as is. Then the zone's
  // served form.
  Step finish() override {
    if (!request_.keep_target_serial && !serial_greater(new_soa_->serial, old_soa_->serial)) {
      new_soa_->serial = serial_next(old_soa_->serial);
    }
    after_.set_soa(*new_soa_, after_.soa_ttl());
    managed_.data.set_soa(*new_soa_, after_.soa_ttl());
    delta_ = diff(before_, after_);
    auto built = managed_.data.build_from(managed_.served, touched_, managed_.order);
    if (!built) return Refusal{WriteStatus::kInvalid, built.error().message};
    built_ = *built;
    result_.delta = delta_;
    result_.cache_tail = cache_tail(before_, delta_);
    return std::nullopt;
  }

  // The answers the change would alter, from the real engine against both zone sets.
  void preview() override {
    std::vector<std::shared_ptr<const zone::Zone>> current;
    std::vector<std::shared_ptr<const zone::Zone>> changed;
    for (const auto& zone : store_.zones_) {
      current.push_back(zone->served);
      changed.push_back(zone.get() == &managed_ ? built_ : zone->served);
    }
    // Both sets share the served forms the published set has: a patched zone's fast table too.
    result_.answers = answer_diff(auth::ZoneSet(std::move(current), store_.published_.get()),
                                  auth::ZoneSet(std::move(changed), store_.published_.get()), delta_);
  }

  std::vector<std::uint8_t> entry_body() const override {
    JournalEntry entry;
    entry.serial_before = old_soa_->serial;
    entry.serial = new_soa_->serial;
    entry.delta = delta_;
    return zone_entry_body(entry);
  }

  // Atomically: queries see the old zone set or the new one.
  void publish(const StoredEntry& entry, const StreamMark& mark) override {
    rollback_->keep();
    managed_.served = built_;
    managed_.version = mark.version;
    managed_.plan_version = mark.plan_version;
    store_.publish_locked();
    for (const auto& listener : store_.listeners_) listener(request_.zone, new_soa_->serial);
    store_.logger_.info("write.applied", {{"zone", store_.key(request_.zone)},
                                          {"version", std::to_string(entry.version)},
                                          {"serial", std::to_string(new_soa_->serial)},
                                          {"who", entry.who},
                                          {"what", entry.what},
                                          {"removed", std::to_string(delta_.removed.size())},
                                          {"added", std::to_string(delta_.added.size())}});
  }

  std::uint32_t new_serial() const { return new_soa_ ? new_soa_->serial : 0; }

 private:
  Store& store_;
  Managed& managed_;
  WriteRequest& request_;
  WriteResult& result_;
  NameSet touched_;
  ZoneData before_;
  ZoneData after_;
  std::optional<RollbackGuard> rollback_;  // declared after before_ and touched_, which it refers to
  std::optional<dns::SoaFields> old_soa_;
  std::optional<dns::SoaFields> new_soa_;
  Delta delta_;
  std::shared_ptr<const zone::Zone> built_;
};

WriteSubject Store::subject_locked(const dns::Name& zone, const Managed& managed) const {
  return WriteSubject{describe(zone), zone_stream(key(zone)), {managed.version, managed.plan_version}};
}

WriteResult Store::write(WriteRequest request) {
  std::lock_guard lock(mutex_);
  return write_locked(request);
}

WriteResult Store::write_locked(WriteRequest& request) {
  Managed* managed = find_locked(request.zone);
  if (managed == nullptr) return refuse(WriteStatus::kNotFound, "no " + describe(request.zone) + " is served here");
  WriteResult result;
  WriteOutcome outcome;
  std::uint32_t new_serial = 0;
  {
    ZoneWrite write(*this, *managed, request, result);
    outcome = pipeline_.run(subject_locked(request.zone, *managed), request, write);
    new_serial = write.new_serial();
  }  // a write not published has put its names back by here
  result.status = outcome.status;
  result.message = std::move(outcome.message);
  result.version = managed->version;
  result.plan_version = managed->plan_version;
  result.serial = outcome.status == WriteStatus::kDryRun ? new_serial : managed->served->soa_fields().serial;
  return result;
}

base::Result<ZoneView> Store::view(const dns::Name& zone) const {
  std::lock_guard lock(mutex_);
  for (const auto& managed : zones_) {
    if (managed->data.origin() == zone) {
      return ZoneView{managed->data, managed->version, managed->plan_version, managed->served->soa_fields().serial};
    }
  }
  return base::make_error(base::ErrorCode::kNotFound, "no " + describe(zone) + " is served here");
}

std::vector<dns::Name> Store::zone_names() const {
  std::lock_guard lock(mutex_);
  std::vector<dns::Name> names;
  for (const auto& managed : zones_) names.push_back(managed->data.origin());
  return names;
}

base::Result<std::vector<JournalEntry>> Store::entries_after(const dns::Name& zone, std::uint64_t after) {
  return journal_->entries_after(key(zone), after);
}

WriteResult Store::undo(const dns::Name& zone, std::uint64_t to_version, WriteRequest fence) {
  std::lock_guard lock(mutex_);
  Managed* managed = find_locked(zone);
  if (managed == nullptr) return refuse(WriteStatus::kNotFound, "no " + describe(zone) + " is served here");
  // Zone entries hold deltas: the state at to_version is the current one with every later
  // entry inverted, newest first (write_pipeline.h, undo_entries).
  auto history = pipeline_.undo_entries(subject_locked(zone, *managed), to_version, to_version + 1);
  if (history.refusal) return refuse(history.refusal->status, std::move(history.refusal->message));
  ZoneData target = managed->data;
  for (auto it = history.entries.rbegin(); it != history.entries.rend(); ++it) {
    auto entry = zone_entry(key(zone), *it);
    if (!entry) return refuse(WriteStatus::kIo, entry.error().message);
    target.apply_delta(invert(entry->delta));
  }
  fence.zone = zone;
  fence.target = std::move(target);
  fence.edits.clear();
  if (fence.what.empty()) fence.what = fmt::format("undo to version {}", to_version);
  return write_locked(fence);
}

base::Result<std::uint64_t> Store::compact(const dns::Name& zone) {
  std::lock_guard lock(mutex_);
  Managed* managed = find_locked(zone);
  if (managed == nullptr) return base::make_error(base::ErrorCode::kNotFound, "no " + describe(zone) + " is served here");
  if (managed->file.empty()) {
    return base::make_error(base::ErrorCode::kUnsupported, describe(zone) + " has no zone file to compact into");
  }
  if (auto written = write_zone_file(managed->file, managed->data); !written) return written.error();
  managed->file_base = managed->served;
  if (auto compacted = journal_->compact(key(zone), managed->version); !compacted) return compacted.error();
  logger_.info("journal.compacted", {{"zone", key(zone)}, {"version", std::to_string(managed->version)},
                                     {"file", managed->file}});
  return managed->version;
}

}  // namespace cutover::store
