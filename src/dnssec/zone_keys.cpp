// Key tags, DS digests and the signature window of a signed zone.
#include "dnssec/zone_keys.h"

#include <openssl/evp.h>

#include <algorithm>
#include <ctime>

#include <fmt/format.h>

#include "base/load.h"
#include "dns/text_codec.h"

namespace cutover::dnssec {
namespace {

using dns::RRType;

constexpr std::uint16_t kZoneKeyFlag = 0x0100;  // RFC 4034 §2.1.1
constexpr std::uint16_t kSepFlag = 0x0001;
constexpr std::uint16_t kRevokeFlag = 0x0080;   // RFC 5011 §3
constexpr std::uint8_t kNsec3OptOut = 0x01;     // RFC 5155 §3.1.2.1
// RRSIG rdata (RFC 4034 §3.1): type covered (2), algorithm, labels, original TTL (4),
// expiration (4), inception (4), key tag (2), signer, signature.
constexpr std::size_t kExpirationAt = 8;
constexpr std::size_t kInceptionAt = 12;
constexpr std::size_t kRrsigFixedSize = 18;

// `time` minus `now` in serial arithmetic: the signed 32-bit distance.
std::int64_t seconds_from(std::uint32_t now, std::uint32_t time) {
  return static_cast<std::int32_t>(time - now);
}

std::string nsec3_text(std::span<const std::uint8_t> param) {
  auto params = dns::parse_nsec3_params(param);
  if (!params) return "NSEC3 (unreadable NSEC3PARAM)";
  std::string salt;
  for (std::uint8_t byte : params->salt) salt += fmt::format("{:02X}", byte);
  return fmt::format("NSEC3 (hash {}, {} extra iteration{}, salt {})", params->algorithm, params->iterations,
                     params->iterations == 1 ? "" : "s", salt.empty() ? "-" : salt);
}

template <typename Visit>
void for_each_signature(const zone::Zone& zone, Visit visit) {
  zone.for_each_node([&](const zone::Node& node) {
    const zone::RRset* rrsigs = node.find(RRType::RRSIG);
    if (rrsigs == nullptr) return;
    for (auto rdata : rrsigs->rdatas) {
      if (rdata.size() >= kRrsigFixedSize) visit(node, rdata);
    }
  });
}

}  // namespace

std::uint16_t key_tag(std::span<const std::uint8_t> dnskey) {
  if (dnskey.size() < 4 || dnskey[3] == 1) return 0;
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < dnskey.size(); ++i) {
    sum += i % 2 == 0 ? static_cast<std::uint32_t>(dnskey[i]) << 8 : dnskey[i];
  }
  sum += (sum >> 16) & 0xFFFF;
  return static_cast<std::uint16_t>(sum & 0xFFFF);
}

dns::Rdata ds_rdata(const dns::Name& owner, std::span<const std::uint8_t> dnskey, std::uint8_t digest_type) {
  const EVP_MD* digest = digest_type == 2 ? EVP_sha256() : digest_type == 4 ? EVP_sha384() : nullptr;
  if (digest == nullptr || dnskey.size() < 4) return {};
  dns::Name lower = owner.lowercased();
  std::vector<std::uint8_t> input(lower.wire().begin(), lower.wire().end());
  input.insert(input.end(), dnskey.begin(), dnskey.end());
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(input.data(), input.size(), hash, &size, digest, nullptr) != 1) return {};
  std::uint16_t tag = key_tag(dnskey);
  dns::Rdata ds = {static_cast<std::uint8_t>(tag >> 8), static_cast<std::uint8_t>(tag & 0xFF), dnskey[3], digest_type};
  ds.insert(ds.end(), hash, hash + size);
  return ds;
}

namespace {

// The zone's CDS and CDNSKEY records against its DNSKEYs (RFC 7344 §4.1, RFC 8078 §4).
void check_parent_signals(const zone::Zone& zone, ZoneDnssec& out) {
  const zone::Node& apex = zone.apex();
  const zone::RRset* dnskeys = apex.find(RRType::DNSKEY);
  auto has_key = [&](std::span<const std::uint8_t> rdata) {
    if (dnskeys == nullptr) return false;
    for (auto key : dnskeys->rdatas) {
      if (std::equal(key.begin(), key.end(), rdata.begin(), rdata.end())) return true;
    }
    return false;
  };
  // RFC 8078 §4: the removal requests, CDS 0 0 0 00 and CDNSKEY 0 3 0 AA==.
  static const std::uint8_t kCdsDelete[] = {0, 0, 0, 0, 0};
  static const std::uint8_t kCdnskeyDelete[] = {0, 0, 3, 0, 0};
  if (const zone::RRset* cds = apex.find(RRType::CDS); cds != nullptr) {
    for (auto rdata : cds->rdatas) {
      if (std::equal(rdata.begin(), rdata.end(), std::begin(kCdsDelete), std::end(kCdsDelete))) {
        out.asks_ds_removal = true;
        continue;
      }
      bool matched = false;
      for (std::size_t i = 0; dnskeys != nullptr && i < dnskeys->rdatas.size() && !matched && rdata.size() > 3; ++i) {
        dns::Rdata ds = ds_rdata(zone.origin(), dnskeys->rdatas[i], rdata[3]);
        matched = std::equal(ds.begin(), ds.end(), rdata.begin(), rdata.end());
      }
      if (!matched) {
        out.parent_signal_problems.push_back("CDS " + dns::rdata_to_text(RRType::CDS, rdata) +
                                             " matches no DNSKEY of the zone (or its digest type is not SHA-256 or SHA-384)");
      }
    }
  }
  if (const zone::RRset* cdnskey = apex.find(RRType::CDNSKEY); cdnskey != nullptr) {
    for (auto rdata : cdnskey->rdatas) {
      if (std::equal(rdata.begin(), rdata.end(), std::begin(kCdnskeyDelete), std::end(kCdnskeyDelete))) {
        out.asks_ds_removal = true;
      } else if (!has_key(rdata)) {
        out.parent_signal_problems.push_back("CDNSKEY " + dns::rdata_to_text(RRType::CDNSKEY, rdata) +
                                             " is not one of the zone's DNSKEYs");
      }
    }
  }
}

}  // namespace

ZoneDnssec describe(const zone::Zone& zone, std::uint32_t now) {
  ZoneDnssec out;
  const zone::Node& apex = zone.apex();
  const zone::RRset* dnskeys = apex.find(RRType::DNSKEY);
  out.signed_zone = dnskeys != nullptr;
  if (dnskeys != nullptr) {
    for (auto rdata : dnskeys->rdatas) {
      if (rdata.size() < 4) continue;
      ZoneKey key;
      key.flags = base::load_u16(rdata.data());
      key.algorithm = rdata[3];
      key.key_tag = key_tag(rdata);
      key.sep = (key.flags & kSepFlag) != 0 && (key.flags & kZoneKeyFlag) != 0;
      key.revoked = (key.flags & kRevokeFlag) != 0;
      if (key.sep && !key.revoked) key.ds = ds_rdata(zone.origin(), rdata, 2);
      out.keys.push_back(std::move(key));
    }
  }
  out.publishes_cds = apex.find(RRType::CDS) != nullptr;
  out.publishes_cdnskey = apex.find(RRType::CDNSKEY) != nullptr;
  check_parent_signals(zone, out);
  const zone::RRset* param = apex.find(RRType::NSEC3PARAM);
  out.denial = param != nullptr && param->rdatas.size() > 0 ? nsec3_text(param->rdatas[0])
               : apex.find(RRType::NSEC) != nullptr       ? "NSEC"
                                                          : "none";
  zone.for_each_node([&](const zone::Node& node) {
    const zone::RRset* nsec3 = node.find(RRType::NSEC3);
    if (nsec3 == nullptr) return;
    for (auto rdata : nsec3->rdatas) {
      // NSEC3 begins with the NSEC3PARAM fields (RFC 5155 §3.2), the flags among them.
      auto params = dns::parse_nsec3_params(rdata);
      if (params && (params->flags & kNsec3OptOut) != 0) out.opt_out = true;
    }
  });
  SignatureWindow& window = out.signatures;
  for_each_signature(zone, [&](const zone::Node& node, std::span<const std::uint8_t> rdata) {
    ++window.signatures;
    std::uint32_t expiration = base::load_u32(rdata.data() + kExpirationAt);
    std::int64_t left = seconds_from(now, expiration);
    if (left < 0) ++window.expired;
    std::uint32_t inception = base::load_u32(rdata.data() + kInceptionAt);
    if (seconds_from(now, inception) > 0) ++window.not_yet_valid;
    if (!window.latest_inception || seconds_from(*window.latest_inception, inception) > 0) window.latest_inception = inception;
    if (!window.earliest_expiry_in || left < *window.earliest_expiry_in) {
      window.earliest_expiry_in = left;
      window.earliest_expiration = expiration;
      window.earliest_owner = zone.owner(node);
      window.earliest_type = static_cast<RRType>(base::load_u16(rdata.data()));
    }
  });
  return out;
}

std::optional<std::int64_t> earliest_expiry_in(const zone::Zone& zone, std::uint32_t now) {
  std::optional<std::int64_t> earliest;
  for_each_signature(zone, [&](const zone::Node&, std::span<const std::uint8_t> rdata) {
    std::int64_t left = seconds_from(now, base::load_u32(rdata.data() + kExpirationAt));
    if (!earliest || left < *earliest) earliest = left;
  });
  return earliest;
}

std::string key_role(const ZoneKey& key) {
  if (key.revoked) return "revoked";
  return key.sep ? "KSK" : "ZSK";
}

std::string utc_text(std::uint32_t seconds) {
  std::time_t time = seconds;
  std::tm parts{};
  gmtime_r(&time, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &parts);
  return text;
}

nlohmann::json to_json(const ZoneDnssec& info) {
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& key : info.keys) {
    nlohmann::json item = {{"role", key_role(key)}, {"flags", key.flags}, {"algorithm", key.algorithm},
                           {"key_tag", key.key_tag}};
    if (!key.ds.empty()) item["ds"] = dns::rdata_to_text(RRType::DS, key.ds);
    keys.push_back(std::move(item));
  }
  const SignatureWindow& window = info.signatures;
  nlohmann::json out = {{"signed", info.signed_zone}, {"denial", info.denial},          {"opt_out", info.opt_out},
                        {"keys", keys},               {"cds", info.publishes_cds},     {"cdnskey", info.publishes_cdnskey},
                        {"signatures", window.signatures}, {"expired", window.expired}, {"not_yet_valid", window.not_yet_valid}};
  if (window.earliest_expiry_in) {
    out["earliest_expiration"] = utc_text(window.earliest_expiration);
    out["earliest_expiry_in_seconds"] = *window.earliest_expiry_in;
    out["earliest_rrset"] = window.earliest_owner.to_text() + " " + dns::type_to_text(window.earliest_type);
  }
  if (window.latest_inception) out["latest_inception"] = utc_text(*window.latest_inception);
  out["asks_ds_removal"] = info.asks_ds_removal;
  out["parent_signal_problems"] = info.parent_signal_problems;
  return out;
}

std::vector<std::pair<const zone::Zone*, ServedZonesDnssec::Known>> ServedZonesDnssec::current_locked(
    const std::vector<std::shared_ptr<const zone::Zone>>& zones, std::uint32_t now) {
  std::vector<std::pair<const zone::Zone*, Known>> kept;
  for (const auto& zone : zones) {
    if (!zone::is_signed(*zone)) continue;
    auto same = std::find_if(known_.begin(), known_.end(), [&](const auto& entry) {
      return entry.first == zone.get() && !entry.second.zone.expired();
    });
    kept.emplace_back(zone.get(), same != known_.end() ? same->second : Known{zone, describe(*zone, now), now});
  }
  known_ = kept;
  for (auto& [zone, known] : kept) {
    auto& left = known.info.signatures.earliest_expiry_in;
    if (left) *left -= static_cast<std::int32_t>(now - known.seen);
  }
  return kept;
}

std::string ServedZonesDnssec::metrics(const std::vector<std::shared_ptr<const zone::Zone>>& zones, std::uint32_t now) {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& [zone, known] : current_locked(zones, now)) {
    const auto& left = known.info.signatures.earliest_expiry_in;
    if (!left) continue;
    if (out.empty()) {
      out = "# HELP cutover_dnssec_signature_expiry_seconds Seconds until the zone's first RRSIG expires (negative: "
            "expired).\n# TYPE cutover_dnssec_signature_expiry_seconds gauge\n";
    }
    out += fmt::format("cutover_dnssec_signature_expiry_seconds{{zone=\"{}\"}} {}\n", zone->origin().to_text(), *left);
  }
  return out;
}

nlohmann::json ServedZonesDnssec::status(const std::vector<std::shared_ptr<const zone::Zone>>& zones, std::uint32_t now) {
  std::lock_guard lock(mutex_);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [zone, known] : current_locked(zones, now)) {
    nlohmann::json item = to_json(known.info);
    item["zone"] = zone->origin().to_text();
    item["read_at"] = utc_text(known.seen);
    list.push_back(std::move(item));
  }
  return list;
}

}  // namespace cutover::dnssec
