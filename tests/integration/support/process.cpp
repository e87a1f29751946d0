// fork/exec with captured output, bounded waits and kill-by-PID for integration tests.
#include "support/process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

namespace cutover::testing {
namespace {

using Clock = std::chrono::steady_clock;

int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

std::vector<char*> c_argv(std::vector<std::string>& argv) {
  std::vector<char*> out;
  out.reserve(argv.size() + 1);
  for (auto& arg : argv) out.push_back(arg.data());
  out.push_back(nullptr);
  return out;
}

// In the child after fork: only async-signal-safe calls until exec.
[[noreturn]] void exec_child(std::vector<char*>& args, int out_fd, int err_fd) {
  int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  // The test runner may block signals in threads; the child must start with a clean mask.
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execvp(args[0], args.data());
  ::_exit(127);
}

void throw_errno(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

}  // namespace

CommandResult run_command(std::vector<std::string> argv, std::chrono::milliseconds timeout) {
  if (argv.empty()) throw std::invalid_argument("run_command: empty argv");
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw_errno("pipe");
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw_errno("pipe");
  auto args = c_argv(argv);
  pid_t pid = ::fork();
  if (pid < 0) throw_errno("fork");
  if (pid == 0) exec_child(args, out_pipe[1], err_pipe[1]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);

  CommandResult result;
  std::string* sinks[2] = {&result.out, &result.err};
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  auto deadline = Clock::now() + timeout;
  int open_streams = 2;
  while (open_streams > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      result.timed_out = true;
      break;
    }
    int ready = ::poll(fds, 2, static_cast<int>(left));
    if (ready < 0 && errno != EINTR) throw_errno("poll");
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_streams;
      }
    }
  }
  if (result.timed_out) ::kill(pid, SIGKILL);
  for (auto& fd : fds) {
    if (fd.fd >= 0) ::close(fd.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = decode_status(status);
  return result;
}

std::string make_temp_dir(std::string_view prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/" +
                        std::string(prefix) + ".XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) throw_errno("mkdtemp " + pattern);
  return pattern;
}

void write_file(const std::string& path, std::string_view text) {
  // Write then rename, so a server reloading concurrently never sees a half-written file.
  std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw std::runtime_error("cannot write " + temp);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) throw_errno("rename " + temp);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool have_program(std::string_view program) {
  std::string dirs = "/usr/sbin:/sbin:/usr/bin:/bin";
  if (const char* path = std::getenv("PATH"); path != nullptr) dirs = std::string(path) + ":" + dirs;
  std::istringstream list(dirs);
  for (std::string dir; std::getline(list, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/" + std::string(program)).c_str(), X_OK) == 0) return true;
  }
  return false;
}

namespace {

// Ports from the kernel's ephemeral range are handed out again to any client socket (every dig,
// every probe) the moment they are released, so a port picked there and bound a little later
// can be taken by then. Tests' ports come from above that range instead (or below it when it
// reaches the top), never from 25300 to 25400.
std::pair<int, int> test_port_range() {
  int low = 32768;
  int high = 60999;
  std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
  range >> low >> high;
  if (high <= 64000) return {high + 1, 65535};
  return {10000, std::max(10001, low - 1)};
}

bool bindable(int type, std::uint16_t port) {
  int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
  if (fd < 0) throw_errno("socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

bool ipv6_loopback_available() {
  int fd = ::socket(AF_INET6, SOCK_DGRAM, 0);
  if (fd < 0) return false;
  sockaddr_in6 address{};
  address.sin6_family = AF_INET6;
  address.sin6_addr = in6addr_loopback;
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

std::uint16_t free_port() {
  static std::mt19937 random(std::random_device{}() ^ static_cast<unsigned>(::getpid()));
  auto [low, high] = test_port_range();
  std::uniform_int_distribution<int> pick(low, high);
  for (int attempt = 0; attempt < 200; ++attempt) {
    auto port = static_cast<std::uint16_t>(pick(random));
    if (port >= 25300 && port <= 25400) continue;
    if (bindable(SOCK_DGRAM, port) && bindable(SOCK_STREAM, port)) return port;
  }
  throw std::runtime_error("free_port: no port free for both UDP and TCP");
}

ChildProcess::ChildProcess(std::vector<std::string> argv, std::string log_path) : log_path_(std::move(log_path)) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: empty argv");
  if (log_path_.empty()) log_path_ = make_temp_dir("cutover-child") + "/output.log";
  int log_fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw_errno("open " + log_path_);
  auto args = c_argv(argv);
  pid_ = ::fork();
  if (pid_ < 0) {
    ::close(log_fd);
    throw_errno("fork");
  }
  if (pid_ == 0) exec_child(args, log_fd, log_fd);
  ::close(log_fd);
}

ChildProcess::~ChildProcess() { stop(); }

bool ChildProcess::try_reap(bool block) {
  if (exit_status_) return true;
  int status = 0;
  pid_t done;
  do {
    done = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (done < 0 && errno == EINTR);
  if (done != pid_) return false;
  exit_status_ = decode_status(status);
  return true;
}

bool ChildProcess::running() { return !try_reap(false); }

void ChildProcess::signal(int signo) {
  if (running()) ::kill(pid_, signo);
}

std::optional<int> ChildProcess::wait_for_exit(std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  while (!try_reap(false)) {
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return exit_status_;
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
  if (running()) {
    ::kill(pid_, SIGTERM);
    if (!wait_for_exit(grace)) {
      ::kill(pid_, SIGKILL);
      try_reap(true);
    }
  }
  return *exit_status_;
}

}  // namespace cutover::testing
