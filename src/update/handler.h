// UpdateHandler: answers RFC 2136 UPDATE requests. Checks the TSIG (RFC 8945), the zone and
// the zone's allow-update keys, prescans the sections, and turns the update into ONE
// Store::write whose precondition evaluates the prerequisites under the store's lock, so
// the fence, floor and journal apply and nothing is applied partially. Thread-safe (the
// store is; the handler's own state is read-only after construction).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "base/log.h"
#include "store/store.h"
#include "tsig/key.h"

namespace cutover::update {

// A key that may update a zone, and whether its updates may leave a name without addresses.
struct UpdateKey {
  dns::Name key;
  bool allow_empty = false;
};

class UpdateHandler {
 public:
  using Clock = std::function<std::uint64_t()>;  // seconds since the epoch

  // `store` may be null (no journal configured): every update is refused. `allow_update`
  // maps a zone key (store::zone_key) to the TSIG keys that may update it; a key with
  // allow_empty writes with the floor's escape (a name may lose its last address). `store`
  // and `logger` must outlive the handler.
  UpdateHandler(store::Store* store, tsig::KeyRing keys, std::map<std::string, std::vector<UpdateKey>> allow_update,
                base::Logger& logger, Clock clock = {});

  // A view's own zones (docs/steering.md, "Writes to a view's zones"): an UPDATE signed with
  // one of `keys` (the view's match-keys; the first view listing the key, as for queries)
  // for a zone the view's store holds writes that copy, under the view's `allow_update`;
  // for any other zone it writes the default one, which the view shares.
  struct ViewRoute {
    std::string view;
    std::vector<dns::Name> keys;
    std::function<store::Store*()> store;  // the view's store; null when it has none
    std::map<std::string, std::vector<UpdateKey>> allow_update;
  };
  // Before the first handle().
  void add_view(ViewRoute route) { views_.push_back(std::move(route)); }

  // The response to one UPDATE request, or empty when it is too short to answer (no header).
  // `client` names the sender in logs and history.
  std::vector<std::uint8_t> handle(std::span<const std::uint8_t> request, const std::string& client) const;

 private:
  store::Store* store_;
  std::vector<ViewRoute> views_;
  tsig::KeyRing keys_;
  std::map<std::string, std::vector<UpdateKey>> allow_update_;
  base::Logger& logger_;
  Clock clock_;
};

}  // namespace cutover::update
