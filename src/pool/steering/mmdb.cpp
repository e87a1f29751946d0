// Reading a MaxMind DB's search tree into a NetworkTable. The tree is a binary trie over the
// address bits (MaxMind DB File Format Specification 2.0, "Search Tree Section"): each node has
// two records, each pointing to another node, to a data record, or to nothing. An IPv6
// database keeps IPv4 under ::/96, and MaxMind's databases point ::ffff:0:0/96 and 2002::/16 at
// that same subtree; the walk reads it once, as IPv4, and skips it wherever else it appears.
#include "pool/steering/mmdb.h"

#include <maxminddb.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

namespace cutover::pool {
namespace {

constexpr std::int64_t kUnmapped = -1;

class TreeReader {
 public:
  TreeReader(MMDB_s& db, const MmdbNetworks& source, const std::vector<RegionSpec>& regions, MmdbSummary& summary)
      : db_(db), source_(source), regions_(regions), summary_(summary) {
    for (const auto& part : source_.field) path_.push_back(part.c_str());
    path_.push_back(nullptr);
  }

  base::Result<base::NetworkTable> read() {
    if (db_.metadata.ip_version == 4) {
      if (auto walked = walk_tree(0, false, false); !walked) return walked.error();
    } else {
      // Follow ::/96 down to the IPv4 subtree: 96 zero bits from the root.
      std::uint64_t node = 0;
      unsigned depth = 0;
      for (; depth < 96; ++depth) {
        MMDB_search_node_s read;
        if (MMDB_read_node(&db_, static_cast<std::uint32_t>(node), &read) != MMDB_SUCCESS) return corrupt();
        if (read.left_record_type != MMDB_RECORD_TYPE_SEARCH_NODE) {
          // All of IPv4 lies inside one record of a shorter prefix.
          auto half = record(read.left_record_type, read.left_record_entry);
          if (!half) return half.error();
          if (auto added = add_if_mapped(*half, false, 0); !added) return added.error();
          break;
        }
        node = read.left_record;
      }
      if (depth == 96) {
        ipv4_start_ = node;
        if (auto walked = walk_tree(node, false, false); !walked) return walked.error();
      }
      if (auto walked = walk_tree(0, true, true); !walked) return walked.error();
    }
    if (summary_.mapped == 0) {
      std::string seen = summary_.sample_value.empty() ? "no record has it"
                                                       : fmt::format("values like '{}' name no region", summary_.sample_value);
      return base::make_error(base::ErrorCode::kInvalidArgument,
                              fmt::format("{}: no network's {} maps to a region of the pool ({} networks read; {})",
                                          source_.path, field_text(), summary_.networks, seen));
    }
    table_.seal();  // every query looks its client up here
    return std::move(table_);
  }

 private:
  // What one half of a node (a record) leads to: one region (or kUnmapped) for every address
  // below it, or several. Halves alike are added as their parent's one prefix, so neighbours
  // that map to the same region (DE beside FR, both eu) cost one prefix, and the scope sent
  // back is as short as the regions allow.
  struct Half {
    bool uniform = false;
    std::int64_t region = kUnmapped;
  };

  // The whole tree below `node`, taken as the family's root.
  base::Result<void> walk_tree(std::uint64_t node, bool v6, bool skip_ipv4) {
    address_ = {};
    auto half = walk_node(node, 0, v6, skip_ipv4);
    if (!half) return half.error();
    return add_if_mapped(*half, v6, 0);
  }

  // Adds the current address's first `bits` bits as a prefix when `half` is one mapped region.
  base::Result<void> add_if_mapped(const Half& half, bool v6, unsigned bits) {
    if (!half.uniform || half.region == kUnmapped) return {};
    if (auto added = table_.add(prefix_of(v6, bits), static_cast<std::uint32_t>(half.region)); !added) return corrupt();
    return {};
  }

  base::Error corrupt() const {
    return base::make_error(base::ErrorCode::kMalformed,
                            fmt::format("{}: the MaxMind DB's search tree is corrupt", source_.path));
  }

  std::string field_text() const {
    std::string out;
    for (const auto& part : source_.field) out += (out.empty() ? "" : ".") + part;
    return out;
  }

  base::NetworkPrefix prefix_of(bool v6, unsigned bits) const {
    base::NetworkPrefix prefix;
    prefix.v6 = v6;
    prefix.bits = bits;
    prefix.bytes = address_;
    return prefix.masked();
  }

  // `depth` counts the bits taken in the family being read (IPv4 from the IPv4 subtree).
  base::Result<Half> walk_node(std::uint64_t node, unsigned depth, bool v6, bool skip_ipv4) {
    if (node >= db_.metadata.node_count || depth >= (v6 ? 128u : 32u)) return corrupt();
    // A tree visits each node once; more visits than nodes means a cycle.
    if (++visits_ > 2ull * db_.metadata.node_count + 2) return corrupt();
    MMDB_search_node_s read;
    if (MMDB_read_node(&db_, static_cast<std::uint32_t>(node), &read) != MMDB_SUCCESS) return corrupt();
    std::array<Half, 2> halves;
    for (int bit = 0; bit < 2; ++bit) {
      set_bit(depth, bit);
      std::uint8_t type = bit == 0 ? read.left_record_type : read.right_record_type;
      std::uint64_t next = bit == 0 ? read.left_record : read.right_record;
      MMDB_entry_s entry = bit == 0 ? read.left_record_entry : read.right_record_entry;
      if (type == MMDB_RECORD_TYPE_SEARCH_NODE) {
        if (skip_ipv4 && ipv4_start_ && next == *ipv4_start_) continue;  // read once, as IPv4; not merged
        auto half = walk_node(next, depth + 1, v6, skip_ipv4);
        if (!half) return half.error();
        halves[bit] = *half;
      } else {
        auto half = record(type, entry);
        if (!half) return half.error();
        halves[bit] = *half;
      }
    }
    if (halves[0].uniform && halves[1].uniform && halves[0].region == halves[1].region) {
      set_bit(depth, 0);
      return halves[0];
    }
    for (int bit = 0; bit < 2; ++bit) {
      set_bit(depth, bit);
      if (auto added = add_if_mapped(halves[bit], v6, depth + 1); !added) return added.error();
    }
    set_bit(depth, 0);
    return Half{};
  }

  void set_bit(unsigned index, int bit) {
    auto mask = static_cast<std::uint8_t>(0x80u >> (index % 8));
    if (bit != 0) {
      address_[index / 8] |= mask;
    } else {
      address_[index / 8] &= static_cast<std::uint8_t>(~mask);
    }
  }

  // One record: nothing (no network: the default region, as an unmapped one) or a network.
  base::Result<Half> record(std::uint8_t type, MMDB_entry_s entry) {
    if (type == MMDB_RECORD_TYPE_EMPTY) return Half{true, kUnmapped};
    if (type != MMDB_RECORD_TYPE_DATA) return corrupt();
    ++summary_.networks;
    auto region = region_of(entry);
    if (!region) return region.error();
    if (*region != kUnmapped) ++summary_.mapped;
    return Half{true, *region};
  }

  // The region of one data record, looked up once per record (networks share records).
  base::Result<std::int64_t> region_of(MMDB_entry_s entry) {
    if (auto known = by_offset_.find(entry.offset); known != by_offset_.end()) return known->second;
    MMDB_entry_data_s data;
    int status = MMDB_aget_value(&entry, &data, path_.data());
    std::string value;
    if (status == MMDB_SUCCESS && data.has_data) {
      switch (data.type) {
        case MMDB_DATA_TYPE_UTF8_STRING: value.assign(data.utf8_string, data.data_size); break;
        case MMDB_DATA_TYPE_UINT16: value = std::to_string(data.uint16); break;
        case MMDB_DATA_TYPE_UINT32: value = std::to_string(data.uint32); break;
        case MMDB_DATA_TYPE_INT32: value = std::to_string(data.int32); break;
        case MMDB_DATA_TYPE_UINT64: value = std::to_string(data.uint64); break;
        case MMDB_DATA_TYPE_BOOLEAN: value = data.boolean ? "true" : "false"; break;
        default: break;  // maps, arrays, floats: no value to map
      }
    } else if (status != MMDB_SUCCESS && status != MMDB_LOOKUP_PATH_DOES_NOT_MATCH_DATA_ERROR &&
               status != MMDB_INVALID_LOOKUP_PATH_ERROR) {
      return base::make_error(base::ErrorCode::kMalformed,
                              fmt::format("{}: reading {}: {}", source_.path, field_text(), MMDB_strerror(status)));
    }
    std::int64_t region = kUnmapped;
    if (!value.empty()) {
      std::string name = value;
      if (!source_.map.empty()) {
        auto mapped = source_.map.find(value);
        name = mapped == source_.map.end() ? std::string() : mapped->second;
      }
      for (std::size_t i = 0; i < regions_.size() && !name.empty(); ++i) {
        if (regions_[i].name == name) region = static_cast<std::int64_t>(i);
      }
      if (region == kUnmapped && summary_.sample_value.empty()) summary_.sample_value = value;
    }
    by_offset_.emplace(entry.offset, region);
    return region;
  }

  MMDB_s& db_;
  const MmdbNetworks& source_;
  const std::vector<RegionSpec>& regions_;
  MmdbSummary& summary_;
  std::vector<const char*> path_;
  std::array<std::uint8_t, 16> address_{};
  std::optional<std::uint64_t> ipv4_start_;
  std::uint64_t visits_ = 0;
  std::unordered_map<std::uint32_t, std::int64_t> by_offset_;
  base::NetworkTable table_;
};

}  // namespace

base::Result<std::vector<std::string>> parse_mmdb_field(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = text.find('.', start);
    std::string part = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) {
      return base::make_error(base::ErrorCode::kInvalidArgument,
                              fmt::format("'{}' is not a field path (map keys joined by dots, like country.iso_code)", text));
    }
    parts.push_back(std::move(part));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

base::Result<base::NetworkTable> load_mmdb_networks(const MmdbNetworks& source, const std::vector<RegionSpec>& regions,
                                                    MmdbSummary* summary) {
  MMDB_s db;
  int status = MMDB_open(source.path.c_str(), MMDB_MODE_MMAP, &db);
  if (status != MMDB_SUCCESS) {
    std::string why = status == MMDB_IO_ERROR ? fmt::format("{} ({})", MMDB_strerror(status), std::strerror(errno))
                                              : MMDB_strerror(status);
    return base::make_error(status == MMDB_FILE_OPEN_ERROR ? base::ErrorCode::kNotFound : base::ErrorCode::kMalformed,
                            fmt::format("{}: cannot read it as a MaxMind DB: {}", source.path, why));
  }
  std::unique_ptr<MMDB_s, void (*)(MMDB_s*)> closer(&db, MMDB_close);
  MmdbSummary local;
  TreeReader reader(db, source, regions, summary != nullptr ? *summary : local);
  return reader.read();
}

}  // namespace cutover::pool
