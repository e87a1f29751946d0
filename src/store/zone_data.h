// ZoneData: the records of one zone as an editable value (owner -> type -> RRset), the
// model every write is computed on before it becomes an immutable zone::Zone. Also the
// delta between two states, which is what the journal stores and IXFR sends.
// Value type; not thread-safe (the write path owns the only mutable copy).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "dns/message.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"
#include "zone/zone.h"

namespace cutover::store {

struct RRsetData {
  std::uint32_t ttl = 0;
  std::vector<dns::Rdata> rdatas;  // no two equal in canonical form
  bool operator==(const RRsetData&) const = default;
};

// The RRsets of one owner by type, in type order: a sorted vector, since an owner has a few
// RRsets at most and a std::map spends a tree node per RRset and a header per owner
// (docs/performance.md, "Zone memory"). The subset of std::map's interface the store uses.
class NodeData {
 public:
  using value_type = std::pair<dns::RRType, RRsetData>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  bool operator==(const NodeData&) const = default;
  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

  iterator find(dns::RRType type) {
    auto at = lower_bound(type);
    return at != entries_.end() && at->first == type ? at : entries_.end();
  }
  const_iterator find(dns::RRType type) const { return const_cast<NodeData*>(this)->find(type); }
  std::size_t count(dns::RRType type) const { return find(type) == end() ? 0 : 1; }
  std::pair<iterator, bool> try_emplace(dns::RRType type) {
    auto at = lower_bound(type);
    if (at != entries_.end() && at->first == type) return {at, false};
    return {entries_.insert(at, value_type{type, RRsetData{}}), true};
  }
  RRsetData& operator[](dns::RRType type) { return try_emplace(type).first->second; }
  iterator erase(const_iterator at) { return entries_.erase(at); }
  std::size_t erase(dns::RRType type) {
    auto at = find(type);
    if (at == entries_.end()) return 0;
    entries_.erase(at);
    return 1;
  }
  template <typename Predicate>
  friend std::size_t erase_if(NodeData& node, Predicate predicate) {
    return std::erase_if(node.entries_, predicate);
  }

 private:
  iterator lower_bound(dns::RRType type) {
    return std::lower_bound(entries_.begin(), entries_.end(), type,
                            [](const value_type& entry, dns::RRType key) { return entry.first < key; });
  }
  std::vector<value_type> entries_;
};
using NameSet = std::set<dns::Name, dns::NameCanonicalLess>;

// One change to a zone, as the API and DNS UPDATE express it.
struct Edit {
  enum class Op {
    kAddRecord,     // add rdatas to the RRset; a different TTL becomes the RRset's TTL; an added
                    // SOA replaces the SOA only when its serial is greater (RFC 2136 §3.4.2.2)
    kDeleteRecord,  // remove these rdatas from the RRset
    kDeleteRRset,   // remove the whole RRset
    kDeleteName,    // remove every RRset of the owner
    kReplaceRRset,  // the RRset becomes exactly (ttl, rdatas)
  };
  Op op = Op::kAddRecord;
  dns::Name owner;
  dns::RRType type = dns::RRType::A;
  std::uint32_t ttl = 0;
  std::vector<dns::Rdata> rdatas;
};

// What one write changed: records removed, then records added. The SOA, when it changed,
// is the first record of each list (the layout IXFR uses, RFC 1995 §4).
struct Delta {
  std::vector<dns::ResourceRecord> removed;
  std::vector<dns::ResourceRecord> added;
  bool empty() const { return removed.empty() && added.empty(); }
};

class ZoneData {
 public:
  ZoneData() = default;
  explicit ZoneData(dns::Name origin) : origin_(std::move(origin)) {}
  static ZoneData from_zone(const zone::Zone& zone);
  static ZoneData from_records(const dns::Name& origin, const std::vector<dns::ResourceRecord>& records);

  const dns::Name& origin() const { return origin_; }
  const std::map<dns::Name, NodeData, dns::NameCanonicalLess>& nodes() const { return nodes_; }
  const RRsetData* find(const dns::Name& owner, dns::RRType type) const;
  bool has_name(const dns::Name& owner) const { return nodes_.count(owner) != 0; }
  // The apex SOA; fails when there is none or it does not decode.
  base::Result<dns::SoaFields> soa() const;
  std::uint32_t soa_ttl() const;
  void set_soa(const dns::SoaFields& soa, std::uint32_t ttl);

  // Applies one edit, all of it or nothing. Fails (kInvalidArgument) for names outside the
  // zone, meta types and empty rdata lists. Keeps the zone servable the way RFC 2136 §3.4.2
  // does: the SOA is never deleted (only replaced), the apex NS RRset is never emptied, and
  // CNAME and other data never share a name, and an added SOA must raise the serial (RFC
  // 1982); such edits fail with kUnsupported, which DNS UPDATE treats as "ignore this one"
  // (RFC 2136 §3.4.2.2-4) and the API reports.
  base::Status apply(const Edit& edit);
  // Applies a journaled delta: removals, then additions (an added SOA replaces the SOA).
  void apply_delta(const Delta& delta);

  // The nodes of `owners` alone (those that exist): the part of the zone a write touches,
  // so the write path diffs, checks and rolls back in time proportional to the change, not
  // to the zone. Diffing two slices over the same owners gives the delta of those owners.
  ZoneData slice(const NameSet& owners) const;
  // Makes each owner of `owners` hold exactly what it holds in `from` (nothing if absent there).
  void take_nodes(const ZoneData& from, const NameSet& owners);
  // Every owner name of the zone.
  NameSet owners() const;
  // The owners whose RRsets differ between this and `other` (in one only, or not the same
  // types, TTLs and rdatas in the same order): what a write of `other` as a whole touches.
  NameSet differing_owners(const ZoneData& other) const;

  std::vector<dns::ResourceRecord> records() const;
  base::Result<std::shared_ptr<const zone::Zone>> build(const zone::OrderPolicy& order) const;
  // The same zone, made from `current` (the zone as served before this data changed) by a
  // patch of `owners` alone when one fits (zone::Zone::patch), else built whole: a write
  // costs what it touches (docs/writes.md, "Write throughput").
  base::Result<std::shared_ptr<const zone::Zone>> build_from(const std::shared_ptr<const zone::Zone>& current,
                                                             const NameSet& owners, const zone::OrderPolicy& order) const;
  // True when some owner lies strictly below `name`.
  bool names_below(const dns::Name& name) const;

 private:
  void add_rdata(const dns::Name& owner, dns::RRType type, std::uint32_t ttl, const dns::Rdata& rdata);
  void remove_rdata(const dns::Name& owner, dns::RRType type, const dns::Rdata& rdata);
  void erase_if_empty(const dns::Name& owner);

  dns::Name origin_;
  std::map<dns::Name, NodeData, dns::NameCanonicalLess> nodes_;
};

// The records to remove and add to turn `before` into `after`; an RRset whose TTL changed is
// removed and re-added whole. SOA first in both lists when it changed.
Delta diff(const ZoneData& before, const ZoneData& after);

// The inverse of `delta` (what undoes it).
Delta invert(const Delta& delta);

}  // namespace cutover::store
