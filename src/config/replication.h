// Config schema for writes and replication: the journal, TSIG keys (RFC 8945), and per zone
// the NOTIFY targets, transfer and update ACLs, and a primary to pull from (secondary role).
// Plain values once loaded; the readers are stateless and thread-safe.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "dns/name.h"
#include "net/address.h"

namespace cutover::config {

struct TsigKeyConfig {
  dns::Name name;
  dns::Name algorithm;  // hmac-sha256. or hmac-sha512.
  std::vector<std::uint8_t> secret;
};

// An address prefix of an ACL: "127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8".
struct AddressPrefix {
  int family = AF_INET;
  std::uint8_t bytes[16] = {};
  unsigned bits = 0;
};
bool prefix_matches(const AddressPrefix& prefix, const sockaddr_storage& address);
bool acl_allows(const std::vector<AddressPrefix>& acl, const sockaddr_storage& address);

struct WritesConfig {
  std::string journal;  // SQLite journal file; empty: no writes, no IXFR
  std::vector<TsigKeyConfig> keys;
};

// One key of a zone's allow-update (`allow-update: [k1, {key: k2, allow-empty: true}]`).
struct UpdateKeyPolicy {
  std::string key;  // TSIG key name
  // Its updates may remove a name's last address (the floor's escape, as the write API's
  // allow_empty): for controllers that own names and delete them, like external-dns.
  bool allow_empty = false;
};

struct ZoneReplicationConfig {
  std::vector<net::SocketAddress> notify;     // secondaries told of every change (RFC 1996)
  std::vector<AddressPrefix> allow_transfer;  // who may AXFR/IXFR (empty: nobody)
  std::string transfer_key;                   // when set, transfers must also be signed with it
  std::vector<UpdateKeyPolicy> allow_update;  // TSIG keys that may send DNS UPDATE
  std::optional<net::SocketAddress> primary;  // secondary role: pull the zone from here
  std::string primary_key;                    // TSIG key for pulling from the primary
  // Secondary role: relay DNS UPDATE to `primary` (RFC 2136 §6) instead of refusing it.
  bool forward_updates = false;
  std::size_t max_transfer_bytes = 0;         // incoming transfer limit; 0: the default (256 MiB)
};

// The zone a secondary configured without a zone file starts from: a placeholder (serial 0)
// that is never answered from (SERVFAIL) and that the first transfer replaces.
std::string secondary_placeholder_text();

// Readers for the keys above; each throws ConfigError naming `label`, the line and `path`.
// `writes:` mapping (journal, tsig-keys).
void read_writes(const YAML::Node& node, const std::string& path, const std::string& label,
                 const std::string& base_dir, WritesConfig& out);
// One replication key of a zone entry (notify, allow-transfer, transfer-key, allow-update,
// primary, primary-key, forward-updates, max-transfer-bytes); false when `key` is not one of
// them.
bool read_zone_replication(const std::string& key, const YAML::Node& value, const std::string& path,
                           const std::string& label, ZoneReplicationConfig& out);
}  // namespace cutover::config
