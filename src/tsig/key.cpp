// Algorithm names and sizes, key lookup.
#include "tsig/key.h"

namespace cutover::tsig {

namespace {

const dns::Name& sha256_name() {
  static const dns::Name name = *dns::Name::from_text("hmac-sha256.");
  return name;
}

const dns::Name& sha512_name() {
  static const dns::Name name = *dns::Name::from_text("hmac-sha512.");
  return name;
}

}  // namespace

std::optional<Algorithm> algorithm_from_name(const dns::Name& name) {
  if (name == sha256_name()) return Algorithm::kHmacSha256;
  if (name == sha512_name()) return Algorithm::kHmacSha512;
  return std::nullopt;
}

const dns::Name& algorithm_name(Algorithm algorithm) {
  return algorithm == Algorithm::kHmacSha256 ? sha256_name() : sha512_name();
}

std::size_t mac_size(Algorithm algorithm) { return algorithm == Algorithm::kHmacSha256 ? 32 : 64; }

const Key* KeyRing::find(const dns::Name& name) const {
  for (const auto& key : keys_) {
    if (key.name == name) return &key;
  }
  return nullptr;
}

}  // namespace cutover::tsig
