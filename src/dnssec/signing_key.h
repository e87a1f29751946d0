// Keys for online signing (docs/dnssec.md, "Online signing"): a zone's key pairs read from
// BIND's key files (Kzone.+ALG+TAG.key with the DNSKEY record, .private with the private key
// and the timing metadata dnssec-keygen and dnssec-settime write), and RRSIGs made with them
// over one RRset in canonical form (RFC 4034 §3.1.8.1, §6). Algorithms: ECDSA P-256 with
// SHA-256 (13, RFC 6605) and Ed25519 (15, RFC 8080), through OpenSSL. A loaded key is
// immutable; signing is thread-safe (each call uses its own OpenSSL context).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"

namespace cutover::dnssec {

constexpr std::uint8_t kEcdsaP256Sha256 = 13;
constexpr std::uint8_t kEd25519 = 15;

// Where a key stands at one moment, from its timing metadata (BIND's Publish, Activate,
// Inactive and Delete; a time not set has passed): published keys are in the DNSKEY RRset,
// active ones sign.
enum class KeyState { kCreated, kPublished, kActive, kInactive, kDeleted };
std::string key_state_text(KeyState state);

class SigningKey {
 public:
  // Reads `stem`.key and `stem`.private (stem: the path without the suffix). Errors name the
  // file and, for a bad line, its line number.
  static base::Result<std::shared_ptr<const SigningKey>> load(const std::string& stem);
  // A key from its parts (tests, and keys made in process): `dnskey` is the DNSKEY rdata,
  // `private_key` the algorithm's raw private key (the P-256 scalar or the Ed25519 seed).
  static base::Result<std::shared_ptr<const SigningKey>> from_parts(const dns::Name& owner, dns::Rdata dnskey,
                                                                     std::span<const std::uint8_t> private_key,
                                                                     std::string label);
  // A new key pair made here (OpenSSL's generator): for tests and benchmarks; operators make
  // theirs with dnssec-keygen, whose files load() reads.
  static base::Result<std::shared_ptr<const SigningKey>> generate(const dns::Name& owner, std::uint8_t algorithm,
                                                                   std::uint16_t flags);
  ~SigningKey();
  SigningKey(const SigningKey&) = delete;
  SigningKey& operator=(const SigningKey&) = delete;

  const dns::Name& owner() const { return owner_; }
  const dns::Rdata& dnskey() const { return dnskey_; }
  std::uint16_t flags() const { return flags_; }
  std::uint8_t algorithm() const { return algorithm_; }
  std::uint16_t key_tag() const { return key_tag_; }
  bool ksk() const { return (flags_ & 0x0001) != 0; }  // SEP (RFC 4034 §2.1.1)
  bool revoked() const { return (flags_ & 0x0080) != 0; }
  // "KSK", "ZSK" or "revoked", as dnssec::key_role() names a served DNSKEY.
  const char* role() const { return revoked() ? "revoked" : ksk() ? "KSK" : "ZSK"; }
  const std::string& label() const { return label_; }  // the key's file stem, for messages

  // Timing metadata as unix seconds (absent: not set).
  std::optional<std::int64_t> publish, activate, inactive, remove;
  KeyState state(std::int64_t now) const;

  // The signature over `data` as it goes into an RRSIG: r || s (64 bytes) for ECDSA (RFC 6605
  // §4), the 64-byte signature for Ed25519. Empty when OpenSSL fails.
  std::vector<std::uint8_t> sign(std::span<const std::uint8_t> data) const;

 private:
  SigningKey() = default;
  dns::Name owner_;
  dns::Rdata dnskey_;
  std::uint16_t flags_ = 0;
  std::uint8_t algorithm_ = 0;
  std::uint16_t key_tag_ = 0;
  std::string label_;
  struct Pkey;
  std::unique_ptr<Pkey> pkey_;
};

// Whether `signature` (as an RRSIG carries it) over `data` verifies with the public key of the
// DNSKEY rdata `dnskey` alone (algorithms 13 and 15): how a loaded key pair is checked to match,
// and how tests check a signature without the signer's private key.
bool verify_signature(std::span<const std::uint8_t> dnskey, std::span<const std::uint8_t> data,
                      std::span<const std::uint8_t> signature);

// Every key of `zone` in `dir` (files K<zone>+ALG+TAG.private beside their .key), sorted by
// key tag. An unreadable key is an error naming its file; no keys at all is an error too.
base::Result<std::vector<std::shared_ptr<const SigningKey>>> load_zone_keys(const std::string& dir,
                                                                            const dns::Name& zone);

// The fixed fields of an RRSIG (RFC 4034 §3.1) before its signature.
struct RrsigFields {
  dns::RRType covered = dns::RRType::A;
  std::uint32_t original_ttl = 0;
  std::uint32_t expiration = 0;
  std::uint32_t inception = 0;
};

// The RRSIG rdata that `key` makes over the RRset (`owner`, fields.covered, IN,
// fields.original_ttl, `rdatas`): the RRset is put in canonical form (owner and embedded names
// lowercased, records sorted by rdata, duplicates dropped) and the labels field counts the
// owner's labels without a leading "*" (RFC 4034 §3.1.3). Empty when signing fails.
dns::Rdata make_rrsig(const SigningKey& key, const dns::Name& owner, const RrsigFields& fields,
                      const std::vector<std::span<const std::uint8_t>>& rdatas);

// RFC 4034 §3.1.8.1: the bytes an RRSIG signs (its rdata up to the signature, then the RRset in
// canonical form). Exposed for tests that verify a signature independently.
std::vector<std::uint8_t> rrsig_signed_data(std::span<const std::uint8_t> rrsig_head, const dns::Name& owner,
                                            dns::RRType type, std::uint32_t original_ttl,
                                            const std::vector<std::span<const std::uint8_t>>& rdatas);

}  // namespace cutover::dnssec
