// NetworkTable: a binary trie per family; the walk down the address's bits remembers the last
// prefix it passed and stops where the trie has nothing more specific in the address's direction.
#include "base/network_table.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <charconv>

namespace cutover::base {
namespace {

unsigned bit_at(std::span<const std::uint8_t> bytes, unsigned index) {
  return (bytes[index / 8] >> (7 - index % 8)) & 1u;
}

// Bit i of a 4-byte IPv4 address, read from one big-endian word.
auto v4_bits(std::span<const std::uint8_t> address) {
  std::uint32_t word = std::uint32_t{address[0]} << 24 | std::uint32_t{address[1]} << 16 |
                       std::uint32_t{address[2]} << 8 | address[3];
  return [word](unsigned i) { return (word >> (31 - i)) & 1u; };
}

constexpr std::array<std::uint8_t, 12> kMappedPrefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};

}  // namespace

bool NetworkPrefix::host_bits_clear() const {
  for (unsigned i = bits; i < address_bits(); ++i) {
    if (bit_at(bytes, i) != 0) return false;
  }
  return true;
}

NetworkPrefix NetworkPrefix::masked() const {
  NetworkPrefix out = *this;
  for (unsigned i = bits; i < address_bits(); ++i) out.bytes[i / 8] &= static_cast<std::uint8_t>(~(0x80u >> (i % 8)));
  return out;
}

std::string NetworkPrefix::to_text() const {
  char text[INET6_ADDRSTRLEN] = {};
  ::inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), text, sizeof text);
  return std::string(text) + "/" + std::to_string(bits);
}

std::optional<NetworkPrefix> parse_network_prefix(std::string_view text) {
  NetworkPrefix prefix;
  auto slash = text.find('/');
  std::string address(text.substr(0, slash));
  if (::inet_pton(AF_INET, address.c_str(), prefix.bytes.data()) == 1) {
    prefix.v6 = false;
  } else if (::inet_pton(AF_INET6, address.c_str(), prefix.bytes.data()) == 1) {
    prefix.v6 = true;
  } else {
    return std::nullopt;
  }
  prefix.bits = prefix.address_bits();
  if (slash != std::string_view::npos) {
    auto digits = text.substr(slash + 1);
    unsigned bits = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || bits > prefix.bits) {
      return std::nullopt;
    }
    prefix.bits = bits;
  }
  return prefix;
}

Result<void> NetworkTable::add(const NetworkPrefix& prefix, std::uint32_t value) {
  generation_ = 0;  // no longer the table a memo may hold answers of
  std::vector<Node>& nodes = trie(prefix.v6);
  std::size_t at = 0;
  for (unsigned i = 0; i < prefix.bits; ++i) {
    unsigned bit = bit_at(prefix.bytes, i);
    if (nodes[at].child[bit] == kNone) {
      nodes[at].child[bit] = static_cast<std::int32_t>(nodes.size());
      nodes.emplace_back();  // invalidates references: index again below
    }
    at = static_cast<std::size_t>(nodes[at].child[bit]);
  }
  if (nodes[at].value != kNone) return make_error(ErrorCode::kInvalidArgument, prefix.to_text() + " is listed twice");
  nodes[at].value = static_cast<std::int32_t>(value);
  ++size_;
  v4_stage_.clear();
  v4_stage2_.clear();
  return {};
}

template <typename BitAt>
NetworkTable::Walk NetworkTable::walk(const std::vector<Node>& nodes, BitAt bit_of, unsigned depth, unsigned bits,
                                      std::int32_t at, NetworkMatch match) {
  const Node* node = &nodes[static_cast<std::size_t>(at)];
  for (unsigned i = depth; i < bits; ++i) {
    std::int32_t next = node->child[bit_of(i)];
    if (next == kNone) {
      // Nothing more specific this way: every address with these i bits, plus this one when
      // the other way holds something, is answered alike.
      bool leaf = node->child[0] == kNone && node->child[1] == kNone;
      match.scope = static_cast<std::uint8_t>(leaf ? i : i + 1);
      return Walk{match, at, true};
    }
    at = next;
    node = &nodes[static_cast<std::size_t>(next)];
    if (node->value != kNone) {
      match.found = true;
      match.value = static_cast<std::uint32_t>(node->value);
    }
  }
  match.scope = static_cast<std::uint8_t>(bits);
  return Walk{match, at, false};
}

NetworkTable::Stage NetworkTable::stage_of(const Walk& done, const std::vector<Node>& nodes, unsigned depth) {
  Stage stage;
  stage.node = done.node;
  stage.value = done.match.found ? static_cast<std::int32_t>(done.match.value) : kNone;
  stage.scope = done.match.scope;
  stage.stopped = done.stopped;
  // A walk that reached the stage's depth on a leaf goes no further for any longer address:
  // the lookup stops here, with the scope the walk would give (this depth), without walking.
  const Node& node = nodes[static_cast<std::size_t>(done.node)];
  if (!done.stopped && node.child[0] == kNone && node.child[1] == kNone) {
    stage.stopped = true;
    stage.scope = static_cast<std::uint8_t>(depth);
  }
  return stage;
}

namespace {

std::atomic<std::uint64_t> next_generation{1};

}  // namespace

bool NetworkTable::contains_and_remember(std::span<const std::uint8_t> address) const {
  bool found = contains(address);
  if (generation_ != 0 && (address.size() == 4 || address.size() == 16)) {
    RecentAnswer& recent = recent_answer;
    recent = RecentAnswer{generation_, address.size(), 0, 0, found};
    if (address.size() == 4) {
      std::uint32_t v4;
      std::memcpy(&v4, address.data(), 4);
      recent.low = v4;
    } else {
      std::memcpy(&recent.high, address.data(), 8);
      std::memcpy(&recent.low, address.data() + 8, 8);
    }
  }
  return found;
}

void NetworkTable::seal(std::size_t max_blocks) {
  generation_ = next_generation.fetch_add(1, std::memory_order_relaxed);
  v4_stage_.assign(std::size_t{1} << kStageBits, FirstStage{});
  v4_stage2_.clear();
  NetworkMatch root;
  if (v4_[0].value != kNone) root = {true, static_cast<std::uint32_t>(v4_[0].value), 0};
  for (std::size_t high = 0; high < v4_stage_.size(); ++high) {
    std::array<std::uint8_t, 4> address = {static_cast<std::uint8_t>(high >> 8), static_cast<std::uint8_t>(high), 0, 0};
    Walk first = walk(v4_, v4_bits(address), 0, kStageBits, 0, root);
    FirstStage& stage = v4_stage_[high];
    static_cast<Stage&>(stage) = stage_of(first, v4_, kStageBits);
    if (stage.stopped || v4_stage2_.size() / 256 >= max_blocks) continue;
    // Longer prefixes below this /16: the next 8 bits' walk for each third byte.
    stage.block = static_cast<std::int32_t>(v4_stage2_.size() / 256);
    for (std::size_t third = 0; third < 256; ++third) {
      address[2] = static_cast<std::uint8_t>(third);
      v4_stage2_.push_back(
          stage_of(walk(v4_, v4_bits(address), kStageBits, kStage2Bits, first.node, first.match), v4_, kStage2Bits));
    }
  }
}

NetworkMatch NetworkTable::lookup_walk(std::span<const std::uint8_t> address, unsigned bits) const {
  NetworkMatch match;
  bool v6 = address.size() == 16;
  if (v6 && std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), address.begin())) {
    address = address.subspan(12);
    v6 = false;
    bits = bits > 96 ? bits - 96 : 0;
  }
  if (address.size() != (v6 ? 16u : 4u)) return match;
  const std::vector<Node>& nodes = trie(v6);
  bits = std::min(bits, v6 ? 128u : 32u);
  if (!v6 && bits >= kStageBits && !v4_stage_.empty()) {
    // The first 16 bits' walk, precomputed by seal().
    const FirstStage& first = v4_stage_[std::size_t{address[0]} << 8 | address[1]];
    const Stage* stage = &first;
    unsigned depth = kStageBits;
    if (bits >= kStage2Bits && first.block != kNone) {
      // The next 8 bits too, precomputed for this /16.
      stage = &v4_stage2_[static_cast<std::size_t>(first.block) * 256 + address[2]];
      depth = kStage2Bits;
    }
    if (stage->value != kNone) match = {true, static_cast<std::uint32_t>(stage->value), 0};
    if (stage->stopped || depth == bits) {  // a /24 source ends at the second stage
      match.scope = stage->stopped ? stage->scope : static_cast<std::uint8_t>(bits);
      return match;
    }
    return walk(nodes, v4_bits(address), depth, bits, stage->node, match).match;
  }
  if (nodes[0].value != kNone) match = {true, static_cast<std::uint32_t>(nodes[0].value), 0};
  if (!v6) return walk(nodes, v4_bits(address), 0, bits, 0, match).match;
  return walk(nodes, [address](unsigned i) { return bit_at(address, i); }, 0, bits, 0, match).match;
}

}  // namespace cutover::base
