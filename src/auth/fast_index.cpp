// FastIndex layout, one entry per name, back to back in the arena:
//   name size (1) | lowercase wire name | kind (1) | type count (1) |
//   per type: type (2) | RR count (2, kGeneralCount = general path) | size (2) | RRs
// Multi-byte fields are big-endian, as on the wire. A signed zone's second index (built with
// `signatures`, for queries with the DO bit) lists each RRset's records followed by its RRSIGs,
// as the general pipeline writes them (auth/dnssec.h), and sends RRSIG queries to the general path.
#include "auth/fast_index.h"

#include <limits>
#include <optional>
#include <stdexcept>

#include "base/bytes.h"
#include "base/load.h"
#include "dns/answer_record.h"

namespace cutover::auth {
namespace {

constexpr std::uint16_t kGeneralCount = 0xFFFF;

std::size_t encoded_size(const zone::RRset& rrset) {
  std::size_t size = 0;
  for (const auto& rdata : rrset.rdatas) size += dns::kAnswerRecordHeader + rdata.size();
  return size;
}

// What an answer for `rrset` holds: its records, and with `signatures` its RRSIGs among `rrsets`.
struct EncodedAnswer {
  std::size_t count = 0;
  std::size_t size = 0;
};

EncodedAnswer answer_of(const zone::RRset& rrset, std::span<const zone::RRset> rrsets, bool signatures) {
  EncodedAnswer answer{rrset.rdatas.size(), encoded_size(rrset)};
  if (signatures) {
    zone::for_each_signature(rrsets, rrset.type, [&](std::span<const std::uint8_t> rdata) {
      ++answer.count;
      answer.size += dns::kAnswerRecordHeader + rdata.size();
    });
  }
  return answer;
}

// The RRset's answer records, exactly as the general encoder writes them after a question
// for the owner: every owner a pointer to the question name.
void put_records(base::SpanWriter& out, const zone::RRset& rrset) {
  for (const auto& rdata : rrset.rdatas) dns::write_answer_record(out, rrset.type, rrset.ttl, rdata);
}

bool has_cname(const zone::Node& node) {
  for (const auto& rrset : node.rrsets()) {
    if (rrset.type == dns::RRType::CNAME) return true;
  }
  return false;
}

FastEntry::Kind kind_of(const zone::Node& node) {
  bool general = has_cname(node) || node.rrsets().size() > std::numeric_limits<std::uint8_t>::max();
  return node.delegated ? FastEntry::Kind::kDelegated : general ? FastEntry::Kind::kGeneral : FastEntry::Kind::kRecords;
}

// Only a kRecords entry lists its RRsets.
std::span<const zone::RRset> records_of(const zone::Node& node) {
  if (kind_of(node) != FastEntry::Kind::kRecords) return {};
  return node.rrsets();
}

// An empty non-terminal may lie below a cut (glue's parent) or a DNAME, where the general
// pipeline answers with a referral or a rewrite instead of NODATA.
FastEntry::Kind empty_kind_of(const zone::Zone& zone) {
  return zone.has_cuts() || zone.has_dnames() ? FastEntry::Kind::kGeneral : FastEntry::Kind::kEmptyNonTerminal;
}

// An RRset the fast path cannot copy verbatim: the entry only says the type exists. With
// signatures, RRSIG itself too (its records carry the TTLs of the RRsets they cover).
bool is_general(const zone::RRset& rrset, const EncodedAnswer& answer, bool signatures) {
  return !rrset.plain || answer.count >= kGeneralCount || answer.size > std::numeric_limits<std::uint16_t>::max() ||
         (signatures && rrset.type == dns::RRType::RRSIG);
}

// The bytes of `wire` an entry stores (FastIndex, fast_index.h): all but its last `cut`.
std::size_t stored_size(std::span<const std::uint8_t> wire, std::size_t cut) { return wire.empty() ? 0 : wire.size() - cut; }

// Bytes add() appends for this name and these RRsets.
std::size_t entry_size(std::span<const std::uint8_t> wire, std::span<const zone::RRset> rrsets, bool signatures,
                       std::size_t cut) {
  std::size_t size = 1 + stored_size(wire, cut) + 2;
  for (const auto& rrset : rrsets) {
    EncodedAnswer answer = answer_of(rrset, rrsets, signatures);
    size += 6 + (is_general(rrset, answer, signatures) ? 0 : answer.size);
  }
  return size;
}

}  // namespace

FastEntry::Answer FastEntry::find(std::uint16_t type) const {
  const std::uint8_t* p = at_ + 1 + at_[0] + 1;
  unsigned types = *p++;
  for (unsigned i = 0; i < types; ++i) {
    std::uint16_t count = base::load_u16(p + 2);
    std::uint16_t size = base::load_u16(p + 4);
    if (base::load_u16(p) == type) {
      if (count == kGeneralCount) return {true, true, 0, {}};
      return {true, false, count, {p + 6, size}};
    }
    p += 6 + size;
  }
  return {};
}

FastIndex::FastIndex() : table_(std::make_shared<const Table>()) { point_at_table(); }

void FastIndex::point_at_table() {
  arena_ = table_->arena.data();
  at_ = table_->at.data();
  index_ = table_->index;
}

FastIndex::FastIndex(const zone::Zone& zone, const FastIndex* previous, bool signatures) : signatures_(signatures) {
  const zone::Zone& base = zone.base() != nullptr ? *zone.base() : zone;
  origin_cut_ = base.origin().wire().size() - 1;
  if (previous != nullptr && previous->table_zone_ == &base && previous->signatures_ == signatures) {
    table_ = previous->table_;
  } else {
    table_ = build(base, signatures, origin_cut_);
  }
  table_zone_ = &base;
  point_at_table();
  if (zone.base() != nullptr) {
    patch_owner_ = build_patch(zone, 0, signatures, origin_cut_);
    patch_ = patch_owner_.get();
    older_layer_ = zone.older_layer();
    bool same_older = previous != nullptr && previous->older_ != nullptr && previous->older_layer_ == older_layer_ &&
                      previous->signatures_ == signatures;
    older_ = same_older ? previous->older_ : build_patch(zone, 1, signatures, origin_cut_);
  }
}

const std::uint8_t* FastIndex::find_patched(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
  const std::uint8_t* entry = patch_->find(lower_wire, hash, origin_cut_);
  if (entry == nullptr) entry = older_->find(lower_wire, hash, origin_cut_);
  if (entry != nullptr) return FastEntry(entry).kind() == FastEntry::Kind::kAbsent ? nullptr : entry;
  return find_shared(lower_wire, hash);
}

std::size_t FastIndex::memory_bytes() const {
  auto table_bytes = [](const Table& table) {
    return table.arena.capacity() + table.at.capacity() * sizeof(std::uint32_t) + table.own.memory_bytes();
  };
  std::size_t bytes = table_bytes(*table_);
  if (patch_ != nullptr) bytes += table_bytes(*patch_);
  if (older_ != nullptr) bytes += table_bytes(*older_);
  return bytes;
}

// Two passes: the first sets every entry's offset from its size, the second encodes the
// entries in the same order straight into the arena (its huge pages), sized once and written
// once: fresh memory is costly to touch at load, and a vector grown per byte cost more than
// encoding the answers. Lookups go through the zone's own name index, whose values number
// nodes then empty non-terminals (zone::Zone::index_view); the table keeps each one's entry
// offset in that order.
std::shared_ptr<const FastIndex::Table> FastIndex::build(const zone::Zone& zone, bool signatures, std::size_t cut) {
  auto empty_kind = empty_kind_of(zone);
  auto nodes = zone.built_nodes();
  auto empties = zone.built_empty_non_terminals();
  // An NSEC3 owner is answered as a name that does not exist (lookup.cpp): all of them share
  // one entry with an empty name, which no query name matches, so the fast path finds nothing
  // there (NXDOMAIN without DO; the general pipeline's proofs with it) and a signed zone's
  // hashes cost its index no room.
  auto table = std::make_shared<Table>();
  table->at.reserve(nodes.size() + empties.size());
  std::size_t size = 0;
  std::optional<std::uint32_t> hidden_at;
  auto place = [&](std::size_t bytes) {
    auto at = static_cast<std::uint32_t>(size);
    size += bytes;
    return at;
  };
  for (const auto& node : nodes) {
    if (zone::holds_only_nsec3(node)) {
      if (!hidden_at) hidden_at = place(entry_size({}, {}, signatures, cut));
      table->at.push_back(*hidden_at);
      continue;
    }
    table->at.push_back(place(entry_size(zone.owner_wire(node).all(), records_of(node), signatures, cut)));
  }
  for (const auto& name : empties) table->at.push_back(place(entry_size(name.wire(), {}, signatures, cut)));
  table->arena.resize(size);
  base::SpanWriter out(std::span<std::uint8_t>(table->arena.data(), table->arena.size()));
  std::size_t k = 0;
  auto write = [&](std::span<const std::uint8_t> wire, FastEntry::Kind kind, std::span<const zone::RRset> rrsets) {
    if (size - out.remaining() != table->at[k++]) throw std::logic_error("FastIndex::build: an entry's size differs from its encoding");
    add(out, wire, kind, rrsets, signatures, cut);
  };
  bool hidden_written = false;
  for (const auto& node : nodes) {
    if (zone::holds_only_nsec3(node)) {
      if (!hidden_written) {
        write({}, FastEntry::Kind::kAbsent, {});
        hidden_written = true;
      } else {
        ++k;
      }
      continue;
    }
    write(zone.owner_wire(node).all(), kind_of(node), records_of(node));
  }
  for (const auto& name : empties) write(name.wire(), empty_kind, {});
  if (out.remaining() != 0) throw std::logic_error("FastIndex::build: the entries fill less than their sizes");
  table->index = zone.index_view();
  return table;
}

// One layer's names alone, a gone one as a kAbsent entry that hides the base's.
std::shared_ptr<const FastIndex::Table> FastIndex::build_patch(const zone::Zone& zone, int layer, bool signatures,
                                                              std::size_t cut) {
  auto empty_kind = empty_kind_of(zone);
  auto table = std::make_shared<Table>();
  std::vector<std::uint8_t> arena;
  std::vector<std::uint64_t> hashes;  // index value k: the name whose entry is at table->at[k]
  zone.for_each_patched(layer, [&](std::span<const std::uint8_t> wire, const zone::Node* node, bool exists) {
    auto kind = node != nullptr && !zone::holds_only_nsec3(*node) ? kind_of(*node)
                : node == nullptr && exists                        ? empty_kind
                                                                   : FastEntry::Kind::kAbsent;
    std::span<const zone::RRset> records;
    if (node != nullptr && kind != FastEntry::Kind::kAbsent) records = records_of(*node);
    auto at = arena.size();
    arena.resize(at + entry_size(wire, records, signatures, cut));
    base::SpanWriter out(std::span<std::uint8_t>(arena).subspan(at));
    add(out, wire, kind, records, signatures, cut);
    if (out.remaining() != 0) throw std::logic_error("FastIndex::build_patch: an entry's size differs from its encoding");
    table->at.push_back(static_cast<std::uint32_t>(at));
    hashes.push_back(zone::hash_lower_wire(zone::LowerName(wire).all()));
  });
  table->arena.assign(arena.begin(), arena.end());
  table->own = zone::NameIndex(hashes.size());
  for (std::size_t k = 0; k < hashes.size(); ++k) table->own.insert(hashes[k], static_cast<std::uint32_t>(k));
  table->index = table->own.view();
  return table;
}

void FastIndex::add(base::SpanWriter& out, std::span<const std::uint8_t> wire, FastEntry::Kind kind,
                    std::span<const zone::RRset> rrsets, bool signatures, std::size_t cut) {
  std::size_t stored = stored_size(wire, cut);
  out.write_u8(static_cast<std::uint8_t>(stored));
  std::uint8_t lower[dns::Name::kMaxWireLength];
  for (std::size_t i = 0; i < stored; ++i) lower[i] = dns::ascii_lower(wire[i]);
  out.write_bytes(std::span<const std::uint8_t>(lower, stored));
  out.write_u8(static_cast<std::uint8_t>(kind));
  out.write_u8(static_cast<std::uint8_t>(rrsets.size()));
  for (const auto& rrset : rrsets) {
    EncodedAnswer answer = answer_of(rrset, rrsets, signatures);
    bool general = is_general(rrset, answer, signatures);
    out.write_u16(static_cast<std::uint16_t>(rrset.type));
    out.write_u16(general ? kGeneralCount : static_cast<std::uint16_t>(answer.count));
    out.write_u16(general ? 0 : static_cast<std::uint16_t>(answer.size));
    if (general) continue;
    put_records(out, rrset);
    if (signatures) {  // RFC 4035 §2.2: an RRSIG's TTL is that of the RRset it covers
      zone::for_each_signature(rrsets, rrset.type, [&](std::span<const std::uint8_t> rdata) {
        dns::write_answer_record(out, dns::RRType::RRSIG, rrset.ttl, rdata);
      });
    }
  }
}

}  // namespace cutover::auth
