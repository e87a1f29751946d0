// What `cutover plan` is asked to plan: record changes (--set, --delete), a nameserver move
// (--move-ns), the client inventory and the parent NS TTL. Parsing helpers validate each
// piece against the zone origin. Plain values; stateless functions.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "dns/message.h"
#include "dns/name.h"
#include "tools/calc/client_profiles.h"

namespace cutover::tools {

struct RecordChange {
  enum class Kind { kSet, kDelete };
  Kind kind = Kind::kSet;
  dns::Name owner;
  dns::RRType type = dns::RRType::A;
  std::string rdata_text;  // presentation form for kSet (validated), empty for kDelete
  std::string text() const;  // "set app.example.com. A 203.0.113.50"
};

struct ClientEntry {
  std::string service;
  std::string runtime;        // profile name or "custom"
  double cache_seconds = 0;   // infinity when the client does not re-resolve
  std::string source;         // where the figure comes from
};

struct PlanRequest {
  dns::Name origin;
  std::vector<RecordChange> changes;
  std::vector<dns::Name> new_nameservers;          // --move-ns, empty when no move
  std::optional<std::uint32_t> parent_ns_ttl;      // read live or given; assumed when missing
  std::uint32_t low_ttl = 300;                     // the TTL to lower to before the change
  std::vector<ClientEntry> clients;
  std::string client_terms_source;  // where the inventory's figures come from (lab run or the paper)
  std::vector<std::string> resolvers;              // for the verification commands
  std::chrono::sys_seconds start{};                // when the first step may happen
  bool force = false;                              // allow NS and records in one step
};

// "app A 203.0.113.50" or "app 300 IN A 203.0.113.50"; relative owners take `origin`.
base::Result<RecordChange> parse_set_change(std::string_view text, const dns::Name& origin);
// "app A" (owner and type).
base::Result<RecordChange> parse_delete_change(std::string_view text, const dns::Name& origin);
// "ns1.new.example.,ns2.new.example."
base::Result<std::vector<dns::Name>> parse_nameserver_list(std::string_view text, const dns::Name& origin);
// YAML: services: [{name: billing, profile: openjdk21-default}, {name: worker, cache_seconds: 45},
// {name: api, client: java}]. `client:` names a lab client id of `measured` (calc's --lab-results)
// or a built-in profile.
base::Result<std::vector<ClientEntry>> parse_client_inventory(std::string_view yaml,
                                                              std::span<const MeasuredClient> measured = {});
// "2025-06-12T09:00Z", "2025-06-12T09:00:00Z" or "2025-06-12 09:00" (always UTC).
base::Result<std::chrono::sys_seconds> parse_utc_time(std::string_view text);
std::string format_utc_time(std::chrono::sys_seconds time);

}  // namespace cutover::tools
