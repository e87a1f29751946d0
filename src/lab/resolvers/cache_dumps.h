// Parsers of the cache dumps the lab reads from BIND (`rndc dumpdb -cache`), the PowerDNS
// Recursor (`rec_control dump-cache`, `dump-nsspeeds`), dnsmasq (its SIGUSR1 cache dump in a
// log file) and Knot Resolver (the lab's Lua expression over the control socket), into the
// shape Unbound's parser gives (unbound_control.h): {"rrsets": [...], "messages": [...],
// "infra": [...]}, so report.md shows every resolver's "why" the same way. Pure functions on
// fixed text (tested on dumps captured from the Debian packages); thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutover::lab {

// The whitespace-separated fields of one dump line (every parser here and Unbound's).
std::vector<std::string> dump_fields(const std::string& line);

// Whether `owner` is one of `names` or below one, case-insensitively, label-aligned
// ("a.b.lab." is below "b.lab.", "xb.lab." is not).
bool name_is_under(const std::string& owner, const std::vector<std::string>& names);

// BIND 9.18 `rndc dumpdb -cache`: the cache entries of `names` as rrsets {name, type, ttl,
// trust_name (the dump's "; authanswer", "; glue", ... line), stale, data}; negative entries
// (`\-ANY ;-$NXDOMAIN`, `\-AAAA ;-$NXRRSET`) and the SERVFAIL cache (`; NAME/TYPE [ttl MS]`)
// as messages {name, type, rcode, ttl} (the SERVFAIL cache's ttl in seconds, from its
// milliseconds); the address database's servers as infra {address, zone, srtt_us, rtt (ms),
// edns, plain, udpsize, ttl}; the "using a N second stale ttl" line as stale_ttl.
nlohmann::json parse_bind_cache_dump(const std::string& dump, const std::vector<std::string>& names);

// PowerDNS Recursor 4.8 `dump-cache`: record cache lines as rrsets {name, type, ttl (remaining),
// orig_ttl, trust_name ("auth" or "non-auth"), dnssec, zone, from, data}; the negative cache
// as messages {name, type, rcode NXDOMAIN (TYPE0) or NOERROR (NODATA), ttl, zone}; the packet
// cache as packet_cache {name, type, ttl}.
nlohmann::json parse_pdns_cache_dump(const std::string& dump, const std::vector<std::string>& names);

// PowerDNS Recursor 4.8 `dump-nsspeeds`: [{"name", "address", "rtt" (decaying ms), "last_rtt"}].
nlohmann::json parse_pdns_nsspeeds(const std::string& dump);

// dnsmasq 2.90's SIGUSR1 dump as log-facility writes it to a file: the last cache table in
// `log`. Positive rows become rrsets {name, type, ttl, flags, data}, negative rows (flag N,
// with X for NXDOMAIN) messages {name, type, rcode, ttl}; ttl is the Expires column minus the
// time of the dump. dnsmasq prints at most 30 characters of a name: such a row is kept when a
// case name starts with it and says name_truncated. The table's "server A#P: queries sent N,
// retried or failed N" lines become infra. {"found": false} when `log` holds no table.
nlohmann::json parse_dnsmasq_cache_dump(const std::string& log, const std::vector<std::string>& names);

// The reply of Knot Resolver's control socket to the lab's expression (kresd.cpp): one quoted
// Lua string, "min_ttl=N max_ttl=N count=N" then one "|name type remaining ttl rank packet
// rcode" per cache entry found. {"settings": {...}, "cache_count", "rrsets", "messages"} with
// the rank as kresd names it (enum kr_rank: "auth+insecure", ...); packet entries (negative
// and other whole answers) become messages with the rcode of the stored packet.
nlohmann::json parse_kresd_control_reply(const std::string& reply);

}  // namespace cutover::lab
