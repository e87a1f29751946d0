// fork/exec child processes with a PID registry that the interrupt handler can read.
#include "lab/process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <fstream>
#include <thread>

#include "base/clock.h"

namespace cutover::lab {
namespace {

// The registry must be reachable from a signal handler, which takes no arguments: a fixed
// array of atomics is the one process-wide state here, written with lock-free stores.
constexpr std::size_t kMaxChildren = 512;
std::array<std::atomic<pid_t>, kMaxChildren> g_children{};

void register_child(pid_t pid) {
  for (auto& slot : g_children) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pid)) return;
  }
}

void unregister_child(pid_t pid) {
  for (auto& slot : g_children) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

// The forked child: own process group, dies with the lab, output to the log, then exec.
[[noreturn]] void start_child(std::vector<char*>& args, int log, pid_t parent, const std::string& working_dir);

// Network namespaces the lab created (docs/lab.md, "Client runtimes"), with the paths an
// interrupted lab removes: the /run/netns mount and the /etc/netns resolv.conf and directory.
// Built when registered, so the handler only makes system calls.
struct NamespacePaths {
  std::atomic<bool> used{false};
  std::atomic<bool> live{false};
  char mount[128] = {};
  char resolv_conf[160] = {};
  char etc_dir[128] = {};
};
constexpr std::size_t kMaxNamespaces = 256;
std::array<NamespacePaths, kMaxNamespaces> g_namespaces{};

extern "C" void kill_children_and_exit(int) {
  for (auto& slot : g_children) {
    pid_t pid = slot.load();
    if (pid > 0) ::kill(pid, SIGKILL);
  }
  for (auto& entry : g_namespaces) {
    if (!entry.live.load()) continue;
    ::umount2(entry.mount, MNT_DETACH);
    ::unlink(entry.mount);
    ::unlink(entry.resolv_conf);
    ::rmdir(entry.etc_dir);
  }
  static const char message[] = "\ncutover lab: interrupted, stopped every process it started\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(130);
}

// PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, and cases start
// resolvers from short-lived threads: so every fork runs on this one thread, which lives as
// long as the lab process.
class ForkThread {
 public:
  static ForkThread& instance() {
    static ForkThread* thread = new ForkThread();  // never destroyed: it must outlive every caller
    return *thread;
  }
  pid_t run(const std::function<pid_t()>& fork_job) {
    std::packaged_task<pid_t()> task(fork_job);
    auto result = task.get_future();
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    ready_.notify_one();
    return result.get();
  }

 private:
  ForkThread() {
    std::thread([this] {
      while (true) {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return !tasks_.empty(); });
        auto task = std::move(tasks_.front());
        tasks_.pop_front();
        lock.unlock();
        task();
      }
    }).detach();
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::packaged_task<pid_t()>> tasks_;
};

}  // namespace

ChildProcess::ChildProcess(ChildProcess&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    stop();
    pid_ = other.pid_;
    other.pid_ = -1;
  }
  return *this;
}

base::Result<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv, const std::string& log_path,
                                               const std::string& working_dir) {
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) return base::make_error(base::ErrorCode::kIo, log_path + ": " + std::strerror(errno));
  pid_t parent = ::getpid();
  int fork_errno = 0;
  pid_t pid = ForkThread::instance().run([&]() -> pid_t {
    pid_t forked = ::fork();
    if (forked != 0) {
      fork_errno = errno;
      return forked;
    }
    start_child(args, log, parent, working_dir);
    return 0;
  });
  if (pid < 0) {
    ::close(log);
    return base::make_error(base::ErrorCode::kIo, std::string("fork: ") + std::strerror(fork_errno));
  }
  ::close(log);
  register_child(pid);
  ChildProcess child;
  child.pid_ = pid;
  return child;
}

namespace {

void start_child(std::vector<char*>& args, int log, pid_t parent, const std::string& working_dir) {
  ::setpgid(0, 0);  // terminal Ctrl-C reaches the lab only; the lab stops its children
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::dup2(log, STDOUT_FILENO);
  ::dup2(log, STDERR_FILENO);
  int null = ::open("/dev/null", O_RDONLY);
  if (null >= 0) ::dup2(null, STDIN_FILENO);
  if (!working_dir.empty() && ::chdir(working_dir.c_str()) != 0) ::_exit(127);
  ::execvp(args[0], args.data());
  std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
  ::_exit(127);
}

}  // namespace

bool ChildProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == pid_) {
    unregister_child(pid_);
    pid_ = -1;
    return false;
  }
  return true;
}

void ChildProcess::stop(int grace_ms) {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  std::int64_t deadline = base::monotonic_ns() + static_cast<std::int64_t>(grace_ms) * 1'000'000;
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (base::monotonic_ns() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  unregister_child(pid_);
  pid_ = -1;
}

void register_namespace(const std::string& name) {
  for (auto& entry : g_namespaces) {
    bool expected = false;
    if (!entry.used.compare_exchange_strong(expected, true)) continue;
    std::snprintf(entry.mount, sizeof entry.mount, "/run/netns/%s", name.c_str());
    std::snprintf(entry.resolv_conf, sizeof entry.resolv_conf, "/etc/netns/%s/resolv.conf", name.c_str());
    std::snprintf(entry.etc_dir, sizeof entry.etc_dir, "/etc/netns/%s", name.c_str());
    entry.live.store(true);
    return;
  }
}

void unregister_namespace(const std::string& name) {
  std::string mount = "/run/netns/" + name;
  for (auto& entry : g_namespaces) {
    if (entry.live.load() && mount == entry.mount) {
      entry.live.store(false);
      entry.used.store(false);
      return;
    }
  }
}

void install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = kill_children_and_exit;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

std::string log_tail(const std::string& path, std::size_t max_lines) {
  std::ifstream in(path);
  std::deque<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
    if (lines.size() > max_lines) lines.pop_front();
  }
  std::string out;
  for (const auto& kept : lines) out += kept + "\n";
  return out;
}

bool program_exists(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  dirs += ":/usr/sbin:/sbin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::string capture_output(const std::vector<std::string>& argv) { return run_capture(argv).text; }

CommandOutput run_capture(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return {};
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  std::string out;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<std::size_t>(got));
  ::close(pipe_fds[0]);
  int status = 0;
  if (pid <= 0 || ::waitpid(pid, &status, 0) != pid) return {-1, out};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

base::Result<std::uint16_t> free_port() {
  for (int attempt = 0; attempt < 20; ++attempt) {
    int tcp = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (tcp < 0 || ::bind(tcp, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::getsockname(tcp, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      if (tcp >= 0) ::close(tcp);
      continue;
    }
    int udp = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    bool udp_free = udp >= 0 && ::bind(udp, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    if (udp >= 0) ::close(udp);
    ::close(tcp);
    if (udp_free) return static_cast<std::uint16_t>(ntohs(address.sin_port));
  }
  return base::make_error(base::ErrorCode::kIo, "no free port on 127.0.0.1");
}

base::Status write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) return base::make_error(base::ErrorCode::kIo, "cannot write " + path);
  return {};
}

}  // namespace cutover::lab
