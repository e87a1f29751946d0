// Store: the served zones as a kind of the write pipeline (write_pipeline.h; pools are the
// other kind, pool/writes/). Every change to served records (HTTP API, DNS UPDATE, zone
// reload, undo, zone transfer in) goes through write(), which runs the pipeline's steps:
// the fence, the caller's precondition and the edits, the floor, the SOA serial (RFC 1982),
// the journal entry (fsynced), the new zone set published atomically, and only then kApplied. Thread-safe: writes are serialised by one
// mutex; readers of served data use the published snapshots and never wait for it.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "auth/engine.h"
#include "base/log.h"
#include "base/result.h"
#include "store/journal.h"
#include "store/write_pipeline.h"
#include "store/write_result.h"
#include "store/zone_data.h"

namespace cutover::store {

// A zone as loaded from its file, with what the store needs to rebuild and compact it.
struct ZoneSource {
  std::shared_ptr<const zone::Zone> zone;
  zone::OrderPolicy order;
  std::string file;  // where `journal compact` writes the zone; empty: cannot compact
};

// A consistent view of one zone for readers of the API.
struct ZoneView {
  ZoneData data;
  std::uint64_t version = 0;
  std::uint64_t plan_version = 0;
  std::uint32_t serial = 0;
};

class Store {
 public:
  using Publisher = std::function<void(std::shared_ptr<const auth::ZoneSet>)>;
  // Told about every applied write (zone, new serial); must not block (it runs under the lock).
  using ChangeListener = std::function<void(const dns::Name& zone, std::uint32_t serial)>;

  // `logger` must outlive the store. `view`: empty for the default zones; else the name of
  // the view whose own zones this store holds (docs/steering.md, "Writes to a view's zones"):
  // its journal streams are "zone ORIGIN view NAME" (view_zone_key), so one journal holds the
  // default zones and every view's copies of the same origins apart.
  Store(std::unique_ptr<Journal> journal, Publisher publisher, base::Logger& logger, std::string view = {});

  const std::string& view_name() const { return view_; }

  void add_listener(ChangeListener listener);

  // Startup: replays the journal over each zone as loaded from its file and publishes the
  // result. Fails (nothing published) when a journal entry is damaged and not the last.
  base::Status load(const std::vector<ZoneSource>& zones);
  // Reload: a zone file's changes since it was last read are applied as one write (so
  // journaled API writes survive a reload); new zones are added, missing ones dropped.
  base::Status reload(const std::vector<ZoneSource>& zones);

  WriteResult write(WriteRequest request);

  // The zone's current state; kNotFound for a zone the store does not hold.
  base::Result<ZoneView> view(const dns::Name& zone) const;
  std::vector<dns::Name> zone_names() const;
  // Journal entries of `zone` after version `after` (history, IXFR).
  base::Result<std::vector<JournalEntry>> entries_after(const dns::Name& zone, std::uint64_t after);
  // Undo every write after `to_version`, as one ordinary fenced write (options in `fence`).
  WriteResult undo(const dns::Name& zone, std::uint64_t to_version, WriteRequest fence);
  // Writes the zone's current content to its file (atomically: temp file, fsync, rename)
  // and drops its journal entries up to the current version.
  base::Result<std::uint64_t> compact(const dns::Name& zone);

 private:
  struct Managed {
    ZoneData data;
    // The zone file's content as last read (a reload applies what changed since): the built
    // zone, not a ZoneData, since it is only read at a reload and a compact zone takes about
    // a third of the memory (docs/performance.md, "Zone memory").
    std::shared_ptr<const zone::Zone> file_base;
    std::shared_ptr<const zone::Zone> served;
    zone::OrderPolicy order;
    std::string file;
    std::uint64_t version = 0;
    std::uint64_t plan_version = 0;
  };

  class ZoneWrite;

  base::Result<Managed> replay(const ZoneSource& source);
  WriteSubject subject_locked(const dns::Name& zone, const Managed& managed) const;
  WriteResult write_locked(WriteRequest& request);
  void publish_locked();
  Managed* find_locked(const dns::Name& zone);
  // The journal's key for `zone` in this store: zone_key, or view_zone_key for a view's.
  std::string key(const dns::Name& zone) const;
  // "zone ORIGIN" or "zone ORIGIN in view NAME", for refusal texts.
  std::string describe(const dns::Name& zone) const;

  mutable std::mutex mutex_;
  std::unique_ptr<Journal> journal_;
  WritePipeline pipeline_;
  Publisher publisher_;
  // The set last published: the next one takes the served form of its unchanged zones.
  std::shared_ptr<const auth::ZoneSet> published_;
  base::Logger& logger_;
  std::string view_;
  std::vector<ChangeListener> listeners_;
  std::vector<std::unique_ptr<Managed>> zones_;
};

// The store of a view's own zones by the view's name (docs/steering.md, "Writes to a view's
// zones"), or null when that view has none; what the write API, transfers and UPDATE ask.
using ViewStores = std::function<Store*(const std::string& view)>;

// The journal's key for a zone: its origin, lowercased, in presentation form.
std::string zone_key(const dns::Name& origin);
// The journal's key for view `view`'s own copy of a zone: "ORIGIN view NAME" (a space never
// occurs in a zone key, where it would be escaped).
std::string view_zone_key(const dns::Name& origin, const std::string& view);

}  // namespace cutover::store
