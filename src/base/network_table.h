// NetworkTable: IPv4 and IPv6 prefixes mapped to small values, looked up by longest match, with
// the length of the prefix the answer holds for: every address sharing that many leading bits
// with the one asked gets the same value. That length is what a client-subnet answer carries as
// its scope (RFC 7871 §7.2.1), so a resolver caches one answer per region of the table and not
// per client. Built once, then only read; thread-safe to read.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace cutover::base {

// "192.0.2.0/24", "2001:db8::/32", or a bare address (a whole /32 or /128).
struct NetworkPrefix {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};
  unsigned bits = 0;

  unsigned address_bits() const { return v6 ? 128u : 32u; }
  // True when no bit past `bits` is set (10.0.0.0/8, not 10.1.0.0/8).
  bool host_bits_clear() const;
  // The same prefix with every bit past `bits` cleared.
  NetworkPrefix masked() const;
  std::string to_text() const;
};

// Parses a prefix as written in configs and network files; nullopt when malformed.
std::optional<NetworkPrefix> parse_network_prefix(std::string_view text);

struct NetworkMatch {
  bool found = false;        // some prefix of the table covers the address
  std::uint32_t value = 0;   // its value (when found)
  std::uint8_t scope = 0;    // leading bits that decide this answer (RFC 7871 SCOPE PREFIX-LENGTH)
};

// NetworkTable::contains_recent()'s memory: the table (by its seal generation, never reused,
// unlike an address), the address asked (an IPv4 one in `low`) and the answer. Per thread.
struct RecentAnswer {
  std::uint64_t generation = ~std::uint64_t{0};  // no table's: an unsealed one has 0
  std::size_t size = 0;
  std::uint64_t high = 0, low = 0;
  bool found = false;
};
inline thread_local RecentAnswer recent_answer{};

class NetworkTable {
 public:
  // Adds a prefix (host bits are ignored); an error when the same prefix is already there.
  // Undoes seal().
  Result<void> add(const NetworkPrefix& prefix, std::uint32_t value);
  // Once every prefix is added: precomputes the walk over the first 16 bits of every IPv4
  // address (65,536 entries, 1 MiB), so an IPv4 lookup of 16 bits or more starts at depth 16;
  // then, for each /16 that holds longer prefixes (at most `max_blocks` of them, in address
  // order), the walk over the next 8 bits (256 entries, 3 KiB a /16), so a lookup of 24 bits or
  // more there starts at depth 24. Lookups give the same answers with or without it.
  static constexpr std::size_t kDefaultSealBlocks = 2048;  // at most 6 MiB of second stage
  void seal(std::size_t max_blocks = kDefaultSealBlocks);
  // The /16s that seal() gave a second stage.
  std::size_t sealed_blocks() const { return v4_stage2_.size() / 256; }
  // The longest prefix covering the first `bits` bits of `address` (4 bytes for IPv4, 16 for
  // IPv6; an IPv4-mapped IPv6 address is looked up as IPv4, its bits counted from the IPv4 part).
  // `bits` larger than the family's is taken as the whole address.
  NetworkMatch lookup(std::span<const std::uint8_t> address, unsigned bits) const {
    // Inline, the steering case: an IPv4 address of 24 bits or more (a source address, a
    // resolver's /24) whose answer the precomputed stages hold; everything else walks.
    if (address.size() == 4 && bits >= kStage2Bits && !v4_stage_.empty()) {
      const FirstStage& first = v4_stage_[std::size_t{address[0]} << 8 | address[1]];
      const Stage* stage = &first;
      if (first.block != kNone) {
        stage = &v4_stage2_[static_cast<std::size_t>(first.block) * 256 + address[2]];
      } else if (!first.stopped) {
        return lookup_walk(address, bits);
      }
      if (stage->stopped || (bits == kStage2Bits && stage != &first)) {
        NetworkMatch match;
        if (stage->value != kNone) match = {true, static_cast<std::uint32_t>(stage->value), 0};
        match.scope = stage->stopped ? stage->scope : static_cast<std::uint8_t>(kStage2Bits);
        return match;
      }
    }
    return lookup_walk(address, bits);
  }
  NetworkMatch lookup(std::span<const std::uint8_t> address) const { return lookup(address, 128); }
  bool contains(std::span<const std::uint8_t> address) const { return lookup(address).found; }
  // contains(), remembering this thread's last answer for a sealed table: for a table asked
  // about the same few addresses again and again (client-subnet.trust: a few resolvers send
  // every query with a Client Subnet). One comparison when the address is the last one asked.
  bool contains_recent(std::span<const std::uint8_t> address) const {
    const RecentAnswer& recent = recent_answer;
    if (recent.generation == generation_ && recent.size == address.size()) {
      if (address.size() == 4) {
        std::uint32_t v4;
        std::memcpy(&v4, address.data(), 4);
        if (v4 == recent.low) return recent.found;
      } else {  // recent.size is 4 or 16
        std::uint64_t high, low;
        std::memcpy(&high, address.data(), 8);
        std::memcpy(&low, address.data() + 8, 8);
        if (high == recent.high && low == recent.low) return recent.found;
      }
    }
    return contains_and_remember(address);
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

 private:
  bool contains_and_remember(std::span<const std::uint8_t> address) const;
  // lookup() when its inline part does not decide.
  NetworkMatch lookup_walk(std::span<const std::uint8_t> address, unsigned bits) const;

  static constexpr std::int32_t kNone = -1;
  struct Node {
    std::int32_t child[2] = {kNone, kNone};
    std::int32_t value = kNone;  // a prefix ends here
  };
  // Two binary tries, one per family; node 0 of each is its root (the /0).
  std::vector<Node>& trie(bool v6) { return v6 ? v6_ : v4_; }
  const std::vector<Node>& trie(bool v6) const { return v6 ? v6_ : v4_; }

  // Where the walk of `bits` bits from `node` at depth `depth` ends: `match` updated, and
  // `stopped` when it ended before `bits` for want of a child (match.scope set then).
  struct Walk {
    NetworkMatch match;
    std::int32_t node = 0;
    bool stopped = false;
  };
  // `bit_at(i)` gives the address's bit i; IPv4 reads it from one 32-bit word.
  template <typename BitAt>
  static Walk walk(const std::vector<Node>& nodes, BitAt bit_at, unsigned depth, unsigned bits, std::int32_t node,
                   NetworkMatch match);
  static constexpr unsigned kStageBits = 16;
  static constexpr unsigned kStage2Bits = 24;
  struct Stage {
    std::int32_t node = 0;   // the node at the stage's depth, unless stopped
    std::int32_t value = kNone;
    std::uint8_t scope = 0;  // when stopped
    bool stopped = false;
  };
  // The first stage's entry also names its /16's block of the second stage (kNone: none).
  struct FirstStage : Stage {
    std::int32_t block = kNone;
  };
  static Stage stage_of(const Walk& done, const std::vector<Node>& nodes, unsigned depth);

  std::vector<Node> v4_{Node{}};
  std::vector<Node> v6_{Node{}};
  std::vector<FirstStage> v4_stage_;  // seal(): indexed by the first two bytes of an IPv4 address
  std::vector<Stage> v4_stage2_;      // seal(): 256 entries per block, indexed by the third byte
  std::size_t size_ = 0;
  std::uint64_t generation_ = 0;  // seal()'s, unique in the process; 0 when not sealed (no memo)
};

}  // namespace cutover::base
