// SigningKey: BIND key files read, keys matched to their DNSKEY, timing metadata, and RRSIGs
// over canonical RRsets that verify with the DNSKEY's public key alone. The keys are made here
// with OpenSSL and written as dnssec-keygen writes them; keys made by dnssec-keygen itself are
// served and validated in tests/integration/dnssec/online_test.cpp.
#include "dnssec/signing_key.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "dns/base_encoding.h"
#include "dnssec/zone_keys.h"

namespace cutover::dnssec {
namespace {

struct KeyPair {
  dns::Rdata dnskey;
  std::vector<std::uint8_t> private_key;
};

KeyPair make_pair(std::uint8_t algorithm, std::uint16_t flags) {
  KeyPair pair;
  pair.dnskey = {static_cast<std::uint8_t>(flags >> 8), static_cast<std::uint8_t>(flags & 0xFF), 3, algorithm};
  EVP_PKEY* key = algorithm == kEd25519 ? EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519")
                                        : EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
  EXPECT_NE(key, nullptr);
  if (algorithm == kEd25519) {
    std::uint8_t bytes[32];
    std::size_t size = sizeof bytes;
    EXPECT_EQ(EVP_PKEY_get_raw_public_key(key, bytes, &size), 1);
    pair.dnskey.insert(pair.dnskey.end(), bytes, bytes + size);
    size = sizeof bytes;
    EXPECT_EQ(EVP_PKEY_get_raw_private_key(key, bytes, &size), 1);
    pair.private_key.assign(bytes, bytes + size);
  } else {
    std::uint8_t point[65];
    std::size_t size = 0;
    EXPECT_EQ(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &size), 1);
    EXPECT_EQ(size, 65u);
    pair.dnskey.insert(pair.dnskey.end(), point + 1, point + size);  // x || y (RFC 6605 §4)
    BIGNUM* scalar = nullptr;
    EXPECT_EQ(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &scalar), 1);
    pair.private_key.resize(32);
    BN_bn2binpad(scalar, pair.private_key.data(), 32);
    BN_free(scalar);
  }
  EVP_PKEY_free(key);
  return pair;
}

class KeyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / fmt::format("cutover-keys-{}-{}", getpid(), counter_++);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The two files dnssec-keygen writes, with `extra` lines (timing metadata) in the .private.
  std::string write_key(const std::string& zone, const KeyPair& pair, const std::string& extra = "",
                        std::span<const std::uint8_t> private_key = {}) {
    std::uint16_t tag = key_tag(pair.dnskey);
    std::string stem = (dir_ / fmt::format("K{}+{:03}+{:05}", zone, pair.dnskey[3], tag)).string();
    std::uint16_t flags = static_cast<std::uint16_t>(pair.dnskey[0] << 8 | pair.dnskey[1]);
    std::ofstream(stem + ".key") << fmt::format("; This is a key, keyid {}, for {}\n{} IN DNSKEY {} 3 {} {}\n", tag, zone,
                                                zone, flags, pair.dnskey[3],
                                                dns::base64_encode(std::span(pair.dnskey).subspan(4)));
    auto secret = private_key.empty() ? std::span<const std::uint8_t>(pair.private_key) : private_key;
    std::ofstream(stem + ".private") << fmt::format("Private-key-format: v1.3\nAlgorithm: {} (X)\nPrivateKey: {}\n{}",
                                                    pair.dnskey[3], dns::base64_encode(secret), extra);
    return stem;
  }

  std::filesystem::path dir_;
  static inline int counter_ = 0;
};

const dns::Name& owner() {
  static const dns::Name name = *dns::Name::from_text("WWW.Example.");
  return name;
}

TEST_F(KeyFiles, KeysOfBothAlgorithmsAreReadAndSignWhatTheirDnskeyVerifies) {
  for (std::uint8_t algorithm : {kEcdsaP256Sha256, kEd25519}) {
    KeyPair pair = make_pair(algorithm, 257);
    auto key = SigningKey::load(write_key("example.", pair));
    ASSERT_TRUE(key.ok()) << key.error().message;
    EXPECT_EQ((*key)->algorithm(), algorithm);
    EXPECT_EQ((*key)->key_tag(), key_tag(pair.dnskey));
    EXPECT_TRUE((*key)->ksk());
    EXPECT_EQ((*key)->owner(), *dns::Name::from_text("example."));

    std::vector<std::uint8_t> a = {192, 0, 2, 1}, b = {192, 0, 2, 2};
    RrsigFields fields{dns::RRType::A, 300, 2'000'000'000, 1'900'000'000};
    dns::Rdata rrsig = make_rrsig(**key, owner(), fields, {a, b});
    ASSERT_GT(rrsig.size(), 64u);
    EXPECT_EQ(rrsig[2], algorithm);
    EXPECT_EQ(rrsig[3], 2);  // labels of www.example.
    std::size_t head = rrsig.size() - 64;
    auto signed_data = rrsig_signed_data(std::span(rrsig).first(head), owner(), dns::RRType::A, 300, {b, a});
    EXPECT_TRUE(verify_signature(pair.dnskey, signed_data, std::span(rrsig).subspan(head)));
    // Another RRset (one record less) does not verify with that signature.
    auto other = rrsig_signed_data(std::span(rrsig).first(head), owner(), dns::RRType::A, 300, {a});
    EXPECT_FALSE(verify_signature(pair.dnskey, other, std::span(rrsig).subspan(head)));
  }
}

TEST_F(KeyFiles, APrivateKeyThatIsNotTheDnskeysIsRefused) {
  for (std::uint8_t algorithm : {kEcdsaP256Sha256, kEd25519}) {
    KeyPair pair = make_pair(algorithm, 256);
    KeyPair other = make_pair(algorithm, 256);
    std::string stem = write_key("example.", pair, "", other.private_key);
    auto key = SigningKey::load(stem);
    ASSERT_FALSE(key.ok());
    EXPECT_EQ(key.error().message, stem + ": the private key does not belong to the DNSKEY in the .key file");
  }
}

TEST_F(KeyFiles, TimingMetadataGivesTheKeysState) {
  KeyPair pair = make_pair(kEd25519, 256);
  auto key = SigningKey::load(write_key("example.", pair,
                                        "Created: 20300101000000\nPublish: 20300101000000\nActivate: 20300201000000\n"
                                        "Inactive: 20300301000000\nDelete: 20300401000000\n"));
  ASSERT_TRUE(key.ok()) << key.error().message;
  const std::int64_t jan1 = 1893456000;  // 2030-01-01 00:00:00 UTC
  EXPECT_EQ((*key)->state(jan1 - 1), KeyState::kCreated);
  EXPECT_EQ((*key)->state(jan1), KeyState::kPublished);
  EXPECT_EQ((*key)->state(jan1 + 31 * 86400), KeyState::kActive);
  EXPECT_EQ((*key)->state(jan1 + 59 * 86400), KeyState::kInactive);
  EXPECT_EQ((*key)->state(jan1 + 90 * 86400), KeyState::kDeleted);
}

TEST_F(KeyFiles, ABadKeyNamesItsFileAndADirectoryWithoutKeysIsAnError) {
  auto none = load_zone_keys(dir_.string(), *dns::Name::from_text("example."));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("holds no key of example."), std::string::npos) << none.error().message;

  KeyPair pair = make_pair(kEcdsaP256Sha256, 257);
  std::string stem = write_key("example.", pair, "Activate: tomorrow\n");
  auto bad = load_zone_keys(dir_.string(), *dns::Name::from_text("example."));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, stem + ".private:4: Activate: expected YYYYMMDDHHMMSS");
  // Keys of other zones in the same directory are not read.
  EXPECT_FALSE(load_zone_keys(dir_.string(), *dns::Name::from_text("other.")).ok());
}

// RFC 4034 §3.1.8.1 and §6: the owner lowercased, the records in canonical order, once each.
TEST(RrsigSignedData, IsTheRrsigHeadThenTheCanonicalRrset) {
  std::vector<std::uint8_t> head = {0xAA};
  std::vector<std::uint8_t> a = {192, 0, 2, 1}, b = {192, 0, 2, 2};
  auto data = rrsig_signed_data(head, owner(), dns::RRType::A, 300, {b, a, b});
  std::vector<std::uint8_t> want = {0xAA};
  const std::vector<std::uint8_t> lower_owner = {3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 0};
  const std::vector<std::uint8_t> fields = {0, 1, 0, 1, 0, 0, 1, 44, 0, 4};  // A IN 300, rdlength 4
  for (const auto& rdata : {a, b}) {
    want.insert(want.end(), lower_owner.begin(), lower_owner.end());
    want.insert(want.end(), fields.begin(), fields.end());
    want.insert(want.end(), rdata.begin(), rdata.end());
  }
  EXPECT_EQ(data, want);
}

TEST_F(KeyFiles, AWildcardOwnersLabelsLeaveOutTheStar) {
  KeyPair pair = make_pair(kEd25519, 256);
  auto key = SigningKey::load(write_key("example.", pair));
  ASSERT_TRUE(key.ok()) << key.error().message;
  std::vector<std::uint8_t> a = {192, 0, 2, 1};
  dns::Rdata rrsig = make_rrsig(**key, *dns::Name::from_text("*.w.example."), {dns::RRType::A, 60, 2, 1}, {a});
  ASSERT_GT(rrsig.size(), 4u);
  EXPECT_EQ(rrsig[3], 2);  // RFC 4034 §3.1.3
}

}  // namespace
}  // namespace cutover::dnssec
