// DynamicAnswers: the engine's interface for names answered from something other than zone
// data (health-checked pools today; views and online signing later). Whoever computes such
// answers builds one immutable snapshot of DynamicAnswer entries; the engine finds a name in
// it, copies the pre-encoded records or draws from the weighted set, and caps the TTL at the
// entry's deadline. The engine knows nothing of how an answer was chosen (docs/architecture.md,
// "auth"). A snapshot is read-only once built, so any number of threads may read it; the
// rotation counters and query counters it holds are atomics.
#pragma once

#include <atomic>
#include <cstdint>
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

  const DynamicFamily* family(dns::RRType type) const;
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
  const DynamicFamily* family(dns::RRType type) const;
  // The family to answer a client with: its group's when steered and the network is known.
  const DynamicFamily* family(dns::RRType type, const ClientNetwork* network) const;
  // The TTL to send now: `ttl`, capped by the suspicion deadline when enabled.
  std::uint32_t ttl_at(const DynamicFamily& family, base::SteadyTime now) const;
};

// One family's answer records pre-encoded as they follow the question in a response (owner =
// compression pointer to the question name, class IN, the entry's TTL), so the answer fast
// path copies them instead of planning and encoding. Every record has the same size (A or
// AAAA). A fixed answer holds its members twice over but the last, so each rotation of the
// cyclic order is one contiguous slice; a weighted draw holds its candidates once.
struct EncodedFamily {
  std::vector<std::uint8_t> records;
  std::uint16_t record_size = 0;  // 0: not encodable, the general path answers
  std::uint16_t count = 0;        // members (fixed) or candidates (draw)
};

struct EncodedAnswer {
  EncodedFamily a;
  EncodedFamily aaaa;
  std::vector<EncodedAnswer> groups;  // parallel to DynamicAnswer::groups

  const EncodedFamily* family(dns::RRType type) const;
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

class DynamicAnswers {
 public:
  explicit DynamicAnswers(std::vector<DynamicAnswer> answers);

  const DynamicAnswer* find(const dns::Name& owner) const;
  // The entry of `owner` answered in the view `view_bit` (auth/views.h), or nullptr.
  const DynamicAnswer* find(const dns::Name& owner, std::uint16_t view_bit) const;
  // The position in answers() of the entry owning a lowercase wire name whose hash is
  // zone::hash_lower_wire(lower_wire), or kNone; no allocation.
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t find_lower(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const;
  const EncodedAnswer& encoded(std::size_t position) const { return encoded_[position]; }
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
  std::vector<std::vector<std::uint8_t>> lower_wires_;
  std::vector<EncodedAnswer> encoded_;  // parallel to answers_
  zone::NameIndex index_;               // lowercase owner -> position in answers_
};

// The per-thread generator of weighted draws (select_records and the answer fast path).
std::mt19937_64& draw_generator();

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
