// Timed DNS questions to a resolver through the stub client.
#include "lab/probe.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include "base/clock.h"
#include "client/query.h"
#include "dns/rdata.h"

namespace cutover::lab {

double since(std::int64_t reference_ns, std::int64_t at_ns) { return base::seconds_between(reference_ns, at_ns); }

Observation ask(const net::SocketAddress& resolver, const std::string& name, dns::RRType type,
                std::int64_t reference_ns, std::chrono::milliseconds timeout,
                const std::optional<net::SocketAddress>& source) {
  Observation observation;
  client::QueryOptions options;
  options.timeout = timeout;
  options.source = source;
  options.recursion_desired = true;
  auto qname = dns::Name::from_text(name);
  std::int64_t sent = base::monotonic_ns();
  observation.sent = since(reference_ns, sent);
  if (!qname) {
    observation.rcode = "ERROR";
    observation.received = observation.sent;
    return observation;
  }
  auto reply = client::query(resolver, *qname, type, options);
  observation.received = since(reference_ns, base::monotonic_ns());
  if (!reply) {
    observation.rcode = reply.error().code == base::ErrorCode::kTimeout ? "TIMEOUT" : "ERROR";
    return observation;
  }
  const dns::Message& message = reply->response;
  observation.rcode = dns::rcode_to_text(static_cast<dns::Rcode>(message.header.rcode));
  for (const auto& record : message.answers) {
    if (record.type != type) continue;
    observation.answer.push_back(dns::rdata_to_text(record.type, record.rdata));
    if (!observation.ttl) observation.ttl = record.ttl;
  }
  if (!observation.ttl) {
    for (const auto& record : message.authorities) {
      if (record.type == dns::RRType::SOA) observation.ttl = record.ttl;
    }
  }
  return observation;
}

std::vector<Observation> poll_until(const net::SocketAddress& resolver, const PollPlan& plan,
                                    const std::function<bool(const Observation&)>& done) {
  std::vector<Observation> observations;
  auto step_ns = static_cast<std::int64_t>(plan.step * 1e9);
  std::int64_t next = plan.first_ns;
  while (next < plan.end_ns) {
    base::sleep_until(next);
    observations.push_back(ask(resolver, plan.name, plan.type, plan.reference_ns, plan.timeout));
    if (done(observations.back())) break;
    std::int64_t now = base::monotonic_ns();
    next += step_ns;
    if (next < now) next += ((now - next) / step_ns + 1) * step_ns;
  }
  return observations;
}

std::vector<Observation> poll_every(const net::SocketAddress& resolver, const PollPlan& plan) {
  std::mutex mutex;
  std::vector<Observation> observations;
  std::vector<std::thread> threads;
  auto step_ns = static_cast<std::int64_t>(plan.step * 1e9);
  for (std::int64_t next = plan.first_ns; next < plan.end_ns; next += step_ns) {
    base::sleep_until(next);
    threads.emplace_back([&] {
      Observation observation = ask(resolver, plan.name, plan.type, plan.reference_ns, plan.timeout);
      std::lock_guard lock(mutex);
      observations.push_back(std::move(observation));
    });
  }
  for (auto& thread : threads) thread.join();
  std::sort(observations.begin(), observations.end(),
            [](const Observation& a, const Observation& b) { return a.sent < b.sent; });
  return observations;
}

}  // namespace cutover::lab
