// The configuration and zone compiled into the binary, served by a bare `cutover serve`.
// The zone shows every answer shape the engine produces, so it doubles as a demo and a
// smoke test: query it with dig @127.0.0.1 -p 5353 NAME TYPE.
#include "config/config.h"
#include "config/embedded.h"

namespace cutover::config {
namespace {

constexpr const char* kDefaultConfigYaml = R"(
listen: ["127.0.0.1:5353"]
threads: 1
tcp: {idle-timeout: 10s, busy-idle-timeout: 200ms, max-connections: 256, max-connections-per-client: 64}
log: {level: info, queries: false}
zones:
  - origin: example.test.
    file: example.test.zone
    rrset-order: cyclic
    rrset-order-names: {text: fixed}
# The control API (/status, /metrics, drain) on a free loopback port, printed at startup.
control: {listen: "127.0.0.1:0"}
)";

constexpr const char* kDefaultZone = R"($ORIGIN example.test.
$TTL 3600
; Negative answers carry min(SOA TTL, MINIMUM) = 300 (RFC 2308).
@            3600 IN SOA   ns1.example.test. hostmaster.example.test. 2024010101 7200 3600 1209600 300
@                 IN NS    ns1
@                 IN NS    ns2
ns1               IN A     192.0.2.53
ns2               IN AAAA  2001:db8::53

; Several addresses, rotated on every answer (rrset-order: cyclic).
www           300 IN A     192.0.2.10
www           300 IN A     192.0.2.11
www           300 IN A     192.0.2.12
www           300 IN AAAA  2001:db8::10
www           300 IN AAAA  2001:db8::11

; A CNAME chain: alias -> alias2 -> www, all answered in one response.
alias             IN CNAME alias2
alias2            IN CNAME www

; Wildcard: anything.wild.example.test answers from here.
*.wild            IN A     192.0.2.80
*.wild            IN TXT   "synthesised from *.wild"

; deep.ent.example.test exists, so ent.example.test is an empty non-terminal (NODATA).
host.deep.ent     IN A     192.0.2.90

; Delegation with glue; host.sub lies below the cut and is only reachable by referral.
sub               IN NS    ns1.sub
ns1.sub           IN A     192.0.2.100
host.sub          IN A     192.0.2.101

; DNAME: anything.old.example.test is rewritten to anything.new.example.test.
old               IN DNAME new.example.test.
host.new          IN A     192.0.2.110

; Mail and service records with in-zone targets (addresses go in the additional section).
@                 IN MX    10 mail
mail              IN A     192.0.2.25
_sip._udp         IN SRV   10 60 5060 sip
sip               IN A     192.0.2.60

@                 IN TXT   "v=spf1 mx -all"
text              IN TXT   "first string" "second string"
@                 IN CAA   0 issue "ca.example.net"
)";

}  // namespace

std::string_view embedded_config_yaml() { return kDefaultConfigYaml; }
std::string_view embedded_zone_text() { return kDefaultZone; }

Config embedded_default_config(const std::string& feature_yaml) {
  Config config = parse_config(std::string(kDefaultConfigYaml) + feature_yaml, "<embedded>", ".");
  for (auto& zone : config.zones) zone.text = kDefaultZone;
  config.zones.front().file = "<embedded>/example.test.zone";
  return config;
}

}  // namespace cutover::config
