// EtcdClient: the few etcd v3 calls cutover needs, over etcd's JSON gateway (POST /v3/...,
// keys and values base64, 64-bit numbers as strings; etcd's "gRPC gateway" documentation).
// Several member URLs: a call that cannot reach one member (connection refused, timeout,
// 5xx) is retried on the next, and the client sticks to the last member that answered.
// Thread-safe: every call opens its own connection; only the sticky index is shared.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace cutover::cluster {

struct EtcdMember {
  std::string host;
  std::uint16_t port = 0;
  std::string url() const;  // http://host:port
};

// "http://127.0.0.1:2379,http://[::1]:2479" (http only: the gateway without TLS).
base::Result<std::vector<EtcdMember>> parse_etcd_urls(std::string_view list);

struct KeyValue {
  std::string key;
  std::string value;
  std::int64_t create_revision = 0;
  std::int64_t mod_revision = 0;
  std::int64_t lease = 0;
};

// One comparison of a transaction: the key's create or mod revision equals `revision`
// (create revision 0: the key does not exist).
struct TxnCompare {
  enum class Target { kCreateRevision, kModRevision };
  std::string key;
  Target target = Target::kModRevision;
  std::int64_t revision = 0;
};

struct TxnPut {
  std::string key;
  std::string value;
};

struct TxnResult {
  bool succeeded = false;     // every comparison held, and the puts were made
  std::int64_t revision = 0;  // the store's revision after the transaction
};

struct RangeResult {
  std::vector<KeyValue> kvs;
  std::int64_t revision = 0;  // the store's revision the read saw
};

struct WatchEvent {
  bool deleted = false;  // DELETE (a lease that expired deletes its keys), else PUT
  KeyValue kv;
};

// The key just past every key that starts with `prefix` (etcd's range_end for a prefix).
std::string prefix_end(std::string_view prefix);

// One etcd member's own view (etcd's Maintenance/Status): what `cutover status` shows for
// each member (docs/cluster.md, "Status and suspect vantages").
struct MemberStatus {
  std::string url;
  bool reached = false;
  std::string error;      // why it was not reached
  std::string member_id;  // etcd's 64-bit IDs, as the gateway gives them (decimal strings)
  std::string leader_id;
  bool leader = false;  // this member is the raft leader
  std::int64_t revision = 0;
  std::int64_t raft_term = 0;
  std::int64_t raft_index = 0;
  std::int64_t db_size = 0;
  std::string version;
};

// How long /status (a server's or a checker's) waits for each member's own status.
inline constexpr std::chrono::milliseconds kMemberStatusTimeout{500};

// Asks every member for its status at once, each bounded by `timeout`; in `members` order.
std::vector<MemberStatus> member_statuses(const std::vector<EtcdMember>& members, std::chrono::milliseconds timeout);
nlohmann::json member_statuses_json(const std::vector<MemberStatus>& statuses);

class EtcdClient {
 public:
  // `members` must not be empty; `timeout` bounds each connect and each reply.
  EtcdClient(std::vector<EtcdMember> members, std::chrono::milliseconds timeout);

  // A lease of `ttl`; its ID.
  base::Result<std::int64_t> grant(std::chrono::seconds ttl);
  // Renews `lease`; kNotFound when it has expired (etcd answers TTL 0 or no TTL).
  base::Status keepalive(std::int64_t lease);
  // Writes `key` (attached to `lease` unless 0); the revision of the write. kNotFound when
  // the lease is gone.
  base::Result<std::int64_t> put(const std::string& key, const std::string& value, std::int64_t lease = 0);
  base::Result<RangeResult> range_prefix(const std::string& prefix);
  // The keys in [key, range_end) (range_end empty: `key` alone).
  base::Result<RangeResult> range(const std::string& key, const std::string& range_end = {});
  // Deletes the keys in [key, range_end); how many were deleted.
  base::Result<std::int64_t> delete_range(const std::string& key, const std::string& range_end);
  // If every comparison holds, makes every put, atomically (etcd's Txn).
  base::Result<TxnResult> txn(const std::vector<TxnCompare>& compares, const std::vector<TxnPut>& puts);

  // Streams the changes of keys under `prefix` from `start_revision` to `on_events` (called
  // on this thread, once per batch, with the batch's revision) until `stop()` says so, the
  // stream breaks or `idle` passes without a byte. Returns the last revision seen (or
  // start_revision - 1), or an error when no member accepted the watch.
  using EventsFn = std::function<void(const std::vector<WatchEvent>&, std::int64_t revision)>;
  base::Result<std::int64_t> watch_prefix(const std::string& prefix, std::int64_t start_revision,
                                          const EventsFn& on_events, const std::function<bool()>& stop,
                                          std::chrono::milliseconds idle);

  // The member calls go to first.
  std::string current_member() const;
  // The status of the member that answers (with one member: that member's).
  base::Result<nlohmann::json> maintenance_status();

 private:
  base::Result<nlohmann::json> call(const std::string& path, const nlohmann::json& body);

  std::vector<EtcdMember> members_;
  std::chrono::milliseconds timeout_;
  std::atomic<std::size_t> current_{0};
};

}  // namespace cutover::cluster
