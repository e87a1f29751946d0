// BIND key files, their timing metadata, and RRSIGs made with them.
#include "dnssec/signing_key.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "dns/base_encoding.h"
#include "dnssec/zone_keys.h"

namespace cutover::dnssec {

struct SigningKey::Pkey {
  EVP_PKEY* key = nullptr;
  ~Pkey() { EVP_PKEY_free(key); }
};

namespace {

base::Error key_error(const std::string& file, std::string message, std::size_t line = 0) {
  return base::make_error(base::ErrorCode::kInvalidArgument,
                          line == 0 ? fmt::format("{}: {}", file, message) : fmt::format("{}:{}: {}", file, line, message));
}

std::string trim(std::string text) {
  auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// "20261206153000" (UTC, as BIND writes its timing metadata) as unix seconds.
std::optional<std::int64_t> parse_key_time(const std::string& text) {
  if (text.size() != 14 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = std::stoi(text.substr(0, 4)) - 1900;
  tm.tm_mon = std::stoi(text.substr(4, 2)) - 1;
  tm.tm_mday = std::stoi(text.substr(6, 2));
  tm.tm_hour = std::stoi(text.substr(8, 2));
  tm.tm_min = std::stoi(text.substr(10, 2));
  tm.tm_sec = std::stoi(text.substr(12, 2));
  return static_cast<std::int64_t>(timegm(&tm));
}

// A P-256 key from the DNSKEY's public point and, when `scalar` is not empty, its private
// scalar (a key pair to sign with); without it a public key to verify with.
EVP_PKEY* ecdsa_key(std::span<const std::uint8_t> scalar, std::span<const std::uint8_t> public_xy) {
  // RFC 6605 §4: the DNSKEY holds x || y; OpenSSL wants the uncompressed point 04 || x || y.
  std::vector<std::uint8_t> point{0x04};
  point.insert(point.end(), public_xy.begin(), public_xy.end());
  BIGNUM* priv = scalar.empty() ? nullptr : BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr);
  OSSL_PARAM_BLD* build = OSSL_PARAM_BLD_new();
  EVP_PKEY* key = nullptr;
  if ((scalar.empty() || priv != nullptr) && build != nullptr &&
      OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1 &&
      (priv == nullptr || OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_PRIV_KEY, priv) == 1) &&
      OSSL_PARAM_BLD_push_octet_string(build, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) == 1) {
    OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(build);
    EVP_PKEY_CTX* context = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
    int selection = priv != nullptr ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
    if (params != nullptr && context != nullptr && EVP_PKEY_fromdata_init(context) == 1) {
      if (EVP_PKEY_fromdata(context, &key, selection, params) != 1) key = nullptr;
    }
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
  }
  OSSL_PARAM_BLD_free(build);
  BN_free(priv);
  return key;
}

// The RRSIG labels field (RFC 4034 §3.1.3): the owner's labels, a leading "*" not counted.
std::uint8_t rrsig_labels(const dns::Name& owner) {
  std::size_t labels = owner.label_count();
  if (owner.is_wildcard()) --labels;
  return static_cast<std::uint8_t>(labels);
}

void put_u16(std::vector<std::uint8_t>& out, std::uint16_t value) {
  out.push_back(static_cast<std::uint8_t>(value >> 8));
  out.push_back(static_cast<std::uint8_t>(value & 0xFF));
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  put_u16(out, static_cast<std::uint16_t>(value >> 16));
  put_u16(out, static_cast<std::uint16_t>(value & 0xFFFF));
}

}  // namespace

std::string key_state_text(KeyState state) {
  switch (state) {
    case KeyState::kCreated: return "created";
    case KeyState::kPublished: return "published";
    case KeyState::kActive: return "active";
    case KeyState::kInactive: return "inactive";
    case KeyState::kDeleted: return "deleted";
  }
  return "?";
}

SigningKey::~SigningKey() = default;

KeyState SigningKey::state(std::int64_t now) const {
  auto passed = [&](const std::optional<std::int64_t>& time) { return !time || *time <= now; };
  if (remove && *remove <= now) return KeyState::kDeleted;
  if (!passed(publish) && !passed(activate)) return KeyState::kCreated;
  if (inactive && *inactive <= now) return KeyState::kInactive;
  if (!passed(activate)) return KeyState::kPublished;
  return KeyState::kActive;
}

base::Result<std::shared_ptr<const SigningKey>> SigningKey::from_parts(const dns::Name& owner, dns::Rdata dnskey,
                                                                        std::span<const std::uint8_t> private_key,
                                                                        std::string label) {
  if (dnskey.size() < 5) return key_error(label, "the DNSKEY record is too short");
  auto key = std::shared_ptr<SigningKey>(new SigningKey());
  key->owner_ = owner.lowercased();
  key->flags_ = static_cast<std::uint16_t>(dnskey[0] << 8 | dnskey[1]);
  key->algorithm_ = dnskey[3];
  key->key_tag_ = dnssec::key_tag(dnskey);
  key->label_ = std::move(label);
  std::span<const std::uint8_t> public_key(dnskey.data() + 4, dnskey.size() - 4);
  key->pkey_ = std::make_unique<Pkey>();
  if (key->algorithm_ == kEcdsaP256Sha256) {
    if (private_key.size() != 32 || public_key.size() != 64) {
      return key_error(key->label_, "an ECDSA P-256 key needs a 32-byte private key and a 64-byte public key");
    }
    key->pkey_->key = ecdsa_key(private_key, public_key);
  } else if (key->algorithm_ == kEd25519) {
    if (private_key.size() != 32) return key_error(key->label_, "an Ed25519 key needs a 32-byte private key");
    key->pkey_->key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, private_key.data(), private_key.size());
  } else {
    return key_error(key->label_, fmt::format("algorithm {} is not supported for online signing (13 ECDSAP256SHA256 "
                                              "and 15 ED25519 are)",
                                              key->algorithm_));
  }
  if (key->pkey_->key == nullptr) return key_error(key->label_, "OpenSSL did not accept the key");
  key->dnskey_ = std::move(dnskey);
  // The private key must be the DNSKEY's: a signature made now must verify with the public key.
  std::vector<std::uint8_t> probe = {'c', 'u', 't', 'o', 'v', 'e', 'r'};
  auto signature = key->sign(probe);
  if (signature.empty()) return key_error(key->label_, "signing with the key failed");
  if (!verify_signature(key->dnskey_, probe, signature)) {
    return key_error(key->label_, "the private key does not belong to the DNSKEY in the .key file");
  }
  return std::shared_ptr<const SigningKey>(std::move(key));
}

base::Result<std::shared_ptr<const SigningKey>> SigningKey::generate(const dns::Name& owner, std::uint8_t algorithm,
                                                                      std::uint16_t flags) {
  EVP_PKEY* pkey = algorithm == kEd25519           ? EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519")
                   : algorithm == kEcdsaP256Sha256 ? EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")
                                                   : nullptr;
  if (pkey == nullptr) return key_error("generate", fmt::format("cannot make a key of algorithm {}", algorithm));
  dns::Rdata dnskey = {static_cast<std::uint8_t>(flags >> 8), static_cast<std::uint8_t>(flags & 0xFF), 3, algorithm};
  std::vector<std::uint8_t> secret(32);
  bool good = false;
  if (algorithm == kEd25519) {
    std::uint8_t bytes[32];
    std::size_t size = sizeof bytes;
    std::size_t secret_size = secret.size();
    good = EVP_PKEY_get_raw_public_key(pkey, bytes, &size) == 1 &&
           EVP_PKEY_get_raw_private_key(pkey, secret.data(), &secret_size) == 1;
    dnskey.insert(dnskey.end(), bytes, bytes + size);
  } else {
    std::uint8_t point[65];
    std::size_t size = 0;
    BIGNUM* scalar = nullptr;
    good = EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &size) == 1 && size == 65 &&
           EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) == 1 &&
           BN_bn2binpad(scalar, secret.data(), 32) == 32;
    BN_free(scalar);
    if (good) dnskey.insert(dnskey.end(), point + 1, point + size);  // x || y
  }
  EVP_PKEY_free(pkey);
  if (!good) return key_error("generate", "OpenSSL did not give the key's parts");
  return from_parts(owner, std::move(dnskey), secret, "generated");
}

base::Result<std::shared_ptr<const SigningKey>> SigningKey::load(const std::string& stem) {
  // The .key file: comments (";"), then one DNSKEY record in master-file form.
  std::string key_file = stem + ".key";
  std::ifstream key_in(key_file);
  if (!key_in) return key_error(key_file, "cannot be read");
  std::optional<dns::Name> owner;
  dns::Rdata dnskey;
  std::string line;
  for (std::size_t number = 1; std::getline(key_in, line); ++number) {
    line = trim(line.substr(0, line.find(';')));
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string word; fields >> word;) words.push_back(word);
    auto at = std::find(words.begin(), words.end(), "DNSKEY");
    if (at == words.end() || words.end() - at < 5) return key_error(key_file, "expected one DNSKEY record", number);
    auto name = dns::Name::from_text(words.front());
    if (!name) return key_error(key_file, "owner: " + name.error().message, number);
    owner = *name;
    std::string base64;
    for (auto part = at + 4; part != words.end(); ++part) base64 += *part;
    std::vector<std::uint8_t> public_key;
    if (!dns::base64_decode(base64, public_key)) return key_error(key_file, "the public key is not base64", number);
    int flags = std::atoi(at[1].c_str());
    int protocol = std::atoi(at[2].c_str());
    int algorithm = std::atoi(at[3].c_str());
    if (flags < 0 || flags > 0xFFFF || protocol != 3 || algorithm <= 0 || algorithm > 255) {
      return key_error(key_file, "flags, protocol (3) or algorithm out of range", number);
    }
    dnskey = {static_cast<std::uint8_t>(flags >> 8), static_cast<std::uint8_t>(flags & 0xFF), 3,
              static_cast<std::uint8_t>(algorithm)};
    dnskey.insert(dnskey.end(), public_key.begin(), public_key.end());
    break;
  }
  if (!owner) return key_error(key_file, "holds no DNSKEY record");

  // The .private file: "Field: value" lines (Private-key-format v1.x).
  std::string private_file = stem + ".private";
  std::ifstream private_in(private_file);
  if (!private_in) return key_error(private_file, "cannot be read");
  std::vector<std::uint8_t> private_key;
  std::optional<std::int64_t> publish, activate, inactive, remove;
  for (std::size_t number = 1; std::getline(private_in, line); ++number) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string field = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    auto time_field = [&](std::optional<std::int64_t>& into) -> base::Status {
      into = parse_key_time(value);
      if (!into) return key_error(private_file, field + ": expected YYYYMMDDHHMMSS", number);
      return {};
    };
    base::Status status;
    if (field == "PrivateKey") {
      if (!dns::base64_decode(value, private_key)) return key_error(private_file, "PrivateKey is not base64", number);
    } else if (field == "Publish") {
      status = time_field(publish);
    } else if (field == "Activate") {
      status = time_field(activate);
    } else if (field == "Inactive") {
      status = time_field(inactive);
    } else if (field == "Delete") {
      status = time_field(remove);
    } else if (field == "Algorithm") {
      if (std::atoi(value.c_str()) != dnskey[3]) {
        return key_error(private_file, "Algorithm differs from the DNSKEY's in " + key_file, number);
      }
    }
    if (!status.ok()) return status.error();
  }
  if (private_key.empty()) return key_error(private_file, "holds no PrivateKey field (only ECDSA P-256 and Ed25519 keys are read)");
  auto key = from_parts(*owner, std::move(dnskey), private_key, stem);
  if (!key) return key.error();
  auto& mutable_key = const_cast<SigningKey&>(**key);
  mutable_key.publish = publish;
  mutable_key.activate = activate;
  mutable_key.inactive = inactive;
  mutable_key.remove = remove;
  return key;
}

std::vector<std::uint8_t> SigningKey::sign(std::span<const std::uint8_t> data) const {
  std::vector<std::uint8_t> out;
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  if (context == nullptr) return out;
  const EVP_MD* digest = algorithm_ == kEd25519 ? nullptr : EVP_sha256();
  std::size_t size = 0;
  if (EVP_DigestSignInit(context, nullptr, digest, nullptr, pkey_->key) == 1 &&
      EVP_DigestSign(context, nullptr, &size, data.data(), data.size()) == 1) {
    std::vector<std::uint8_t> signature(size);
    if (EVP_DigestSign(context, signature.data(), &size, data.data(), data.size()) == 1) {
      signature.resize(size);
      if (algorithm_ == kEd25519) {
        out = std::move(signature);
      } else {
        // DER ECDSA-Sig-Value -> r || s, each left-padded to 32 bytes (RFC 6605 §4).
        const unsigned char* read = signature.data();
        ECDSA_SIG* parsed = d2i_ECDSA_SIG(nullptr, &read, static_cast<long>(signature.size()));
        if (parsed != nullptr) {
          out.resize(64);
          if (BN_bn2binpad(ECDSA_SIG_get0_r(parsed), out.data(), 32) != 32 ||
              BN_bn2binpad(ECDSA_SIG_get0_s(parsed), out.data() + 32, 32) != 32) {
            out.clear();
          }
          ECDSA_SIG_free(parsed);
        }
      }
    }
  }
  EVP_MD_CTX_free(context);
  return out;
}

bool verify_signature(std::span<const std::uint8_t> dnskey, std::span<const std::uint8_t> data,
                      std::span<const std::uint8_t> signature) {
  if (dnskey.size() < 5 || signature.size() != 64) return false;
  std::span<const std::uint8_t> public_key = dnskey.subspan(4);
  EVP_PKEY* key = nullptr;
  std::vector<std::uint8_t> encoded(signature.begin(), signature.end());
  const EVP_MD* digest = nullptr;
  if (dnskey[3] == kEd25519 && public_key.size() == 32) {
    key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, public_key.data(), public_key.size());
  } else if (dnskey[3] == kEcdsaP256Sha256 && public_key.size() == 64) {
    key = ecdsa_key({}, public_key);
    // r || s -> DER ECDSA-Sig-Value, as OpenSSL verifies it.
    ECDSA_SIG* parsed = ECDSA_SIG_new();
    BIGNUM* r = BN_bin2bn(signature.data(), 32, nullptr);
    BIGNUM* s = BN_bin2bn(signature.data() + 32, 32, nullptr);
    encoded.clear();
    if (parsed != nullptr && r != nullptr && s != nullptr && ECDSA_SIG_set0(parsed, r, s) == 1) {
      r = s = nullptr;  // owned by `parsed` now
      unsigned char* der = nullptr;
      int size = i2d_ECDSA_SIG(parsed, &der);
      if (size > 0) encoded.assign(der, der + size);
      OPENSSL_free(der);
    }
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(parsed);
    digest = EVP_sha256();
  }
  bool good = false;
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  if (key != nullptr && context != nullptr && !encoded.empty() &&
      EVP_DigestVerifyInit(context, nullptr, digest, nullptr, key) == 1) {
    good = EVP_DigestVerify(context, encoded.data(), encoded.size(), data.data(), data.size()) == 1;
  }
  EVP_MD_CTX_free(context);
  EVP_PKEY_free(key);
  return good;
}

base::Result<std::vector<std::shared_ptr<const SigningKey>>> load_zone_keys(const std::string& dir,
                                                                            const dns::Name& zone) {
  // BIND names key files K<zone>+<alg>+<tag>, the zone without its trailing dot (the root ".").
  std::string text = zone.lowercased().to_text();
  std::string prefix = "K" + text + "+";
  std::vector<std::shared_ptr<const SigningKey>> keys;
  std::error_code error;
  std::filesystem::directory_iterator entries(dir, error);
  if (error) return key_error(dir, "cannot list the key directory: " + error.message());
  std::vector<std::string> stems;
  for (const auto& entry : entries) {
    std::string name = entry.path().filename().string();
    if (name.size() <= 8 || name.rfind(".private") != name.size() - 8) continue;
    std::string lowered = name;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string lowered_prefix = prefix;
    lowered_prefix[0] = 'k';
    if (lowered.rfind(lowered_prefix, 0) != 0) continue;
    stems.push_back((entry.path().parent_path() / name.substr(0, name.size() - 8)).string());
  }
  std::sort(stems.begin(), stems.end());
  for (const auto& stem : stems) {
    auto key = SigningKey::load(stem);
    if (!key) return key.error();
    if ((*key)->owner() != zone) return key_error(stem + ".key", "its DNSKEY owner is not " + zone.to_text());
    keys.push_back(*key);
  }
  if (keys.empty()) {
    return key_error(dir, "holds no key of " + zone.to_text() + " (files " + prefix + "ALG+TAG.key and .private, as dnssec-keygen writes them)");
  }
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a->key_tag() < b->key_tag(); });
  return keys;
}

std::vector<std::uint8_t> rrsig_signed_data(std::span<const std::uint8_t> rrsig_head, const dns::Name& owner,
                                            dns::RRType type, std::uint32_t original_ttl,
                                            const std::vector<std::span<const std::uint8_t>>& rdatas) {
  std::vector<dns::Rdata> canonical;
  canonical.reserve(rdatas.size());
  for (auto rdata : rdatas) canonical.push_back(dns::rdata_canonical(type, rdata));
  // RFC 4034 §6.3: ordered as left-justified octet strings; duplicates dropped.
  std::sort(canonical.begin(), canonical.end());
  canonical.erase(std::unique(canonical.begin(), canonical.end()), canonical.end());
  dns::Name lower = owner.lowercased();
  std::vector<std::uint8_t> data(rrsig_head.begin(), rrsig_head.end());
  for (const auto& rdata : canonical) {
    data.insert(data.end(), lower.wire().begin(), lower.wire().end());
    put_u16(data, static_cast<std::uint16_t>(type));
    put_u16(data, 1);  // class IN
    put_u32(data, original_ttl);
    put_u16(data, static_cast<std::uint16_t>(rdata.size()));
    data.insert(data.end(), rdata.begin(), rdata.end());
  }
  return data;
}

dns::Rdata make_rrsig(const SigningKey& key, const dns::Name& owner, const RrsigFields& fields,
                      const std::vector<std::span<const std::uint8_t>>& rdatas) {
  dns::Rdata rrsig;
  put_u16(rrsig, static_cast<std::uint16_t>(fields.covered));
  rrsig.push_back(key.algorithm());
  rrsig.push_back(rrsig_labels(owner));
  put_u32(rrsig, fields.original_ttl);
  put_u32(rrsig, fields.expiration);
  put_u32(rrsig, fields.inception);
  put_u16(rrsig, key.key_tag());
  rrsig.insert(rrsig.end(), key.owner().wire().begin(), key.owner().wire().end());  // lowercased at load
  auto signature = key.sign(rrsig_signed_data(rrsig, owner, fields.covered, fields.original_ttl, rdatas));
  if (signature.empty()) return {};
  rrsig.insert(rrsig.end(), signature.begin(), signature.end());
  return rrsig;
}

}  // namespace cutover::dnssec
