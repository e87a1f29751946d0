// The replication side of the query path: answers AXFR and IXFR for served zones (TCP; IXFR
// over UDP gets the single-SOA reply that sends the client to TCP), restricted by each zone's
// allow-transfer ACL and transfer-key (TSIG); acknowledges NOTIFY (which must be signed with
// the zone's primary-key when it has one); signs its answer to a TSIG-signed SOA query over
// TCP. Everything else is left to the answer engine. Thread-safe: reads the published zone
// snapshot and the thread-safe store.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "auth/engine.h"
#include "config/replication.h"
#include "net/handler.h"
#include "store/store.h"
#include "tsig/tsig.h"
#include "replication/primary/transfer.h"

namespace cutover::auth {
struct View;
}

namespace cutover::replication {

class Responder {
 public:
  using ZonesSnapshot = std::function<std::shared_ptr<const auth::ZoneSet>()>;
  // Told about a NOTIFY for a zone this server pulls (secondary role).
  using NotifyListener = std::function<void(const dns::Name& zone)>;

  // `store` may be null (no journal: IXFR always falls back to AXFR); it must outlive the
  // responder. `acls` maps a zone's journal key (store::zone_key, or store::view_zone_key for a
  // view's own copy: its allow-transfer, if set, replaces the top-level zone's) to its
  // replication settings.
  Responder(ZonesSnapshot zones, store::Store* store, std::map<std::string, config::ZoneReplicationConfig> acls,
            base::Logger& logger);

  void set_notify_listener(NotifyListener listener) { notify_listener_ = std::move(listener); }
  // The keys a zone's transfer-key and primary-key name: its AXFR/IXFR requests must be signed
  // with the transfer-key, a NOTIFY for a zone pulled with a primary-key with that key, and
  // then every response message is signed (RFC 8945 §5.3.1).
  void set_tsig_keys(tsig::KeyRing keys) { keys_ = std::move(keys); }
  // The store of a view's own zones by view name (null: none), for IXFR of a view's zone from
  // its own journal streams; without it such an IXFR goes whole. Before the first request.
  void set_view_stores(store::ViewStores stores) { view_stores_ = std::move(stores); }

  net::Intercept handle(std::span<const std::uint8_t> query, net::Transport transport, const sockaddr_storage& client,
                           Messages& responses) const;

 private:
  // From the default zones, or from `view`'s (a transfer signed with its key).
  net::Intercept transfer(const dns::Message& query, net::Transport transport, const sockaddr_storage& client,
                             Messages& responses, const auth::View* view = nullptr) const;
  net::Intercept notify(const dns::Message& query, const sockaddr_storage& client, Messages& responses) const;
  // A TSIG-signed SOA query over TCP (a secondary's signed refresh check): answered by the
  // engine and the answer signed with the request's key; unsigned ones go to the engine.
  net::Intercept signed_soa(std::span<const std::uint8_t> query, Messages& responses) const;
  const config::ZoneReplicationConfig* settings(const dns::Name& zone) const;
  // For a request that must be signed with `required_key` (a zone's transfer-key for AXFR/IXFR,
  // its primary-key for NOTIFY; empty: no key needed): a reply refusing a request not validly
  // signed with it (NOTAUTH with the TSIG error, REFUSED when unsigned or signed with another
  // key), or nullopt to go on; `context` is what the response is signed with.
  std::optional<net::Intercept> check_key(std::span<const std::uint8_t> wire, const dns::Message& query,
                                             const sockaddr_storage& client, std::uint64_t now,
                                             const std::string& required_key, tsig::RequestContext& context,
                                             Messages& responses) const;

  ZonesSnapshot zones_;
  store::Store* store_;
  std::map<std::string, config::ZoneReplicationConfig> acls_;
  base::Logger& logger_;
  NotifyListener notify_listener_;
  tsig::KeyRing keys_;
  store::ViewStores view_stores_;
};

// True when the first question of `query` is AXFR/IXFR or its opcode is NOTIFY or UPDATE,
// read from the raw bytes without a full parse (the fast path for ordinary queries).
bool is_replication_request(std::span<const std::uint8_t> query);
// True when `query` is a standard SOA query with additional records (it may carry a TSIG),
// read from the raw bytes; handle() answers such queries over TCP and signs the answer.
bool may_be_signed_soa_query(std::span<const std::uint8_t> query);

}  // namespace cutover::replication
