// /status and /metrics for zones signed online.
#include "app/online_status.h"

#include <ctime>

#include <fmt/format.h>

#include "auth/online_signing.h"
#include "dns/rdata.h"
#include "dnssec/zone_keys.h"

namespace cutover::app {

nlohmann::json online_signing_status(std::uint32_t now) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& signer : auth::online_signers()) {
    auto counters = signer->counters(now);
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& key : signer->keys()) {
      nlohmann::json item = {{"role", key->role()},
                             {"key_tag", key->key_tag()},
                             {"algorithm", key->algorithm()},
                             {"flags", key->flags()},
                             {"state", dnssec::key_state_text(key->state(now))},
                             {"file", key->label()}};
      if (key->ksk()) item["ds"] = dns::rdata_to_text(dns::RRType::DS, dnssec::ds_rdata(signer->origin(), key->dnskey(), 2));
      keys.push_back(std::move(item));
    }
    const auto& policy = signer->policy();
    list.push_back({{"zone", signer->origin().to_text()},
                    {"mode", "online"},
                    {"denial", "compact (RFC 9824)"},
                    {"keys", std::move(keys)},
                    {"publishes_cds", policy.publish_cds},
                    {"signature_lifetime_seconds", policy.signature_lifetime},
                    {"refresh_seconds", policy.refresh},
                    {"inception", dnssec::utc_text(counters.inception)},
                    {"expiration", dnssec::utc_text(counters.expiration)},
                    {"signed_rrsets", counters.signed_rrsets},
                    {"cache_hits", counters.cache_hits},
                    {"cached_rrsets", counters.cached}});
  }
  return list;
}

std::string online_signing_metrics() {
  auto signers = auth::online_signers();
  if (signers.empty()) return "";
  std::string out =
      "# HELP cutover_dnssec_online_signed_rrsets_total RRsets signed online (signature cache misses).\n"
      "# TYPE cutover_dnssec_online_signed_rrsets_total counter\n";
  std::string hits =
      "# HELP cutover_dnssec_online_cache_hits_total Answers whose signatures came from the signature cache.\n"
      "# TYPE cutover_dnssec_online_cache_hits_total counter\n";
  auto now = static_cast<std::uint32_t>(std::time(nullptr));
  for (const auto& signer : signers) {
    auto counters = signer->counters(now);
    std::string zone = signer->origin().to_text();
    out += fmt::format("cutover_dnssec_online_signed_rrsets_total{{zone=\"{}\"}} {}\n", zone, counters.signed_rrsets);
    hits += fmt::format("cutover_dnssec_online_cache_hits_total{{zone=\"{}\"}} {}\n", zone, counters.cache_hits);
  }
  return out + hits;
}

}  // namespace cutover::app
