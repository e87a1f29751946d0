// DynamicAnswers: the engine's interface for names answered from something other than zone
// data (health-checked pools today; views and online signing later). Whoever computes such
// answers builds one immutable snapshot of DynamicAnswer entries; the engine finds a name in
// it, copies the pre-encoded records or draws from the weighted set, and caps the TTL at the
// entry's deadline. The engine knows nothing of how an answer was chosen (docs/architecture.md,
// "auth"). A snapshot is read-only once built, so any number of threads may read it; the
// rotation counters and query counters it holds are atomics.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/network_table.h"
#include "base/result.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"
#include "zone/name_index.h"
#include "zone/zone.h"

namespace cutover::auth {

// One address family's answer: either a whole RRset (answered in cyclic order) or a set of
// candidates with weights, of which `per_query` are drawn for each query.
struct DynamicFamily {
  dns::RRType type = dns::RRType::A;
  zone::RRset fixed;                   // the whole answer when per_query == 0
  std::vector<dns::Rdata> draw;        // weighted: candidates...
  std::vector<std::uint32_t> weights;  // ...and their weights (all > 0)
  std::size_t per_query = 0;
  // When set (and the entry caps its TTL), the TTL sent is at most the time left until this.
  std::optional<base::SteadyTime> suspicion_deadline;

  // The members an answer picks from: the fixed RRset's, or the draw's candidates.
  std::size_t member_count() const { return per_query == 0 ? fixed.rdatas.size() : draw.size(); }
  std::span<const std::uint8_t> member(std::size_t index) const {
    return per_query == 0 ? fixed.rdatas[index] : std::span<const std::uint8_t>(draw[index]);
  }
};

// Queries answered from one entry; shared by the snapshots its builder makes over time.
struct AnswerCounters {
  std::atomic<std::uint64_t> queries{0};
};

// Where a query comes from, as steering sees it: the network a trusted resolver passed on in
// its Client Subnet option (RFC 7871), or the query's source address with all its bits.
struct ClientNetwork {
  std::span<const std::uint8_t> address;  // 4 or 16 bytes; empty: unknown
  unsigned bits = 128;                    // leading bits of `address` that count
};

// The answer one group of client networks gets (a pool's region).
struct DynamicGroup {
  std::string name;
  DynamicFamily a;
  DynamicFamily aaaa;
  DynamicFamily cname;  // alias entries: the one CNAME (or the names one is drawn from)

  const DynamicFamily* family(dns::RRType type) const {
    if (type == dns::RRType::A) return &a;
    if (type == dns::RRType::AAAA) return &aaaa;
    if (type == dns::RRType::CNAME) return &cname;
    return nullptr;
  }
};

// A group chosen for a client, and the leading bits of its network that chose it (the scope an
// answer carries back to a resolver that sent Client Subnet, RFC 7871 §7.2.1).
struct GroupChoice {
  std::size_t group = 0;
  std::uint8_t scope = 0;
};

// DynamicAnswer::views and ClientContext::view_bit: every view, and the default zones' bit.
constexpr std::uint16_t kEveryView = 0xFFFF;
constexpr std::uint16_t kDefaultViewBit = 1;
// Views past this many cannot be told apart by an entry (pool/config refuses restricting a
// pool in a config with more).
constexpr std::size_t kMaxMaskedViews = 15;

struct DynamicAnswer {
  std::string source;  // who answers this name (a pool's id), for outcomes and logs
  dns::Name owner;
  std::uint32_t ttl = 0;
  bool suspicion_ttl = false;  // cap the TTL at the family's suspicion_deadline
  // Alias entries (a pool of hostname endpoints): the name answers `cname`, a CNAME to one
  // target, for every type, never A or AAAA of its own (RFC 2181 §10.1: a CNAME owner holds
  // nothing else). Kept beside the other flag: the entry stays 512 bytes, so indexing the
  // answers is one shift on the fast path (callgrind counted 12 instructions more per pool
  // query at 520).
  bool alias = false;
  // The views it is answered in (auth/views.h): bit 0 the default zones, bit i + 1 the view at
  // index i; a query whose view's bit is clear is answered from zone data as if there were no
  // entry. Also in the padding beside the flags, so the entry stays 512 bytes.
  std::uint16_t views = kEveryView;
  // Unsteered: every client's answer. Steered: the default group's, for callers that know no client.
  DynamicFamily a;
  DynamicFamily aaaa;
  DynamicFamily cname;
  std::shared_ptr<AnswerCounters> counters;
  // Steering by client network: set, a client whose network `networks` maps to value V is
  // answered from groups[V], one no prefix covers from groups[default_group].
  std::shared_ptr<const base::NetworkTable> networks;
  std::vector<DynamicGroup> groups;
  std::size_t default_group = 0;

  bool steered() const { return networks != nullptr && !groups.empty(); }
  // The group for a client network (steered entries only).
  GroupChoice choose(const ClientNetwork& network) const;
  const DynamicFamily* family(dns::RRType type) const {
    if (type == dns::RRType::A) return &a;
    if (type == dns::RRType::AAAA) return &aaaa;
    if (type == dns::RRType::CNAME) return &cname;
    return nullptr;
  }
  // The family to answer a client with: its group's when steered and the network is known.
  const DynamicFamily* family(dns::RRType type, const ClientNetwork* network) const;
  // The TTL to send now: `ttl`, capped by the suspicion deadline when enabled.
  std::uint32_t ttl_at(const DynamicFamily& family, base::SteadyTime now) const;
};

// What the answer fast path reads to write one family's answer, in one place: the pre-encoded
// records and, for a draw, the weights (pointers into the snapshot that holds them).
struct PlainFamily {
  const std::uint8_t* records = nullptr;
  const std::uint32_t* weights = nullptr;           // draws only
  std::atomic<std::uint32_t>* rotation = nullptr;   // fixed answers: the RRset's cyclic-order counter
  std::uint16_t record_size = 0;  // 0: not here (empty, not encodable, or not a plain entry)
  std::uint16_t count = 0;        // members (fixed) or candidates (draw)
  std::uint16_t per_query = 0;    // 0: the fixed answer
  bool uniform = false;           // draws: every weight the same (a draw of one needs no weights)
  std::uint64_t weight_total = 0;  // draws: the sum of the weights
};

// One family's answer records pre-encoded as they follow the question in a response (owner =
// compression pointer to the question name, class IN, the entry's TTL), so the answer fast
// path copies them instead of planning and encoding. Every record has the same size (A or
// AAAA). A fixed answer holds its members twice over but the last, so each rotation of the
// cyclic order is one contiguous slice; a weighted draw holds its candidates once.
struct EncodedFamily {
  std::vector<std::uint8_t> records;
  PlainFamily view;  // over `records` and the family; record_size 0: not encodable, the general path answers
};

struct EncodedAnswer {
  EncodedFamily a;
  EncodedFamily aaaa;
  std::vector<EncodedAnswer> groups;  // parallel to DynamicAnswer::groups

  const EncodedFamily* family(dns::RRType type) const {
    if (type == dns::RRType::A) return &a;
    if (type == dns::RRType::AAAA) return &aaaa;
    return nullptr;
  }
};

// Larger answers (and draws) are left to the general path; the fast path's draw scratch fits this.
constexpr std::size_t kMaxEncodedMembers = 64;

// The records of one family for one query: either the pre-built RRset or a fresh draw.
struct DynamicRecords {
  const zone::RRset* fixed = nullptr;
  std::vector<dns::Rdata> picked;
  std::uint32_t ttl = 0;
  bool empty() const { return (fixed == nullptr || fixed->rdatas.empty()) && picked.empty(); }
};

// A steered entry's choice of group, as the answer fast path reads it: the table and the
// bounds DynamicAnswer::choose applies, without the entry.
struct Steering {
  const base::NetworkTable* networks = nullptr;
  std::size_t groups = 0;         // > 0
  std::size_t default_group = 0;  // already < groups
  std::size_t first_group = 0;    // the entry's first group in DynamicAnswers::group_plain()
  GroupChoice choose(const ClientNetwork& network) const {
    base::NetworkMatch match = networks->lookup(network.address, network.bits);
    return GroupChoice{match.found && match.value < groups ? match.value : default_group, match.scope};
  }
};

// A plain entry's families (no alias, no suspicion cap): its EncodedFamily views. A family
// left with record_size 0 takes answer_dynamic's full route.
struct PlainAnswer {
  PlainFamily a;
  PlainFamily aaaa;
  // Steered: a client with a known network is answered from its group's EncodedFamily views
  // (every group is plain too); a and aaaa are the default group's, for one without.
  bool steered = false;
  const DynamicAnswer* entry = nullptr;  // the entry these families are of (QueryOutcome::dynamic)

  const PlainFamily* family(std::uint16_t qtype) const {
    return qtype == static_cast<std::uint16_t>(dns::RRType::A)      ? &a
           : qtype == static_cast<std::uint16_t>(dns::RRType::AAAA) ? &aaaa
                                                                      : nullptr;
  }
};

class DynamicAnswers {
 public:
  explicit DynamicAnswers(std::vector<DynamicAnswer> answers);
  // The PlainFamily views point into answers_ and encoded_, whose elements a move keeps in place.
  DynamicAnswers(const DynamicAnswers&) = delete;
  DynamicAnswers& operator=(const DynamicAnswers&) = delete;
  DynamicAnswers(DynamicAnswers&&) = default;
  DynamicAnswers& operator=(DynamicAnswers&&) = default;

  const DynamicAnswer* find(const dns::Name& owner) const;
  // The entry of `owner` answered in the view `view_bit` (auth/views.h), or nullptr.
  const DynamicAnswer* find(const dns::Name& owner, std::uint16_t view_bit) const;
  // The position in answers() of the entry owning a lowercase wire name whose hash is
  // zone::hash_lower_wire(lower_wire), or kNone; no allocation.
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  // Inline: the answer fast path calls it for every query of a zone with pools. The index is
  // always constructed (an empty snapshot's has 8 empty slots), so it is probed untested.
  std::size_t find_lower(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
    const std::uint8_t* arena = owner_arena_.data();
    auto at = index_view_.find_in_slots(hash, [&](std::uint32_t entry) {
      return arena[entry + kOwnerSize] == lower_wire.size() &&
             zone::equal_bytes(arena + entry + kOwnerName, lower_wire.data(), lower_wire.size());
    });
    if (!at) return kNone;
    std::uint32_t position;
    std::memcpy(&position, arena + *at, sizeof position);
    return position;
  }
  const EncodedAnswer& encoded(std::size_t position) const { return encoded_[position]; }
  // The entry's families as the fast path answers them when it is plain (no alias or suspicion
  // cap); a family with record_size 0 takes the full dynamic route.
  const PlainAnswer& plain(std::size_t position) const { return plain_[position]; }
  // Whether the entry's owner is at or below a zone cut, as last found for one served zone:
  // (ServedZone::generation << 1) | below, 0 when never found. A pool owner's answer is
  // referred instead when it is (the general pipeline looks for cuts first); remembering it
  // per zone spares the fast path a probe of the zone's index per query.
  std::atomic<std::uint64_t>& cut_check(std::size_t position) const { return cut_checks_[position]; }
  // A steered entry's Steering (PlainAnswer::steered), and its group `group`'s families.
  const Steering& steering(std::size_t position) const { return steering_[position]; }
  const PlainAnswer& group_plain(const Steering& steering, std::size_t group) const {
    return group_plain_[steering.first_group + group];
  }
  bool empty() const { return answers_.empty(); }
  const std::vector<DynamicAnswer>& answers() const { return answers_; }
  // Whether an entry is answered in some views only (DynamicAnswer::views): without one, the
  // answer paths skip the view test.
  bool restricted() const { return restricted_; }
  // The entry at `position` is not for a query answered in the view `view_bit`.
  bool hidden(std::size_t position, std::uint16_t view_bit) const {
    return restricted_ && (answers_[position].views & view_bit) == 0;
  }
  // After a hidden entry: the next one of the same name answered in `view_bit`, or kNone (a
  // name may have an entry per set of views; find_lower gives the first).
  std::size_t next_in_view(std::size_t position, std::uint16_t view_bit) const;

 private:
  bool restricted_ = false;
  std::vector<DynamicAnswer> answers_;  // sorted by owner
  // Each entry's lowercase owner, in one block, behind its position and its length: the index
  // points at an entry, and a lookup reads that alone (no table per name, no second lookup).
  static constexpr std::size_t kOwnerSize = 4;  // after the position (4 bytes, host order)
  static constexpr std::size_t kOwnerName = 5;
  std::vector<std::uint8_t> owner_arena_;
  struct OwnerRef {
    std::uint32_t at = 0;  // the entry in owner_arena_
    std::uint32_t size = 0;
  };
  std::vector<OwnerRef> owners_;  // parallel to answers_
  bool same_owner(std::size_t x, std::size_t y) const;
  std::vector<EncodedAnswer> encoded_;  // parallel to answers_
  std::vector<PlainAnswer> plain_;      // parallel to answers_
  std::unique_ptr<std::atomic<std::uint64_t>[]> cut_checks_;  // parallel to answers_
  std::vector<Steering> steering_;                            // parallel to answers_
  std::vector<PlainAnswer> group_plain_;                      // steered plain entries' groups
  zone::NameIndex index_;               // lowercase owner -> its entry in owner_arena_
  zone::NameIndex::View index_view_;    // index_'s slots (a move keeps them in place)
};

// The generator of weighted draws (select_records and the answer fast path): SplitMix64
// (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), one
// add and three multiply-xorshift steps per value, statistically sound for choosing among a
// pool's endpoints and about a tenth of mt19937_64's instructions. Not for anything secret.
class DrawGenerator {
 public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  constexpr DrawGenerator() = default;
  explicit DrawGenerator(std::uint64_t seed) : state_(seed), seeded_(true) {}
  bool seeded() const { return seeded_; }
  result_type operator()() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_ = 0;
  bool seeded_ = false;
};

// Seeds `generator` from std::random_device.
void seed_draw_generator(DrawGenerator& generator);

// The calling thread's generator, seeded on its first use. Constant-initialized, so a call
// costs no guard, and inline: the answer fast path draws with it.
inline DrawGenerator& draw_generator() {
  thread_local DrawGenerator random;
  if (!random.seeded()) [[unlikely]] seed_draw_generator(random);
  return random;
}

// `ttl`, capped at the time left until the family's suspicion deadline when `cap` is set.
std::uint32_t capped_ttl(std::uint32_t ttl, bool cap, const DynamicFamily& family, base::SteadyTime now);
// The records of `family` for one query with TTL `ttl`: the fixed RRset (valid while
// `family` lives) or a fresh weighted draw.
DynamicRecords pick_records(const DynamicFamily& family, std::uint32_t ttl);

// The records of `type` to answer now, for a client in `network` when given (steered entries).
// Weighted draws use draw_generator().
[[nodiscard]] base::Result<DynamicRecords> select_records(const DynamicAnswer& answer, dns::RRType type,
                                                          base::SteadyTime now, const ClientNetwork* network = nullptr);

// Draws `count` distinct indexes with probability proportional to `weights` (all > 0),
// using `random` as a source of uniform 64-bit values.
template <typename Random>
std::vector<std::size_t> weighted_draw(const std::vector<std::uint32_t>& weights, std::size_t count, Random& random);

}  // namespace cutover::auth

#include "auth/weighted_draw.inl"
