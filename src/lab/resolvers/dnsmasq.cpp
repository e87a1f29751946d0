// dnsmasq adapter: `dnsmasq -k -C dnsmasq.conf`, a forwarder with a cache. It cannot iterate from
// root hints, and --neg-ttl applies only to replies without a SOA, so it has no negative cap.
// introspect() sends SIGUSR1 and reads the cache table dnsmasq writes to its log file
// (dnsmasq(8): --log-queries enables the full cache dump on SIGUSR1).
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "lab/resolvers/cache_dumps.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

constexpr int kDumpWaitSteps = 100;  // 20 ms each
constexpr auto kDumpWaitStep = std::chrono::milliseconds(20);

// The text of `path` from byte `offset` on.
std::string read_from(const std::string& path, std::streamoff offset) {
  std::ifstream in(path);
  in.seekg(offset);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::streamoff file_size(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? static_cast<std::streamoff>(info.st_size) : 0;
}

class Dnsmasq : public ResolverAdapter {
 public:
  std::string name() const override { return "dnsmasq"; }
  std::string program() const override { return "dnsmasq"; }
  std::string package() const override { return "dnsmasq-base"; }
  std::string unsupported(const ResolverConfig& config) const override {
    if (config.upstream.kind == Upstream::Kind::kRootHints) return "dnsmasq forwards only; it cannot start from root hints";
    if (!config.trust_anchor.empty()) return "the lab does not configure dnsmasq's validator";
    if (config.cache.negative_cap) return "--neg-ttl applies only to negative replies without a SOA";
    return {};
  }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    std::string zone = config.upstream.zone;
    if (!zone.empty() && zone.back() == '.') zone.pop_back();
    std::string conf = fmt::format(
        "port={}\nlisten-address=127.0.0.1\nbind-interfaces\nno-resolv\nno-hosts\nno-poll\n"
        "server=/{}/{}#{}\ncache-size=10000\nuser=root\npid-file={}\nlog-facility={}\nlog-queries\n",
        port, zone, config.upstream.host, config.upstream.port, pid_file(dir), syslog_file(dir));
    if (cache.ttl_floor) conf += fmt::format("min-cache-ttl={}\n", *cache.ttl_floor);
    if (cache.ttl_cap) conf += fmt::format("max-cache-ttl={}\n", *cache.ttl_cap);
    if (cache.stale_window) conf += fmt::format("use-stale-cache={}\n", *cache.stale_window);
    // --resolver-option lines are dnsmasq.conf option lines (long option names without --).
    for (const auto& line : config.extra_lines) conf += line + "\n";
    LaunchPlan plan;
    plan.files.emplace_back("dnsmasq.conf", conf);
    plan.argv = {"dnsmasq", "-k", "-C", dir + "/dnsmasq.conf"};
    return plan;
  }

  nlohmann::json introspect(const std::string& dir, const std::vector<std::string>& names) const override {
    std::ifstream pid_in(pid_file(dir));
    pid_t pid = 0;
    if (!(pid_in >> pid) || pid <= 0) return {{"available", false}, {"reason", "no pid in " + pid_file(dir)}};
    // One dump at a time, so each reads the table its own signal produced.
    static std::mutex dumping;
    std::lock_guard lock(dumping);
    std::string log = syslog_file(dir);
    std::streamoff before = file_size(log);
    if (::kill(pid, SIGUSR1) != 0) return {{"available", false}, {"reason", "cannot signal dnsmasq (pid " + std::to_string(pid) + ")"}};
    // The table is written in one go after the statistics; wait until it is there and the
    // file has stopped growing.
    std::string text;
    for (int step = 0; step < kDumpWaitSteps; ++step) {
      std::this_thread::sleep_for(kDumpWaitStep);
      std::string now = read_from(log, before);
      if (now == text && text.find("Expires") != std::string::npos) break;
      text = now;
    }
    nlohmann::json state = parse_dnsmasq_cache_dump(text, names);
    if (!state.value("found", false)) {
      return {{"available", false}, {"reason", "dnsmasq wrote no cache table to " + log + " within 2 s of SIGUSR1"}};
    }
    state.erase("found");
    state["available"] = true;
    state["source"] = "SIGUSR1 cache dump in " + log;
    return state;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"dnsmasq", "--version"}; }

 private:
  static std::string pid_file(const std::string& dir) { return dir + "/dnsmasq.pid"; }
  static std::string syslog_file(const std::string& dir) { return dir + "/dnsmasq-syslog.log"; }
};

}  // namespace

ResolverKind dnsmasq_resolver() { return {"dnsmasq", true, without_options<Dnsmasq>}; }

}  // namespace cutover::lab
