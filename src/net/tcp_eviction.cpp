// The eviction order's two lists (oldest activity at the front) and the timeout curve.
#include "net/tcp_eviction.h"

#include <algorithm>

namespace cutover::net {

void EvictionOrder::add(Id id, Time now) {
  waiting_.push_back(Entry{id, now});
  entries_.emplace(id, Place{ConnectionState::kWaiting, std::prev(waiting_.end())});
}

void EvictionOrder::touch(Id id, ConnectionState state, Time now) {
  auto found = entries_.find(id);
  if (found == entries_.end()) return;
  Place& place = found->second;
  place.at->last_activity = now;
  List& to = list_of(state);
  to.splice(to.end(), list_of(place.state), place.at);
  place.state = state;
}

void EvictionOrder::remove(Id id) {
  auto found = entries_.find(id);
  if (found == entries_.end()) return;
  list_of(found->second.state).erase(found->second.at);
  entries_.erase(found);
}

std::optional<EvictionOrder::Id> EvictionOrder::victim() const {
  if (!waiting_.empty()) return waiting_.front().id;
  if (!idle_.empty()) return idle_.front().id;
  return std::nullopt;
}

std::optional<EvictionOrder::Stalest> EvictionOrder::stalest() const {
  const Entry* oldest = nullptr;
  if (!waiting_.empty()) oldest = &waiting_.front();
  if (!idle_.empty() && (oldest == nullptr || idle_.front().last_activity < oldest->last_activity)) {
    oldest = &idle_.front();
  }
  if (oldest == nullptr) return std::nullopt;
  return Stalest{oldest->id, oldest->last_activity};
}

std::optional<ConnectionState> EvictionOrder::state_of(Id id) const {
  auto found = entries_.find(id);
  if (found == entries_.end()) return std::nullopt;
  return found->second.state;
}

std::chrono::milliseconds idle_timeout_under_load(std::chrono::milliseconds idle, std::chrono::milliseconds busy,
                                                  std::size_t open, std::size_t max_connections) {
  busy = std::min(busy, idle);
  if (max_connections == 0 || open * 2 <= max_connections) return idle;
  // Above half: the share of the upper half in use, from 0 (just over half) to 1 (full).
  std::size_t excess = std::min(open, max_connections) * 2 - max_connections;
  auto span = (idle - busy).count();
  auto cut = static_cast<long long>(static_cast<unsigned long long>(span) * excess / max_connections);
  return idle - std::chrono::milliseconds(cut);
}

}  // namespace cutover::net
