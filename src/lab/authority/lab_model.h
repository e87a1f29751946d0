// LabModel: the mutable zones of the lab authority (`cutover serve --lab`). Every change
// rebuilds the affected zone with zone::Zone::build and hands a fresh immutable ZoneSet to the
// publish callback, so DNS threads never see a half-made change. Also holds the outage modes
// and the per-(name, type) query counts. Thread-safe: one mutex guards the model; the outage
// table is read by DNS threads through an atomic snapshot.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "auth/engine.h"
#include "base/result.h"
#include "dns/name.h"
#include "dns/types.h"
#include "zone/zone.h"

namespace cutover::lab {

// What the lab authority does with a query for a name or zone in outage.
enum class Outage { kNone, kDrop, kRefuse, kServfail };
std::optional<Outage> outage_from_text(std::string_view text);
std::string outage_to_text(Outage outage);

struct LabRRset {
  std::uint32_t ttl = 0;
  std::vector<std::string> data;  // presentation rdata, one entry per record
};

struct LabZone {
  dns::Name origin;
  std::uint32_t soa_ttl = 60;
  std::uint32_t minimum = 60;
  zone::NegativeTtlMode negative = zone::NegativeTtlMode::kCapped;
  // Positive answers also carry the zone's own NS RRset in the authority section, as
  // non-minimal servers (BIND, NSD) send it: the only way a resolver that never asks NS
  // itself learns the child's NS TTL (E8).
  bool ns_in_authority = false;
  std::uint32_t serial = 1;
  std::map<std::pair<std::string, dns::RRType>, LabRRset> rrsets;  // key: lowercased owner text
  // A zone put whole from master-file text (a signer's output, E14): served exactly as given,
  // SOA included, and changed only by putting it whole again; `rrsets` is then unused.
  std::optional<std::vector<dns::ResourceRecord>> file_records;
};

// Outage modes in force, looked up per query: a name's own mode wins over its zone's.
class OutageTable {
 public:
  std::map<std::string, Outage> names;  // lowercased name text
  std::map<std::string, Outage> zones;  // lowercased origin text
  Outage lookup(const dns::Name& qname) const;
};

struct QueryCount {
  std::string name;
  std::string type;
  std::uint64_t count = 0;
};

class LabModel {
 public:
  using Publish = std::function<void(std::shared_ptr<const auth::ZoneSet>)>;
  explicit LabModel(Publish publish);

  // Each mutation returns the CLOCK_MONOTONIC time (ns) at which the new data was published.
  base::Result<std::int64_t> put_zone(const dns::Name& origin, std::uint32_t soa_ttl, std::uint32_t minimum,
                                      zone::NegativeTtlMode negative, bool ns_in_authority = false);
  // Replaces (or creates) the zone with the records of master-file `text` (its SOA and apex NS
  // among them): how the lab serves a zone signed offline. A parse error names the line and
  // column and leaves the zone as it was.
  base::Result<std::int64_t> put_zone_file(const dns::Name& origin, const std::string& text);
  base::Result<std::int64_t> delete_zone(const dns::Name& origin);
  base::Result<std::int64_t> put_rrset(const dns::Name& owner, dns::RRType type, const LabRRset& rrset);
  // Without a type, every RRset of the name goes.
  base::Result<std::int64_t> delete_rrset(const dns::Name& owner, std::optional<dns::RRType> type);
  base::Result<std::int64_t> set_name_outage(const dns::Name& name, Outage outage);
  base::Result<std::int64_t> set_zone_outage(const dns::Name& origin, Outage outage);

  // Publishes the current zones (used once at start).
  void publish_all();

  // Hot path: called by the query interceptor.
  Outage outage_for(const dns::Name& qname) const { return outages_.load()->lookup(qname); }
  // The zones last published, when the zone holding `qname` adds its NS RRset to positive
  // answers; nullptr otherwise (the usual minimal answer).
  std::shared_ptr<const auth::ZoneSet> ns_in_authority_zones(const dns::Name& qname) const;
  void count_query(const dns::Name& qname, dns::RRType type);
  std::vector<QueryCount> counts() const;

 private:
  LabZone* find_zone_locked(const dns::Name& name);
  base::Result<std::int64_t> rebuild_locked();
  void store_outages_locked();

  Publish publish_;
  mutable std::mutex mutex_;
  std::map<std::string, LabZone> zones_;  // lowercased origin text
  OutageTable outage_state_;
  std::atomic<std::shared_ptr<const OutageTable>> outages_;
  // What the DNS threads need for ns_in_authority_zones(), published with every rebuild.
  struct Published {
    std::shared_ptr<const auth::ZoneSet> zones;
    std::map<std::string, bool> ns_in_authority;  // lowercased origin text
  };
  std::atomic<std::shared_ptr<const Published>> published_;
  std::map<std::pair<std::string, dns::RRType>, std::uint64_t> counts_;
};

// Builds one zone::Zone from the lab description (SOA, apex NS, RRsets).
base::Result<std::shared_ptr<const zone::Zone>> build_lab_zone(const LabZone& lab_zone);

}  // namespace cutover::lab
