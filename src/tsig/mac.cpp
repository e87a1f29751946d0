// HMAC-SHA256/512 over the RFC 8945 §4.3 digest components, through OpenSSL.
#include "tsig/mac.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "base/bytes.h"

namespace cutover::tsig {
namespace {

void write_u48(base::ByteWriter& out, std::uint64_t value) {
  out.write_u16(static_cast<std::uint16_t>(value >> 32));
  out.write_u32(static_cast<std::uint32_t>(value));
}

}  // namespace

std::vector<std::uint8_t> compute_mac(const Key& key, std::span<const std::uint8_t> prior_mac,
                                      std::span<const std::uint8_t> message, const TsigRecord& tsig, Covered covered) {
  std::vector<std::uint8_t> digest;
  digest.reserve(prior_mac.size() + message.size() + 128);
  base::ByteWriter out(digest);
  if (!prior_mac.empty()) {
    out.write_u16(static_cast<std::uint16_t>(prior_mac.size()));
    out.write_bytes(prior_mac);
  }
  out.write_bytes(message);
  if (covered == Covered::kVariables) {
    // Names in canonical form (RFC 8945 §4.3.3): uncompressed and lowercased.
    out.write_bytes(tsig.key_name.lowercased().wire());
    out.write_u16(static_cast<std::uint16_t>(dns::RRClass::ANY));
    out.write_u32(0);
    out.write_bytes(tsig.algorithm.lowercased().wire());
    write_u48(out, tsig.time_signed);
    out.write_u16(tsig.fudge);
    out.write_u16(tsig.error);
    out.write_u16(static_cast<std::uint16_t>(tsig.other.size()));
    out.write_bytes(tsig.other);
  } else {
    write_u48(out, tsig.time_signed);
    out.write_u16(tsig.fudge);
  }
  const EVP_MD* md = key.algorithm == Algorithm::kHmacSha256 ? EVP_sha256() : EVP_sha512();
  std::vector<std::uint8_t> mac(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  HMAC(md, key.secret.data(), static_cast<int>(key.secret.size()), digest.data(), digest.size(), mac.data(), &length);
  mac.resize(length);
  return mac;
}

bool macs_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace cutover::tsig
