// Zone: the immutable, indexed records of one zone, built once at load and shared by
// every serving thread through a shared_ptr. Lookups are const and thread-safe; the only
// mutable state is each RRset's rotation counter for cyclic order, which is atomic.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "base/load.h"
#include "base/result.h"
#include "dns/message.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"
#include "zone/name_index.h"
#include "zone/rdata_list.h"

namespace cutover::zone {

struct OwnerNumbering;
struct PatchEntry;
struct PatchLayer;

// How the members of an RRset are ordered in answers (like BIND's rrset-order).
enum class RRsetOrder : std::uint8_t { kFixed, kCyclic, kRandom };

struct RRset {
  RRset() = default;
  RRset(dns::RRType type, std::uint32_t ttl) : type(type), ttl(ttl) {}
  RRset(const RRset& other)
      : type(other.type), order(other.order), plain(other.plain), ttl(other.ttl), rdatas(other.rdatas) {}
  RRset(RRset&& other) noexcept
      : type(other.type), order(other.order), plain(other.plain), ttl(other.ttl), rdatas(std::move(other.rdatas)) {}
  RRset& operator=(const RRset& other) {
    type = other.type;
    ttl = other.ttl;
    rdatas = other.rdatas;
    order = other.order;
    plain = other.plain;
    return *this;
  }

  // The members are laid out for size: a zone holds one RRset per owner and type, so each
  // byte here is a byte per RRset (24 in all, static_assert below; 40 in declaration order
  // with a plain RdataList member).
  dns::RRType type = dns::RRType::A;
  RRsetOrder order = RRsetOrder::kFixed;
  // Fixed order and rdata that holds no compressible name (A, AAAA, TXT ...): an answer
  // copies the rdata bytes as they are, which the answer fast path relies on.
  bool plain = false;
  std::uint32_t ttl = 0;
  // Duplicates removed, in file order. In a zone it borrows the zone's rdata arena.
  // [[no_unique_address]] lets `rotation` use its tail padding.
  [[no_unique_address]] RdataList rdatas;
  // Next starting member for kCyclic; incremented by every answer that uses it.
  mutable std::atomic<std::uint32_t> rotation{0};
};

struct Node {
  // The labels of its owner name below the zone's origin, in wire form as the zone file
  // spelled them (empty for the apex), in the zone's name arena: the origin that ends every
  // owner is stored once, in the zone. Zone::owner() and owner_wire() give the whole name.
  std::span<const std::uint8_t> relative_wire() const { return {name_at, name_size}; }

  // Its RRsets, in order of first appearance: a slice of the zone's one RRset array.
  std::span<const RRset> rrsets() const { return {rrsets_at, rrset_count}; }
  void set_rrsets(std::span<const RRset> list) {
    rrsets_at = list.data();
    rrset_count = static_cast<std::uint32_t>(list.size());
  }

  // Laid out for size (one Node per owner): 24 bytes; a std::span for the RRsets made it 32.
  const std::uint8_t* name_at = nullptr;  // relative_wire()
  const RRset* rrsets_at = nullptr;
  std::uint32_t rrset_count = 0;
  std::uint8_t name_size = 0;
  // At or below a zone cut (an NS RRset below the apex): its data is not authoritative.
  bool delegated = false;
  // Some node lies strictly below it.
  bool has_descendants = false;

  const RRset* find(dns::RRType type) const;
  bool empty() const { return rrset_count == 0; }
};

static_assert(sizeof(RRset) <= 24 || sizeof(void*) != 8, "RRset grew: a byte here is a byte per RRset of every zone");
static_assert(sizeof(Node) <= 24 || sizeof(void*) != 8, "Node grew: a byte here is a byte per owner of every zone");

// A whole owner name in wire form, on the stack (Zone::owner_wire).
struct OwnerWire {
  std::array<std::uint8_t, dns::Name::kMaxWireLength> bytes;
  std::size_t size = 0;
  std::span<const std::uint8_t> all() const { return {bytes.data(), size}; }
};

// The node is an NSEC3 record's owner and nothing else (its RRsets are NSEC3 and RRSIG): a hash,
// not a name the zone serves (RFC 5155 §7.2.8).
bool holds_only_nsec3(const Node& node);

// Calls visit(rdata) for each RRSIG among `rrsets` (a node's) that covers `covered`: its type
// covered is the rdata's first two bytes (RFC 4034 §3.1). The one walk the answer paths, the
// fast index and the signed zone's proofs share.
template <typename Visit>
void for_each_signature(std::span<const RRset> rrsets, dns::RRType covered, Visit visit) {
  for (const auto& rrset : rrsets) {
    if (rrset.type != dns::RRType::RRSIG) continue;
    for (const auto& rdata : rrset.rdatas) {
      if (rdata.size() >= 2 && base::load_u16(rdata.data()) == static_cast<std::uint16_t>(covered)) visit(rdata);
    }
  }
}

// Per-zone answer ordering: a default and overrides for single owner names.
struct OrderPolicy {
  RRsetOrder zone_default = RRsetOrder::kFixed;
  std::vector<std::pair<dns::Name, RRsetOrder>> per_name;
};

// What a name is in a zone, found from its lowercase wire form.
struct NameLookup {
  const Node* node = nullptr;    // the node owning the name, if any
  bool exists = false;           // a node or an empty non-terminal
  bool has_descendants = false;  // some node lies strictly below it
};

// One owner a write changed: every record it owns now (none: it owns nothing any more).
struct OwnerChange {
  dns::Name owner;
  std::vector<dns::ResourceRecord> records;
};

// The SOA TTL of negative answers: kCapped is min(SOA TTL, MINIMUM) (RFC 2308 §5); kSoaTtl keeps
// the SOA record's own TTL, a non-compliant reply the lab serves to see what resolvers do with it.
enum class NegativeTtlMode { kCapped, kSoaTtl };

class Zone {
 public:
  // Groups records into RRsets (lowest TTL wins inside an RRset, RFC 2181 §5.2; exact
  // duplicates dropped). Requires a SOA at `origin`; records outside the zone are an error.
  static base::Result<std::shared_ptr<const Zone>> build(const dns::Name& origin,
                                                         const std::vector<dns::ResourceRecord>& records,
                                                         const OrderPolicy& order = {},
                                                         NegativeTtlMode negative = NegativeTtlMode::kCapped);
  // The same, taking the owners and rdata out of `records` instead of copying them; `records`
  // is left empty with its storage freed, so a large load never holds both copies.
  static base::Result<std::shared_ptr<const Zone>> build(const dns::Name& origin,
                                                         std::vector<dns::ResourceRecord>&& records,
                                                         const OrderPolicy& order = {},
                                                         NegativeTtlMode negative = NegativeTtlMode::kCapped);
  // The same for records whose owners are already numbered (as the loader's checks number
  // them): `numbering` must come from these records in this order; its index becomes the
  // zone's, so no owner is hashed again.
  static base::Result<std::shared_ptr<const Zone>> build(const dns::Name& origin,
                                                         std::vector<dns::ResourceRecord>&& records,
                                                         OwnerNumbering&& numbering, const OrderPolicy& order = {},
                                                         NegativeTtlMode negative = NegativeTtlMode::kCapped);

  // A write's new zone without rebuilding `current` (docs/architecture.md, "Writes on the
  // compact layout"): `current`'s names, with each owner of `changes` replaced and the names
  // above them updated, kept in a small patch beside the shared base arrays. `names_below(n)`
  // says whether some owner lies strictly below n in the new zone (the caller's ordered data
  // knows; the zone's hash index does not). Null when a patch does not fit: a change adds or
  // removes a zone cut or a DNAME, or the patch would outgrow patch_limit(); the caller then
  // builds the zone whole. Fails as build() does for records that cannot be served.
  static base::Result<std::shared_ptr<const Zone>> patch(const std::shared_ptr<const Zone>& current,
                                                         const std::vector<OwnerChange>& changes,
                                                         const std::function<bool(const dns::Name&)>& names_below,
                                                         const OrderPolicy& order = {});
  // How many names a patch may hold over a base of `base_names` before the zone is built
  // whole again: about 3 x n^(2/3), which balances what a write copies against the whole
  // builds it postpones (docs/architecture.md, "Writes on the compact layout").
  static std::size_t patch_limit(std::size_t base_names);
  // The zone this one patches (null: it is built whole) and how many names its patch holds.
  const std::shared_ptr<const Zone>& base() const { return base_; }
  std::size_t patch_size() const;
  // A patch has two layers: the newer holds the last few writes' names and is copied by each
  // write; the older is shared from write to write until the newer is folded into it.
  // Each name a layer holds (0: newer, 1: older): its wire form as spelled, its node (null:
  // it owns nothing), and whether it exists (false: the name is gone, though the base may
  // hold it). The newer layer's entry for a name hides the older's.
  void for_each_patched(int layer,
                        const std::function<void(std::span<const std::uint8_t> wire, const Node* node, bool exists)>& visit) const;
  // The older layer's identity: equal for two zones that share it.
  const void* older_layer() const;

  const dns::Name& origin() const { return origin_; }
  // The origin's wire form in lowercase, for matching query names without building a Name.
  const std::vector<std::uint8_t>& origin_lower() const { return origin_lower_; }
  const Node& apex() const { return *apex_node_; }
  // A node's owner name: its labels below the origin (Node::relative_wire), then the origin.
  dns::Name owner(const Node& node) const;
  // The same in wire form, copied to the stack instead of a heap Name.
  OwnerWire owner_wire(const Node& node) const;
  // True when `lower_wire` (a lowercase wire name) is the node's owner, in any case.
  bool owns_name(const Node& node, std::span<const std::uint8_t> lower_wire) const;
  const RRset& soa() const { return *soa_; }
  const dns::SoaFields& soa_fields() const { return soa_fields_; }
  // RFC 2308 §3/§5: the TTL of the SOA in negative answers, min(SOA TTL, MINIMUM) unless kSoaTtl.
  std::uint32_t negative_ttl() const;

  // The node owning exactly `name`, or nullptr (also for empty non-terminals).
  const Node* find(const dns::Name& name) const;
  // True if some node lies strictly below `name` (so `name` exists, at least as an empty non-terminal).
  bool has_descendants(const dns::Name& name) const;
  // The topmost delegation point (NS RRset below the apex) at or above `name`, or nullptr.
  const Node* find_delegation(const dns::Name& name) const;
  // Everything the index knows about the name whose lowercase wire form is `lower_wire`;
  // `hash` is hash_lower_wire(lower_wire), which a caller reading a packet computes as it goes.
  NameLookup lookup(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const;
  NameLookup lookup(std::span<const std::uint8_t> lower_wire) const { return lookup(lower_wire, hash_lower_wire(lower_wire)); }

  // Shapes that send a missing name down the general path: a name below a cut is a
  // referral, below a DNAME a rewrite, under a wildcard's parent a synthesized answer.
  bool has_cuts() const { return has_cuts_; }
  bool has_dnames() const { return has_dnames_; }
  bool has_wildcards() const { return has_wildcards_; }

  std::size_t node_count() const { return node_count_; }
  std::size_t record_count() const { return record_count_; }
  // Every node (a built zone's in the order their owners first appear in the records; a
  // patched zone's base nodes it kept, then its patch's).
  void for_each_node(const std::function<void(const Node&)>& visit) const;
  // Names that exist only because something lies below them (they own no records).
  std::vector<dns::Name> empty_non_terminals() const;
  // Every record, one per rdata, in canonical order of owner then type.
  std::vector<dns::ResourceRecord> records() const;
  // A built zone's nodes and empty non-terminals, as the index numbers them (not for a patched zone).
  std::span<const Node> built_nodes() const { return nodes_; }
  std::span<const dns::Name> built_empty_non_terminals() const { return empty_non_terminals_; }
  // The name index over exactly the zone's names, for a reader that keeps its own data per
  // name (the answer fast path's FastIndex) in a dense array instead of a second table: a
  // value v below built_nodes().size() is that node, from it up the empty non-terminal
  // built_empty_non_terminals()[v - built_nodes().size()]. Valid while the zone lives. A
  // built zone only.
  NameIndex::View index_view() const { return index_.view(); }

 private:
  Zone() = default;
  void index_names();
  void mark_delegations();
  // Takes `apex` (null: none) as the apex node: it must hold exactly one SOA, which decodes.
  base::Status set_apex(const Node* apex);

  dns::Name origin_;
  std::vector<std::uint8_t> origin_lower_;
  NegativeTtlMode negative_mode_ = NegativeTtlMode::kCapped;
  std::vector<Node> nodes_;
  // Every node's RRsets, node by node (Node::rrsets() are slices), and every record's rdata,
  // RRset by RRset (RRset::rdatas borrow from it): one block each, sized exactly at build.
  std::vector<RRset> rrsets_;
  std::vector<std::uint8_t> rdata_arena_;
  // Every node's owner name in wire form without the origin, node by node
  // (Node::relative_wire are slices): the origin's bytes once per zone, not once per name.
  std::vector<std::uint8_t> name_arena_;
  // Names that exist only because something lies below them.
  std::vector<dns::Name> empty_non_terminals_;
  NameIndex index_;
  std::size_t apex_ = 0;
  const Node* apex_node_ = nullptr;
  std::size_t node_count_ = 0;
  // A patched zone: the built zone it shares, and the names that differ from it in two
  // layers, found by their lowercase wire form (lookups try newer_, older_, then the base).
  std::shared_ptr<const Zone> base_;
  std::shared_ptr<const PatchLayer> older_;
  std::shared_ptr<const PatchLayer> newer_;
  // The patched entry for a name, newer layer first; null when the patch does not hold it.
  const std::shared_ptr<const PatchEntry>* patched_entry(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const;
  const RRset* soa_ = nullptr;
  dns::SoaFields soa_fields_;
  std::size_t record_count_ = 0;
  bool has_cuts_ = false;
  bool has_dnames_ = false;
  bool has_wildcards_ = false;
};

// The zone was signed before it was loaded: its apex holds DNSKEY and RRSIG records
// (docs/dnssec.md). The one test of "signed" that serving, writes, the expiry log and the
// expiry metric share.
bool is_signed(const Zone& zone);

}  // namespace cutover::zone
