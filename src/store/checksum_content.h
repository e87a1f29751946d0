// The content a journal checksum covers, written the one way the journal writes it: each
// integer as 8 bytes big-endian, each byte string as its 8-byte length and its bytes; and
// SHA-256 over that content. The journal and the migration that re-checks old entries both
// use it. Stateless; thread-safe.
#pragma once

#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cutover::store {

inline void put_u64(std::vector<std::uint8_t>& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(value >> shift));
}

template <typename Bytes>
void put_bytes(std::vector<std::uint8_t>& out, const Bytes& bytes) {
  put_u64(out, bytes.size());
  out.insert(out.end(), bytes.begin(), bytes.end());
}

inline std::vector<std::uint8_t> sha256(const void* data, std::size_t size) {
  std::vector<std::uint8_t> digest(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  EVP_Digest(data, size, digest.data(), &length, EVP_sha256(), nullptr);
  digest.resize(length);
  return digest;
}

}  // namespace cutover::store
