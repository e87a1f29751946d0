// The config key table (keys.h). Defaults are those of the structs in config.h and
// replication.h; config_keys_test checks this table against the reader.
#include "config/keys.h"

namespace cutover::config {

const std::vector<KeySpec>& config_keys() {
  static const std::vector<KeySpec> kKeys = {
      {"listen", "ADDRESS:PORT or list", "127.0.0.1:5353", "addresses to serve DNS on (UDP and TCP)", "[\"127.0.0.1:5353\"]"},
      {"threads", "number 1-64", "1", "worker threads answering queries", "2"},
      {"tcp", "mapping", "", "TCP connection limits", "{idle-timeout: 10s}"},
      {"tcp.idle-timeout", "duration", "10s",
       "close a TCP connection idle this long (also one stalled mid-message) while at most half of max-connections are open",
       "10s"},
      {"tcp.busy-idle-timeout", "duration", "200ms",
       "the idle timeout when every connection slot is in use; above half it falls linearly from idle-timeout to this",
       "200ms"},
      {"tcp.max-connections", "number", "256",
       "open TCP connections at most; a newcomer beyond them closes the oldest stalled or idle connection (RFC 7766 §6.2.3)",
       "256"},
      {"tcp.max-connections-per-client", "number", "64",
       "open TCP connections one client (IPv4 address, IPv6 /64) may hold; 0: no limit (RFC 7766 §10)", "64"},
      {"log", "mapping", "", "logging", "{level: info}"},
      {"log.level", "debug|info|warn|error", "info", "least severe level logged", "info"},
      {"log.queries", "bool", "false", "log one line per answered query", "false"},
      {"log.file", "path", "", "log to this file instead of stderr", "cutover.log"},
      {"pid-file", "path", "", "write the server's PID here (for cutover reload)", "cutover.pid"},
      {"control", "mapping", "", "the HTTP control API (status, metrics, pools, writes); off unless listen is set",
       "{listen: \"127.0.0.1:0\"}"},
      {"control.listen", "ADDRESS:PORT", "", "address of the control API; port 0 picks a free port", "\"127.0.0.1:0\""},
      {"control.token", "string", "", "bearer token for write actions; required off loopback", "secret-token"},
      {"control.remote-writes", "bool", "false",
       "accept write actions (drain, writes, undo) from peers off loopback, with the token", "false"},
      {"cookies", "mapping", "", "DNS Cookies (RFC 7873, RFC 9018)", "{enabled: true}"},
      {"cookies.enabled", "bool", "true", "answer and check DNS Cookies", "true"},
      {"cookies.require", "bool", "false", "BADCOOKIE for UDP queries with a client cookie but no valid server cookie",
       "false"},
      {"cookies.secrets", "list of 32 hex digits", "", "shared server secrets; the first makes cookies (default: random per process)",
       "[\"000102030405060708090a0b0c0d0e0f\"]"},
      {"cookies.rotate", "duration", "24h", "how often the random secret is replaced", "60m"},
      {"client-subnet", "mapping", "", "EDNS Client Subnet (RFC 7871) for steered pools; see docs/steering.md",
       "{trust: [\"127.0.0.0/8\"]}"},
      {"client-subnet.trust", "address/prefix or list", "",
       "resolvers whose client subnet option steers and is answered with a scope (unset: the option is ignored)",
       "[\"127.0.0.0/8\"]"},
      {"writes", "mapping", "", "the journaled write path and TSIG keys", "{journal: journal.sqlite}"},
      {"writes.journal", "path", "", "SQLite journal of writes; unset: no writes, no IXFR", "journal.sqlite"},
      {"writes.tsig-keys", "list", "", "TSIG keys (RFC 8945) for transfers and DNS UPDATE",
       "[{name: k1, algorithm: hmac-sha256, secret: c2VjcmV0}]"},
      {"writes.tsig-keys[].name", "domain name", "", "the key's name", "k1"},
      {"writes.tsig-keys[].algorithm", "hmac-sha256|hmac-sha512", "", "the key's algorithm", "hmac-sha256"},
      {"writes.tsig-keys[].secret", "base64", "", "the key's secret", "c2VjcmV0"},
      {"zones", "list", "", "the zones served", "[]"},
      {"zones[].origin", "domain name", "", "the zone's origin (required)", "example.test."},
      {"zones[].file", "path", "", "the zone's master file (required unless primary is set)", "example.test.zone"},
      {"zones[].rrset-order", "fixed|cyclic|random", "fixed", "order of records in answers", "cyclic"},
      {"zones[].rrset-order-names", "mapping NAME: order", "", "rrset-order for single owner names", "{www: random}"},
      {"zones[].notify", "ADDRESS:PORT or list", "", "secondaries sent NOTIFY on every change (RFC 1996)", "\"127.0.0.1:5354\""},
      {"zones[].allow-transfer", "address/prefix or list", "", "who may AXFR/IXFR (unset: nobody)", "[\"127.0.0.0/8\"]"},
      {"zones[].transfer-key", "TSIG key name", "", "transfers must also be signed with this key", "k1"},
      {"zones[].allow-update", "TSIG key name or list", "",
       "keys that may send DNS UPDATE (RFC 2136); an item is a key name or a {key, allow-empty} mapping",
       "[{key: k1, allow-empty: true}]"},
      {"zones[].allow-update[].key", "TSIG key name", "", "a key that may send DNS UPDATE", "k1"},
      {"zones[].allow-update[].allow-empty", "bool", "false",
       "this key's updates may delete a name's last address (controllers such as external-dns)", "true"},
      {"zones[].primary", "ADDRESS:PORT", "", "secondary role: pull the zone from this primary", "\"127.0.0.1:5355\""},
      {"zones[].primary-key", "TSIG key name", "", "key for pulling from the primary", "k1"},
      {"zones[].forward-updates", "bool", "false",
       "secondary role: relay DNS UPDATE to the primary and its answer back (RFC 2136 §6); off: refused here", "true"},
      {"zones[].max-transfer-bytes", "number >= 512", "268435456", "largest incoming zone transfer", "1048576"},
      {"zones[].dnssec", "mapping", "", "online signing (docs/dnssec.md); unset: served as the file holds it", "{mode: online, keys: keys}"},
      {"zones[].dnssec.mode", "presigned|online", "presigned",
       "online: answers, pool answers and writes are signed as they are served, with the keys in keys", "online"},
      {"zones[].dnssec.keys", "path", "", "directory of the zone's BIND key files, K<zone>+ALG+TAG.key/.private (required for online)",
       "keys"},
      {"zones[].dnssec.signature-lifetime", "duration", "14d", "how long a signature made now is valid", "14d"},
      {"zones[].dnssec.refresh", "duration", "7d", "a cached signature is made again when less than this is left", "7d"},
      {"zones[].dnssec.publish-cds", "bool", "true", "publish CDS and CDNSKEY for the active KSKs (RFC 7344)", "false"},
      {"views", "list", "", "views in match order: who gets which zones (docs/steering.md, Views)", "[]"},
      {"views[].name", "name", "", "the view's name: 1 to 64 of A-Z a-z 0-9 . _ - (required)", "internal"},
      {"views[].match-clients", "address/prefix or list", "",
       "clients by source address (or, with ecs, by a trusted resolver's client subnet)", "[\"10.0.0.0/8\"]"},
      {"views[].match-keys", "TSIG key name or list", "", "queries signed with one of these keys of writes.tsig-keys",
       "[k1]"},
      {"views[].ecs", "bool", "false",
       "match-clients reads the client subnet option of resolvers in client-subnet.trust", "true"},
      {"views[].zones", "list", "", "the zones this view serves in place of, or beside, the top-level zones (required)",
       "[]"},
      {"views[].zones[].origin", "domain name", "", "the zone's origin (required)", "example.test."},
      {"views[].zones[].file", "path", "", "the zone's master file (required)", "example.test.internal.zone"},
      {"views[].zones[].rrset-order", "fixed|cyclic|random", "fixed", "order of records in answers", "cyclic"},
      {"views[].zones[].rrset-order-names", "mapping NAME: order", "", "rrset-order for single owner names",
       "{www: random}"},
      {"views[].zones[].notify", "ADDRESS:PORT or list", "",
       "secondaries of this view's copy sent NOTIFY on every change, signed with the view's first match-key",
       "\"127.0.0.1:5354\""},
      {"views[].zones[].allow-transfer", "address/prefix or list", "",
       "who may AXFR/IXFR this view's copy (signed with a match-key); unset: the top-level zone's list",
       "[\"127.0.0.0/8\"]"},
      {"views[].zones[].allow-update", "TSIG key name or list", "",
       "keys of the view's match-keys whose DNS UPDATEs write this view's copy of the zone; items as in zones[]",
       "[{key: k1, allow-empty: true}]"},
      {"views[].zones[].allow-update[].key", "TSIG key name", "", "a key that may send DNS UPDATE", "k1"},
      {"views[].zones[].allow-update[].allow-empty", "bool", "false",
       "this key's updates may delete a name's last address", "true"},
      {"pools", "mapping NAME: pool", "", "health-checked failover pools (read by src/pool; see docs/pools.md)", "{}", true},
  };
  return kKeys;
}

std::vector<std::string> child_keys(std::string_view parent) {
  std::vector<std::string> out;
  for (const auto& key : config_keys()) {
    std::string_view path = key.path;
    if (parent.empty()) {
      if (path.find('.') == std::string_view::npos) out.emplace_back(path);
      continue;
    }
    if (path.size() <= parent.size() + 1 || path.substr(0, parent.size()) != parent || path[parent.size()] != '.') continue;
    std::string_view rest = path.substr(parent.size() + 1);
    if (rest.find('.') == std::string_view::npos) out.emplace_back(rest);
  }
  return out;
}

}  // namespace cutover::config
