// Real etcd members for tests: `etcd` started on loopback ports with its own data directory
// in a temp dir, waited for through the client URL's /health, stopped by PID. Header-only;
// included only by tests (docs/architecture.md, "The layer check"). Not thread-safe.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <httplib.h>

namespace cutover::cluster::testing {

inline bool have_etcd() { return std::system("command -v etcd >/dev/null 2>&1") == 0; }

// A port on 127.0.0.1 that nothing listens on now (the kernel's pick for a socket bound to
// port 0, closed again), for tests of one binary that ctest runs side by side.
inline int free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in where{};
  where.sin_family = AF_INET;
  where.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(where);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&where), sizeof(where)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&where), &length) == 0) {
    port = ntohs(where.sin_port);
  }
  ::close(fd);
  return port;
}

// `count` members; member i listens for clients on base_port + 2i and peers on base_port + 2i + 1
// (base_port 0: ports the kernel picks, so several tests can run at once), on 127.0.0.1 and
// on each of `extra_client_hosts` (addresses of test namespaces' links).
class EtcdCluster {
 public:
  EtcdCluster(int count, int base_port, std::vector<std::string> extra_client_hosts = {})
      : extra_hosts_(std::move(extra_client_hosts)) {
    for (int k = 0; k < 2 * count; ++k) ports_.push_back(base_port != 0 ? base_port + k : free_loopback_port());
    base_port_ = ports_.front();
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("cutover-etcd-{}-{}", ::getpid(), base_port_);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::string initial;
    for (int i = 0; i < count; ++i) {
      if (!initial.empty()) initial += ",";
      initial += fmt::format("m{}=http://127.0.0.1:{}", i, peer_port(i));
    }
    initial_cluster_ = initial;
    pids_.assign(count, -1);
    for (int i = 0; i < count; ++i) start(i, "new");
  }
  ~EtcdCluster() {
    for (std::size_t i = 0; i < pids_.size(); ++i) stop(static_cast<int>(i));
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  EtcdCluster(const EtcdCluster&) = delete;
  EtcdCluster& operator=(const EtcdCluster&) = delete;

  int client_port(int i) const { return ports_[2 * i]; }
  int peer_port(int i) const { return ports_[2 * i + 1]; }
  std::string urls(const std::string& host = "127.0.0.1") const {
    std::string out;
    for (std::size_t i = 0; i < pids_.size(); ++i) {
      if (!out.empty()) out += ",";
      out += fmt::format("http://{}:{}", host, client_port(static_cast<int>(i)));
    }
    return out;
  }

  // Starts member i (again: its data directory is kept, so it rejoins).
  void start(int i, const char* state = "existing") {
    std::string data = (dir_ / fmt::format("m{}", i)).string();
    std::string log = (dir_ / fmt::format("m{}.log", i)).string();
    std::string listen = fmt::format("http://127.0.0.1:{}", client_port(i));
    for (const auto& host : extra_hosts_) listen += fmt::format(",http://{}:{}", host, client_port(i));
    std::vector<std::string> args{"etcd",
                                  "--name", fmt::format("m{}", i),
                                  "--data-dir", data,
                                  "--listen-client-urls", listen,
                                  "--advertise-client-urls", fmt::format("http://127.0.0.1:{}", client_port(i)),
                                  "--listen-peer-urls", fmt::format("http://127.0.0.1:{}", peer_port(i)),
                                  "--initial-advertise-peer-urls", fmt::format("http://127.0.0.1:{}", peer_port(i)),
                                  "--initial-cluster", initial_cluster_,
                                  "--initial-cluster-state", std::filesystem::exists(data) ? "existing" : state,
                                  "--initial-cluster-token", fmt::format("cutover-test-{}", base_port_),
                                  "--heartbeat-interval", "100", "--election-timeout", "1000"};
    pid_t pid = ::fork();
    if (pid == 0) {
      std::FILE* out = std::freopen(log.c_str(), "a", stdout);
      if (out != nullptr) ::dup2(::fileno(stdout), STDERR_FILENO);
      std::vector<char*> argv;
      for (auto& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      ::execvp("etcd", argv.data());
      ::_exit(127);
    }
    pids_[i] = pid;
  }

  // SIGTERM, then SIGKILL after 10 s; reaped either way.
  void stop(int i) {
    pid_t pid = pids_[i];
    if (pid <= 0) return;
    ::kill(pid, SIGTERM);
    for (int tries = 0; tries < 200; ++tries) {
      if (::waitpid(pid, nullptr, WNOHANG) == pid) {
        pids_[i] = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    pids_[i] = -1;
  }

  // SIGKILL, no warning (a crashed member); reaped.
  void kill_hard(int i) {
    pid_t pid = pids_[i];
    if (pid <= 0) return;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    pids_[i] = -1;
  }

  // The index of the member that is the Raft leader now, -1 when none says so. Each
  // running member is asked for its status (member_id and leader, decimal strings).
  int leader() const {
    for (std::size_t i = 0; i < pids_.size(); ++i) {
      if (pids_[i] <= 0) continue;
      httplib::Client client("127.0.0.1", client_port(static_cast<int>(i)));
      client.set_connection_timeout(1, 0);
      client.set_read_timeout(2, 0);
      auto reply = client.Post("/v3/maintenance/status", "{}", "application/json");
      if (!reply || reply->status != 200) continue;
      auto field = [&](const std::string& name) {
        auto at = reply->body.find("\"" + name + "\":\"");
        if (at == std::string::npos) return std::string();
        at += name.size() + 4;
        return reply->body.substr(at, reply->body.find('"', at) - at);
      };
      std::string header_id;
      auto header = reply->body.find("\"member_id\":\"");
      if (header != std::string::npos) {
        header += 13;
        header_id = reply->body.substr(header, reply->body.find('"', header) - header);
      }
      std::string leader_id = field("leader");
      if (!header_id.empty() && header_id == leader_id) return static_cast<int>(i);
    }
    return -1;
  }

  // True once every running member says {"health":"true"} (at most `limit`).
  bool wait_healthy(std::chrono::seconds limit = std::chrono::seconds(60)) const {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      bool all = true;
      for (std::size_t i = 0; i < pids_.size() && all; ++i) {
        if (pids_[i] <= 0) continue;
        httplib::Client client("127.0.0.1", client_port(static_cast<int>(i)));
        client.set_connection_timeout(1, 0);
        client.set_read_timeout(2, 0);
        auto reply = client.Get("/health");
        all = reply && reply->status == 200 && reply->body.find("true") != std::string::npos;
      }
      if (all) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  }

  const std::filesystem::path& dir() const { return dir_; }

 private:
  int base_port_ = 0;
  std::vector<int> ports_;  // client, peer, for each member
  std::vector<std::string> extra_hosts_;
  std::filesystem::path dir_;
  std::string initial_cluster_;
  std::vector<pid_t> pids_;
};

}  // namespace cutover::cluster::testing
