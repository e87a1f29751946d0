// EvictionOrder: one TCP event loop's connections in the order they are shed when the server
// is full (RFC 7766 §6.2.3: a server may close idle connections, and should under resource
// pressure; §10: stalled and idle connections are what an attacker holds), and the idle
// timeout that shortens as the server fills. Pure bookkeeping over ids and time points, so
// its test drives it with a fake clock. Not thread-safe: one per event loop.
//
// The life of one connection:
//
//     accept ──> kWaiting ──(every query so far answered and written)──> kIdle
//                   ^                                                     │
//                   └──(the first bytes of a next query, or output the ───┘
//                       client has not read yet)
//     either state ──(closed by the client, by eviction, by the idle timeout)──> gone
//
// kWaiting: the client owes progress (nothing sent yet, half a message, a reply not read).
// kIdle: a client that got every answer and keeps the connection for more (§6.2.1).
// victim(): the kWaiting connection with the oldest activity, else the kIdle one with the
// oldest activity; so a flood of stalled connections displaces itself before it displaces a
// resolver that reuses its connection.
#pragma once

#include <chrono>
#include <cstddef>
#include <list>
#include <optional>
#include <unordered_map>

#include "base/clock.h"

namespace cutover::net {

enum class ConnectionState { kWaiting, kIdle };

class EvictionOrder {
 public:
  using Id = int;
  using Time = base::SteadyTime;

  // A new connection: kWaiting, newest of all. `id` must not be present.
  void add(Id id, Time now);
  // Activity on `id` at `now` (bytes read or written) and the state it left the connection
  // in; it becomes the newest of that state. Unknown ids are ignored.
  void touch(Id id, ConnectionState state, Time now);
  void remove(Id id);

  std::size_t size() const { return entries_.size(); }
  // The connection to close first to make room for a newcomer; nullopt when empty.
  std::optional<Id> victim() const;
  // The connection whose last activity is the oldest, and that time: the next to expire.
  struct Stalest {
    Id id;
    Time last_activity;
  };
  std::optional<Stalest> stalest() const;
  // For tests: the state of `id`, nullopt when absent.
  std::optional<ConnectionState> state_of(Id id) const;

 private:
  struct Entry {
    Id id;
    Time last_activity;
  };
  using List = std::list<Entry>;
  struct Place {
    ConnectionState state;
    List::iterator at;
  };
  List& list_of(ConnectionState state) { return state == ConnectionState::kWaiting ? waiting_ : idle_; }

  // Oldest activity first in each; touch() moves an entry to the back (a splice, no allocation).
  List waiting_;
  List idle_;
  std::unordered_map<Id, Place> entries_;
};

// The idle timeout while `open` of `max_connections` slots are in use: `idle` up to half of
// them, then falling linearly to `busy` (never above `idle`) when all are in use. Unbound
// likewise cuts its TCP timeout once more than half of its slots are in use, to no less
// than 200 ms, and gdnsd 3 scales its timeout down as its connection count rises.
std::chrono::milliseconds idle_timeout_under_load(std::chrono::milliseconds idle, std::chrono::milliseconds busy,
                                                  std::size_t open, std::size_t max_connections);

}  // namespace cutover::net
