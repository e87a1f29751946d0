// Fast path stages after the question is read (fast_query.cpp): find the name through the
// zone's hash index (or the dynamic answers' index), decide positive / NODATA / NXDOMAIN, then write
// header, echoed question, records and OPT directly into the response buffer.
#include "auth/fast_answer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstring>

#include "auth/dnssec.h"
#include "auth/dynamic_answers.h"
#include "auth/fast_query.h"
#include "auth/lookup.h"
#include "dns/answer_record.h"
#include "dns/message.h"

namespace cutover::auth {
namespace {

using dns::RRType;

void write_u16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}

void write_u32(std::uint8_t* p, std::uint32_t v) {
  write_u16(p, static_cast<std::uint16_t>(v >> 16));
  write_u16(p + 2, static_cast<std::uint16_t>(v));
}

// Copies `size` bytes for the sizes that vary per query (the question, a static name's
// records): 16 to 64 bytes, the common sizes, as two overlapping 16- or 32-byte moves the
// compiler writes inline, so nothing is read or written past either end; other sizes by
// memcpy. The calls cost about 6 instructions more per query (docs/performance.md, "Reading
// a query in fewer instructions"). A loop of 16-byte moves cost more: GCC then stopped
// inlining start_response.
[[gnu::always_inline]] inline void copy_inline(std::uint8_t* to, const std::uint8_t* from, std::size_t size) {
  if (size >= 16 && size <= 32) {
    std::memcpy(to, from, 16);
    std::memcpy(to + size - 16, from + size - 16, 16);
  } else if (size > 32 && size <= 64) {
    std::memcpy(to, from, 32);
    std::memcpy(to + size - 32, from + size - 32, 32);
  } else {
    std::memcpy(to, from, size);
  }
}

// A response is composed in this thread's buffer and copied into the caller's vector once
// (std::vector::assign): appending it piece by piece paid insert's bookkeeping per piece, about
// 50 instructions each. A fast-path response is at most query.max_size <= kMaxFastResponse
// bytes (read_fast_query), the buffer's size; the callers check that before they start.
struct Draft {
  std::uint8_t* start;
  std::uint8_t* end;
  void put(const std::uint8_t* bytes, std::size_t size) {
    std::memcpy(end, bytes, size);
    end += size;
  }
  // The same for bytes of any size, inline (copy_inline).
  [[gnu::always_inline]] void put_inline(const std::uint8_t* bytes, std::size_t size) {
    copy_inline(end, bytes, size);
    end += size;
  }
  // The same for a pool's pre-encoded records (one or a few of 16 or 28 bytes each): 16 to 64
  // bytes as two overlapping fixed-size moves the compiler writes inline, not a libc call.
  [[gnu::always_inline]] void put_records(const std::uint8_t* bytes, std::size_t size) {
    if (size >= 16 && size <= 32) {
      std::memcpy(end, bytes, 16);
      std::memcpy(end + size - 16, bytes + size - 16, 16);
    } else if (size > 32 && size <= 64) {
      std::memcpy(end, bytes, 32);
      std::memcpy(end + size - 32, bytes + size - 32, 32);
    } else {
      std::memcpy(end, bytes, size);
    }
    end += size;
  }
};

// Room past the largest response for a fixed-size copy's tail (finish_response).
constexpr std::size_t kComposeSlack = 64;

std::uint8_t* compose_buffer() {
  thread_local std::array<std::uint8_t, kMaxFastResponse + kComposeSlack> buffer;
  return buffer.data();
}

// Writes header and question (copied from the packet); the caller puts the body, then
// finish_response() adds the OPT and copies the whole into the response.
[[gnu::always_inline]] inline Draft start_response(std::span<const std::uint8_t> packet, const FastQuery& query,
                                                   dns::Rcode rcode, std::uint16_t answers, std::uint16_t authorities) {
  std::uint8_t* out = compose_buffer();
  copy_inline(out, packet.data(), query.question_end);
  out[2] = static_cast<std::uint8_t>(0x80 | 0x04 | (packet[2] & 0x01));  // QR, AA, RD echoed; opcode QUERY
  out[3] = static_cast<std::uint8_t>((packet[3] & 0x10) | static_cast<std::uint8_t>(rcode));  // CD echoed
  write_u16(out + 6, answers);
  write_u16(out + 8, authorities);
  return Draft{out, out + query.question_end};
}

// Our OPT: root owner, type OPT, payload size kMaxUdpPayload, no extended rcode or options;
// finish_response() sets DO in the flags' high byte, four bytes from the end.
constexpr std::array<std::uint8_t, kBareOptSize> kOpt = {0, 0, 41, kMaxUdpPayload >> 8, kMaxUdpPayload & 0xFF, 0, 0, 0, 0, 0, 0};
constexpr std::size_t kOptFlagsFromEnd = 4;

// Always inline: as a call, its register saves and restores cost about 3 instructions per query.
[[gnu::always_inline]] inline void finish_response(const FastQuery& query, Draft draft,
                                                   std::vector<std::uint8_t>& response) {
  if (query.opt_size == kCookieOptSize) {
    draft.put(query.cookie_opt.data(), kCookieOptSize);
  } else if (query.edns) {
    if (query.opt_size == kBareOptSize) {
      draft.put(kOpt.data(), kOpt.size());
      draft.end[-static_cast<std::ptrdiff_t>(kOptFlagsFromEnd)] = query.dnssec_ok;  // RFC 3225 §3
    } else {
      // A trusted Client Subnet (has_subnet()): the OPT settle_client_subnet() prepared, with
      // the answer's scope (RFC 7871 §7.2.1). The whole prepared array is copied (a fixed
      // size, no library call); the bytes past opt_size land in the buffer's slack, unsent.
      std::memcpy(draft.end, query.subnet_opt.data(), query.subnet_opt.size());
      draft.end[kBareOptSize + 4 + 3] = query.subnet_scope;
      draft.end += query.opt_size;
    }
  }
  response.assign(draft.start, draft.end);
}

// Writes our OPT carrying one option of `size` data bytes: DO copied (RFC 3225 §3), the
// rdata length set, the option's code and length; its data goes at opt + kBareOptSize + 4.
// Returns the OPT's whole size.
std::size_t write_opt_with_option(std::uint8_t* opt, std::uint8_t dnssec_ok, std::uint16_t code, std::size_t size) {
  std::memcpy(opt, kOpt.data(), kBareOptSize);
  opt[kBareOptSize - kOptFlagsFromEnd] = dnssec_ok;
  write_u16(opt + kBareOptSize - 2, static_cast<std::uint16_t>(4 + size));
  write_u16(opt + kBareOptSize, code);
  write_u16(opt + kBareOptSize + 2, static_cast<std::uint16_t>(size));
  return kBareOptSize + 4 + size;
}

// The head of a Client Subnet echo: our OPT (rdata length 0 for now) and the option's code
// and length (0 for now), 15 bytes; settle_client_subnet fills in DO and the two lengths.
constexpr std::array<std::uint8_t, kBareOptSize + 4> kSubnetOptHead = [] {
  static_assert(dns::kClientSubnetOption < 256);
  std::array<std::uint8_t, kBareOptSize + 4> head{};
  for (std::size_t i = 0; i < kBareOptSize; ++i) head[i] = kOpt[i];
  head[kBareOptSize + 1] = static_cast<std::uint8_t>(dns::kClientSubnetOption);
  return head;
}();

// Settles a COOKIE option before anything is written, preparing the whole OPT to send: false
// sends the query the general way (a malformed option, or BADCOOKIE).
// Inlined (as settle_client_subnet and write_positive are): the signed-zone path calls them
// too, and with a second caller GCC stopped inlining them into the common path (+20
// instructions per query in the perf gate).
[[gnu::always_inline]] inline bool settle_cookie(std::span<const std::uint8_t> packet, FastQuery& query,
                                                 const ClientContext* client) {
  if (active_cookies(client) == nullptr) {
    return true;  // cookies off: the option is ignored (RFC 7873 §5.1)
  }
  std::uint8_t* opt = query.cookie_opt.data();
  auto reply = std::span<std::uint8_t, dns::kCookieReplySize>(opt + kBareOptSize + 4, dns::kCookieReplySize);
  dns::CookieVerdict verdict =
      cookie_cache().answer(*client->cookies, packet.subspan(query.cookie_at, query.cookie_size), client->address, client->now, reply);
  if (verdict == dns::CookieVerdict::kMalformed) return false;
  if (verdict == dns::CookieVerdict::kNew && client->cookies->require && query.udp) return false;
  query.opt_size = write_opt_with_option(opt, query.dnssec_ok, dns::kCookieOption, dns::kCookieReplySize);
  return true;
}

// Settles a Client Subnet option as the general path does: ignored from a sender not trusted
// with it; from a trusted one, read (false, the general way, when malformed: FORMERR) and
// prepared for the echo, the scope left to the answer (RFC 7871 §7.2.1).
[[gnu::always_inline]] inline bool settle_client_subnet(std::span<const std::uint8_t> packet, FastQuery& query,
                                                        const ClientContext* client) {
  if (!trusts_client_subnet(client)) return true;
  // read_fast_query placed the option inside `packet`: no bounds to check again.
  const std::uint8_t* data = packet.data() + query.subnet_at;
  std::size_t data_size = query.subnet_size;
  // RFC 7871 §6 as dns::parse_client_subnet checks it, without building its result: any
  // breach goes the general way, which answers FORMERR with the reason (read_fast_query has
  // already bounded the option to 4 to 20 bytes).
  unsigned family = static_cast<unsigned>(data[0]) << 8 | data[1];
  unsigned source = data[2];
  std::size_t size = family == 1 ? 4 : 16;
  std::size_t octets = (source + 7) / 8;
  if ((family != 1 && family != 2) || source > size * 8 || data[3] != 0 || data_size - 4 != octets) return false;
  if (source % 8 != 0 && (data[3 + octets] & (0xFFu >> (source % 8))) != 0) return false;
  query.subnet_source = static_cast<std::uint8_t>(source);
  query.subnet_address_size = size;
  query.subnet_scope = client->subnet_scope_floor;  // a view's choice; the answer may raise it
  // Our OPT and the option's code from one constant, then the three bytes that vary (every
  // size fits one byte here: the option is at most 20 bytes).
  std::uint8_t* opt = query.subnet_opt.data();
  std::memcpy(opt, kSubnetOptHead.data(), kSubnetOptHead.size());
  opt[kBareOptSize - kOptFlagsFromEnd] = query.dnssec_ok;
  opt[kBareOptSize - 1] = static_cast<std::uint8_t>(4 + data_size);
  opt[kBareOptSize + 3] = static_cast<std::uint8_t>(data_size);
  query.opt_size = kBareOptSize + 4 + data_size;
  // The option echoed as it came: its FAMILY, SOURCE and SCOPE bytes, then ADDRESS, which also
  // goes into subnet_address, zero past the ADDRESS bytes.
  std::uint8_t* echo = opt + kBareOptSize + 4;
  const std::uint8_t* address = data + 4;
  std::uint8_t* bytes = query.subnet_address.data();
  if (family == 1 && std::endian::native == std::endian::little) {
    // IPv4: the option's data is 4 to 8 bytes and ends the packet (read_fast_query), which
    // holds at least a header and a question before it. So the word that ends where the
    // option ends is inside the packet; shifted down, it is the data with zeros past its
    // end (little-endian), written whole: a copy of a variable size would be a library call,
    // a byte-by-byte one a branch per length. The echo's bytes past opt_size land in
    // subnet_opt's slack, unsent.
    std::uint64_t word;
    std::memcpy(&word, data + data_size - 8, 8);
    word >>= 8 * (8 - data_size);
    std::memcpy(echo, &word, 8);
    auto v4 = static_cast<std::uint32_t>(word >> 32);
    std::memcpy(bytes, &v4, 4);
  } else {
    query.subnet_address = {};
    std::memcpy(echo, data, 4);
    std::memcpy(bytes, address, octets);
    std::memcpy(echo + 4, address, octets);
  }
  return true;
}

[[gnu::always_inline]] inline bool write_positive(std::span<const std::uint8_t> packet, const FastQuery& query,
                                                  const FastEntry::Answer& answer, std::vector<std::uint8_t>& response) {
  std::size_t body = answer.records.size();
  if (query.question_end + body + query.opt_size > query.max_size) return false;  // TC: general path
  Draft draft = start_response(packet, query, dns::Rcode::kNoError, answer.count, 0);
  draft.put_inline(answer.records.data(), body);
  finish_response(query, draft, response);
  return true;
}

bool write_negative(std::span<const std::uint8_t> packet, const FastQuery& query, const ServedZone& served,
                    dns::Rcode rcode, std::vector<std::uint8_t>& response) {
  std::size_t body = served.negative.size();
  if (query.question_end + body + query.opt_size > query.max_size) return false;
  Draft draft = start_response(packet, query, rcode, 0, 1);
  if (!served.negative.append(query.name(), query.starts(), draft.end)) {
    response.clear();
    return false;
  }
  draft.end += body;
  finish_response(query, draft, response);
  return true;
}

// Decides and writes the answer; false sends the query down the general path.
bool answer(std::span<const std::uint8_t> packet, const FastQuery& query, const ServedZone& served,
            std::vector<std::uint8_t>& response, dns::Rcode& rcode) {
  const zone::Zone& zone = *served.zone;
  const std::uint8_t* found = served.fast.find(query.name(), query.hash);
  rcode = dns::Rcode::kNoError;
  if (found != nullptr) {
    FastEntry entry(found);
    if (entry.kind() == FastEntry::Kind::kGeneral || entry.kind() == FastEntry::Kind::kDelegated) {
      return false;  // a referral or a chain to follow
    }
    FastEntry::Answer match = entry.find(query.qtype);
    if (!match.found) return write_negative(packet, query, served, rcode, response);  // NODATA
    return !match.general && write_positive(packet, query, match, response);
  }
  // A missing name may still be covered by a cut, a DNAME or a wildcard above it.
  if (zone.has_cuts() || zone.has_dnames()) return false;
  if (zone.has_wildcards()) return false;
  rcode = dns::Rcode::kNxDomain;
  return write_negative(packet, query, served, rcode, response);
}

// A positive answer with its RRSIGs from a signed zone's DO index (auth/dnssec.h); false for
// anything that needs a proof or the general encoder.
bool answer_signed(std::span<const std::uint8_t> packet, const FastQuery& query, const ServedZone& served,
                   std::vector<std::uint8_t>& response) {
  const std::uint8_t* found = served.dnssec->answers().find(query.name(), query.hash);
  if (found == nullptr || FastEntry(found).kind() != FastEntry::Kind::kRecords) return false;
  FastEntry::Answer match = FastEntry(found).find(query.qtype);
  return match.found && !match.general && write_positive(packet, query, match, response);
}

// The general pipeline looks for a zone cut before it looks for a dynamic answer, so such a name at or
// below a cut is a referral. Only zones with cuts walk up the name, once per entry and served
// zone (answer_dynamic remembers the result in DynamicAnswers::cut_check): out of line.
[[gnu::noinline]] bool below_cut(const FastQuery& query, const ServedZone& served) {
  for (std::size_t label = 0; label + served.origin_labels < query.labels; ++label) {
    auto suffix = query.name().subspan(query.label_starts[label]);
    // The whole name's hash is the query's, already computed: a pool owner right below the
    // origin costs one probe and no hashing.
    std::uint64_t hash = label == 0 ? query.hash : zone::hash_lower_wire(suffix);
    const std::uint8_t* found = served.fast.find(suffix, hash);
    if (found != nullptr && FastEntry(found).kind() == FastEntry::Kind::kDelegated) return true;
  }
  return false;
}

// Writes a dynamic family's answer (auth/dynamic_answers.h, PlainFamily): the fixed records in
// the cyclic order the general encoder uses (sharing its rotation counter), or `per_query`
// drawn by weight. With `set_ttl`, each record's TTL becomes `ttl` (the suspicion cap lowered
// it below the encoded one). Inlined: a plain entry's path passes set_ttl = false and loses
// the loop.
[[gnu::always_inline]] inline bool write_family(std::span<const std::uint8_t> packet, const FastQuery& query,
                                                const ServedZone& served, const PlainFamily& family, std::uint32_t ttl,
                                                bool set_ttl, std::vector<std::uint8_t>& response) {
  std::size_t size = family.record_size;
  std::size_t count = 0;
  Draft draft;
  if (family.per_query == 0) {
    count = family.count;
    if (query.question_end + count * size + query.opt_size > query.max_size) return false;  // TC: general path
    std::size_t first = count < 2 ? 0 : family.rotation->fetch_add(1, std::memory_order_relaxed) % count;
    draft = start_response(packet, query, dns::Rcode::kNoError, static_cast<std::uint16_t>(count), 0);
    draft.put_records(family.records + first * size, count * size);
  } else if (family.per_query == 1) {
    // One roulette-wheel draw, weighted_draw_into's first step written out: no flags to clear.
    count = 1;
    if (query.question_end + size + query.opt_size > query.max_size) return false;
    std::uint64_t random = draw_generator()();
    std::size_t member = 0;
    if (family.uniform) {
      // Equal weights: the member is the random value scaled to the count (its high bits).
      __extension__ using Wide = unsigned __int128;  // GCC's, one multiply giving the high half
      member = static_cast<std::size_t>((static_cast<Wide>(random) * family.count) >> 64);
    } else {
      std::uint64_t point = random % family.weight_total;
      while (member + 1 < family.count && point >= family.weights[member]) point -= family.weights[member++];
    }
    draft = start_response(packet, query, dns::Rcode::kNoError, 1, 0);
    draft.put_records(family.records + member * size, size);
  } else {
    std::array<std::uint8_t, kMaxEncodedMembers> taken{};
    std::array<std::size_t, kMaxEncodedMembers> picked;
    count = weighted_draw_into(std::span<const std::uint32_t>(family.weights, family.count), draw_generator(),
                               std::span<std::uint8_t>(taken.data(), family.count),
                               std::span<std::size_t>(picked.data(), std::min<std::size_t>(family.per_query, family.count)));
    if (count == 0) return write_negative(packet, query, served, dns::Rcode::kNoError, response);
    if (query.question_end + count * size + query.opt_size > query.max_size) return false;
    draft = start_response(packet, query, dns::Rcode::kNoError, static_cast<std::uint16_t>(count), 0);
    for (std::size_t i = 0; i < count; ++i) draft.put(family.records + picked[i] * size, size);
  }
  if (set_ttl) {
    std::uint8_t* records = draft.end - count * size;
    for (std::size_t i = 0; i < count; ++i) write_u32(records + i * size + dns::kAnswerRecordTtlOffset, ttl);
  }
  finish_response(query, draft, response);
  return true;
}

// A steered entry's group for this client: by the trusted resolver's Client Subnet, else by
// the source address (a SOURCE of 0 asks for no tailoring, RFC 7871 §7.1.2: the source address
// steers, scope 0); the scope goes back in the option.
template <typename Chooser>
[[gnu::always_inline]] inline GroupChoice steer(const Chooser& entry, const FastQuery& query, const ClientContext& client) {
  bool by_subnet = query.subnet_source > 0;  // only a trusted, settled option sets it
  ClientNetwork network = by_subnet ? ClientNetwork{query.subnet_bytes(), query.subnet_source} : ClientNetwork{client.address};
  GroupChoice choice = entry.choose(network);
  if (by_subnet) query.subnet_scope = std::max(query.subnet_scope, choice.scope);
  return choice;
}

// The family `type` of the client's group (the entry's own when unsteered or no client).
const DynamicFamily* client_family(const DynamicAnswer& entry, RRType type, const FastQuery& query,
                                   const ClientContext* client) {
  if (!entry.steered() || client == nullptr || client->address.empty()) return entry.family(type);
  return entry.groups[steer(entry, query, *client).group].family(type);
}

bool same_lower(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (dns::ascii_lower(a[i]) != dns::ascii_lower(b[i])) return false;
  }
  return true;
}

// An alias entry (a hostname pool): one CNAME record whose target lies outside the query's
// zone, the same answer for every type (RFC 1034 §4.3.2 step 3a: the resolver follows it).
// The target is compressed as the general writer does (dns::NameCompressor): its longest
// suffix shared with the question name becomes a pointer into the question. A target inside
// the zone is followed, a chain the general path writes: false.
[[gnu::noinline]] bool answer_alias(std::span<const std::uint8_t> packet, const FastQuery& query, const ServedZone& served,
                                    const DynamicAnswer& entry, const DynamicFamily& family,
                                    std::vector<std::uint8_t>& response) {
  std::size_t members = family.member_count();
  if (members == 0) return write_negative(packet, query, served, dns::Rcode::kNoError, response);
  std::size_t member = 0;
  if (family.per_query != 0 && members > 1) {
    // One roulette-wheel draw by weight, as weighted_draw() makes for one record (written out
    // here: a second caller of weighted_draw_into would take it out of the pools' inline path).
    std::uint64_t total = 0;
    for (std::uint32_t weight : family.weights) total += weight;
    if (total == 0) return write_negative(packet, query, served, dns::Rcode::kNoError, response);
    std::uint64_t point = static_cast<std::uint64_t>(draw_generator()()) % total;
    while (member + 1 < family.weights.size() && point >= family.weights[member]) point -= family.weights[member++];
  }
  std::span<const std::uint8_t> target = family.member(member);
  std::array<std::uint8_t, 128> starts;
  std::size_t labels = dns::wire_label_offsets(target, starts);
  if (labels == 0) return false;  // the root as a target: left to the general path
  // Inside the zone: the chain goes on there.
  const auto& origin = served.zone->origin().wire();
  if (labels >= served.origin_labels) {
    std::size_t at = served.origin_labels == 0 ? target.size() - 1 : starts[labels - served.origin_labels];
    if (same_lower(target.subspan(at), origin)) return false;
  }
  // The longest shared suffix, label by label from the root up.
  std::size_t shared = 0;
  while (shared < labels && shared < query.labels) {
    std::size_t in_target = starts[labels - 1 - shared];
    std::size_t in_query = query.label_starts[query.labels - 1 - shared];
    std::size_t length = 1u + target[in_target];
    if (length != 1u + query.name()[in_query] ||
        !same_lower(target.subspan(in_target, length), query.name().subspan(in_query, length))) {
      break;
    }
    ++shared;
  }
  std::size_t prefix = shared == 0 ? target.size() : starts[labels - shared];  // bytes written as they are
  std::size_t rdlength = prefix + (shared == 0 ? 0 : 2);
  std::size_t body = dns::kAnswerRecordHeader + rdlength;
  if (query.question_end + body + query.opt_size > query.max_size) return false;  // TC: general path
  std::uint32_t ttl = entry.suspicion_ttl && family.suspicion_deadline
                          ? entry.ttl_at(family, std::chrono::steady_clock::now())
                          : entry.ttl;
  Draft draft = start_response(packet, query, dns::Rcode::kNoError, 1, 0);
  std::array<std::uint8_t, dns::kAnswerRecordHeader> header;
  write_u16(header.data(), static_cast<std::uint16_t>(0xC000 | dns::kHeaderSize));
  write_u16(header.data() + 2, static_cast<std::uint16_t>(RRType::CNAME));
  write_u16(header.data() + 4, static_cast<std::uint16_t>(dns::RRClass::IN));
  write_u32(header.data() + 6, ttl);
  write_u16(header.data() + 10, static_cast<std::uint16_t>(rdlength));
  draft.put(header.data(), header.size());
  draft.put(target.data(), prefix);
  if (shared != 0) {
    std::array<std::uint8_t, 2> pointer;
    write_u16(pointer.data(),
              static_cast<std::uint16_t>(0xC000 | (dns::kHeaderSize + query.label_starts[query.labels - shared])));
    draft.put(pointer.data(), pointer.size());
  }
  finish_response(query, draft, response);
  return true;
}

// A dynamic name: the snapshot's pre-encoded answer (rotated, or drawn per query), NODATA for
// other types and empty answers, as plan_dynamic_answer decides on the general path.
[[gnu::always_inline]] inline bool answer_dynamic(std::span<const std::uint8_t> packet, const FastQuery& query, const ServedZone& served,
                    const DynamicAnswers& dynamic, std::size_t position, const ClientContext* client,
                    std::vector<std::uint8_t>& response, QueryOutcome& outcome) {
  if (served.has_cuts) {
    std::atomic<std::uint64_t>& check = dynamic.cut_check(position);
    std::uint64_t known = check.load(std::memory_order_relaxed);
    if ((known >> 1) != served.generation) {
      known = served.generation << 1 | (below_cut(query, served) ? 1 : 0);
      check.store(known, std::memory_order_relaxed);
    }
    if ((known & 1) != 0) return false;
  }
  // A plain entry's A or AAAA answer, read from one small struct instead of the entry (a
  // steered one's from its client's group).
  {
    const PlainAnswer& plain = dynamic.plain(position);
    outcome.dynamic = plain.entry;
    const PlainFamily* hot = plain.family(query.qtype);
    if (plain.steered && hot != nullptr && client != nullptr && !client->address.empty()) {
      const Steering& steering = dynamic.steering(position);
      hot = dynamic.group_plain(steering, steer(steering, query, *client).group).family(query.qtype);
    }
    if (hot != nullptr && hot->record_size != 0) [[likely]] {
      return write_family(packet, query, served, *hot, 0, false, response);
    }
  }
  const DynamicAnswer& entry = dynamic.answers()[position];
  // An alias entry answers its CNAME whatever the type (kept out of line: the address pools'
  // path stays as short as it was).
  if (entry.alias) [[unlikely]] {
    return answer_alias(packet, query, served, entry, *client_family(entry, RRType::CNAME, query, client), response);
  }
  auto type = static_cast<RRType>(query.qtype);
  const DynamicFamily* family = entry.family(type);
  const EncodedAnswer* encoded_answer = &dynamic.encoded(position);
  if (entry.steered() && client != nullptr && !client->address.empty()) {
    // Steered by the trusted resolver's Client Subnet, else by the source address (a SOURCE of
    // 0 asks for no tailoring, RFC 7871 §7.1.2: the source address steers, scope 0).
    GroupChoice choice = steer(entry, query, *client);
    family = entry.groups[choice.group].family(type);
    encoded_answer = &encoded_answer->groups[choice.group];
  }
  if (family == nullptr || family->member_count() == 0) {
    return write_negative(packet, query, served, dns::Rcode::kNoError, response);
  }
  const PlainFamily& encoded = encoded_answer->family(type)->view;
  if (encoded.record_size == 0) return false;
  if (entry.suspicion_ttl && family->suspicion_deadline) {
    return write_family(packet, query, served, encoded, entry.ttl_at(*family, std::chrono::steady_clock::now()), true, response);
  }
  return write_family(packet, query, served, encoded, 0, false, response);
}

}  // namespace

namespace {

// The outcome of a query the fast path answered.
[[gnu::always_inline]] inline void fill_outcome(QueryOutcome& outcome, std::span<const std::uint8_t> packet,
                                                const FastQuery& query, dns::Rcode rcode, bool describe) {
  outcome.respond = true;
  outcome.fast_path = true;
  outcome.rcode = rcode;
  outcome.qtype = static_cast<RRType>(query.qtype);
  if (describe) {
    auto qname = dns::Name::from_uncompressed(packet.subspan(dns::kHeaderSize, query.name_size));
    if (qname) outcome.qname = *qname;
  }
}

// A signed zone's query with the DO bit: a plain positive answer from its signed index, the
// rest (proofs, dynamic answers, which are not signed) from the general pipeline. Out of line:
// the common query pays only for the test that sends it here.
[[gnu::noinline]] bool answer_signed_query(const ServedZone& served, const DynamicAnswers* dynamic,
                                           std::span<const std::uint8_t> packet, FastQuery& query,
                                           std::vector<std::uint8_t>& response, QueryOutcome& outcome, bool describe,
                                           const ClientContext* client) {
  if (served.dnssec->online() != nullptr) return false;  // signed as answered: the general pipeline
  if (query.cookie_size != 0 && !settle_cookie(packet, query, client)) return false;
  if (query.subnet_size != 0 && !settle_client_subnet(packet, query, client)) return false;
  if (dynamic != nullptr && dynamic->find_lower(query.name(), query.hash) != DynamicAnswers::kNone) {
    return false;
  }
  if (!answer_signed(packet, query, served, response)) return false;
  fill_outcome(outcome, packet, query, dns::Rcode::kNoError, describe);
  return true;
}

}  // namespace

bool answer_fast_query(const ServedZone& served, const DynamicAnswers* dynamic, std::span<const std::uint8_t> packet,
                       FastQuery& query, std::vector<std::uint8_t>& response, QueryOutcome& outcome, bool describe,
                       const ClientContext* client) {
  if (served.dnssec != nullptr && query.edns && query.dnssec_ok != 0) [[unlikely]] {
    return answer_signed_query(served, dynamic, packet, query, response, outcome, describe, client);
  }
  if (query.cookie_size != 0 && !settle_cookie(packet, query, client)) return false;
  if (query.subnet_size != 0 && !settle_client_subnet(packet, query, client)) return false;
  dns::Rcode rcode = dns::Rcode::kNoError;
  std::size_t position =
      dynamic == nullptr ? DynamicAnswers::kNone : dynamic->find_lower(query.name(), query.hash);
  // An entry not answered in this query's view is not there for it (a pool restricted to views).
  // The snapshot's flag first: without restricted entries this costs one test per pool query.
  if (position != DynamicAnswers::kNone && dynamic->restricted() && client != nullptr &&
      dynamic->hidden(position, client->view_bit)) [[unlikely]] {
    position = dynamic->next_in_view(position, client->view_bit);
  }
  if (position == DynamicAnswers::kNone) {
    if (!answer(packet, query, served, response, rcode)) return false;
  } else {
    if (!answer_dynamic(packet, query, served, *dynamic, position, client, response, outcome)) return false;
  }
  fill_outcome(outcome, packet, query, rcode, describe);
  return true;
}

bool try_fast_answer(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> packet,
                     Transport transport, std::vector<std::uint8_t>& response, QueryOutcome& outcome, bool describe,
                     const ClientContext* client) {
  FastQuery query;
  if (!read_fast_query(packet, transport, query)) return false;
  const ServedZone* served = zones.find_lower(query.name(), query.starts());
  return served != nullptr && answer_fast_query(*served, dynamic, packet, query, response, outcome, describe, client);
}

}  // namespace cutover::auth
