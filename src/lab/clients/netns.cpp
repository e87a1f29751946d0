// Network namespaces of the client cases, through iproute2 and nftables.
#include "lab/clients/netns.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "lab/process.h"

namespace cutover::lab {
namespace {

constexpr const char* kPrefix = "cutover-lab-";

base::Status run_ok(const std::vector<std::string>& argv) {
  CommandOutput out = run_capture(argv);
  if (out.exit_code == 0) return {};
  std::string command;
  for (const auto& arg : argv) command += (command.empty() ? "" : " ") + arg;
  return base::make_error(base::ErrorCode::kIo, command + " failed: " + out.text.substr(0, 300));
}

}  // namespace

std::string namespaces_unavailable() {
  if (::geteuid() != 0) return "needs root (network namespaces, nftables)";
  if (!program_exists("ip")) return "needs ip (install iproute2)";
  if (!program_exists("nft")) return "needs nft (install nftables)";
  return {};
}

base::Result<std::unique_ptr<NetNamespace>> NetNamespace::create() {
  static std::atomic<int> serial{0};
  std::unique_ptr<NetNamespace> ns(new NetNamespace());
  ns->name_ = kPrefix + std::to_string(::getpid()) + "-" + std::to_string(serial.fetch_add(1));
  register_namespace(ns->name_);
  auto added = run_ok({"ip", "netns", "add", ns->name_});
  if (!added) {
    unregister_namespace(ns->name_);
    ns->name_.clear();
    return added.error();
  }
  for (const std::vector<std::string>& step :
       {std::vector<std::string>{"ip", "-n", ns->name_, "link", "set", "lo", "up"},
        std::vector<std::string>{"ip", "-n", ns->name_, "-6", "addr", "add", std::string(kOriginV6First) + "/128", "dev", "lo", "nodad"},
        std::vector<std::string>{"ip", "-n", ns->name_, "-6", "addr", "add", std::string(kOriginV6Second) + "/128", "dev", "lo", "nodad"},
        // A non-loopback IPv4 address, as every real host has: getaddrinfo's AI_ADDRCONFIG
        // (Node's dns.lookup default, with V4MAPPED) asks for A records only when one is
        // configured, so without it Node asked only AAAA and every lookup failed. A veth
        // pair whose both ends stay in the namespace (no dummy driver needed); 192.0.2.254
        // is RFC 5737 documentation space and routes nowhere.
        std::vector<std::string>{"ip", "-n", ns->name_, "link", "add", "lab0", "type", "veth", "peer", "name", "lab1"},
        std::vector<std::string>{"ip", "-n", ns->name_, "addr", "add", "192.0.2.254/32", "dev", "lab0"},
        std::vector<std::string>{"ip", "-n", ns->name_, "link", "set", "lab0", "up"},
        std::vector<std::string>{"ip", "-n", ns->name_, "link", "set", "lab1", "up"}}) {
    auto done = run_ok(step);
    if (!done) return done.error();
  }
  ::mkdir("/etc/netns", 0755);
  ::mkdir(("/etc/netns/" + ns->name_).c_str(), 0755);
  return ns;
}

NetNamespace::~NetNamespace() {
  if (name_.empty()) return;
  run_capture({"ip", "netns", "del", name_});
  std::string dir = "/etc/netns/" + name_;
  ::unlink((dir + "/resolv.conf").c_str());
  ::rmdir(dir.c_str());
  unregister_namespace(name_);
}

base::Status NetNamespace::write_resolv_conf(const std::string& text) {
  std::string path = "/etc/netns/" + name_ + "/resolv.conf";
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return base::make_error(base::ErrorCode::kIo, "cannot write " + path);
  return {};
}

base::Status NetNamespace::load_rules(const std::string& ruleset, const std::string& work_dir) {
  std::string path = work_dir + "/" + name_ + ".nft";
  std::ofstream out(path, std::ios::trunc);
  out << ruleset;
  out.close();
  if (!out) return base::make_error(base::ErrorCode::kIo, "cannot write " + path);
  return run_ok({"ip", "netns", "exec", name_, "nft", "-f", path});
}

std::string NetNamespace::list_rules() {
  return run_capture({"ip", "netns", "exec", name_, "nft", "-j", "list", "ruleset"}).text;
}

base::Result<NetNamespace::Entered> NetNamespace::enter() {
  int previous = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (previous < 0) return base::make_error(base::ErrorCode::kIo, "cannot open /proc/thread-self/ns/net");
  int target = ::open(("/run/netns/" + name_).c_str(), O_RDONLY | O_CLOEXEC);
  if (target < 0 || ::setns(target, CLONE_NEWNET) != 0) {
    if (target >= 0) ::close(target);
    ::close(previous);
    return base::make_error(base::ErrorCode::kIo, "cannot enter network namespace " + name_);
  }
  ::close(target);
  return Entered(previous);
}

NetNamespace::Entered::~Entered() {
  if (previous_ < 0) return;
  (void)::setns(previous_, CLONE_NEWNET);
  ::close(previous_);
}

void NetNamespace::remove_stale() {
  if (!namespaces_unavailable().empty()) return;
  std::istringstream listing(run_capture({"ip", "netns", "list"}).text);
  std::string line;
  while (std::getline(listing, line)) {
    std::string name = line.substr(0, line.find(' '));
    if (name.rfind(kPrefix, 0) != 0) continue;
    std::string rest = name.substr(std::string(kPrefix).size());
    pid_t owner = static_cast<pid_t>(std::atol(rest.substr(0, rest.find('-')).c_str()));
    if (owner <= 0 || owner == ::getpid() || ::kill(owner, 0) == 0) continue;
    run_capture({"ip", "netns", "del", name});
    ::unlink(("/etc/netns/" + name + "/resolv.conf").c_str());
    ::rmdir(("/etc/netns/" + name).c_str());
  }
  // The first `ip netns add` makes /run/netns a shared mount; doing that once here, before
  // the cases create their namespaces all at once, keeps them from racing to do it.
  auto first = create();
  (void)first;
}

}  // namespace cutover::lab
