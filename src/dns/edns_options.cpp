// DNS Cookies (RFC 7873 §5.2, RFC 9018 §4), Extended DNS Errors (RFC 8914 §2) and Client Subnet (RFC 7871 §6).
//
// SipHash is written here rather than taken from OpenSSL: OpenSSL 3 offers it only through
// EVP_MAC, whose per-call context set-up costs more than the hash of the 24 to 36 bytes a
// cookie covers, and this runs on the answer path of every query that carries a cookie.
#include "dns/edns_options.h"

#include <algorithm>
#include <cstring>

#include "base/load.h"

namespace cutover::dns {
namespace {

std::uint64_t rotl(std::uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

struct SipState {
  std::uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  }
  void absorb(std::uint64_t block) {
    v3 ^= block;
    round();
    round();
    v0 ^= block;
  }
};

constexpr std::uint8_t kCookieVersion = 1;
constexpr std::size_t kMinServerCookie = 8;   // RFC 7873 §4: 8 to 32 bytes when present
constexpr std::size_t kMaxServerCookie = 32;

// Whether a server cookie stamped `stamp` is acceptable at `now` (serial arithmetic, RFC 1982).
bool within_window(std::uint32_t stamp, std::uint32_t now) {
  std::uint32_t age = now - stamp;
  std::uint32_t ahead = stamp - now;
  return age <= kCookieMaxAge || ahead <= kCookieMaxAhead;
}

}  // namespace

std::uint64_t siphash24(const CookieSecret& key, std::span<const std::uint8_t> data) {
  std::uint64_t k0 = base::load_le64(key.data());
  std::uint64_t k1 = base::load_le64(key.data() + 8);
  SipState s{0x736f6d6570736575ULL ^ k0, 0x646f72616e646f6dULL ^ k1, 0x6c7967656e657261ULL ^ k0,
             0x7465646279746573ULL ^ k1};
  std::size_t whole = data.size() & ~std::size_t{7};
  for (std::size_t i = 0; i < whole; i += 8) s.absorb(base::load_le64(data.data() + i));
  std::uint64_t last = static_cast<std::uint64_t>(data.size() & 0xFF) << 56;
  for (std::size_t i = whole; i < data.size(); ++i) last |= std::uint64_t{data[i]} << (8 * (i - whole));
  s.absorb(last);
  s.v2 ^= 0xFF;
  for (int i = 0; i < 4; ++i) s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

void make_server_cookie(const CookieSecret& secret, std::span<const std::uint8_t, kClientCookieSize> client_cookie,
                        std::span<const std::uint8_t> client_ip, std::uint32_t now,
                        std::span<std::uint8_t, kServerCookieSize> out) {
  // Hashed: client cookie | version | reserved | timestamp | client IP (RFC 9018 §4.4).
  std::array<std::uint8_t, kClientCookieSize + 8 + 16> input{};
  std::memcpy(input.data(), client_cookie.data(), kClientCookieSize);
  std::uint8_t* header = input.data() + kClientCookieSize;
  header[0] = kCookieVersion;  // reserved bytes stay zero
  header[4] = static_cast<std::uint8_t>(now >> 24);
  header[5] = static_cast<std::uint8_t>(now >> 16);
  header[6] = static_cast<std::uint8_t>(now >> 8);
  header[7] = static_cast<std::uint8_t>(now);
  std::size_t ip_size = std::min<std::size_t>(client_ip.size(), 16);
  if (ip_size > 0) std::memcpy(header + 8, client_ip.data(), ip_size);
  std::uint64_t hash = siphash24(secret, std::span<const std::uint8_t>(input.data(), kClientCookieSize + 8 + ip_size));
  std::memcpy(out.data(), header, 8);
  for (int i = 0; i < 8; ++i) out[8 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(hash >> (8 * i));
}

CookieAnswer answer_cookie(const CookieSecrets& secrets, std::span<const std::uint8_t> data,
                           std::span<const std::uint8_t> client_ip, std::uint32_t now) {
  CookieAnswer answer;
  std::size_t server_size = data.size() - std::min(data.size(), kClientCookieSize);
  if (data.size() < kClientCookieSize || (server_size != 0 && server_size < kMinServerCookie) ||
      server_size > kMaxServerCookie) {
    return answer;  // RFC 7873 §5.2.2: FORMERR
  }
  auto client_cookie = data.first<kClientCookieSize>();
  std::memcpy(answer.reply.data(), client_cookie.data(), kClientCookieSize);
  auto server_out = std::span<std::uint8_t, kServerCookieSize>(answer.reply.data() + kClientCookieSize, kServerCookieSize);
  answer.verdict = CookieVerdict::kNew;
  if (server_size == kServerCookieSize && data[kClientCookieSize] == kCookieVersion) {
    auto received = data.subspan(kClientCookieSize, kServerCookieSize);
    std::uint32_t stamp = base::load_u32(received.data() + 4);
    if (within_window(stamp, now)) {
      for (std::size_t i = 0; i < secrets.secrets.size(); ++i) {
        make_server_cookie(secrets.secrets[i], client_cookie, client_ip, stamp, server_out);
        if (!std::equal(received.begin(), received.end(), server_out.begin())) continue;
        answer.verdict = CookieVerdict::kValid;
        // Kept while young and made with the current secret; otherwise replaced (RFC 9018 §4.3).
        if (i == 0 && now - stamp < kCookieRefreshAge) return answer;
        break;
      }
    }
  }
  make_server_cookie(secrets.secrets.front(), client_cookie, client_ip, now, server_out);
  return answer;
}

CookieVerdict CookieCache::miss(const CookieSecrets& secrets, std::span<const std::uint8_t> data,
                                std::span<const std::uint8_t> client_ip, std::uint32_t now,
                                std::span<std::uint8_t, kCookieReplySize> reply, Entry* entry) {
  CookieAnswer answer = answer_cookie(secrets, data, client_ip, now);
  std::memcpy(reply.data(), answer.reply.data(), kCookieReplySize);
  if (entry == nullptr || answer.verdict == CookieVerdict::kMalformed) return answer.verdict;
  entry->generation = secrets.generation;
  entry->key = key_of(data, client_ip);
  entry->stamp = base::load_u32(answer.reply.data() + kClientCookieSize + 4);
  std::memcpy(entry->server, answer.reply.data() + kClientCookieSize, kServerCookieSize);
  return answer.verdict;
}

base::Result<ClientSubnet> parse_client_subnet(std::span<const std::uint8_t> data) {
  auto malformed = [](const char* what) { return base::make_error(base::ErrorCode::kMalformed, what); };
  if (data.size() < 4) return malformed("a client subnet option holds family, two prefix lengths and an address");
  ClientSubnet subnet;
  subnet.family = static_cast<std::uint16_t>((data[0] << 8) | data[1]);
  subnet.source = data[2];
  subnet.scope = data[3];
  if (subnet.family != 1 && subnet.family != 2) return malformed("client subnet family is neither IPv4 (1) nor IPv6 (2)");
  unsigned limit = subnet.family == 1 ? 32 : 128;
  if (subnet.source > limit) return malformed("client subnet source prefix is longer than the address");
  if (subnet.scope != 0) return malformed("client subnet scope prefix must be 0 in a query");
  std::size_t octets = (subnet.source + 7u) / 8u;
  if (data.size() - 4 != octets) return malformed("client subnet address is not ceil(source / 8) octets long");
  std::copy(data.begin() + 4, data.end(), subnet.address.begin());
  if (subnet.source % 8 != 0 && (subnet.address[octets - 1] & (0xFFu >> (subnet.source % 8))) != 0) {
    return malformed("client subnet address has bits set past the source prefix");
  }
  return subnet;
}

void add_client_subnet(Edns& edns, const ClientSubnet& query, std::uint8_t scope) {
  EdnsOption option;
  option.code = kClientSubnetOption;
  std::size_t octets = (query.source + 7u) / 8u;
  option.data = {static_cast<std::uint8_t>(query.family >> 8), static_cast<std::uint8_t>(query.family), query.source, scope};
  option.data.insert(option.data.end(), query.address.begin(), query.address.begin() + static_cast<std::ptrdiff_t>(octets));
  edns.options.push_back(std::move(option));
}

void add_extended_error(Edns& edns, ExtendedError code, std::string_view text) {
  EdnsOption option;
  option.code = kExtendedErrorOption;
  auto value = static_cast<std::uint16_t>(code);
  option.data = {static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value)};
  option.data.insert(option.data.end(), text.begin(), text.end());
  edns.options.push_back(std::move(option));
}

}  // namespace cutover::dns
