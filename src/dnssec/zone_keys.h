// What a signed zone holds, as an operator checks it (docs/dnssec.md, "Keys and signatures"):
// its DNSKEYs with their key tags and the DS records the parent should hold for the KSKs, its
// denial of existence, and the window its RRSIGs are valid in. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"
#include "zone/zone.h"

namespace cutover::dnssec {

// RFC 4034 Appendix B: the key tag of a DNSKEY's rdata (algorithm 1 is not supported: 0).
std::uint16_t key_tag(std::span<const std::uint8_t> dnskey);
// RFC 4034 §5.1.4 with RFC 4509 (digest type 2, SHA-256) or RFC 6605 (4, SHA-384): the DS
// rdata for the DNSKEY `dnskey` at `owner`; empty for another digest type.
dns::Rdata ds_rdata(const dns::Name& owner, std::span<const std::uint8_t> dnskey, std::uint8_t digest_type);

struct ZoneKey {
  std::uint16_t flags = 0;
  std::uint8_t algorithm = 0;
  std::uint16_t key_tag = 0;
  bool sep = false;      // flag 1: a key-signing key, which the parent's DS points at
  bool revoked = false;  // flag 128 (RFC 5011)
  dns::Rdata ds;         // SHA-256 DS for a SEP key, else empty
};

// The RRSIGs' validity against `now` (unix seconds), in RFC 1982 serial arithmetic as RFC 4034
// §3.1.5 asks (the fields are 32-bit and wrap in 2106).
struct SignatureWindow {
  std::size_t signatures = 0;
  std::size_t expired = 0;        // expiration before now
  std::size_t not_yet_valid = 0;  // inception after now
  // The signature that expires first: seconds from now (negative: already expired), its
  // expiration field, and the RRset it covers.
  std::optional<std::int64_t> earliest_expiry_in;
  std::uint32_t earliest_expiration = 0;
  dns::Name earliest_owner;
  dns::RRType earliest_type = dns::RRType::A;
  // The newest inception field: about when the zone was last signed.
  std::optional<std::uint32_t> latest_inception;
};

struct ZoneDnssec {
  bool signed_zone = false;  // the apex holds a DNSKEY RRset (auth/dnssec.h: mode presigned)
  std::string denial;        // "NSEC", "NSEC3 ...", or "none"
  bool opt_out = false;      // an NSEC3 record has the opt-out flag
  std::vector<ZoneKey> keys;
  bool publishes_cds = false;
  bool publishes_cdnskey = false;
  // CDS/CDNSKEY asking the parent to remove the DS (RFC 8078 §4: "0 0 0 00", "0 3 0 AA==").
  bool asks_ds_removal = false;
  // Each CDS or CDNSKEY record that matches no DNSKEY of the zone (RFC 7344 §4.1 wants every
  // one to): a parent that took it would publish a DS no key of the child matches, and
  // validating resolvers would fail the zone for as long as they hold that DS (lab E14).
  std::vector<std::string> parent_signal_problems;
  SignatureWindow signatures;
};

// Reads `zone` (every RRSIG it holds; O(records)).
ZoneDnssec describe(const zone::Zone& zone, std::uint32_t now);

// "KSK", "ZSK" or "revoked".
std::string key_role(const ZoneKey& key);
// An RRSIG time field (unix seconds) as "2037-12-01 00:00:00 UTC".
std::string utc_text(std::uint32_t seconds);
// The document `cutover dnssec status --json` and the "dnssec" member of /status share:
// signed, denial, opt_out, keys (role, flags, algorithm, key_tag, ds), cds, cdnskey,
// signatures, expired, not_yet_valid, and when there are signatures earliest_expiration,
// earliest_expiry_in_seconds, earliest_rrset and latest_inception.
nlohmann::json to_json(const ZoneDnssec& info);

// The earliest expiry alone, in seconds from `now`; nullopt for a zone without RRSIGs.
std::optional<std::int64_t> earliest_expiry_in(const zone::Zone& zone, std::uint32_t now);

// What /metrics and /status say about the served signed zones: describe() of each, remembered
// per zone object so a scrape does not go through every RRSIG of an unchanged zone again
// (the expiry is then counted down from when it was read). Thread-safe.
class ServedZonesDnssec {
 public:
  // `cutover_dnssec_signature_expiry_seconds{zone="..."}` for each signed zone of `zones`
  // (Prometheus text): seconds until its first RRSIG expires, negative once it has.
  std::string metrics(const std::vector<std::shared_ptr<const zone::Zone>>& zones, std::uint32_t now);
  // The "dnssec" member of /status: to_json() of each signed zone with "zone" (its origin) and
  // "read_at" (when its signatures were counted).
  nlohmann::json status(const std::vector<std::shared_ptr<const zone::Zone>>& zones, std::uint32_t now);

 private:
  struct Known {
    std::weak_ptr<const zone::Zone> zone;
    ZoneDnssec info;  // at `seen`
    std::uint32_t seen = 0;
  };
  // Each signed zone of `zones` with what is known of it, its expiry counted down to `now`.
  std::vector<std::pair<const zone::Zone*, Known>> current_locked(const std::vector<std::shared_ptr<const zone::Zone>>& zones,
                                                                  std::uint32_t now);
  std::mutex mutex_;
  std::vector<std::pair<const zone::Zone*, Known>> known_;
};

}  // namespace cutover::dnssec
