// Asking a resolver, timed on the lab clock: one question (ask), a poll at a fixed step until
// a condition holds (poll_until), and free-running polls that do not wait for slow answers
// (poll_every, for outages where one answer can take longer than the step). Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dns/types.h"
#include "lab/case_result.h"
#include "net/address.h"

namespace cutover::lab {

// One query with RD set; times in the Observation are relative to `reference_ns`. `source`:
// the address it is sent from (a client population's, E13), else the kernel's choice.
Observation ask(const net::SocketAddress& resolver, const std::string& name, dns::RRType type,
                std::int64_t reference_ns, std::chrono::milliseconds timeout = std::chrono::milliseconds(1500),
                const std::optional<net::SocketAddress>& source = std::nullopt);

struct PollPlan {
  std::string name;
  dns::RRType type = dns::RRType::A;
  std::int64_t reference_ns = 0;  // observation times are relative to this
  std::int64_t first_ns = 0;      // first poll at this moment, then every `step`
  double step = 0.2;              // seconds
  std::int64_t end_ns = 0;        // no poll starts at or after this
  std::chrono::milliseconds timeout{1000};
};

// Polls on the schedule first_ns + k*step (a slow answer skips the slots it overran) until
// `done` is true for an observation or the plan ends. Returns every observation.
std::vector<Observation> poll_until(const net::SocketAddress& resolver, const PollPlan& plan,
                                    const std::function<bool(const Observation&)>& done);

// Starts one query every `step` on its own thread whatever the earlier ones are doing, until
// end_ns, then waits for the stragglers. Observations come back sorted by send time.
std::vector<Observation> poll_every(const net::SocketAddress& resolver, const PollPlan& plan);

// Seconds since a monotonic reference, for event times stored in details.
double since(std::int64_t reference_ns, std::int64_t at_ns);

}  // namespace cutover::lab
