// Starting resolver products for the lab and sharing them between cases.
#include "lab/resolvers/instance.h"

#include <sys/stat.h>

#include <fstream>
#include <thread>

#include "base/clock.h"
#include "client/query.h"
#include "lab/probe.h"

namespace cutover::lab {
namespace {

constexpr int kStartAttempts = 3;
constexpr std::int64_t kReadyTimeoutNs = 20'000'000'000;
constexpr std::int64_t kStartupGraceNs = 500'000'000;

}  // namespace

base::Result<std::unique_ptr<ResolverInstance>> ResolverInstance::start(const ResolverAdapter& adapter,
                                                                         const ResolverConfig& config,
                                                                         const std::string& dir,
                                                                         const std::string& probe_name,
                                                                         ConfigFiles* files,
                                                                         std::uint16_t fixed_port,
                                                                         const std::vector<std::string>& exec_prefix) {
  std::unique_ptr<ResolverInstance> instance(new ResolverInstance());
  instance->dir_ = dir;
  if (adapter.external()) {
    auto address = client::parse_server(adapter.external_host() + ":" + std::to_string(adapter.external_port()));
    if (!address) return address.error();
    instance->address_ = *address;
    return instance;
  }
  ::mkdir(dir.c_str(), 0755);
  std::string last_error;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    auto port = fixed_port != 0 ? base::Result<std::uint16_t>(fixed_port) : free_port();
    if (!port) return port.error();
    LaunchPlan plan = adapter.plan(dir, *port, config);
    if (files != nullptr) *files = plan.files;
    for (const auto& [file, text] : plan.files) {
      auto written = write_text(dir + "/" + file, text);
      if (!written) return written.error();
    }
    instance->log_path_ = dir + "/" + adapter.name() + ".log";
    std::vector<std::string> argv = exec_prefix;
    argv.insert(argv.end(), plan.argv.begin(), plan.argv.end());
    auto child = ChildProcess::start(argv, instance->log_path_, dir);
    if (!child) return child.error();
    instance->process_ = std::move(*child);
    instance->address_ = *client::parse_server("127.0.0.1:" + std::to_string(*port));
    std::int64_t started = base::monotonic_ns();
    std::int64_t deadline = started + kReadyTimeoutNs;
    while (base::monotonic_ns() < deadline && instance->process_.running()) {
      Observation probe = ask(instance->address_, probe_name, dns::RRType::A, base::monotonic_ns(),
                              std::chrono::milliseconds(500));
      if (probe.rcode != "TIMEOUT" && probe.rcode != "ERROR") {
        // The reply may come from another program that took the port between free_port() and
        // the resolver's bind; a resolver that lost the port exits at once, so one still
        // running kStartupGraceNs after its start holds the port itself.
        base::sleep_until(started + kStartupGraceNs);
        if (instance->process_.running()) return instance;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    bool died = !instance->process_.running();
    instance->process_.stop();
    last_error = adapter.name() + (died ? " exited during startup" : " did not answer within 20 s") + " (port " +
                 std::to_string(*port) + "); log tail:\n" + log_tail(instance->log_path_);
    if (fixed_port != 0) break;  // a fixed port that is taken stays taken
  }
  return base::make_error(base::ErrorCode::kIo, last_error);
}

InstancePool::InstancePool(const ResolverAdapter& adapter, std::string root_dir)
    : adapter_(adapter), root_dir_(std::move(root_dir)) {}

base::Result<ResolverInstance*> InstancePool::get(const ResolverConfig& config, const std::string& isolation,
                                                  const std::string& probe_name) {
  std::string key = key_of(config, isolation);
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard lock(mutex_);
    auto& entry = slots_[key];
    if (!entry) entry = std::make_shared<Slot>();
    slot = entry;
  }
  std::call_once(slot->once, [&] {
    auto started = ResolverInstance::start(adapter_, config, root_dir_ + "/" + key, probe_name, &slot->files);
    if (started) {
      slot->instance = std::move(*started);
    } else {
      slot->error = started.error();
    }
  });
  if (!slot->instance) return slot->error;
  return slot->instance.get();
}

std::string InstancePool::key_of(const ResolverConfig& config, const std::string& isolation) {
  return std::string(config.upstream.kind == Upstream::Kind::kRootHints ? "roothints-" : "") +
         (config.trust_anchor.empty() ? "" : "dnssec-") + config.cache.label() +
         (isolation.empty() ? "" : "-" + isolation);
}

std::vector<InstanceRecord> InstancePool::records() {
  std::lock_guard lock(mutex_);
  std::vector<InstanceRecord> out;
  for (auto& [key, slot] : slots_) {
    std::string status = slot->instance ? "ok" : slot->error.message.substr(0, slot->error.message.find('\n'));
    out.push_back({key, status, slot->files});
  }
  return out;
}

void InstancePool::stop_all() {
  std::lock_guard lock(mutex_);
  for (auto& [key, slot] : slots_) {
    if (slot->instance) slot->instance->stop();
  }
}

}  // namespace cutover::lab
