// EDNS options the server answers with: DNS Cookies (RFC 7873, server cookies built the
// interoperable way of RFC 9018, so servers sharing a secret accept each other's), Extended
// DNS Errors (RFC 8914) and Client Subnet (RFC 7871). Pure functions over values; thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "dns/message.h"

namespace cutover::dns {

constexpr std::uint16_t kCookieOption = 10;   // RFC 7873 §4
constexpr std::uint16_t kExtendedErrorOption = 15;  // RFC 8914 §2
constexpr std::uint16_t kClientSubnetOption = 8;    // RFC 7871 §6
constexpr std::size_t kClientCookieSize = 8;
constexpr std::size_t kServerCookieSize = 16;  // RFC 9018 §4: version, reserved, timestamp, hash
// The COOKIE option this server sends: client cookie then server cookie.
constexpr std::size_t kCookieReplySize = kClientCookieSize + kServerCookieSize;
constexpr std::size_t kCookieSecretSize = 16;  // SipHash-2-4's 128-bit key

using CookieSecret = std::array<std::uint8_t, kCookieSecretSize>;

// SipHash-2-4 (Aumasson and Bernstein) of `data` under `key`; RFC 9018 §4.4 names it.
std::uint64_t siphash24(const CookieSecret& key, std::span<const std::uint8_t> data);

// The RFC 9018 server cookie (version 1) for this client cookie, client address (4 or 16
// bytes) and unix time, under `secret`, written into `out`.
void make_server_cookie(const CookieSecret& secret, std::span<const std::uint8_t, kClientCookieSize> client_cookie,
                        std::span<const std::uint8_t> client_ip, std::uint32_t now,
                        std::span<std::uint8_t, kServerCookieSize> out);

// What a server with cookies on holds: the secrets (the first makes new cookies, every one is
// accepted, so a rotated-out secret keeps working until the cookies it made expire) and
// whether UDP queries without a valid server cookie are answered BADCOOKIE.
struct CookieSecrets {
  std::vector<CookieSecret> secrets;
  bool require = false;
  // Set anew by whoever publishes a changed set (CookieCache keys on it); 0: not cached.
  std::uint64_t generation = 0;
};

// RFC 7873 §5.2: a malformed option (FORMERR), no or an invalid server cookie (a new one is
// made: BADCOOKIE when cookies are required), or a valid one.
enum class CookieVerdict { kMalformed, kNew, kValid };

struct CookieAnswer {
  CookieVerdict verdict = CookieVerdict::kMalformed;
  // The option data to send (client cookie, server cookie) unless kMalformed.
  std::array<std::uint8_t, kCookieReplySize> reply{};
};

// A server cookie older than this is replaced by a fresh one (RFC 9018 §4.3: half an hour).
constexpr std::uint32_t kCookieRefreshAge = 1800;
// Accepted from one hour in the past to five minutes in the future (RFC 9018 §4.3).
constexpr std::uint32_t kCookieMaxAge = 3600;
constexpr std::uint32_t kCookieMaxAhead = 300;

// Answers the COOKIE option `data` of a query from `client_ip` at unix time `now`.
// `secrets.secrets` must not be empty.
CookieAnswer answer_cookie(const CookieSecrets& secrets, std::span<const std::uint8_t> data,
                           std::span<const std::uint8_t> client_ip, std::uint32_t now);

// A thread's memory of the server cookie it last gave each client (by client cookie and
// address), so that a client sending back the cookie it was given, as resolvers do, is
// answered without hashing: the answer is the one answer_cookie() would give, bit for bit,
// while the cookie is younger than kCookieRefreshAge. Entries hold for one generation of
// secrets (CookieSecrets::generation; 0 turns the cache off). One per thread; not thread-safe.
class CookieCache {
 public:
  // The verdict answer_cookie() gives, with the option data to send written into `reply`.
  // A hit is answered inline; a miss hashes (answer_cookie) and remembers the result.
  CookieVerdict answer(const CookieSecrets& secrets, std::span<const std::uint8_t> data,
                       std::span<const std::uint8_t> client_ip, std::uint32_t now,
                       std::span<std::uint8_t, kCookieReplySize> reply) {
    bool cacheable = secrets.generation != 0 && (client_ip.size() == 4 || client_ip.size() == 16) &&
                     (data.size() == kClientCookieSize || data.size() == kCookieReplySize);
    if (!cacheable) return miss(secrets, data, client_ip, now, reply, nullptr);
    Key key = key_of(data, client_ip);
    Entry& entry = entries_[(key.client ^ (key.client >> 29) ^ (key.client >> 47)) & (entries_.size() - 1)];
    // Young: neither due for replacement nor stamped ahead of now (which wraps to a large age).
    if (entry.generation == secrets.generation && entry.key == key && now - entry.stamp < kCookieRefreshAge) {
      bool client_only = data.size() == kClientCookieSize;
      if (client_only || (word(data.data() + 8) == entry.server[0] && word(data.data() + 16) == entry.server[1])) {
        std::memcpy(reply.data(), data.data(), kClientCookieSize);
        std::memcpy(reply.data() + kClientCookieSize, entry.server, kServerCookieSize);
        return client_only ? CookieVerdict::kNew : CookieVerdict::kValid;
      }
    }
    return miss(secrets, data, client_ip, now, reply, &entry);
  }

 private:
  // Words as they lie in memory: they are only compared and hashed, never interpreted.
  static std::uint64_t word(const std::uint8_t* p) {
    std::uint64_t value;
    std::memcpy(&value, p, 8);
    return value;
  }
  struct Key {
    std::uint64_t client = 0;
    std::uint64_t ip[2] = {0, 0};  // the address, zero-padded to 16 bytes
    std::uint64_t ip_size = 0;
    bool operator==(const Key&) const = default;
  };
  static Key key_of(std::span<const std::uint8_t> data, std::span<const std::uint8_t> client_ip) {
    Key key;
    key.client = word(data.data());
    if (client_ip.size() == 4) {
      std::uint32_t v4;
      std::memcpy(&v4, client_ip.data(), 4);
      key.ip[0] = v4;
    } else {
      key.ip[0] = word(client_ip.data());
      key.ip[1] = word(client_ip.data() + 8);
    }
    key.ip_size = client_ip.size();
    return key;
  }
  struct Entry {
    std::uint64_t generation = 0;
    Key key;
    std::uint32_t stamp = 0;  // the server cookie's timestamp
    std::uint64_t server[2] = {0, 0};
  };
  CookieVerdict miss(const CookieSecrets& secrets, std::span<const std::uint8_t> data,
                     std::span<const std::uint8_t> client_ip, std::uint32_t now,
                     std::span<std::uint8_t, kCookieReplySize> reply, Entry* entry);

  std::array<Entry, 256> entries_{};
};

// RFC 8914 §4 info codes this server sends.
enum class ExtendedError : std::uint16_t {
  kOther = 0,
  kNotReady = 14,
  kProhibited = 18,
  kNotAuthoritative = 20,
  kNotSupported = 21,
  kInvalidData = 24,
};

// An EDNS Client Subnet option (RFC 7871 §6): the client's network as its resolver passes it on.
struct ClientSubnet {
  std::uint16_t family = 1;  // 1: IPv4, 2: IPv6 (the IANA address family numbers)
  std::uint8_t source = 0;   // SOURCE PREFIX-LENGTH: leading bits of `address` that count
  std::uint8_t scope = 0;    // SCOPE PREFIX-LENGTH: 0 in queries; in answers, the bits the answer is for
  std::array<std::uint8_t, 16> address{};  // the network, zero past `source` bits
  // The address as 4 or 16 bytes, for lookups.
  std::span<const std::uint8_t> bytes() const { return {address.data(), family == 1 ? 4u : 16u}; }
};

// Reads the option data of a query's ECS; an error (answered FORMERR, RFC 7871 §7.2.1) for an
// unknown family, a prefix longer than the family's address, a non-zero scope, an ADDRESS of
// other than ceil(source / 8) octets (§6), or bits set past the source prefix (§6).
base::Result<ClientSubnet> parse_client_subnet(std::span<const std::uint8_t> data);
// Appends the answer's ECS: family, source prefix and address copied from the query, and `scope`
// (RFC 7871 §7.2.1).
void add_client_subnet(Edns& edns, const ClientSubnet& query, std::uint8_t scope);

// Appends an Extended DNS Error option (info code, then the UTF-8 text without a terminator).
void add_extended_error(Edns& edns, ExtendedError code, std::string_view text = {});

}  // namespace cutover::dns
