// TSIG keys (RFC 8945 §3): a name, an HMAC algorithm and a shared secret, and the key ring a
// server looks keys up in. Plain values; thread-compatible (read-only once built).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dns/name.h"

namespace cutover::tsig {

enum class Algorithm { kHmacSha256, kHmacSha512 };

// "hmac-sha256." / "hmac-sha512." (RFC 8945 §6); nullopt for any other algorithm name.
std::optional<Algorithm> algorithm_from_name(const dns::Name& name);
const dns::Name& algorithm_name(Algorithm algorithm);
// The full MAC length in bytes (32 or 64); shorter (truncated) MACs are not accepted.
std::size_t mac_size(Algorithm algorithm);

struct Key {
  dns::Name name;
  Algorithm algorithm = Algorithm::kHmacSha256;
  std::vector<std::uint8_t> secret;
};

class KeyRing {
 public:
  KeyRing() = default;
  explicit KeyRing(std::vector<Key> keys) : keys_(std::move(keys)) {}
  // The key with this name (names compare case-insensitively), or null.
  const Key* find(const dns::Name& name) const;
  bool empty() const { return keys_.empty(); }

 private:
  std::vector<Key> keys_;
};

}  // namespace cutover::tsig
